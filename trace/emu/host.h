/*
 * host.h - a host API shaped like the CUDA runtime, over weft's functional
 * emulator.
 *
 * A host driver creates a context, loads a PTX module, allocates and fills
 * device memory, launches kernels by name, and copies results back:
 *
 *     struct weft_ctx *ctx = weft_ctx_create(NULL);
 *     struct weft_module *mod;
 *     weft_module_load_file(ctx, "vvadd.ptx", &mod, &err);
 *     uint64_t d_a;  weft_malloc(ctx, n * 4, &d_a, &err);
 *     weft_memcpy_htod(ctx, d_a, a, n * 4, &err);
 *     struct weft_arg args[] = { WEFT_ARG(d_a), WEFT_ARG(n) };
 *     weft_launch(ctx, mod, "vvadd", weft_dim3(n / 256, 1, 1),
 *                 weft_dim3(256, 1, 1), 0, args, 2, &err);
 *     weft_memcpy_dtoh(ctx, a, d_a, n * 4, &err);
 *     weft_ctx_destroy(ctx);
 *
 * Device pointers are 64-bit generic addresses in the global window; any
 * access outside every live allocation (and outside module .global/.const
 * variables) stops the launch with WEFT_ERR_RUNTIME and a message naming the
 * kernel, CTA, thread, PC, PTX source line, address and nearest allocation.
 *
 * Launches run the whole grid functionally, CTA by CTA (see emu.h for how
 * warps execute). An observer (struct weft_emu_observer) can watch every
 * executed warp instruction; the trace writer is one such observer.
 *
 * Texture and surface objects (weft_tex_create, weft_surf_create) wrap
 * device memory for tex/tld4/suld/sust; weft_module_symbol gives a module
 * variable's address (cudaGetSymbolAddress). A module loads even when some
 * of its kernels use PTX weft does not run: launching one of those is the
 * error (WEFT_ERR_PARSE naming the kernel and the instruction).
 */
#ifndef WEFT_HOST_H
#define WEFT_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/ptx/ptx.h"

struct weft_ctx;
struct weft_module;

struct weft_dim3 {
	uint32_t x, y, z;
};
static inline struct weft_dim3 weft_dim3(uint32_t x, uint32_t y, uint32_t z)
{
	struct weft_dim3 d = { x, y, z };
	return d;
}

/* ---- launch limits --------------------------------------------------------
 * CUDA's limits for one launch on the newest architecture weft knows,
 * compute capability 9.0 (NVIDIA, CUDA C++ Programming Guide, "Features and
 * Technical Specifications", table "Technical Specifications per Compute
 * Capability"). weft_launch, launch specs and the trace reader refuse
 * anything beyond them with WEFT_ERR_INPUT (a trace: corrupt), naming the
 * limit, before they allocate anything of the requested size. */
#define WEFT_MAX_BLOCK_THREADS 1024u    /* threads per block */
#define WEFT_MAX_BLOCK_X 1024u          /* block dimensions */
#define WEFT_MAX_BLOCK_Y 1024u
#define WEFT_MAX_BLOCK_Z 64u
#define WEFT_MAX_GRID_X 0x7fffffffu     /* grid dimensions: 2^31 - 1 */
#define WEFT_MAX_GRID_Y 65535u
#define WEFT_MAX_GRID_Z 65535u
/* shared memory per block: 227 KB on 9.0 with the opt-in attribute
 * (cudaFuncAttributeMaxDynamicSharedMemorySize); 48 KB without it */
#define WEFT_MAX_SHARED_BYTES (227u * 1024u)
#define WEFT_MAX_LOCAL_BYTES (512u * 1024u) /* local memory per thread */
#define WEFT_MAX_REGS_PER_THREAD 255u   /* 32-bit registers per thread (.maxnreg) */
/* Not CUDA's: the emulator keeps every PTX virtual register of a kernel
 * and of the calls it inlines in a slot of 8 bytes per thread. ptxas maps
 * them onto at most 255 hardware registers, so a kernel may declare more
 * (sgemm's PTX declares over 700); this bound, far above what compilers
 * emit, keeps a hostile module from sizing the register file (65536 slots
 * are 512 MiB for a block of 1024 threads). */
