/*
 * study.c - one weft-study run (study.h): the recipe's plan at a size, its
 * traces from the cache, one weft-estimate report per run and workload
 * (JSON and CSV), its tables (LaTeX and Markdown), its figures (the plot
 * library, the scripts saved beside them) and report.md (study_report.c),
 * all in DIR.tmp, then renamed to DIR.
 */
#include "study.h"
#include "study_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file.h"
#include "common/hash.h"
#include "estimate/estimate.h"
#include "estimate/report.h"
#include "models/config.h"
#include "plot/plot.h"
#include "plot/plot_report.h"
#include "plot/plot_run.h"

void weft_study_note(struct weft_study_ctx *c, const char *fmt, ...)
{
	if (!c->req->note)
		return;
	char line[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->req->note(c->req->note_user, line);
}

/* tmp/a/b made (one level below tmp or two). */
static int sub_dir(struct weft_study_ctx *c, const char *a, const char *b, struct weft_error *err)
{
	char p[1400];
	snprintf(p, sizeof(p), "%s/%s", c->tmp, a);
	if (mkdir(p, 0777) != 0 && errno != EEXIST)
		return weft_error_set(err, WEFT_ERR_IO, "cannot make %s: %s", p, strerror(errno));
	if (!b)
		return 0;
	snprintf(p, sizeof(p), "%s/%s/%s", c->tmp, a, b);
	if (mkdir(p, 0777) != 0 && errno != EEXIST)
		return weft_error_set(err, WEFT_ERR_IO, "cannot make %s: %s", p, strerror(errno));
	return 0;
}

static int write_sbuf(struct weft_study_ctx *c, const char *rel, const struct weft_sbuf *b,
		      struct weft_error *err)
{
	if (b->failed)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing %s", rel);
	char p[1400];
	snprintf(p, sizeof(p), "%s/%s", c->tmp, rel);
	return weft_write_atomic(p, weft_sbuf_str(b), b->len, err);
}

static int get_traces(struct weft_study_ctx *c, struct weft_error *err)
{
	const struct weft_study_plan *p = c->plan;
	for (uint32_t r = 0; r < p->nruns; r++)
		for (uint32_t w = 0; w < p->runs[r].workloads.n; w++) {
			const char *name = p->runs[r].workloads.v[w];
			if (weft_study_trace_of(c, name))
				continue;
			if (c->ntraces >= WEFT_STUDY_MAX_TRACES)
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "more than %u workloads in the study",
						      WEFT_STUDY_MAX_TRACES);
			weft_study_note(c, "tracing %s at size %s (or reusing it from %s)", name,
					weft_size_name(p->size), c->cache);
			struct weft_study_trace *t = &c->traces[c->ntraces];
			int rc = weft_study_trace_get(c->cache, name, p->size, t, err);
			if (rc)
				return rc;
			c->ntraces++;
			weft_study_note(c, "  %s %s (%llu thread instructions)",
					t->reused ? "reused" : "traced into", t->path,
					(unsigned long long)t->thread_insts);
		}
	return 0;
}

/* The config files of a run, resolved once (bundled names or paths). */
static int resolve_configs(struct weft_study_ctx *c, uint32_t r, struct weft_error *err)
{
	const struct weft_study_run *run = &c->plan->runs[r];
	for (uint32_t i = 0; i < run->configs.n; i++) {
		int rc = weft_config_resolve(run->configs.v[i], c->cfg_path[r][i], sizeof(c->cfg_path[r][i]),
					     err);
		if (rc) {
			weft_error_prefix(err, "[run %s]: ", run->name);
			return rc;
		}
		c->cfg_ptr[r][i] = c->cfg_path[r][i];
	}
	return 0;
}

