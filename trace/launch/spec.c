/*
 * spec.c - launch specs: parsing and checking (see spec.h and docs/launch-spec.md;
 * running is spec_run.c).
 *
 * common/ini.h does the INI syntax (libinih) and its rules (long lines, NUL
 * bytes, no continuation lines) and gives every key its line. Section
 * headers are seen here from the raw lines too: that way empty and unknown
 * sections are caught. The key callback only records (section, key, value, line);
 * interpretation happens afterwards, when each section is complete, so that
 * key order inside a section does not matter and every error can name the
 * line it is about. A word that is not one of the valid ones (a key,
 * section, type, init mode or buffer name) gets a "did you mean" naming the
 * closest valid ones (common/suggest.h).
 */
#include "spec.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "common/file.h"
#include "common/ini.h"
#include "common/suggest.h"
#include "wl_util.h"

static const struct {
	const char *name;
	unsigned size;
	int is_float, is_signed;
} type_info[WEFT_SPEC_TYPE_COUNT] = {
	[WEFT_SPEC_U8] = { "u8", 1, 0, 0 },   [WEFT_SPEC_S8] = { "s8", 1, 0, 1 },
	[WEFT_SPEC_U16] = { "u16", 2, 0, 0 }, [WEFT_SPEC_S16] = { "s16", 2, 0, 1 },
	[WEFT_SPEC_U32] = { "u32", 4, 0, 0 }, [WEFT_SPEC_S32] = { "s32", 4, 0, 1 },
	[WEFT_SPEC_U64] = { "u64", 8, 0, 0 }, [WEFT_SPEC_S64] = { "s64", 8, 0, 1 },
	[WEFT_SPEC_F32] = { "f32", 4, 1, 1 }, [WEFT_SPEC_F64] = { "f64", 8, 1, 1 },
};

const char *weft_spec_type_name(enum weft_spec_type t)
{
	return (unsigned)t < WEFT_SPEC_TYPE_COUNT ? type_info[t].name : "?";
}

unsigned weft_spec_type_size(enum weft_spec_type t)
{
	return (unsigned)t < WEFT_SPEC_TYPE_COUNT ? type_info[t].size : 0;
}

int weft_spec_type_is_float(enum weft_spec_type t)
{
	return (unsigned)t < WEFT_SPEC_TYPE_COUNT && type_info[t].is_float;
}

int weft_spec_type_is_signed(enum weft_spec_type t)
{
	return (unsigned)t < WEFT_SPEC_TYPE_COUNT && type_info[t].is_signed;
}

static const char type_list[] = "u8, s8, u16, s16, u32, s32, u64, s64, f32, f64";

static int type_parse(const char *s, enum weft_spec_type *out)
{
	for (unsigned i = 0; i < WEFT_SPEC_TYPE_COUNT; i++)
		if (strcmp(s, type_info[i].name) == 0) {
			*out = (enum weft_spec_type)i;
			return 0;
		}
	return -1;
}

/* "; did you mean `u32`?" for a type name that is none of them; with
 * also (e.g. "buffer") weighed as one more valid word. */
static const char *suggest_type(const char *typed, const char *also, char *buf, size_t len)
{
	struct weft_suggest s;
	weft_suggest_init(&s, typed);
	if (also)
		weft_suggest_consider(&s, also);
	for (unsigned i = 0; i < WEFT_SPEC_TYPE_COUNT; i++)
		weft_suggest_consider(&s, type_info[i].name);
	return weft_suggest_phrase(&s, "`", "`", buf, len);
}

/* The same for one word of a NULL-terminated list. */
static const char *suggest_word(const char *typed, const char *const *words, char *buf, size_t len)
{
	struct weft_suggest s;
	weft_suggest_init(&s, typed);
	for (const char *const *w = words; *w; w++)
		weft_suggest_consider(&s, *w);
	return weft_suggest_phrase(&s, "`", "`", buf, len);
}

/* ---- raw INI records ---------------------------------------------------- */

enum sec_kind { SEC_KERNEL, SEC_BUFFER, SEC_ARGS };

struct section {
	enum sec_kind kind;
	char *name; /* buffer name */
	uint32_t line;
};

struct entry {
	uint32_t section;
	char *key, *value;
	uint32_t line;
	int used;
};

struct parse {
	const char *path;
	uint32_t lineno;
	struct section *secs;
	uint32_t nsecs;
	struct entry *ents;
	uint32_t nents;
	int failed;
	struct weft_error *err;
	int code; /* first error, 0 = none */
};

