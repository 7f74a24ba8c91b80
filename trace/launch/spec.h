/*
 * spec.h - launch specs: an INI file that runs one PTX kernel without
 * writing C (issue 2 item 5; the format is documented in docs/launch-spec.md).
 *
 *     [kernel]
 *     ptx   = saxpy.ptx          ; relative to the spec file's directory
 *     name  = _Z5saxpyifPKfPf
 *     grid  = 4
 *     block = 256
 *     [buffer x]
 *     type = f32
 *     count = 1000
 *     init = ramp
 *     [buffer y]
 *     type = f32
 *     count = 1000
 *     output = y.bin
 *     [args]                     ; one line per kernel parameter, in order
 *     n = u32:1000
 *     a = f32:2.5
 *     x = buffer:x
 *     y = buffer:y
 *
 * A buffer may name an `expect = FILE` to compare with after the run; a
 * mismatch is WEFT_ERR_VERIFY (exit status 1), reported after the outputs
 * are written.
 *
 * weft_spec_load() parses and checks the file on its own (syntax, unknown
 * sections and keys, numbers, buffer references, input files);
 * weft_spec_check_args() checks the [args] against the kernel's PTX
 * parameters; weft_spec_run() does both, runs the launch in a context and
 * writes the output buffers atomically. Every error names the spec
 * file:line and, for arguments, the kernel parameter.
 */
#ifndef WEFT_SPEC_H
#define WEFT_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/emu/host.h"
#include "trace/ptx/ptx.h"

/* Element types of buffers and scalar arguments. */
enum weft_spec_type {
	WEFT_SPEC_U8 = 0, WEFT_SPEC_S8, WEFT_SPEC_U16, WEFT_SPEC_S16,
	WEFT_SPEC_U32, WEFT_SPEC_S32, WEFT_SPEC_U64, WEFT_SPEC_S64,
	WEFT_SPEC_F32, WEFT_SPEC_F64,
	WEFT_SPEC_TYPE_COUNT
};
const char *weft_spec_type_name(enum weft_spec_type t); /* "f32" */
unsigned weft_spec_type_size(enum weft_spec_type t);
int weft_spec_type_is_float(enum weft_spec_type t);
int weft_spec_type_is_signed(enum weft_spec_type t);

enum weft_spec_init {
	WEFT_SPEC_INIT_ZERO = 0,
	WEFT_SPEC_INIT_RAMP,   /* start + i * step */
	WEFT_SPEC_INIT_RANDOM, /* uniform in [min, max] (integers) / [min, max) (floats), seeded */
	WEFT_SPEC_INIT_FILE,   /* raw little-endian binary, exactly count elements */
};

/* A number as the spec wrote it, converted for the owning type. */
union weft_spec_num {
	int64_t s;
	uint64_t u;
	double f;
};

/* Writes v (a number of type t) little-endian into dst (type-size bytes). */
void weft_spec_store(enum weft_spec_type t, union weft_spec_num v, uint8_t *dst);

struct weft_spec_buffer {
	char *name;
	uint32_t line;             /* the [buffer NAME] header */
	enum weft_spec_type type;
	uint64_t count;            /* elements */
	enum weft_spec_init init;
	union weft_spec_num start, step; /* ramp */
	union weft_spec_num min, max;    /* random */
	uint64_t seed;                   /* random */
	char *file;                /* init = file: resolved path */
	char *output;              /* as written (relative to the output dir), or NULL */
	uint32_t output_line;
	/* After the run, compare with this file (raw, count elements): exact for
	 * integers; floats match when |dev - exp| <= abs_tol + rel_tol * |exp|
	 * (NaN matches only NaN). */
	char *expect;              /* resolved path, or NULL */
	uint32_t expect_line;
	double rel_tol, abs_tol;
};

struct weft_spec_arg {
	char *label;               /* the key: for messages only (binding is by position) */
	uint32_t line;
	int32_t buffer;            /* index into buffers, or -1 for a scalar */
	enum weft_spec_type type;  /* scalar type */
	uint8_t bytes[8];          /* scalar value, little-endian, type-sized */
};

struct weft_spec {
	char *path;                /* as given, for messages */
	char *dir;                 /* directory of path ("." if none) */
	char *ptx;                 /* resolved PTX path */
	char *kernel;
	uint32_t kernel_line;      /* line of `name =` (or [kernel]) */
	struct weft_dim3 grid, block;
	uint32_t shared;           /* dynamic shared memory bytes (at most WEFT_MAX_SHARED_BYTES) */
	uint64_t max_insts;        /* the launch's instruction budget (`max_insts`), 0 = not given */
	uint32_t max_insts_line;
	struct weft_spec_buffer *buffers;
	uint32_t nbuffers;
	struct weft_spec_arg *args;
	uint32_t nargs;
	uint32_t args_line;        /* the [args] header */
};

/* Parses spec text; path is used for messages and to resolve relative paths.
 * Input files (init = file) are checked to exist with the right size. */
int weft_spec_parse(const char *text, size_t len, const char *path, struct weft_spec **out,
		    struct weft_error *err);
/* Reads and parses a spec file. A missing file is WEFT_ERR_INPUT. */
int weft_spec_load(const char *path, struct weft_spec **out, struct weft_error *err);
void weft_spec_free(struct weft_spec *spec);

/* Checks that the kernel exists in m and that [args] matches its parameters
 * in count and type. */
int weft_spec_check_args(const struct weft_spec *spec, const struct weft_ptx_module *m,
			 struct weft_error *err);

struct weft_spec_run_opts {
	/* Where relative `output =` paths go; NULL = the spec file's directory. */
	const char *output_dir;
	/* Out: how many buffers were compared with their `expect` file (all
	 * matched when weft_spec_run returns 0). */
	uint32_t compared;
};

/* Loads the PTX into ctx, checks the arguments, creates and fills the
 * buffers, launches, writes the outputs (temp file, fsync, rename), then
 * compares the buffers that have `expect`. Returns WEFT_ERR_VERIFY on the
 * first mismatch (the element, both values and the tolerance in err). */
int weft_spec_run(const struct weft_spec *spec, struct weft_ctx *ctx,
		  struct weft_spec_run_opts *opts, struct weft_error *err);

/* The path an output buffer is written to (joins output_dir or spec->dir). */
const char *weft_spec_output_path(const struct weft_spec *spec, const struct weft_spec_buffer *b,
				  const char *output_dir, char *buf, size_t len);

#endif
