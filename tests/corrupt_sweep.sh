#!/bin/sh
# corrupt_sweep.sh - damaged traces (`make corrupt-tests`, in `make check`).
# A small trace (hotspot, small size: two launches, the second sharing the
# first's program; about 3 KB) is damaged one way at a time, at positions
# from awk's generator with a fixed seed plus the first, middle and last
# byte of every part (header, each record, footer), and read by four
# consumers: `weft-trace dump` (first 200 lines), `weft-trace stats` (every
# CTA), `weft-trace verify`, and tests/tools/trace_mutate.c's `decode`
# (every thread's every dynamic instruction through the library's iterator,
# as a model reads them, hashed). Each runs under `timeout`.
#
# 1. Single-byte flips and truncations, as they are: each consumer either
#    refuses the file (exit 2; verify: 1, or 2 for "not a weft trace") with
#    "byte offset N" in its message, N inside the damaged part (a
#    truncation: anywhere), or reads exactly what the original gives (same
#    output; every byte is under a CRC-32, so this should not happen).
# 2. The same flips with every CRC recomputed (trace_mutate ... recrc), so
#    they reach the parsers behind the checksums: each consumer either
#    refuses the file with exit 2 (verify: 1 or 2) and a message, or reads
#    it with exit 0 (the flip may be a valid change).
# 3. Flips inside the decompressed content of the zstd frames (static
#    programs and chunk payloads), recompressed, with offsets, lengths and
#    CRCs made right (trace_mutate ... rawflip): most compressed-byte flips
#    of 2. end at zstd's own checks, these reach the program reader and the
#    CTA decoder. Same rule as 2.
# Never: a crash (exit >= 128), a hang (timeout), an internal error (3).
#
# KNOWN (allowed for now, counted and listed apart): with recomputed CRCs, a
# launch record claiming a huge number of threads per CTA makes the CTA
# decoder (trace/format/trace_decode.c, ensure) fail to allocate: exit 3
# "out of memory decoding trace" instead of a corrupt-trace error (exit 2).
# Only that message in modes 2 and 3 is let through. Being fixed
# separately; once fixed, set KNOWN_OOM=0 below so it fails again.
#
# usage: sh tests/corrupt_sweep.sh [RANDOM_FLIPS [RAW_FLIPS]]   (default 100 80)
#        WEFT_SWEEP_SEED=N changes the positions; WEFT_SWEEP_VERBOSE=1 prints
#        every outcome that is not a refusal; WEFT_SWEEP_WORKLOAD=W sweeps a
#        trace of bundled workload W (small size) instead of hotspot.

cd "$(dirname "$0")/.." || exit 3
T=${WEFT_BIN:-bin}/weft-trace
M=${WEFT_BUILD:-build}/tests/tools/trace_mutate
KNOWN_OOM=0
nrand=${1:-100}
nraw=${2:-80}
seed=${WEFT_SWEEP_SEED:-4242}
for b in "$T" "$M"; do
	if [ ! -x "$b" ]; then
		echo "corrupt sweep: $b is missing; run make $M first" >&2
		exit 2
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-corrupt.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
orig=$tmp/orig.wtr
x=$tmp/x.wtr
wl=${WEFT_SWEEP_WORKLOAD:-hotspot}
"$T" run "$wl" --size small -o "$orig" >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; echo "corrupt sweep: cannot make the trace" >&2; exit 3; }
size=$(wc -c <"$orig")
"$M" "$orig" layout >"$tmp/layout" || { echo "corrupt sweep: layout of the original failed" >&2; exit 3; }

# The consumers: NAME and command (the file is the last argument).
consumers="dump stats verify decode"
consume() {
	case $1 in
	dump) timeout 20 "$T" dump "$2" ;;
	stats) timeout 20 "$T" stats "$2" ;;
	verify) timeout 20 "$T" verify "$2" ;;
	decode) timeout 20 "$M" "$2" decode ;;
	esac
}
for c in $consumers; do
	consume "$c" "$orig" >"$tmp/ref.$c" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; echo "corrupt sweep: $c of the original failed" >&2; exit 3; }
done

cases=0
failed=0
known=0
refused=0
same=0
accepted=0
fail() {
	failed=$((failed + 1))
	echo "FAIL corrupt: $1: $2"
	head -n 3 "$tmp/err" | cut -c 1-300 | sed 's/^/     | /'
}

# part OFFSET: "START END NAME" of the part holding byte OFFSET.
part() {
	awk -v o="$1" '$1 <= o && o < $1 + $2 { print $1, $1 + $2, $3; exit }' "$tmp/layout"
}