static int perr(struct parse *p, uint32_t line, enum weft_err code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int perr(struct parse *p, uint32_t line, enum weft_err code, const char *fmt, ...)
{
	if (p->code)
		return p->code; /* keep the first error */
	char msg[WEFT_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	weft_error_at(p->err, code, p->path, line, 0, "%s", msg);
	p->code = code;
	return code;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = 0;
	return s;
}

/* Sees a section header line before inih does: records it, so sections with
 * no keys are checked too. */
static void see_header(struct parse *p, const char *raw)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", raw);
	char *s = trim(buf);
	if (s[0] != '[')
		return;
	char *close = strchr(s, ']');
	if (!close)
		return; /* inih reports the syntax error */
	*close = 0;
	char *inner = trim(s + 1);
	char *sp = inner + strcspn(inner, " \t");
	char *name = NULL;
	if (*sp) {
		*sp = 0;
		name = trim(sp + 1);
	}
	struct section sec = { SEC_KERNEL, NULL, p->lineno };
	if (strcmp(inner, "kernel") == 0 || strcmp(inner, "args") == 0) {
		sec.kind = inner[0] == 'k' ? SEC_KERNEL : SEC_ARGS;
		if (name && *name) {
			perr(p, p->lineno, WEFT_ERR_INPUT, "[%s] takes no name (found `%s`)", inner, name);
			return;
		}
	} else if (strcmp(inner, "buffer") == 0) {
		sec.kind = SEC_BUFFER;
		if (!name || !*name) {
			perr(p, p->lineno, WEFT_ERR_INPUT,
			     "[buffer] needs a name, e.g. [buffer x]");
			return;
		}
		if (strcspn(name, " \t:") != strlen(name)) {
			perr(p, p->lineno, WEFT_ERR_INPUT,
			     "buffer name `%s` must be one word without ':'", name);
			return;
		}
	} else {
		static const char *const kinds[] = { "kernel", "buffer", "args", NULL };
		struct weft_suggest sg;
		char close[300], hint[400];
		weft_suggest_init(&sg, inner);
		for (const char *const *k = kinds; *k; k++)
			weft_suggest_consider(&sg, *k);
		snprintf(close, sizeof(close), "%s%s]", name ? " " : "", name ? name : "");
		perr(p, p->lineno, WEFT_ERR_INPUT,
		     "unknown section [%s%s%s]; sections are [kernel], [buffer NAME] and [args]%s",
		     inner, name ? " " : "", name ? name : "",
		     weft_suggest_phrase(&sg, "[", close, hint, sizeof(hint)));
		return;
	}
	for (uint32_t i = 0; i < p->nsecs; i++) {
		const struct section *o = &p->secs[i];
		if (o->kind == sec.kind &&
		    (sec.kind != SEC_BUFFER || strcmp(o->name, name) == 0)) {
			perr(p, p->lineno, WEFT_ERR_INPUT, "section [%s%s%s] repeats line %u",
			     inner, name ? " " : "", name ? name : "", o->line);
			return;
		}
	}
	struct section *ns = realloc(p->secs, (p->nsecs + 1) * sizeof(*ns));
	if (!ns) {
		perr(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
		return;
	}
	p->secs = ns;
	if (name) {
		sec.name = xstrdup(name);
		if (!sec.name) {
			perr(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
			return;
		}
	}
	p->secs[p->nsecs++] = sec;
}

/* Each raw line (common/ini.h), before inih parses it. */
static int on_line(void *user, const char *text, uint32_t line, struct weft_error *err)
{
	struct parse *p = user;
	(void)err;
	p->lineno = line;
	see_header(p, text);
	return p->code;
}

static int on_key(void *user, const char *section, const char *name, const char *value,
		  uint32_t line, struct weft_error *err)
{
	struct parse *p = user;
	(void)section;
	(void)line; /* p->lineno, from on_line */
	(void)err;  /* perr writes p->err */
	if (p->nsecs == 0) {
		perr(p, p->lineno, WEFT_ERR_INPUT,
		     "`%s` is outside any section; start with [kernel]", name);
		return p->code;
	}
	uint32_t sec = p->nsecs - 1;
	for (uint32_t i = 0; i < p->nents; i++)
		if (p->ents[i].section == sec && strcmp(p->ents[i].key, name) == 0 &&
		    p->secs[sec].kind != SEC_ARGS) {
			perr(p, p->lineno, WEFT_ERR_INPUT, "`%s` is set twice (first on line %u)",
			     name, p->ents[i].line);
			return p->code;
		}
	struct entry *ne = realloc(p->ents, (p->nents + 1) * sizeof(*ne));
	if (!ne) {
		perr(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
		return p->code;
	}
	p->ents = ne;
	struct entry *e = &p->ents[p->nents];
	e->section = sec;
	e->line = p->lineno;
	e->used = 0;
	e->key = xstrdup(name);
	e->value = xstrdup(value ? value : "");
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		perr(p, p->lineno, WEFT_ERR_NOMEM, "out of memory");
		return p->code;
	}
	p->nents++;
	return p->code;
}

static struct entry *find(struct parse *p, uint32_t sec, const char *key)
{
	for (uint32_t i = 0; i < p->nents; i++)
		if (p->ents[i].section == sec && strcmp(p->ents[i].key, key) == 0) {
			p->ents[i].used = 1;
			return &p->ents[i];
		}
	return NULL;
}

/* ---- numbers ------------------------------------------------------------ */

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* A positive count: an integer, or 1e9 notation for a whole number. */
static int parse_count(const char *s, uint64_t *out)
{
	if (!parse_u64(s, out))
		return *out ? 0 : -1;
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	double d = strtod(s, &end);
	if (*end || !(d >= 1) || d >= 18446744073709551616.0 || d != floor(d))
		return -1;
	*out = (uint64_t)d;
	return 0;
}

static int parse_i64(const char *s, int64_t *out)
{
	char *end;
	if (!*s)
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	if (!*s)
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || (errno == ERANGE && isinf(v)))
		return -1;
	*out = v;
	return 0;
}

/* Parses a number for type t; on failure fills a reason. */
static int parse_num(enum weft_spec_type t, const char *s, union weft_spec_num *out,
		     const char **why)
{
	unsigned bits = type_info[t].size * 8;
	if (type_info[t].is_float) {
		if (parse_double(s, &out->f)) {
			*why = "not a number";
			return -1;
		}
		if (t == WEFT_SPEC_F32 && isfinite(out->f) && fabs(out->f) > FLT_MAX) {
			*why = "out of range for f32";
			return -1;
		}
		return 0;
	}
	if (type_info[t].is_signed) {
		if (parse_i64(s, &out->s)) {
			*why = "not an integer (decimal, or hex with 0x) or out of 64-bit range";
			return -1;
		}
		if (bits < 64) {
			int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << (bits - 1)) - 1;
			if (out->s < lo || out->s > hi) {
				*why = "out of range for the type";
				return -1;
			}
		}
		return 0;
	}
	if (parse_u64(s, &out->u)) {
		*why = s[0] == '-' ? "negative, but the type is unsigned"
				   : "not an integer (decimal, or hex with 0x) or out of 64-bit range";
		return -1;
	}
	if (bits < 64 && out->u >> bits) {
		*why = "out of range for the type";
		return -1;
	}
	return 0;
}

/* Stores v (of type t) little-endian into dst. */
static void store_num(enum weft_spec_type t, union weft_spec_num v, uint8_t *dst)
{
	switch (t) {
	case WEFT_SPEC_F32: {
		float f = (float)v.f;
		memcpy(dst, &f, 4);
		return;
	}
	case WEFT_SPEC_F64:
		memcpy(dst, &v.f, 8);
		return;
	default: {
		uint64_t u = type_info[t].is_signed ? (uint64_t)v.s : v.u;
		for (unsigned i = 0; i < type_info[t].size; i++)
			dst[i] = (uint8_t)(u >> (8 * i));
		return;
	}
	}
}

void weft_spec_store(enum weft_spec_type t, union weft_spec_num v, uint8_t *dst)
{
	store_num(t, v, dst);
}

/* grid/block: "X", "X,Y" or "X,Y,Z", each >= 1. */
static int parse_dim3(const char *s, struct weft_dim3 *out)
{
	uint32_t v[3] = { 1, 1, 1 };
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", s);
	char *save = NULL, *tok = strtok_r(buf, ",", &save);
	int n = 0;
	while (tok) {
		uint64_t x;
		if (n == 3 || parse_u64(trim(tok), &x) || x == 0 || x > UINT32_MAX)
			return -1;
		v[n++] = (uint32_t)x;
		tok = strtok_r(NULL, ",", &save);
	}
	if (n == 0)
		return -1;
	*out = weft_dim3(v[0], v[1], v[2]);
	return 0;
}

/* ---- paths and files ---------------------------------------------------- */

static char *join(const char *dir, const char *rel)
{
	if (rel[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
		return xstrdup(rel);
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s/%s", dir, rel);
	return s;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	size_t n = (size_t)(slash - path);
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, path, n);
		d[n] = 0;
	}
	return d;
}

/* ---- interpretation ----------------------------------------------------- */

static const char *const kernel_keys[] = { "ptx", "name", "grid", "block", "shared", "max_insts", NULL };
static const char *const buffer_keys[] = { "type", "count", "init", "start", "step", "seed",
					   "min", "max", "file", "output", "expect",
					   "rel_tol", "abs_tol", NULL };

static int check_keys(struct parse *p, uint32_t sec, const char *const *keys, const char *what)
{
	for (uint32_t i = 0; i < p->nents; i++) {
		const struct entry *e = &p->ents[i];
		if (e->section != sec)
			continue;
		int ok = 0;
		for (const char *const *k = keys; *k; k++)
			ok |= strcmp(*k, e->key) == 0;
		if (!ok) {
			char list[256] = "", hint[256];
			for (const char *const *k = keys; *k; k++) {
				strncat(list, *k, sizeof(list) - strlen(list) - 1);
				if (k[1])
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
			}
			return perr(p, e->line, WEFT_ERR_INPUT, "unknown key `%s` in %s (keys: %s)%s",
				    e->key, what, list, suggest_word(e->key, keys, hint, sizeof(hint)));
		}
	}
	return 0;
}

static int do_kernel(struct parse *p, struct weft_spec *spec, uint32_t sec)
{
	const struct section *s = &p->secs[sec];
	struct entry *e;

	if (check_keys(p, sec, kernel_keys, "[kernel]"))
		return p->code;
	if (!(e = find(p, sec, "ptx")) || !*e->value)
		return perr(p, s->line, WEFT_ERR_INPUT,
			    "[kernel] needs `ptx = FILE.ptx` (relative to the spec file)");
	if (!(spec->ptx = join(spec->dir, e->value)))
		return perr(p, e->line, WEFT_ERR_NOMEM, "out of memory");
	if (!(e = find(p, sec, "name")) || !*e->value)
		return perr(p, s->line, WEFT_ERR_INPUT,
			    "[kernel] needs `name = KERNEL` (the .entry name in the PTX)");
	if (!(spec->kernel = xstrdup(e->value)))
		return perr(p, e->line, WEFT_ERR_NOMEM, "out of memory");
	spec->kernel_line = e->line;
	if (!(e = find(p, sec, "grid")))
		return perr(p, s->line, WEFT_ERR_INPUT, "[kernel] needs `grid = X[,Y[,Z]]` (CTAs)");
	if (parse_dim3(e->value, &spec->grid))
		return perr(p, e->line, WEFT_ERR_INPUT,
			    "bad grid `%s`: want X, X,Y or X,Y,Z with each at least 1", e->value);
	uint32_t grid_line = e->line;
	if (!(e = find(p, sec, "block")))
		return perr(p, s->line, WEFT_ERR_INPUT,
			    "[kernel] needs `block = X[,Y[,Z]]` (threads per CTA)");
	if (parse_dim3(e->value, &spec->block))
		return perr(p, e->line, WEFT_ERR_INPUT,
			    "bad block `%s`: want X, X,Y or X,Y,Z with each at least 1", e->value);
	/* CUDA's limits (host.h), at the line that breaks them: the block's
	 * first, then the grid's with a valid block */
	char why[300];
	if (weft_launch_check_dims(weft_dim3(1, 1, 1), spec->block, why, sizeof(why)))
		return perr(p, e->line, WEFT_ERR_INPUT, "%s", why);
	if (weft_launch_check_dims(spec->grid, spec->block, why, sizeof(why)))
		return perr(p, grid_line, WEFT_ERR_INPUT, "%s", why);
	spec->shared = 0;
	if ((e = find(p, sec, "shared"))) {
		uint64_t v;
		if (parse_u64(e->value, &v))
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "bad shared `%s`: want dynamic shared memory bytes", e->value);
		if (v > WEFT_MAX_SHARED_BYTES)
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "shared = %llu bytes is more than the %u bytes (227 KB) of shared memory "
				    "CUDA allows a block (compute capability 9.0, opt-in); ask for less",
				    (unsigned long long)v, WEFT_MAX_SHARED_BYTES);
		spec->shared = (uint32_t)v;
	}
	spec->max_insts = 0;
	if ((e = find(p, sec, "max_insts"))) {
		if (parse_count(e->value, &spec->max_insts))
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "bad max_insts `%s`: want the launch's instruction budget, a positive "
				    "number of thread instructions (e.g. 1e9)",
				    e->value);
		spec->max_insts_line = e->line;
	}
	return 0;
}

