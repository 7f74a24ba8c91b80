/*
 * wl_util.h - small helpers shared by the bundled workloads' host drivers:
 * a seeded deterministic RNG (splitmix64, so inputs are the same on every
 * machine), result comparison with the documented tolerances, and host
 * allocation / device upload shorthands.
 */
#ifndef WEFT_WL_UTIL_H
#define WEFT_WL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "trace/emu/host.h"

struct weft_rng {
	uint64_t s;
};
static inline void weft_rng_seed(struct weft_rng *r, uint64_t seed) { r->s = seed; }
/* splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014). */
static inline uint64_t weft_rng_next(struct weft_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
/* Uniform float in [lo, hi). */
static inline float weft_rng_float(struct weft_rng *r, float lo, float hi)
{
	return lo + (hi - lo) * (float)((weft_rng_next(r) >> 40) * (1.0 / 16777216.0));
}
/* Uniform integer in [0, n). */
static inline uint32_t weft_rng_below(struct weft_rng *r, uint32_t n)
{
	return (uint32_t)(((weft_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Compare arrays; on the first mismatch fill err (WEFT_ERR_VERIFY) naming
 * what, the index and both values. Floats match when
 * |dev - ref| <= abs_tol + rel_tol * |ref| (NaN matches only NaN). */
int weft_wl_check_f32(const char *what, const float *dev, const float *ref, size_t n,
		      double rel_tol, double abs_tol, struct weft_error *err);
int weft_wl_check_f64(const char *what, const double *dev, const double *ref, size_t n,
		      double rel_tol, double abs_tol, struct weft_error *err);
int weft_wl_check_i32(const char *what, const int32_t *dev, const int32_t *ref, size_t n,
		      struct weft_error *err);
int weft_wl_check_u32(const char *what, const uint32_t *dev, const uint32_t *ref, size_t n,
		      struct weft_error *err);
int weft_wl_check_u8(const char *what, const uint8_t *dev, const uint8_t *ref, size_t n,
		     struct weft_error *err);

/* One float pair under the same rule as weft_wl_check_f32/f64 (1 = close). */
int weft_wl_close(double dev, double ref, double rel_tol, double abs_tol);
/* Fills err (WEFT_ERR_VERIFY) for one mismatching float element; `what`
 * names it fully (e.g. "c[17].re"). Returns WEFT_ERR_VERIFY. */
int weft_wl_report_float(const char *what, double dev, double ref, double rel_tol,
			 double abs_tol, struct weft_error *err);

/* calloc(count, size), pages touched, for workload inputs and outputs; NULL with
 * WEFT_ERR_NOMEM in err (naming the byte count) on failure or overflow.
 * (The workload runner prefixes messages with the workload's name.) */
void *weft_wl_alloc(size_t count, size_t size, struct weft_error *err);

/* weft_malloc + weft_memcpy_htod: a new device buffer holding a copy of
 * `bytes` bytes at `host`. */
int weft_wl_upload(struct weft_ctx *ctx, const void *host, size_t bytes, uint64_t *dptr,
		   struct weft_error *err);

/* Pick a value by size: WEFT_WL_BY_SIZE(size, small, default, large). */
#define WEFT_WL_BY_SIZE(sz, s, d, l) ((sz) == 0 ? (s) : (sz) == 1 ? (d) : (l))

/* Run a host-API call and return its error code on failure. */
#define WEFT_WL_TRY(call) do { int rc_ = (call); if (rc_) return rc_; } while (0)

#endif
