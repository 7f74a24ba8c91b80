/*
 * study_report.c - report.md of a study (docs/weft-study.md "The output
 * folder"): what the recipe asked, the figures and tables, what is not
 * modelled yet, and the provenance: the weft version, the recipe's hash,
 * every trace's cache key and file hash, every config point's file and
 * hash (text and overrides), and the weft-trace, weft-estimate and
 * weft-plot commands that make the same files one at a time.
 */
#include "study_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/file.h"
#include "common/sbuf.h"
#include "common/version.h"
#include "plot/plot.h"

void weft_study_keep_configs(struct weft_study_ctx *c, uint32_t r, const struct weft_est_report *rep)
{
	struct weft_study_run_info *ri = &c->run_info[r];
	ri->points = calloc(rep->nconfigs ? rep->nconfigs : 1, sizeof(*ri->points));
	if (!ri->points)
		return; /* the report then says the points are not known */
	for (uint32_t i = 0; i < rep->nconfigs; i++) {
		const struct weft_est_config *k = &rep->configs[i];
		struct weft_study_point *p = &ri->points[i];
		snprintf(p->name, sizeof(p->name), "%s", k->name);
		snprintf(p->config, sizeof(p->config), "%s", k->config);
		snprintf(p->path, sizeof(p->path), "%s", k->path);
		snprintf(p->model, sizeof(p->model), "%s", k->model);
		snprintf(p->overrides, sizeof(p->overrides), "%s", k->overrides);
		p->hash = k->hash;
	}
	ri->nconfigs = rep->nconfigs;
	snprintf(ri->baseline, sizeof(ri->baseline), "%s",
		 rep->nconfigs ? rep->configs[rep->baseline].name : "");
}

const struct weft_study_trace *weft_study_trace_of(const struct weft_study_ctx *c, const char *w)
{
	for (uint32_t i = 0; i < c->ntraces; i++)
		if (strcmp(c->traces[i].workload, w) == 0)
			return &c->traces[i];
	return NULL;
}

void weft_study_ctx_free(struct weft_study_ctx *c)
{
	if (!c)
		return;
	for (uint32_t r = 0; r < WEFT_RECIPE_MAX_RUNS; r++)
		free(c->run_info[r].points);
	weft_recipe_plan_free(c->plan);
	weft_recipe_free(c->recipe);
	free(c);
}

/* s as one shell word: as is when it is plain, else in single quotes. */
static void sh_word(struct weft_sbuf *b, const char *s)
{
	int plain = *s != 0;
	for (const char *q = s; *q; q++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%", *q))
			plain = 0;
	if (plain) {
		weft_sbuf_puts(b, s);
		return;
	}
	weft_sbuf_puts(b, "'");
	for (const char *q = s; *q; q++) {
		if (*q == '\'')
			weft_sbuf_puts(b, "'\\''");
		else
			weft_sbuf_printf(b, "%c", *q);
	}
	weft_sbuf_puts(b, "'");
}

static void opt(struct weft_sbuf *b, const char *name, const char *v)
{
	if (!v)
		return;
	weft_sbuf_printf(b, " %s ", name);
	sh_word(b, v);
}

/* Markdown table cells: | and newlines would break the row. */
static void cell(struct weft_sbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			weft_sbuf_puts(b, "\\|");
		else if (*s == '\n' || *s == '\r')
			weft_sbuf_puts(b, " ");
		else
			weft_sbuf_printf(b, "%c", *s);
	}
}

static void estimate_cmd(struct weft_sbuf *b, const struct weft_study_ctx *c, uint32_t r,
			 const char *w)
{
	const struct weft_study_run *run = &c->plan->runs[r];
	const struct weft_study_trace *t = weft_study_trace_of(c, w);
	weft_sbuf_puts(b, "weft-estimate ");
	sh_word(b, t ? t->path : w);
	for (uint32_t i = 0; i < run->configs.n; i++)
		opt(b, "-c", run->configs.v[i]);
	for (uint32_t i = 0; i < run->sets.n; i++)
		opt(b, "--set", run->sets.v[i]);
	for (uint32_t i = 0; i < run->sweeps.n; i++)
		opt(b, "--sweep", run->sweeps.v[i]);
	opt(b, "--baseline", run->baseline);
}

