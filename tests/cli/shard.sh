#!/bin/sh
# shard.sh - sharded sweeps (`make cli-tests`; docs/scale-out.md): a sweep
# of several points over two configs with a baseline, run as N = 3 shards
# through GNU parallel as the recipe runs it, merged, and compared byte for
# byte with the report of one process in table, CSV and JSON (and with
# --explain), LaTeX and Markdown tables made by the merge; then every refusal of --merge (missing, repeated, other run,
# truncated, damaged, not a part) and of --shard, each with its message and
# exit status 2. GNU parallel is a dependency (make deps): without it the
# test fails, it does not skip.

cd "$(dirname "$0")/../.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-estimate
if [ ! -x "$T" ]; then
	echo "shard tests: $T is missing; run make first" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-shard.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="shard: "
. tests/cli/lib.sh

if ! command -v parallel >/dev/null 2>&1; then
	echo "FAIL shard: GNU parallel is not installed; run make deps (it installs the Debian package parallel)"
	exit 1
fi
if ! $BIN/weft-trace run bfs --size small -o "$tmp/bfs.wtr" >/dev/null 2>"$tmp/err" ||
   ! $BIN/weft-trace run vvadd --size small -o "$tmp/vvadd.wtr" >/dev/null 2>>"$tmp/err"; then
	: >"$tmp/out"; bad "traces" "weft-trace run -o failed"
	exit 1
fi

# same NAME A B: files A and B are byte for byte the same
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then ok "$1"
	else diff -u "$2" "$3" 2>&1 | head -n 20 >"$tmp/out"; : >"$tmp/err"; bad "$1" "$3 differs from $2"; fi
}

# The run: fermi-sm swept over the node (2 points), sgmf-core over the
# token buffer and the node (8 points); the baseline is point 5, in shard 2.
W=$tmp/bfs.wtr
set -- "$W" -c configs/fermi-sm.ini -c configs/sgmf-core.ini --sweep fabric.token_buffer=1,2,4,8 \
	--sweep tech.node_nm=40,45 --baseline 'sgmf-core[fabric.token_buffer=2,tech.node_nm=45]'

# shards FMT DIR [ARGS...]: the run's 3 shards through GNU parallel into DIR
shards() {
	fmt=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	parallel --will-cite -q --halt now,fail=1 "$T" "$@" --format "$fmt" --shard '{}/3' -o "$dir/part-{}.json" \
		::: 0 1 2 2>"$tmp/err"
}

for fmt in table csv json; do
	"$T" "$@" --format $fmt >"$tmp/one.$fmt" 2>"$tmp/err" || bad "one process ($fmt)" "exit status $?"
	if shards $fmt "$tmp/$fmt" "$@"; then ok "3 shards through GNU parallel ($fmt)"
	else : >"$tmp/out"; bad "3 shards through GNU parallel ($fmt)" "parallel failed"; fi
	"$T" --merge "$tmp/$fmt/part-2.json" "$tmp/$fmt/part-0.json" "$tmp/$fmt/part-1.json" \
		>"$tmp/merged.$fmt" 2>"$tmp/err" || bad "merge ($fmt)" "exit status $?"
	same "merged = one process, byte for byte ($fmt)" "$tmp/one.$fmt" "$tmp/merged.$fmt"
done

# ---- tables for a paper: made by the merge, never by a shard ----------------
for fmt in latex markdown; do
	"$T" "$@" --format $fmt --columns config,tech.node_nm,cycles,speedup --digits 4 >"$tmp/one.$fmt" \
		2>"$tmp/err" || bad "one process ($fmt)" "exit status $?"
	"$T" --merge "$tmp/json"/part-*.json --format $fmt --columns config,tech.node_nm,cycles,speedup \
		--digits 4 >"$tmp/merged.$fmt" 2>"$tmp/err" || bad "merge ($fmt)" "exit status $?"
	same "merged = one process, byte for byte ($fmt, --columns, --digits)" "$tmp/one.$fmt" "$tmp/merged.$fmt"
done
expect "--shard with --format latex" 2 "--shard writes a part, not a table; give --format latex or markdown" \
	"$@" --format latex --shard 0/3
expect "--merge --columns of another run's sweep" 2 "fabric.token_buffr" --merge "$tmp/json"/part-*.json \
	--format markdown --columns config,fabric.token_buffr
expect "--merge --columns without a table for a paper" 2 "--columns applies to --format latex or markdown" \
	--merge "$tmp/json"/part-*.json --columns config

