#!/bin/sh
# tests/sample_study.sh - bias against spread of a sampled estimate, by
# hand (not in `make check`: 40 seeds of one case take a minute or more).
# docs/estimate.md "Intervals of a sampled estimate" quotes its figures.
#
# usage: sh tests/sample_study.sh WORKLOAD N CONFIG [weft-estimate options]
#   e.g. sh tests/sample_study.sh hotspot 32 configs/maven/vt-c4v1r256+bi.ini
#        sh tests/sample_study.sh nn 64 sgmf-15core --warm-window grid
# The trace is the workload at default size; SEEDS (default 40) random
# samples random:N:1..SEEDS are compared with the full replay's cycles:
#   inside      seeds whose 95% interval holds the full value (misses
#               below / above it)
#   bias        mean of the estimates less the full value (% of it)
#   sd(est)     standard deviation of the estimates over the seeds (%)
#   mean half   mean half-width of the intervals (%); half/sd near the t
#               quantile (about 2.1 to 2.3) when the interval measures
#               the estimates' spread, below it when it understates it
#   corr        correlation of estimate and half-width over the seeds
#               (far from 0: a skewed or biased estimator)
# A coverage short of 38/40 with a bias near 0 and half/sd well below 2
# points at the variance estimate; a bias comparable to the half-width
# points at the estimate itself.
set -u
[ $# -ge 3 ] || { echo "usage: sh tests/sample_study.sh WORKLOAD N CONFIG [options]" >&2; exit 2; }
B=${WEFT_BIN:-bin}
w=$1 n=$2 c=$3
shift 3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$B/weft-trace" run "$w" -o "$d/t.wtr" >/dev/null || { echo "sample_study: weft-trace run $w failed" >&2; exit 1; }
col() { # file name: the total row's column
	awk -F, -v name="$2" 'NR==1{for(i=1;i<=NF;i++){if($i==name)k=i; if($i=="launch")l=i}; next}
		$l=="total"{print $k; exit}' "$1"
}
"$B/weft-estimate" "$d/t.wtr" -c "$c" --format csv >"$d/o.csv" || exit 1
full=$(col "$d/o.csv" cycles)
S=${SEEDS:-40}
s=1
while [ "$s" -le "$S" ]; do
	"$B/weft-estimate" "$d/t.wtr" -c "$c" --format csv --sample "random:$n:$s" "$@" >"$d/o.csv" || exit 1
	echo "$(col "$d/o.csv" cycles) $(col "$d/o.csv" cycles_low) $(col "$d/o.csv" cycles_high)"
	s=$((s + 1))
done | awk -v f="$full" -v tag="$w random:$n $c $*" '
	{ e[NR] = $1; h[NR] = ($3 - $2) / 2; if (f >= $2 && f <= $3) inn++; else if ($1 < f) lo++; else hi++ }
	END {
		n = NR
		for (i = 1; i <= n; i++) { se += e[i]; sh += h[i] }
		me = se / n; mh = sh / n
		for (i = 1; i <= n; i++) { ve += (e[i] - me) ^ 2; vh += (h[i] - mh) ^ 2; cv += (e[i] - me) * (h[i] - mh) }
		sd = sqrt(ve / (n - 1)); r = (ve > 0 && vh > 0) ? cv / sqrt(ve * vh) : 0
		printf "%s: inside %d/%d (misses below %d, above %d), bias %+.2f%%, sd(est) %.2f%%, mean half %.2f%%, half/sd %.2f, corr %+.2f\n",
			tag, inn, n, lo + 0, hi + 0, 100 * (me - f) / f, 100 * sd / f, 100 * mh / f, (sd > 0 ? mh / sd : 0), r
	}'
