/*
 * cuda_abi.h - the parts of the CUDA runtime's binary interface that weft's
 * libcudart.so.13 must match: error codes, enumerations, and the layout of
 * the structures programs pass in or get back. weft's own declarations,
 * written from the values of the CUDA 13.0 toolkit's headers
 * (driver_types.h, vector_types.h, crt/host_runtime.h,
 * crt/device_functions.h; offsets measured with offsetof against them);
 * no NVIDIA header is included or copied. Names keep the CUDA enumerator
 * in a comment so they can be looked up.
 */
#ifndef WEFT_CUDA_ABI_H
#define WEFT_CUDA_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Every function the library exports (the version script
 * trace/cudart/libcudart.map names them libcudart.so.13, as the real
 * library's version node); everything else is hidden. */
#define WCU_API __attribute__((visibility("default")))

/* cudaError_t (driver_types.h, enum cudaError): an int-sized enum. */
enum {
	WCU_SUCCESS = 0,                     /* cudaSuccess */
	WCU_INVALID_VALUE = 1,               /* cudaErrorInvalidValue */
	WCU_MEMORY_ALLOCATION = 2,           /* cudaErrorMemoryAllocation */
	WCU_INITIALIZATION_ERROR = 3,        /* cudaErrorInitializationError */
	WCU_CUDART_UNLOADING = 4,            /* cudaErrorCudartUnloading */
	WCU_INVALID_CONFIGURATION = 9,       /* cudaErrorInvalidConfiguration */
	WCU_INVALID_PITCH_VALUE = 12,        /* cudaErrorInvalidPitchValue */
	WCU_INVALID_SYMBOL = 13,             /* cudaErrorInvalidSymbol */
	WCU_INVALID_DEVICE_POINTER = 17,     /* cudaErrorInvalidDevicePointer */
	WCU_INVALID_MEMCPY_DIRECTION = 21,   /* cudaErrorInvalidMemcpyDirection */
	WCU_MISSING_CONFIGURATION = 52,      /* cudaErrorMissingConfiguration */
	WCU_INVALID_DEVICE_FUNCTION = 98,    /* cudaErrorInvalidDeviceFunction */
	WCU_INVALID_DEVICE = 101,            /* cudaErrorInvalidDevice */
	WCU_INVALID_KERNEL_IMAGE = 200,      /* cudaErrorInvalidKernelImage */
	WCU_NO_KERNEL_IMAGE = 209,           /* cudaErrorNoKernelImageForDevice */
	WCU_UNSUPPORTED_LIMIT = 215,         /* cudaErrorUnsupportedLimit */
	WCU_INVALID_PTX = 218,               /* cudaErrorInvalidPtx */
	WCU_INVALID_RESOURCE_HANDLE = 400,   /* cudaErrorInvalidResourceHandle */
	WCU_ILLEGAL_ADDRESS = 700,           /* cudaErrorIllegalAddress */
	WCU_LAUNCH_TIMEOUT = 702,            /* cudaErrorLaunchTimeout */
	WCU_ASSERT = 710,                    /* cudaErrorAssert */
	WCU_MISALIGNED_ADDRESS = 716,        /* cudaErrorMisalignedAddress */
	WCU_LAUNCH_FAILURE = 719,            /* cudaErrorLaunchFailure */
	WCU_NOT_SUPPORTED = 801,             /* cudaErrorNotSupported */
	WCU_UNKNOWN = 999,                   /* cudaErrorUnknown */
};

/* dim3 (vector_types.h): three unsigned ints, passed by value. */
struct wcu_dim3 {
	unsigned x, y, z;
};

/* enum cudaMemcpyKind (driver_types.h) */
enum {
	WCU_MEMCPY_H2H = 0,     /* cudaMemcpyHostToHost */
	WCU_MEMCPY_H2D = 1,     /* cudaMemcpyHostToDevice */
	WCU_MEMCPY_D2H = 2,     /* cudaMemcpyDeviceToHost */
	WCU_MEMCPY_D2D = 3,     /* cudaMemcpyDeviceToDevice */
	WCU_MEMCPY_DEFAULT = 4, /* cudaMemcpyDefault: inferred from the pointers */
};

