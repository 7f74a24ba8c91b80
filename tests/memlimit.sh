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
# A long trace can also be long in its CTAs. The second case is one CTA of
# sgemm's kernel (trace/workloads/sgemm.ptx through a launch spec written
# here: m = n = 64, k = 2048, 4 times the CTA of sgemm at large size; 4.7e6
# accesses, 1.4e7 thread instructions, 0.1 s to make). The trace decoder
# holds the decoded CTA and the fabric keeps each access's pc, so memory
# grows with this CTA for every fabric config; what the dMT analysis adds
# to that must not. dmt-cgra runs at -j 1 (no decoder threads) under
# RLIMIT_AS 160 MiB, where it needs about 124 MiB; before its reuse pass
# ran per barrier epoch and its global word table held only stored words,
# it kept 4 bytes per access and a slot per distinct value and word (peak
# 184 MiB resident against sgmf-core's 65 MiB) and ran out of memory under
# any limit below about 220 MiB. Its peak resident memory must also stay
# within CTA_EXTRA_MIB (16) of sgmf-core's on the same trace (measured
# 73.5 against 65.3 MiB on the development machine).
#
# The third case is one CTA of sgemm_shader (trace/workloads/sgemm_shader.ptx,
# m = n = 16, k = 8192: 256 threads of 43000 instructions, 4.2e6 accesses,
# 15 times the CTA of sgemm_shader at large size). The overlay decodes each
# group of 4 threads into a batch stream of 4-byte records; it kept one
# stream per group (64 per CTA: about 9 MB here, 16 MiB of room as it
# doubled), so its memory grew with the CTA beside the decoder's; now
# groups with the same records share one stream (docs/models/overlay.md,
# "Replay"). overlay-ht8 runs at -j 1 under RLIMIT_AS 92 MiB, where it
# needs about 84 MiB, as `weft-trace verify` (the decoder alone) does; the
# old model needed about 98 MiB. Its peak resident memory must also stay
# within OV_EXTRA_MIB (4) of `weft-trace verify`'s on the same trace
# (measured 41.7 against 42.1 MiB on the development machine; 51.8 before).
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

# limited_cta CFG TRACE LIMIT_MIB REF_KIB EXTRA_MIB REF_WHAT REF_LABEL: CFG
# replays TRACE (one long CTA) at -j 1 without a limit and under RLIMIT_AS
# LIMIT_MIB, with the same report, and peaks at most EXTRA_MIB over
# REF_KIB (the peak of REF_WHAT); says what failed and returns 1.
limited_cta() {
	if ! "$E" "$2" -c "$1" -j 1 --format csv >"$dir/free.csv" 2>"$dir/err"; then
		echo "memlimit: FAILED: $1 on ${2##*/} without a limit:" >&2
		sed 's/^/  | /' "$dir/err" >&2
		return 1
	fi
	if ! MALLOC_ARENA_MAX=1 "$P" -a "$3" -o "$dir/peak" -- \
		"$E" "$2" -c "$1" -j 1 --format csv >"$dir/lim.csv" 2>"$dir/err"; then
		echo "memlimit: FAILED: $1 on ${2##*/} under RLIMIT_AS $3 MiB:" >&2
		sed 's/^/  | /' "$dir/err" >&2
		return 1
	fi
	if ! cmp -s "$dir/free.csv" "$dir/lim.csv"; then
		echo "memlimit: FAILED: $1 on ${2##*/}: the report under the limit differs from the one without" >&2
		return 1
	fi
	kib=$(awk '$1 == "peak_kib" { print $2 }' "$dir/peak")
	if [ -z "$kib" ] || [ -z "$4" ] || [ "$kib" -gt $(($4 + $5 * 1024)) ]; then
		echo "memlimit: FAILED: $1 on ${2##*/}: peak ${kib:-?} KiB, more than $5 MiB over $6 (${4:-?} KiB)" >&2
		return 1
	fi
	printf '   %-16s ok, peak %6.1f MiB (%s %.1f MiB)\n' "$1" \
		"$(echo "$kib" | awk '{ print $1 / 1024 }')" "$7" "$(echo "$4" | awk '{ print $1 / 1024 }')"
}

