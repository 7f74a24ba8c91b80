#!/bin/sh
# parallel.sh - `-j 1` and `-j N` give the same bytes (make check).
#
# For every bundled workload at --size small: the trace of `weft-trace run
# -j 1` and of `-j 3` (more threads than this machine's cores, so that
# CTAs commit out of the order they finish in) must be the same file; then
# weft-estimate on that trace with -j 1 and -j 3 must print the same report
# (JSON), exit status and messages: once with a config of every model but
# the overlay (simt and sgmf with sweeps whose points replay apart, dmt,
# two vt tiles: one model's configs are timed on several threads, a
# single config decodes ahead of its timing), once
# with the overlay's two configs (which refuse non-shader kernels: the
# refusal must be the same too). Then, on bfs, sgemm and sgemm_shader at
# default size (launches of several chunks), one config of each model
# alone, whose CTAs are decoded and prepared on other threads ahead of
# the timing: the same report for -j 1 and -j 3 (also for sgmf and dmt on a
# random sample with functional warming). docs/emulator.md and
# docs/estimate.md describe what runs in parallel.
#
# usage: sh tests/parallel.sh [SIZE]   (default small)

size=${1:-small}
cd "$(dirname "$0")/.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
for x in "$T" "$E"; do
	if [ ! -x "$x" ]; then
		echo "parallel: $x is missing; run make first" >&2
		exit 2
	fi
