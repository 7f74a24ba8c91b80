/*
 * report_table.c - the human-readable weft-estimate report: provenance
 * (version, trace hash, sampling, configs with hash and overrides), the
 * totals with the configs side by side (energy broken down by category,
 * ratios against the baseline), the energy shares, the CPI stacks (where
 * the cycles went, as a share of them), the model statistics, then one
 * short block per launch (with the CPI stack's main components). CSV and JSON carry every figure for every launch; the table
 * gives per-launch totals only to stay readable for traces with many
 * launches (docs/estimate.md). With --sweep the totals are one row per
 * point instead (the swept keys as columns), since points side by side
 * would not fit a screen; model statistics are then in the JSON only.
 */
#include "report_fields.h"
#include "report_impl.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define LABEL_W 22

static int col_width(const struct weft_est_report *r)
{
	int w = 13;
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		int n = (int)strlen(r->configs[i].name) + 2;
		if (n > w)
			w = n;
	}
	return w;
}

static void ratio_str(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g", v);
}

/* One row of the totals: label, then one cell per config. */
typedef void (*cell_fn)(const struct weft_est_config *c, char *buf, size_t len);

static void row(struct weft_sbuf *out, const struct weft_est_report *r, int w, const char *label,
		cell_fn fn)
{
	weft_sbuf_printf(out, "%-*s", LABEL_W, label);
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		char cell[64];
		fn(&r->configs[i], cell, sizeof(cell));
		weft_sbuf_printf(out, "%*s", w, cell);
	}
	weft_sbuf_puts(out, "\n");
}

static void c_cycles(const struct weft_est_config *c, char *b, size_t n)
{
	snprintf(b, n, "%.0f", c->total.cycles);
}
static void c_time(const struct weft_est_config *c, char *b, size_t n)
{
	weft_est_si(b, n, c->total.seconds, "s");
}
static void c_clock(const struct weft_est_config *c, char *b, size_t n)
{
	weft_est_si(b, n, c->clock_hz, "Hz");
}
static void c_insts(const struct weft_est_config *c, char *b, size_t n)
{
	snprintf(b, n, "%" PRIu64, c->total.thread_insts);
}
static void c_ipc(const struct weft_est_config *c, char *b, size_t n)
{
	if (isfinite(c->total.ipc))
		snprintf(b, n, "%.3f", c->total.ipc);
	else
		snprintf(b, n, "-");
}
static void c_etotal(const struct weft_est_config *c, char *b, size_t n)
{
	weft_est_si(b, n, c->total.energy_total_j, "J");
}
static void c_power(const struct weft_est_config *c, char *b, size_t n)
{
	weft_est_si(b, n, c->total.power_w, "W");
}
static void c_area(const struct weft_est_config *c, char *b, size_t n)
{
	if (isfinite(c->area_mm2))
		snprintf(b, n, "%.4g mm2", c->area_mm2);
	else
		snprintf(b, n, "-");
}
static void c_ipj(const struct weft_est_config *c, char *b, size_t n)
{
	if (isfinite(c->total.insts_per_j))
		snprintf(b, n, "%.4g", c->total.insts_per_j);
	else
		snprintf(b, n, "-");
}
static void c_ppa(const struct weft_est_config *c, char *b, size_t n)
{
	if (isfinite(c->total.perf_per_area))
		snprintf(b, n, "%.4g", c->total.perf_per_area);
	else
		snprintf(b, n, "-");
}
static void c_limiter(const struct weft_est_config *c, char *b, size_t n)
{
	snprintf(b, n, "%s", c->total.limiter[0] ? c->total.limiter : "-");
}
static void c_speedup(const struct weft_est_config *c, char *b, size_t n)
{
	ratio_str(b, n, c->total.speedup);
}
static void c_ipjr(const struct weft_est_config *c, char *b, size_t n)
{
	ratio_str(b, n, c->total.insts_per_j_ratio);
}
static void c_eratio(const struct weft_est_config *c, char *b, size_t n)
{
	ratio_str(b, n, c->total.energy_ratio);
}
static void c_ppar(const struct weft_est_config *c, char *b, size_t n)
{
	ratio_str(b, n, c->total.perf_per_area_ratio);
}

