#!/bin/sh
# tables.sh - weft-estimate's tables for papers (`make cli-tests`;
# docs/estimate.md "LaTeX and Markdown"): golden --format latex and
# markdown reports of a small trace, --columns and --digits, a sweep's keys
# as columns, the escaping of names LaTeX and Markdown treat specially, the
# LaTeX compiled with pdflatex (skipped with a message where pdflatex or
# booktabs is not installed), and the usage errors. POSIX sh and coreutils.
#
# WEFT_UPDATE_GOLDEN=1 sh tests/cli/tables.sh   rewrites its golden files
# (then review the diff before committing).

cd "$(dirname "$0")/../.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-estimate
G=tests/cli/golden
FC=configs/fermi-sm.ini
TC=configs/tesla-sm.ini
if [ ! -x "$T" ]; then
	echo "tables tests: $T is missing; run make first" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-tables.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="tables: "
. tests/cli/lib.sh

# tgolden NAME FILE ARGS...: weft-estimate ARGS exits 0 and its output,
# with the trace's directory, size and hash normalised, equals golden FILE.
tgolden() {
	name=$1 file=$G/$2
	shift 2
	"$T" "$@" >"$tmp/raw" 2>"$tmp/err"
	rc=$?
	sed -e "s|$tmp/|TMP/|g" -e 's/fnv1a64-file:[0-9a-f]\{16\}, [0-9]* bytes/fnv1a64-file:HASH, BYTES bytes/' \
		"$tmp/raw" >"$tmp/out"
	if [ "${WEFT_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/out" "$file"
	fi
	if [ "$rc" -ne 0 ]; then
		bad "$name" "exit status $rc, expected 0"
	elif [ ! -f "$file" ]; then
		bad "$name" "no golden file $file (WEFT_UPDATE_GOLDEN=1 creates it)"
	elif ! diff -u "$file" "$tmp/out" >"$tmp/diff"; then
		cp "$tmp/diff" "$tmp/out"
		: >"$tmp/err"
		bad "$name" "output differs from $file"
	else
		ok "$name"
	fi
}

if ! $BIN/weft-trace run vvadd --size small -o "$tmp/vvadd.wtr" >/dev/null 2>"$tmp/err"; then
	: >"$tmp/out"; bad "tables: a trace" "weft-trace run -o failed"
	echo "tables: $pass passed, $failed failed"
	exit 1
fi
W=$tmp/vvadd.wtr
tgolden "latex: the default columns" estimate-vvadd.tex "$W" -c $FC -c $TC --format latex
tgolden "markdown: the default columns" estimate-vvadd.md "$W" -c $FC -c $TC --format markdown
tgolden "markdown: --columns and --digits" estimate-vvadd-columns.md "$W" -c $FC -c $TC --format markdown \
	--columns config,model,thread_insts,time_s,energy_dram_share,energy_l1_j,insts_per_s_per_mm2,cpi_issue_cycles,speedup \
	--digits 5
tgolden "latex: a sweep's keys are columns" estimate-sweep-vvadd.tex "$W" -c $FC \
	--sweep core.num_sm=1,2 --sweep tech.node_nm=40,65 --format latex --columns config,core.num_sm,tech.node_nm,time_s,energy_ratio

# names LaTeX and Markdown read as markup are printed as written
odd='we$ird_n#me&{x}~^%[1]<|>'
cp $FC "$tmp/$odd.ini"
"$T" "$W" -c $FC -c "$tmp/$odd.ini" --format latex -o "$tmp/odd.tex" 2>"$tmp/err"
if grep -qF 'we\$ird\_n\#me\&\{x\}\textasciitilde{}\textasciicircum{}\%{[}1{]}\textless{}\textbar{}\textgreater{}' "$tmp/odd.tex"
then ok "latex: special characters in a name are escaped"
else cp "$tmp/odd.tex" "$tmp/out"; bad "latex: escaping" "the name is not escaped as expected"; fi
"$T" "$W" -c $FC -c "$tmp/$odd.ini" --format markdown -o "$tmp/odd.md" 2>"$tmp/err"
if grep -qF '| we$ird\_n\#me&{x}~^%\[1\]\<\|\> |' "$tmp/odd.md"
then ok "markdown: special characters in a name are escaped"
else cp "$tmp/odd.md" "$tmp/out"; bad "markdown: escaping" "the name is not escaped as expected"; fi

# pdflatex compiles the tables (booktabs)
if ! command -v pdflatex >/dev/null 2>&1; then
	echo "tables: SKIP the LaTeX compile test: pdflatex is not installed (Debian: texlive-latex-base and texlive-latex-recommended)"
elif ! kpsewhich booktabs.sty >/dev/null 2>&1; then
	echo "tables: SKIP the LaTeX compile test: booktabs.sty is not installed (Debian: texlive-latex-recommended)"
else
	"$T" "$W" -c $FC -c $TC --format latex -o "$tmp/t1.tex" 2>"$tmp/err"
	"$T" "$W" -c $FC --sweep core.num_sm=1,2 --format latex --columns config,core.num_sm,energy_fds_share,cpi_issue_cycles \
		-o "$tmp/t2.tex" 2>>"$tmp/err"
	printf '\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\\input{t1}\n\n\\input{t2}\n\n\\input{odd}\n\\end{document}\n' \
		>"$tmp/doc.tex"
	if (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error doc.tex) >"$tmp/out" 2>&1 &&
	   [ "$(head -c 5 "$tmp/doc.pdf")" = "%PDF-" ]
	then ok "latex: pdflatex compiles the tables (default, sweep, escaped names)"
	else tail -n 20 "$tmp/out" >"$tmp/err"; : >"$tmp/out"; bad "latex: pdflatex" "the document did not compile"; fi
fi

# ---- usage errors ---------------------------------------------------------------
expect "--columns with a table: usage" 2 "--columns applies to --format latex or markdown" "$W" -c $FC --columns cycles
expect "--digits with csv: usage" 2 "--digits applies to --format latex or markdown" "$W" -c $FC --format csv --digits 3
expect "bad --digits" 2 "bad --digits \`0\` (1 to 15 significant digits)" "$W" -c $FC --format latex --digits 0
expect "unknown column, did you mean" 2 "--columns: unknown column \`speedpu\`; did you mean \`speedup\`?" \
	"$W" -c $FC --format latex --columns config,speedpu
expect "a column twice" 2 "--columns names \`cycles\` twice" "$W" -c $FC --format markdown --columns cycles,cycles
expect "an empty column" 2 "--columns has an empty name" "$W" -c $FC --format markdown --columns cycles,,ipc
expect "a swept key not swept" 2 "unknown column \`core.num_sm\`" "$W" -c $FC --format markdown --columns core.num_sm
expect "a CPI component no config has" 2 "no config's CPI stack has a component \`isue\`; did you mean \`issue\`?" \
	"$W" -c $FC --format markdown --columns cpi_isue_cycles
expect "--explain with latex: usage" 2 "a table for a paper cannot hold" "$W" -c $FC --format latex --explain
expect "bad --format names the five" 2 "bad --format \`tex\` (table, csv, json, latex or markdown)" "$W" -c $FC --format tex

echo "tables: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
