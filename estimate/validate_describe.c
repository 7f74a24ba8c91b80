/*
 * validate_describe.c - the words the weft-validate report uses for a
 * claim's metric ("mean speedup, 7 kernels") and configurations
 * ("fermi-sm.ini vs sgmf-core.ini"), shared by the table
 * (validate_table.c) and the CSV/JSON formats and their dispatch
 * (validate_report.c); it calls neither, so both call down into it.
 */
#include "validate_impl.h"

#include <stdio.h>

#include "estimate.h"

static const char *quantity(const struct weft_val_claim *c, char *buf, size_t len)
{
	switch (c->metric) {
	case WEFT_VAL_SPEEDUP:
		return "speedup";
	case WEFT_VAL_IPJ_RATIO:
		return "insts/J ratio";
	case WEFT_VAL_ENERGY_SHARE:
		snprintf(buf, len, "%s energy share", weft_energy_cat_name((enum weft_energy_cat)c->category));
		return buf;
	case WEFT_VAL_AREA:
		return "area mm2";
	case WEFT_VAL_AREA_RATIO:
		return "area ratio";
	}
	return "?";
}

void weft_val_describe_metric(const struct weft_val_claim *c, char *out, size_t len)
{
	char qb[64];
	const char *q = quantity(c, qb, sizeof(qb));
	const char *k = c->nitems == 1 ? "kernel" : "kernels";
	switch (c->agg) {
	case WEFT_VAL_AGG_NONE:
		snprintf(out, len, "%s at %g nm", q, c->node_nm);
		break;
	case WEFT_VAL_AGG_KERNEL:
		snprintf(out, len, "%s, %s%s%s", q, c->items[0].workload, c->items[0].kernel[0] ? ":" : "",
			 c->items[0].kernel);
		break;
	case WEFT_VAL_AGG_RANGE:
		snprintf(out, len, "%s range, %u %s", q, c->nitems, k);
		break;
	case WEFT_VAL_AGG_TREND:
		snprintf(out, len, "mean %s vs %s", q, c->sweep_key);
		break;
	default:
		snprintf(out, len, "%s %s, %u %s", weft_val_agg_name(c->agg), q, c->nitems, k);
		break;
	}
}

void weft_val_describe_configs(const struct weft_val_claim *c, char *out, size_t len)
{
	if (c->baseline.present)
		snprintf(out, len, "%s vs %s%s%s", c->baseline.text, c->config.text,
			 c->sweep[0] ? ", sweep " : "", c->sweep);
	else
		snprintf(out, len, "%s%s%s", c->config.text, c->sweep[0] ? ", sweep " : "", c->sweep);
}