grep -q "^sweep .*10 points, trace read 2 times" "$tmp/merged.table" && ok "merged table: 10 points, the trace read 2 times (as one process)" ||
	{ cp "$tmp/merged.table" "$tmp/out"; bad "merged table sweep line" "no '10 points, trace read 2 times'"; }

# --format at the merge; -o writes the same atomically; a part on stdout
"$T" --merge "$tmp/table"/part-*.json --format json >"$tmp/m.json" 2>"$tmp/err"
same "merge --format json of table parts = one process's json" "$tmp/one.json" "$tmp/m.json"
"$T" --merge "$tmp/csv"/part-*.json -o "$tmp/m.csv" >"$tmp/out" 2>"$tmp/err"
same "merge -o FILE = one process's csv" "$tmp/one.csv" "$tmp/m.csv"
"$T" "$@" --shard 1/3 >"$tmp/stdout-part.json" 2>"$tmp/err"
same "a part on stdout = the part -o writes" "$tmp/table/part-1.json" "$tmp/stdout-part.json"
if command -v python3 >/dev/null 2>&1 && python3 -m json.tool "$tmp/table/part-0.json" >/dev/null 2>&1; then
	ok "a part is JSON"
else : >"$tmp/out"; : >"$tmp/err"; bad "a part is JSON" "python3 -m json.tool rejects it"; fi

# --explain (the fabric and dMT models explain each launch), more shards than points
set -- "$W" -c configs/fermi-sm.ini -c configs/sgmf-core.ini -c configs/dmt-cgra.ini --explain
"$T" "$@" >"$tmp/one-x.table" 2>"$tmp/err"
mkdir -p "$tmp/x"
parallel --will-cite -q "$T" "$@" --shard '{}/5' -o "$tmp/x/part-{}.json" ::: 0 1 2 3 4 2>"$tmp/err"
"$T" --merge "$tmp/x"/part-*.json >"$tmp/merged-x.table" 2>"$tmp/err"
same "--explain, 5 shards of 3 points: merged = one process" "$tmp/one-x.table" "$tmp/merged-x.table"
expect "--explain parts merged as csv" 2 "--explain, whose prose a CSV row cannot hold" --merge "$tmp/x"/part-*.json \
	--format csv

# ---- what --merge refuses (exit 2, the part named) -----------------------------
P=$tmp/table
expect "missing shard" 2 "1 of the 3 shards is missing (shard 2;" --merge "$P/part-0.json" "$P/part-1.json"
expect "two missing shards" 2 "2 of the 3 shards are missing (shards 0, 2;" --merge "$P/part-1.json"
expect "a shard twice" 2 "$P/part-1.json: shard 1 of 3 again: $P/part-1.json is that shard's part already" \
	--merge "$P/part-0.json" "$P/part-1.json" "$P/part-1.json" "$P/part-2.json"
mkdir -p "$tmp/v"
"$T" "$tmp/vvadd.wtr" -c configs/fermi-sm.ini -c configs/sgmf-core.ini --sweep fabric.token_buffer=1,2,4,8 \
	--sweep tech.node_nm=40,45 --baseline 'sgmf-core[fabric.token_buffer=2,tech.node_nm=45]' --shard 2/3 \
	-o "$tmp/v/part-2.json" 2>"$tmp/err"
expect "a part of another trace" 2 "$tmp/v/part-2.json: not a part of the same run as $P/part-0.json: their trace.path differs" \
	--merge "$P/part-0.json" "$P/part-1.json" "$tmp/v/part-2.json"
cp "$tmp/vvadd.wtr" "$tmp/v/bfs.wtr"
(cd "$tmp/v" && "$OLDPWD/$T" bfs.wtr -c "$OLDPWD/configs/fermi-sm.ini" --shard 0/1 -o p.json) 2>"$tmp/err"
(cd "$tmp/v" && "$OLDPWD/$T" bfs.wtr -c "$OLDPWD/configs/fermi-sm.ini" --shard 0/1 -o q.json) 2>"$tmp/err"
cp "$tmp/bfs.wtr" "$tmp/v/bfs.wtr"
(cd "$tmp/v" && "$OLDPWD/$T" bfs.wtr -c "$OLDPWD/configs/fermi-sm.ini" --shard 0/1 -o q.json) 2>"$tmp/err"
(cd "$tmp/v" && "$OLDPWD/$T" --merge p.json q.json) >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -qF "q.json: not a part of the same run as p.json: their trace.hash differs" "$tmp/err"
then ok "the same trace path, another trace: its hash differs"
else bad "the same trace path, another trace" "exit status $rc"; fi
"$T" "$W" -c configs/fermi-sm.ini -c configs/sgmf-core.ini --sweep fabric.token_buffer=1,2,4,16 \
	--sweep tech.node_nm=40,45 --baseline 'sgmf-core[fabric.token_buffer=2,tech.node_nm=45]' --shard 2/3 \
	-o "$tmp/v/other-sweep.json" 2>"$tmp/err"
