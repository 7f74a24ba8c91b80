/*
 * validate_run.c - weft_val_run (validate.h): which claims run, which
 * traces they need (each traced once), which configurations each trace is
 * replayed on (each distinct config file + overrides + sweep once per
 * trace, several per weft_estimate_run call as long as their names
 * differ), and each claim computed from the per-launch figures and judged
 * (validate_metrics.c). Area claims price their configs (area/area.h).
 */
#include "validate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "area/area.h"
#include "estimate.h"
#include "models/config.h"
#include "validate_impl.h"

/* One configuration to replay: a claim side, plus the claim's sweep for a
 * trend's compared config. */
struct vsetup {
	const struct weft_val_setup *s;
	const struct weft_val_claim *sweep;    /* NULL: not swept */
	char key[2048];                        /* path, sorted overrides, sweep */
};

/* A launch's figures on one point of one setup. */
struct vlaunch {
	char kernel[64];
	double seconds, insts, energy;
	double cat[WEFT_CAT_COUNT];
};

struct vrun {
	int done;
	uint32_t npoints, nlaunches;
	struct vlaunch *l;                     /* [npoints * nlaunches] */
};

#define BATCH_MAX 32 /* configs per weft_estimate_run (it takes up to 64) */

struct vstate {
	const struct weft_val_request *req;
	const struct weft_val_claim **sel;     /* the claims to run, in order */
	uint32_t nsel;
	struct vsetup *setups;
	uint32_t nsetups;
	uint32_t *side;                        /* [nsel * 2]: baseline, config setup (or UINT32_MAX) */
	struct weft_val_trace *traces;
	uint32_t ntraces;
	struct vrun *runs;                     /* [ntraces * nsetups] */
};

static void say(const struct weft_val_request *req, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct weft_val_request *req, const char *fmt, ...)
{
	if (!req->progress)
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	req->progress(req->progress_user, buf);
}