static int file_size(const char *path, uint64_t *size, const char **why)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		*why = strerror(errno);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -1;
	}
	*size = (uint64_t)st.st_size;
	return 0;
}

static int do_buffer(struct parse *p, struct weft_spec *spec, uint32_t sec,
		     struct weft_spec_buffer *b)
{
	const struct section *s = &p->secs[sec];
	struct entry *e;
	const char *why;

	if (check_keys(p, sec, buffer_keys, "[buffer]"))
		return p->code;
	b->line = s->line;
	if (!(b->name = xstrdup(s->name)))
		return perr(p, s->line, WEFT_ERR_NOMEM, "out of memory");
	if (!(e = find(p, sec, "type")))
		return perr(p, s->line, WEFT_ERR_INPUT, "[buffer %s] needs `type = T` (%s)", s->name,
			    type_list);
	if (type_parse(e->value, &b->type)) {
		char hint[256];
		return perr(p, e->line, WEFT_ERR_INPUT, "unknown type `%s` (types: %s)%s", e->value,
			    type_list, suggest_type(e->value, NULL, hint, sizeof(hint)));
	}
	unsigned esz = type_info[b->type].size;

	b->init = WEFT_SPEC_INIT_ZERO;
	struct entry *ie = find(p, sec, "init");
	if (ie) {
		static const char *const inits[] = { "zero", "ramp", "random", "file", NULL };
		int found = -1;
		char hint[256];
		for (int i = 0; inits[i]; i++)
			if (strcmp(ie->value, inits[i]) == 0)
				found = i;
		if (found < 0)
			return perr(p, ie->line, WEFT_ERR_INPUT,
				    "unknown init `%s` (zero, ramp, random or file)%s", ie->value,
				    suggest_word(ie->value, inits, hint, sizeof(hint)));
		b->init = (enum weft_spec_init)found;
	}
	/* Keys that belong to another init mode are mistakes, not defaults. */
	static const struct {
		const char *key;
		enum weft_spec_init mode;
	} owned[] = {
		{ "start", WEFT_SPEC_INIT_RAMP },  { "step", WEFT_SPEC_INIT_RAMP },
		{ "seed", WEFT_SPEC_INIT_RANDOM }, { "min", WEFT_SPEC_INIT_RANDOM },
		{ "max", WEFT_SPEC_INIT_RANDOM },  { "file", WEFT_SPEC_INIT_FILE },
	};
	static const char *const mode_names[] = { "zero", "ramp", "random", "file" };
	for (unsigned i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
		struct entry *o = find(p, sec, owned[i].key);
		if (o && owned[i].mode != b->init)
			return perr(p, o->line, WEFT_ERR_INPUT,
				    "`%s` only applies to init = %s (this buffer has init = %s)",
				    owned[i].key, mode_names[owned[i].mode], mode_names[b->init]);
	}