done
names=$("$T" list | awk '{ print $1 }') || exit 3
[ -n "$names" ] || { echo "parallel: weft-trace list printed no workloads" >&2; exit 3; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-par.XXXXXX") || exit 3
trap 'rm -rf "$dir"' EXIT INT TERM
fail=0
n=0
many="-c fermi-sm -c sgmf-core -c dmt-cgra -c vt-c4v1r128+bi -c mimd-c4r128 --sweep fermi-sm:core.num_sm=1,2,15 --sweep sgmf-core:fabric.cores=1,2"
ov="-c overlay-ht8 -c overlay-ht16"
for w in $names; do
	n=$((n + 1))
	for j in 1 3; do
		"$T" run "$w" --size "$size" -j $j -o "$dir/$w-$j.wtr" >"$dir/$w-$j.run" 2>&1 ||
			{ echo "FAIL $w: weft-trace run -j $j exited $?"; sed 's/^/     | /' "$dir/$w-$j.run"; fail=1; continue 2; }
	done
	if ! cmp -s "$dir/$w-1.wtr" "$dir/$w-3.wtr"; then
		echo "FAIL $w: the traces of -j 1 and -j 3 differ"
		fail=1
		continue
	fi
	for set in many ov; do
		eval "cfgs=\$$set"
		for j in 1 3; do
			# shellcheck disable=SC2086 # cfgs is a list of options
			"$E" "$dir/$w-1.wtr" $cfgs --format json -j $j >"$dir/$w-$set-$j.out" 2>"$dir/$w-$set-$j.err"
			echo "exit $?" >>"$dir/$w-$set-$j.err"
		done
		if ! cmp -s "$dir/$w-$set-1.out" "$dir/$w-$set-3.out" ||
		   ! cmp -s "$dir/$w-$set-1.err" "$dir/$w-$set-3.err"; then
			echo "FAIL $w: weft-estimate $cfgs: -j 1 and -j 3 differ"
			diff "$dir/$w-$set-1.out" "$dir/$w-$set-3.out" | head -10 | sed 's/^/     | /'
			diff "$dir/$w-$set-1.err" "$dir/$w-$set-3.err" | head -10 | sed 's/^/     | /'
			fail=1
			continue 2
		fi
		if [ "$set" = many ] && ! grep -q '^exit 0$' "$dir/$w-$set-1.err"; then
			echo "FAIL $w: weft-estimate $cfgs failed"
			sed 's/^/     | /' "$dir/$w-$set-1.err"
			fail=1
			continue 2
		fi
	done
	echo "PASS $w: trace and reports the same for -j 1 and -j 3"
done
# At small size a launch is mostly one chunk; bfs and sgemm at default size
# close many (bfs: 40), which workers compress out of order and the writer
# must still put in the file in order.
for w in bfs sgemm; do
	for j in 1 3; do
		"$T" run "$w" -j $j -o "$dir/$w-d$j.wtr" >/dev/null 2>"$dir/$w-d$j.err" ||
			{ echo "FAIL $w (default size): weft-trace run -j $j failed"; cat "$dir/$w-d$j.err"; fail=1; }
	done
	if ! cmp -s "$dir/$w-d1.wtr" "$dir/$w-d3.wtr"; then
		echo "FAIL $w (default size): the traces of -j 1 and -j 3 differ"
		fail=1
	else
		echo "PASS $w (default size): the same trace for -j 1 and -j 3"
	fi
done
# One config alone: its CTAs are decoded and prepared (the per-CTA part of
# the model that needs no shared state) on the other threads, ahead of
# the timing; launches of several chunks make that happen (at small size
# a launch is one chunk and all runs on one thread). sgemm_shader for the
# overlay, which times shader-style kernels only.
"$T" run sgemm_shader -j 3 -o "$dir/sgemm_shader-d1.wtr" >/dev/null 2>"$dir/sgemm_shader-d1.err" ||
	{ echo "FAIL sgemm_shader (default size): weft-trace run failed"; cat "$dir/sgemm_shader-d1.err"; fail=1; }
# A random sample with functional warming (the default for sgmf and dmt)
# prepares the warmed CTAs there too and hands every CTA to the model in
# CTA order: the same report for -j 1 and -j 3 as well.
for spec in "bfs fermi-sm" "sgemm fermi-sm" "bfs sgmf-core" "sgemm sgmf-core" "bfs dmt-cgra" \
	    "sgemm dmt-cgra" "bfs vt-c4v1r128+bi" "sgemm mimd-c4r128" "sgemm_shader overlay-ht8" \
	    "bfs sgmf-core random:24:5" "sgemm dmt-cgra random:8:2" "bfs sgmf-core random:24:5 grid" \
	    "bfs vt-c4v1r128+bi random:24:5 grid"; do
	set -- $spec
	[ -f "$dir/$1-d1.wtr" ] || continue
	# a fourth word: windowed warming (--warm-window)
	smp=${3:+--sample $3}${4:+ --warm-window $4}
	for j in 1 3; do
		# shellcheck disable=SC2086 # smp is empty, two or four words
		"$E" "$dir/$1-d1.wtr" -c "$2" $smp --format json -j $j >"$dir/one-$j.out" 2>"$dir/one-$j.err"
		echo "exit $?" >>"$dir/one-$j.err"
	done
	if ! cmp -s "$dir/one-1.out" "$dir/one-3.out" || ! cmp -s "$dir/one-1.err" "$dir/one-3.err" ||
	   ! grep -q '^exit 0$' "$dir/one-1.err"; then
		echo "FAIL $1 (default size) -c $2 $smp: -j 1 and -j 3 differ, or -j 1 failed"
		diff "$dir/one-1.out" "$dir/one-3.out" | head -10 | sed 's/^/     | /'
		diff "$dir/one-1.err" "$dir/one-3.err" | head -10 | sed 's/^/     | /'
		fail=1
	else
		echo "PASS $1 (default size) -c $2${smp:+ $smp}: the same report for -j 1 and -j 3"
	fi
done

# The CUDA programs of tests/cuda/bin/ on weft's runtime (weft-trace exec
# -j): the same exit status, output and trace. A sanitized runtime needs
# its sanitizer preloaded into the program (tests/cuda/run.sh does that),
# so a SAN=1 run leaves them to the plain one. tests/cuda/bin/threads
# launches from four host threads at once: the order of its launches in
# the trace is the order they reach the runtime, the program's own race
# (with -j 1 as well, where it happens to be stable), so only its output
# and exit status are compared.
ncuda=0
if [ -z "${WEFT_SAN_FLAGS:-}" ] && [ -f "$BIN/cudart/libcudart.so.13" ]; then
	for prog in tests/cuda/bin/*; do
		[ -x "$prog" ] || continue
		c=${prog##*/}
		for j in 1 3; do
			"$T" exec -q -j $j -o "$dir/cuda-$c-$j.wtr" "$prog" >"$dir/cuda-$c-$j.out" 2>/dev/null
			echo "exit $?" >>"$dir/cuda-$c-$j.out"
		done
		if ! cmp -s "$dir/cuda-$c-1.out" "$dir/cuda-$c-3.out" ||
		   { [ "$c" != threads ] && [ -f "$dir/cuda-$c-1.wtr" ] && ! cmp -s "$dir/cuda-$c-1.wtr" "$dir/cuda-$c-3.wtr"; }; then
			echo "FAIL tests/cuda/bin/$c: weft-trace exec -j 1 and -j 3 differ (output, exit status or trace)"
			fail=1
		fi
		ncuda=$((ncuda + 1))
	done
	echo "parallel: $ncuda CUDA programs (weft-trace exec): output, exit status and trace the same for -j 1 and -j 3"
fi
if [ $fail -ne 0 ]; then
	echo "parallel: FAILED"
	exit 1
fi
echo "parallel: $n workloads, traces and reports byte-identical for -j 1 and -j 3 ($size)"