# check WHAT MODE LO HI: runs every consumer on $x. MODE plain: refused with
# an offset in [LO, HI), or the original's output; recrc or raw: refused
# (2; verify 1 or 2) or read (0).
check() {
	what=$1 mode=$2 lo=$3 hi=$4
	cases=$((cases + 1))
	for c in $consumers; do
		consume "$c" "$x" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 124 ]; then
			fail "$what" "$c hangs (killed after 20 s)"
			continue
		elif [ "$rc" -ge 128 ]; then
			fail "$what" "$c crashes (exit $rc)"
			continue
		elif [ "$rc" -eq 3 ] && [ "$mode" != plain ] && [ "$KNOWN_OOM" = 1 ] &&
			grep -q "out of memory decoding trace" "$tmp/err"; then
			known=$((known + 1))
			echo "KNOWN corrupt: $what: $c: exit 3 out of memory (huge threads per CTA; to be exit 2)"
			continue
		fi
		if [ "$rc" -eq 0 ]; then
			if cmp -s "$tmp/out" "$tmp/ref.$c"; then
				same=$((same + 1))
				[ -z "$WEFT_SWEEP_VERBOSE" ] || echo "same     $what: $c"
			elif [ "$mode" != plain ]; then
				accepted=$((accepted + 1))
				[ -z "$WEFT_SWEEP_VERBOSE" ] || echo "accepted $what: $c"
			else
				: >"$tmp/err"
				fail "$what" "$c reads it (exit 0) with output different from the original's"
			fi
			continue
		fi
		case $c:$rc in
		verify:1 | verify:2 | dump:2 | stats:2 | decode:2) ;;
		*)
			fail "$what" "$c: exit $rc, expected 0 or a refusal"
			continue ;;
		esac
		if [ ! -s "$tmp/err" ]; then
			fail "$what" "$c refuses it (exit $rc) without a message"
			continue
		fi
		if [ "$mode" = plain ]; then
			off=$(sed -n 's/.*at byte offset \([0-9][0-9]*\).*/\1/p' "$tmp/err" | head -n 1)
			if [ -z "$off" ]; then
				fail "$what" "$c's message names no byte offset"
				continue
			elif [ "$off" -lt "$lo" ] || [ "$off" -ge "$hi" ]; then
				fail "$what" "$c names byte offset $off, outside the damaged part [$lo, $hi)"
				continue
			fi
		fi
		refused=$((refused + 1))
	done
}

# The positions: first, middle and last byte of every part, then random ones.
awk '{ print $1; print $1 + int($2 / 2); print $1 + $2 - 1 }' "$tmp/layout" >"$tmp/pos"
awk -v seed="$seed" -v n="$nrand" -v size="$size" 'BEGIN {
	srand(seed)
	for (i = 0; i < n; i++) print int(rand() * size)
}' >>"$tmp/pos"
# a mask per position (1..255), also from the fixed seed
awk -v seed="$((seed + 1))" 'BEGIN { srand(seed) } { print $1, 1 + int(rand() * 255) }' "$tmp/pos" >"$tmp/flips"
nflips=$(wc -l <"$tmp/flips")
# raw flips: a frame (uniformly), a byte of its content, a mask
"$M" "$orig" frames >"$tmp/frames" || exit 3
awk -v seed="$((seed + 3))" -v n="$nraw" '{ f[NR - 1] = $4 } END {
	srand(seed)
	for (i = 0; i < n; i++) { k = int(rand() * NR); print k, int(rand() * f[k]), 1 + int(rand() * 255) }
}' "$tmp/frames" >"$tmp/rawflips"
echo "corrupt sweep: $wl small trace, $size bytes, $(wc -l <"$tmp/layout") parts," \
	"$(wc -l <"$tmp/frames") zstd frames; $nflips flips, $nraw content flips, seed $seed"

t0=$(date +%s)
for mode in plain recrc raw; do
	c0=$cases f0=$failed k0=$known r0=$refused s0=$same a0=$accepted
	if [ "$mode" = raw ]; then
		while read -r k pos mask; do
			set -- $(awk -v k="$k" '$1 == k { print $2, $3 }' "$tmp/frames")
			"$M" "$orig" "$x" rawflip "$k" "$pos" "$mask" || exit 3
			check "content flip of byte $pos of frame $k ($1 at $2) by $mask" raw 0 0
		done <"$tmp/rawflips"
	else while read -r pos mask; do
		set -- $(part "$pos")
		if [ "$mode" = plain ]; then
			"$M" "$orig" "$x" flip "$pos" "$mask" || exit 3
		else
			"$M" "$orig" "$x" flip "$pos" "$mask" recrc || exit 3
		fi
		check "$mode flip of byte $pos ($3 at $1) by $mask" "$mode" "$1" "$2"
	done <"$tmp/flips"; fi
	if [ "$mode" = plain ]; then
		# truncations: at every part boundary and one byte either side, and
		# at random lengths; any offset may be named
		{ awk '{ print $1; print $1 + 1; print $1 + $2 - 1 }' "$tmp/layout"
		  awk -v seed="$((seed + 2))" -v size="$size" 'BEGIN {
			srand(seed); for (i = 0; i < 20; i++) print int(rand() * size) }'
		} | sort -n -u >"$tmp/cuts"
		while read -r len; do
			[ "$len" -lt "$size" ] || continue
			"$M" "$orig" "$x" truncate "$len" || exit 3
			check "truncation to $len bytes" plain 0 "$size"
		done <"$tmp/cuts"
	fi
	echo "corrupt sweep, $mode: $((cases - c0)) cases x 4 consumers: $((refused - r0)) refusals," \
		"$((same - s0)) read as the original, $((accepted - a0)) read as a different valid trace," \
		"$((known - k0)) known out-of-memory, $((failed - f0)) failures"
done
t1=$(date +%s)
echo "corrupt sweep: $cases cases in $((t1 - t0)) s; $failed failed, $known known"
[ "$failed" -eq 0 ]
