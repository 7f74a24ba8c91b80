/*
 * validate_table.c - the weft-validate report for people: a heading (weft
 * version, size, where the traces went, the kernel-mapping caveat), one
 * line per claim (metric, published, weft, ratio, band, in band), the
 * summary, then a notes block per claim: the publication and place, the
 * configurations, weft's figure per kernel, the mapping caveat and the
 * claim's note.
 */
#include "validate_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void ratio_text(const struct weft_val_result *x, char *out, size_t len)
{
	char a[32], b[32];
	if (x->nvalues == 2) {
		weft_val_num(a, sizeof(a), x->ratio[0]);
		weft_val_num(b, sizeof(b), x->ratio[1]);
		if (!isfinite(x->ratio[0]) && !isfinite(x->ratio[1]))
			snprintf(out, len, "-");
		else
			snprintf(out, len, "%s/%s", a, b);
	} else if (x->nvalues == 1) {
		weft_val_num(out, len, x->ratio[0]);
	} else {
		snprintf(out, len, "-");
	}
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

void weft_val_format_table(const struct weft_val_report *r, struct weft_sbuf *out)
{
	weft_sbuf_printf(out, "weft-validate %s: published claims against weft's models, size %s\n",
			 r->version, r->size);
	if (r->ntraces == 0) {
		weft_sbuf_puts(out, "traces     none needed\n");
	} else if (r->trace_dir[0]) {
		uint32_t reused = 0;
		for (uint32_t t = 0; t < r->ntraces; t++)
			reused += r->traces[t].reused;
		weft_sbuf_printf(out, "traces     %u in %s (kept; %u reused)\n", r->ntraces, r->trace_dir,
				 reused);
	} else {
		weft_sbuf_printf(out, "traces     %u, in a temporary directory (removed)\n", r->ntraces);
	}
	weft_sbuf_puts(out, "caveat     weft's workloads are written in the style of the Rodinia "
			    "originals, not the same\n"
			    "           code or inputs; each claim's mapping note says where a kernel "
			    "differs\n\n");

	int wid = 5, wm = 6, wp = 9, ww = 4, wr = 5, wb = 4;
	char m[160], rt[64];
	for (uint32_t i = 0; i < r->n; i++) {
		const struct weft_val_result *x = &r->results[i];
		weft_val_describe_metric(&x->claim, m, sizeof(m));
		ratio_text(x, rt, sizeof(rt));
		wid = imax(wid, (int)strlen(x->claim.id));
		wm = imax(wm, (int)strlen(m));
		wp = imax(wp, (int)strlen(x->claim.published));
		ww = imax(ww, (int)strlen(x->value_text));
		wr = imax(wr, (int)strlen(rt));
		wb = imax(wb, (int)strlen(x->claim.band_text));
	}
	weft_sbuf_printf(out, "%-*s  %-*s  %-*s  %-*s  %*s  %-*s  %s\n", wid, "claim", wm, "metric",
			 wp, "published", ww, "weft", wr, "ratio", wb, "band", "in band");
	for (uint32_t i = 0; i < r->n; i++) {
		const struct weft_val_result *x = &r->results[i];
		weft_val_describe_metric(&x->claim, m, sizeof(m));
		ratio_text(x, rt, sizeof(rt));
		weft_sbuf_printf(out, "%-*s  %-*s  %-*s  %-*s  %*s  %-*s  %s\n", wid, x->claim.id, wm, m,
				 wp, x->claim.published, ww, x->value_text, wr, rt, wb,
				 x->claim.band_text, weft_val_verdict_name(x->verdict));
	}
	weft_sbuf_printf(out, "\n%u claim%s: %u in band, %u out of band, %u not computed\n", r->n,
			 r->n == 1 ? "" : "s", r->nin, r->nout, r->nunknown);

	weft_sbuf_puts(out, "\nnotes (ratio = weft / published; docs/validate.md defines each metric)\n");
	for (uint32_t i = 0; i < r->n; i++) {
		const struct weft_val_result *x = &r->results[i];
		const struct weft_val_claim *c = &x->claim;
		char cfg[1200];
		weft_val_describe_configs(c, cfg, sizeof(cfg));
		weft_sbuf_printf(out, "\n%s  %s; %s (%s:%u)\n", c->id, c->publication, c->where, c->file,
				 c->line);
		weft_sbuf_printf(out, "  configs  %s\n", cfg);
		weft_sbuf_printf(out, "  weft     %s\n", x->detail);
		if (c->mapping[0])
			weft_sbuf_printf(out, "  mapping  %s\n", c->mapping);
		if (c->note[0])
			weft_sbuf_printf(out, "  note     %s\n", c->note);
	}
}
