/*
 * fuzz_plotjson.c - libFuzzer target: weft-estimate JSON reports as
 * weft-plot reads them (plot/plot_report.h), the gnuplot scripts of every
 * plot type built from what was read (plot/plot.h), and image files as
 * weft-plot checks the figures gnuplot draws (plot/plot_image.h).
 *
 * The input is a report's text. When it reads, every plot type's script
 * is built with the default options, the paper style with launch 0, and
 * the shares and cumulative variants, never run: gnuplot is not part of
 * the target. Each script must keep every name inside its quotes: only
 * printable bytes and line ends, every string closed on its line as
 * gnuplot lexes it (a name is a double-quoted string, its quotes,
 * backslashes and backquotes escaped), and no bare backquote anywhere
 * (gnuplot would run what follows as a shell command). The input is also read as a PNG, an SVG and a PDF.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "plot/plot_image.h"
#include "plot/plot_report.h"

static int verbose = -1; /* WEFT_FUZZ_VERBOSE=1: print why each step stopped */

/* Lexes the script as gnuplot does, far enough to see that every string
 * ends on its line and no backquote reaches gnuplot's command substitution:
 * '...' has no escapes, "..." takes backslash escapes (a backquote in it
 * must be escaped), # outside a string starts a comment. */
static void check_script(const char *s)
{
	char in = 0; /* the quote of the string we are in, or 0 */
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n') {
			if (in)
				abort(); /* a string left open: a name broke out */
			continue;
		}
		if (*p < 0x20 && *p != '\t')
			abort();
		if (in == '"' && *p == '\\') {
			if (p[1] == '\n' || !p[1])
				abort();
			p++;
		} else if (*p == '`' && in != '\'') {
			abort(); /* gnuplot would run it as a shell command */
		} else if (in && *p == (unsigned char)in) {
			in = 0;
		} else if (!in && (*p == '\'' || *p == '"')) {
			in = (char)*p;
		} else if (!in && *p == '#') {
			while (p[1] && p[1] != '\n')
				p++;
		}
	}
	if (in)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (verbose < 0)
		verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	double w, h;
	char why[128];
	for (int t = 0; t < 3; t++)
		(void)weft_plot_image_size(data, size, (enum weft_plot_term)t, &w, &h, why, sizeof(why));

	struct weft_plot_report r;
	struct weft_error err;
	weft_error_clear(&err);
	int rc = weft_plot_read_mem("fuzz.json", (const char *)data, size, &r, &err);
	if (verbose)
		fprintf(stderr, "fuzz_plotjson: read: %s\n", rc ? err.message : "ok");
	if (rc < 0) {
		if (!err.message[0])
			abort(); /* every error says what went wrong */
		weft_plot_report_free(&r);
		return 0;
	}
	const struct weft_plot_report *rs[2] = { &r, &r };
	for (int k = 0; k < WEFT_PLOT_NKINDS; k++)
		for (int variant = 0; variant < 3; variant++) {
			struct weft_plot_opts o;
			weft_plot_opts_init(&o);
			o.kind = (enum weft_plot_kind)k;
			o.output = "fig'ure.png";
			o.term = (enum weft_plot_term)variant;
			if (variant == 1) {
				o.paper = 1;
				o.launch = 0;
				o.geomean = k == WEFT_PLOT_BARS;
			} else if (variant == 2) {
				o.norm = WEFT_NORM_SHARE;
				o.cdf = 1;
				o.log = WEFT_LOG_XY;
				o.configs = r.configs[0].name[0] && !strchr(r.configs[0].name, ',') ? r.configs[0].name : NULL;
			}
			struct weft_sbuf s;
			weft_sbuf_init(&s);
			weft_error_clear(&err);
			rc = weft_plot_script(rs, variant == 1 ? 2 : 1, &o, &s, &err);
			if (verbose)
				fprintf(stderr, "fuzz_plotjson: %s/%d: %s\n", weft_plot_kind_name(o.kind), variant,
					rc ? err.message : "ok");
			if (rc == 0)
				check_script(weft_sbuf_str(&s));
			else if (!err.message[0] || rc == WEFT_ERR_INTERNAL)
				abort();
			weft_sbuf_free(&s);
		}
	weft_plot_report_free(&r);
	return 0;
}
