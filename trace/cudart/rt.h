/*
 * rt.h - what the files of weft's CUDA runtime (libcudart.so.13) share:
 * the one state of the library, the lock every API call holds, error
 * reporting, and the registry of the program's fatbinaries, kernels and
 * variables. Nothing here is exported (hidden visibility, and the version
 * script keeps only the CUDA names).
 *
 * Every exported function has the same shape:
 *
 *     WCU_API int cudaFoo(...)
 *     {
 *             int e = rt_enter("cudaFoo");   // lock; 0 or why no call can be served
 *             if (!e)
 *                     e = rt_ready();       // the context (lazily), or the sticky error
 *             if (!e)
 *                     e = ...;              // the work; rt_fail(code, "why") on errors
 *             return rt_leave(e);           // the thread's last error; unlock
 *     }
 *
 * Calls from several host threads are serialised by one recursive mutex
 * (so a stream callback may call the runtime); the last error and the
 * launch configuration stack are per thread, as in CUDA.
 */
#ifndef WEFT_CUDART_RT_H
#define WEFT_CUDART_RT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "trace/emu/host.h"
#include "trace/format/trace.h"
#include "cuda_abi.h"

#define RT_HIDDEN __attribute__((visibility("hidden")))

/* The compute capability of weft's virtual device (docs/cuda-programs.md):
 * 9.0, the newest whose launch limits trace/emu/host.h holds. */
#define RT_CC_MAJOR 9
#define RT_CC_MINOR 0

/* The emulated clock of events: one warp instruction per cycle at 1 GHz,
 * weft's own choice (docs/cuda-programs.md, "Events"). */
#define RT_CLOCK_KHZ 1000000

/* Error lines printed on stderr before the rest are only counted (weft's
 * choice: enough to see what went wrong, bounded for a program that
 * repeats a failing call in a loop). */
#define RT_MAX_PRINTED 100u

/* One registered fatbinary (one translation unit of the program). */
struct rt_fatbin {
	uint32_t id;            /* registration order, in messages */
	const uint8_t *data;    /* the fatbinary, NULL when its wrapper was refused */
	size_t avail;           /* readable bytes at data (its loaded segment) */
	char object[64];        /* basename of the file that holds it */
	int unregistered;
	struct weft_module *mod; /* loaded at first use into context ctx_gen */
	uint64_t mod_gen;
	int load_rc;            /* the CUDA error of a failed registration or load */
	char load_msg[WEFT_ERROR_MSG_MAX + 256];
};

/* A kernel (__cudaRegisterFunction); its handle is this struct's address. */
struct rt_func {
	const void *host_fun;   /* the host stub's address */
	struct rt_fatbin *fb;
	char *name;             /* the PTX .entry name (mangled) */
};

/* A __device__ or __constant__ variable (__cudaRegisterVar). */
struct rt_var {
	const void *host_var;   /* the host shadow's address */
	struct rt_fatbin *fb;
	char *name;
	size_t size;
	int managed;            /* __managed__: refused */
};

/* A CUDA array (cudaMallocArray, cudaMalloc3DArray); its handle
 * (cudaArray_t) is this struct's address. Its texels live in one device
 * allocation, rows packed: texel (x, y, z) is at
 * dptr + ((z * rows + y) * width + x) * texel_bytes, with rows = max(height, 1)
 * (docs/cuda-programs.md, "CUDA arrays"). */
struct rt_array {
	struct wcu_channel_desc desc;
	size_t width, height, depth; /* as the program gave them: 0 = no such dimension */
	unsigned flags;
	uint32_t texel_bytes;
	uint64_t dptr;
	uint64_t row, rows, bytes;   /* bytes per row; rows per slice (max(height, 1)); in all */
};

struct rt_stream {
	unsigned flags;
	int priority;
};

struct rt_event {
	unsigned flags;
	int recorded;
	uint64_t clock;         /* warp instructions of the whole run when recorded */
};