static void header(struct weft_sbuf *out, const struct weft_est_report *r)
{
	weft_sbuf_printf(out, "weft-estimate %s\n", r->version);
	weft_sbuf_printf(out, "trace      %s (%" PRIu64 " bytes, %s %016" PRIx64 ")\n", r->trace_path,
			 r->trace_bytes, WEFT_EST_TRACE_HASH, r->trace_hash);
	if (r->workload[0])
		weft_sbuf_printf(out, "workload   %s, size %s, %u launch%s\n", r->workload,
				 r->size[0] ? r->size : "-", r->nlaunches, r->nlaunches == 1 ? "" : "es");
	else
		weft_sbuf_printf(out, "workload   (launch spec or custom driver), %u launch%s\n",
				 r->nlaunches, r->nlaunches == 1 ? "" : "es");
	weft_sbuf_printf(out, "sampling   %s\n", r->sampling);
	if (r->has_ci) {
		char d[256];
		weft_est_ci_describe(r, d, sizeof(d));
		weft_sbuf_printf(out, "interval   %s\n", d);
	}
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_config *c = &r->configs[i];
		weft_sbuf_printf(out, "config     %s%s: %s, model %s, hash %016" PRIx64 ", overrides %s\n",
				 c->name, i == r->baseline ? " (baseline)" : "", c->path, c->model,
				 c->hash, c->overrides[0] ? c->overrides : "none");
		/* sweep points repeat their config's bases: print them once */
		const struct weft_est_config *prev = i ? &r->configs[i - 1] : NULL;
		int same_cfg = r->nsweeps && prev && strcmp(prev->config, c->config) == 0;
		int same_e = same_cfg && strcmp(prev->energy_basis, c->energy_basis) == 0;
		int same_a = same_cfg && strcmp(prev->area_basis, c->area_basis) == 0;
		if (c->energy_basis[0] && !same_e)
			weft_sbuf_printf(out, "           energy: %s\n", c->energy_basis);
		if (c->area_basis[0] && !same_a)
			weft_sbuf_printf(out, "           area: %s\n", c->area_basis);
	}
	if (r->nsweeps) {
		weft_sbuf_puts(out, "sweep      ");
		for (uint32_t k = 0; k < r->nsweeps; k++)
			weft_sbuf_printf(out, "%s%s", k ? " x " : "", r->sweep_keys[k]);
		weft_sbuf_printf(out, ": %u point%s, trace read %u time%s\n", r->nconfigs,
				 r->nconfigs == 1 ? "" : "s", r->trace_passes,
				 r->trace_passes == 1 ? "" : "s");
	}
}

/* --sweep: the totals, one row per point. */
static void points(struct weft_sbuf *out, const struct weft_est_report *r)
{
	int nw = 5, kw[WEFT_EST_MAX_SWEEPS];
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		int n = (int)strlen(r->configs[i].name);
		if (n > nw)
			nw = n;
	}
	for (uint32_t k = 0; k < r->nsweeps; k++) {
		kw[k] = (int)strlen(r->sweep_keys[k]);
		for (uint32_t i = 0; i < r->nconfigs; i++)
			if ((int)strlen(r->configs[i].point[k]) > kw[k])
				kw[k] = (int)strlen(r->configs[i].point[k]);
	}
	weft_sbuf_printf(out, "\n%-*s", nw, "point");
	for (uint32_t k = 0; k < r->nsweeps; k++)
		weft_sbuf_printf(out, " %*s", kw[k], r->sweep_keys[k]);
	weft_sbuf_printf(out, " %14s %11s %11s %8s %11s %11s %11s %-12s %9s %9s %9s %9s\n", "cycles",
			 "clock", "time", "IPC", "energy", "power", "area", "limiter", "speedup",
			 "ipJ_ratio", "E_ratio", "ppa_ratio");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_config *c = &r->configs[i];
		const struct weft_est_figures *f = &c->total;
		char ck[32], t[32], e[32], p[32], ipc[32], a[32], sp[32], ipj[32], er[32], ppa[32];
		c_clock(c, ck, sizeof(ck));
		weft_est_si(t, sizeof(t), f->seconds, "s");
		weft_est_si(e, sizeof(e), f->energy_total_j, "J");
		weft_est_si(p, sizeof(p), f->power_w, "W");
		c_ipc(c, ipc, sizeof(ipc));
		c_area(c, a, sizeof(a));
		ratio_str(sp, sizeof(sp), f->speedup);
		ratio_str(ipj, sizeof(ipj), f->insts_per_j_ratio);
		ratio_str(er, sizeof(er), f->energy_ratio);
		ratio_str(ppa, sizeof(ppa), f->perf_per_area_ratio);
		weft_sbuf_printf(out, "%-*s", nw, c->name);
		for (uint32_t k = 0; k < r->nsweeps; k++)
			weft_sbuf_printf(out, " %*s", kw[k], c->point[k][0] ? c->point[k] : "-");
		weft_sbuf_printf(out, " %14.0f %11s %11s %8s %11s %11s %11s %-12s %9s %9s %9s %9s%s\n",
				 f->cycles, ck, t, ipc, e, p, a, f->limiter[0] ? f->limiter : "-", sp, ipj,
				 er, ppa, i == r->baseline ? "  (baseline)" : "");
	}
}

