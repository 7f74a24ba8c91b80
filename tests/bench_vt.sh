#!/bin/sh
# bench_vt.sh - the Maven-family tile model's part of `make bench`: replay
# speed of the vt model (models/vt) on every bundled workload at its
# default size, one core (pinned with taskset when available), for the
# three patterns on one tile each: vector-thread (vt-c4v1r256+bi+2s),
# vector-SIMD (vsimd-c4v1r256+bi) and MIMD (mimd-c4r32). Each workload is
# traced once (not timed); then `weft-estimate TRACE -c CONFIG` is timed as
# a whole per config (wall clock: decoding, the replay, energy and the
# report), and the median thread instructions per second of each config
# is printed against issue 13's target of 100 million per core. The
# microkernels (micro_*: start-up-dominated probes) are left out.
#
# usage: sh tests/bench_vt.sh [size]   (default: default)

size=${1:-default}
cd "$(dirname "$0")/.." || exit 3
bench_name=bench_vt
. tests/bench_tools.sh   # $T, $E and $pin
cfgs="vt-c4v1r256+bi+2s vsimd-c4v1r256+bi mimd-c4r32"
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-bench-vt.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM

now() { date +%s.%N; }

echo "weft bench: vt model replay speed (configs/maven/), size $size, one core${pin:+ ($pin)}, $(uname -m)"
printf '%-12s %14s' workload "thread insts"
for c in $cfgs; do
	printf ' %20s' "$c"
done
printf '   (thread insts/s)\n'
status=0
for w in $("$T" list | awk '$1 !~ /^micro_/ { print $1 }'); do
	if ! "$T" run "$w" --size "$size" -o "$dir/$w.wtr" >"$dir/out" 2>&1; then
		printf '%-12s trace failed:\n' "$w"
		sed 's/^/     | /' "$dir/out"
		status=1
		continue
	fi
	n=$("$T" info "$dir/$w.wtr" | awk '$1 == "thread" && $2 == "insts" { print $3; exit }')
	printf '%-12s %14s' "$w" "$n"
	for c in $cfgs; do
		t0=$(now)
		if ! $pin "$E" "$dir/$w.wtr" -c "configs/maven/$c.ini" --format csv >"$dir/out" 2>&1; then
			printf ' %20s' "failed"
			sed 's/^/     | /' "$dir/out" >>"$dir/errors"
			status=1
			continue
		fi
		t1=$(now)
		echo "$n $t0 $t1" | awk '{
			s = $3 - $2; r = (s > 0) ? $1 / s : 0
			printf " %20.3g", r
			printf "%.6g\n", r >> "'"$dir/rates-$c"'"
		}'
	done
	printf '\n'
	rm -f "$dir/$w.wtr"
done
[ -f "$dir/errors" ] && cat "$dir/errors"
for c in $cfgs; do
	[ -f "$dir/rates-$c" ] || continue
	sort -g "$dir/rates-$c" | awk -v c="$c" '
		{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "median %-22s %10.3g  (target 1e8: %s; min %.3g, max %.3g)\n",
				c, m, (m >= 1e8) ? "met" : "NOT met", v[1], v[NR]
		}'
done
exit $status
