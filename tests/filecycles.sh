#!/bin/sh
# filecycles.sh - fails when a group of the library's files call each other
# in a loop.
#
# Builds the file-level call graph from the library's object files under
# build/ (the objects of build/libweft.a: not the CLIs' mains weft-*.o nor
# trace/cli/ nor cli/, which the library never calls, nor the unit tests): for each .o,
# `nm` lists the global symbols it defines (T, D, B, R and their kin) and
# the ones it uses (U). File A -> file B when A uses a symbol B defines.
# A strongly connected component of more than one file is a loop: those
# files cannot be understood, tested or moved one at a time. Static inline
# functions in headers are compiled into each caller, so they make no edge.
#
# The fix for a loop is to move the functions to the file whose role they
# belong to (usually a lower-level helper file both use, so the calls point
# one way), never to merge the files. Run from the repository root after
# `make`; `make check` runs it. The CUDA runtime's files (trace/cudart/,
# compiled into $build/pic/) are checked too; the position-independent
# copies of the library's own objects beside them are not (the objects in
# $build/ stand for them).
set -u
build=${1:-build}
if [ ! -d "$build" ]; then
	echo "filecycles: no $build/ (run make first)"
	exit 2
fi
objs=$(find "$build" -name '*.o' -not -path "$build/tests/*" -not -path "$build/trace/cli/*" \
	-not -path "$build/cli/*" -not \( -path "$build/pic/*" -not -path "$build/pic/trace/cudart/*" \) \
	-not -name 'weft-*.o' | sort)
if [ -z "$objs" ]; then
	echo "filecycles: no object files under $build/ (run make first)"
	exit 2
fi

# An object whose source is gone (a file moved or removed since the last
# build) is stale: skip it, or it would report calls that no longer exist.
live=""
for o in $objs; do
	rel=${o#"$build"/}
	case "$rel" in
	gen/*) ;;
	pic/*) rel=${rel#pic/}; [ -f "${rel%.o}.c" ] || continue ;;
	*) [ -f "${rel%.o}.c" ] || continue ;;
	esac
	live="$live $o"
done
objs=$live

# One line per symbol: "OBJ D NAME" (defined) or "OBJ U NAME" (used).
for o in $objs; do
	nm -g "$o" | awk -v o="$o" '
		NF == 2 && $1 == "U" { print o, "U", $2; next }
		NF == 3 && $2 ~ /^[TDBRCGSVW]$/ { print o, "D", $3 }'
done | awk -v build="$build/" '
function name(o) {
	sub("^" build, "", o); sub(/\.o$/, ".c", o); return o
}
$2 == "D" { def[$3] = $1; next }
$2 == "U" { nuse++; uo[nuse] = $1; us[nuse] = $3 }
END {
	# The edges A -> B, one each, A != B.
	for (i = 1; i <= nuse; i++) {
		b = def[us[i]]
		if (b == "" || b == uo[i]) continue
		a = uo[i]
		k = a SUBSEP b
		if (!(k in edge)) {
			edge[k] = 1; nout[a]++; out[a, nout[a]] = b
			node[a] = 1; node[b] = 1
		}
		# the symbols behind each edge, to say which calls close the loop
		if (index(" " why[k] " ", " " us[i] " ") == 0)
			why[k] = why[k] (why[k] == "" ? "" : " ") us[i]
	}
	# Tarjan'\''s strongly connected components.
	idx = 0; sp = 0; ncomp = 0
	n = 0
	for (v in node) list[++n] = v
	# a fixed order, so the report does not depend on awk'\''s hashing
	for (i = 2; i <= n; i++) {
		t = list[i]
		for (j = i - 1; j >= 1 && list[j] > t; j--) list[j + 1] = list[j]
		list[j + 1] = t
	}
	for (i = 1; i <= n; i++)
		if (!(list[i] in index_of)) strong(list[i])
	bad = 0
	for (c = 1; c <= ncomp; c++) {
		if (csize[c] < 2) continue
		bad++
		printf "filecycles: these %d files call each other in a loop:\n", csize[c]
		for (i = 1; i <= csize[c]; i++) printf "  %s\n", name(cmem[c, i])
		for (i = 1; i <= csize[c]; i++)
			for (j = 1; j <= csize[c]; j++) {
				k = cmem[c, i] SUBSEP cmem[c, j]
				if (k in edge)
					printf "    %s -> %s: %s\n", name(cmem[c, i]), name(cmem[c, j]), why[k]
			}
	}
	if (bad) {
		printf "filecycles: %d loop(s); move functions to the file whose role they belong to so calls point one way\n", bad
		exit 1
	}
	printf "filecycles: no loops among %d files\n", n
}
function strong(v,    i, w) {
	index_of[v] = idx; low[v] = idx; idx++
	stack[++sp] = v; on[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in index_of)) {
			strong(w)
			if (low[w] < low[v]) low[v] = low[w]
		} else if (on[w] && index_of[w] < low[v])
			low[v] = index_of[w]
	}
	if (low[v] == index_of[v]) {
		ncomp++
		do {
			w = stack[sp--]; on[w] = 0
			cmem[ncomp, ++csize[ncomp]] = w
		} while (w != v)
		# sort the members for a stable report
		for (i = 2; i <= csize[ncomp]; i++) {
			w = cmem[ncomp, i]
			for (j = i - 1; j >= 1 && cmem[ncomp, j] > w; j--) cmem[ncomp, j + 1] = cmem[ncomp, j]
			cmem[ncomp, j + 1] = w
		}
	}
}'
