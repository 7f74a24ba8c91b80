#!/bin/sh
# memlimit.sh - part of `make check`: every model family replays a long
# trace under an address-space limit (RLIMIT_AS, what `ulimit -v` sets) that
# a model whose memory grows with the trace would exceed, and its report is
# the one it prints without the limit.
#
# The trace is dither at its default size (0.4 s to make): 1278 launches
# (one per pixel diagonal), 9.6e6 thread instructions. Before issue 16 the
# fabric model kept every launch's replay (about 130 KB each: its L2
# contents and held latencies) for re-timing in the same process, and its
# peak memory grew with the number of launches: 162 MB on this trace, and
# it ran out of memory at launch 487 under the limit below. Now the
# fabric's replay cache is bounded (8 MiB, docs/models/dataflow.md "Cost and
# sweeps") and every model stays within the limit: configs fermi-sm (SIMT),
# sgmf-core (SGMF fabric), dmt-cgra (dMT fabric), vt-c4v1r128+bi (Maven
# tile) and overlay-ht8 (FPGA overlay). Their peak resident memory must
# also stay under PEAK_MIB (a check that does not depend on how many
# threads the machine starts): 32 MiB, where they measure 9-20 MiB on the
# 2-core development machine (12-21 MiB before the launch results kept
# only the stats they have and the decoder bounded its work ahead by
# bytes); a model that kept 26 KB per launch would exceed it.
#
# The limit is 48 MiB plus 10 MiB per online CPU (the trace decoder starts
# one thread per CPU but one, each with an 8 MiB stack reservation), with
# MALLOC_ARENA_MAX=1 so that glibc does not reserve 64 MiB of address space
# per thread arena: what counts is what the replay allocates.
#
# Sanitizer builds (make check SAN=1) reserve terabytes of shadow address
# space and double resident memory: the test says so and skips.
#
# usage: sh tests/memlimit.sh        (WEFT_BIN, WEFT_BUILD: the trees to test)

cd "$(dirname "$0")/.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
P=${WEFT_BUILD:-build}/tests/tools/peakrss
for b in "$T" "$E" "$P"; do
	if [ ! -x "$b" ]; then
		echo "memlimit: $b is missing; run make first" >&2
		exit 2
	fi
done
if grep -q __asan_init "$E" 2>/dev/null; then
	echo "memlimit: skipped: $E is built with AddressSanitizer, whose shadow memory needs more address space than any limit this test sets (run it with make check)"
	exit 0
fi
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
LIMIT_MIB=$((48 + 10 * ncpu))
PEAK_MIB=32

dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-memlimit.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM

if ! "$T" run dither -o "$dir/dither.wtr" >"$dir/out" 2>&1; then
	echo "memlimit: FAILED: weft-trace run dither:" >&2
	sed 's/^/  | /' "$dir/out" >&2
	exit 1
fi
launches=$("$T" info "$dir/dither.wtr" | awk '$1 == "launches" { print $2 }')
echo "== memlimit: dither ($launches launches) under RLIMIT_AS $LIMIT_MIB MiB, peak resident memory at most $PEAK_MIB MiB"
status=0
for c in fermi-sm sgmf-core dmt-cgra vt-c4v1r128+bi overlay-ht8; do
	if ! "$E" "$dir/dither.wtr" -c "$c" --format csv >"$dir/free.csv" 2>"$dir/err"; then
		echo "memlimit: FAILED: $c without a limit:" >&2
		sed 's/^/  | /' "$dir/err" >&2
		status=1
		continue
	fi
	if ! MALLOC_ARENA_MAX=1 "$P" -a "$LIMIT_MIB" -o "$dir/peak" -- \
		"$E" "$dir/dither.wtr" -c "$c" --format csv >"$dir/lim.csv" 2>"$dir/err"; then
		echo "memlimit: FAILED: $c under RLIMIT_AS $LIMIT_MIB MiB:" >&2
		sed 's/^/  | /' "$dir/err" >&2
		status=1
		continue
	fi
	if ! cmp -s "$dir/free.csv" "$dir/lim.csv"; then
		echo "memlimit: FAILED: $c: the report under the limit differs from the one without" >&2
		status=1
		continue
	fi
	kib=$(awk '$1 == "peak_kib" { print $2 }' "$dir/peak")
	if [ -z "$kib" ] || [ "$kib" -gt $((PEAK_MIB * 1024)) ]; then
		echo "memlimit: FAILED: $c: peak resident memory ${kib:-?} KiB, more than $PEAK_MIB MiB" >&2
		status=1
		continue
	fi
	printf '   %-16s ok, peak %6.1f MiB\n' "$c" "$(echo "$kib" | awk '{ print $1 / 1024 }')"
done
[ $status = 0 ] || echo "memlimit: FAILED" >&2
exit $status
