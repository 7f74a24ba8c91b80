#!/bin/sh
# bench_sample.sh - part of `make bench`: what a random sample with its
# intervals costs against the full replay it estimates (docs/estimate.md
# "Functional warming" and "Windowed warming"; issue 16 part 4: a warmed
# sample should cost clearly less than the full replay at large size).
#
# For each trace and config, on one core (-j 1, pinned with taskset where
# that works), CPU seconds (user + sys of the whole weft-estimate process,
# /usr/bin/time, not wall clock: the machine may be shared) of
#   full    the full replay
#   cold    --sample random:N:1 --no-warm   (biased where CTAs share lines)
#   all     --sample random:N:1             (every CTA warmed, the default)
#   grid    --sample random:N:1 --warm-window grid
# and, for each sampled run, whether the full replay's cycles lie inside
# the estimate's 95% interval. The traces are made first (not timed).
#
# usage: sh tests/bench_sample.sh [size] [N]   (default: large 64; the
#        large traces take a minute each to make, and `all` about 6 to 12
#        full replays' time)

size=${1:-large}
n=${2:-64}
cd "$(dirname "$0")/.." || exit 3
bench_name=bench_sample
. tests/bench_tools.sh   # $T, $E and $pin
if [ ! -x /usr/bin/time ]; then
	echo "bench_sample: /usr/bin/time is missing (Debian package time)" >&2
	exit 2
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# total-row column of a CSV report by name
col() { # file name
	awk -F, -v name="$2" 'NR==1{for(i=1;i<=NF;i++){if($i==name)k=i; if($i=="launch")l=i}; next}
		$l=="total"{print $k; exit}' "$1"
}

cpu() { # out.csv args...: prints user+sys seconds
	out=$1
	shift
	# shellcheck disable=SC2086 # pin is empty or two words
	/usr/bin/time -f '%U %S' -o "$d/time" $pin "$E" "$@" -j 1 --format csv >"$out" 2>"$d/err" ||
		{ echo "bench_sample: weft-estimate $* failed: $(cat "$d/err")" >&2; exit 1; }
	awk '{printf "%.2f", $1 + $2}' "$d/time"
}

printf '%-8s %-16s %8s %8s %8s %8s   %s\n' trace config full cold all grid "full cycles inside the interval (cold, all, grid)"
for spec in "hotspot sgmf-core" "hotspot dmt-cgra" "nn sgmf-core" "nn sgmf-15core" "nn vt-c4v1r256+bi"; do
	set -- $spec
	w=$1 c=$2
	t="$d/$w.wtr"
	[ -f "$t" ] || "$T" run "$w" --size "$size" -o "$t" >/dev/null ||
		{ echo "bench_sample: weft-trace run $w --size $size failed" >&2; exit 1; }
	f=$(cpu "$d/full.csv" "$t" -c "$c")
	full=$(col "$d/full.csv" cycles)
	line="" inside=""
	for mode in "--no-warm" "" "--warm-window grid"; do
		# shellcheck disable=SC2086 # mode is empty, one or two words
		s=$(cpu "$d/s.csv" "$t" -c "$c" --sample "random:$n:1" $mode)
		line="$line $(printf '%8s' "$s")"
		lo=$(col "$d/s.csv" cycles_low) hi=$(col "$d/s.csv" cycles_high)
		inside="$inside $(awk -v f="$full" -v a="$lo" -v b="$hi" 'BEGIN{print (f>=a+0 && f<=b+0) ? "yes" : "no"}')"
	done
	printf '%-8s %-16s %8s%s  %s\n' "$w" "$c" "$f" "$line" "$inside"
done
echo "(CPU seconds, -j 1, size $size, random:$n:1; docs/estimate.md \"Windowed warming\")"