/* enum cudaMemoryType (driver_types.h), in cudaPointerAttributes.type */
enum {
	WCU_MEMTYPE_UNREGISTERED = 0, /* cudaMemoryTypeUnregistered */
	WCU_MEMTYPE_HOST = 1,         /* cudaMemoryTypeHost */
	WCU_MEMTYPE_DEVICE = 2,       /* cudaMemoryTypeDevice */
};

/* struct cudaPointerAttributes (driver_types.h): 88 bytes */
struct wcu_pointer_attributes {
	int type;
	int device;
	void *device_pointer;
	void *host_pointer;
	long reserved[8];
};

/* enum cudaLimit (driver_types.h) */
enum {
	WCU_LIMIT_STACK_SIZE = 0,        /* cudaLimitStackSize */
	WCU_LIMIT_PRINTF_FIFO_SIZE = 1,  /* cudaLimitPrintfFifoSize */
	WCU_LIMIT_MALLOC_HEAP_SIZE = 2,  /* cudaLimitMallocHeapSize */
	WCU_LIMIT_COUNT = 7,             /* cudaLimitPersistingL2CacheSize is 6, the last */
};

/* enum cudaFuncAttribute (driver_types.h) */
enum {
	WCU_FUNC_ATTR_MAX_DYNAMIC_SHARED = 8, /* cudaFuncAttributeMaxDynamicSharedMemorySize */
	WCU_FUNC_ATTR_CARVEOUT = 9,           /* cudaFuncAttributePreferredSharedMemoryCarveout */
};

/* struct cudaFuncAttributes (driver_types.h): 144 bytes */
struct wcu_func_attributes {
	size_t shared_size_bytes;
	size_t const_size_bytes;
	size_t local_size_bytes;
	int max_threads_per_block;
	int num_regs;
	int ptx_version;
	int binary_version;
	int cache_mode_ca;
	int max_dynamic_shared_size_bytes;
	int preferred_shmem_carveout;
	int cluster_dim_must_be_set;
	int required_cluster_width, required_cluster_height, required_cluster_depth;
	int cluster_scheduling_policy_preference;
	int non_portable_cluster_size_allowed;
	int reserved[16];
};

/* cudaLaunchConfig_t (driver_types.h): 56 bytes; each cudaLaunchAttribute
 * is 72 bytes, its id (enum cudaLaunchAttributeID) first. */
struct wcu_launch_config {
	struct wcu_dim3 grid;
	struct wcu_dim3 block;
	size_t dynamic_smem_bytes;
	void *stream;
	const void *attrs;
	unsigned num_attrs;
};
#define WCU_LAUNCH_ATTRIBUTE_BYTES 72u

/* struct cudaChannelFormatDesc (driver_types.h): 20 bytes, returned by
 * value by cudaCreateChannelDesc. */
struct wcu_channel_desc {
	int x, y, z, w;
	int f; /* enum cudaChannelFormatKind */
};

/* struct cudaExtent, cudaPos, cudaPitchedPtr and cudaMemcpy3DParms
 * (driver_types.h): size_t members, no padding; cudaMemcpy3DParms is 160
 * bytes (two array handles, two positions, two pitched pointers, the
 * extent, the copy kind). */
struct wcu_extent {
	size_t width, height, depth;
};
struct wcu_pos {
	size_t x, y, z;
};
struct wcu_pitched_ptr {
	void *ptr;
	size_t pitch, xsize, ysize;
};
struct wcu_memcpy3d_parms {
	void *src_array;
	struct wcu_pos src_pos;
	struct wcu_pitched_ptr src_ptr;
	void *dst_array;
	struct wcu_pos dst_pos;
	struct wcu_pitched_ptr dst_ptr;
	struct wcu_extent extent;
	int kind; /* enum cudaMemcpyKind */
};