#define WEFT_MAX_REG_SLOTS 65536u

/* Checks grid and block against the limits above (every dimension at
 * least 1, block product and each dimension, grid dimensions). Returns 0,
 * or -1 with why filled: a sentence naming the dimension and the limit. */
int weft_launch_check_dims(struct weft_dim3 grid, struct weft_dim3 block, char *why, size_t len);

/* One kernel argument: the bytes of its value, as cuLaunchKernel's
 * kernelParams. size must equal the PTX parameter's size. */
struct weft_arg {
	const void *data;
	size_t size;
};
#define WEFT_ARG(v) ((struct weft_arg){ &(v), sizeof(v) })

/* Per executed warp instruction: which lanes ran it and, for memory
 * instructions, each active lane's address (generic address space as the
 * kernel saw it, plus the resolved state space). Called after execution. */
struct weft_warp_event {
	uint32_t func;        /* function index in the module (after inlining: the kernel) */
	uint32_t pc;          /* instruction index in that function */
	const struct weft_inst *inst;
	uint32_t cta_linear;  /* linear CTA id in the grid */
	uint32_t warp;        /* warp index in the CTA */
	uint32_t active;      /* lanes that executed (guard true included) */
	uint32_t guard_false; /* lanes that reached the instruction but whose guard was false */
	uint8_t space;        /* resolved state space of a memory access */
	uint8_t access_bytes; /* bytes per lane per access (vector included) */
	const uint64_t *addr; /* [32] per-lane addresses (valid for active lanes), NULL if no memory access */
};

struct weft_emu_observer {
	void *user;
	/* Called at the start and end of each launch. */
	int (*launch_begin)(void *user, const struct weft_module *mod, uint32_t kernel,
			    struct weft_dim3 grid, struct weft_dim3 block,
			    uint32_t dyn_shared, struct weft_error *err);
	int (*launch_end)(void *user, struct weft_error *err);
	/* CTA boundaries: every warp event of a CTA arrives between these. */
	int (*cta_begin)(void *user, uint32_t cta_linear, struct weft_error *err);
	int (*cta_end)(void *user, uint32_t cta_linear, struct weft_error *err);
	/* Every executed warp instruction. Return nonzero (having filled err) to
	 * stop the launch. */
	int (*warp_inst)(void *user, const struct weft_warp_event *ev, struct weft_error *err);
	/* Parallel emulation (weft_ctx_options.jobs > 1). An observer without
	 * the first six runs every launch on one thread. With them, each
	 * worker thread opens one recorder for the launch (after
	 * launch_begin) and runs batches of CTAs into it, one CTA after
	 * another: worker_cta_begin, the CTA's events through
	 * worker_warp_inst, then worker_cta_end right after the CTA has run
	 * (all on that worker's thread only, never concurrently for one
	 * recorder, and concurrently with other workers' calls and commits).
	 * worker_cta_end finishes the CTA's record with what needs nothing of
	 * the CTAs before it, such as encoding it (the trace writer), and
	 * keeps it in the recorder: a worker runs several CTAs ahead of their
	 * commits. Later, cta_commit is called one at a time in increasing
	 * CTA order (on the worker that ran the CTA, so a recorder's CTAs
	 * commit in the order it ran them): what cta_begin, the CTA's events
	 * and cta_end would have done, in the order one thread would have
	 * done it. An error of worker_cta_end is the CTA's, reported at its
	 * turn. CTAs that end but never commit (the launch stopped at an
	 * earlier CTA) are dropped by worker_close, which frees a recorder
	 * (before launch_end). */
	void *(*worker_open)(void *user, struct weft_error *err);
	int (*worker_cta_begin)(void *wuser, uint32_t cta_linear, struct weft_error *err);
	int (*worker_warp_inst)(void *wuser, const struct weft_warp_event *ev, struct weft_error *err);
	int (*worker_cta_end)(void *wuser, uint32_t cta_linear, struct weft_error *err);
	int (*cta_commit)(void *user, void *wuser, uint32_t cta_linear, struct weft_error *err);
	void (*worker_close)(void *user, void *wuser);
	/* Optional: called by the worker after the commits of a batch, outside
	 * the order (concurrently with other workers' calls and commits): work
	 * the commits left for it, such as compressing the chunks they closed
	 * (the trace writer writes compressed chunks in their order). */
	int (*worker_after_commit)(void *user, void *wuser, struct weft_error *err);
	/* Optional, both or neither: an observer that needs the events of some
	 * instructions only. launch_want is called after launch_begin and
	 * returns, for the launch's program (event.pc), a byte per pc, nonzero
	 * where warp_inst / worker_warp_inst is wanted, and how many pcs it
	 * covers (*n; pcs at or past n are delivered); it stays valid until
	 * launch_end; NULL: every instruction. The other instructions are
	 * only counted: launch_counts gets the launch's thread and warp
	 * instructions (what the events' active lanes and the events would
	 * have summed to) just before launch_end. */
	const uint8_t *(*launch_want)(void *user, uint32_t *n);
	void (*launch_counts)(void *user, uint64_t thread_insts, uint64_t warp_insts);
};