static void totals(struct weft_sbuf *out, const struct weft_est_report *r, int w)
{
	weft_sbuf_printf(out, "\n%-*s", LABEL_W, "total");
	for (uint32_t i = 0; i < r->nconfigs; i++)
		weft_sbuf_printf(out, "%*s", w, r->configs[i].name);
	weft_sbuf_puts(out, "\n");
	row(out, r, w, "cycles", c_cycles);
	row(out, r, w, "clock", c_clock);
	row(out, r, w, "time", c_time);
	row(out, r, w, "thread insts", c_insts);
	row(out, r, w, "IPC (thread insts)", c_ipc);
	row(out, r, w, "limiter", c_limiter);
	for (int cat = 0; cat < WEFT_CAT_COUNT; cat++) {
		char label[40];
		snprintf(label, sizeof(label), "energy %s", weft_energy_cat_name((enum weft_energy_cat)cat));
		weft_sbuf_printf(out, "%-*s", LABEL_W, label);
		for (uint32_t i = 0; i < r->nconfigs; i++) {
			char cell[64];
			weft_est_si(cell, sizeof(cell), r->configs[i].total.energy_j[cat], "J");
			weft_sbuf_printf(out, "%*s", w, cell);
		}
		weft_sbuf_puts(out, "\n");
	}
	row(out, r, w, "energy total", c_etotal);
	row(out, r, w, "average power", c_power);
	row(out, r, w, "area", c_area);
	row(out, r, w, "thread insts / J", c_ipj);
	row(out, r, w, "thread insts/s/mm2", c_ppa);
	char label[LABEL_W + 200];
	snprintf(label, sizeof(label), "vs %s:", r->configs[r->baseline].name);
	weft_sbuf_printf(out, "%s\n", label);
	row(out, r, w, "  speedup", c_speedup);
	row(out, r, w, "  insts/J ratio", c_ipjr);
	row(out, r, w, "  energy ratio", c_eratio);
	row(out, r, w, "  perf/area ratio", c_ppar);
}

/* Energy by category as a share of each config's total; categories that
 * are zero for every config are left out. */
static void shares(struct weft_sbuf *out, const struct weft_est_report *r, int w)
{
	weft_sbuf_puts(out, "\nenergy share\n");
	for (int cat = 0; cat < WEFT_CAT_COUNT; cat++) {
		int any = 0;
		for (uint32_t i = 0; i < r->nconfigs; i++)
			any |= r->configs[i].total.energy_j[cat] > 0;
		if (!any)
			continue;
		char label[40];
		snprintf(label, sizeof(label), "  %s", weft_energy_cat_name((enum weft_energy_cat)cat));
		weft_sbuf_printf(out, "%-*s", LABEL_W, label);
		for (uint32_t i = 0; i < r->nconfigs; i++) {
			const struct weft_est_figures *t = &r->configs[i].total;
			char cell[32] = "-";
			if (t->energy_total_j > 0)
				snprintf(cell, sizeof(cell), "%.1f%%", 100 * t->energy_j[cat] / t->energy_total_j);
			weft_sbuf_printf(out, "%*s", w, cell);
		}
		weft_sbuf_puts(out, "\n");
	}
}

/* The CPI stacks: one row per component any config has, its share of that
 * config's cycles (the cycles themselves are in CSV and JSON). */
static void cpi_stacks(struct weft_sbuf *out, const struct weft_est_report *r, int w)
{
	const char *names[WEFT_EST_MAX_CPI_NAMES];
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_cpi_stack *c = r->configs[i].total.cpi;
		for (uint32_t k = 0; c && k < c->n; k++) {
			uint32_t j = 0;
			while (j < n && strcmp(names[j], c->item[k].name) != 0)
				j++;
			if (j == n && n < WEFT_EST_MAX_CPI_NAMES)
				names[n++] = c->item[k].name;
		}
	}
	if (!n)
		return;
	weft_sbuf_puts(out, "\nCPI stack (% of cycles)\n");
	for (uint32_t k = 0; k < n; k++) {
		int any = 0;
		for (uint32_t i = 0; i < r->nconfigs; i++) {
			double v = weft_est_cpi_of(r->configs[i].total.cpi, names[k]);
			any |= isfinite(v) && v > 0;
		}
		if (!any)
			continue;
		char label[40];
		snprintf(label, sizeof(label), "  %s", names[k]);
		weft_sbuf_printf(out, "%-*s", LABEL_W, label);
		for (uint32_t i = 0; i < r->nconfigs; i++) {
			const struct weft_est_figures *t = &r->configs[i].total;
			double v = weft_est_cpi_of(t->cpi, names[k]);
			char cell[32] = "-";
			if (isfinite(v) && t->cycles > 0)
				snprintf(cell, sizeof(cell), "%.1f%%", 100 * v / t->cycles);
			weft_sbuf_printf(out, "%*s", w, cell);
		}
		weft_sbuf_puts(out, "\n");
	}
}