	switch (b->init) {
	case WEFT_SPEC_INIT_ZERO:
		break;
	case WEFT_SPEC_INIT_RAMP:
		if (type_info[b->type].is_float) {
			b->start.f = 0;
			b->step.f = 1;
		} else if (type_info[b->type].is_signed) {
			b->start.s = 0;
			b->step.s = 1;
		} else {
			b->start.u = 0;
			b->step.u = 1;
		}
		if ((e = find(p, sec, "start")) && parse_num(b->type, e->value, &b->start, &why))
			return perr(p, e->line, WEFT_ERR_INPUT, "bad start `%s` for %s: %s", e->value,
				    type_info[b->type].name, why);
		/* An unsigned ramp may count down: step is signed for integers. */
		if ((e = find(p, sec, "step"))) {
			enum weft_spec_type st = type_info[b->type].is_float ? b->type : WEFT_SPEC_S64;
			if (parse_num(st, e->value, &b->step, &why))
				return perr(p, e->line, WEFT_ERR_INPUT, "bad step `%s`: %s", e->value,
					    why);
		} else if (!type_info[b->type].is_float) {
			b->step.s = 1;
		}
		break;
	case WEFT_SPEC_INIT_RANDOM:
		b->seed = 1;
		if ((e = find(p, sec, "seed")) && parse_u64(e->value, &b->seed))
			return perr(p, e->line, WEFT_ERR_INPUT, "bad seed `%s`: want an unsigned integer",
				    e->value);
		if (type_info[b->type].is_float) {
			b->min.f = 0;
			b->max.f = 1;
		} else if (type_info[b->type].is_signed) {
			b->min.s = 0;
			b->max.s = 100;
		} else {
			b->min.u = 0;
			b->max.u = 100;
		}
		if ((e = find(p, sec, "min")) && parse_num(b->type, e->value, &b->min, &why))
			return perr(p, e->line, WEFT_ERR_INPUT, "bad min `%s` for %s: %s", e->value,
				    type_info[b->type].name, why);
		if ((e = find(p, sec, "max")) && parse_num(b->type, e->value, &b->max, &why))
			return perr(p, e->line, WEFT_ERR_INPUT, "bad max `%s` for %s: %s", e->value,
				    type_info[b->type].name, why);
		if (!e)
			e = find(p, sec, "min");
		{
			int bad = type_info[b->type].is_float ? !(b->min.f <= b->max.f)
				  : type_info[b->type].is_signed ? b->min.s > b->max.s
								  : b->min.u > b->max.u;
			if (bad)
				return perr(p, e ? e->line : s->line, WEFT_ERR_INPUT,
					    "[buffer %s]: min is greater than max", s->name);
		}
		break;
	case WEFT_SPEC_INIT_FILE:
		if (!(e = find(p, sec, "file")) || !*e->value)
			return perr(p, ie->line, WEFT_ERR_INPUT,
				    "init = file needs `file = PATH` (raw binary, relative to the spec file)");
		if (!(b->file = join(spec->dir, e->value)))
			return perr(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		break;
	}

	struct entry *ce = find(p, sec, "count");
	if (ce) {
		if (parse_u64(ce->value, &b->count) || b->count == 0)
			return perr(p, ce->line, WEFT_ERR_INPUT,
				    "bad count `%s`: want a positive number of elements", ce->value);
		if (b->count > ((uint64_t)1 << 40) / esz)
			return perr(p, ce->line, WEFT_ERR_INPUT,
				    "count %llu is too large (at most 1 TiB per buffer)",
				    (unsigned long long)b->count);
	} else if (b->init != WEFT_SPEC_INIT_FILE) {
		return perr(p, s->line, WEFT_ERR_INPUT, "[buffer %s] needs `count = N` (elements)",
			    s->name);
	}
	if (b->init == WEFT_SPEC_INIT_FILE) {
		uint64_t size;
		e = find(p, sec, "file");
		if (file_size(b->file, &size, &why))
			return perr(p, e->line, WEFT_ERR_INPUT, "cannot read init file %s: %s", b->file,
				    why);
		if (!ce) {
			if (size == 0 || size % esz)
				return perr(p, e->line, WEFT_ERR_INPUT,
					    "init file %s has %llu bytes, not a whole number of %s "
					    "elements; set count",
					    b->file, (unsigned long long)size, type_info[b->type].name);
			b->count = size / esz;
		} else if (size != b->count * esz) {
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "init file %s has %llu bytes but %llu %s elements need %llu",
				    b->file, (unsigned long long)size, (unsigned long long)b->count,
				    type_info[b->type].name, (unsigned long long)(b->count * esz));
		}
	}
	if ((e = find(p, sec, "expect"))) {
		uint64_t size;
		if (!*e->value)
			return perr(p, e->line, WEFT_ERR_INPUT, "empty expect path");
		if (!(b->expect = join(spec->dir, e->value)))
			return perr(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		b->expect_line = e->line;
		if (file_size(b->expect, &size, &why))
			return perr(p, e->line, WEFT_ERR_INPUT, "cannot read expect file %s: %s",
				    b->expect, why);
		if (size != b->count * esz)
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "expect file %s has %llu bytes but %llu %s elements need %llu",
				    b->expect, (unsigned long long)size, (unsigned long long)b->count,
				    type_info[b->type].name, (unsigned long long)(b->count * esz));
	}
	static const char *const tols[] = { "rel_tol", "abs_tol" };
	for (int t = 0; t < 2; t++) {
		double *dst = t ? &b->abs_tol : &b->rel_tol;
		if (!(e = find(p, sec, tols[t])))
			continue;
		if (!b->expect)
			return perr(p, e->line, WEFT_ERR_INPUT, "`%s` only applies with `expect = FILE`",
				    tols[t]);
		if (!type_info[b->type].is_float)
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "`%s` applies to f32/f64 buffers; integers compare exactly", tols[t]);
		if (parse_double(e->value, dst) || !(*dst >= 0) || isinf(*dst))
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "bad %s `%s`: want a finite number >= 0", tols[t], e->value);
	}
	if ((e = find(p, sec, "output"))) {
		if (!*e->value)
			return perr(p, e->line, WEFT_ERR_INPUT, "empty output path");
		if (!(b->output = xstrdup(e->value)))
			return perr(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		b->output_line = e->line;
	}
	return 0;
}

