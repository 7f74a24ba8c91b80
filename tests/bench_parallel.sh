#!/bin/sh
# bench_parallel.sh - part of `make bench`: what -j buys (issue 16 parts 1
# and 2; docs/emulator.md "Parallel emulation", docs/estimate.md
# "Parallel replay").
#
# Figures are whole processes (best of REPS runs), so they include what
# does not run in parallel (loading, the report, the trace's index and
# fsync): one-core speeds and the writer's ratio from CPU seconds (user +
# system, `times`: 10 ms steps, so use a larger size for small runs), the
# speedups from wall seconds. On a machine shared with other work the
# 2-worker figures are what the cores left over allow: the load average is
# printed with them, and the CPU seconds of -j 1 and -j 2 side by side
# show what the threads cost in work (a -j 2 run whose CPU seconds are
# close to -j 1's would take about half the wall time on two idle cores).
#
# 1. Trace writing (part 2): per workload, `weft-trace run W -j 1` without
#    and with `-o` (emulation alone, emulation + trace writer, one core):
#    the writer's cost as the ratio of the two (target <= 1.3x). Measured
#    by hand with the program kept per kernel (large size, best of 3,
#    CPU seconds, load average 9 to 14): sgemm 1.28x, nn 1.27x, hotspot
#    1.68x, gaussian 1.84x, bfs 2.41x (docs/trace-format.md, "Measured",
#    with callgrind's counts). The default workloads are sgemm, hotspot,
#    bfs (divergent) and gaussian (798 launches of small CTAs: until the
#    workers claimed CTAs in batches its -j 2 run took 70.7 s against 6.1 s
#    for -j 1; docs/emulator.md "In order").
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
# 4. Replay of one config at size ONE_SIZE (default large; empty: skip),
#    per model on the workloads whose profiles differ most (simt and sgmf
#    on sgemm and bfs, dmt on hotspot, vt on sgemm and bfs, the overlay on
#    sgemm_shader): what preparing CTAs on the decoder thread buys, with
#    the caller's thread's share of the CPU (perf, when it works) and the
#    two-core bound it sets (see below). The calling thread also decodes
#    and prepares whenever its next CTA is not ready (work-helping,
#    trace/format/trace_foreach.c), so its share includes that decoding:
#    on a loaded machine, where the decoder thread is often descheduled,
#    it takes more of it than on idle cores. Measured on the 2-core
#    machine while other work loaded it (perf, -j 2, large; caller's
#    share, 2-3 runs): fermi-sm bfs 65.4-77.9% (69.0-71.8% before);
#    vt-c4v1r128+bi bfs 51.1-60.9% (23.8% before, when its one decoder
#    thread was the critical path at 76.2%); vt on sgemm large 100% (its
#    CTAs, 10.7 MB decoded, are decoded on the calling thread under the
#    16 MiB decode-ahead bound); simt on sgemm large 100% before its warp
#    streams became a compact preparation (trace.h), 39.2% after (one
#    decoder thread ahead, the critical path at 60.8%), 51.2% once the
#    grouping prefetched each lane's addresses (loaded machine,
#    perf-based, one run each); overlay-ht8 sgemm_shader
#    66.7-67.5% (64.8% before, but the caller then waited after each run
#    of the machine; docs/estimate.md "Parallel replay").
#    Whole run 2026-11-28 (idle, REPS=2), after a decoded address became a
#    4-byte offset (more work on the decoding side, less memory) and the
#    12 MiB decode-ahead bound: large size, speedup (caller's share):
#    simt sgemm 1.84x (52.0%; -j 1 3.64 s CPU, slower than before, so
#    part of the gain is the one-core loss), simt bfs 1.47x (67.7%), sgmf
#    sgemm 1.31x (71.3%), sgmf bfs 1.75x, dmt hotspot 1.80x, vt sgemm
#    1.80x, vt bfs 1.74x, overlay 1.62x; mean bound 1.76x. Writer at
#    large size, one core: sgemm 1.25x, hotspot 1.63x; emulation +
#    writing -j 2: 1.94x, 1.84x.
#    Whole run 2026-11-28 (idle, REPS=2) once the fabric's prepared
#    accesses were stored in the order its caches see them: large size,
#    simt sgemm 1.82x (50.7%), simt bfs 1.48x (66.8%), sgmf sgemm 1.69x
#    (45.3%; by hand, best of 2 alternating, 1.78x), sgmf bfs 1.79x
#    (54.2%), dmt hotspot 1.95x, vt sgemm 1.80x, vt bfs 1.60x (51.2%: its
#    -j 2 run takes 22% more CPU, the copies of the uTs it leaves to the
#    calling thread and colder caches), overlay 1.63x (59.0%); mean bound
#    1.83x. Default size, one point: simt 1.44x, sgmf 1.52x, dmt 1.72x,
#    vt 1.47x, overlay 1.39x (runs of 0.04-0.3 s; sgemm has 16 CTAs);
#    4 points: 1.61x, 1.80x, 1.90x, 1.82x and the overlay's shared replay
#    1.02x. Writer, one core: sgemm 1.18x, hotspot 1.61x; emulation +
#    writing -j 2: 1.91x, 1.84x.
#    Run 2026-11-29 (idle, REPS=2, EMU_WLS="sgemm hotspot bfs gaussian
#    nn"): writer, one core, sgemm 1.28x, hotspot 1.75x, bfs 2.50x,
#    gaussian 1.91x, nn 1.46x; emulation + writing -j 2: sgemm 1.95x,
#    hotspot 1.74x, but bfs 1.06x, nn 1.15x and gaussian 0.09x (70.7 s
#    against 6.1 s): workers took one CTA per turn, and a turn's hand-over
#    costs more than a small CTA. Since workers claim batches and encode
#    each CTA before its turn (docs/emulator.md "In order" and "Speed"),
#    by hand on the same machine, then shared (best of 3, -j 1 / -j 2
#    wall seconds): sgemm 3.38-3.89 / 1.78-2.05, hotspot 2.32-2.42 /
#    1.23-1.60, bfs 4.34-4.91 / 2.24-2.38, gaussian 5.70-5.74 / 3.87-4.17,
#    nn 2.81-3.26 / 1.93-2.10.
#    Whole run 2026-11-29 (REPS=2, EMU_WLS as above; idle at the start,
#    loaded by other work during the large replays), once a worker polls
#    for its turn and keeps one recorder: writer, one core, sgemm 1.25x,
#    hotspot 1.66x, bfs 2.30x, gaussian 1.79x, nn 1.17x; emulation +
#    writing -j 2: sgemm 1.89x, hotspot 2.10x, bfs 1.85x, gaussian 1.35x
#    (by hand right after, 3 runs each: -j 1 5.92-6.15 s, -j 2 3.18-3.85
#    s, 1.6-1.9x), nn 1.69x; replay at large size (speedup, caller's
#    share, bound): simt sgemm 1.61x (48.4%, 1.94x), simt bfs 1.34x
#    (65.1%, 1.54x), sgmf sgemm 1.48x (45.9%), sgmf bfs 1.47x (52.3%),
#    dmt hotspot 1.85x, vt sgemm 1.19x (its -j 2 run took 13.4 s of CPU
#    against 8.4: the load), vt bfs 2.03x, overlay 1.67x (55.9%); mean
#    bound 1.86x. Default size, one point: simt 1.50x, sgmf 1.50x, dmt
#    1.67x, vt 1.64x, overlay 1.55x (runs of 0.04-0.3 s).
#
# usage: sh tests/bench_parallel.sh [size] [workloads...]
#        (default: default  sgemm hotspot bfs matmul pathfinder: the replays;
#        the overlay replays sgemm_shader). Parts 1 and 2 run EMU_WLS
#        (default: sgemm hotspot bfs gaussian) at EMU_SIZE (default: large, about 1e9
#        thread instructions): at default size a run is a few tens of
#        milliseconds of CPU, below what `times` resolves and less than the
#        trace's fsync and the process's start.

