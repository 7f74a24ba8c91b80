/*
 * model_many.c - weft_model_run_many: one model over several
 * configurations (a sweep) with one read of the trace per launch when the
 * model has the per-CTA ops (model.h), so that N points cost one decode
 * plus N replays instead of N decodes and N replays; and no replay at all
 * for a configuration that follows another (its keys differ only in what
 * the replay does not read). Models without the ops run one pass per
 * configuration through weft_model_run.
 *
 * Why per launch and not per CTA across launches: a model's launch timing
 * needs the whole launch replayed (begin, every CTA, end), and launches
 * run in trace order because caches carry over between them.
 */
#include "model.h"

#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"

/* The completion weft_model_run applies to a finished result (model.c):
 * seconds from cycles at the clock, totals from the launches when the
 * model left them 0. Kept identical so both paths give the same result. */
static void complete_result(struct weft_model_result *r)
{
	if (r->cycles == 0) {
		for (uint32_t i = 0; i < r->nlaunches; i++)
			r->cycles += r->launches[i].cycles;
	}
	if (r->thread_insts == 0) {
		for (uint32_t i = 0; i < r->nlaunches; i++)
			r->thread_insts += r->launches[i].thread_insts;
	}
	if (r->seconds == 0 && r->clock_hz > 0)
		r->seconds = r->cycles / r->clock_hz;
}

struct many_feed {
	const struct weft_model *m;
	void **states;
	const uint8_t *active;      /* [n]: consume_cta this launch */
	const struct weft_config *const *cfgs;
	uint32_t n;
	uint32_t failed;            /* index of the state that failed */
	weft_progress_fn progress;  /* per CTA fed: base + fed of total (may be NULL) */
	void *user;
	uint64_t base, fed, cap, total;
};

/* Hands CTA c to every active state: to consume_cta (timed), or to
 * warm_cta for a CTA outside the sample (functional warming, model.h). */
static int feed_each(struct many_feed *f, const struct weft_cta_trace *c, int warm,
		     struct weft_error *err)
{
	for (uint32_t i = 0; i < f->n; i++) {
		if (!f->active[i])
			continue;
		int rc = warm ? f->m->warm_cta(f->states[i], c, err)
			      : f->m->consume_cta(f->states[i], c, err);
		if (rc < 0) {
			f->failed = i;
			return rc;
		}
	}
	if (f->progress && f->fed < f->cap)
		f->progress(f->user, f->base + ++f->fed, f->total);
	return 0;
}

static int feed_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	return feed_each(user, c, 0, err);
}

static int warm_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	return feed_each(user, c, 1, err);
}

/* Progress units: the trace's CTAs (every launch's), a sample's skipped
 * ones counted at the end of their launch. */
static uint64_t trace_ctas(const struct weft_trace *t)
{
	uint64_t n = 0;
	for (uint32_t l = 0; l < weft_trace_info(t)->nlaunches; l++)
		n += weft_trace_launch(t, l)->nctas;
	return n;
}

static int has_cta_ops(const struct weft_model *m)
{
	return m->begin_launch && m->consume_cta && m->end_launch;
}

/* Config i's launch progress as progress over all n configs' launches. */
struct each_progress {
	weft_progress_fn progress;
	void *user;
	uint64_t i, n;
};

static void each_progress(void *user, uint64_t done, uint64_t total)
{
	struct each_progress *e = user;
	e->progress(e->user, e->i * total + done, e->n * total);
}

/* One pass per configuration (models without the per-CTA ops). */
static int run_each(const struct weft_model *m, const struct weft_config *const *cfgs, uint32_t n,
		    struct weft_trace *t, const struct weft_cta_sample *sample,
		    struct weft_model_result *results, uint32_t *passes, weft_progress_fn progress,
		    void *user, struct weft_error *err)
{
	for (uint32_t i = 0; i < n; i++) {
		struct each_progress e = { progress, user, i, n };
		int rc = weft_model_run_progress(m, cfgs[i], t, sample, &results[i],
						 progress ? each_progress : NULL, &e, err);
		if (rc < 0) {
			for (uint32_t j = 0; j < i; j++)
				weft_model_result_free(&results[j]);
			return rc;
		}
	}
	if (passes)
		*passes = n;
	return 0;
}

