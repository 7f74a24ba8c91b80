#!/bin/sh
# bench_sweep.sh - part of `make bench`: the cost of a 16-point sweep
# relative to one point (a sweep replays its N configurations in one pass
# over the trace, not N passes: docs/estimate.md "Sweeps"; issue 5's target:
# at most 3x).
#
# For a few bundled workloads at their default size, on one core (pinned
# with taskset when available), each workload traced first (not timed):
#   one   `weft-estimate TRACE -c CONFIG --format csv`           (one point)
#   16    the same with --sweep KEY=v1,...,v16                   (16 points)
# timed as whole processes (wall clock, best of 3: trace decoding, the
# model, energy, area and the report), ratio = 16-point time / one-point
# time. Sweeps measured:
#   sgmf-core  fabric.token_buffer=1,2,...,16  (the fabric's sweep; its
#              replay is shared: points differ only in timing)
#   fermi-sm   core.num_sm=1,2,...,16   (every point times the CTAs on its
#              own SMs and caches: one decode and one warp stream per CTA,
#              16 timings)
#   fermi-sm   core.clock_mhz=700,...,2200 (points follow one replay)
# The median ratio of each is printed against the 3x target.
#
# usage: sh tests/bench_sweep.sh [size] [workloads...]
#        (default: default  matmul hotspot sgemm backprop pathfinder kmeans)

size=${1:-default}
[ $# -gt 0 ] && shift
wls=${*:-matmul hotspot sgemm backprop pathfinder kmeans}
cd "$(dirname "$0")/.." || exit 3
bench_name=bench_sweep
. tests/bench_tools.sh   # $T, $E and $pin
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-bench-sweep.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM

now() { date +%s.%N; }

# best_of3 ARGS...: the shortest of three wall-clock runs of weft-estimate
# ARGS, in seconds (empty when a run fails; its output is in $dir/out).
best_of3() {
	best=""
	for _ in 1 2 3; do
		t0=$(now)
		if ! $pin "$E" "$@" --format csv >"$dir/out" 2>&1; then
			echo ""
			return 1
		fi
		t1=$(now)
		best=$(echo "$t0 $t1 $best" | awk '{ s = $2 - $1; if ($3 != "" && $3 < s) s = $3; printf "%.6f", s }')
	done
	echo "$best"
}

seq16() { # seq16 FIRST STEP: 16 values, comma separated
	awk -v a="$1" -v d="$2" 'BEGIN { for (i = 0; i < 16; i++) printf "%s%g", (i ? "," : ""), a + i * d }'
}

tb=$(seq16 1 1)
sm=$(seq16 1 1)
clk=$(seq16 700 100)

echo "weft bench: cost of a 16-point sweep vs one point, size $size, one core${pin:+ ($pin)}, $(uname -m)"
printf '%-12s %-10s %-20s %10s %10s %8s\n' workload config "swept key" "1 point s" "16 points s" ratio
status=0
for w in $wls; do
	if ! "$T" run "$w" --size "$size" -o "$dir/$w.wtr" >"$dir/out" 2>&1; then
		printf '%-12s trace failed:\n' "$w"
		sed 's/^/     | /' "$dir/out"
		status=1
		continue
	fi
	for spec in "configs/sgmf-core.ini fabric.token_buffer $tb" \
		    "configs/fermi-sm.ini core.num_sm $sm" \
		    "configs/fermi-sm.ini core.clock_mhz $clk"; do
		set -- $spec
		cfg=$1 key=$2 vals=$3
		one=$(best_of3 "$dir/$w.wtr" -c "$cfg")
		many=""
		[ -n "$one" ] && many=$(best_of3 "$dir/$w.wtr" -c "$cfg" --sweep "$key=$vals")
		name=$(basename "$cfg" .ini)
		if [ -z "$one" ] || [ -z "$many" ]; then
			printf '%-12s %-10s %-20s failed:\n' "$w" "$name" "$key"
			sed 's/^/     | /' "$dir/out" | head -n 5
			status=1
			continue
		fi
		echo "$w $name $key $one $many" | awk '{
			r = ($4 > 0) ? $5 / $4 : 0
			printf "%-12s %-10s %-20s %10.4f %10.4f %8.2f\n", $1, $2, $3, $4, $5, r
			printf "%s %s %.6g\n", $2, $3, r >> "'"$dir/ratios"'"
		}'
	done
	rm -f "$dir/$w.wtr"
done
if [ -f "$dir/ratios" ]; then
	for what in "sgmf-core fabric.token_buffer" "fermi-sm core.num_sm" "fermi-sm core.clock_mhz"; do
		set -- $what
		awk -v c="$1" -v k="$2" '$1 == c && $2 == k { print $3 }' "$dir/ratios" | sort -g | awk -v c="$1" -v k="$2" '
			{ v[NR] = $1 }
			END {
				if (NR == 0) exit
				m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				printf "median %-10s %-20s 16 points / 1 point = %.2fx  (target <= 3x: %s; min %.2f, max %.2f)\n",
					c, k, m, (m <= 3) ? "met" : "NOT met", v[1], v[NR]
			}'
	done
fi
exit $status