/* The default instruction budget of one launch (thread instructions):
 * 10^10, ten times the largest launch of the bundled workloads at --size
 * large (docs/cli.md, `weft-trace run --max-launch-insts`); at the
 * emulator's 10^7..10^8 thread instructions per second a kernel that never
 * ends stops within minutes. */
#define WEFT_DEFAULT_LAUNCH_INSTS 10000000000ull

struct weft_ctx_options {
	/* Stop a launch once this many thread instructions ran in total in the
	 * context, over all its launches (0 = no limit). Exceeding it is
	 * WEFT_ERR_LIMIT. */
	uint64_t max_thread_insts;
	/* The instruction budget of each launch: stop a launch once its own
	 * threads ran this many instructions (0 = WEFT_DEFAULT_LAUNCH_INSTS,
	 * UINT64_MAX = none). A kernel that never ends stops here with
	 * WEFT_ERR_LIMIT naming the kernel and the CTA and thread that was
	 * running. weft_launch_opts may lower it for one launch. */
	uint64_t max_launch_insts;
	/* The most device memory the context may hold at once, in bytes: module
	 * variables and weft_malloc together (0 = this process's memory: the
	 * machine's physical memory, or `ulimit -v` / `ulimit -d` where lower;
	 * UINT64_MAX = none). An allocation beyond it is WEFT_ERR_LIMIT naming
	 * the request, the total and the limit, before anything is allocated:
	 * device memory lives in host memory, so a request the host cannot hold
	 * is refused instead of failing late or swapping. */
	uint64_t max_device_bytes;
	/* Called now and then during long launches (about every 2^22 warp
	 * instructions) with the CTA running, the grid's CTAs and the thread
	 * instructions so far in the context; may be NULL. */
	void (*progress)(void *user, const char *kernel, uint32_t ctas_done,
			 uint32_t ctas_total, uint64_t thread_insts);
	void *progress_user;
	/* Optional observer of every executed warp instruction (may be NULL). */
	const struct weft_emu_observer *observer;
	/* Device-side printf (a call to vprintf): each call's text, formatted
	 * per lane in lane order as the warp executes it, at most
	 * WEFT_PRINTF_MAX_TEXT bytes a call (docs/emulator.md "Device printf").
	 * NULL: calls are counted but nothing is formatted and vprintf returns
	 * 0. The library itself never prints. */
	void (*print)(void *user, const char *text, size_t len);
	void *print_user;
	/* Warp scheduling quantum: a CTA's warps are interleaved, each running at
	 * most this many warp instructions before the next one gets a turn
	 * (0 = default, 64). */
	uint32_t quantum;
	/* Worker threads a launch's CTAs may run on (0 or 1: one thread, the
	 * caller's). A launch runs in parallel only when its kernel allows it
	 * (no global atomics, fences, volatile global accesses or clock reads:
	 * those launches run on one thread, trace/emu/emu_par.c) and the
	 * observer, if any, has the worker ops; memory, traces and reports are
	 * the same whatever the count (docs/emulator.md "Parallel emulation"). */
	unsigned jobs;
};