static int one_report(struct weft_study_ctx *c, uint32_t r, const char *w, struct weft_error *err)
{
	const struct weft_study_plan *p = c->plan;
	const struct weft_study_run *run = &p->runs[r];
	const struct weft_study_trace *t = weft_study_trace_of(c, w);
	struct weft_est_request req;
	memset(&req, 0, sizeof(req));
	req.trace_path = t->path;
	req.config_paths = c->cfg_ptr[r];
	req.nconfigs = run->configs.n;
	req.overrides = run->sets.v;
	req.noverrides = run->sets.n;
	req.sweeps = run->sweeps.v;
	req.nsweeps = run->sweeps.n;
	req.baseline = run->baseline;
	weft_study_note(c, "estimating %s on [run %s] (%u configs%s)", w, run->name, run->configs.n,
			run->sweeps.n ? ", swept" : "");
	struct weft_est_report rep;
	int rc = weft_estimate_run(&req, &rep, err);
	if (rc) {
		weft_error_prefix(err, "[run %s] on %s: ", run->name, w);
		return rc;
	}
	if (!c->run_info[r].nconfigs) /* provenance: the first workload's points */
		weft_study_keep_configs(c, r, &rep);
	struct weft_sbuf b;
	char rel[400];
	static const struct { enum weft_format fmt; const char *dir, *ext; } outs[] = {
		{ WEFT_FMT_JSON, "json", "json" },
		{ WEFT_FMT_CSV, "csv", "csv" },
	};
	for (size_t i = 0; rc == 0 && i < sizeof(outs) / sizeof(outs[0]); i++) {
		weft_sbuf_init(&b);
		rc = weft_est_report_format(&rep, outs[i].fmt, &b, err);
		snprintf(rel, sizeof(rel), "%s/%s/%s.%s", outs[i].dir, run->name, w, outs[i].ext);
		if (rc == 0)
			rc = write_sbuf(c, rel, &b, err);
		weft_sbuf_free(&b);
	}
	for (uint32_t k = 0; rc == 0 && k < p->ntables; k++) {
		const struct weft_study_table *tb = &p->tables[k];
		int in = 0;
		for (uint32_t j = 0; j < tb->workloads.n; j++)
			in |= strcmp(tb->workloads.v[j], w) == 0;
		if (tb->run != r || !in)
			continue;
		struct weft_est_table_opts o = { tb->columns, tb->digits };
		static const struct { enum weft_format fmt; const char *ext; } tf[] = {
			{ WEFT_FMT_LATEX, "tex" },
			{ WEFT_FMT_MARKDOWN, "md" },
		};
		for (size_t i = 0; rc == 0 && i < 2; i++) {
			weft_sbuf_init(&b);
			rc = weft_est_report_format_opts(&rep, tf[i].fmt, &o, &b, err);
			snprintf(rel, sizeof(rel), "tables/%s/%s.%s", tb->name, w, tf[i].ext);
			if (rc == 0)
				rc = write_sbuf(c, rel, &b, err);
			weft_sbuf_free(&b);
		}
		if (rc)
			weft_error_prefix(err, "[table %s]: ", tb->name);
		else
			c->ntables++;
	}
	weft_est_report_free(&rep);
	c->nreports += rc == 0;
	return rc;
}

static int one_figure(struct weft_study_ctx *c, uint32_t k, struct weft_error *err)
{
	const struct weft_study_plan *p = c->plan;
	const struct weft_study_figure *f = &p->figures[k];
	const struct weft_study_run *run = &p->runs[f->run];
	struct weft_plot_report *reps = calloc(f->workloads.n, sizeof(*reps));
	const struct weft_plot_report **ptrs = calloc(f->workloads.n, sizeof(*ptrs));
	struct weft_sbuf script, said;
	weft_sbuf_init(&script);
	weft_sbuf_init(&said);
	int rc = 0;
	uint32_t n = 0;
	if (!reps || !ptrs)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory drawing [figure %s]", f->name);
	weft_study_note(c, "drawing [figure %s] (%s, %u reports of [run %s])", f->name,
			weft_plot_kind_name(f->o.kind), f->workloads.n, run->name);
	for (; rc == 0 && n < f->workloads.n; n++) {
		char path[1400];
		snprintf(path, sizeof(path), "%s/json/%s/%s.json", c->tmp, run->name, f->workloads.v[n]);
		rc = weft_plot_read_file(path, &reps[n], err);
		ptrs[n] = &reps[n];
		if (rc) {
			n++;
			break;
		}
	}
	struct weft_plot_opts o = f->o;
	char rel[300], full[1800];
	snprintf(rel, sizeof(rel), "%s.%s", f->name, f->format);
	o.output = rel; /* the script draws NAME.EXT beside itself */
	if (rc == 0)
		rc = weft_plot_term_of(rel, &o.term, err);
	if (rc == 0)
		rc = weft_plot_script(ptrs, f->workloads.n, &o, &script, err);
	if (rc == 0) {
		snprintf(full, sizeof(full), "figures/%s.gp", f->name);
		rc = write_sbuf(c, full, &script, err);
	}
	if (rc == 0) {
		snprintf(full, sizeof(full), "%s/figures/%s", c->tmp, rel);
		o.output = full;
		rc = weft_plot_render(weft_sbuf_str(&script), script.len, &o, &said, err);
	}
	if (rc)
		weft_error_prefix(err, "[figure %s]: ", f->name);
	else
		c->nfigures++;
	for (uint32_t i = 0; i < n; i++)
		weft_plot_report_free(&reps[i]);
	free(reps);
	free(ptrs);
	weft_sbuf_free(&script);
	weft_sbuf_free(&said);
	return rc;
}

