/*
 * format.h - the report formats every weft command offers with --format:
 * a table for people, CSV for spreadsheets and scripts, JSON for programs;
 * weft-estimate also writes LaTeX and Markdown tables for papers.
 */
#ifndef WEFT_FORMAT_H
#define WEFT_FORMAT_H

enum weft_format { WEFT_FMT_TABLE = 0, WEFT_FMT_CSV, WEFT_FMT_JSON, WEFT_FMT_LATEX,
		   WEFT_FMT_MARKDOWN };

/* "table" | "csv" | "json" -> its format; -1 for any other name. */
int weft_format_parse(const char *name);

/* The same, and also "latex" and "markdown": the tables for papers that
 * weft-estimate's report offers (docs/estimate.md). */
int weft_format_parse_report(const char *name);

#endif