/* Device printf's bounds (weft's own, for hostile kernels): the text of
 * one call (longer is cut, ending in "..."), a format string, a %s
 * string, and the arguments one call reads (CUDA: 32). */
#define WEFT_PRINTF_MAX_TEXT 4096u
#define WEFT_PRINTF_MAX_FORMAT 4096u
#define WEFT_PRINTF_MAX_STRING 1024u
#define WEFT_PRINTF_MAX_ARGS 32u

/* Totals over the context's launches. */
struct weft_ctx_stats {
	uint64_t launches;
	uint64_t device_bytes;      /* device memory held now */
	uint64_t device_bytes_peak; /* the most held at once */
	uint64_t device_bytes_limit; /* weft_ctx_options.max_device_bytes as applied */
	uint64_t thread_insts;  /* instructions executed by threads (guard true) */
	uint64_t warp_insts;    /* warp instructions issued (any lane active) */
	uint64_t ctas;
	uint64_t parallel_launches; /* launches whose CTAs ran on several threads (jobs > 1) */
	double emu_seconds;     /* wall time spent inside weft_launch */
};

/* Creates a context; opts may be NULL for defaults. NULL on out of memory. */
struct weft_ctx *weft_ctx_create(const struct weft_ctx_options *opts);
void weft_ctx_destroy(struct weft_ctx *ctx);
const struct weft_ctx_stats *weft_ctx_stats(const struct weft_ctx *ctx);

/* Loads a module from PTX text (path used in messages) or a file. The module
 * belongs to the context and is freed with it. Module .global/.const
 * variables get device memory and their initialisers at load time. */
int weft_module_load_text(struct weft_ctx *ctx, const char *text, size_t len,
			  const char *path, struct weft_module **out, struct weft_error *err);
int weft_module_load_file(struct weft_ctx *ctx, const char *path,
			  struct weft_module **out, struct weft_error *err);
const struct weft_ptx_module *weft_module_ptx(const struct weft_module *mod);
/* A number no other module loaded in this process has had or will have
 * (unlike its address, which a later module may reuse): with a kernel
 * index it names one lowered kernel, whose program (below) never changes,
 * so an observer may key what it derives from the program on it. */
uint64_t weft_module_uid(const struct weft_module *mod);

/* The static program (program.h) of kernel `kernel` (function index in the
 * module) as the emulator runs it: its pcs are the pcs of struct
 * weft_warp_event. The caller frees it with weft_program_free. */
struct weft_program;
int weft_module_program(struct weft_module *mod, uint32_t kernel, struct weft_program **out,
			struct weft_error *err);

/* Device memory. Allocations are zero-filled and 256-byte aligned. */
int weft_malloc(struct weft_ctx *ctx, size_t bytes, uint64_t *dptr, struct weft_error *err);
int weft_free(struct weft_ctx *ctx, uint64_t dptr, struct weft_error *err);
int weft_memcpy_htod(struct weft_ctx *ctx, uint64_t dst, const void *src, size_t bytes,
		     struct weft_error *err);
int weft_memcpy_dtoh(struct weft_ctx *ctx, void *dst, uint64_t src, size_t bytes,
		     struct weft_error *err);
int weft_memset(struct weft_ctx *ctx, uint64_t dst, int value, size_t bytes,
		struct weft_error *err);
/* Device to device, within live allocations (each range inside one). */
int weft_memcpy_dtod(struct weft_ctx *ctx, uint64_t dst, uint64_t src, size_t bytes,
		     struct weft_error *err);
/* The live allocation holding device address addr (a weft_malloc buffer
 * or a module .global/.const variable): 0 with its base and size, or -1
 * when addr lies in none. For a runtime that must tell device pointers
 * from host ones (cudaMemcpyDefault, cudaPointerGetAttributes). */
