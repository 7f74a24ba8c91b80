/*
 * report.c - formatting a report (report.h): the dispatch to each format's
 * formatter (report_impl.h).
 */
#include "report.h"

#include "report_impl.h"

int weft_est_report_format(const struct weft_est_report *r, enum weft_format fmt,
			   struct weft_sbuf *out, struct weft_error *err)
{
	return weft_est_report_format_opts(r, fmt, NULL, out, err);
}

int weft_est_report_format_opts(const struct weft_est_report *r, enum weft_format fmt,
				const struct weft_est_table_opts *o, struct weft_sbuf *out,
				struct weft_error *err)
{
	static const struct weft_est_table_opts defaults = { NULL, 0 };
	int rc;
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
	case WEFT_FMT_LATEX:
		if ((rc = weft_est_format_latex(r, o ? o : &defaults, out, err)) < 0)
			return rc;
		break;
	case WEFT_FMT_MARKDOWN:
		if ((rc = weft_est_format_markdown(r, o ? o : &defaults, out, err)) < 0)
			return rc;
		break;
	default:
		return weft_error_set(err, WEFT_ERR_INTERNAL, "unknown report format %d", (int)fmt);
	}
	if (out->failed)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory formatting the report");
	return 0;
}