/* CUDA array flags (driver_types.h, cudaArray*) */
#define WCU_ARRAY_LAYERED 0x01u            /* cudaArrayLayered */
#define WCU_ARRAY_SURFACE_LOAD_STORE 0x02u /* cudaArraySurfaceLoadStore */
#define WCU_ARRAY_CUBEMAP 0x04u            /* cudaArrayCubemap */
#define WCU_ARRAY_TEXTURE_GATHER 0x08u     /* cudaArrayTextureGather */
#define WCU_ARRAY_COLOR_ATTACHMENT 0x20u   /* cudaArrayColorAttachment */
#define WCU_ARRAY_SPARSE 0x40u             /* cudaArraySparse */
#define WCU_ARRAY_DEFERRED_MAPPING 0x80u   /* cudaArrayDeferredMapping */

/* enum cudaResourceType (driver_types.h) */
enum {
	WCU_RESOURCE_ARRAY = 0,           /* cudaResourceTypeArray */
	WCU_RESOURCE_MIPMAPPED_ARRAY = 1, /* cudaResourceTypeMipmappedArray */
	WCU_RESOURCE_LINEAR = 2,          /* cudaResourceTypeLinear */
	WCU_RESOURCE_PITCH2D = 3,         /* cudaResourceTypePitch2D */
};

/* struct cudaResourceDesc (driver_types.h, CUDA 13.0): the resource type,
 * a union of 128 bytes (its `reserved` member, 32 ints) whose linear and
 * 2-D pitched members weft reads, and flags (must be 0). Field order and
 * types as the header declares them; the compiler's natural alignment
 * gives the same offsets as nvcc's host compiler. */
struct wcu_resource_desc {
	int res_type; /* enum cudaResourceType */
	union {
		void *array;
		struct {
			void *dev_ptr;
			struct wcu_channel_desc desc;
			size_t size_in_bytes;
		} linear;
		struct {
			void *dev_ptr;
			struct wcu_channel_desc desc;
			size_t width, height, pitch_in_bytes;
		} pitch2d;
		int reserved[32];
	} res;
	unsigned flags;
};

/* struct cudaTextureDesc (texture_types.h, CUDA 13.0): every member in
 * the header's order. */
struct wcu_texture_desc {
	int address_mode[3]; /* enum cudaTextureAddressMode */
	int filter_mode;     /* enum cudaTextureFilterMode */
	int read_mode;       /* enum cudaTextureReadMode */
	int srgb;
	float border_color[4];
	int normalized_coords;
	unsigned max_anisotropy;
	int mipmap_filter_mode;
	float mipmap_level_bias, min_mipmap_level_clamp, max_mipmap_level_clamp;
	int disable_trilinear_optimization;
	int seamless_cubemap;
};

/* struct cudaDeviceProp (driver_types.h, CUDA 13.0): 1008 bytes. weft
 * fills the fields below at these byte offsets and zeroes the rest. */
#define WCU_PROP_BYTES 1008u
#define WCU_PROP_NAME 0u                    /* char[256] */
#define WCU_PROP_TOTAL_GLOBAL_MEM 288u      /* size_t */
#define WCU_PROP_SHARED_PER_BLOCK 296u      /* size_t */
#define WCU_PROP_REGS_PER_BLOCK 304u        /* int */
#define WCU_PROP_WARP_SIZE 308u             /* int */
#define WCU_PROP_MEM_PITCH 312u             /* size_t */
#define WCU_PROP_MAX_THREADS_PER_BLOCK 320u /* int */
#define WCU_PROP_MAX_THREADS_DIM 324u       /* int[3] */
#define WCU_PROP_MAX_GRID_SIZE 336u         /* int[3] */
#define WCU_PROP_TOTAL_CONST_MEM 352u       /* size_t */
#define WCU_PROP_MAJOR 360u                 /* int */
#define WCU_PROP_MINOR 364u                 /* int */
#define WCU_PROP_MULTIPROCESSOR_COUNT 384u  /* int */
#define WCU_PROP_UNIFIED_ADDRESSING 588u    /* int */
#define WCU_PROP_MAX_THREADS_PER_SM 604u    /* int */
#define WCU_PROP_SHARED_PER_SM 624u         /* size_t */
#define WCU_PROP_REGS_PER_SM 632u           /* int */
#define WCU_PROP_SHARED_PER_BLOCK_OPTIN 672u /* size_t */
#define WCU_PROP_MAX_BLOCKS_PER_SM 688u     /* int */