static int is_area(const struct weft_val_claim *c)
{
	return c->metric == WEFT_VAL_AREA || c->metric == WEFT_VAL_AREA_RATIO;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void setup_key(const struct weft_val_setup *s, const struct weft_val_claim *sweep, char *out,
		      size_t len)
{
	const char *sets[WEFT_VAL_MAX_SETS];
	for (uint32_t i = 0; i < s->nsets; i++)
		sets[i] = s->sets[i];
	qsort(sets, s->nsets, sizeof(sets[0]), cmp_str);
	size_t off = (size_t)snprintf(out, len, "%s", s->path);
	for (uint32_t i = 0; i < s->nsets && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, "\n%s", sets[i]);
	if (off < len)
		snprintf(out + off, len - off, "\n|%s", sweep ? sweep->sweep : "");
}

/* The index of the setup for side s (adding it when new), or a negative err. */
static int64_t setup_of(struct vstate *v, const struct weft_val_setup *s,
			const struct weft_val_claim *sweep, uint32_t *cap, struct weft_error *err)
{
	char key[2048];
	setup_key(s, sweep, key, sizeof(key));
	for (uint32_t i = 0; i < v->nsetups; i++)
		if (strcmp(v->setups[i].key, key) == 0)
			return i;
	if (v->nsetups == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 8;
		struct vsetup *ns = realloc(v->setups, nc * sizeof(*ns));
		if (!ns)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		v->setups = ns;
		*cap = nc;
	}
	struct vsetup *n = &v->setups[v->nsetups];
	n->s = s;
	n->sweep = sweep;
	snprintf(n->key, sizeof(n->key), "%s", key);
	return v->nsetups++;
}

static int select_claims(struct vstate *v, struct weft_error *err)
{
	const struct weft_val_request *req = v->req;
	const struct weft_val_claims *cl = req->claims;
	v->sel = calloc(cl->n ? cl->n : 1, sizeof(*v->sel));
	if (!v->sel)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	for (uint32_t k = 0; k < req->nonly; k++) {
		uint32_t i = 0;
		while (i < cl->n && strcmp(cl->v[i].id, req->only[k]) != 0)
			i++;
		if (i == cl->n) {
			char list[2048] = "";
			for (uint32_t j = 0; j < cl->n; j++) {
				size_t u = strlen(list);
				if (u + 64 < sizeof(list))
					snprintf(list + u, sizeof(list) - u, "%s%s", j ? ", " : "", cl->v[j].id);
			}
			return weft_error_set(err, WEFT_ERR_INPUT, "--only %s: no claim has this id; the ids: %s",
					      req->only[k], list);
		}
	}
	for (uint32_t i = 0; i < cl->n; i++) {
		int take = req->nonly == 0;
		for (uint32_t k = 0; k < req->nonly && !take; k++)
			take = strcmp(cl->v[i].id, req->only[k]) == 0;
		if (take)
			v->sel[v->nsel++] = &cl->v[i];
	}
	return 0;
}

static int plan(struct vstate *v, struct weft_error *err)
{
	uint32_t cap = 0;
	v->side = malloc((size_t)(v->nsel ? v->nsel : 1) * 2 * sizeof(*v->side));
	v->traces = calloc(v->nsel * WEFT_VAL_MAX_ITEMS + 1, sizeof(*v->traces));
	if (!v->side || !v->traces)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < v->nsel; i++) {
		const struct weft_val_claim *c = v->sel[i];
		v->side[2 * i] = v->side[2 * i + 1] = UINT32_MAX;
		if (is_area(c))
			continue;
		if (c->baseline.present) {
			int64_t k = setup_of(v, &c->baseline, NULL, &cap, err);
			if (k < 0)
				return (int)k;
			v->side[2 * i] = (uint32_t)k;
		}
		int64_t k = setup_of(v, &c->config, c->agg == WEFT_VAL_AGG_TREND ? c : NULL, &cap, err);
		if (k < 0)
			return (int)k;
		v->side[2 * i + 1] = (uint32_t)k;
		for (uint32_t j = 0; j < c->nitems; j++) {
			uint32_t t = 0;
			while (t < v->ntraces && strcmp(v->traces[t].workload, c->items[j].workload) != 0)
				t++;
			if (t == v->ntraces)
				snprintf(v->traces[v->ntraces++].workload, sizeof(v->traces[0].workload), "%s",
					 c->items[j].workload);
		}
	}
	v->runs = calloc((size_t)(v->ntraces ? v->ntraces : 1) * (v->nsetups ? v->nsetups : 1),
			 sizeof(*v->runs));
	if (!v->runs)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	return 0;
}

/* ---- replaying one trace ------------------------------------------------------ */

static int uses(const struct weft_val_claim *c, const char *workload)
{
	for (uint32_t j = 0; j < c->nitems; j++)
		if (strcmp(c->items[j].workload, workload) == 0)
			return 1;
	return 0;
}

/* Copies the figures of setup k (its points in the report) into run. */
static int take_points(const struct weft_est_report *rep, const struct vsetup *s, struct vrun *run,
		       struct weft_error *err)
{
	uint32_t want = s->sweep ? s->sweep->nsweep : 1, np = 0, nl = 0;
	for (uint32_t i = 0; i < rep->nconfigs; i++)
		if (strcmp(rep->configs[i].config, s->s->name) == 0) {
			np++;
			nl = rep->configs[i].nlaunches;
		}
	if (np != want)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "%s: %u points in the report, expected %u",
				      s->s->name, np, want);
	run->l = calloc((size_t)np * (nl ? nl : 1), sizeof(*run->l));
	if (!run->l)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	run->npoints = np;
	run->nlaunches = nl;
	uint32_t p = 0;
	for (uint32_t i = 0; i < rep->nconfigs; i++) {
		const struct weft_est_config *c = &rep->configs[i];
		if (strcmp(c->config, s->s->name) != 0)
			continue;
		if (c->nlaunches != nl)
			return weft_error_set(err, WEFT_ERR_INTERNAL, "%s: points with different launch counts",
					      c->name);
		for (uint32_t l = 0; l < nl; l++) {
			const struct weft_est_figures *f = &c->launches[l];
			struct vlaunch *o = &run->l[(size_t)p * nl + l];
			snprintf(o->kernel, sizeof(o->kernel), "%s", f->kernel);
			o->seconds = f->seconds;
			o->insts = (double)f->thread_insts;
			o->energy = f->energy_total_j;
			for (int k = 0; k < WEFT_CAT_COUNT; k++)
				o->cat[k] = f->energy_j[k];
		}
		p++;
	}
	run->done = 1;
	return 0;
}