static void default_out(const char *recipe, char *out, size_t len)
{
	const char *b = strrchr(recipe, '/');
	b = b ? b + 1 : recipe;
	size_t n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
		n -= 4;
	snprintf(out, len, "%.*s", (int)n, b);
}

static int run_all(struct weft_study_ctx *c, struct weft_error *err)
{
	const struct weft_study_plan *p = c->plan;
	int rc = 0;
	if ((rc = get_traces(c, err)))
		return rc;
	if ((rc = sub_dir(c, "json", NULL, err)) || (rc = sub_dir(c, "csv", NULL, err)) ||
	    (p->ntables && (rc = sub_dir(c, "tables", NULL, err))) ||
	    (p->nfigures && (rc = sub_dir(c, "figures", NULL, err))))
		return rc;
	for (uint32_t k = 0; k < p->ntables; k++)
		if ((rc = sub_dir(c, "tables", p->tables[k].name, err)))
			return rc;
	for (uint32_t r = 0; r < p->nruns; r++) {
		const struct weft_study_run *run = &p->runs[r];
		if ((rc = sub_dir(c, "json", run->name, err)) || (rc = sub_dir(c, "csv", run->name, err)) ||
		    (rc = resolve_configs(c, r, err)))
			return rc;
		for (uint32_t w = 0; w < run->workloads.n; w++)
			if ((rc = one_report(c, r, run->workloads.v[w], err)))
				return rc;
	}
	for (uint32_t k = 0; k < p->nfigures; k++)
		if ((rc = one_figure(c, k, err)))
			return rc;
	return weft_study_write_report(c, err);
}

int weft_study_run(const struct weft_study_request *req, struct weft_study_result *res,
		   struct weft_error *err)
{
	memset(res, 0, sizeof(*res));
	struct weft_study_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory starting the study");
	c->req = req;
	int rc = weft_recipe_load(req->recipe, &c->recipe, err);
	if (rc == 0)
		rc = weft_recipe_plan(c->recipe, req->size, req->size_given, &c->plan, err);
	if (rc == 0) {
		char *text;
		size_t len;
		if (weft_file_read(req->recipe, &text, &len) == 0) {
			c->recipe_hash = weft_fnv1a(WEFT_FNV1A_INIT, text, len);
			free(text);
		}
		if (req->out_dir)
			snprintf(c->out, sizeof(c->out), "%s", req->out_dir);
		else
			default_out(req->recipe, c->out, sizeof(c->out));
		rc = weft_study_cache_dir(req->trace_cache, c->cache, sizeof(c->cache), err);
	}
	if (rc == 0)
		rc = weft_study_out_begin(c->out, c->tmp, sizeof(c->tmp), err);
	if (rc == 0) {
		c->tmp_made = 1;
		rc = run_all(c, err);
	}
	if (rc == 0) {
		rc = weft_study_out_publish(c->out, c->tmp, err);
		c->tmp_made = 0; /* published, or the error says where the study is */
	}
	if (rc && c->tmp_made) {
		/* keep nothing half-made; the error says what failed */
		struct weft_error e2;
		weft_study_rmtree(c->tmp, &e2);
	}
	if (rc == 0) {
		snprintf(res->out_dir, sizeof(res->out_dir), "%s", c->out);
		res->ntraces = c->ntraces;
		for (uint32_t i = 0; i < c->ntraces; i++)
			res->nreused += c->traces[i].reused;
		res->nreports = c->nreports;
		res->nfigures = c->nfigures;
		res->ntables = c->ntables;
	}
	weft_study_ctx_free(c);
	return rc;
}
