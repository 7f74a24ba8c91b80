#!/bin/sh
# bench.sh - `make bench`: emulation speed of every bundled workload at its
# default size on one core (pinned with taskset when available): thread
# instructions, emulation seconds (time inside weft_launch, as weft-trace
# reports it), thread instructions per second and the process's peak
# resident memory, then the median speed against issue 2's target of 100
# million thread instructions per second. Then the trace section: bytes per
# thread instruction, write and decode speed and the reader's peak memory.
# The microkernels (micro_*: mechanism probes of a few thousand thread
# instructions, timed by process start-up) are left out.
#
# usage: sh tests/bench.sh [size]     (default: default)

size=${1:-default}
cd "$(dirname "$0")/.." || exit 3
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
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
for w in $("$T" list | awk '$1 !~ /^micro_/ { print $1 }'); do
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

# ---- traces (docs/trace-format.md) -------------------------------------------
# Per workload: trace it (`run -o`, zstd level 1), then decode every CTA and
# walk every thread's dynamic instructions with one decoder thread (`info
# --decode`). B/inst: file bytes per thread instruction; write: thread
# instructions per second while emulating with the writer attached; decode:
# thread instructions per CPU second (per core); reader MiB: the decoding
# process's peak resident memory. Targets (issue 3): median <= 0.1 B/inst and
# every workload <= 0.5; decode >= 5e8 thread instructions per second per core.
wtr=$(mktemp "${TMPDIR:-/tmp}/weft-bench.XXXXXX") || exit 3
tstats=$(mktemp "${TMPDIR:-/tmp}/weft-bench.XXXXXX") || exit 3
trap 'rm -f "$out" "$rates" "$wtr" "$wtr".tmp.* "$tstats"' EXIT INT TERM
echo
echo "weft bench: traces, size $size, one core${pin:+ ($pin)}"
printf '%-12s %12s %10s %14s %14s %10s\n' workload "file bytes" "B/inst" "write inst/s" "decode inst/s" "reader MiB"
for w in $("$T" list | awk '$1 !~ /^micro_/ { print $1 }'); do
	if ! $pin "$T" run "$w" --size "$size" -o "$wtr" >"$out" 2>&1 ||
	   ! $pin "$T" info "$wtr" --decode >>"$out" 2>&1; then
		printf '%-12s failed:\n' "$w"
		sed 's/^/     | /' "$out"
		status=1
		continue
	fi
	awk -v w="$w" '
		$1 == "thread" && $2 == "insts" && !n { n = $3 }
		$1 == "emulation" { s = $2 }
		$1 == "file" && $2 == "size" { fb = $3; bpi = $5 }
		$1 == "decode" { d = $14; mem = $(NF - 1) }
		END {
			printf "%-12s %12s %10.4f %14.3g %14.3g %10s\n", w, fb, bpi, (s > 0) ? n / s : 0, d, mem
			printf "%s %s\n", bpi, d >"/dev/stderr"
		}' "$out" 2>>"$tstats"
done
awk '
	{ b[NR] = $1; d[NR] = $2 }
	function median(v, n,   i, j, t) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	END {
		if (NR == 0) { print "median: no traces"; exit }
		mb = median(b, NR); maxb = b[NR]; md = median(d, NR); mind = d[1]
		printf "%-12s %12s %10.4f %14s %14.3g\n", "median", "", mb, "", md
		printf "targets: median B/inst <= 0.1: %s; max B/inst %.4f <= 0.5: %s; median decode %.3g >= 5e8 per core: %s (min %.3g)\n",
			(mb <= 0.1) ? "met" : "NOT met", maxb, (maxb <= 0.5) ? "met" : "NOT met",
			md, (md >= 5e8) ? "met" : "NOT met", mind
	}' "$tstats"
exit $status
