/*
 * spec.h - launch specs: an INI file that runs PTX kernels without writing
 * C (issue 2 item 5, issue 15 item 4; the format is documented in
 * docs/launch-spec.md).
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
 * are written. Beyond one launch, a spec may fill module variables
 * (`[symbol NAME]`), create texture and surface objects over buffers
 * (`[texture NAME]`, `[surface NAME]`), pass raw bytes and structs as
 * arguments, pad buffers, and run a sequence of launches sharing its
 * buffers (`[launch NAME]` with `[args NAME]`, each with a repeat count).
 *
 * weft_spec_load() parses and checks the file on its own (syntax, unknown
 * sections and keys, numbers, references between sections, input files);
 * weft_spec_check_args() checks every launch's arguments and the symbols
 * against the PTX module; weft_spec_run() does both, runs the launches in
 * a context and writes the output buffers atomically. Every error names
 * the spec file:line and, for arguments, the kernel parameter.
 *
 * The parser's files: spec.c (sections, the whole), spec_util.c (numbers,
 * names, messages), spec_value.c (argument and value syntax),
 * spec_data.c ([buffer] and [symbol]), spec_tex.c ([texture] and
 * [surface]), spec_launch.c ([kernel], [launch], [args]), spec_check.c
 * (against the module), spec_run.c and spec_fill.c (running).
 */
#ifndef WEFT_SPEC_H
#define WEFT_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/emu/host.h"
#include "trace/ptx/ptx.h"

/* Element types of buffers, symbols and scalar arguments. */
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
	WEFT_SPEC_INIT_VALUES, /* a list: numbers, or for 64-bit integers also references */
};

/* A number as the spec wrote it, converted for the owning type. */
union weft_spec_num {
	int64_t s;
	uint64_t u;
	double f;
};

/* Writes v (a number of type t) little-endian into dst (type-size bytes). */
void weft_spec_store(enum weft_spec_type t, union weft_spec_num v, uint8_t *dst);

/* Limits of what a spec may ask for (docs/launch-spec.md "Limits"). */
/* The bytes of one argument or value list: CUDA's limit on a kernel's
 * parameters, 32764 bytes from CUDA 12.1 on Volta and later (CUDA C++
 * Programming Guide, "Function Parameters"). */
#define WEFT_SPEC_MAX_VALUE_BYTES 32764u
/* weft's own: bytes of padding before or after one buffer (1 GiB). */
#define WEFT_SPEC_MAX_PAD (1ull << 30)
/* weft's own: launches of one spec, repeats counted. */
#define WEFT_SPEC_MAX_LAUNCHES 1000000u

/* What a reference in a value becomes at run time: an 8-byte device
 * address (a buffer's data + addend, a module variable's address + addend)
 * or an object handle. */
enum weft_spec_ref_kind {
	WEFT_SPEC_REF_BUFFER = 0,
	WEFT_SPEC_REF_TEXTURE,
	WEFT_SPEC_REF_SURFACE,
	WEFT_SPEC_REF_SYMBOL,
};
struct weft_spec_ref {
	uint32_t offset;  /* where in the value's bytes the 8 bytes go */
	uint8_t kind;     /* enum weft_spec_ref_kind */
	int32_t index;    /* buffer or texture (surfaces: textures[]) index; -1 for symbols */
	int64_t addend;   /* bytes added to a buffer's or symbol's address */
	char *name;       /* symbol name (REF_SYMBOL), else NULL */
	uint32_t line;
};

/* Bytes and the references to patch into them. */
struct weft_spec_value {
	uint8_t *bytes;
	uint32_t size;   /* bytes */
	uint32_t align;  /* the largest alignment of its parts (a struct's) */
	struct weft_spec_ref *refs;
	uint32_t nrefs;
};

/* A [buffer NAME] (a device allocation) or a [symbol NAME] (a module
 * variable's contents). */
struct weft_spec_buffer {
	char *name;
	uint32_t line;             /* the section header */
	enum weft_spec_type type;
	uint64_t count;            /* elements; a symbol without `count`: 0 = the rest of the variable */
	enum weft_spec_init init;
	union weft_spec_num start, step; /* ramp */
	union weft_spec_num min, max;    /* random */
	uint64_t seed;                   /* random */
	char *file;                /* init = file: resolved path */
	struct weft_spec_value values;   /* init = values: count elements and their references */
	char *output;              /* as written (relative to the output dir), or NULL */
	uint32_t output_line;
	/* After the run, compare with this file (raw, count elements): exact for
	 * integers; floats match when |dev - exp| <= abs_tol + rel_tol * |exp|
	 * (NaN matches only NaN). */
	char *expect;              /* resolved path, or NULL */
	uint32_t expect_line;
	double rel_tol, abs_tol;
	uint64_t pad_before, pad_after; /* buffers: zeroed bytes allocated around the data */
	uint64_t offset;           /* symbols: byte offset of element 0 in the variable */
	uint32_t count_line;       /* `count` (0: not given) */
};

