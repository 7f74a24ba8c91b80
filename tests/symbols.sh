#!/bin/sh
# symbols.sh - fails when libweft.a exports a symbol without the weft_ prefix.
#
# Every function or object a library file shares with another file is part
# of what a program linking libweft.a sees, so it must carry the weft_ prefix
# (a C library has one namespace; an unprefixed `fabric_spill` or `wt_crc32`
# could collide with the user's own names). A helper used by one file only is
# `static` instead. Lists the offenders with the object that defines them.
# AddressSanitizer's __odr_asan.NAME markers (make check SAN=1) are the
# compiler's, not the library's, and are not counted.
# Run from the repository root after `make`; `make check` runs it.
set -u
lib=${1:-build/libweft.a}
if [ ! -f "$lib" ]; then
	echo "symbols: no $lib (run make first)"
	exit 2
fi
bad=$(nm -g --defined-only "$lib" | awk '
	/:$/ { obj = substr($0, 1, length($0) - 1); next }
	NF == 3 && $3 !~ /^weft_/ && $3 !~ /^__odr_asan[.]/ { print "  " obj ": " $3 }')
if [ -n "$bad" ]; then
	echo "symbols: libweft.a exports names without the weft_ prefix"
	echo "(rename them weft_..., or make them static if one file uses them):"
	echo "$bad"
	exit 1
fi
n=$(nm -g --defined-only "$lib" | awk 'NF == 3 && $3 !~ /^__odr_asan[.]/' | wc -l)
echo "symbols: all $n exported names of $lib start with weft_"
