#!/bin/sh
# bench_parallel.sh - part of `make bench`: what -j buys (issue 16 parts 1
# and 2; docs/emulator.md "Parallel emulation", docs/estimate.md
# "Parallel replay").
#
# Every figure is a whole process's wall clock (best of REPS runs), so it
# includes what does not run in parallel (loading, the report, the trace's
# index and fsync). On a machine shared with other work the 2-worker
# figures are what the cores left over allow: the load average is printed
# with them.
#
# 1. Trace writing (part 2): per workload, `weft-trace run W -j 1` without
#    and with `-o` (emulation alone, emulation + trace writer, one core):
#    the writer's cost as the ratio of the two (target <= 1.3x).
# 2. Emulation + trace writing, -j 1 against -j 2: thread instructions per
#    second on one core, and the speedup with 2 workers (target >= 1.7x).
# 3. Replay, for each model (simt fermi-sm, sgmf sgmf-core, dmt dmt-cgra,
#    vt vt-c4v1r128+bi, overlay overlay-ht8 on the shader-style kernel):
#    one config (-j 2: decoding ahead of the timing) and a 4-point sweep
#    whose points each replay (-j 2: two points timed at once; a sweep of
#    keys the replay does not read, e.g. the clock, shares one replay and
#    gains only the decoding), thread instructions replayed per second on
#    one core (points x instructions / seconds) and the speedup with 2
#    workers (target >= 1.7x).
#    Reports are checked to be the same for -j 1 and -j 2 as they go.
#
# usage: sh tests/bench_parallel.sh [size] [workloads...]
#        (default: default  sgemm hotspot bfs matmul pathfinder; the overlay
#        replays sgemm_shader)

size=${1:-default}
[ $# -gt 0 ] && shift
wls=${*:-sgemm hotspot bfs matmul pathfinder}
REPS=${REPS:-3}
cd "$(dirname "$0")/.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
for b in "$T" "$E"; do
	if [ ! -x "$b" ]; then
		echo "bench_parallel: $b is missing; run make first" >&2
		exit 2
	fi
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-bpar.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM

now() { date +%s.%N; }
# best wall seconds of REPS runs of "$@" (stdout to $dir/out)
best() {
	b=""
	i=0
	while [ $i -lt "$REPS" ]; do
		t0=$(now)
		"$@" >"$dir/out" 2>"$dir/err" || { echo "bench_parallel: $* failed:" >&2; cat "$dir/err" >&2; echo fail; return 1; }
		t1=$(now)
		b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { d = z - a; if (b == "" || d < b) print d; else print b }')
		i=$((i + 1))
	done
	echo "$b"
}
insts() { awk '$1 == "thread" && $2 == "insts" { print $3; exit }' "$1"; }
load() { awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?"; }

echo "weft bench: parallel emulation and replay, size $size, best of $REPS, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) CPUs online, load average $(load) at the start"
echo
echo "trace writing (one core, -j 1): emulation alone against emulation + writer (target <= 1.3x)"
printf '%-12s %14s %12s %12s %8s\n' workload "thread insts" "emulate s" "+ write s" ratio
for w in $wls; do
	a=$(best "$T" run "$w" --size "$size" -j 1) || continue
	n=$(insts "$dir/out")
	b=$(best "$T" run "$w" --size "$size" -j 1 -o "$dir/$w.wtr") || continue
	awk -v w="$w" -v n="$n" -v a="$a" -v b="$b" 'BEGIN {
		printf "%-12s %14s %12.3f %12.3f %7.2fx\n", w, n, a, b, b / a }'
done | tee "$dir/write"
awk '{ r = $5; sub(/x$/, "", r); s += r; k++ } END { if (k) printf "%-12s %14s %12s %12s %7.2fx  (target 1.3x: %s)\n", "mean", "", "", "", s / k, (s / k <= 1.3) ? "met" : "NOT met" }' "$dir/write"

echo
echo "emulation + trace writing: -j 1 against -j 2 (target speedup >= 1.7x; load average $(load))"
printf '%-12s %14s %14s %10s %10s %8s\n' workload "thread insts" "inst/s -j 1" "-j 1 s" "-j 2 s" speedup
for w in $wls; do
	a=$(best "$T" run "$w" --size "$size" -j 1 -o "$dir/$w-1.wtr") || continue
	n=$(insts "$dir/out")
	b=$(best "$T" run "$w" --size "$size" -j 2 -o "$dir/$w-2.wtr") || continue
	cmp -s "$dir/$w-1.wtr" "$dir/$w-2.wtr" || echo "bench_parallel: $w: the traces of -j 1 and -j 2 DIFFER" >&2
	awk -v w="$w" -v n="$n" -v a="$a" -v b="$b" 'BEGIN {
		printf "%-12s %14s %14.3g %10.3f %10.3f %7.2fx\n", w, n, n / a, a, b, a / b }'
