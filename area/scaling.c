/*
 * scaling.c - technology scaling factors between nodes (scaling.h).
 *
 * classic (Dennard et al., "Design of ion-implanted MOSFETs with very small
 * physical dimensions", IEEE JSSC 1974, Table I; constant-field scaling by
 * k = from/to): area 1/k^2, delay 1/k, power-delay product (energy per
 * operation, C V^2 with C ~ 1/k and V ~ 1/k) 1/k^3.
 *
 * stillmaker (A. Stillmaker, B. Baas, "Scaling equations for the accurate
 * prediction of CMOS device performance from 180 nm to 7 nm", Integration
 * 58:74-81, 2017): the area table (factor from node X to node Y) and the
 * per-node fits energy(V) = a V^2 + b V + c and delay(V) = a V^3 + b V^2 +
 * c V + d, HP rows for 45 nm and below (GPUs use high-performance
 * processes: assumption). Coefficients as transcribed by the MIT-licensed
 * nodeScale tool (UCLA NanoCAD, github.com/wromaszkan/nodeScale); the 65 nm
 * and HP32 energy rows match the worked example in the authors' erratum
 * (EnergyFactor 65 nm = 3.755 V^2 - 4.398 V + 1.975; HP32 = 0.8367 V^2 -
 * 0.4341 V + 0.1701). The 65->45 and 65->32 area factors (0.66, 0.31) are
 * from the paper's node-to-node area table.
 *
 * A node between two rows (40 nm, 28 nm) is interpolated log-log: the
 * factor is taken as a power law in node size between the two neighbours.
 */
#include "scaling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NNODES 11
static const double nodes[NNODES] = { 180, 130, 90, 65, 45, 32, 20, 16, 14, 10, 7 };

/* area[X][Y]: multiply an area at nodes[X] by this to get it at nodes[Y]. */
static const double area_tab[NNODES][NNODES] = {
	{ 1, 0.34, 0.15, 0.08, 0.053, 0.025, 0.011, 0.01, 0.0093, 0.0055, 0.0032 },
	{ 2.9, 1, 0.44, 0.23, 0.16, 0.072, 0.033, 0.03, 0.027, 0.016, 0.0092 },
	{ 6.6, 2.3, 1, 0.53, 0.35, 0.16, 0.075, 0.067, 0.061, 0.036, 0.021 },
	{ 12, 4.3, 1.9, 1, 0.66, 0.31, 0.14, 0.13, 0.12, 0.068, 0.039 },
	{ 19, 6.4, 2.8, 1.5, 1, 0.46, 0.21, 0.19, 0.17, 0.1, 0.059 },
	{ 40, 14, 6.1, 3.3, 2.2, 1, 0.46, 0.41, 0.38, 0.22, 0.13 },
	{ 88, 30, 13, 7.1, 4.7, 2.2, 1, 0.89, 0.82, 0.48, 0.28 },
	{ 99, 34, 15, 7.9, 5.3, 2.4, 1.1, 1, 0.91, 0.54, 0.31 },
	{ 110, 37, 16, 8.7, 5.8, 2.7, 1.2, 1.1, 1, 0.59, 0.34 },
	{ 180, 63, 28, 15, 9.8, 4.5, 2.1, 1.9, 1.7, 1, 0.58 },
	{ 320, 110, 48, 25, 17, 7.8, 3.6, 3.2, 2.9, 1.7, 1 },
};

/* energy(V) = e[0] V^2 + e[1] V + e[2]; delay(V) = d[0] V^3 + ... + d[3]. */
static const double energy_tab[NNODES][3] = {
	{ 0, 24.64, -17.98 },        /* 180 */
	{ 7.171, -6.709, 2.904 },    /* 130 */
	{ 4.762, -4.781, 2.092 },    /* 90 */
	{ 3.755, -4.398, 1.975 },    /* 65 */
	{ 1.018, -0.3107, 0.1539 },  /* HP45 */
	{ 0.8367, -0.4341, 0.1701 }, /* HP32 */
	{ 0.373, -0.1582, 0.04104 }, /* HP20 */
	{ 0.2958, -0.1241, 0.03024 },/* HP16 */
	{ 0.2363, -0.09675, 0.02239 },/* HP14 */
	{ 0.2068, -0.09311, 0.02375 },/* HP10 */
	{ 0.1776, -0.09097, 0.02447 },/* HP7 */
};
static const double delay_tab[NNODES][4] = {
	{ 0, 97.09, -356.7, 406.5 },
	{ -76.65, 334.9, -493.4, 275.8 },
	{ -60.34, 262.5, -384.2, 210.9 },
	{ -53.3, 230.4, -333.9, 178.6 },
	{ -501.6, 1567, -1619, 566.1 },
	{ -1047, 2982, -2797, 873.5 },
	{ 0, 34.63, -66.37, 41.15 },
	{ 0, 24.8, -47.52, 28.87 },
	{ -40.66, 109.2, -100.6, 35.92 },
	{ -34.95, 93.65, -85.99, 30.4 },
	{ -28.58, 76.6, -70.26, 24.69 },
};

const char *weft_scaling_rule_name(enum weft_scaling_rule r)
{
	switch (r) {
	case WEFT_SCALING_CLASSIC:
		return "classic";
	case WEFT_SCALING_STILLMAKER:
		return "stillmaker";
	default:
		return "?";
	}
}

