#!/bin/sh
# plot.sh - tests of weft-plot (`make cli-tests`; docs/plot.md): every plot
# type drawn as a PNG from the fixture reports in tests/fixtures/plot/, the
# file checked to be a valid PNG of the size the terminal was given
# (tests/tools/imginfo.c reads its signature and IHDR), and its gnuplot
# script checked against a golden file; SVG and PDF by their extension, the
# paper style and --size; the saved script drawing the figure again; the
# errors of bad reports and options with their exit statuses; no gnuplot,
# a gnuplot that fails and one that draws the wrong thing (exit 2, 3, 3,
# and no figure left under its name). POSIX sh and coreutils only.
#
# WEFT_UPDATE_GOLDEN=1 sh tests/cli/plot.sh   rewrites tests/cli/golden/plot-*.gp
# (then review the diff before committing).

cd "$(dirname "$0")/../.." || exit 3
BIN=${WEFT_BIN:-bin}
BUILD=${WEFT_BUILD:-build}
T=$BIN/weft-plot
I=$BUILD/tests/tools/imginfo
F=tests/fixtures/plot
G=tests/cli/golden
for x in "$T" "$I"; do
	if [ ! -x "$x" ]; then
		echo "plot tests: $x is missing; run make (and make $I) first" >&2
		exit 2
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-plot-test.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="plot: "
. tests/cli/lib.sh
have_gnuplot=0
if [ -n "${WEFT_GNUPLOT:-}" ] || command -v gnuplot >/dev/null 2>&1; then have_gnuplot=1; fi

# draw NAME GOLDEN WANT ARGS...: weft-plot ARGS (with -o $tmp/NAME.EXT among
# them) exits 0, the figure is a valid image whose imginfo line is WANT
# ("png 800 500"), and its script (TMP for the temporary directory) equals
# golden GOLDEN unless GOLDEN is "-".
draw() {
	name=$1 golden=$2 want=$3
	shift 3
	"$T" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	fig=$(sed -n 's/^wrote \([^ ]*\) (.*/\1/p' "$tmp/out")
	if [ $rc -ne 0 ]; then
		bad "$name" "exit status $rc, expected 0"
		return
	fi
	if [ -s "$tmp/err" ]; then
		bad "$name" "gnuplot or weft-plot said something on stderr"
		return
	fi
	got=$("$I" "$fig" 2>&1)
	if [ "$got" != "$want" ]; then
		echo "imginfo: $got" >"$tmp/err"
		bad "$name" "the figure is not a valid image \"$want\""
		return
	fi
	if [ "$golden" != - ]; then
		script=${fig%.*}.gp
		sed -e "s|$tmp/|TMP/|g" "$script" >"$tmp/script"
		if [ "${WEFT_UPDATE_GOLDEN:-0}" = 1 ]; then
			cp "$tmp/script" "$G/$golden"
		fi
		if [ ! -f "$G/$golden" ]; then
			bad "$name" "no golden file $G/$golden (WEFT_UPDATE_GOLDEN=1 creates it)"
			return
		elif ! diff -u "$G/$golden" "$tmp/script" >"$tmp/out"; then
			: >"$tmp/err"
			bad "$name" "the script differs from $G/$golden"
			return
		fi
	fi
	ok "$name"
}

# once NAME CODE PHRASE ARGS...: as expect, and stderr is exactly one line.
once() {
	expect "$@"
	if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		failed=$((failed + 1))
		pass=$((pass - 1))
		echo "FAIL ${PREFIX}$1: stderr has $(wc -l <"$tmp/err") lines, expected one message"
		sed 's/^/     | /' "$tmp/err" | head -n 10
	fi
}

mkdir -p "$tmp/s"
if [ $have_gnuplot = 0 ]; then
	echo "plot: SKIP drawing (gnuplot is not installed; make deps installs gnuplot-nox)"
