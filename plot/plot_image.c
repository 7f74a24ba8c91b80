/*
 * plot_image.c - an image's size from its own bytes (plot_image.h): PNG
 * signature and IHDR, SVG root element, PDF header and MediaBox.
 */
#include "plot_image.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *why, size_t len, const char *what)
{
	snprintf(why, len, "%s", what);
	return -1;
}

/* The first occurrence of needle in [hay, hay + n), or NULL. */
static const char *find(const void *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	const char *h = hay;
	for (size_t i = 0; i + k <= n; i++)
		if (h[i] == needle[0] && memcmp(h + i, needle, k) == 0)
			return h + i;
	return NULL;
}

static unsigned long be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

static int png_size(const unsigned char *d, size_t n, double *w, double *h, char *why, size_t wl)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	if (n < 8 || memcmp(d, sig, 8) != 0)
		return fail(why, wl, "no PNG signature");
	if (n < 24 || be32(d + 8) != 13 || memcmp(d + 12, "IHDR", 4) != 0)
		return fail(why, wl, "the PNG does not begin with its IHDR chunk");
	unsigned long x = be32(d + 16), y = be32(d + 20);
	if (x == 0 || y == 0 || x > 0x7fffffffUL || y > 0x7fffffffUL)
		return fail(why, wl, "the PNG's IHDR gives a width or height out of range");
	*w = (double)x;
	*h = (double)y;
	return 0;
}

/* The value of attribute name in the tag text [p, end), as a number. */
static int attr_num(const char *p, const char *end, const char *name, double *v)
{
	size_t n = strlen(name);
	for (const char *q = p; q + n + 2 < end; q++) {
		if ((q == p || isspace((unsigned char)q[-1])) && strncmp(q, name, n) == 0 && q[n] == '=' &&
		    (q[n + 1] == '"' || q[n + 1] == '\'')) {
			char buf[32];
			const char *s = q + n + 2;
			size_t k = 0;
			while (s + k < end && s[k] != q[n + 1] && k < sizeof(buf) - 1) {
				buf[k] = s[k];
				k++;
			}
			buf[k] = 0;
			char *e;
			*v = strtod(buf, &e);
			return e != buf && (*e == 0 || strcmp(e, "px") == 0) && *v > 0 ? 0 : -1;
		}
	}
	return -1;
}

static int svg_size(const unsigned char *d, size_t n, double *w, double *h, char *why, size_t wl)
{
	const char *s = (const char *)d, *end = s + n;
	const char *p = NULL;
	for (const char *q = s; q + 5 <= end; q++)
		if (memcmp(q, "<svg", 4) == 0 && (isspace((unsigned char)q[4]) || q[4] == '>')) {
			p = q;
			break;
		}
	if (!p)
		return fail(why, wl, "no <svg> root element");
	const char *gt = memchr(p, '>', (size_t)(end - p));
	if (!gt)
		return fail(why, wl, "the <svg> element is not closed");
	if (attr_num(p, gt, "width", w) < 0 || attr_num(p, gt, "height", h) < 0)
		return fail(why, wl, "the <svg> element has no numeric width and height");
	if (n < 6 || !find(s, n, "</svg>"))
		return fail(why, wl, "the SVG has no closing </svg> (truncated?)");
	return 0;
}

static int pdf_size(const unsigned char *d, size_t n, double *w, double *h, char *why, size_t wl)
{
	if (n < 5 || memcmp(d, "%PDF-", 5) != 0)
		return fail(why, wl, "no %PDF- header");
	if (!find(d, n, "%%EOF"))
		return fail(why, wl, "the PDF has no %%EOF (truncated?)");
	*w = *h = 0;
	const char *m = find(d, n, "/MediaBox");
	if (m) {
		char buf[128];
		size_t k = (size_t)((const char *)d + n - m);
		snprintf(buf, sizeof(buf), "%.*s", (int)(k < sizeof(buf) - 1 ? k : sizeof(buf) - 1), m);
		double x0, y0, x1, y1;
		if (sscanf(buf, "/MediaBox [ %lf %lf %lf %lf", &x0, &y0, &x1, &y1) == 4 ||
		    sscanf(buf, "/MediaBox[%lf %lf %lf %lf", &x0, &y0, &x1, &y1) == 4) {
			*w = (x1 - x0) / 72;
			*h = (y1 - y0) / 72;
		}
	}
	return 0;
}

int weft_plot_image_size(const unsigned char *data, size_t len, enum weft_plot_term term,
			 double *w, double *h, char *why, size_t whylen)
{
	switch (term) {
	case WEFT_TERM_PNG:
		return png_size(data, len, w, h, why, whylen);
	case WEFT_TERM_SVG:
		return svg_size(data, len, w, h, why, whylen);
	case WEFT_TERM_PDF:
		return pdf_size(data, len, w, h, why, whylen);
	}
	return fail(why, whylen, "unknown image kind");
}
