#!/bin/sh
# maven.sh - every Maven study tile (configs/maven/*.ini, the vt model)
# runs the study's kernels that weft bundles: vvadd, cmult, mfilter,
# bsearch and bsearch_cmv at the small size (`make cli-tests`; issue: the
# Maven tiles "Done when"). One weft-estimate call per workload replays the
# trace on all tiles at once; each tile must appear in the report with a
# positive cycle count. Also: bsearch's active-uT distribution is printed
# for the FIFO, 1-stack and 2-stack tiles. POSIX sh.

cd "$(dirname "$0")/../.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
for b in "$T" "$E"; do
	[ -x "$b" ] || { echo "maven tests: $b is missing; run make first" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-maven.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   maven: $1"; }
bad() {
	failed=$((failed + 1))
	echo "FAIL maven: $1: $2"
	[ -f "$tmp/err" ] && head -n 10 "$tmp/err" | sed 's/^/     | /'
}

tiles=$(ls configs/maven/*.ini | sort)
ntiles=$(echo "$tiles" | wc -l)
[ "$ntiles" -ge 44 ] || bad "tiles" "only $ntiles configs in configs/maven (the study names 44 with the suffix combinations)"
cargs=""
for c in $tiles; do cargs="$cargs -c $c"; done

for w in vvadd cmult mfilter bsearch bsearch_cmv; do
	if ! "$T" run "$w" --size small -o "$tmp/$w.wtr" >/dev/null 2>"$tmp/err"; then
		bad "$w" "weft-trace run failed"
		continue
	fi
	# shellcheck disable=SC2086
	if ! "$E" "$tmp/$w.wtr" $cargs --format csv -o "$tmp/$w.csv" 2>"$tmp/err"; then
		bad "$w on every tile" "weft-estimate exit status $?"
		continue
	fi
	# one totals row per tile, each with cycles > 0
	rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "config") c = i; if ($i == "cycles") y = i; if ($i == "launch") l = i } next }
		$l == "total" && $y > 0 { n++ } END { print n + 0 }' "$tmp/$w.csv")
	if [ "$rows" -eq "$ntiles" ]; then
		ok "$w runs on all $ntiles tiles"
	else
		bad "$w on every tile" "$rows of $ntiles tiles report a positive cycle count"
	fi
done

# bsearch: the active-uT distribution for each PVFB policy
for c in vt-c4v1r256+bi vt-c4v1r256+bi+1s vt-c4v1r256+bi+2s; do
	if "$E" "$tmp/bsearch.wtr" -c "configs/maven/$c.ini" >"$tmp/out" 2>"$tmp/err" &&
		grep -q "active_76_100" "$tmp/out"; then
		ok "bsearch on $c prints the active-uT distribution"
	else
		bad "bsearch on $c" "no active-uT distribution in the report"
	fi
done

# vvadd and cmult never diverge: every issued uT instruction has the whole
# vector active (grid padding is not part of the application vector)
for w in vvadd cmult; do
	for c in vt-c4v1r256+bi+2s vt-c4v1r32 vt-c1v4r256+bi+2s; do
		"$E" "$tmp/$w.wtr" -c "configs/maven/$c.ini" >"$tmp/out" 2>"$tmp/err"
		top=$(awk '$1 == "active_76_100" { print $3 }' "$tmp/out")
		if [ "$top" = "100" ]; then
			ok "$w on $c: 100% of uT instructions in the top active-uT bucket"
		else
			bad "$w on $c" "top active-uT bucket ${top:-missing}%, expected 100"
		fi
	done
done

echo "maven tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