else
	# ---- every plot type, as a PNG, and its script against the golden file ----
	draw "bars: speedup per workload and config, geomean" plot-bars.gp "png 800 500" \
		bars $F/sgemm.json $F/reduce.json --geomean -o "$tmp/bars.png"
	draw "bars: one report, energy in SI units" plot-bars-energy.gp "png 800 500" \
		bars $F/sgemm.json --metric energy_total_j -o "$tmp/bars-energy.png"
	draw "bars: a sweep's points, a model statistic" - "png 800 500" \
		bars $F/sweep-sgemm.json --metric threads_in_flight --launch 0 --configs sgmf-core -o "$tmp/bars-stat.png"
	draw "energy: stacked categories, two workloads" plot-energy.gp "png 800 500" \
		energy $F/sgemm.json $F/reduce.json -o "$tmp/energy.png"
	draw "energy: one workload in joules" - "png 800 500" energy $F/sgemm.json -o "$tmp/energy1.png"
	draw "cpi: CPI stacks, small components as other" plot-cpi.gp "png 800 500" \
		cpi $F/sgemm.json $F/reduce.json -o "$tmp/cpi.png"
	draw "cpi: --norm none, one launch" - "png 800 500" cpi $F/reduce.json --norm none --launch 1 -o "$tmp/cpi-l1.png"
	draw "sweep: speedup against the token buffer" plot-sweep.gp "png 800 500" \
		sweep $F/sweep-sgemm.json -o "$tmp/sweep.png"
	draw "sweep: energy, one config" - "png 800 500" \
		sweep $F/sweep-sgemm.json --metric energy_total_j --configs sgmf-core -o "$tmp/sweep-e.png"
	draw "dist: active-uT buckets of three PVFB policies" plot-dist.gp "png 800 500" \
		dist $F/vt-bsearch.json -o "$tmp/dist.png"
	draw "dist: --cdf" - "png 800 500" dist $F/vt-bsearch.json --cdf -o "$tmp/dist-cdf.png"
	draw "scatter: energy against performance per area" plot-scatter.gp "png 800 500" \
		scatter $F/sgemm.json $F/reduce.json -o "$tmp/scatter.png"
	draw "util: an overlay-shaped CPI stack (semwait, inside_alu, not_alu)" plot-util.gp "png 800 500" \
		util $F/overlay-util.json -o "$tmp/util.png"
	draw "util: any model's CPI stack" - "png 800 500" util $F/sgemm.json $F/vt-bsearch.json -o "$tmp/util2.png"

	# names gnuplot would misread, or run: quotes, backslashes, %, @, $, a
	# line end, a leading quote, and a config named `touch pwned` in backquotes
	for k in bars energy cpi sweep dist scatter util; do
		(cd "$tmp" && "$OLDPWD/$T" $k "$OLDPWD/$F/hostile-names.json" -o "hostile-$k.png") >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ] || [ -s "$tmp/err" ] || [ "$("$I" "$tmp/hostile-$k.png")" != "png 800 500" ]; then
			bad "$k: hostile names" "exit status $rc, or no figure"
		elif [ -e "$tmp/pwned" ] || [ -e "$tmp/pwned2" ]; then
			bad "$k: hostile names" "a name in backquotes ran as a command"
		else ok "$k: names with quotes, backslashes, %, backquotes are drawn as written"; fi
	done

	# ---- formats by extension, the paper style, --size ------------------------
	draw "svg" - "svg 800 500" cpi $F/sgemm.json -o "$tmp/cpi.svg"
	draw "pdf" - "pdf 6 3.75" cpi $F/sgemm.json -o "$tmp/cpi.pdf"
	draw "paper: pdf, a 3.5-inch column, greyscale" plot-bars-paper.gp "pdf 3.5 2.5" \
		bars $F/sgemm.json $F/reduce.json --style paper -o "$tmp/bars-paper.pdf"
	draw "paper: png at 300 dpi" - "png 1050 750" sweep $F/sweep-sgemm.json --style paper -o "$tmp/sweep-paper.png"
	draw "paper: svg" - "svg 336 240" energy $F/sgemm.json --style paper -o "$tmp/energy-paper.svg"
	draw "--size for a png" - "png 640 480" bars $F/sgemm.json --size 640x480 -o "$tmp/small.png"
	draw "--size for a pdf, in inches" - "pdf 7 3" bars $F/sgemm.json --size 7x3 -o "$tmp/wide.pdf"
	draw "upper-case extension, --title" - "png 800 500" bars $F/sgemm.json --title "it's 100% fine" -o "$tmp/upper.PNG"

	# ---- the saved script draws the figure again, and elsewhere -----------------
	rm -f "$tmp/bars.png"
	if (cd "$tmp" && gnuplot bars.gp) >/dev/null 2>&1 && [ "$("$I" "$tmp/bars.png")" = "png 800 500" ]
	then ok "the saved script draws the figure again (gnuplot FIG.gp)"
	else : >"$tmp/out"; : >"$tmp/err"; bad "the saved script" "gnuplot bars.gp did not draw bars.png"; fi
	if gnuplot -e "outfile='$tmp/again.png'" "$tmp/bars.gp" >/dev/null 2>&1 && [ "$("$I" "$tmp/again.png")" = "png 800 500" ]
	then ok "the saved script draws elsewhere (gnuplot -e \"outfile='...'\")"
	else : >"$tmp/out"; : >"$tmp/err"; bad "the saved script, outfile" "no $tmp/again.png"; fi
	expect "the script goes where --script says" 0 "gnuplot script $tmp/s/custom.gp" \
		bars $F/sgemm.json -o "$tmp/c.png" --script "$tmp/s/custom.gp" 2>/dev/null