int weft_scaling_rule_parse(const char *s)
{
	if (!s)
		return -1;
	if (!strcmp(s, "classic"))
		return WEFT_SCALING_CLASSIC;
	if (!strcmp(s, "stillmaker"))
		return WEFT_SCALING_STILLMAKER;
	return -1;
}

/* Index of node n in nodes[], or -1; hi and lo get the neighbours (hi > n > lo). */
static int node_index(double n, int *hi, int *lo)
{
	for (int i = 0; i < NNODES; i++)
		if (fabs(nodes[i] - n) < 1e-9)
			return i;
	*hi = *lo = -1;
	for (int i = 0; i + 1 < NNODES; i++)
		if (nodes[i] > n && n > nodes[i + 1]) {
			*hi = i;
			*lo = i + 1;
		}
	return -1;
}

/* Log-log interpolation of a positive quantity between neighbours. */
static double interp(double n, int hi, int lo, double vhi, double vlo)
{
	double t = log(nodes[hi] / n) / log(nodes[hi] / nodes[lo]);
	return exp(log(vhi) + t * (log(vlo) - log(vhi)));
}

static double area_f(double from, double to)
{
	int fh, fl, th, tl;
	int fi = node_index(from, &fh, &fl), ti = node_index(to, &th, &tl);
	if (fi < 0)
		return interp(from, fh, fl, area_f(nodes[fh], to), area_f(nodes[fl], to));
	if (ti < 0)
		return interp(to, th, tl, area_tab[fi][th], area_tab[fi][tl]);
	return area_tab[fi][ti];
}

static double energy_at(int i, double v)
{
	return energy_tab[i][0] * v * v + energy_tab[i][1] * v + energy_tab[i][2];
}

static double delay_at(int i, double v)
{
	return ((delay_tab[i][0] * v + delay_tab[i][1]) * v + delay_tab[i][2]) * v + delay_tab[i][3];
}

/* Absolute (arbitrary-unit) energy or delay at node n. */
static double poly_node(double n, double v, int delay)
{
	int hi, lo;
	int i = node_index(n, &hi, &lo);
	if (i >= 0)
		return delay ? delay_at(i, v) : energy_at(i, v);
	double a = delay ? delay_at(hi, v) : energy_at(hi, v);
	double b = delay ? delay_at(lo, v) : energy_at(lo, v);
	return interp(n, hi, lo, a, b);
}

int weft_scaling_factors_v(enum weft_scaling_rule rule, double from_nm, double to_nm, double vdd_v,
			   struct weft_scaling *s, struct weft_error *err)
{
	memset(s, 0, sizeof(*s));
	s->rule = rule;
	s->from_nm = from_nm;
	s->to_nm = to_nm;
	s->vdd_v = vdd_v;
	if (!(from_nm > 0) || !(to_nm > 0))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "technology nodes must be positive (got %g -> %g nm)", from_nm,
				      to_nm);
	if (from_nm == to_nm) {
		s->energy = s->area = s->delay = 1;
		snprintf(s->note, sizeof(s->note), "none (%g nm)", to_nm);
		return 0;
	}
	if (rule == WEFT_SCALING_CLASSIC) {
		double k = from_nm / to_nm;
		s->area = 1 / (k * k);
		s->delay = 1 / k;
		s->energy = 1 / (k * k * k);
		snprintf(s->note, sizeof(s->note),
			 "classic constant-field %g->%g nm (Dennard 1974): energy x%.3f, area x%.3f",
			 from_nm, to_nm, s->energy, s->area);
		return 0;
	}
	if (rule != WEFT_SCALING_STILLMAKER)
		return weft_error_set(err, WEFT_ERR_INPUT, "unknown scaling rule %d", (int)rule);
	double maxn = nodes[0], minn = nodes[NNODES - 1];
	if (from_nm > maxn || from_nm < minn || to_nm > maxn || to_nm < minn)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "the stillmaker rule covers %g..%g nm (got %g -> %g nm); use "
				      "--rule classic outside it",
				      minn, maxn, from_nm, to_nm);
	if (!(vdd_v >= 0.5 && vdd_v <= 1.8))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "supply %g V is outside 0.5..1.8 V for the stillmaker polynomials",
				      vdd_v);
	int h, l;
	int fi = node_index(from_nm, &h, &l), ti = node_index(to_nm, &h, &l);
	s->interpolated = fi < 0 || ti < 0;
	s->area = area_f(from_nm, to_nm);
	s->energy = poly_node(to_nm, vdd_v, 0) / poly_node(from_nm, vdd_v, 0);
	s->delay = poly_node(to_nm, vdd_v, 1) / poly_node(from_nm, vdd_v, 1);
	char interp_note[96] = "";
	if (s->interpolated) {
		double n = fi < 0 ? from_nm : to_nm;
		int hi, lo;
		node_index(n, &hi, &lo);
		snprintf(interp_note, sizeof(interp_note), "; %g nm interpolated log-log between %g and %g nm",
			 n, nodes[hi], nodes[lo]);
	}
	snprintf(s->note, sizeof(s->note),
		 "stillmaker %g->%g nm at %.2f V (Stillmaker & Baas 2017): energy x%.3f, area x%.3f%s",
		 from_nm, to_nm, vdd_v, s->energy, s->area, interp_note);
	return 0;
}

int weft_scaling_factors(enum weft_scaling_rule rule, double from_nm, double to_nm,
			 struct weft_scaling *s, struct weft_error *err)
{
	return weft_scaling_factors_v(rule, from_nm, to_nm, 1.0, s, err);
}
