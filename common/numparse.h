/*
 * numparse.h - the numbers users give weft on command lines and in
 * environment variables: counts (instruction budgets) and sizes in bytes.
 * Strict: the whole string must be the number, so `10x` or `-1` is
 * refused rather than read as 10 or a huge value.
 */
#ifndef WEFT_NUMPARSE_H
#define WEFT_NUMPARSE_H

#include <stdint.h>

/* A count: decimal digits (up to UINT64_MAX), or a whole number written
 * as a float, e.g. 1e9 (at least 1, below 1.8e19). 0 or -1. */
int weft_parse_count(const char *s, uint64_t *out);

/* A size in bytes, at least 1: digits with an optional K, M, G or T
 * (powers of 1024; "KiB" and "KB" spelled alike), e.g. 8G. 0 or -1
 * (also when the value overflows 64 bits). */
int weft_parse_bytes(const char *s, uint64_t *out);

#endif
