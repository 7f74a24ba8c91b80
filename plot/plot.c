/*
 * plot.c - the plot types, their options, the terminal by file extension,
 * and the script of one figure: each type's builder is in its own file
 * (plot_impl.h).
 */
#include "plot.h"

#include <string.h>
#include <strings.h>

#include "plot_impl.h"

static const char *const kind_names[WEFT_PLOT_NKINDS] = {
	"bars", "energy", "cpi", "sweep", "dist", "scatter", "util",
};

void weft_plot_opts_init(struct weft_plot_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->launch = -1;
	o->cdf = -1;
	o->log = WEFT_LOG_AUTO;
}

int weft_plot_kind_parse(const char *name)
{
	for (int k = 0; k < WEFT_PLOT_NKINDS; k++)
		if (strcmp(name, kind_names[k]) == 0)
			return k;
	return -1;
}

const char *weft_plot_kind_name(enum weft_plot_kind k)
{
	return k < WEFT_PLOT_NKINDS ? kind_names[k] : "?";
}

int weft_plot_term_of(const char *path, enum weft_plot_term *term, struct weft_error *err)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	if (dot && (!slash || dot > slash)) {
		if (strcasecmp(dot, ".png") == 0) {
			*term = WEFT_TERM_PNG;
			return 0;
		}
		if (strcasecmp(dot, ".svg") == 0) {
			*term = WEFT_TERM_SVG;
			return 0;
		}
		if (strcasecmp(dot, ".pdf") == 0) {
			*term = WEFT_TERM_PDF;
			return 0;
		}
	}
	return weft_error_set(err, WEFT_ERR_INPUT,
			      "-o %s: the figure's format comes from its extension: .png, .svg or .pdf",
			      path);
}

int weft_plot_script(const struct weft_plot_report *const *reports, uint32_t n,
		     const struct weft_plot_opts *o, struct weft_sbuf *out, struct weft_error *err)
{
	struct weft_gp g;
	int rc = weft_gp_init(&g, reports, n, o, out, err);
	if (rc < 0)
		return rc;
	switch (o->kind) {
	case WEFT_PLOT_BARS:
		rc = weft_plot_bars(&g);
		break;
	case WEFT_PLOT_ENERGY:
	case WEFT_PLOT_CPI:
		rc = weft_plot_stack(&g);
		break;
	case WEFT_PLOT_SWEEP:
		rc = weft_plot_sweep(&g);
		break;
	case WEFT_PLOT_DIST:
		rc = weft_plot_dist(&g);
		break;
	case WEFT_PLOT_SCATTER:
		rc = weft_plot_scatter(&g);
		break;
	case WEFT_PLOT_UTIL:
		rc = weft_plot_util(&g);
		break;
	default:
		return weft_error_set(err, WEFT_ERR_INTERNAL, "unknown plot kind %d", (int)o->kind);
	}
	if (rc == 0 && out->failed)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory writing the gnuplot script");
	return rc;
}
