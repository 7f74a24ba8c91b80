/*
 * model.c - running a timing model over a trace (init, every launch,
 * finish) and the helpers shared by every model's result (model.h).
 *
 * Ownership: a model's finish allocates result->events, result->launches
 * and each launches[i].events with malloc/calloc; weft_model_result_free
 * releases them. weft_model_run always frees the model state it created.
 */
#include "model.h"
#include "common/sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void weft_model_result_free(struct weft_model_result *r)
{
	if (!r)
		return;
	weft_launch_results_free(r->launches, r->nlaunches);
	free(r->events);
	memset(r, 0, sizeof(*r));
}

static void launch_result_clear(struct weft_launch_result *r)
{
	free(r->events);
	free(r->explain);
	free(r->stats);
	r->events = NULL;
	r->explain = NULL;
	r->stats = NULL;
}

void weft_launch_results_free(struct weft_launch_result *launches, uint32_t n)
{
	for (uint32_t i = 0; launches && i < n; i++)
		launch_result_clear(&launches[i]);
	free(launches);
}

void weft_launch_result_pop(struct weft_launch_result *launches, uint32_t *n)
{
	if (*n == 0)
		return;
	launch_result_clear(&launches[--*n]);
}

/* Gives r's stats back all the room they do not use (a failed shrink
 * keeps the larger array: nothing is lost). */
static void launch_result_trim(struct weft_launch_result *r)
{
	if (!r->stats)
		return;
	struct weft_stat *s = realloc(r->stats, (r->nstats ? r->nstats : 1) * sizeof(*s));
	if (s)
		r->stats = s;
}

int weft_launch_result_push(struct weft_launch_result **launches, uint32_t *n, uint32_t *cap,
			    uint32_t nevents, struct weft_launch_result **out, struct weft_error *err)
{
	if (*n > 0)
		launch_result_trim(&(*launches)[*n - 1]);
	if (*n == *cap) {
		uint32_t c = *cap ? 2 * *cap : 4;
		struct weft_launch_result *nl = realloc(*launches, c * sizeof(*nl));
		if (!nl)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for launch results");
		*launches = nl;
		*cap = c;
	}
	struct weft_launch_result *r = &(*launches)[*n];
	memset(r, 0, sizeof(*r));
	r->events = calloc(nevents ? nevents : 1, sizeof(double)); /* a model may count none */
	r->stats = calloc(WEFT_MAX_STATS, sizeof(*r->stats));
	if (!r->events || !r->stats) {
		launch_result_clear(r);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for launch results");
	}
	(*n)++;
	*out = r;
	return 0;
}

int weft_model_result_take(struct weft_model_result *res, double clock_hz, double cycles,
			   uint64_t thread_insts, const double *events, uint32_t nevents,
			   struct weft_launch_result **launches, uint32_t *nlaunches, uint32_t *cap,
			   struct weft_error *err)
{
	res->clock_hz = clock_hz;
	res->cycles = cycles;
	res->seconds = cycles / clock_hz;
	res->thread_insts = thread_insts;
	res->events = calloc(nevents ? nevents : 1, sizeof(double));
	if (!res->events)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for results");
	memcpy(res->events, events, nevents * sizeof(double));
	if (*nlaunches > 0)
		launch_result_trim(&(*launches)[*nlaunches - 1]);
	res->launches = *launches;
	res->nlaunches = *nlaunches;
	memset(&res->cpi, 0, sizeof(res->cpi));
	for (uint32_t i = 0; i < res->nlaunches; i++)
		for (uint32_t k = 0; k < res->launches[i].cpi.n; k++)
			weft_cpi_add(&res->cpi, res->launches[i].cpi.item[k].name,
				     res->launches[i].cpi.item[k].cycles);
	*launches = NULL;
	*nlaunches = *cap = 0;
	return 0;
}

void weft_cpi_add(struct weft_cpi_stack *s, const char *name, double cycles)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (strcmp(s->item[i].name, name) == 0) {
			s->item[i].cycles += cycles;
			return;
		}
	if (s->n == WEFT_MAX_CPI)
		return;
	struct weft_cpi_item *it = &s->item[s->n++];
	snprintf(it->name, sizeof(it->name), "%s", name);
	it->cycles = cycles;
}