static int do_args(struct parse *p, struct weft_spec *spec, uint32_t sec)
{
	spec->args_line = p->secs[sec].line;
	for (uint32_t i = 0; i < p->nents; i++) {
		struct entry *e = &p->ents[i];
		if (e->section != sec)
			continue;
		e->used = 1;
		struct weft_spec_arg *a = &spec->args[spec->nargs];
		a->line = e->line;
		a->buffer = -1;
		if (!(a->label = xstrdup(e->key)))
			return perr(p, e->line, WEFT_ERR_NOMEM, "out of memory");
		spec->nargs++;
		char *colon = strchr(e->value, ':');
		if (!colon)
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "argument `%s = %s`: want buffer:NAME or TYPE:VALUE (e.g. u32:1000, "
				    "f32:1.5)",
				    e->key, e->value);
		*colon = 0;
		const char *kind = trim(e->value), *val = trim(colon + 1);
		if (strcmp(kind, "buffer") == 0) {
			for (uint32_t b = 0; b < spec->nbuffers; b++)
				if (strcmp(spec->buffers[b].name, val) == 0)
					a->buffer = (int32_t)b;
			if (a->buffer < 0) {
				struct weft_suggest sg;
				char hint[512];
				weft_suggest_init(&sg, val);
				for (uint32_t b = 0; b < spec->nbuffers; b++)
					weft_suggest_consider(&sg, spec->buffers[b].name);
				return perr(p, e->line, WEFT_ERR_INPUT,
					    "argument `%s`: no [buffer %s] in this spec%s", e->key, val,
					    weft_suggest_phrase(&sg, "[buffer ", "]", hint, sizeof(hint)));
			}
			continue;
		}
		if (type_parse(kind, &a->type)) {
			char hint[256];
			return perr(p, e->line, WEFT_ERR_INPUT,
				    "argument `%s`: unknown type `%s` (buffer or %s)%s", e->key, kind,
				    type_list, suggest_type(kind, "buffer", hint, sizeof(hint)));
		}
		union weft_spec_num v;
		const char *why;
		if (parse_num(a->type, val, &v, &why))
			return perr(p, e->line, WEFT_ERR_INPUT, "argument `%s`: bad %s value `%s`: %s",
				    e->key, kind, val, why);
		store_num(a->type, v, a->bytes);
	}
	return 0;
}