/* enum cudaDeviceAttr (driver_types.h): the attributes weft answers. */
enum {
	WCU_ATTR_MAX_THREADS_PER_BLOCK = 1,
	WCU_ATTR_MAX_BLOCK_DIM_X = 2,
	WCU_ATTR_MAX_BLOCK_DIM_Y = 3,
	WCU_ATTR_MAX_BLOCK_DIM_Z = 4,
	WCU_ATTR_MAX_GRID_DIM_X = 5,
	WCU_ATTR_MAX_GRID_DIM_Y = 6,
	WCU_ATTR_MAX_GRID_DIM_Z = 7,
	WCU_ATTR_MAX_SHARED_PER_BLOCK = 8,
	WCU_ATTR_TOTAL_CONSTANT_MEMORY = 9,
	WCU_ATTR_WARP_SIZE = 10,
	WCU_ATTR_MAX_PITCH = 11,
	WCU_ATTR_MAX_REGISTERS_PER_BLOCK = 12,
	WCU_ATTR_CLOCK_RATE = 13,
	WCU_ATTR_MULTIPROCESSOR_COUNT = 16,
	WCU_ATTR_INTEGRATED = 18,
	WCU_ATTR_CAN_MAP_HOST_MEMORY = 19,
	WCU_ATTR_COMPUTE_MODE = 20,
	WCU_ATTR_CONCURRENT_KERNELS = 31,
	WCU_ATTR_ECC_ENABLED = 32,
	WCU_ATTR_PCI_BUS_ID = 33,
	WCU_ATTR_PCI_DEVICE_ID = 34,
	WCU_ATTR_MEMORY_CLOCK_RATE = 36,
	WCU_ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37,
	WCU_ATTR_L2_CACHE_SIZE = 38,
	WCU_ATTR_MAX_THREADS_PER_SM = 39,
	WCU_ATTR_ASYNC_ENGINE_COUNT = 40,
	WCU_ATTR_UNIFIED_ADDRESSING = 41,
	WCU_ATTR_PCI_DOMAIN_ID = 50,
	WCU_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
	WCU_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
	WCU_ATTR_STREAM_PRIORITIES_SUPPORTED = 78,
	WCU_ATTR_MAX_SHARED_PER_SM = 81,
	WCU_ATTR_MAX_REGISTERS_PER_SM = 82,
	WCU_ATTR_MANAGED_MEMORY = 83,
	WCU_ATTR_CONCURRENT_MANAGED_ACCESS = 89,
	WCU_ATTR_COOPERATIVE_LAUNCH = 95,
	WCU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97,
	WCU_ATTR_MAX_BLOCKS_PER_SM = 106,
	WCU_ATTR_MEMORY_POOLS_SUPPORTED = 115,
	WCU_ATTR_CLUSTER_LAUNCH = 120,
	WCU_ATTR_LAST = 147, /* cudaDevAttrOnlyPartialHostNativeAtomicSupported, the last */
};

/* Stream handles with a meaning of their own (driver_types.h):
 * cudaStreamLegacy and cudaStreamPerThread; 0 is the default stream. */
#define WCU_STREAM_LEGACY ((void *)0x1)
#define WCU_STREAM_PER_THREAD ((void *)0x2)

/* Event flags (driver_types.h): cudaEventDisableTiming */
#define WCU_EVENT_DISABLE_TIMING 0x02u
/* Host allocation flags (driver_types.h): cudaHostAllocMapped */
#define WCU_HOST_ALLOC_MAPPED 0x02u

/* The runtime version weft's library reports (cudaRuntimeGetVersion,
 * cudaDriverGetVersion): 1000 * major + 10 * minor, CUDA 13.0 (the
 * CUDART_VERSION of cuda_runtime_api.h). */
#define WCU_RUNTIME_VERSION 13000

#endif