fi
expect "--script-only writes the script, no gnuplot needed" 0 "wrote $tmp/only.gp" \
	bars $F/sgemm.json -o "$tmp/only.png" --script-only --script "$tmp/only.gp"
if [ -e "$tmp/only.png" ]; then : >"$tmp/out"; : >"$tmp/err"; bad "--script-only" "drew the figure"; fi

# ---- no gnuplot, a failing gnuplot, a gnuplot that draws the wrong thing ----
# with_env NAME VAR=VALUE: a wrapper that runs weft-plot with VAR set
with_env() {
	printf '#!/bin/sh\n%s exec "%s" "$@"\n' "$2" "$PWD/$T" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
printf '#!/bin/sh\necho "line 3: oops" >&2\nexit 1\n' >"$tmp/failgp"
printf '#!/bin/sh\neval "$2"\ncat >/dev/null\nprintf "not a png" >"$outfile"\n' >"$tmp/badgp"
chmod +x "$tmp/failgp" "$tmp/badgp"
with_env nopath PATH=/nonexistent
with_env nonegp "WEFT_GNUPLOT=$tmp/none"
with_env failing "WEFT_GNUPLOT=$tmp/failgp"
with_env drawsbad "WEFT_GNUPLOT=$tmp/badgp"
T_SAVED=$T
T=$tmp/nopath
once "no gnuplot on PATH: which package to install" 2 \
	"gnuplot is not installed (no \`gnuplot\` on PATH); install the Debian package gnuplot-nox" \
	bars $F/sgemm.json -o "$tmp/nogp.png"
if [ -e "$tmp/nogp.png" ] || [ ! -s "$tmp/nogp.gp" ]; then
	: >"$tmp/out"; bad "no gnuplot: the script is kept, no figure" "$tmp/nogp.gp missing or a figure written"
else ok "no gnuplot: the script is kept, no figure"; fi
T=$tmp/nonegp
once "WEFT_GNUPLOT not a program" 2 "WEFT_GNUPLOT=$tmp/none is not an executable file" \
	bars $F/sgemm.json -o "$tmp/nogp.png"
printf 'old figure\n' >"$tmp/keep.png"
T=$tmp/failing
once "a gnuplot that fails: internal error with its message" 3 \
	"failed on the figure's script, exit status 1: line 3: oops" bars $F/sgemm.json -o "$tmp/keep.png"
T=$tmp/drawsbad
once "a gnuplot that draws no PNG: internal error" 3 \
	"is not a valid image: no PNG signature" bars $F/sgemm.json -o "$tmp/keep.png"
T=$T_SAVED
if [ "$(cat "$tmp/keep.png")" = "old figure" ]; then ok "a failed drawing leaves the old figure as it was"
else : >"$tmp/out"; : >"$tmp/err"; bad "a failed drawing" "the old figure was replaced"; fi

# ---- bad reports (exit 2: file, what, where) --------------------------------
printf '{"configs": [\n  {"name": "a", "total": {"cycles": 1,}}\n]}\n' >"$tmp/syntax.json"
printf '[1, 2, 3]\n' >"$tmp/array.json"
printf '{"configs": [{"name": "a", "total": {"cycles": "many"}}]}\n' >"$tmp/type.json"
printf '{"configs": []}\n' >"$tmp/empty.json"
printf '{"configs": [{"name": "a", "total": {}}, {"name": "a", "total": {}}]}\n' >"$tmp/dup.json"
printf '{"configs": [{"name": "a", "total": {"cpi_stack": {"issue": 1}}, "launches": [{"launch": -1}]}]}\n' >"$tmp/launch.json"
printf '{"baseline": "a", "configs": [{"name": "a", "baseline": true, "total": {"speedup": null, "cpi_stack": {"issue": 0}}}]}\n' >"$tmp/nulls.json"
mkdir "$tmp/dir" "$tmp/dir.png"
once "a JSON syntax error: file:line:column" 2 "$tmp/syntax.json:2:39: not valid JSON" bars "$tmp/syntax.json" -o "$tmp/x.png"
once "not a report" 2 "$tmp/array.json is not a weft-estimate report" bars "$tmp/array.json" -o "$tmp/x.png"
once "a wrong type: its JSON path" 2 "$tmp/type.json: configs[0].total.cycles: expected a number or null, got a string" \
	bars "$tmp/type.json" -o "$tmp/x.png" --metric cycles
once "no configs" 2 "configs: no configs: the report is empty" bars "$tmp/empty.json" -o "$tmp/x.png"
once "two configs of one name" 2 "configs[0] and configs[1] are both named \`a\`" bars "$tmp/dup.json" -o "$tmp/x.png"
once "a negative launch index" 2 "configs[0].launches[0].launch: expected a launch index" util "$tmp/launch.json" -o "$tmp/x.png"
once "a missing report" 2 "cannot read the report $tmp/none.json" bars "$tmp/none.json" -o "$tmp/x.png"
once "a directory as a report" 2 "$tmp/dir is a directory; give a REPORT.json" bars "$tmp/dir" -o "$tmp/x.png"
once "an unknown metric, did you mean" 2 "has no figure or model statistic \`spedup\`; did you mean \`speedup\`?" \
	bars $F/sgemm.json --metric spedup -o "$tmp/x.png"
once "dist: no active-uT statistics: the vt model's" 2 \
	"$F/sgemm.json has no active-uT statistics (active_<lo>_<hi>: % of issued uT instructions); they come from the vt model" \
	dist $F/sgemm.json -o "$tmp/x.png"
once "dist: no dMT distances: the dmt model's" 2 \
	"has no dMT communication-distance statistics (dmt_dist_<lo>_<hi>); they come from the dmt model (configs/dmt-cgra.ini" \
	dist --of dmt-distance $F/sgemm.json -o "$tmp/x.png"
once "sweep: a report without a sweep" 2 "$F/sgemm.json has no sweep" sweep $F/sgemm.json -o "$tmp/x.png"
once "sweep: a key not swept, did you mean" 2 "did not sweep \`fabric.token_bufer\`; did you mean \`fabric.token_buffer\`?" \
	sweep $F/sweep-sgemm.json --key fabric.token_bufer -o "$tmp/x.png"
once "bars: every figure null: nothing to draw" 2 "nothing to draw: \`speedup\` is null in every config drawn" \
	bars "$tmp/nulls.json" -o "$tmp/x.png"
once "cpi: every component zero: nothing to draw" 2 "nothing to draw: every CPI-stack component is zero or null" \
	cpi "$tmp/nulls.json" -o "$tmp/x.png"
once "--configs: an unknown name, did you mean" 2 "no report has a config or point named \`fermi\`; did you mean \`fermi-sm\`?" \
	bars $F/sgemm.json --configs fermi -o "$tmp/x.png"
once "--launch out of range" 2 "config fermi-sm has no launch 5 (it has 2)" cpi $F/reduce.json --launch 5 -o "$tmp/x.png"
once "util: no busy component" 2 "no CPI stack has a \`busy\` component to count as busy" \
	util $F/sgemm.json --busy busy -o "$tmp/x.png"
once "energy: --norm baseline without energy" 2 "config overlay-4x4 has no energy figures" \
	energy $F/overlay-util.json -o "$tmp/x.png"

# ---- usage errors -------------------------------------------------------------
once "no kind" 2 "which plot? give a kind"
once "unknown kind, did you mean" 2 "unknown plot kind \`scater\` (bars, energy, cpi, sweep, dist, scatter or util); did you mean \`scatter\`?" \
	scater $F/sgemm.json -o "$tmp/x.png"
once "no reports" 2 "which reports?" bars -o "$tmp/x.png"
once "no figure" 2 "no figure named; add -o FIGURE.png" bars $F/sgemm.json
once "an extension that is no format" 2 "the figure's format comes from its extension: .png, .svg or .pdf" \
	bars $F/sgemm.json -o "$tmp/x.jpg"
once "-o into a missing directory" 2 "cannot create /nonexistent/x.png" bars $F/sgemm.json -o /nonexistent/x.png
once "-o a directory" 2 "$tmp/dir.png is a directory; name a file" bars $F/sgemm.json -o "$tmp/dir.png"
once "an option of another kind" 2 "--key does not apply to bars plots" bars $F/sgemm.json --key a.b -o "$tmp/x.png"
once "bad --norm" 2 "bad --norm \`half\` (none, share or baseline)" cpi $F/sgemm.json --norm half -o "$tmp/x.png"
once "bad --size" 2 "bad --size \`big\`" bars $F/sgemm.json --size big -o "$tmp/x.png"
once "--size out of range" 2 "--size 100000x10 is out of range" bars $F/sgemm.json --size 100000x10 -o "$tmp/x.png"
once "bad --style" 2 "bad --style \`journal\` (default or paper)" bars $F/sgemm.json --style journal -o "$tmp/x.png"
once "bad --launch" 2 "bad --launch \`-1\`" bars $F/sgemm.json --launch -1 -o "$tmp/x.png"
once "bad --configs" 2 "bad --configs \`a,,b\`" bars $F/sgemm.json --configs a,,b -o "$tmp/x.png"
once "the script is the figure" 2 "$tmp/x.png is the figure itself" bars $F/sgemm.json -o "$tmp/x.png" --script "$tmp/x.png"

echo "plot: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
