/*
 * emu_warp.c - warp-level instructions of the functional emulator: shfl,
 * vote, activemask, match, redux.
 *
 * Warps run in lock-step, so the lanes that meet at one of these
 * instructions are exactly the active lanes of the warp's SIMT stack top
 * (guard true). The membermask operand is not checked against them: on
 * hardware a mismatch is undefined behaviour, here the active lanes take
 * part. shfl reading an inactive source lane gets that lane's stale register
 * value (hardware: undefined).
 */
#include "emu.h"

#define D(i) WEFT_SLOT(W, ei->d[i])
#define S(i) WEFT_SLOT(W, ei->s[i])
#define ARGS struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei, uint32_t mask

static int h_shfl(ARGS)
{
	(void)L;
	const uint64_t *A = S(0), *B = S(1), *C = S(2);
	uint64_t val[32];
	uint32_t pv = 0;
	int mode = ei->in.mode;
	WEFT_LANES(mask, l, {
		uint32_t bval = (uint32_t)B[l] & 0x1f, c = (uint32_t)C[l];
		uint32_t cval = c & 0x1f, seg = (c >> 8) & 0x1f;
		int maxl = (int)((l & seg) | (cval & ~seg));
		int minl = (int)(l & seg);
		int j;
		int ok;
		switch (mode) {
		case WEFT_SHFL_UP: j = l - (int)bval; ok = j >= maxl; break;
		case WEFT_SHFL_DOWN: j = l + (int)bval; ok = j <= maxl; break;
		case WEFT_SHFL_BFLY: j = l ^ (int)bval; ok = j <= maxl; break;
		default: j = minl | (int)(bval & ~seg); ok = j <= maxl; break;
		}
		if (!ok)
			j = l;
		val[l] = A[j] & 0xffffffffull;
		pv |= (uint32_t)ok << l;
	});
	uint64_t *d = D(0);
	WEFT_LANES(mask, l, d[l] = val[l]);
	if (ei->d2 >= 0) {
		uint64_t *p = WEFT_SLOT(W, ei->d2);
		WEFT_LANES(mask, l, p[l] = (pv >> l) & 1);
	}
	return 0;
}

static int h_vote(ARGS)
{
	(void)L;
	const uint64_t *A = S(0);
	uint32_t pm = 0;
	WEFT_LANES(mask, l, pm |= (uint32_t)(A[l] & 1) << l);
	if (ei->sneg & 1)
		pm = ~pm & mask;
	uint64_t r;
	switch (ei->in.mode) {
	case WEFT_VOTE_ALL: r = pm == mask; break;
	case WEFT_VOTE_ANY: r = pm != 0; break;
	case WEFT_VOTE_UNI: r = pm == 0 || pm == mask; break;
	default: r = pm; break;
	}
	uint64_t *d = D(0);
	WEFT_LANES(mask, l, d[l] = r);
	return 0;
}

static int h_activemask(ARGS)
{
	(void)L;
	uint64_t *d = D(0);
	WEFT_LANES(mask, l, d[l] = mask);
	return 0;
}

static int h_match(ARGS)
{
	(void)L;
	const uint64_t *A = S(0);
	uint64_t wm = weft_emu_wmask(weft_emu_bits(ei->in.type));
	uint32_t res[32];
	uint32_t all = 1;
	uint64_t first = 0;
	int have = 0;
	WEFT_LANES(mask, l, {
		uint32_t r = 0;
		WEFT_LANES(mask, k, r |= (uint32_t)((A[k] & wm) == (A[l] & wm)) << k);
		res[l] = r;
		if (!have) {
			first = A[l] & wm;
			have = 1;
		} else if ((A[l] & wm) != first)
			all = 0;
	});
	uint64_t *d = D(0);
	if (ei->in.mode == WEFT_MATCH_ANY) {
		WEFT_LANES(mask, l, d[l] = res[l]);
	} else {
		WEFT_LANES(mask, l, d[l] = all ? mask : 0);
		if (ei->d2 >= 0) {
			uint64_t *p = WEFT_SLOT(W, ei->d2);
			WEFT_LANES(mask, l, p[l] = all);
		}
	}
	return 0;
}

static int h_redux(ARGS)
{
	(void)L;
	const uint64_t *A = S(0);
	int sg = weft_emu_signed(ei->in.type);
	int op = ei->in.mode;
	uint32_t acc = 0;
	int first = 1;
	WEFT_LANES(mask, l, {
		uint32_t v = (uint32_t)A[l];
		if (first) {
			acc = v;
			first = 0;
			continue;
		}
		switch (op) {
		case WEFT_ATOM_ADD: acc += v; break;
		case WEFT_ATOM_MIN: acc = sg ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
		case WEFT_ATOM_MAX: acc = sg ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
		case WEFT_ATOM_AND: acc &= v; break;
		case WEFT_ATOM_OR: acc |= v; break;
		default: acc ^= v; break;
		}
	});
	uint64_t *d = D(0);
	WEFT_LANES(mask, l, d[l] = acc);
	return 0;
}

weft_emu_fn weft_emu_warp_fn(const struct weft_inst *in)
{
	switch (in->op) {
	case WEFT_OP_SHFL: return h_shfl;
	case WEFT_OP_VOTE: return h_vote;
	case WEFT_OP_ACTIVEMASK: return h_activemask;
	case WEFT_OP_MATCH: return h_match;
	case WEFT_OP_REDUX:
		return weft_emu_bits(in->type) == 32 ? h_redux : NULL;
	default: return NULL;
	}
}
