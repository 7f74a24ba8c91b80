#!/bin/sh
# overlay.sh - the FPGA overlay model (configs/overlay-ht8.ini,
# configs/overlay-ht16.ini) on the shader-style workloads matmatmult,
# sgemm_shader and photon at the small size (`make cli-tests`; issue 14's
# "Done when"): `--sweep overlay.batches=1,2,4,8,16,32,64` on both links
# prints, per point, the ALU utilisation and the idle breakdown (the CPI
# stack: alu, semwait, inside_alu, not_alu, adding up to the cycles) and
# the speedup over one batch context; a golden table for matmatmult;
# --explain names the regime and judges the link and the tags; a kernel
# with shared memory and barriers is refused with exit status 2 and one
# line naming it; weft-area counts the register file's M-RAMs. POSIX sh.

cd "$(dirname "$0")/../.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
A=$BIN/weft-area
for b in "$T" "$E" "$A"; do
	[ -x "$b" ] || { echo "overlay tests: $b is missing; run make first" >&2; exit 2; }
done
G=tests/cli/golden
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-overlay.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   overlay: $1"; }
bad() {
	failed=$((failed + 1))
	echo "FAIL overlay: $1: $2"
	[ -f "$tmp/err" ] && head -n 10 "$tmp/err" | sed 's/^/     | /'
}
SWEEP=overlay.batches=1,2,4,8,16,32,64

for w in matmatmult sgemm_shader photon; do
	if ! "$T" run "$w" --size small -o "$tmp/$w.wtr" >/dev/null 2>"$tmp/err"; then
		bad "$w" "weft-trace run failed"
		continue
	fi
	for c in overlay-ht8 overlay-ht16; do
		if ! "$E" "$tmp/$w.wtr" -c "$c" --sweep "$SWEEP" --format csv -o "$tmp/$w-$c.csv" 2>"$tmp/err"; then
			bad "$w on $c" "weft-estimate --sweep exit status $?"
			continue
		fi
		# 7 totals rows; the CPI columns add up to the cycles; speedup of the
		# first point (one batch) is 1, of 64 batches more than 8
		res=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			$h["launch"] == "total" {
				n++
				s = $h["cpi_alu_cycles"] + $h["cpi_semwait_cycles"] + $h["cpi_inside_alu_cycles"] + $h["cpi_not_alu_cycles"]
				d = s - $h["cycles"]; if (d < 0) d = -d
				if (!($h["cycles"] > 0) || d > 1e-6 * $h["cycles"]) bad = 1
				if ($h["overlay.batches"] == 1 && $h["speedup"] != 1) bad = 1
				if ($h["overlay.batches"] == 64 && !($h["speedup"] > 8)) bad = 1
			}
			END { print n + 0, bad + 0 }' "$tmp/$w-$c.csv")
		if [ "$res" = "7 0" ]; then
			ok "$w on $c: 7 points, breakdown sums to the cycles, speedup over one batch"
		else
			bad "$w on $c" "points and bad rows: $res"
		fi
		# the table shows utilisation (cpi alu %), breakdown and speedup per point
		if "$E" "$tmp/$w.wtr" -c "$c" --sweep "$SWEEP" >"$tmp/out" 2>"$tmp/err" &&
			grep -q "speedup" "$tmp/out" && [ "$(grep -c '^ *cpi alu' "$tmp/out")" -eq 7 ]; then
			ok "$w on $c: the table gives a cpi line (alu %, then the idle reasons) per point"
		else
			bad "$w on $c table" "no speedup column or not 7 cpi lines"
		fi
	done
done

# golden: matmatmult's sweep on both links
if [ -f "$tmp/matmatmult.wtr" ]; then
	name="golden sweep table" file=$G/estimate-overlay-matmatmult.txt
	"$E" "$tmp/matmatmult.wtr" -c overlay-ht8 -c overlay-ht16 --sweep "$SWEEP" >"$tmp/raw" 2>"$tmp/err"
	rc=$?
	sed -e "s|$tmp/|TMP/|g" -e "s|$PWD/||g" \
	    -e 's/fnv1a64-file\([: ]\)[0-9a-f]\{16\}/fnv1a64-file\1HASH/g' \
	    -e 's/([0-9]* bytes, fnv1a64-file/(BYTES bytes, fnv1a64-file/' "$tmp/raw" >"$tmp/out"
	[ "${WEFT_UPDATE_GOLDEN:-0}" = 1 ] && cp "$tmp/out" "$file"
	if [ "$rc" -ne 0 ]; then
		bad "$name" "exit status $rc"
	elif ! diff -u "$file" "$tmp/out" >"$tmp/err"; then
		bad "$name" "output differs from $file"
	else
		ok "$name"
	fi
	if "$E" "$tmp/matmatmult.wtr" -c overlay-ht8 --explain >"$tmp/out" 2>"$tmp/err" &&
		grep -q "regime: ALU-bound" "$tmp/out" && grep -q " tex     1 ld.global" "$tmp/out"; then
		ok "--explain names the regime and each instruction's role"
	else
		bad "--explain" "no regime or role lines"
	fi
	if "$E" "$tmp/matmatmult.wtr" -c overlay-ht8 --set overlay.batches=2 --explain >"$tmp/out" 2>"$tmp/err" &&
		grep -q "regime: pipeline latency (inside_alu)" "$tmp/out"; then
		ok "--explain: 2 batches are pipeline-latency bound"
	else
		bad "--explain 2 batches" "not the inside_alu regime"
	fi
	# each point's explanation also judges the memory side on its link
	for c in overlay-ht8 overlay-ht16; do
		bits=8
		[ "$c" = overlay-ht16 ] && bits=16
		if "$E" "$tmp/matmatmult.wtr" -c "$c" --sweep overlay.batches=1,64 --explain >"$tmp/out" 2>"$tmp/err" &&
			[ "$(grep -c "^  periods: alu " "$tmp/out")" -eq 2 ] &&
			[ "$(grep -c "^  memory: .* over the $bits-bit link.*: neither link nor tags is full" "$tmp/out")" -eq 2 ]; then
			ok "--explain on $c: periods and the memory side (link, tags) per point"
		else
			bad "--explain on $c" "no periods or memory lines"
		fi
	done
	if "$E" "$tmp/matmatmult.wtr" -c overlay-ht8 --set tex.max_outstanding=4 --explain >"$tmp/out" 2>"$tmp/err" &&
		grep -q "^  memory: .*: the tags limit" "$tmp/out"; then
		ok "--explain: 4 tags limit matmatmult"
	else
		bad "--explain 4 tags" "the tags are not named the limit"
	fi
fi

# refused: matmul stages tiles in shared memory between barriers
if "$T" run matmul --size small -o "$tmp/matmul.wtr" >/dev/null 2>"$tmp/err"; then
	"$E" "$tmp/matmul.wtr" -c overlay-ht8 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "kernel matmul_tiled, pc [0-9]* .*shared memory; the overlay runs shader-style kernels" "$tmp/err"; then
		ok "matmul refused: exit 2, one line naming kernel, pc and reason"
	else
		bad "matmul refused" "exit status $rc"
	fi
fi

# resources instead of area
if "$A" configs/overlay-ht8.ini --set overlay.batches=64 >"$tmp/out" 2>"$tmp/err" &&
	grep -q "^stratix2_mram  *8 " "$tmp/out"; then
	ok "weft-area: 64 batches of 128 registers take 8 M-RAMs"
else
	bad "weft-area" "no 8 M-RAMs for 64 batches"
fi

echo "overlay tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