static void commands(struct weft_sbuf *b, const struct weft_study_ctx *c)
{
	const struct weft_study_plan *p = c->plan;
	weft_sbuf_puts(b, "## Commands\n\nThe same files, one command at a time (from this folder):\n\n```sh\n");
	for (uint32_t i = 0; i < c->ntraces; i++) {
		const struct weft_study_trace *t = &c->traces[i];
		weft_sbuf_printf(b, "weft-trace run %s --size %s -o ", t->workload, weft_size_name(t->size));
		sh_word(b, t->path);
		weft_sbuf_puts(b, "\n");
	}
	for (uint32_t r = 0; r < p->nruns; r++) {
		const struct weft_study_run *run = &p->runs[r];
		for (uint32_t w = 0; w < run->workloads.n; w++) {
			const char *wl = run->workloads.v[w];
			estimate_cmd(b, c, r, wl);
			weft_sbuf_printf(b, " --format json -o json/%s/%s.json\n", run->name, wl);
			estimate_cmd(b, c, r, wl);
			weft_sbuf_printf(b, " --format csv -o csv/%s/%s.csv\n", run->name, wl);
			for (uint32_t k = 0; k < p->ntables; k++) {
				const struct weft_study_table *tb = &p->tables[k];
				int in = 0;
				for (uint32_t j = 0; j < tb->workloads.n; j++)
					in |= strcmp(tb->workloads.v[j], wl) == 0;
				if (tb->run != r || !in)
					continue;
				static const char *const fmts[2][2] = { { "latex", "tex" }, { "markdown", "md" } };
				for (int f = 0; f < 2; f++) {
					estimate_cmd(b, c, r, wl);
					weft_sbuf_printf(b, " --format %s", fmts[f][0]);
					opt(b, "--columns", tb->columns);
					if (tb->digits)
						weft_sbuf_printf(b, " --digits %d", tb->digits);
					weft_sbuf_printf(b, " -o tables/%s/%s.%s\n", tb->name, wl, fmts[f][1]);
				}
			}
		}
	}
	for (uint32_t k = 0; k < p->nfigures; k++) {
		const struct weft_study_figure *f = &p->figures[k];
		const struct weft_plot_opts *o = &f->o;
		weft_sbuf_printf(b, "weft-plot %s", weft_plot_kind_name(o->kind));
		for (uint32_t w = 0; w < f->workloads.n; w++)
			weft_sbuf_printf(b, " json/%s/%s.json", p->runs[f->run].name, f->workloads.v[w]);
		weft_sbuf_printf(b, " -o figures/%s.%s", f->name, f->format);
		opt(b, "--metric", o->metric);
		opt(b, "--x", o->xmetric);
		opt(b, "--y", o->ymetric);
		opt(b, "--key", o->key);
		opt(b, "--of", o->of);
		if (o->cdf >= 0)
			weft_sbuf_puts(b, o->cdf ? " --cdf" : " --no-cdf");
		opt(b, "--busy", o->busy);
		static const char *const norms[] = { NULL, "none", "share", "baseline" };
		if (o->norm != WEFT_NORM_AUTO)
			opt(b, "--norm", norms[o->norm]);
		static const char *const logs[] = { "none", "x", "y", "xy" };
		if (o->log != WEFT_LOG_AUTO)
			opt(b, "--log", logs[o->log]);
		opt(b, "--configs", f->configs);
		if (o->launch >= 0)
			weft_sbuf_printf(b, " --launch %lld", (long long)o->launch);
		if (o->geomean)
			weft_sbuf_puts(b, " --geomean");
		if (o->paper)
			weft_sbuf_puts(b, " --style paper");
		opt(b, "--title", o->title);
		weft_sbuf_puts(b, "\n");
	}
	weft_sbuf_puts(b, "```\n");
}

static void provenance(struct weft_sbuf *b, const struct weft_study_ctx *c)
{
	const struct weft_study_plan *p = c->plan;
	char when[64] = "";
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	weft_sbuf_puts(b, "## Provenance\n\n");
	weft_sbuf_printf(b, "- weft %s, %s\n", WEFT_VERSION, when);
	weft_sbuf_puts(b, "- recipe `");
	cell(b, c->req->recipe);
	weft_sbuf_printf(b, "` (FNV-1a 64 of its text: %016llx), size %s\n",
			 (unsigned long long)c->recipe_hash, weft_size_name(p->size));
	weft_sbuf_puts(b, "- trace cache `");
	cell(b, c->cache);
	weft_sbuf_puts(b, "` (a trace's key: FNV-1a 64 of the weft version, the trace format "
			  "version, the workload, the size and the workload's PTX; docs/weft-study.md)\n\n");
	weft_sbuf_puts(b, "### Traces\n\n| workload | size | cache key | trace file FNV-1a 64 | bytes | "
			  "launches | thread instructions | |\n|---|---|---|---|---:|---:|---:|---|\n");
	for (uint32_t i = 0; i < c->ntraces; i++) {
		const struct weft_study_trace *t = &c->traces[i];
		weft_sbuf_printf(b, "| %s | %s | %016llx | %016llx | %llu | %u | %llu | %s |\n", t->workload,
				 weft_size_name(t->size), (unsigned long long)t->key,
				 (unsigned long long)t->hash, (unsigned long long)t->bytes, t->nlaunches,
				 (unsigned long long)t->thread_insts, t->reused ? "reused" : "traced");
	}
	for (uint32_t r = 0; r < p->nruns; r++) {
		const struct weft_study_run *run = &p->runs[r];
		const struct weft_study_run_info *ri = &c->run_info[r];
		weft_sbuf_printf(b, "\n### Run `%s`\n\n", run->name);
		weft_sbuf_puts(b, "Workloads:");
		for (uint32_t w = 0; w < run->workloads.n; w++)
			weft_sbuf_printf(b, " %s%s", run->workloads.v[w], w + 1 < run->workloads.n ? "," : ".");
		weft_sbuf_printf(b, " Baseline: `%s`.", ri->baseline);
		for (uint32_t i = 0; i < run->sweeps.n; i++) {
			weft_sbuf_puts(b, " Sweep `");
			cell(b, run->sweeps.v[i]);
			weft_sbuf_puts(b, "`.");
		}
		for (uint32_t i = 0; i < run->sets.n; i++) {
			weft_sbuf_puts(b, " Set `");
			cell(b, run->sets.v[i]);
			weft_sbuf_puts(b, "`.");
		}
		weft_sbuf_puts(b, "\n\n| point | model | config file | FNV-1a 64 (text and overrides) | "
				  "overrides |\n|---|---|---|---|---|\n");
		for (uint32_t i = 0; i < ri->nconfigs; i++) {
			const struct weft_study_point *q = &ri->points[i];
			weft_sbuf_puts(b, "| ");
			cell(b, q->name);
			weft_sbuf_printf(b, " | %s | ", q->model);
			cell(b, q->path);
			weft_sbuf_printf(b, " | %016llx | ", (unsigned long long)q->hash);
			cell(b, q->overrides);
			weft_sbuf_puts(b, " |\n");
		}
	}
	weft_sbuf_puts(b, "\n");
}

