/*
 * plot_run.h - gnuplot draws a figure's script (plot.h). The script is
 * piped to gnuplot's standard input with its outfile set to a file in a
 * fresh temporary directory; what gnuplot says on stderr is kept; the file
 * it drew is checked (plot_image.h: the format the extension asked for, at
 * the size the terminal was given) and only then written to the output
 * path atomically (common/file.h), so a failed or killed run never leaves
 * a partial figure under its name. The library prints nothing: gnuplot's
 * messages come back in the error, or in *said for warnings of a run that
 * succeeded.
 */
#ifndef WEFT_PLOT_RUN_H
#define WEFT_PLOT_RUN_H

#include <stddef.h>

#include "common/error.h"
#include "common/sbuf.h"
#include "plot.h"

/* The gnuplot program: $WEFT_GNUPLOT when set (an input error when it is
 * not an executable file), else the first `gnuplot` on $PATH. Not found
 * is an input error saying to install the Debian package gnuplot-nox. */
int weft_plot_find_gnuplot(char *path, size_t len, struct weft_error *err);

/* Draws script into o->output (format o->term). said (NULL: dropped) gets
 * what gnuplot printed on a run that worked. Errors: gnuplot missing
 * (input), gnuplot failing or drawing something other than the image
 * asked for (internal, with gnuplot's message), the output not writable
 * (input/io, from weft_write_atomic). */
int weft_plot_render(const char *script, size_t len, const struct weft_plot_opts *o,
		     struct weft_sbuf *said, struct weft_error *err);

#endif
