/*
 * plot_image.h - what an image file says its size is, from its own bytes
 * and without an image library: a PNG by its signature and IHDR chunk
 * (width and height in pixels), an SVG by its root <svg> element's width
 * and height attributes, a PDF by its %PDF- header and the first page's
 * /MediaBox (inches, at 72 points per inch). weft-plot checks every
 * figure gnuplot draws this way before it publishes it, and the tests
 * check the figures' formats and sizes with it (tests/tools/imginfo.c).
 */
#ifndef WEFT_PLOT_IMAGE_H
#define WEFT_PLOT_IMAGE_H

#include <stddef.h>

#include "plot.h"

/* Reads len bytes of an image of kind term: 0 with *w, *h (pixels for PNG
 * and SVG, inches for PDF; 0 when a PDF names no MediaBox), or -1 with
 * why ("no PNG signature", "no IHDR chunk first", ...). */
int weft_plot_image_size(const unsigned char *data, size_t len, enum weft_plot_term term,
			 double *w, double *h, char *why, size_t whylen);

#endif
