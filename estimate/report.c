/*
 * report.c - formatting a report (report.h).
 */
#include "report.h"

#include "report_impl.h"

int weft_est_report_format(const struct weft_est_report *r, enum weft_format fmt,
			   struct weft_sbuf *out, struct weft_error *err)
{
	if (r->nconfigs == 0 || r->baseline >= r->nconfigs)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "report without configs or baseline");
	if (r->nshards)
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "a shard's report is a part (weft_est_shard_write), not a report");
	switch (fmt) {
	case WEFT_FMT_TABLE:
		weft_est_format_table(r, out);
		break;
	case WEFT_FMT_CSV:
		weft_est_format_csv(r, out);
		break;
	case WEFT_FMT_JSON:
		weft_est_format_json(r, out);
		break;
	default:
		return weft_error_set(err, WEFT_ERR_INTERNAL, "unknown report format %d", (int)fmt);
	}
	if (out->failed)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory formatting the report");
	return 0;
}
