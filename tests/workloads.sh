#!/bin/sh
# workloads.sh - runs every bundled workload through `weft-trace run W --size
# SIZE --verify` (`make workload-tests` uses small) and reports PASS/FAIL with
# the thread instructions each executed. Exits nonzero if any fails.
#
# usage: sh tests/workloads.sh [small|default|large]

size=${1:-small}
cd "$(dirname "$0")/.." || exit 3
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
if [ ! -x "$T" ]; then
	echo "workloads: $T is missing; run make first" >&2
	exit 2
fi
names=$("$T" list | awk '{ print $1 }') || exit 3
if [ -z "$names" ]; then
	echo "workloads: weft-trace list printed no workloads" >&2
	exit 3
fi
out=$(mktemp "${TMPDIR:-/tmp}/weft-wl.XXXXXX") || exit 3
trap 'rm -f "$out"' EXIT INT TERM
pass=0
failed=0
for w in $names; do
	"$T" run "$w" --size "$size" --verify >"$out" 2>&1
	rc=$?
	insts=$(awk '$1 == "thread" && $2 == "insts" { print $3 }' "$out")
	secs=$(awk '$1 == "emulation" { print $2 }' "$out")
	if [ "$rc" -eq 0 ] && grep -q '^verification *PASS' "$out"; then
		pass=$((pass + 1))
		printf 'PASS %-12s %14s thread insts  %10s s emulation\n' "$w" "${insts:-?}" "${secs:-?}"
	else
		failed=$((failed + 1))
		printf 'FAIL %-12s exit status %s\n' "$w" "$rc"
		sed 's/^/     | /' "$out"
	fi
done
echo "workloads: $pass passed, $failed failed ($size)"
[ "$failed" -eq 0 ]
