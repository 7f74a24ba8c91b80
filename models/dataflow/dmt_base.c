/*
 * dmt_base.c - the lowest layer of the dMT communication analysis
 * (dmt_comm.h): its parameters (defaults and checks), the number of
 * cascaded elevators a distance needs, and the growth of the scratch
 * arrays. The per-CTA passes (dmt_comm.c), the barrier, global-memory and
 * per-iteration tables (dmt_barrier.c, dmt_global.c, dmt_iter.c) and the
 * decisions (dmt_finish.c) all call down into it; it calls none of them.
 */
#include <stdlib.h>

#include "dmt_internal.h"

void weft_dmt_params_default(struct weft_dmt_params *prm)
{
	prm->token_buffer = 16;
	prm->max_cascade = 16;
	prm->min_fraction = 0.9;
	prm->warp_width = 32;
	prm->lvc_bytes = 65536;
}

int weft_dmt_params_check(const struct weft_dmt_params *prm, struct weft_error *err)
{
	if (prm->token_buffer < 1)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "dmt: token_buffer must be at least 1 (got %u)", prm->token_buffer);
	if (!(prm->min_fraction > 0 && prm->min_fraction <= 1))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "dmt: min_fraction must be in (0, 1] (got %g)", prm->min_fraction);
	if (prm->warp_width < 1 || prm->warp_width > WEFT_GROUP_MAX_WIDTH)
		return weft_error_set(err, WEFT_ERR_INPUT, "dmt: warp_width must be 1..%u (got %u)",
				      WEFT_GROUP_MAX_WIDTH, prm->warp_width);
	return 0;
}

uint32_t weft_dmt_cascades(int32_t dtid, uint32_t token_buffer)
{
	uint32_t a = dtid < 0 ? (uint32_t)(-(int64_t)dtid) : (uint32_t)dtid;
	if (!token_buffer)
		return 0;
	return (a + token_buffer - 1) / token_buffer;
}

int weft_dmt_reserve(void **buf, uint64_t *cap, uint64_t n, size_t sz)
{
	if (n <= *cap)
		return 0;
	uint64_t c = *cap ? *cap : 64;
	while (c < n)
		c *= 2;
	void *nb = realloc(*buf, c * sz);
	if (!nb)
		return WEFT_ERR_NOMEM;
	*buf = nb;
	*cap = c;
	return 0;
}