expect "a part of another command (other sweep values)" 2 "their points[8].name differs" \
	--merge "$P/part-0.json" "$P/part-1.json" "$tmp/v/other-sweep.json"
"$T" "$W" -c configs/fermi-sm.ini -c configs/sgmf-core.ini --sweep fabric.token_buffer=1,2,4,8 \
	--sweep tech.node_nm=40,45 --shard 2/3 -o "$tmp/v/other-baseline.json" 2>"$tmp/err"
expect "a part of another command (other baseline)" 2 "their baseline differs (5 there, 0 here)" \
	--merge "$P/part-0.json" "$P/part-1.json" "$tmp/v/other-baseline.json"
"$T" "$W" -c configs/fermi-sm.ini -c configs/sgmf-core.ini --sweep fabric.token_buffer=1,2,4,8 \
	--sweep tech.node_nm=40,45 --baseline 'sgmf-core[fabric.token_buffer=2,tech.node_nm=45]' --shard 2/4 \
	-o "$tmp/v/other-n.json" 2>"$tmp/err"
expect "a part of another N" 2 "their shards differs (3 there, 4 here)" \
	--merge "$P/part-0.json" "$P/part-1.json" "$tmp/v/other-n.json"
expect "parts of another format" 2 "their format differs (\"table\" there, \"csv\" here)" \
	--merge "$P/part-0.json" "$P/part-1.json" "$tmp/csv/part-2.json"
head -c 5000 "$P/part-1.json" >"$tmp/trunc.json"
expect "a truncated part" 2 "$tmp/trunc.json:1:5000: the shard part ends too early: truncated" \
	--merge "$P/part-0.json" "$tmp/trunc.json" "$P/part-2.json"
sed 's/"cycles":\([0-9]\)/"cycles":9\1/' "$P/part-1.json" >"$tmp/edited.json"
expect "a damaged part (a figure changed)" 2 "$tmp/edited.json: the part's checksum does not match its content" \
	--merge "$P/part-0.json" "$tmp/edited.json" "$P/part-2.json"
printf '{"weft_shard_part": 1, "shard": 0}' >"$tmp/short.json"
expect "a part without its checksum" 2 "$tmp/short.json: not a valid shard part: \"checksum\" is missing" \
	--merge "$tmp/short.json"
expect "a report, not a part" 2 "$tmp/one.json: not a weft-estimate shard part" --merge "$tmp/one.json"
: >"$tmp/empty.json"
expect "an empty part" 2 "an empty file, not a shard part" --merge "$tmp/empty.json"
expect "a missing part" 2 "cannot open shard part $tmp/none.json: No such file" --merge "$tmp/none.json"
expect "a directory as a part" 2 "$tmp/v is a directory, not a shard part" --merge "$tmp/v"
expect "--merge without parts" 2 "--merge: which parts?" --merge
expect "--merge with a run's options" 2 "--merge takes the parts, --format, --columns, --digits and -o only" --merge "$P/part-0.json" \
	-c configs/fermi-sm.ini

# ---- --shard K/N ---------------------------------------------------------------
expect "--shard K = N" 2 "--shard 3/3: K must be less than N (shards are numbered 0 to 2)" "$W" -c configs/fermi-sm.ini \
	--shard 3/3
expect "--shard K > N" 2 "--shard 5/3: K must be less than N" "$W" -c configs/fermi-sm.ini --shard 5/3
expect "--shard N = 0" 2 "--shard 0/0: N must be at least 1" "$W" -c configs/fermi-sm.ini --shard 0/0
expect "--shard too many" 2 "--shard 0/5000: at most 4096 shards" "$W" -c configs/fermi-sm.ini --shard 0/5000
for junk in x 1 1/ /3 -1/3 1/-3 '1/3/4' ' 1/3' '1/3 ' 0x1/3 1.0/3 '' 99999999999/3; do
	expect "--shard \`$junk\`" 2 "bad --shard \`$junk\`; give K/N with 0 <= K < N" "$W" -c configs/fermi-sm.ini \
		--shard "$junk"
done

echo "shard tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