/* The union of the configs' model statistics, one row per key. */
static void stats(struct weft_sbuf *out, const struct weft_est_report *r, int w)
{
	int any = 0;
	for (uint32_t i = 0; i < r->nconfigs; i++)
		any |= r->configs[i].total.nstats > 0;
	if (!any)
		return;
	/* labels are "key (unit)": widen the label column to the longest */
	int lw = LABEL_W;
	for (uint32_t i = 0; i < r->nconfigs; i++)
		for (uint32_t s = 0; s < r->configs[i].total.nstats; s++) {
			const struct weft_stat *st = &r->configs[i].total.stats[s];
			int n = (int)strlen(st->key) + (st->unit[0] ? (int)strlen(st->unit) + 3 : 0) + 1;
			if (n > lw)
				lw = n;
		}
	weft_sbuf_puts(out, "\nmodel statistics\n");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_figures *t = &r->configs[i].total;
		for (uint32_t s = 0; s < t->nstats; s++) {
			const char *key = t->stats[s].key;
			/* printed already for an earlier config? */
			int seen = 0;
			for (uint32_t j = 0; j < i && !seen; j++)
				for (uint32_t k = 0; k < r->configs[j].total.nstats; k++)
					if (strcmp(r->configs[j].total.stats[k].key, key) == 0)
						seen = 1;
			for (uint32_t k = 0; k < s && !seen; k++)
				if (strcmp(t->stats[k].key, key) == 0)
					seen = 1;
			if (seen)
				continue;
			char label[80];
			if (t->stats[s].unit[0])
				snprintf(label, sizeof(label), "%s (%s)", key, t->stats[s].unit);
			else
				snprintf(label, sizeof(label), "%s", key);
			weft_sbuf_printf(out, "%-*s", lw, label);
			for (uint32_t j = 0; j < r->nconfigs; j++) {
				const struct weft_est_figures *u = &r->configs[j].total;
				char cell[64] = "-";
				for (uint32_t k = 0; k < u->nstats; k++)
					if (strcmp(u->stats[k].key, key) == 0) {
						snprintf(cell, sizeof(cell), "%.4g", u->stats[k].value);
						break;
					}
				weft_sbuf_printf(out, "%*s", w, cell);
			}
			weft_sbuf_puts(out, "\n");
		}
	}
}

static void launches(struct weft_sbuf *out, const struct weft_est_report *r, int w)
{
	for (uint32_t l = 0; l < r->nlaunches; l++) {
		const char *kernel = "";
		for (uint32_t i = 0; i < r->nconfigs && !kernel[0]; i++)
			if (l < r->configs[i].nlaunches)
				kernel = r->configs[i].launches[l].kernel;
		weft_sbuf_printf(out, "\nlaunch %u %s\n", l, kernel);
		weft_sbuf_printf(out, "  %-*s %14s %11s %14s %8s %11s %11s %-12s %8s %8s\n", w, "config",
				 "cycles", "time", "thread insts", "IPC", "energy", "power", "limiter",
				 "speedup", "E ratio");
		for (uint32_t i = 0; i < r->nconfigs; i++) {
			const struct weft_est_config *c = &r->configs[i];
			if (l >= c->nlaunches)
				continue;
			const struct weft_est_figures *f = &c->launches[l];
			char t[32], e[32], p[32], ipc[32], s[32], er[32];
			weft_est_si(t, sizeof(t), f->seconds, "s");
			weft_est_si(e, sizeof(e), f->energy_total_j, "J");
			weft_est_si(p, sizeof(p), f->power_w, "W");
			if (isfinite(f->ipc))
				snprintf(ipc, sizeof(ipc), "%.3f", f->ipc);
			else
				snprintf(ipc, sizeof(ipc), "-");
			ratio_str(s, sizeof(s), f->speedup);
			ratio_str(er, sizeof(er), f->energy_ratio);
			weft_sbuf_printf(out, "  %-*s %14.0f %11s %14" PRIu64 " %8s %11s %11s %-12s %8s %8s\n",
					 w, c->name, f->cycles, t, f->thread_insts, ipc, e, p,
					 f->limiter[0] ? f->limiter : "-", s, er);
			/* where its cycles went: the components of 1% or more */
			if (f->cpi && f->cpi->n && f->cycles > 0) {
				weft_sbuf_printf(out, "  %-*s cpi", w, "");
				for (uint32_t k = 0; k < f->cpi->n; k++) {
					double pct = 100 * f->cpi->item[k].cycles / f->cycles;
					if (pct >= 1)
						weft_sbuf_printf(out, " %s %.0f%%", f->cpi->item[k].name, pct);
				}
				weft_sbuf_puts(out, "\n");
			}
		}
	}
}