/* A [texture NAME] or [surface NAME]: an object over a buffer's data. */
struct weft_spec_texture {
	char *name;
	uint32_t line;
	int surface;
	int32_t buffer;            /* index into buffers */
	uint64_t offset;           /* bytes into the buffer's data */
	struct weft_tex_resource res; /* dptr: filled at run time */
	struct weft_tex_desc desc;
};

enum weft_spec_arg_kind {
	WEFT_SPEC_ARG_SCALAR = 0, /* TYPE:VALUE */
	WEFT_SPEC_ARG_BUFFER,     /* buffer:NAME[+OFFSET] */
	WEFT_SPEC_ARG_TEXTURE,    /* texture:NAME, surface:NAME */
	WEFT_SPEC_ARG_SYMBOL,     /* symbol:NAME[+OFFSET] */
	WEFT_SPEC_ARG_BYTES,      /* bytes:HEX */
	WEFT_SPEC_ARG_STRUCT,     /* struct:{FIELD, ...} */
};

struct weft_spec_arg {
	char *label;               /* the key: for messages only (binding is by position) */
	uint32_t line;
	uint8_t kind;              /* enum weft_spec_arg_kind */
	int32_t buffer;            /* buffer:NAME: index into buffers, else -1 */
	enum weft_spec_type type;  /* scalar type */
	uint8_t bytes[8];          /* scalar value, little-endian, type-sized */
	struct weft_spec_value value; /* every kind: the parameter's bytes and references */
};

/* One launch of a sequence ([launch NAME] with [args NAME]; a spec without
 * [launch] sections has one, from [kernel] and [args]). */
struct weft_spec_launch {
	char *name;                /* NULL for the single launch of [kernel] */
	uint32_t line;
	char *kernel;
	uint32_t kernel_line;      /* line of `name =` / `kernel =` */
	struct weft_dim3 grid, block;
	uint32_t shared;           /* dynamic shared memory bytes (at most WEFT_MAX_SHARED_BYTES) */
	uint64_t max_insts;        /* the launch's instruction budget, 0 = not given */
	uint32_t max_insts_line;
	uint64_t repeat;           /* runs in a row (at least 1) */
	struct weft_spec_arg *args;
	uint32_t nargs;
	uint32_t args_line;        /* the [args] header */
};

struct weft_spec {
	char *path;                /* as given, for messages */
	char *dir;                 /* directory of path ("." if none) */
	char *ptx;                 /* resolved PTX path */
	/* The first launch, as the single-launch form names it (aliases of
	 * launches[0]; not separately owned). */
	char *kernel;
	uint32_t kernel_line;
	struct weft_dim3 grid, block;
	uint32_t shared;
	uint64_t max_insts;
	uint32_t max_insts_line;
	struct weft_spec_arg *args;
	uint32_t nargs;
	uint32_t args_line;
	struct weft_spec_buffer *buffers;
	uint32_t nbuffers;
	struct weft_spec_buffer *symbols;
	uint32_t nsymbols;
	struct weft_spec_texture *textures; /* textures and surfaces */
	uint32_t ntextures;
	struct weft_spec_launch *launches;  /* in run order; at least one */
	uint32_t nlaunches;
	uint64_t total_launches;   /* repeats counted */
	int sequence;              /* the spec has [launch NAME] sections */
};

/* Parses spec text; path is used for messages and to resolve relative paths.
 * Input files (init = file) are checked to exist with the right size. */
int weft_spec_parse(const char *text, size_t len, const char *path, struct weft_spec **out,
		    struct weft_error *err);
/* Reads and parses a spec file. A missing file is WEFT_ERR_INPUT. */
int weft_spec_load(const char *path, struct weft_spec **out, struct weft_error *err);
void weft_spec_free(struct weft_spec *spec);

/* Checks that every launch's kernel exists in m and that its arguments
 * match the kernel's parameters in count and type; that every [symbol] and
 * symbol: reference names a .global or .const variable its data fits. */
int weft_spec_check_args(const struct weft_spec *spec, const struct weft_ptx_module *m,
			 struct weft_error *err);

struct weft_spec_run_opts {
	/* Where relative `output =` paths go; NULL = the spec file's directory. */
	const char *output_dir;
	/* Out: how many buffers and symbols were compared with their `expect`
	 * file (all matched when weft_spec_run returns 0). */
	uint32_t compared;
};

/* Loads the PTX into ctx, checks the arguments, creates and fills the
 * buffers, textures and symbols, runs the launches in order, writes the
 * outputs (temp file, fsync, rename), then compares what has `expect`.
 * Returns WEFT_ERR_VERIFY on the first mismatch (the element, both values
 * and the tolerance in err). */
int weft_spec_run(const struct weft_spec *spec, struct weft_ctx *ctx,
		  struct weft_spec_run_opts *opts, struct weft_error *err);

/* The path an output buffer is written to (joins output_dir or spec->dir). */
const char *weft_spec_output_path(const struct weft_spec *spec, const struct weft_spec_buffer *b,
				  const char *output_dir, char *buf, size_t len);

#endif