int weft_study_write_report(struct weft_study_ctx *c, struct weft_error *err)
{
	const struct weft_study_plan *p = c->plan;
	struct weft_sbuf b;
	weft_sbuf_init(&b);
	weft_sbuf_puts(&b, "# ");
	cell(&b, p->title);
	weft_sbuf_puts(&b, "\n\n");
	for (uint32_t i = 0; i < p->about.n; i++) {
		cell(&b, p->about.v[i]);
		weft_sbuf_puts(&b, "\n");
	}
	if (p->about.n)
		weft_sbuf_puts(&b, "\n");
	weft_sbuf_printf(&b, "Written by `weft-study` (weft %s) at size %s: %u traces, %u reports "
			     "(`json/`, `csv/`), %u figures (`figures/`, each with its gnuplot script), "
			     "%u tables (`tables/`, LaTeX and Markdown).\n\n",
			 WEFT_VERSION, weft_size_name(p->size), c->ntraces, c->nreports, c->nfigures,
			 c->ntables);
	if (p->nfigures)
		weft_sbuf_puts(&b, "## Figures\n\n");
	for (uint32_t k = 0; k < p->nfigures; k++) {
		const struct weft_study_figure *f = &p->figures[k];
		weft_sbuf_printf(&b, "### %s\n\n", f->name);
		if (strcmp(f->format, "pdf") == 0)
			weft_sbuf_printf(&b, "[figures/%s.pdf](figures/%s.pdf)\n\n", f->name, f->name);
		else
			weft_sbuf_printf(&b, "![%s](figures/%s.%s)\n\n", f->name, f->name, f->format);
	}
	if (p->ntables)
		weft_sbuf_puts(&b, "## Tables\n\n");
	for (uint32_t k = 0; k < p->ntables; k++) {
		const struct weft_study_table *tb = &p->tables[k];
		for (uint32_t w = 0; w < tb->workloads.n; w++) {
			char path[1400];
			char *text = NULL;
			size_t len;
			weft_sbuf_printf(&b, "### %s: %s\n\n", tb->name, tb->workloads.v[w]);
			snprintf(path, sizeof(path), "%s/tables/%s/%s.md", c->tmp, tb->name, tb->workloads.v[w]);
			if (weft_file_read(path, &text, &len) != 0) {
				weft_sbuf_free(&b);
				return weft_error_set(err, WEFT_ERR_IO, "cannot read back %s", path);
			}
			weft_sbuf_puts(&b, text);
			free(text);
			weft_sbuf_printf(&b, "\n(LaTeX: `tables/%s/%s.tex`)\n\n", tb->name, tb->workloads.v[w]);
		}
	}
	if (p->not_modelled.n) {
		weft_sbuf_puts(&b, "## Not yet modelled\n\nWhat the study evaluated that weft does not model "
				   "yet, so this folder does not have it:\n\n");
		for (uint32_t i = 0; i < p->not_modelled.n; i++) {
			weft_sbuf_puts(&b, "- ");
			cell(&b, p->not_modelled.v[i]);
			weft_sbuf_puts(&b, "\n");
		}
		weft_sbuf_puts(&b, "\n");
	}
	provenance(&b, c);
	commands(&b, c);
	int rc;
	if (b.failed) {
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing report.md");
	} else {
		char path[1400];
		snprintf(path, sizeof(path), "%s/report.md", c->tmp);
		rc = weft_write_atomic(path, weft_sbuf_str(&b), b.len, err);
	}
	weft_sbuf_free(&b);
	return rc;
}