/* Totals of the run, over contexts that cudaDeviceReset replaced. */
struct rt_totals {
	uint64_t launches, ctas, thread_insts, warp_insts, device_bytes_peak;
	double emu_seconds;
};

struct rt_state {
	/* configuration (rt_init.c, from the environment at load time) */
	pid_t pid;
	char trace_path[PATH_MAX];    /* "" = no trace */
	char report_path[PATH_MAX];   /* "" = no report */
	char ptx_dir[PATH_MAX];       /* "" = PTX not written out */
	int level;
	struct weft_ctx_options copts;
	int init_rc;                  /* a bad environment: every call fails with it */
	/* the emulator */
	struct weft_ctx *ctx;
	uint64_t ctx_gen;             /* bumped by cudaDeviceReset */
	struct weft_trace_writer *tw;
	struct rt_totals before;      /* of contexts reset away */
	int trace_broken;             /* a launch stopped part way: no trace */
	char trace_broken_why[512];
	/* the program's device code */
	struct rt_fatbin **fatbins;
	uint32_t nfatbins, cap_fatbins;
	struct rt_func **funcs;
	uint32_t nfuncs, cap_funcs;
	struct rt_var **vars;
	uint32_t nvars, cap_vars;
	/* handles */
	struct rt_stream **streams;
	uint32_t nstreams, cap_streams;
	struct rt_event **events;
	uint32_t nevents, cap_events;
	struct rt_array **arrays;     /* CUDA arrays of the current context */
	uint32_t narrays, cap_arrays;
	void **pinned;                /* cudaMallocHost / cudaHostAlloc blocks */
	uint32_t npinned, cap_pinned;
	/* device settings the program may set and read back */
	unsigned device_flags;
	int cache_config;
	size_t limits[WCU_LIMIT_COUNT];
	/* device printf of the launch running (rt_launch.c), written to
	 * stdout when it ends */
	char *printbuf;
	size_t printlen, printcap;
	uint64_t print_dropped;
	/* errors */
	int sticky;                   /* a kernel fault's error: every later device call returns it */
	uint32_t failures;            /* what weft could not do: unsupported calls, kernels it
					 could not run, faults, a bad environment */
	char first_failure[WEFT_ERROR_MSG_MAX + 512];
	uint32_t printed;
	int finished;                 /* the destructor ran */
};

extern struct rt_state rt RT_HIDDEN;

/* ---- rt_core.c: lock, errors ---- */

/* Locks and names the API being served in messages. Returns 0, or the
 * error every call gets: cudaErrorInitializationError after a bad
 * environment, cudaErrorCudartUnloading once the library shut down. The
 * lock is held either way; rt_leave releases it. */
int rt_enter(const char *api) RT_HIDDEN;
/* Records a nonzero code as this thread's last error, unlocks, returns code. */
int rt_leave(int code) RT_HIDDEN;
/* A CUDA error returned to the program: prints "weft-cudart: API: MESSAGE
 * (cudaErrorName)" on stderr and returns code. */
int rt_fail(int code, const char *fmt, ...) RT_HIDDEN __attribute__((format(printf, 2, 3)));
/* As rt_fail, for what weft could not do although the program did nothing
 * wrong (a kernel it cannot run, a fault, a limit): counted in the report,
 * so `weft-trace exec` fails. */
int rt_failure(int code, const char *fmt, ...) RT_HIDDEN __attribute__((format(printf, 2, 3)));
/* An API or feature weft does not implement: "API: not supported yet:
 * WHAT"; a failure; returns cudaErrorNotSupported. */
int rt_unsupported(const char *what) RT_HIDDEN;
/* The API rt_enter named ("cudaMalloc"). */
const char *rt_api(void) RT_HIDDEN;
/* This thread's last error: read (and with reset, cleared). */
int rt_last_error(int reset) RT_HIDDEN;
/* cudaGetErrorName / cudaGetErrorString of a code (rt_errnames.c). */
const char *rt_error_name(int code) RT_HIDDEN;
const char *rt_error_text(int code) RT_HIDDEN;