/* One weft_estimate_run over the setups batch[0..n) (distinct names). */
static int run_batch(struct vstate *v, uint32_t t, const uint32_t *batch, uint32_t n,
		     struct weft_error *err)
{
	const char *paths[BATCH_MAX];
	char(*ov)[200] = calloc((size_t)n * WEFT_VAL_MAX_SETS + 1, sizeof(*ov));
	char(*sw)[400] = calloc(n + 1, sizeof(*sw));
	const char **ovp = calloc((size_t)n * WEFT_VAL_MAX_SETS + 1, sizeof(*ovp));
	const char **swp = calloc(n + 1, sizeof(*swp));
	int rc = 0;
	if (!ov || !sw || !ovp || !swp) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto out;
	}
	uint32_t nov = 0, nsw = 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct vsetup *s = &v->setups[batch[k]];
		paths[k] = s->s->path;
		for (uint32_t j = 0; j < s->s->nsets; j++) {
			snprintf(ov[nov], sizeof(ov[0]), "%s:%s", s->s->name, s->s->sets[j]);
			ovp[nov] = ov[nov];
			nov++;
		}
		if (s->sweep) {
			snprintf(sw[nsw], sizeof(sw[0]), "%s:%s", s->s->name, s->sweep->sweep);
			swp[nsw] = sw[nsw];
			nsw++;
		}
	}
	struct weft_est_request er = {
		.trace_path = v->traces[t].path,
		.config_paths = paths,
		.nconfigs = n,
		.overrides = ovp,
		.noverrides = nov,
		.sample = { .kind = WEFT_SAMPLE_ALL },
		.sweeps = swp,
		.nsweeps = nsw,
	};
	struct weft_est_report rep;
	rc = weft_estimate_run(&er, &rep, err);
	if (rc < 0) {
		weft_error_prefix(err, "replaying %s: ", v->traces[t].workload);
		goto out;
	}
	for (uint32_t k = 0; k < n && rc == 0; k++)
		rc = take_points(&rep, &v->setups[batch[k]],
				 &v->runs[(size_t)t * v->nsetups + batch[k]], err);
	weft_est_report_free(&rep);
out:
	free(ov);
	free(sw);
	free(ovp);
	free(swp);
	return rc;
}

static int replay_trace(struct vstate *v, uint32_t t, struct weft_error *err)
{
	uint32_t *need = calloc(v->nsetups + 1, sizeof(*need));
	uint32_t *batch = calloc(v->nsetups + 1, sizeof(*batch));
	uint8_t *left = calloc(v->nsetups + 1, 1);
	int rc = 0;
	if (!need || !batch || !left) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto out;
	}
	uint32_t nleft = 0;
	for (uint32_t i = 0; i < v->nsel; i++) {
		if (is_area(v->sel[i]) || !uses(v->sel[i], v->traces[t].workload))
			continue;
		for (int s = 0; s < 2; s++) {
			uint32_t k = v->side[2 * i + s];
			if (k != UINT32_MAX && !left[k]) {
				left[k] = 1;
				nleft++;
			}
		}
	}
	while (nleft && rc == 0) {
		/* a batch: setups whose config names differ (weft_estimate_run names
		 * configs by file name) */
		uint32_t n = 0;
		for (uint32_t k = 0; k < v->nsetups; k++) {
			if (!left[k] || n == BATCH_MAX)
				continue;
			int clash = 0;
			for (uint32_t j = 0; j < n && !clash; j++)
				clash = strcmp(v->setups[batch[j]].s->name, v->setups[k].s->name) == 0;
			if (clash)
				continue;
			batch[n++] = k;
			left[k] = 0;
			nleft--;
		}
		say(v->req, "replaying %s on %u config%s", v->traces[t].workload, n, n == 1 ? "" : "s");
		rc = run_batch(v, t, batch, n, err);
	}
