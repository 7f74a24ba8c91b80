/*
 * fuzz_calib.c - libFuzzer target: calibration model descriptions and their
 * data tables (area/area.h, weft_area_fit_run), as `weft-area fit DATA.csv
 * MODEL` reads them.
 *
 * The input is a model description's text, optionally followed by a line
 * `%%` and the data CSV's text; without one the data is a small built-in
 * table. weft_area_fit_run reads files, so the harness writes both parts to
 * two temporary files (made once per process, rewritten for each input),
 * fits, and reads every figure of the report back.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "area/area.h"

static const char default_csv[] = "config,pattern,cores,lanes,regs,pvfb,area,power\n"
				  "a,mimd,4,0,32,,3.7,149\n"
				  "b,vsimd,4,1,64,,4.9,352\n"
				  "c,vt,4,1,128,fifo,5.6,401\n"
				  "d,vt,4,1,256,2-stack,5.9,409\n"
				  "e,vt,1,4,256,2-stack,3.9,205\n";

static char model_path[64], data_path[64];
static int verbose = -1;

static int make_tmp(char *path)
{
	strcpy(path, "/tmp/weft-fuzz-calib.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static void put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

static void cleanup(void)
{
	unlink(model_path);
	unlink(data_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!model_path[0]) {
		if (make_tmp(model_path) || make_tmp(data_path))
			abort();
		atexit(cleanup);
		verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	}
	size_t msize = size;
	const uint8_t *csv = (const uint8_t *)default_csv;
	size_t csize = sizeof(default_csv) - 1;
	for (size_t i = 0; i + 3 <= size; i++) {
		if ((i == 0 || data[i - 1] == '\n') && !memcmp(data + i, "%%\n", 3)) {
			msize = i;
			csv = data + i + 3;
			csize = size - i - 3;
			break;
		}
	}
	put(model_path, data, msize);
	put(data_path, csv, csize);
	struct weft_calib_report r;
	struct weft_error err;
	weft_error_clear(&err);
	int rc = weft_area_fit_run(data_path, model_path, &r, &err);
	if (verbose)
		fprintf(stderr, "fuzz_calib: %s\n", rc ? err.message : "fitted");
	if (rc == 0) {
		double sum = r.r2 + r.rmse + r.mape_pct + r.loo_q2;
		for (uint32_t j = 0; j < r.nterms; j++)
			sum += r.terms[j].coef + r.terms[j].std_err + (double)strlen(r.terms[j].about);
		for (uint32_t i = 0; i < r.npts; i++)
			sum += r.pts[i].fitted + r.pts[i].loo_pred + (double)strlen(r.pts[i].label) +
			       (double)strlen(r.pts[i].loo_note);
		if (r.npts == 0 || r.nterms == 0 || r.nterms > WEFT_CALIB_MAX_TERMS)
			abort();
		if (!weft_area_fit_term(&r, r.terms[0].name))
			abort();
		(void)sum;
	} else if (!err.message[0]) {
		abort(); /* every error says what went wrong */
	}
	weft_area_fit_free(&r);
	return 0;
}