size=${1:-default}
[ $# -gt 0 ] && shift
wls=${*:-sgemm hotspot bfs matmul pathfinder}
REPS=${REPS:-3}
esize=${EMU_SIZE:-large}
lsize=${ONE_SIZE-large}
ewls=${EMU_WLS:-sgemm hotspot bfs gaussian}
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
# CPU seconds (user + system) of this shell's finished children so far,
# from the output of `times` in file $1 (times runs in the shell itself: in
# a command substitution it would see none of them)
cpu() { awk 'NR == 2 { u = $1; s = $2; sub(/s$/, "", u); sub(/s$/, "", s); split(u, a, "m"); split(s, b, "m"); printf "%.3f\n", a[1] * 60 + a[2] + b[1] * 60 + b[2] }' "$1"; }
# "WALL CPU": the least wall and the least CPU seconds of REPS runs of "$@"
# (stdout to $dir/out)
best() {
	bw=""
	bc=""
	i=0
	while [ $i -lt "$REPS" ]; do
		times >"$dir/t0"
		t0=$(now)
		"$@" >"$dir/out" 2>"$dir/err" || { echo "bench_parallel: $* failed:" >&2; cat "$dir/err" >&2; return 1; }
		t1=$(now)
		times >"$dir/t1"
		c0=$(cpu "$dir/t0")
		c1=$(cpu "$dir/t1")
		bw=$(awk -v a="$t0" -v z="$t1" -v b="$bw" 'BEGIN { d = z - a; if (b == "" || d < b) print d; else print b }')
		bc=$(awk -v a="$c0" -v z="$c1" -v b="$bc" 'BEGIN { d = z - a; if (b == "" || d < b) print d; else print b }')
		i=$((i + 1))
	done
	echo "$bw $bc"
}
insts() { awk '$1 == "thread" && $2 == "insts" { print $3; exit }' "$1"; }
load() { awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?"; }

echo "weft bench: parallel emulation (size $esize) and replay (size $size), best of $REPS, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) CPUs online, load average $(load) at the start"
echo
echo "trace writing, size $esize (one core, -j 1): CPU seconds of emulation alone against emulation + writer (target <= 1.3x)"
printf '%-12s %14s %12s %12s %8s\n' workload "thread insts" "emulate cpu" "+ write cpu" ratio
for w in $ewls; do
	a=$(best "$T" run "$w" --size "$esize" -j 1) || continue
	n=$(insts "$dir/out")
	b=$(best "$T" run "$w" --size "$esize" -j 1 -o "$dir/$w-e.wtr") || continue
	echo "$a $b" | awk -v w="$w" -v n="$n" '{
		printf "%-12s %14s %12.3f %12.3f %7.2fx\n", w, n, $2, $4, ($2 > 0) ? $4 / $2 : 0 }'
done | tee "$dir/write"
awk '{ r = $5; sub(/x$/, "", r); s += r; k++ } END { if (k) printf "%-12s %14s %12s %12s %7.2fx  (target 1.3x: %s)\n", "mean", "", "", "", s / k, (s / k <= 1.3) ? "met" : "NOT met" }' "$dir/write"

echo
echo "emulation + trace writing, size $esize: -j 1 against -j 2, wall seconds (target speedup >= 1.7x; load average $(load))"
printf '%-12s %14s %14s %10s %10s %10s %10s %8s\n' workload "thread insts" "inst/cpu-s j1" "-j 1 cpu" "-j 2 cpu" "-j 1 s" "-j 2 s" speedup
for w in $ewls; do
	a=$(best "$T" run "$w" --size "$esize" -j 1 -o "$dir/$w-e1.wtr") || continue
	n=$(insts "$dir/out")
	b=$(best "$T" run "$w" --size "$esize" -j 2 -o "$dir/$w-e2.wtr") || continue
	cmp -s "$dir/$w-e1.wtr" "$dir/$w-e2.wtr" || echo "bench_parallel: $w: the traces of -j 1 and -j 2 DIFFER" >&2
	echo "$a $b" | awk -v w="$w" -v n="$n" '{
		printf "%-12s %14s %14.3g %10.3f %10.3f %10.3f %10.3f %7.2fx\n", w, n, ($2 > 0) ? n / $2 : 0, $2, $4, $1, $3, $1 / $3 }'