/* ---- rt_init.c: environment, context ---- */

/* The context, created at first use, or the sticky error of a fault. */
int rt_ready(void) RT_HIDDEN;
/* Warp instructions issued so far in the whole run (the events' clock). */
uint64_t rt_clock(void) RT_HIDDEN;
/* The run's totals so far (all contexts). */
void rt_totals(struct rt_totals *t) RT_HIDDEN;
/* Destroys the context (its allocations and modules), adding its figures
 * to the run's totals; the next call that needs one creates a new one,
 * whose launches go on into the same trace (cudaDeviceReset, exit). */
void rt_context_drop(void) RT_HIDDEN;

/* ---- rt_module.c: fatbinaries, kernels, variables ---- */

/* The kernel whose host stub is host_fun, or NULL. */
struct rt_func *rt_func_find(const void *host_fun) RT_HIDDEN;
/* A kernel handle (cudaKernel_t) the library gave out, or NULL. */
struct rt_func *rt_func_from_handle(const void *handle) RT_HIDDEN;
/* The variable whose host shadow is host_var, or NULL. */
struct rt_var *rt_var_find(const void *host_var) RT_HIDDEN;
/* The module of fb in the current context, loading its PTX at first use:
 * 0 with *mod, or the CUDA error (printed; a failure). */
int rt_module(struct rt_fatbin *fb, struct weft_module **mod) RT_HIDDEN;
/* Frees the registry (at exit). */
void rt_registry_free(void) RT_HIDDEN;

/* ---- rt_stream.c ---- */

/* Is s a stream the program may use (0, cudaStreamLegacy,
 * cudaStreamPerThread or one it created)? 0 or cudaErrorInvalidResourceHandle
 * (printed). */
int rt_stream_check(const void *s) RT_HIDDEN;
/* Frees every stream and event (cudaDeviceReset, exit). */
void rt_handles_free(void) RT_HIDDEN;

/* ---- rt_array.c ---- */

/* The live CUDA array of handle h, or NULL. */
struct rt_array *rt_array_of(const void *h) RT_HIDDEN;
/* Forgets every CUDA array (cudaDeviceReset, exit: their memory went with
 * the context). */
void rt_arrays_free(void) RT_HIDDEN;
/* A channel descriptor as the emulator's texel format (1, 2 or 4 channels
 * of one width): 0, or the error (printed). */
int rt_texel_format(const struct wcu_channel_desc *d, struct weft_tex_resource *r) RT_HIDDEN;


/* ---- rt_printf.c: device printf ---- */

/* weft_ctx_options.print: a launch's device printf text, kept until the
 * launch ends (at most cudaLimitPrintfFifoSize bytes a launch; the rest is
 * dropped, as a GPU drops what its FIFO cannot hold). */
void rt_print(void *user, const char *text, size_t len) RT_HIDDEN;
/* Writes the text kept so far onto stdout (and a line on stderr for what
 * was dropped), naming kernel; empties the buffer. */
void rt_print_flush(const char *kernel) RT_HIDDEN;
/* Frees the buffer (at exit). */
void rt_print_free(void) RT_HIDDEN;

/* ---- rt_launch.c ---- */

/* Runs kernel f: grid, block, dynamic shared bytes, args as
 * cudaLaunchKernel takes them. */
int rt_launch(struct rt_func *f, struct wcu_dim3 grid, struct wcu_dim3 block, void **args,
	      size_t shared, const void *stream) RT_HIDDEN;

/* ---- rt_memory.c ---- */

/* Copies bytes between host and device memory as cudaMemcpy does; kind
 * cudaMemcpyDefault is resolved from the pointers. */
int rt_copy(void *dst, const void *src, size_t bytes, int kind) RT_HIDDEN;
/* Is p inside device memory (an allocation or a module variable)? */
int rt_is_device(const void *p) RT_HIDDEN;

#endif
