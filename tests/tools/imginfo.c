/*
 * imginfo.c - test-only tool for tests/cli/plot.sh: what an image file
 * says it is, by the library's own check (plot/plot_image.h), so the tests
 * need no image library.
 *
 *   imginfo FILE.png|FILE.svg|FILE.pdf
 *       prints "png 800 500" (pixels), "svg 336 235" (pixels) or
 *       "pdf 3.5 2.45" (inches, from the MediaBox; 0 0 when it has none)
 *       and exits 0; "FILE: why" on stderr and exit 1 when the file is not a
 *       valid image of its extension's kind; 2 when it cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "plot/plot_image.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: imginfo FILE.png|.svg|.pdf\n");
		return 2;
	}
	enum weft_plot_term t;
	struct weft_error err;
	if (weft_plot_term_of(argv[1], &t, &err) < 0) {
		fprintf(stderr, "%s\n", err.message);
		return 2;
	}
	char *data;
	size_t len;
	if (weft_file_read(argv[1], &data, &len) != WEFT_FILE_OK) {
		fprintf(stderr, "%s: cannot read it\n", argv[1]);
		return 2;
	}
	double w, h;
	char why[160];
	int rc = weft_plot_image_size((const unsigned char *)data, len, t, &w, &h, why, sizeof(why));
	free(data);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], why);
		return 1;
	}
	static const char *const kind[] = { "png", "svg", "pdf" };
	printf("%s %.4g %.4g\n", kind[t], w, h);
	return 0;
}
