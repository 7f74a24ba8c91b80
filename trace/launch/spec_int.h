/*
 * spec_int.h - shared state of the launch spec parser's files (internal:
 * only trace/launch/spec*.c include it; spec.h lists the files).
 *
 * The INI text is first read into raw records: sections (kind, name, line)
 * and `key = value` entries with their lines (spec.c). Each section is then
 * interpreted on its own, so key order does not matter and every error
 * names the line it is about. Errors go through weft_specp_err, which
 * keeps the first one.
 */
#ifndef WEFT_SPEC_INT_H
#define WEFT_SPEC_INT_H

#include <stddef.h>
#include <stdint.h>

#include "spec.h"

enum weft_specp_sec {
	SEC_KERNEL = 0, SEC_BUFFER, SEC_ARGS, SEC_SYMBOL, SEC_TEXTURE, SEC_SURFACE, SEC_LAUNCH,
};

struct weft_specp_section {
	enum weft_specp_sec kind;
	char *name;     /* NULL for [kernel] and the unnamed [args] */
	uint32_t line;
	int32_t index;  /* in the spec's array of its kind (textures and surfaces share one) */
};

struct weft_specp_entry {
	uint32_t section;
	char *key, *value;
	uint32_t line;
	int used;
};

struct weft_specp {
	const char *path;
	uint32_t lineno;
	struct weft_specp_section *secs;
	uint32_t nsecs;
	struct weft_specp_entry *ents;
	uint32_t nents;
	struct weft_error *err;
	int code; /* first error, 0 = none */
	struct weft_spec *spec;
};

/* spec_util.c: messages and records */
int weft_specp_err(struct weft_specp *p, uint32_t line, enum weft_err code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct weft_specp_entry *weft_specp_find(struct weft_specp *p, uint32_t sec, const char *key);
int weft_specp_check_keys(struct weft_specp *p, uint32_t sec, const char *const *keys,
			  const char *what);
/* The section of kind (SEC_TEXTURE also finds SEC_SURFACE) named name, or -1. */
int32_t weft_specp_section(const struct weft_specp *p, enum weft_specp_sec kind, const char *name);
/* "; did you mean [buffer x]?" over the sections of kind */
const char *weft_specp_suggest_section(const struct weft_specp *p, enum weft_specp_sec kind,
				       const char *typed, const char *open, char *buf, size_t len);
const char *weft_specp_suggest_word(const char *typed, const char *const *words, char *buf,
				    size_t len);
const char *weft_specp_suggest_type(const char *typed, const char *also, char *buf, size_t len);
char *weft_specp_strdup(const char *s);
char *weft_specp_trim(char *s);

/* spec_util.c: numbers and types */
extern const char weft_specp_type_list[];
int weft_specp_type_parse(const char *s, enum weft_spec_type *out);
int weft_specp_u64(const char *s, uint64_t *out);
int weft_specp_i64(const char *s, int64_t *out);
int weft_specp_double(const char *s, double *out);
/* A positive count: an integer, or 1e9 notation for a whole number. */
int weft_specp_count(const char *s, uint64_t *out);
/* A number for type t; on failure *why says what is wrong. */
int weft_specp_num(enum weft_spec_type t, const char *s, union weft_spec_num *out, const char **why);
int weft_specp_dim3(const char *s, struct weft_dim3 *out);

/* spec_util.c: paths */
char *weft_specp_join(const char *dir, const char *rel);
char *weft_specp_dir_of(const char *path);
int weft_specp_file_size(const char *path, uint64_t *size, const char **why);

/* spec_value.c */
/* An argument value (TYPE:VALUE, buffer:NAME[+-OFFSET], texture:NAME,
 * surface:NAME, symbol:NAME[+OFFSET], bytes:HEX, struct:{...}) into a. */
int weft_specp_arg_value(struct weft_specp *p, struct weft_spec_arg *a, const char *text);
/* The `values` list of a buffer or symbol of type t into v; *n gets the
 * number of elements. */
int weft_specp_values(struct weft_specp *p, uint32_t line, const char *owner, enum weft_spec_type t,
		      const char *text, struct weft_spec_value *v, uint64_t *n);
/* Every buffer reference's offset against its buffer's bytes and padding
 * (after all buffers are parsed). */
int weft_specp_check_refs(struct weft_specp *p, const struct weft_spec_value *v);
void weft_specp_value_free(struct weft_spec_value *v);

/* spec_fill.c: what a run puts in device memory and reads back */
struct weft_specp_dev {
	struct weft_module *mod;
	uint64_t *buf;   /* [nbuffers] device address of each buffer's data */
	uint64_t *tex;   /* [ntextures] object handles */
};
/* count elements of b (a buffer, or a symbol's count once known) into data. */
int weft_specp_fill(const struct weft_spec *spec, const struct weft_spec_buffer *b, uint64_t count,
		    uint8_t *data, struct weft_error *err);
/* Writes the addresses and handles v's references name into bytes. */
int weft_specp_patch(const struct weft_spec *spec, const struct weft_specp_dev *d,
		     const struct weft_spec_value *v, uint8_t *bytes, struct weft_error *err);
/* Compares count elements at dev with b's expect file. */
int weft_specp_compare(const struct weft_spec *spec, const struct weft_spec_buffer *b, uint64_t count,
		       const uint8_t *dev, struct weft_error *err);

/* spec_data.c */
int weft_specp_data(struct weft_specp *p, uint32_t sec, struct weft_spec_buffer *b, int symbol);

/* spec_tex.c */
int weft_specp_texture(struct weft_specp *p, uint32_t sec, struct weft_spec_texture *t);

/* spec_launch.c */
int weft_specp_kernel(struct weft_specp *p, uint32_t sec, int sequence);
int weft_specp_launch(struct weft_specp *p, uint32_t sec, struct weft_spec_launch *l);
int weft_specp_args(struct weft_specp *p, uint32_t sec, struct weft_spec_launch *l);

#endif