/* ---- configurations on several threads (weft_trace_set_jobs) ----
 * The configurations are dealt out to up to `jobs` groups, a leader (a
 * configuration that replays) with every configuration that follows it
 * (model.h `follow`: they take its replay instead of their own), so that
 * no group repeats a replay another would have shared; each group is
 * timed on its own thread with its own reader of the trace
 * (weft_trace_reopen), exactly as one thread times it (a model's state
 * belongs to one configuration; the fabric's replay cache is shared under
 * its mutex and gives back what a replay would). Each result lands at its
 * configuration's index, so the results are the same whatever the count.
 * A run with one leader stays on one thread (returns 1). */
struct group {
	uint32_t n, passes;
	uint32_t *idx;                     /* its configurations' indices */
	const struct weft_config **cfgs;
	struct weft_model_result *res;
	int rc;
	struct weft_error err;
};

struct group_job {
	const struct weft_model *m;
	const struct weft_cta_sample *sample;
	struct weft_trace *t;
	uint32_t ngroups;
	unsigned per_group_jobs;
	struct group *g;
	uint32_t next;
	pthread_mutex_t mu;
};

static void group_worker(void *arg, unsigned wid)
{
	struct group_job *J = arg;
	(void)wid;
	for (;;) {
		pthread_mutex_lock(&J->mu);
		uint32_t k = J->next < J->ngroups ? J->next++ : UINT32_MAX;
		pthread_mutex_unlock(&J->mu);
		if (k == UINT32_MAX)
			return;
		struct group *G = &J->g[k];
		struct weft_trace *tk = NULL;
		G->rc = weft_trace_reopen(J->t, &tk, &G->err);
		if (G->rc)
			continue;
		weft_trace_set_jobs(tk, J->per_group_jobs);
		G->rc = weft_model_run_many_progress(J->m, G->cfgs, G->n, tk, J->sample, G->res, &G->passes, NULL,
						     NULL, &G->err);
		weft_trace_close(tk);
	}
}

/* lead[i]: the configuration whose replay i takes (i itself for a
 * leader), as weft_model_run_many_progress decides it; -1 when a
 * configuration does not initialise (the one-thread path reports it). */
static int find_leaders(const struct weft_model *m, const struct weft_config *const *cfgs, uint32_t n,
			uint32_t *lead)
{
	for (uint32_t i = 0; i < n; i++)
		lead[i] = i;
	if (!m->follow || !has_cta_ops(m))
		return 0;
	void **st = calloc(n, sizeof(*st));
	if (!st)
		return -1;
	int rc = 0;
	for (uint32_t i = 0; i < n && !rc; i++) {
		struct weft_error e;
		if (m->init(cfgs[i], &st[i], &e) < 0) {
			st[i] = NULL;
			rc = -1;
			break;
		}
		for (uint32_t j = 0; j < i; j++)
			if (lead[j] == j && m->follow(st[i], st[j]) == 1) {
				lead[i] = j;
				break;
			}
	}
	for (uint32_t i = n; i-- > 0;) /* followers first: they may point at their leader */
		if (st[i])
			m->free(st[i]);
	free(st);
	return rc;
}

