#!/bin/sh
# bench_fabric.sh - the dataflow-fabric model's part of `make bench`:
#  1. replay speed of the sgmf model on every bundled workload at its
#     default size (tests/bench_simt.sh with configs/sgmf-core.ini: wall
#     time of weft-estimate, decode included, one core), median against
#     the 1e8 thread instructions per second target;
#  2. the cost of a 16-point token-buffer sweep (1..16) relative to one
#     point, with every point in one weft-estimate process (16 -c configs,
#     which share the trace read and the replay: docs/models/dataflow.md
#     "Cost and sweeps"), against issue 5's target of at most 3x.
#
# usage: sh tests/bench_fabric.sh [size]   (default: default)

size=${1:-default}
cd "$(dirname "$0")/.." || exit 3
bench_name=bench_fabric
. tests/bench_tools.sh   # $T, $E and $pin
sh tests/bench_simt.sh "$size" configs/sgmf-core.ini
status=$?
echo

dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-bench-fabric.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM
now() { date +%s.%N; }

args=""
for tb in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	sed "s/^token_buffer = .*/token_buffer = $tb/" configs/sgmf-core.ini >"$dir/tb$tb.ini"
	args="$args -c $dir/tb$tb.ini"
done
echo "weft bench: fabric token-buffer sweep 1..16 (sgmf-core) vs one point, size $size${pin:+ ($pin)}"
printf '%-12s %12s %12s %8s\n' workload "1 point s" "16 points s" ratio
for w in matmul hotspot sgemm backprop; do
	if ! "$T" run "$w" --size "$size" -o "$dir/$w.wtr" >"$dir/out" 2>&1; then
		printf '%-12s trace failed\n' "$w"
		status=1
		continue
	fi
	t0=$(now)
	$pin "$E" "$dir/$w.wtr" -c "$dir/tb16.ini" --format csv >"$dir/out" 2>&1 || status=1
	t1=$(now)
	# shellcheck disable=SC2086
	$pin "$E" "$dir/$w.wtr" $args --format csv >"$dir/out" 2>&1 || status=1
	t2=$(now)
	echo "$w $t0 $t1 $t2" | awk '{
		a = $3 - $2; b = $4 - $3; r = (a > 0) ? b / a : 0
		printf "%-12s %12.4f %12.4f %8.2f  (target <= 3: %s)\n", $1, a, b, r, (r <= 3) ? "met" : "NOT met"
	}'
	rm -f "$dir/$w.wtr"
done
exit $status
