#!/bin/sh
# bench.sh - `make bench`: emulation speed of every bundled workload at its
# default size on one core (pinned with taskset when available): thread
# instructions, emulation seconds (time inside weft_launch, as weft-trace
# reports it), thread instructions per second and the process's peak
# resident memory, then the median speed against issue 2's target of 100
# million thread instructions per second.
#
# usage: sh tests/bench.sh [size]     (default: default)

size=${1:-default}
cd "$(dirname "$0")/.." || exit 3
T=bin/weft-trace
if [ ! -x "$T" ]; then
	echo "bench: $T is missing; run make first" >&2
	exit 2
fi
pin=""
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	pin="taskset -c 0"
fi
out=$(mktemp "${TMPDIR:-/tmp}/weft-bench.XXXXXX") || exit 3
rates=$(mktemp "${TMPDIR:-/tmp}/weft-bench.XXXXXX") || exit 3
trap 'rm -f "$out" "$rates"' EXIT INT TERM

echo "weft bench: emulation speed, size $size, one core${pin:+ ($pin)}, $(uname -m)"
printf '%-12s %16s %12s %16s %10s\n' workload "thread insts" seconds "thread insts/s" "peak MiB"
status=0
for w in $("$T" list | awk '{ print $1 }'); do
	if ! $pin "$T" run "$w" --size "$size" >"$out" 2>&1; then
		printf '%-12s failed:\n' "$w"
		sed 's/^/     | /' "$out"
		status=1
		continue
	fi
	awk -v w="$w" '
		$1 == "thread" && $2 == "insts" { n = $3 }
		$1 == "emulation" { s = $2 }
		$1 == "peak" && $2 == "memory" { m = $3 }
		END {
			r = (s > 0) ? n / s : 0
			printf "%-12s %16.0f %12.6f %16.3g %10s\n", w, n, s, r, m
		}' "$out"
	awk '$1 == "thread" && $2 == "insts" { n = $3 } $1 == "emulation" { s = $2 }
	     END { if (s > 0) printf "%.6g\n", n / s }' "$out" >>"$rates"
done
sort -g "$rates" | awk '
	{ v[NR] = $1 }
	END {
		if (NR == 0) { print "median: no runs"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%-12s %16s %12s %16.3g  (target 1e8: %s; min %.3g, max %.3g)\n",
			"median", "", "", m, (m >= 1e8) ? "met" : "NOT met", v[1], v[NR]
	}'
exit $status