out:
	free(need);
	free(batch);
	free(left);
	return rc;
}

/* ---- computing the claims --------------------------------------------------------- */

static void sums_of(const struct vrun *run, uint32_t point, const struct weft_val_item *it,
		    struct weft_val_sums *s)
{
	memset(s, 0, sizeof(*s));
	if (!run || !run->done || point >= run->npoints)
		return;
	for (uint32_t l = 0; l < run->nlaunches; l++) {
		const struct vlaunch *x = &run->l[(size_t)point * run->nlaunches + l];
		if (it->kernel[0] && strcmp(x->kernel, it->kernel) != 0)
			continue;
		s->nlaunches++;
		s->seconds += x->seconds;
		s->insts += x->insts;
		s->energy_j += x->energy;
		for (int k = 0; k < WEFT_CAT_COUNT; k++)
			s->cat_j[k] += x->cat[k];
	}
}

static void item_name(const struct weft_val_item *it, char *out, size_t len)
{
	snprintf(out, len, "%s%s%s", it->workload, it->kernel[0] ? ":" : "", it->kernel);
}

static void append(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *out, size_t len, const char *fmt, ...)
{
	size_t u = strlen(out);
	if (u + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out + u, len - u, fmt, ap);
	va_end(ap);
}

/* The item's figure at the config's point p (baseline at its only point). */
static double figure(const struct vstate *v, uint32_t ci, const struct weft_val_item *it,
		     uint32_t p, uint32_t *missing)
{
	const struct weft_val_claim *c = v->sel[ci];
	uint32_t t = 0;
	while (t < v->ntraces && strcmp(v->traces[t].workload, it->workload) != 0)
		t++;
	const struct vrun *rb = NULL, *rc;
	if (v->side[2 * ci] != UINT32_MAX)
		rb = &v->runs[(size_t)t * v->nsetups + v->side[2 * ci]];
	rc = &v->runs[(size_t)t * v->nsetups + v->side[2 * ci + 1]];
	struct weft_val_sums sb, sc;
	sums_of(rb, 0, it, &sb);
	sums_of(rc, p, it, &sc);
	if (sc.nlaunches == 0)
		(*missing)++;
	return weft_val_item_figure(c->metric, c->category, rb ? &sb : NULL, &sc);
}

