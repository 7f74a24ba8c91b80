#!/bin/sh
# docs_samples.sh - reruns the commands whose output README.md and docs/
# show, and writes their output between the markers
#
#   <!-- sample: COMMAND -->            the block shows `$ COMMAND` and its output
#   <!-- sample: COMMAND :: FILTER -->  only the output through FILTER (a shell
#                                       command, not shown), between "..." lines
#   ... (replaced) ...
#   <!-- /sample -->
#
# Commands run in a scratch directory where bin/, configs/, data/ and tests/
# are the repository's and sgemm.wtr is `weft-trace run sgemm` (default size).
# Lines that differ by machine (emulation time, peak memory, host baseline)
# are written fresh but never count as a difference.
#
#   sh tests/docs_samples.sh           update the files (`make docs-samples`)
#   sh tests/docs_samples.sh --check   fail when a sample is stale (`make docs-check`)
# POSIX sh and awk; about a second.

cd "$(dirname "$0")/.." || exit 3
root=$(pwd)
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san),
# seen as bin/ in the scratch directory
BIN=${WEFT_BIN:-bin}
FILES="README.md docs/launch-spec.md docs/calibration.md docs/models/vt.md docs/cuda-programs.md"
check=0
case "${1:-}" in
--check) check=1 ;;
"") ;;
*) echo "usage: sh tests/docs_samples.sh [--check]" >&2; exit 2 ;;
esac
if [ ! -x "$BIN/weft-trace" ] || [ ! -x "$BIN/weft-estimate" ]; then
	echo "docs_samples: $BIN/weft-trace or $BIN/weft-estimate is missing; run make first" >&2
	exit 2
fi
# A sanitized libcudart.so.13 (make check SAN=1), run by weft-trace exec in
# a program built without the sanitizers, needs their runtime loaded first,
# in the program only (clang's sanitized tools carry their own copy): the
# scratch directory's tests/cuda/bin/ then holds wrappers that preload it.
preload=
if nm -D "$BIN/cudart/libcudart.so.13" 2>/dev/null | grep -q __asan_init; then
	preload=$(${CC:-cc} -print-file-name=libasan.so)
	case ${CC:-cc} in *clang*) preload=$(${CC:-cc} -print-file-name=libclang_rt.asan-x86_64.so) ;; esac
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/weft-samples.XXXXXX") || exit 3
trap 'rm -rf "$work"' EXIT INT TERM
ln -s "$root/$BIN" "$work/bin"
for d in configs data; do ln -s "$root/$d" "$work/$d"; done
if [ -z "$preload" ]; then
	ln -s "$root/tests" "$work/tests"
else
	mkdir -p "$work/tests/cuda/bin"
	for d in "$root"/tests/*; do [ "${d##*/}" = cuda ] || ln -s "$d" "$work/tests/${d##*/}"; done
	for d in "$root"/tests/cuda/*; do [ "${d##*/}" = bin ] || ln -s "$d" "$work/tests/cuda/${d##*/}"; done
	for f in "$root"/tests/cuda/bin/*; do
		printf '#!/bin/sh\nexec env LD_PRELOAD=%s %s "$@"\n' "$preload" "$f" >"$work/tests/cuda/bin/${f##*/}"
		chmod +x "$work/tests/cuda/bin/${f##*/}"
	done
fi
(cd "$work" && bin/weft-trace run sgemm -o sgemm.wtr >/dev/null 2>&1) || {
	echo "docs_samples: could not trace sgemm" >&2
	exit 3
}

# the machine-dependent lines, reduced to their label for comparing
mask() {
	sed -E -e 's/^(emulation|peak memory|host baseline) .*/\1 .../' -e '/^ {16}/d' "$1"
}

stale=0
for f in $FILES; do
	WORK="$work" awk '
	function run(cmd, filter,   line, full) {
		full = "cd \"" ENVIRON["WORK"] "\" && " cmd " 2>&1"
		if (filter != "") full = "(" full ") | " filter
		print "```"
		print "$ " cmd
		if (filter != "") print "..."
		while ((full | getline line) > 0) print line
		close(full)
		if (filter != "") print "..."
		print "```"
	}
	skip && /^<!-- \/sample -->/ { skip = 0; print; next }
	skip { next }
	/^<!-- sample: .* -->$/ {
		print
		spec = $0
		sub(/^<!-- sample: /, "", spec); sub(/ -->$/, "", spec)
		filter = ""
		i = index(spec, " :: ")
		if (i) { filter = substr(spec, i + 4); spec = substr(spec, 1, i - 1) }
		run(spec, filter)
		skip = 1
		next
	}
	{ print }
	' "$f" >"$work/new" || exit 3
	mask "$f" >"$work/old.m"
	mask "$work/new" >"$work/new.m"
	if cmp -s "$work/old.m" "$work/new.m"; then
		continue
	fi
	if [ "$check" = 1 ]; then
		diff -u "$f" "$work/new" | head -n 40
		echo "docs-check: a sample output in $f is stale (the command prints something else today); run \`make docs-samples\` and commit it"
		stale=1
	else
		cp "$work/new" "$f" && echo "docs_samples: updated $f"
	fi
done
if [ "$check" = 1 ] && [ "$stale" = 0 ]; then
	echo "docs-check: the sample outputs in $FILES are current"
fi
exit "$stale"