static int interpret(struct parse *p, struct weft_spec *spec)
{
	int have_kernel = -1, have_args = -1;
	uint32_t nbuf = 0, nargs = 0;

	for (uint32_t i = 0; i < p->nsecs; i++) {
		if (p->secs[i].kind == SEC_KERNEL)
			have_kernel = (int)i;
		else if (p->secs[i].kind == SEC_ARGS)
			have_args = (int)i;
		else
			nbuf++;
	}
	for (uint32_t i = 0; i < p->nents; i++)
		if (have_args >= 0 && p->ents[i].section == (uint32_t)have_args)
			nargs++;
	if (have_kernel < 0)
		return perr(p, 0, WEFT_ERR_INPUT,
			    "no [kernel] section: a spec needs [kernel] with ptx, name, grid, block");
	spec->buffers = calloc(nbuf ? nbuf : 1, sizeof(*spec->buffers));
	spec->args = calloc(nargs ? nargs : 1, sizeof(*spec->args));
	if (!spec->buffers || !spec->args)
		return perr(p, 0, WEFT_ERR_NOMEM, "out of memory");
	if (do_kernel(p, spec, (uint32_t)have_kernel))
		return p->code;
	for (uint32_t i = 0; i < p->nsecs; i++)
		if (p->secs[i].kind == SEC_BUFFER) {
			struct weft_spec_buffer *b = &spec->buffers[spec->nbuffers++];
			if (do_buffer(p, spec, i, b))
				return p->code;
		}
	if (have_args < 0)
		return perr(p, 0, WEFT_ERR_INPUT,
			    "no [args] section: list the kernel's arguments in parameter order "
			    "(an empty [args] for a kernel without parameters)");
	if (do_args(p, spec, (uint32_t)have_args))
		return p->code;
	/* A buffer nobody passes to the kernel is most likely a typo in [args]. */
	for (uint32_t b = 0; b < spec->nbuffers; b++) {
		int used = 0;
		for (uint32_t a = 0; a < spec->nargs; a++)
			used |= spec->args[a].buffer == (int32_t)b;
		if (!used)
			return perr(p, spec->buffers[b].line, WEFT_ERR_INPUT,
				    "[buffer %s] is not passed to the kernel in [args]",
				    spec->buffers[b].name);
	}
	return 0;
}

