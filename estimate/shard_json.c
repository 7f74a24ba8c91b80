/*
 * shard_json.c - typed getters over a part's libjansson values
 * (shard_part.h): each checks the type, the size a weft field can hold or
 * the range, and words a failure as "FILE: WHERE: KEY is ...", so a part
 * damaged or edited anywhere is refused with where.
 */
#include "shard_part.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define REMAKE "; make the part again (weft-estimate ... --shard K/N -o FILE)"

int weft_est_j_bad(const struct weft_est_jctx *c, const char *where, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return weft_error_at(c->err, WEFT_ERR_INPUT, c->name, 0, 0, "not a valid shard part: %s%s%s%s",
			     where, where[0] ? ": " : "", msg, REMAKE);
}

int weft_est_j_keys(const struct weft_est_jctx *c, const json_t *o, const char *where,
		    const char *const *keys)
{
	const char *k;
	json_t *v = NULL;
	json_object_foreach((json_t *)o, k, v)
	{
		const char *const *a = keys;
		while (*a && strcmp(*a, k) != 0)
			a++;
		if (!*a)
			return weft_est_j_bad(c, where, "unexpected key \"%.64s\"", k);
	}
	return 0;
}

static const char *type_name(json_type t)
{
	switch (t) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "true or false";
	default:
		return "null";
	}
}

int weft_est_j_get(const struct weft_est_jctx *c, const json_t *o, const char *where,
		   const char *key, json_type t, json_t **out)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return weft_est_j_bad(c, where, "\"%s\" is missing", key);
	int ok = json_typeof(v) == t || (t == JSON_TRUE && json_is_boolean(v));
	if (!ok)
		return weft_est_j_bad(c, where, "\"%s\" is not %s", key, type_name(t));
	*out = v;
	return 0;
}

int weft_est_j_array(const struct weft_est_jctx *c, const json_t *o, const char *where,
		     const char *key, size_t max, json_t **out)
{
	int rc = weft_est_j_get(c, o, where, key, JSON_ARRAY, out);
	if (rc == 0 && json_array_size(*out) > max)
		return weft_est_j_bad(c, where, "\"%s\" has %zu elements, more than the %zu it may have",
				      key, json_array_size(*out), max);
	return rc;
}

int weft_est_j_strv(const struct weft_est_jctx *c, const json_t *v, const char *where,
		    const char *what, char *buf, size_t size)
{
	if (!json_is_string(v))
		return weft_est_j_bad(c, where, "%s is not a string", what);
	size_t n = json_string_length(v);
	if (n >= size)
		return weft_est_j_bad(c, where, "%s is %zu bytes long, more than the %zu it may have", what,
				      n, size - 1);
	memcpy(buf, json_string_value(v), n + 1);
	return 0;
}

int weft_est_j_str(const struct weft_est_jctx *c, const json_t *o, const char *where,
		   const char *key, char *buf, size_t size)
{
	json_t *v = NULL;
	int rc = weft_est_j_get(c, o, where, key, JSON_STRING, &v);
	if (rc)
		return rc;
	char what[80];
	snprintf(what, sizeof(what), "\"%s\"", key);
	return weft_est_j_strv(c, v, where, what, buf, size);
}

int weft_est_j_numv(const struct weft_est_jctx *c, const json_t *v, const char *where,
		    const char *what, double *out)
{
	if (json_is_null(v)) {
		*out = NAN;
	} else if (json_is_number(v)) {
		*out = json_number_value(v);
	} else if (json_is_string(v) && strcmp(json_string_value(v), "inf") == 0) {
		*out = INFINITY;
	} else if (json_is_string(v) && strcmp(json_string_value(v), "-inf") == 0) {
		*out = -INFINITY;
	} else {
		return weft_est_j_bad(c, where, "%s is not a number (nor null, \"inf\" or \"-inf\")", what);
	}
	return 0;
}

int weft_est_j_num(const struct weft_est_jctx *c, const json_t *o, const char *where,
		   const char *key, double *out)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return weft_est_j_bad(c, where, "\"%s\" is missing", key);
	char what[80];
	snprintf(what, sizeof(what), "\"%s\"", key);
	return weft_est_j_numv(c, v, where, what, out);
}

int weft_est_j_uint(const struct weft_est_jctx *c, const json_t *o, const char *where,
		    const char *key, uint64_t max, uint64_t *out)
{
	json_t *v = NULL;
	int rc = weft_est_j_get(c, o, where, key, JSON_INTEGER, &v);
	if (rc)
		return rc;
	json_int_t i = json_integer_value(v);
	if (i < 0 || (uint64_t)i > max)
		return weft_est_j_bad(c, where, "\"%s\" is %lld, outside 0 to %llu", key, (long long)i,
				      (unsigned long long)max);
	*out = (uint64_t)i;
	return 0;
}

int weft_est_j_hash(const struct weft_est_jctx *c, const json_t *o, const char *where,
		    const char *key, const char *prefix, uint64_t *out)
{
	char buf[64];
	int rc = weft_est_j_str(c, o, where, key, buf, sizeof(buf));
	if (rc)
		return rc;
	size_t pl = strlen(prefix);
	const char *h = buf + pl + 1;
	int ok = strncmp(buf, prefix, pl) == 0 && buf[pl] == ':' && strlen(h) == 16 &&
		 strspn(h, "0123456789abcdef") == 16;
	if (!ok)
		return weft_est_j_bad(c, where, "\"%s\" is not %s:<16 hex digits>", key, prefix);
	uint64_t v = 0;
	for (int i = 0; i < 16; i++)
		v = v << 4 | (uint64_t)(h[i] <= '9' ? h[i] - '0' : h[i] - 'a' + 10);
	*out = v;
	return 0;
}