done | tee "$dir/emu"
awk '{ r = $8; sub(/x$/, "", r); s += r; k++ } END { if (k) printf "%-12s %14s %14s %10s %10s %10s %10s %7.2fx  (target 1.7x: %s)\n", "mean", "", "", "", "", "", "", s / k, (s / k >= 1.7) ? "met" : "NOT met" }' "$dir/emu"

rm -f "$dir"/*-e*.wtr
# the overlay runs shader-style kernels only
"$T" run sgemm_shader --size "$size" -j 0 -o "$dir/sgemm_shader.wtr" >/dev/null 2>&1 ||
	echo "bench_parallel: cannot trace sgemm_shader" >&2

echo
echo "replay: -j 1 against -j 2, one config and a 4-point sweep (target speedup >= 1.7x; load average $(load))"
printf '%-8s %-12s %-6s %14s %14s %10s %10s %10s %10s %8s\n' model workload points "thread insts" "inst/cpu-s j1" "-j 1 cpu" "-j 2 cpu" "-j 1 s" "-j 2 s" speedup
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
			echo "$a $b" | awk -v m="$model" -v w="$w" -v p="$pts" -v n="$n" '{
				printf "%-8s %-12s %-6s %14s %14.3g %10.3f %10.3f %10.3f %10.3f %7.2fx\n", m, w, p, n,
					($2 > 0) ? n * p / $2 : 0, $2, $4, $1, $3, $1 / $3 }'
		done
	done
done | tee "$dir/rep"
for pts in 1 4; do
	awk -v p=$pts '$3 == p { r = $10; sub(/x$/, "", r); s[$1] += r; k[$1]++ }
		END { for (m in s) printf "mean %-8s %d point%s: %.2fx (target 1.7x: %s)\n", m, p, p == 1 ? "" : "s",
			s[m] / k[m], (s[m] / k[m] >= 1.7) ? "met" : "NOT met" }' "$dir/rep" | sort
done

# 4. One config at a large size: the CTAs' preparation (the per-CTA part
#    of a model that needs no shared state: SIMT warp streams, fabric
#    accesses and visits, overlay batch streams) runs on the decoder
#    thread, the timing in CTA order on the caller's. Besides wall and CPU
#    seconds, where `perf record` works (Debian linux-perf; optional), the
#    caller's thread's share of the CPU samples of a -j 2 run (perf
#    cpu-clock, whose samples count what each thread ran whatever else
#    the machine runs) and the speedup two idle cores would give when
#    neither thread waits: 1 / (the larger thread's share). The caller
#    decodes when it would otherwise wait, so the bound holds unless the
#    decode-ahead runs out of slots; on a loaded machine the caller's
#    share grows with the decoding it takes over from a descheduled
#    decoder thread, so the bound reads low there; the wall speedup
#    moves with the load.
rm -f "$dir"/*.wtr
if [ -n "$lsize" ]; then
	canperf=0
	if command -v perf >/dev/null 2>&1 &&
	   perf record -q -e cpu-clock -o "$dir/probe.perf" true >/dev/null 2>&1; then
		canperf=1
	fi
	echo
	echo "replay, one config, size $lsize: -j 1 against -j 2 (target speedup >= 1.7x; load average $(load))"
	printf '%-8s %-12s %14s %14s %10s %10s %10s %10s %8s %8s %8s\n' model workload "thread insts" \
		"inst/cpu-s j1" "-j 1 cpu" "-j 2 cpu" "-j 1 s" "-j 2 s" speedup "main %" bound
	for spec in "simt fermi-sm sgemm" "simt fermi-sm bfs" "sgmf sgmf-core sgemm" "sgmf sgmf-core bfs" \
		    "dmt dmt-cgra hotspot" "vt vt-c4v1r128+bi sgemm" "vt vt-c4v1r128+bi bfs" \
		    "overlay overlay-ht8 sgemm_shader"; do
		set -- $spec
		model=$1 cfg=$2 w=$3
		[ -f "$dir/$w-L.wtr" ] || "$T" run "$w" --size "$lsize" -j 0 -o "$dir/$w-L.wtr" >/dev/null 2>&1 ||
			{ echo "bench_parallel: cannot trace $w at size $lsize" >&2; continue; }
		n=$("$T" info "$dir/$w-L.wtr" 2>/dev/null | awk '$1 == "thread" && $2 == "insts" { print $3; exit }')
		a=$(best "$E" "$dir/$w-L.wtr" -c "$cfg" --format json -j 1) || continue
		cp "$dir/out" "$dir/r1"
		b=$(best "$E" "$dir/$w-L.wtr" -c "$cfg" --format json -j 2) || continue
		cmp -s "$dir/r1" "$dir/out" || echo "bench_parallel: $model $w ($lsize): the reports of -j 1 and -j 2 DIFFER" >&2
		share="-"
		if [ $canperf = 1 ] &&
		   perf record -q -e cpu-clock -F 999 -o "$dir/j2.perf" "$E" "$dir/$w-L.wtr" -c "$cfg" -j 2 >/dev/null 2>&1; then
			share=$(perf script -i "$dir/j2.perf" -F pid,tid 2>/dev/null |
				awk '{ split($1, a, "/"); n++; if (a[1] == a[2]) m++ } END { if (n) printf "%.1f", 100 * m / n; else print "-" }')
		fi
		echo "$a $b" | awk -v m="$model" -v w="$w" -v n="$n" -v sh="$share" '{
			bound = "-"
			if (sh != "-") { x = (sh > 50) ? sh : 100 - sh; bound = sprintf("%.2fx", 100 / x) }
			printf "%-8s %-12s %14s %14.3g %10.3f %10.3f %10.3f %10.3f %7.2fx %8s %8s\n", m, w, n,
				($2 > 0) ? n / $2 : 0, $2, $4, $1, $3, $1 / $3, sh, bound }'
	done | tee "$dir/large"
	awk '{ r = $11; sub(/x$/, "", r); if (r != "-") { s += r; k++ } }
		END { if (k) printf "mean 2-core bound of one config: %.2fx (target 1.7x: %s)\n", s / k, (s / k >= 1.7) ? "met" : "NOT met" }' "$dir/large"
fi
echo "load average at the end: $(load)"
