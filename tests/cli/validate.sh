#!/bin/sh
# validate.sh - CLI tests for bin/weft-validate (`make cli-tests`): --help
# golden, usage and input errors with their exit codes and key phrases,
# --format csv/json parse, -o writes atomically, --strict, --trace-dir
# keeps and reuses traces. Tiny claims files made here, at small size;
# nothing checks the models' numbers (they change; docs/validate.md).
# POSIX sh, coreutils and python3.
#
# WEFT_UPDATE_GOLDEN=1 sh tests/cli/validate.sh   rewrites the golden help
# (then review the diff before committing).

cd "$(dirname "$0")/../.." || exit 3
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
BIN=${WEFT_BIN:-bin}
V=$BIN/weft-validate
G=tests/cli/golden
if [ ! -x "$V" ]; then
	echo "cli tests: $V is missing; run make first" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-cli-validate.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
T=$V
PREFIX="validate: "
. tests/cli/lib.sh

# ---- help and version -------------------------------------------------------
"$V" --help >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "${WEFT_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/out" "$G/validate-help.txt"; fi
if [ "$rc" -ne 0 ]; then bad "help" "exit status $rc"
elif ! diff -u "$G/validate-help.txt" "$tmp/out" >"$tmp/diff"; then
	cp "$tmp/diff" "$tmp/out"; : >"$tmp/err"; bad "help" "output differs from $G/validate-help.txt"
else ok "help"; fi
expect "-h" 0 "usage: weft-validate" -h
expect "version" 0 "weft-validate 0." --version

# ---- usage errors (exit 2) ---------------------------------------------------
expect "bad size" 2 "bad --size \`huge\` (small, default or large)" --size huge
expect "bad format" 2 "bad --format \`xml\`" --format xml
expect "missing value" 2 "--claims needs a value" --claims
expect "empty claims" 2 "--claims needs a file name" --claims=
expect "empty -o" 2 "-o needs a file name" -o ""
expect "empty only" 2 "--only needs a claim id" --only ""
expect "unknown option" 2 "unknown option \`--frob\`" --frob
expect "no value taken" 2 "--strict takes no value" --strict=1
expect "stray argument" 2 "unexpected argument \`claims.csv\`" claims.csv

# ---- input errors (exit 2) ---------------------------------------------------
H=id,publication,where,workloads,baseline,config,sweep,metric,aggregate,node_nm,published,band,mapping,note
printf '%s\n%s\n%s\n%s\n' "$H" \
	'sp,"Someone, 2014",Fig. 1,vvadd cmult,fermi-sm.ini,sgmf-core.ini,-,speedup,mean,-,1,x1000000,weft vvadd is the paper kernel,a note' \
	'tb,P,W,vvadd,fermi-sm.ini,sgmf-core.ini,fabric.token_buffer=1:4:x2,speedup,trend,-,non-decreasing,direction,,' \
	'ar,P,W,-,-,sgmf-core.ini,-,area,-,65,54.30,x1000000,,' >"$tmp/ok.csv"
printf '%s\n%s\n' "$H" 'far,P,W,-,-,sgmf-core.ini,-,area,-,65,1,x1.01,,' >"$tmp/far.csv"
printf '%s\n%s\n' "$H" 'a,P,W,vvadd,fermi-sm.ini,sgmf-core.ini,-,speedup,kernel,-,abc,x2,,' >"$tmp/bad.csv"
expect "missing claims file" 2 "cannot open claims file $tmp/none.csv" --claims "$tmp/none.csv"
expect "bad claim: file:line:column" 2 "bad.csv:2:59: column \`published\`: \`abc\`" --claims "$tmp/bad.csv"
expect "duplicate id across files" 2 "\`sp\` is already the id of the claim at $tmp/ok.csv:2" \
	--claims "$tmp/ok.csv" --claims "$tmp/ok.csv"
expect "unknown --only" 2 "--only nope: no claim has this id; the ids: sp, tb, ar" \
	--claims "$tmp/ok.csv" --only nope --size small
: >"$tmp/file"
expect "trace dir is a file" 2 "is not a directory" --claims "$tmp/ok.csv" --size small --trace-dir "$tmp/file"

# ---- runs --------------------------------------------------------------------
expect "table" 0 "3 claims: " --claims "$tmp/ok.csv" --size small
expect "table: in band" 0 "yes" --claims "$tmp/ok.csv" --size small --only ar
expect "table: the mapping note" 0 "mapping  weft vvadd is the paper kernel" --claims "$tmp/ok.csv" --size small

