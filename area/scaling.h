/*
 * scaling.h - technology scaling of energy, area and delay between nodes.
 *
 * Two rules, named in every output that used them (docs/energy.md):
 *  - classic: constant-field scaling (Dennard et al., IEEE JSSC 1974,
 *    Table I). With k = from_nm / to_nm: area x 1/k^2, delay x 1/k,
 *    energy per operation (power-delay product, C V^2) x 1/k^3.
 *  - stillmaker: Stillmaker & Baas, Integration 2017, "Scaling equations for
 *    the accurate prediction of CMOS device performance from 180nm to 7nm";
 *    area from the paper's node-to-node area table, energy and delay from
 *    its per-node polynomials in Vdd (HP rows at 45 nm and below); nodes
 *    the paper has no row for (40, 28 nm) are interpolated log-log between
 *    the neighbouring rows, and the note says so.
 */
#ifndef WEFT_SCALING_H
#define WEFT_SCALING_H

#include "common/error.h"

/* ---- technology scaling ------------------------------------------------ */

enum weft_scaling_rule {
	WEFT_SCALING_CLASSIC = 0,   /* constant-field (Dennard et al., JSSC 1974) */
	WEFT_SCALING_STILLMAKER,    /* Stillmaker & Baas, Integration 2017 */
	WEFT_SCALING_COUNT
};
const char *weft_scaling_rule_name(enum weft_scaling_rule r); /* "classic", "stillmaker" */
int weft_scaling_rule_parse(const char *s);                   /* -1 when unknown */

struct weft_scaling {
	enum weft_scaling_rule rule;
	double from_nm, to_nm;
	double vdd_v;      /* supply used in the Stillmaker-Baas polynomials */
	double energy;     /* multiply an energy per operation at from_nm by this */
	double area;       /* multiply an area at from_nm by this */
	double delay;      /* multiply a gate delay at from_nm by this */
	int interpolated;  /* a node missing from the rule's published table */
	char note[224];    /* e.g. "stillmaker 65->40 nm (40 nm interpolated ...)" */
};
/* Factors to go from from_nm to to_nm (identity when equal). Nodes outside
 * the rule's range are an error. */
int weft_scaling_factors(enum weft_scaling_rule rule, double from_nm, double to_nm,
			 struct weft_scaling *s, struct weft_error *err);
/* As above with the supply (V) at which the Stillmaker-Baas energy and delay
 * polynomials are evaluated at both nodes (weft_scaling_factors uses 1.0 V,
 * the [tech] vdd_v default). The classic rule ignores it. */
int weft_scaling_factors_v(enum weft_scaling_rule rule, double from_nm, double to_nm, double vdd_v,
			   struct weft_scaling *s, struct weft_error *err);

#endif