static void free_parse(struct parse *p)
{
	for (uint32_t i = 0; i < p->nsecs; i++)
		free(p->secs[i].name);
	for (uint32_t i = 0; i < p->nents; i++) {
		free(p->ents[i].key);
		free(p->ents[i].value);
	}
	free(p->secs);
	free(p->ents);
}

void weft_spec_free(struct weft_spec *spec)
{
	if (!spec)
		return;
	for (uint32_t i = 0; i < spec->nbuffers; i++) {
		free(spec->buffers[i].name);
		free(spec->buffers[i].file);
		free(spec->buffers[i].output);
		free(spec->buffers[i].expect);
	}
	for (uint32_t i = 0; i < spec->nargs; i++)
		free(spec->args[i].label);
	free(spec->buffers);
	free(spec->args);
	free(spec->path);
	free(spec->dir);
	free(spec->ptx);
	free(spec->kernel);
	free(spec);
}

int weft_spec_parse(const char *text, size_t len, const char *path, struct weft_spec **out,
		    struct weft_error *err)
{
	struct parse p;
	struct weft_spec *spec;
	int rc;

	*out = NULL;
	weft_error_clear(err);
	memset(&p, 0, sizeof(p));
	p.path = path;
	p.err = err;

	spec = calloc(1, sizeof(*spec));
	if (!spec || !(spec->path = xstrdup(path)) || !(spec->dir = dir_of(path))) {
		weft_spec_free(spec);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	}

	struct weft_ini ini = { path, "spec file", on_key, on_line, &p };
	rc = weft_ini_parse(&ini, text, len, err);
	if (rc && !p.code)
		p.code = rc;
	if (!p.code)
		interpret(&p, spec);
	free_parse(&p);
	if (p.code) {
		weft_spec_free(spec);
		return p.code;
	}
	*out = spec;
	return 0;
}

static int read_file(const char *path, char **data, size_t *len, struct weft_error *err,
		     const char *what)
{
	int st = weft_file_read(path, data, len);
	if (st == WEFT_FILE_OPEN)
		return weft_error_set(err, WEFT_ERR_INPUT, "cannot open %s %s: %s", what, path,
				      strerror(errno));
	if (st == WEFT_FILE_NOMEM)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
	if (st)
		return weft_error_set(err, WEFT_ERR_IO, "error reading %s %s", what, path);
	return 0;
}