int weft_mem_find(struct weft_ctx *ctx, uint64_t addr, uint64_t *base, uint64_t *bytes);
/* cudaMemcpyToSymbol / FromSymbol for module-level .global and .const
 * variables. */
int weft_memcpy_to_symbol(struct weft_ctx *ctx, struct weft_module *mod, const char *symbol,
			  const void *src, size_t bytes, size_t offset, struct weft_error *err);
int weft_memcpy_from_symbol(struct weft_ctx *ctx, struct weft_module *mod, const char *symbol,
			    void *dst, size_t bytes, size_t offset, struct weft_error *err);
/* cudaGetSymbolAddress / cudaGetSymbolSize: the device address and size
 * of a module-level .global or .const variable (either out may be NULL).
 * WEFT_ERR_INPUT names a missing variable or one in another state space. */
int weft_module_symbol(struct weft_module *mod, const char *symbol, uint64_t *dptr,
		       uint64_t *bytes, struct weft_error *err);

/* ---- texture and surface objects ----------------------------------------
 * cudaCreateTextureObject / cudaCreateSurfaceObject over device memory: a
 * linear buffer (cudaResourceTypeLinear: height 0) or a pitched 2-D one
 * (cudaResourceTypePitch2D). The handle is a nonzero 64-bit value to pass
 * as a kernel's cudaTextureObject_t / cudaSurfaceObject_t argument (or to
 * store in device memory); kernels read it with tex.1d/2d and tld4.2d
 * (textures) and suld.b/sust.b (surfaces). docs/emulator.md "Textures and
 * surfaces" gives the addressing, filtering and conversion rules, which
 * follow the CUDA C++ Programming Guide, appendix "Texture Fetching". The
 * enumerations take CUDA's values (cudaChannelFormatKind,
 * cudaTextureAddressMode, cudaTextureFilterMode, cudaTextureReadMode), so
 * a runtime can copy the fields across. */
enum weft_channel_kind { /* cudaChannelFormatKind */
	WEFT_CHANNEL_SIGNED = 0,
	WEFT_CHANNEL_UNSIGNED = 1,
	WEFT_CHANNEL_FLOAT = 2,   /* 32-bit float, or 16-bit half */
};
enum weft_address_mode { /* cudaTextureAddressMode */
	WEFT_ADDRESS_WRAP = 0,    /* normalized coordinates only; else clamp */
	WEFT_ADDRESS_CLAMP = 1,
	WEFT_ADDRESS_MIRROR = 2,  /* normalized coordinates only; else clamp */
	WEFT_ADDRESS_BORDER = 3,  /* texels outside read border_color */
};
enum weft_filter_mode { WEFT_FILTER_POINT = 0, WEFT_FILTER_LINEAR = 1 };
enum weft_read_mode { /* cudaTextureReadMode */
	WEFT_READ_ELEMENT = 0,          /* the texel's own type */
	WEFT_READ_NORMALIZED_FLOAT = 1, /* 8- and 16-bit integers to [0,1] / [-1,1] */
};

/* The memory behind a texture or surface object. */
struct weft_tex_resource {
	uint64_t dptr;      /* device address of texel (0, 0), inside one allocation */
	uint64_t width;     /* texels per row (a linear texture: its texels) */
	uint64_t height;    /* rows; 0 = a linear (1-D) texture */
	uint64_t pitch;     /* bytes from one row to the next (2-D); 0 = width x texel bytes */
	uint8_t kind;       /* enum weft_channel_kind */
	uint8_t bits;       /* bits per channel: 8, 16 or 32 (float: 16 or 32) */
	uint8_t channels;   /* 1, 2 or 4 (cudaChannelFormatDesc with x, y, z, w) */
	uint8_t array;      /* 1: the memory of a CUDA array (rows packed: pitch 0 or
			     * width x texel bytes), under CUDA's array limits below */
};

/* How a texture is sampled (cudaTextureDesc). Zero-filled: wrap (so
 * clamp, with unnormalized coordinates), point sampling, element type,
 * unnormalized coordinates, border colour 0, as a zeroed cudaTextureDesc. */