/* The models' explanations of each launch (--explain), config by config. */
static void explanations(struct weft_sbuf *out, const struct weft_est_report *r)
{
	if (!r->explain)
		return;
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_config *c = &r->configs[i];
		int any = 0;
		for (uint32_t l = 0; l < c->nlaunches; l++)
			any |= c->launches[l].explain != NULL;
		if (!any) {
			weft_sbuf_printf(out, "\nexplain %s: model %s explains no launch (its CPI stack above "
					 "says where the cycles went)\n",
					 c->name, c->model);
			continue;
		}
		for (uint32_t l = 0; l < c->nlaunches; l++) {
			const char *e = c->launches[l].explain;
			if (!e)
				continue;
			weft_sbuf_printf(out, "\nexplain %s, launch %u\n", c->name, l);
			/* indented two spaces, line by line */
			while (*e) {
				const char *nl = strchr(e, '\n');
				size_t len = nl ? (size_t)(nl - e) : strlen(e);
				weft_sbuf_printf(out, "%s%.*s\n", len ? "  " : "", (int)len, e);
				e += len + (nl ? 1 : 0);
			}
		}
	}
}

/* A random sample's intervals: one line per config and figure. */
static void intervals(struct weft_sbuf *out, const struct weft_est_report *r)
{
	if (!r->has_ci)
		return;
	int nw = 6;
	for (uint32_t i = 0; i < r->nconfigs; i++)
		if ((int)strlen(r->configs[i].name) > nw)
			nw = (int)strlen(r->configs[i].name);
	weft_sbuf_printf(out, "\n%-*s %-17s %12s %12s %8s %12s %12s\n", nw, "interval", "figure",
			 "estimate", "+-", "+-%", "low", "high");
	for (uint32_t i = 0; i < r->nconfigs; i++) {
		const struct weft_est_config *c = &r->configs[i];
		for (int m = 0; m < WEFT_CI_COUNT; m++) {
			const struct weft_est_interval *iv = &c->ci[m];
			if (m >= WEFT_CI_SPEEDUP && i == r->baseline)
				continue; /* the baseline against itself: 1, exactly */
			char v[32], h[32], rel[32], lo[32], hi[32];
			snprintf(v, sizeof(v), "%.5g", iv->value);
			if (isfinite(iv->half)) {
				snprintf(h, sizeof(h), "%.5g", iv->half);
				snprintf(lo, sizeof(lo), "%.5g", iv->lo);
				snprintf(hi, sizeof(hi), "%.5g", iv->hi);
				if (iv->value != 0)
					snprintf(rel, sizeof(rel), "%.2f%%", 100 * iv->half / fabs(iv->value));
				else
					snprintf(rel, sizeof(rel), "-");
			} else {
				snprintf(h, sizeof(h), "-");
				snprintf(rel, sizeof(rel), "-");
				snprintf(lo, sizeof(lo), "-");
				snprintf(hi, sizeof(hi), "-");
			}
			weft_sbuf_printf(out, "%-*s %-17s %12s %12s %8s %12s %12s\n", nw, c->name,
					 weft_est_ci_keys[m], isfinite(iv->value) ? v : "-", h, rel, lo, hi);
		}
	}
}

void weft_est_format_table(const struct weft_est_report *r, struct weft_sbuf *out)
{
	int w = col_width(r);
	header(out, r);
	if (r->nsweeps) {
		points(out, r);
	} else {
		totals(out, r, w);
		shares(out, r, w);
		cpi_stacks(out, r, w);
		stats(out, r, w);
	}
	intervals(out, r);
	launches(out, r, w);
	explanations(out, r);
}
