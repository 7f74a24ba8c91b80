#!/bin/sh
# bench_overlay.sh - the FPGA overlay model's part of `make bench`:
#  1. replay speed of the overlay model (models/overlay) on every bundled
#     workload it accepts (shader style: no shared memory, no barriers; the
#     others are refused and listed) at the default size, one core (pinned
#     with taskset when available): each workload is traced once (not
#     timed), then `weft-estimate TRACE -c overlay-ht8` is timed as a whole
#     (wall clock: decoding, the replay, the report), best of 3, and the
#     median thread instructions per second is printed against issue 14's
#     target of 100 million per core;
#  2. the cost of the 7-point batch sweep (`--sweep
#     overlay.batches=1,2,4,8,16,32,64`, one read of the trace) against one
#     point, best of 3 each, on the shader-style workloads matmatmult,
#     sgemm_shader and photon, against the target of at most 3x.
# The microkernels (micro_*: start-up-dominated probes) are left out.
# Times are the process's CPU time (task-clock from `perf stat` when it
# works here: a shared machine's other jobs stretch wall-clock time but
# not this), wall-clock time beside it; without perf, wall-clock only.
# The load average is printed before and after. With WEFT_BENCH_COUNT=1
# and valgrind installed, the sweep's cost is also counted in host
# instructions (valgrind --tool=callgrind; the processes' own work, which
# other jobs on the machine do not change), one run each, pinned to one
# core like the timed runs (unpinned, weft-estimate would split the sweep
# over the cores' groups and decode the trace once per group).
# What the sweep costs: the trace is decoded once for the 7 points; the
# 1-context point reuses each distinct stream's timing (overlay_solo.c),
# points with few contexts skip the repeats of the machine's state on
# regular kernels (overlay_steady.c), and the points with 32 and 64
# contexts, and every point of photon (whose batches all differ), are
# timed period by period.
#
# usage: sh tests/bench_overlay.sh [size]   (default: default)

size=${1:-default}
cd "$(dirname "$0")/.." || exit 3
bench_name=bench_overlay
. tests/bench_tools.sh   # $T, $E and $pin
CFG=configs/overlay-ht8.ini
SWEEP=overlay.batches=1,2,4,8,16,32,64
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-bench-overlay.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM

now() { date +%s.%N; }
PERF=""
if command -v perf >/dev/null 2>&1 && perf stat -e task-clock -x, -o /dev/null true 2>/dev/null; then
	PERF=perf
fi

# best_of3 ARGS...: "CPU WALL", the seconds of the run of weft-estimate ARGS
# with the least CPU time of three (CPU = wall without perf; empty when a
# run fails, its output in $dir/out).
best_of3() {
	best=""
	for _ in 1 2 3; do
		t0=$(now)
		if [ -n "$PERF" ]; then
			$pin $PERF stat -e task-clock -x, -o "$dir/time" "$E" "$@" --format csv >"$dir/out" 2>&1 ||
				{ echo ""; return 1; }
		else
			$pin "$E" "$@" --format csv >"$dir/out" 2>&1 || { echo ""; return 1; }
			: >"$dir/time"
		fi
		t1=$(now)
		c=$(awk -F, '$3 == "task-clock" { printf "%.6f", $1 / 1000 }' "$dir/time")
		best=$(echo "$t0 $t1 ${c:--} $best" | awk '{
			w = $2 - $1; c = ($3 != "-") ? $3 : w
			if (NF >= 5 && $4 + 0 <= c) { c = $4; w = $5 }
			printf "%.4f %.4f", c, w }')
	done
	echo "$best"
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
echo "weft bench: overlay model replay speed ($CFG), size $size, one core${pin:+ ($pin)}, $(uname -m), $(nproc 2>/dev/null || echo '?') cores, load average $(loadavg)"
printf '%-14s %14s %10s %10s %14s\n' workload "thread insts" "cpu s" "wall s" "insts/s (cpu)"
status=0
refused=""
for w in $("$T" list | awk '$1 !~ /^micro_/ { print $1 }'); do
	if ! "$T" run "$w" --size "$size" -o "$dir/$w.wtr" >"$dir/out" 2>&1; then
		printf '%-14s trace failed:\n' "$w"
		sed 's/^/     | /' "$dir/out"
		status=1
		continue
	fi
	n=$("$T" info "$dir/$w.wtr" | awk '$1 == "thread" && $2 == "insts" { print $3; exit }')
	if ! s=$(best_of3 "$dir/$w.wtr" -c "$CFG"); then
		if grep -q "shader-style" "$dir/out"; then
			refused="$refused $w"
		else
			printf '%-14s failed:\n' "$w"
			sed 's/^/     | /' "$dir/out"
			status=1
		fi
		rm -f "$dir/$w.wtr"
		continue
	fi
	echo "$w $n $s" | awk '{ r = ($3 > 0) ? $2 / $3 : 0; printf "%-14s %14s %10.4f %10.4f %14.3g\n", $1, $2, $3, $4, r
		printf "%.6g\n", r >> "'"$dir/rates"'" }'
	case " matmatmult sgemm_shader photon " in
	*" $w "*) mv "$dir/$w.wtr" "$dir/keep-$w.wtr" ;;
	*) rm -f "$dir/$w.wtr" ;;
	esac
