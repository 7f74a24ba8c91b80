/*
 * validate_impl.h - internal to weft-validate's library: the formatters of
 * the report (validate_report.c, validate_format.c). Claims files are read
 * with common/csv.h's record reader, which gives every field its position,
 * so that a bad field is reported at file:line:column.
 */
#ifndef WEFT_VALIDATE_IMPL_H
#define WEFT_VALIDATE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "common/csv.h"
#include "common/error.h"
#include "common/sbuf.h"
#include "validate.h"

/* Where the traces go (validate_trace.c): the user's --trace-dir (made
 * when missing, kept) or a temporary directory (removed by close). */
struct weft_val_tdir {
	char path[1024];
	int temp;
};
int weft_val_tdir_open(const char *dir, struct weft_val_tdir *d, struct weft_error *err);
/* Removes what open made when the directory is temporary: the traces
 * listed and the directory. */
void weft_val_tdir_close(struct weft_val_tdir *d, const struct weft_val_trace *traces, uint32_t n);
/* Fills t for workload at size: reuses DIR/WORKLOAD-SIZE.wtr when it is a
 * trace of that workload and size, else traces the workload into it
 * (written to a temporary name and renamed when complete). A file there
 * that is not such a trace is an error saying to delete it. */
int weft_val_trace_get(const struct weft_val_tdir *d, const char *workload, enum weft_size size,
		       struct weft_val_trace *t, struct weft_error *err);

/* The formats (validate_report.c, validate_table.c). */
void weft_val_format_table(const struct weft_val_report *r, struct weft_sbuf *out);
void weft_val_format_csv(const struct weft_val_report *r, struct weft_sbuf *out);
void weft_val_format_json(const struct weft_val_report *r, struct weft_sbuf *out);

/* "speedup, cfd", "mean speedup, 7 kernels", "comp energy share, ..." */
void weft_val_describe_metric(const struct weft_val_claim *c, char *out, size_t len);
/* "fermi-sm.ini vs sgmf-core.ini fabric.token_buffer=16" */
void weft_val_describe_configs(const struct weft_val_claim *c, char *out, size_t len);
/* "%.4g"; "-" for NAN */
void weft_val_num(char *out, size_t len, double v);

#endif
