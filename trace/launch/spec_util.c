/*
 * spec_util.c - the launch spec parser's plumbing (spec_int.h): element
 * types, numbers as each type reads them, grid and block dimensions, paths
 * relative to the spec file, the records of its INI text (keys looked up
 * per section, unknown keys refused), the first-error rule of its
 * messages, and "did you mean" suggestions (common/suggest.h).
 */
#include "spec_int.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/suggest.h"

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

const char weft_specp_type_list[] = "u8, s8, u16, s16, u32, s32, u64, s64, f32, f64";

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

int weft_specp_type_parse(const char *s, enum weft_spec_type *out)
{
	for (unsigned i = 0; i < WEFT_SPEC_TYPE_COUNT; i++)
		if (strcmp(s, type_info[i].name) == 0) {
			*out = (enum weft_spec_type)i;
			return 0;
		}
	return -1;
}

/* ---- messages and records ------------------------------------------------ */

int weft_specp_err(struct weft_specp *p, uint32_t line, enum weft_err code, const char *fmt, ...)
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

struct weft_specp_entry *weft_specp_find(struct weft_specp *p, uint32_t sec, const char *key)
{
	for (uint32_t i = 0; i < p->nents; i++)
		if (p->ents[i].section == sec && strcmp(p->ents[i].key, key) == 0) {
			p->ents[i].used = 1;
			return &p->ents[i];
		}
	return NULL;
}

const char *weft_specp_suggest_word(const char *typed, const char *const *words, char *buf,
				    size_t len)
{
	struct weft_suggest s;
	weft_suggest_init(&s, typed);
	for (const char *const *w = words; *w; w++)
		weft_suggest_consider(&s, *w);
	return weft_suggest_phrase(&s, "`", "`", buf, len);
}

/* "; did you mean `u32`?" for a type name that is none of them; with
 * also (e.g. "buffer") weighed as more valid words (comma-separated). */
const char *weft_specp_suggest_type(const char *typed, const char *also, char *buf, size_t len)
{
	struct weft_suggest s;
	char words[200];
	weft_suggest_init(&s, typed);
	snprintf(words, sizeof(words), "%s", also ? also : "");
	char *save = NULL;
	for (char *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		weft_suggest_consider(&s, w);
	for (unsigned i = 0; i < WEFT_SPEC_TYPE_COUNT; i++)
		weft_suggest_consider(&s, type_info[i].name);
	return weft_suggest_phrase(&s, "`", "`", buf, len);
}

int weft_specp_check_keys(struct weft_specp *p, uint32_t sec, const char *const *keys,
			  const char *what)
{
	for (uint32_t i = 0; i < p->nents; i++) {
		const struct weft_specp_entry *e = &p->ents[i];
		if (e->section != sec)
			continue;
		int ok = 0;
		for (const char *const *k = keys; *k; k++)
			ok |= strcmp(*k, e->key) == 0;
		if (!ok) {
			char list[400] = "", hint[256];
			for (const char *const *k = keys; *k; k++) {
				strncat(list, *k, sizeof(list) - strlen(list) - 1);
				if (k[1])
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
			}
			return weft_specp_err(p, e->line, WEFT_ERR_INPUT, "unknown key `%s` in %s (keys: %s)%s",
					      e->key, what, list,
					      weft_specp_suggest_word(e->key, keys, hint, sizeof(hint)));
		}
	}
	return 0;
}

static int kind_matches(enum weft_specp_sec want, enum weft_specp_sec have)
{
	return want == have || (want == SEC_TEXTURE && have == SEC_SURFACE);
}

int32_t weft_specp_section(const struct weft_specp *p, enum weft_specp_sec kind, const char *name)
{
	for (uint32_t i = 0; i < p->nsecs; i++)
		if (kind_matches(kind, p->secs[i].kind) && p->secs[i].name && !strcmp(p->secs[i].name, name))
			return (int32_t)i;
	return -1;
}

const char *weft_specp_suggest_section(const struct weft_specp *p, enum weft_specp_sec kind,
				       const char *typed, const char *open, char *buf, size_t len)
{
	struct weft_suggest s;
	weft_suggest_init(&s, typed);
	for (uint32_t i = 0; i < p->nsecs; i++)
		if (p->secs[i].kind == kind && p->secs[i].name)
			weft_suggest_consider(&s, p->secs[i].name);
	return weft_suggest_phrase(&s, open, "]", buf, len);
}

char *weft_specp_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

char *weft_specp_trim(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = 0;
	return s;
}

/* ---- numbers ------------------------------------------------------------ */

int weft_specp_u64(const char *s, uint64_t *out)
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

int weft_specp_count(const char *s, uint64_t *out)
{
	if (!weft_specp_u64(s, out))
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

int weft_specp_i64(const char *s, int64_t *out)
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

int weft_specp_double(const char *s, double *out)
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

int weft_specp_num(enum weft_spec_type t, const char *s, union weft_spec_num *out, const char **why)
{
	unsigned bits = type_info[t].size * 8;
	if (type_info[t].is_float) {
		if (weft_specp_double(s, &out->f)) {
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
		if (weft_specp_i64(s, &out->s)) {
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
	if (weft_specp_u64(s, &out->u)) {
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

void weft_spec_store(enum weft_spec_type t, union weft_spec_num v, uint8_t *dst)
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

/* grid/block: "X", "X,Y" or "X,Y,Z", each >= 1. */
int weft_specp_dim3(const char *s, struct weft_dim3 *out)
{
	uint32_t v[3] = { 1, 1, 1 };
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", s);
	char *save = NULL, *tok = strtok_r(buf, ",", &save);
	int n = 0;
	while (tok) {
		uint64_t x;
		if (n == 3 || weft_specp_u64(weft_specp_trim(tok), &x) || x == 0 || x > UINT32_MAX)
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

char *weft_specp_join(const char *dir, const char *rel)
{
	if (rel[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
		return weft_specp_strdup(rel);
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s/%s", dir, rel);
	return s;
}

char *weft_specp_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return weft_specp_strdup(".");
	if (slash == path)
		return weft_specp_strdup("/");
	size_t n = (size_t)(slash - path);
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, path, n);
		d[n] = 0;
	}
	return d;
}

int weft_specp_file_size(const char *path, uint64_t *size, const char **why)
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