static int run_groups(const struct weft_model *m, const struct weft_config *const *cfgs, uint32_t n,
		      struct weft_trace *t, const struct weft_cta_sample *sample,
		      struct weft_model_result *results, uint32_t *passes, unsigned jobs,
		      struct weft_error *err)
{
	uint32_t *lead = malloc(n * sizeof(*lead));
	uint32_t *gof = malloc(n * sizeof(*gof));
	if (!lead || !gof || find_leaders(m, cfgs, n, lead)) {
		free(lead);
		free(gof);
		return 1;
	}
	uint32_t nlead = 0;
	for (uint32_t i = 0; i < n; i++)
		nlead += lead[i] == i;
	if (nlead < 2) {
		free(lead);
		free(gof);
		return 1;
	}
	struct group_job J;
	memset(&J, 0, sizeof(J));
	J.m = m;
	J.sample = sample;
	J.t = t;
	J.ngroups = nlead < jobs ? nlead : jobs;
	J.per_group_jobs = jobs / J.ngroups > 1 ? jobs / J.ngroups : 1;
	J.g = calloc(J.ngroups, sizeof(*J.g));
	int rc = 0;
	if (!J.g)
		rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u configurations", n);
	/* leaders dealt round-robin; a follower goes where its leader went */
	for (uint32_t i = 0, k = 0; !rc && i < n; i++) {
		gof[i] = lead[i] == i ? k++ % J.ngroups : gof[lead[i]];
		J.g[gof[i]].n++;
	}
	for (uint32_t k = 0; !rc && k < J.ngroups; k++) {
		struct group *G = &J.g[k];
		G->idx = malloc(G->n * sizeof(*G->idx));
		G->cfgs = malloc(G->n * sizeof(*G->cfgs));
		G->res = calloc(G->n, sizeof(*G->res));
		if (!G->idx || !G->cfgs || !G->res)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u configurations", n);
		G->n = 0;
	}
	for (uint32_t i = 0; !rc && i < n; i++) {
		struct group *G = &J.g[gof[i]];
		G->idx[G->n] = i;
		G->cfgs[G->n++] = cfgs[i];
	}
	if (!rc) {
		pthread_mutex_init(&J.mu, NULL);
		weft_pool_run(J.ngroups, group_worker, &J);
		pthread_mutex_destroy(&J.mu);
		/* the failure of the group whose first configuration comes first */
		uint32_t first = UINT32_MAX;
		for (uint32_t k = 0; k < J.ngroups; k++)
			if (J.g[k].rc < 0 && J.g[k].idx[0] < first) {
				first = J.g[k].idx[0];
				rc = J.g[k].rc;
				if (err)
					*err = J.g[k].err;
			}
	}
	uint32_t any = 0;
	for (uint32_t k = 0; J.g && k < J.ngroups; k++) {
		struct group *G = &J.g[k];
		for (uint32_t j = 0; G->res && j < G->n; j++) {
			if (!rc)
				results[G->idx[j]] = G->res[j];
			else if (G->rc == 0)
				weft_model_result_free(&G->res[j]);
		}
		any += G->passes;
		free(G->idx);
		free(G->cfgs);
		free(G->res);
	}
	/* what one thread reads (reports are the same whatever -j) */
	if (!rc && passes)
		*passes = has_cta_ops(m) ? (any ? 1 : 0) : n;
	free(J.g);
	free(lead);
	free(gof);
	return rc;
}

int weft_model_run_many(const struct weft_model *m, const struct weft_config *const *cfgs,
			uint32_t n, struct weft_trace *t, const struct weft_cta_sample *sample,
			struct weft_model_result *results, uint32_t *passes, struct weft_error *err)
{
	return weft_model_run_many_progress(m, cfgs, n, t, sample, results, passes, NULL, NULL, err);
}