int weft_spec_load(const char *path, struct weft_spec **out, struct weft_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if ((rc = read_file(path, &text, &len, err, "spec file")))
		return rc;
	rc = weft_spec_parse(text, len, path, out, err);
	free(text);
	return rc;
}

/* ---- checking against the kernel ---------------------------------------- */

static const char *ptx_param_name(const struct weft_ptx_module *m, const struct weft_ptx_param *pp)
{
	if (pp->sym >= 0 && (uint32_t)pp->sym < m->nsyms && m->syms[pp->sym].name)
		return m->syms[pp->sym].name;
	return "?";
}

int weft_spec_check_args(const struct weft_spec *spec, const struct weft_ptx_module *m,
			 struct weft_error *err)
{
	int fi = weft_ptx_find_func(m, spec->kernel);
	if (fi < 0 || !m->funcs[fi].is_entry) {
		char list[512] = "";
		for (uint32_t i = 0; i < m->nfuncs; i++)
			if (m->funcs[i].is_entry) {
				if (list[0])
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
				strncat(list, m->funcs[i].name, sizeof(list) - strlen(list) - 1);
			}
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, spec->kernel_line, 0,
				     "kernel `%s` is not %s in %s (kernels there: %s)", spec->kernel,
				     fi < 0 ? "defined" : "an .entry", spec->ptx,
				     list[0] ? list : "none");
	}
	const struct weft_ptx_func *f = &m->funcs[fi];
	if (spec->nargs != f->nparams) {
		if (spec->nargs < f->nparams) {
			const struct weft_ptx_param *pp = &f->params[spec->nargs];
			return weft_error_at(
				err, WEFT_ERR_INPUT, spec->path,
				spec->nargs ? spec->args[spec->nargs - 1].line : spec->args_line, 0,
				"kernel `%s` takes %u parameters but [args] gives %u; next missing: "
				"parameter %u `%s` (.%s, %u bytes)",
				spec->kernel, f->nparams, spec->nargs, spec->nargs + 1,
				ptx_param_name(m, pp), weft_ptx_type_name(pp->type), pp->size);
		}
		const struct weft_spec_arg *a = &spec->args[f->nparams];
		return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
				     "kernel `%s` takes %u parameters but [args] gives %u; "
				     "argument %u `%s` has no parameter",
				     spec->kernel, f->nparams, spec->nargs, f->nparams + 1, a->label);
	}
	for (uint32_t i = 0; i < spec->nargs; i++) {
		const struct weft_spec_arg *a = &spec->args[i];
		const struct weft_ptx_param *pp = &f->params[i];
		const char *pname = ptx_param_name(m, pp);
		const char *ptype = weft_ptx_type_name(pp->type);
		int pfloat = weft_ptx_type_is_float(pp->type);
		if (pp->size > 8 || (pp->type == WEFT_T_B8 && pp->size > 1))
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
					     "argument %u `%s`: parameter `%s` is a %u-byte aggregate "
					     "(.b8 array); specs pass only scalars and buffers",
					     i + 1, a->label, pname, pp->size);
		if (a->buffer >= 0) {
			if (pp->size != 8 || pfloat)
				return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
						     "argument %u `%s` is buffer:%s (a 64-bit device "
						     "pointer) but parameter `%s` is .%s (%u bytes); "
						     "pass a scalar such as %s%s:VALUE",
						     i + 1, a->label, spec->buffers[a->buffer].name,
						     pname, ptype, pp->size, pfloat ? "f" : "u",
						     pp->size == 8 ? "64" : pp->size == 4 ? "32"
						     : pp->size == 2 ? "16" : "8");
			continue;
		}
		unsigned asz = type_info[a->type].size;
		int afloat = type_info[a->type].is_float;
		/* .bN parameters take any type of their width; .fN need a float,
		 * .uN/.sN an integer (sign is not checked: nvcc declares int
		 * parameters .u32). */
		int bits_type = pp->type >= WEFT_T_B8 && pp->type <= WEFT_T_B64;
		if (asz != pp->size || (!bits_type && afloat != pfloat)) {
			char hint[32];
			if (pp->size == 8 && !pfloat)
				snprintf(hint, sizeof(hint), "buffer:NAME or u64:VALUE");
			else
				snprintf(hint, sizeof(hint), "%s%u:VALUE", pfloat ? "f" : "u",
					 pp->size * 8);
			return weft_error_at(err, WEFT_ERR_INPUT, spec->path, a->line, 0,
					     "argument %u `%s` is %s (%u bytes) but parameter `%s` "
					     "is .%s (%u bytes); write %s",
					     i + 1, a->label, type_info[a->type].name, asz, pname, ptype,
					     pp->size, hint);
		}
	}
	return 0;
}