done | tee "$dir/emu"
awk '{ r = $6; sub(/x$/, "", r); s += r; k++ } END { if (k) printf "%-12s %14s %14s %10s %10s %7.2fx  (target 1.7x: %s)\n", "mean", "", "", "", "", s / k, (s / k >= 1.7) ? "met" : "NOT met" }' "$dir/emu"

# the overlay runs shader-style kernels only
"$T" run sgemm_shader --size "$size" -j 0 -o "$dir/sgemm_shader.wtr" >/dev/null 2>&1 ||
	echo "bench_parallel: cannot trace sgemm_shader" >&2

echo
echo "replay: -j 1 against -j 2, one config and a 4-point sweep (target speedup >= 1.7x; load average $(load))"
printf '%-8s %-12s %-6s %14s %14s %10s %10s %8s\n' model workload points "thread insts" "inst/s -j 1" "-j 1 s" "-j 2 s" speedup
for spec in "simt fermi-sm core.num_sm=1,2,4,8" \
	    "sgmf sgmf-core fabric.cores=1,2,4,8" \
	    "dmt dmt-cgra fabric.token_buffer=2,4,8,16" \
	    "vt vt-c4v1r128+bi tile.clock_mhz=200,300,400,500" \
	    "overlay overlay-ht8 overlay.batches=2,4,8,16"; do
	set -- $spec
	model=$1 cfg=$2 sweep=$3
	if [ "$model" = overlay ]; then list=sgemm_shader; else list=$wls; fi
	for w in $list; do
		[ -f "$dir/$w.wtr" ] || "$T" run "$w" --size "$size" -o "$dir/$w.wtr" >/dev/null 2>&1 || continue
		n=$("$T" info "$dir/$w.wtr" 2>/dev/null | awk '$1 == "thread" && $2 == "insts" { print $3; exit }')
		for pts in 1 4; do
			if [ $pts = 1 ]; then sw=""; else sw="--sweep $sweep"; fi
			# shellcheck disable=SC2086 # sw is an option and its value
			a=$(best "$E" "$dir/$w.wtr" -c "$cfg" $sw --format json -j 1) || continue
			cp "$dir/out" "$dir/r1"
			# shellcheck disable=SC2086
			b=$(best "$E" "$dir/$w.wtr" -c "$cfg" $sw --format json -j 2) || continue
			cmp -s "$dir/r1" "$dir/out" || echo "bench_parallel: $model $w: the reports of -j 1 and -j 2 DIFFER" >&2
			awk -v m="$model" -v w="$w" -v p="$pts" -v n="$n" -v a="$a" -v b="$b" 'BEGIN {
				printf "%-8s %-12s %-6s %14s %14.3g %10.3f %10.3f %7.2fx\n", m, w, p, n, n * p / a, a, b, a / b }'
		done
	done
done | tee "$dir/rep"
for pts in 1 4; do
	awk -v p=$pts '$3 == p { r = $8; sub(/x$/, "", r); s[$1] += r; k[$1]++ }
		END { for (m in s) printf "mean %-8s %d point%s: %.2fx (target 1.7x: %s)\n", m, p, p == 1 ? "" : "s",
			s[m] / k[m], (s[m] / k[m] >= 1.7) ? "met" : "NOT met" }' "$dir/rep" | sort
done
echo "load average at the end: $(load)"