int weft_model_run_many_progress(const struct weft_model *m, const struct weft_config *const *cfgs,
				 uint32_t n, struct weft_trace *t, const struct weft_cta_sample *sample,
				 struct weft_model_result *results, uint32_t *passes,
				 weft_progress_fn progress, void *user, struct weft_error *err)
{
	if (!m || !t || !results || (n && !cfgs))
		return weft_error_set(err, WEFT_ERR_INTERNAL, "weft_model_run_many: missing argument");
	for (uint32_t i = 0; i < n; i++)
		memset(&results[i], 0, sizeof(results[i]));
	if (passes)
		*passes = 0;
	if (n == 0)
		return 0;
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	if (!sample)
		sample = &all;
	unsigned jobs = weft_pool_jobs(weft_trace_jobs(t));
	if (n > 1 && jobs > 1) {
		int rc = run_groups(m, cfgs, n, t, sample, results, passes, jobs, err);
		if (rc <= 0) {
			if (progress && rc == 0)
				progress(user, 1, 1);
			return rc;
		}
	}
	if (!has_cta_ops(m) || n == 1)
		return run_each(m, cfgs, n, t, sample, results, passes, progress, user, err);

	void **states = calloc(n, sizeof(*states));
	uint8_t *follower = calloc(n, 1);
	uint8_t *active = calloc(n, 1);
	if (!states || !follower || !active) {
		free(states);
		free(follower);
		free(active);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u configurations", n);
	}
	int rc = 0;
	uint32_t i = 0, npass = 0;
	for (i = 0; i < n; i++) {
		rc = m->init(cfgs[i], &states[i], err);
		if (rc < 0) {
			weft_error_prefix(err, "model %s, config %s: ", m->name, cfgs[i]->path);
			goto out;
		}
		/* the first earlier leader whose replay this config can share */
		for (uint32_t j = 0; m->follow && j < i; j++)
			if (!follower[j] && m->follow(states[i], states[j]) == 1) {
				follower[i] = 1;
				break;
			}
	}

	const struct weft_trace_info *info = weft_trace_info(t);
	uint64_t done = 0, total = progress ? trace_ctas(t) : 0;
	for (uint32_t l = 0; l < info->nlaunches; l++) {
		uint64_t lctas = weft_trace_launch(t, l)->nctas;
		uint32_t nactive = 0;
		for (i = 0; i < n; i++) {
			rc = m->begin_launch(states[i], t, l, sample, err);
			if (rc < 0)
				goto launch_fail;
			active[i] = rc == 0 && !follower[i];
			nactive += active[i];
		}
		if (nactive) {
			struct many_feed f = { m, states, active, cfgs, n, 0, progress, user, done, 0,
					       lctas, total };
			struct weft_cta_sample fs = *sample;
			fs.warm_fill = 0; /* the most any active state asks for (model.h) */
			for (i = 0; m->warm_fill && i < n; i++)
				if (active[i] && m->warm_fill(states[i]) > fs.warm_fill)
					fs.warm_fill = m->warm_fill(states[i]);
			rc = weft_trace_for_each_cta_warm(t, l, &fs, 0, feed_cta,
							  m->warm_cta ? warm_cta : NULL, &f, err);
			if (rc < 0) {
				i = f.failed;
				goto launch_fail;
			}
			npass = 1;
		}
		for (i = 0; i < n; i++) {
			rc = m->end_launch(states[i], t, l, sample, err);
			if (rc < 0)
				goto launch_fail;
		}
		done += lctas;
		if (progress)
			progress(user, done, total);
		continue;
launch_fail:
		weft_error_prefix(err, "model %s, config %s, launch %u: ", m->name, cfgs[i]->path, l);
		i = n;
		goto out;
	}

	for (i = 0; i < n; i++) {
		rc = m->finish(states[i], &results[i], err);
		if (rc < 0) {
			weft_error_prefix(err, "model %s, config %s: ", m->name, cfgs[i]->path);
			goto out;
		}
		results[i].model = m;
		weft_model_sample_describe(m, sample, results[i].sampling, sizeof(results[i].sampling));
		complete_result(&results[i]);
	}
	if (passes)
		*passes = npass;
out:
	for (uint32_t j = 0; j < n; j++)
		if (states[j])
			m->free(states[j]);
	if (rc < 0)
		for (uint32_t j = 0; j < n; j++)
			weft_model_result_free(&results[j]);
	free(states);
	free(follower);
	free(active);
	return rc;
}