done
echo "refused (not shader style: shared memory, barriers or warp operations):$refused"
if [ -f "$dir/rates" ]; then
	sort -g "$dir/rates" | awk '
		{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "median over %d workloads: %.3g thread insts/s  (target 1e8: %s; min %.3g, max %.3g)\n",
				NR, m, (m >= 1e8) ? "met" : "NOT met", v[1], v[NR]
		}'
fi

echo
echo "weft bench: overlay 7-point batch sweep ($SWEEP) vs one point, $CFG"
printf '%-14s %14s %14s %8s\n' workload "1 point cpu s" "7 points cpu s" ratio
for w in matmatmult sgemm_shader photon; do
	[ -f "$dir/keep-$w.wtr" ] || continue
	one=$(best_of3 "$dir/keep-$w.wtr" -c "$CFG") || { echo "$w: one point failed"; cat "$dir/out"; status=1; continue; }
	sev=$(best_of3 "$dir/keep-$w.wtr" -c "$CFG" --sweep "$SWEEP") || { echo "$w: sweep failed"; cat "$dir/out"; status=1; continue; }
	echo "$w $one $sev" | awk '{ r = ($2 > 0) ? $4 / $2 : 0; printf "%-14s %14.4f %14.4f %8.2f\n", $1, $2, $4, r
		printf "%.6g\n", r >> "'"$dir/ratios"'" }'
done
if [ -f "$dir/ratios" ]; then
	sort -g "$dir/ratios" | awk '
		{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "median sweep cost: %.2fx one point  (target at most 3x: %s; max %.2fx)\n",
				m, (m <= 3) ? "met" : "NOT met", v[NR]
		}'
fi

# host instructions: callgrind's count of the process's instructions
# (ir_of ARGS: the count of weft-estimate ARGS, empty when it fails)
ir_of() {
	$pin valgrind --tool=callgrind --callgrind-out-file=/dev/null "$E" "$@" --format csv \
		>/dev/null 2>"$dir/vg" || { echo ""; return 1; }
	awk '/I *refs:/ { gsub(",", "", $NF); print $NF }' "$dir/vg"
}
if [ "${WEFT_BENCH_COUNT:-0}" = 1 ] && command -v valgrind >/dev/null 2>&1; then
	echo
	echo "weft bench: the same sweep in host instructions (valgrind --tool=callgrind)"
	printf '%-14s %16s %16s %8s\n' workload "1 point" "7 points" ratio
	for w in matmatmult sgemm_shader photon; do
		[ -f "$dir/keep-$w.wtr" ] || continue
		one=$(ir_of "$dir/keep-$w.wtr" -c "$CFG") && sev=$(ir_of "$dir/keep-$w.wtr" -c "$CFG" --sweep "$SWEEP") ||
			{ echo "$w: valgrind failed"; status=1; continue; }
		echo "$w $one $sev" | awk '{ printf "%-14s %16.4g %16.4g %8.2f\n", $1, $2, $3, ($2 > 0) ? $3 / $2 : 0 }'
	done
fi
echo "load average after: $(loadavg)"
exit $status
