/*
 * wl_util.c - result comparison and allocation helpers for the bundled
 * workloads (see wl_util.h). Mismatch messages name the element, both values
 * with enough digits to tell floats apart, the difference against the
 * tolerance, and how many elements differ in all.
 */
#include "wl_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int weft_wl_close(double dev, double ref, double rel_tol, double abs_tol)
{
	if (isnan(ref) || isnan(dev))
		return isnan(ref) && isnan(dev);
	if (dev == ref) /* also equal infinities */
		return 1;
	if (isinf(dev) || isinf(ref)) /* else inf <= rel * inf would pass */
		return 0;
	return fabs(dev - ref) <= abs_tol + rel_tol * fabs(ref);
}

int weft_wl_report_float(const char *what, double dev, double ref, double rel_tol,
			 double abs_tol, struct weft_error *err)
{
	return weft_error_set(err, WEFT_ERR_VERIFY,
			      "%s = %.9g (device) vs %.9g (reference), |diff| %.3g > tolerance "
			      "%g + %g*|ref|",
			      what, dev, ref, fabs(dev - ref), abs_tol, rel_tol);
}

/* Appends "(K of N elements differ)" so one message tells how bad it is. */
static int mismatch_float(const char *what, size_t i, size_t bad, size_t n, double dev,
			  double ref, double rel_tol, double abs_tol, struct weft_error *err)
{
	return weft_error_set(err, WEFT_ERR_VERIFY,
			      "%s[%zu] = %.9g (device) vs %.9g (reference), |diff| %.3g > "
			      "tolerance %g + %g*|ref| (%zu of %zu elements differ)",
			      what, i, dev, ref, fabs(dev - ref), abs_tol, rel_tol, bad, n);
}

int weft_wl_check_f32(const char *what, const float *dev, const float *ref, size_t n,
		      double rel_tol, double abs_tol, struct weft_error *err)
{
	size_t first = 0, bad = 0;
	for (size_t i = 0; i < n; i++)
		if (!weft_wl_close(dev[i], ref[i], rel_tol, abs_tol) && bad++ == 0)
			first = i;
	if (!bad)
		return 0;
	return mismatch_float(what, first, bad, n, dev[first], ref[first], rel_tol, abs_tol, err);
}

int weft_wl_check_f64(const char *what, const double *dev, const double *ref, size_t n,
		      double rel_tol, double abs_tol, struct weft_error *err)
{
	size_t first = 0, bad = 0;
	for (size_t i = 0; i < n; i++)
		if (!weft_wl_close(dev[i], ref[i], rel_tol, abs_tol) && bad++ == 0)
			first = i;
	if (!bad)
		return 0;
	return mismatch_float(what, first, bad, n, dev[first], ref[first], rel_tol, abs_tol, err);
}

/* The exact-match failure message of the integer checks (every element
 * type they take fits an int64_t, printed the same way). */
static int exact_mismatch(const char *what, size_t first, size_t bad, size_t n, int64_t dev,
			  int64_t ref, struct weft_error *err)
{
	return weft_error_set(err, WEFT_ERR_VERIFY,
			      "%s[%zu] = %" PRId64 " (device) vs %" PRId64
			      " (reference), exact match required (%zu of %zu elements differ)",
			      what, first, dev, ref, bad, n);
}

/* The integer checks: the first differing index and how many differ. */
#define WL_CHECK_EXACT(what, dev, ref, n, err)                                                   \
	do {                                                                                     \
		size_t first_ = 0, bad_ = 0;                                                     \
		for (size_t i_ = 0; i_ < (n); i_++)                                              \
			if ((dev)[i_] != (ref)[i_] && bad_++ == 0)                                 \
				first_ = i_;                                                       \
		return bad_ ? exact_mismatch(what, first_, bad_, n, (int64_t)(dev)[first_],       \
					     (int64_t)(ref)[first_], err)                         \
			    : 0;                                                                 \
	} while (0)

int weft_wl_check_i32(const char *what, const int32_t *dev, const int32_t *ref, size_t n,
		      struct weft_error *err)
{
	WL_CHECK_EXACT(what, dev, ref, n, err);
}

int weft_wl_check_u32(const char *what, const uint32_t *dev, const uint32_t *ref, size_t n,
		      struct weft_error *err)
{
	WL_CHECK_EXACT(what, dev, ref, n, err);
}

int weft_wl_check_u8(const char *what, const uint8_t *dev, const uint8_t *ref, size_t n,
		     struct weft_error *err)
{
	WL_CHECK_EXACT(what, dev, ref, n, err);
}

void *weft_wl_alloc(size_t count, size_t size, struct weft_error *err)
{
	void *p = NULL;
	if (!size || count <= SIZE_MAX / size)
		p = calloc(count ? count : 1, size ? size : 1);
	if (!p) {
		weft_error_set(err, WEFT_ERR_NOMEM,
			       "out of host memory allocating %zu x %zu bytes; try a smaller --size",
			       count, size);
		return NULL;
	}
	/* Touch every page now: large callocs are mapped lazily, and the first
	 * touch would otherwise land in the timed CPU reference, charging it
	 * page faults a fair baseline does not have. */
	volatile unsigned char *v = p;
	for (size_t i = 0; i < count * size; i += 4096)
		v[i] = 0;
	return p;
}

int weft_wl_upload(struct weft_ctx *ctx, const void *host, size_t bytes, uint64_t *dptr,
		   struct weft_error *err)
{
	int rc = weft_malloc(ctx, bytes, dptr, err);
	if (rc)
		return rc;
	return weft_memcpy_htod(ctx, *dptr, host, bytes, err);
}