static void compute_kernels(const struct vstate *v, uint32_t ci, struct weft_val_result *r)
{
	const struct weft_val_claim *c = v->sel[ci];
	char name[128], num[32];
	uint32_t missing = 0;
	if (c->agg == WEFT_VAL_AGG_TREND) {
		double q[WEFT_VAL_MAX_POINTS][WEFT_VAL_MAX_ITEMS];
		double x[WEFT_VAL_MAX_POINTS];
		for (uint32_t p = 0; p < c->nsweep; p++) {
			for (uint32_t i = 0; i < c->nitems; i++)
				q[p][i] = figure(v, ci, &c->items[i], p, &missing);
			double m[2];
			weft_val_aggregate(WEFT_VAL_AGG_MEAN, q[p], c->nitems, m);
			x[p] = m[0];
			r->point_value[p] = m[0];
		}
		r->npoints = c->nsweep;
		weft_val_judge(c, x, c->nsweep, r);
		for (uint32_t i = 0; i < c->nitems; i++) {
			double col[WEFT_VAL_MAX_POINTS];
			for (uint32_t p = 0; p < c->nsweep; p++)
				col[p] = q[p][i];
			r->items_monotone += weft_val_trend_holds(c->pub, col, c->nsweep) == 1;
		}
		snprintf(r->detail, sizeof(r->detail), "mean over %u kernels at %s =", c->nitems,
			 c->sweep_key);
		for (uint32_t p = 0; p < c->nsweep; p++) {
			weft_val_num(num, sizeof(num), x[p]);
			append(r->detail, sizeof(r->detail), "%s %s: %s", p ? "," : "", c->sweep_values[p], num);
		}
		append(r->detail, sizeof(r->detail), "; %u of %u kernels are %s on their own",
		       r->items_monotone, c->nitems, c->published);
	} else {
		double x[WEFT_VAL_MAX_ITEMS];
		for (uint32_t i = 0; i < c->nitems; i++)
			x[i] = r->item_value[i] = figure(v, ci, &c->items[i], 0, &missing);
		r->nitem_values = c->nitems;
		weft_val_judge(c, x, c->nitems, r);
		r->detail[0] = '\0';
		uint32_t lo = 0, hi = 0;
		for (uint32_t i = 0; i < c->nitems; i++) {
			item_name(&c->items[i], name, sizeof(name));
			weft_val_num(num, sizeof(num), x[i]);
			append(r->detail, sizeof(r->detail), "%s%s %s", i ? ", " : "", name, num);
			if (x[i] < x[lo])
				lo = i;
			if (x[i] > x[hi])
				hi = i;
		}
		double g[2];
		if (c->nitems > 1 && (c->agg == WEFT_VAL_AGG_MIN || c->agg == WEFT_VAL_AGG_RANGE)) {
			item_name(&c->items[lo], name, sizeof(name));
			append(r->detail, sizeof(r->detail), "; lowest %s", name);
		}
		if (c->nitems > 1 && (c->agg == WEFT_VAL_AGG_MAX || c->agg == WEFT_VAL_AGG_RANGE)) {
			item_name(&c->items[hi], name, sizeof(name));
			append(r->detail, sizeof(r->detail), "; highest %s", name);
		}
		if (c->agg == WEFT_VAL_AGG_MEAN) {
			weft_val_aggregate(WEFT_VAL_AGG_GEOMEAN, x, c->nitems, g);
			weft_val_num(num, sizeof(num), g[0]);
			append(r->detail, sizeof(r->detail), "; geomean %s", num);
		}
		if (c->agg == WEFT_VAL_AGG_GEOMEAN) {
			weft_val_aggregate(WEFT_VAL_AGG_MEAN, x, c->nitems, g);
			weft_val_num(num, sizeof(num), g[0]);
			append(r->detail, sizeof(r->detail), "; arithmetic mean %s", num);
		}
	}
	if (missing)
		append(r->detail, sizeof(r->detail),
		       "; %u kernel figure(s) without a launch at this size: not computed", missing);
}

static int area_of(const struct weft_val_setup *s, double node_nm, double *mm2,
		   struct weft_error *err)
{
	const char *ov[WEFT_VAL_MAX_SETS];
	for (uint32_t i = 0; i < s->nsets; i++)
		ov[i] = s->sets[i];
	struct weft_config cfg;
	int rc = weft_config_load(s->path, ov, s->nsets, &cfg, err);
	if (rc < 0)
		return rc;
	struct weft_area_report *ar = malloc(sizeof(*ar));
	if (!ar) {
		weft_config_free(&cfg);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
	}
	rc = weft_area_of_config(&cfg, node_nm, ar, err);
	if (rc == 0)
		*mm2 = ar->total_mm2;
	free(ar);
	weft_config_free(&cfg);
	return rc;
}

static int compute_area(const struct weft_val_claim *c, struct weft_val_result *r,
			struct weft_error *err)
{
	double a = NAN, b = NAN, x;
	int rc = area_of(&c->config, c->node_nm, &a, err);
	if (rc == 0 && c->baseline.present)
		rc = area_of(&c->baseline, c->node_nm, &b, err);
	if (rc < 0) {
		weft_error_prefix(err, "claim %s (%s:%u): ", c->id, c->file, c->line);
		return rc;
	}
	r->area_mm2[0] = a;
	r->area_mm2[1] = b;
	x = c->metric == WEFT_VAL_AREA ? a : (b > 0 ? a / b : NAN);
	weft_val_judge(c, &x, 1, r);
	char na[32], nb[32];
	weft_val_num(na, sizeof(na), a);
	weft_val_num(nb, sizeof(nb), b);
	r->detail[0] = '\0';
	if (c->metric == WEFT_VAL_AREA)
		append(r->detail, sizeof(r->detail), "%s: %s mm2 at %g nm", c->config.text, na,
		       c->node_nm);
	else
		append(r->detail, sizeof(r->detail), "%s: %s mm2; %s: %s mm2 (at %g nm)",
		       c->config.text, na, c->baseline.text, nb, c->node_nm);
	return 0;
}

