/*
 * report.h - weft-estimate reports: a struct weft_est_report (estimate.h)
 * formatted as a side-by-side table for people, CSV for spreadsheets and
 * scripts, or JSON. docs/estimate.md lists every column and key with its
 * unit. Every format records the weft version, the trace's hash, the
 * sampling, and each config's path, hash and overrides, so a number in a
 * paper can be traced back to what produced it.
 *
 * The formatters append to a text buffer (sbuf.h); the caller prints it or
 * writes it with common/file.h's weft_write_atomic.
 */
#ifndef WEFT_REPORT_H
#define WEFT_REPORT_H

#include "estimate.h"
#include "common/format.h"
#include "common/sbuf.h"

int weft_est_report_format(const struct weft_est_report *r, enum weft_format fmt,
			   struct weft_sbuf *out, struct weft_error *err);

#endif
