#!/bin/sh
# bench_simt.sh - part of `make bench`: replay speed of the SIMT timing
# model (models/simt) on every bundled workload at its default size, on one
# core (pinned with taskset when available). Each workload is traced first
# (not timed); then `weft-estimate TRACE -c configs/fermi-sm.ini` is timed
# as a whole (wall clock: trace decoding, grouping, the model, energy and
# the report) and its thread instructions per second are printed, with the
# median against issue 4's target of 100 million thread instructions per
# second per core. The microkernels (micro_*: mechanism probes of a few
# thousand thread instructions, timed by process start-up) are left out.
#
# usage: sh tests/bench_simt.sh [size] [config]   (default: default configs/fermi-sm.ini)

size=${1:-default}
cfg=${2:-configs/fermi-sm.ini}
cd "$(dirname "$0")/.." || exit 3
bench_name=bench_simt
. tests/bench_tools.sh   # $T, $E and $pin
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-bench-simt.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM

now() { date +%s.%N; }

echo "weft bench: model replay speed ($cfg: model $(sed -n "s/^name *= *\\([a-z]*\\).*/\\1/p" "$cfg" | head -1)), size $size, one core${pin:+ ($pin)}, $(uname -m)"
printf '%-12s %16s %12s %16s\n' workload "thread insts" seconds "thread insts/s"
status=0
for w in $("$T" list | awk '$1 !~ /^micro_/ { print $1 }'); do
	if ! "$T" run "$w" --size "$size" -o "$dir/$w.wtr" >"$dir/out" 2>&1; then
		printf '%-12s trace failed:\n' "$w"
		sed 's/^/     | /' "$dir/out"
		status=1
		continue
	fi
	n=$("$T" info "$dir/$w.wtr" | awk '$1 == "thread" && $2 == "insts" { print $3; exit }')
	t0=$(now)
	if ! $pin "$E" "$dir/$w.wtr" -c "$cfg" --format csv >"$dir/out" 2>&1; then
		printf '%-12s estimate failed:\n' "$w"
		sed 's/^/     | /' "$dir/out"
		status=1
		continue
	fi
	t1=$(now)
	echo "$w $n $t0 $t1" | awk '{
		s = $4 - $3; r = (s > 0) ? $2 / s : 0
		printf "%-12s %16.0f %12.6f %16.3g\n", $1, $2, s, r
		printf "%.6g\n", r >> "'"$dir/rates"'"
	}'
	rm -f "$dir/$w.wtr"
done
if [ -f "$dir/rates" ]; then
	sort -g "$dir/rates" | awk '
		{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%-12s %16s %12s %16.3g  (target 1e8: %s; min %.3g, max %.3g)\n",
				"median", "", "", m, (m >= 1e8) ? "met" : "NOT met", v[1], v[NR]
		}'
fi
exit $status