/* ---- the run ------------------------------------------------------------------------ */

static void state_free(struct vstate *v)
{
	for (uint32_t i = 0; v->runs && i < v->ntraces * v->nsetups; i++)
		free(v->runs[i].l);
	free(v->runs);
	free(v->sel);
	free(v->setups);
	free(v->side);
}

void weft_val_report_free(struct weft_val_report *r)
{
	if (!r)
		return;
	free(r->traces);
	free(r->results);
	memset(r, 0, sizeof(*r));
}

int weft_val_run(const struct weft_val_request *req, struct weft_val_report *out,
		 struct weft_error *err)
{
	memset(out, 0, sizeof(*out));
	struct vstate v;
	memset(&v, 0, sizeof(v));
	v.req = req;
	struct weft_val_tdir d;
	memset(&d, 0, sizeof(d));
	int rc;
	if (!req->claims || req->claims->n == 0)
		return weft_error_set(err, WEFT_ERR_INPUT, "no claims to run");
	if ((rc = select_claims(&v, err)) < 0 || (rc = plan(&v, err)) < 0)
		goto fail;
	if (v.ntraces) {
		rc = weft_val_tdir_open(req->trace_dir, &d, err);
		if (rc < 0)
			goto fail;
	}
	for (uint32_t t = 0; t < v.ntraces; t++) {
		char wl[32];
		snprintf(wl, sizeof(wl), "%s", v.traces[t].workload);
		if (req->trace_dir)
			say(req, "tracing %s (size %s) unless %s holds it", wl, weft_size_name(req->size),
			    req->trace_dir);
		else
			say(req, "tracing %s (size %s)", wl, weft_size_name(req->size));
		rc = weft_val_trace_get(&d, wl, req->size, &v.traces[t], err);
		if (rc < 0)
			goto fail;
		rc = replay_trace(&v, t, err);
		if (rc < 0)
			goto fail;
	}
	out->results = calloc(v.nsel ? v.nsel : 1, sizeof(*out->results));
	if (!out->results) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < v.nsel; i++) {
		struct weft_val_result *r = &out->results[i];
		r->claim = *v.sel[i];
		if (is_area(v.sel[i])) {
			say(req, "pricing the area of %s", v.sel[i]->id);
			rc = compute_area(v.sel[i], r, err);
			if (rc < 0)
				goto fail;
		} else {
			compute_kernels(&v, i, r);
		}
		out->n++;
		out->nin += r->verdict == WEFT_VAL_IN;
		out->nout += r->verdict == WEFT_VAL_OUT;
		out->nunknown += r->verdict == WEFT_VAL_UNKNOWN;
	}
	snprintf(out->version, sizeof(out->version), "%s", WEFT_VERSION);
	snprintf(out->size, sizeof(out->size), "%s", weft_size_name(req->size));
	if (!d.temp && req->trace_dir)
		snprintf(out->trace_dir, sizeof(out->trace_dir), "%s", req->trace_dir);
	/* temporary traces are removed; the report lists them without a path */
	weft_val_tdir_close(&d, v.traces, v.ntraces);
	if (d.temp)
		for (uint32_t t = 0; t < v.ntraces; t++)
			v.traces[t].path[0] = '\0';
	out->traces = v.traces;
	out->ntraces = v.ntraces;
	v.traces = NULL;
	state_free(&v);
	return 0;
fail:
	weft_val_tdir_close(&d, v.traces, v.ntraces);
	free(v.traces);
	state_free(&v);
	weft_val_report_free(out);
	return rc;
}