# one long CTA: the dMT analysis's own memory must not grow with it
LONG_LIMIT_MIB=160
CTA_EXTRA_MIB=16
cat >"$dir/long.ini" <<EOF
[kernel]
ptx = $PWD/trace/workloads/sgemm.ptx
name = sgemm_rt
grid = 1
block = 16,16
[buffer a]
type = f32
count = 131072
init = random
seed = 1
[buffer b]
type = f32
count = 131072
init = random
seed = 2
[buffer c]
type = f32
count = 4096
init = random
seed = 3
[args]
A = buffer:a
B = buffer:b
C = buffer:c
m = u32:64
n = u32:64
k = u32:2048
alpha = f32:1.5
beta = f32:0.5
EOF
if ! "$T" run --spec "$dir/long.ini" -o "$dir/long.wtr" >"$dir/out" 2>&1; then
	echo "memlimit: FAILED: weft-trace run --spec (one sgemm CTA, k = 2048):" >&2
	sed 's/^/  | /' "$dir/out" >&2
	exit 1
fi
echo "== memlimit: one sgemm CTA of 4.7e6 accesses: dmt-cgra -j 1 under RLIMIT_AS $LONG_LIMIT_MIB MiB, peak within $CTA_EXTRA_MIB MiB of sgmf-core's"
long=0
if ! "$P" -o "$dir/peak" -- "$E" "$dir/long.wtr" -c sgmf-core -j 1 --format csv >/dev/null 2>"$dir/err"; then
	echo "memlimit: FAILED: sgmf-core on the long CTA:" >&2
	sed 's/^/  | /' "$dir/err" >&2
	long=1
fi
sgmf_kib=$(awk '$1 == "peak_kib" { print $2 }' "$dir/peak")
[ $long = 0 ] && ! limited_cta dmt-cgra "$dir/long.wtr" "$LONG_LIMIT_MIB" "$sgmf_kib" "$CTA_EXTRA_MIB" \
	"sgmf-core's" sgmf-core && long=1
[ $long = 0 ] || status=1

# one long shader CTA: the overlay's batch streams must not grow with it
OV_LIMIT_MIB=92
OV_EXTRA_MIB=4
cat >"$dir/ovlong.ini" <<EOF
[kernel]
ptx = $PWD/trace/workloads/sgemm_shader.ptx
name = sgemm_shader
grid = 1
block = 16,16
[buffer a]
type = f32
count = 131072
init = random
seed = 1
[buffer b]
type = f32
count = 131072
init = random
seed = 2
[buffer c]
type = f32
count = 256
init = random
seed = 3
[args]
A = buffer:a
B = buffer:b
C = buffer:c
m = u32:16
n = u32:16
k = u32:8192
alpha = f32:1.5
beta = f32:0.5
EOF
ov=0
if ! "$T" run --spec "$dir/ovlong.ini" -o "$dir/ovlong.wtr" >"$dir/out" 2>&1; then
	echo "memlimit: FAILED: weft-trace run --spec (one sgemm_shader CTA, k = 8192):" >&2
	sed 's/^/  | /' "$dir/out" >&2
	ov=1
fi
echo "== memlimit: one sgemm_shader CTA of 4.2e6 accesses: overlay-ht8 -j 1 under RLIMIT_AS $OV_LIMIT_MIB MiB, peak within $OV_EXTRA_MIB MiB of decoding the trace alone"
if [ $ov = 0 ] && ! "$P" -o "$dir/peak" -- "$T" verify "$dir/ovlong.wtr" >/dev/null 2>"$dir/err"; then
	echo "memlimit: FAILED: weft-trace verify on the long shader CTA:" >&2
	sed 's/^/  | /' "$dir/err" >&2
	ov=1
fi
dec_kib=$(awk '$1 == "peak_kib" { print $2 }' "$dir/peak")
[ $ov = 0 ] && ! limited_cta overlay-ht8 "$dir/ovlong.wtr" "$OV_LIMIT_MIB" "$dec_kib" "$OV_EXTRA_MIB" \
	"decoding alone" "weft-trace verify" && ov=1
[ $ov = 0 ] || status=1
[ $status = 0 ] || echo "memlimit: FAILED" >&2
exit $status