"$V" --claims "$tmp/ok.csv" --size small --format json >"$tmp/out" 2>"$tmp/err"
if [ $? -ne 0 ]; then bad "json" "exit status not 0"
elif ! python3 -m json.tool "$tmp/out" >/dev/null 2>"$tmp/err"; then bad "json" "not JSON"
elif ! python3 - "$tmp/out" <<'EOF' 2>"$tmp/err"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["size"] == "small" and r["summary"]["claims"] == 3, r["summary"]
ids = [c["id"] for c in r["claims"]]
assert ids == ["sp", "tb", "ar"], ids
sp = r["claims"][0]
assert sp["publication"] == "Someone, 2014"
assert [k["kernel"] for k in sp["weft"]["kernels"]] == ["vvadd", "cmult"]
assert sp["in_band"] in (True, False, None)
tb = r["claims"][1]
assert [p["value"] for p in tb["weft"]["points"]] == ["1", "2", "4"]
assert tb["sweep"]["key"] == "fabric.token_buffer"
assert r["claims"][2]["weft"]["area_mm2"] > 0
assert [t["workload"] for t in r["traces"]] == ["vvadd", "cmult"]
assert all(t["path"] is None for t in r["traces"])
EOF
then bad "json" "unexpected structure"
else ok "json parses, with the claims' structure"; fi

"$V" --claims "$tmp/ok.csv" --size small --format csv >"$tmp/out" 2>"$tmp/err"
if [ $? -ne 0 ]; then bad "csv" "exit status not 0"
elif ! python3 - "$tmp/out" <<'EOF' 2>"$tmp/err"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["id"] for r in rows] == ["sp", "tb", "ar"]
assert rows[0]["publication"] == "Someone, 2014"
assert all(r["in_band"] in ("yes", "no", "unknown") for r in rows)
assert float(rows[2]["weft_value"]) > 0 and rows[2]["node_nm"] == "65"
assert rows[1]["weft_value"] == "" and rows[1]["sweep"].startswith("fabric.token_buffer=")
EOF
then bad "csv" "unexpected rows or columns"
else ok "csv parses, one row per claim"; fi

# -o: written atomically (no temporary file left), same text as stdout
"$V" --claims "$tmp/ok.csv" --size small --format csv >"$tmp/stdout.csv" 2>/dev/null
"$V" --claims "$tmp/ok.csv" --size small --format csv -o "$tmp/report.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ]; then bad "-o" "exit status $rc"
elif [ -s "$tmp/out" ]; then bad "-o: stdout" "printed the report although -o was given"
elif ! cmp -s "$tmp/report.csv" "$tmp/stdout.csv"; then : >"$tmp/out"; bad "-o" "file differs from stdout"
elif ls "$tmp" | grep -q 'report.csv.tmp'; then : >"$tmp/out"; bad "-o" "a temporary file is left"
else ok "-o: same report, no temporary file left"; fi
expect "-o into a missing directory" 2 "cannot create $tmp/no/report.csv: directory $tmp/no" \
	--claims "$tmp/ok.csv" --size small --only ar -o "$tmp/no/report.csv"

# --strict: exit 1 only when a claim is out of band (or not computed)
expect "strict, all in band" 0 "1 claim: 1 in band" --claims "$tmp/ok.csv" --size small --only ar --strict
expect "out of band, not strict" 0 "0 in band, 1 out of band" --claims "$tmp/far.csv"
expect "out of band, strict" 1 "0 in band, 1 out of band" --claims "$tmp/far.csv" --strict

# --trace-dir: made, kept, reused
expect "trace dir made" 0 "in $tmp/traces (kept; 0 reused)" --claims "$tmp/ok.csv" --size small --trace-dir "$tmp/traces"
if [ -f "$tmp/traces/vvadd-small.wtr" ] && [ -f "$tmp/traces/cmult-small.wtr" ]; then ok "traces kept"
else : >"$tmp/out"; : >"$tmp/err"; bad "traces kept" "no vvadd-small.wtr / cmult-small.wtr in $tmp/traces"; fi
expect "trace dir reused" 0 "(kept; 2 reused)" --claims "$tmp/ok.csv" --size small --trace-dir "$tmp/traces"
echo junk >"$tmp/traces/cmult-small.wtr"
expect "damaged trace in trace dir" 2 "delete $tmp/traces/cmult-small.wtr" --claims "$tmp/ok.csv" --size small --trace-dir "$tmp/traces"

# the bundled claims load and run at small size
expect "bundled claims" 0 "claims: " --size small

echo "validate cli tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
