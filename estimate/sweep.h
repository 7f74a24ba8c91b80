/*
 * sweep.h - weft-estimate parameter sweeps: `--sweep [CONFIG:]sec.key=LIST`
 * parsed into values, and the points of a config (the cartesian product of
 * the sweeps that apply to it). estimate.c runs the points; docs/estimate.md
 * ("Sweeps") states the rules:
 *
 *   LIST   = ITEM[,ITEM]...        values in the order given
 *   ITEM   = VALUE                 taken as written (the config checks it)
 *          | START:END:xFACTOR     START, START*FACTOR, ... up to END
 *                                  (FACTOR > 1, START > 0): 1:32:x2
 *          | START:END:+STEP       START, START+STEP, ... up to END
 *                                  (STEP > 0): 1:16:+1
 *
 * A sweep with CONFIG: applies to that config only; without, to every
 * config whose schema has the key. A config's points are the product of
 * the sweeps that apply to it, the first --sweep varying slowest (nested
 * loops in command-line order). Each point is the config with its point's
 * values applied as overrides after --set (so its hash and overrides
 * record them) and is named CONFIG[sec.key=v,...] in reports.
 */
#ifndef WEFT_SWEEP_H
#define WEFT_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "models/config.h"

#define WEFT_EST_MAX_SWEEPS 8       /* --sweep options per run */
#define WEFT_EST_MAX_SWEEP_VALUES 4096
#define WEFT_EST_MAX_POINTS 4096    /* points (configs x sweep points) per run */
#define WEFT_EST_SWEEP_VALUE_MAX 64

struct weft_est_sweep {
	char target[64];             /* CONFIG the sweep is restricted to; "" = every config */
	char section[64], key[64];
	char (*values)[WEFT_EST_SWEEP_VALUE_MAX];
	uint32_t nvalues;
	char spec[256];              /* as typed (messages) */
};

/* Parses "[CONFIG:]sec.key=LIST" into s (free with weft_est_sweep_free).
 * WEFT_ERR_INPUT with an example on bad syntax, an empty or duplicate
 * value, a bad range or more than WEFT_EST_MAX_SWEEP_VALUES values. */
int weft_est_parse_sweep(const char *spec, struct weft_est_sweep *s, struct weft_error *err);
/* A finite number filling s[0..len) exactly (strtod: leading blanks are
 * accepted); 0, or -1 when it is not one. */
int weft_est_parse_number(const char *s, size_t len, double *out);
void weft_est_sweep_free(struct weft_est_sweep *s);

/* The value indices of point k of a product over n sweeps with the given
 * value counts, the first varying slowest: idx[0..n-1]. */
void weft_est_sweep_point(const uint32_t *counts, uint32_t n, uint64_t k, uint32_t *idx);

/* " (did you mean sec.key?)" for a key no config's schema has: the
 * closest key among the common keys and the schemas of the named models;
 * or the list of those sections when nothing is close. */
void weft_est_sweep_suggest(const char *section, const char *key, const char *const *models,
			    uint32_t nmodels, char *buf, size_t len);

#endif