double weft_cpi_total(const struct weft_cpi_stack *s)
{
	double t = 0;
	for (uint32_t i = 0; i < s->n; i++)
		t += s->item[i].cycles;
	return t;
}

const char *weft_cpi_largest(const struct weft_cpi_stack *s)
{
	uint32_t best = 0;
	for (uint32_t i = 1; i < s->n; i++)
		if (s->item[i].cycles > s->item[best].cycles)
			best = i;
	return s->n ? s->item[best].name : "";
}

void weft_component_set(struct weft_component *c, const char *name, double count,
			const char *why, ...)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->count = count;
	va_list ap;
	va_start(ap, why);
	vsnprintf(c->why, sizeof(c->why), why, ap);
	va_end(ap);
}

void weft_stat_add(struct weft_stat *stats, uint32_t *n, const char *key, double value,
		   const char *unit)
{
	if (!stats || !n || *n >= WEFT_MAX_STATS)
		return;
	struct weft_stat *s = &stats[(*n)++];
	memset(s, 0, sizeof(*s));
	snprintf(s->key, sizeof(s->key), "%s", key ? key : "");
	snprintf(s->unit, sizeof(s->unit), "%s", unit ? unit : "");
	s->value = value;
}

void weft_model_sample_describe(const struct weft_model *m, const struct weft_cta_sample *sample,
				char *buf, size_t len)
{
	struct weft_cta_sample s = { .kind = WEFT_SAMPLE_ALL };
	if (sample)
		s = *sample;
	if (!m || !m->warm_cta)
		s.warm = 0; /* nothing was warmed */
	weft_cta_sample_describe(&s, buf, len);
}

/* Fills what every model would otherwise repeat: seconds from cycles at the
 * clock, totals from the per-launch figures when the model left them 0. */
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

int weft_model_run(const struct weft_model *m, const struct weft_config *cfg, struct weft_trace *t,
		   const struct weft_cta_sample *sample, struct weft_model_result *result,
		   struct weft_error *err)
{
	return weft_model_run_progress(m, cfg, t, sample, result, NULL, NULL, err);
}

int weft_model_run_progress(const struct weft_model *m, const struct weft_config *cfg,
			    struct weft_trace *t, const struct weft_cta_sample *sample,
			    struct weft_model_result *result, weft_progress_fn progress, void *user,
			    struct weft_error *err)
{
	if (!m || !cfg || !t || !result)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "weft_model_run: missing argument");
	memset(result, 0, sizeof(*result));
	struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
	if (!sample)
		sample = &all;

	void *state = NULL;
	int rc = m->init(cfg, &state, err);
	if (rc < 0) {
		weft_error_prefix(err, "model %s, config %s: ", m->name, cfg->path);
		return rc;
	}
	const struct weft_trace_info *info = weft_trace_info(t);
	uint64_t done = 0, total = 0;
	for (uint32_t l = 0; progress && l < info->nlaunches; l++)
		total += weft_trace_launch(t, l)->nctas;
	for (uint32_t l = 0; l < info->nlaunches; l++) {
		rc = m->consume_launch(state, t, l, sample, err);
		if (rc < 0) {
			weft_error_prefix(err, "model %s, config %s, launch %u: ", m->name, cfg->path, l);
			m->free(state);
			return rc;
		}
		if (progress) {
			done += weft_trace_launch(t, l)->nctas;
			progress(user, done, total);
		}
	}
	rc = m->finish(state, result, err);
	m->free(state);
	if (rc < 0) {
		weft_error_prefix(err, "model %s, config %s: ", m->name, cfg->path);
		weft_model_result_free(result);
		return rc;
	}
	result->model = m;
	weft_model_sample_describe(m, sample, result->sampling, sizeof(result->sampling));
	complete_result(result);
	return 0;
}

int weft_launch_result_explain(struct weft_launch_result *r, uint32_t launch, struct weft_sbuf *b,
			       struct weft_error *err)
{
	if (b->failed) {
		weft_sbuf_free(b);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory explaining launch %u", launch);
	}
	r->explain = b->data ? b->data : calloc(1, 1);
	b->data = NULL;
	b->len = b->cap = 0;
	if (!r->explain)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory explaining launch %u", launch);
	return 0;
}