struct weft_tex_desc {
	uint8_t address[2];   /* enum weft_address_mode for x and y */
	uint8_t filter;       /* enum weft_filter_mode */
	uint8_t read;         /* enum weft_read_mode */
	uint8_t normalized;   /* coordinates in [0, 1) instead of [0, width) */
	float border[4];      /* border colour (r, g, b, a) */
};

/* CUDA's sizes for textures over linear memory, compute capability 9.0
 * (CUDA C++ Programming Guide, "Features and Technical Specifications",
 * table "Technical Specifications per Compute Capability"): a 1-D texture
 * of at most 2^28 texels, a 2-D (pitched) one of at most 131072 x 65000,
 * and a surface of at most 2^28 texels per row. Beyond them:
 * WEFT_ERR_INPUT. */
#define WEFT_MAX_TEX1D_LINEAR (1u << 28)
#define WEFT_MAX_TEX2D_WIDTH 131072u
#define WEFT_MAX_TEX2D_HEIGHT 65000u
/* The same table's sizes for textures over CUDA arrays: 1-D 131072
 * texels, 2-D 131072 x 65536, 3-D 16384 x 16384 x 16384 (weft's
 * emulator fetches 1-D and 2-D textures only; a runtime may still allocate
 * 3-D arrays within these sizes). */
#define WEFT_MAX_TEX1D_ARRAY 131072u
#define WEFT_MAX_TEX2D_ARRAY_WIDTH 131072u
#define WEFT_MAX_TEX2D_ARRAY_HEIGHT 65536u
#define WEFT_MAX_TEX3D_ARRAY 16384u
/* Not CUDA's: the most texture and surface objects a context holds at
 * once (CUDA has no documented bound for objects); a table this size is
 * 64 MiB at most. */
#define WEFT_MAX_TEX_OBJECTS 65536u

/* Creates a texture object (cudaCreateTextureObject): res must lie inside
 * one live allocation and be a format CUDA accepts, desc a combination it
 * accepts (linear filtering needs float results: a float format or
 * normalized-float reads; normalized-float reads need 8- or 16-bit
 * integers). WEFT_ERR_INPUT names what is wrong. */
int weft_tex_create(struct weft_ctx *ctx, const struct weft_tex_resource *res,
		    const struct weft_tex_desc *desc, uint64_t *handle, struct weft_error *err);
/* Creates a surface object (cudaCreateSurfaceObject) over res. */
int weft_surf_create(struct weft_ctx *ctx, const struct weft_tex_resource *res, uint64_t *handle,
		     struct weft_error *err);
/* Destroys a texture or surface object (cudaDestroyTextureObject /
 * cudaDestroySurfaceObject); 0 is a no-op. Its handle is never reused: a
 * kernel using it faults. */
int weft_tex_destroy(struct weft_ctx *ctx, uint64_t handle, struct weft_error *err);

/* Launches kernel `name` over grid x block threads with dyn_shared bytes of
 * dynamic (.extern) shared memory. args must match the kernel's parameters
 * in count and size, else WEFT_ERR_INPUT naming the parameter. Returns when
 * the whole grid has run. */
int weft_launch(struct weft_ctx *ctx, struct weft_module *mod, const char *name,
		struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
		const struct weft_arg *args, uint32_t nargs, struct weft_error *err);

/* Per-launch settings beyond weft_launch's arguments. */
struct weft_launch_opts {
	/* The instruction budget of this launch (thread instructions); 0 = the
	 * context's max_launch_insts. The smaller of the two applies. */
	uint64_t max_insts;
	/* Where the budget came from, for the message when it runs out (e.g.
	 * "spec.ini:6: max_insts"); NULL = the context's option. */
	const char *max_insts_from;
};
/* weft_launch with per-launch settings (opts may be NULL). */
int weft_launch_ex(struct weft_ctx *ctx, struct weft_module *mod, const char *name,
		   struct weft_dim3 grid, struct weft_dim3 block, uint32_t dyn_shared,
		   const struct weft_arg *args, uint32_t nargs, const struct weft_launch_opts *opts,
		   struct weft_error *err);

#endif
