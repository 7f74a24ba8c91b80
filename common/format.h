/*
 * format.h - the report formats every weft command offers with --format:
 * a table for people, CSV for spreadsheets and scripts, JSON for programs.
 */
#ifndef WEFT_FORMAT_H
#define WEFT_FORMAT_H

enum weft_format { WEFT_FMT_TABLE = 0, WEFT_FMT_CSV, WEFT_FMT_JSON };

/* "table" | "csv" | "json" -> its format; -1 for any other name. */
int weft_format_parse(const char *name);

#endif
