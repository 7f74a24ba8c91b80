#!/bin/sh
# study.sh - tests of weft-study (`make cli-tests`; docs/weft-study.md):
# every bundled recipe at small size into a temporary folder and trace
# cache (report.md with its provenance and commands, every figure a valid
# PNG, the tables in LaTeX and Markdown, the reports); a second run
# reusing every trace from the cache and replacing the folder; the
# folder's atomicity (nothing at DIR after a failed study, a DIR that is
# not weft-study's refused); recipe errors with file:line and exit 2.
# POSIX sh and coreutils only.

cd "$(dirname "$0")/../.." || exit 3
BIN=${WEFT_BIN:-bin}
BUILD=${WEFT_BUILD:-build}
T=$BIN/weft-study
I=$BUILD/tests/tools/imginfo
for x in "$T" "$I"; do
	if [ ! -x "$x" ]; then
		echo "study tests: $x is missing; run make (and make $I) first" >&2
		exit 2
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-study-test.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="study: "
. tests/cli/lib.sh
C=$tmp/cache
have_gnuplot=0
if [ -n "${WEFT_GNUPLOT:-}" ] || command -v gnuplot >/dev/null 2>&1; then have_gnuplot=1; fi

# check_folder NAME DIR: report.md, figures as valid PNGs with their
# scripts, every table in both formats, a JSON and CSV per report
check_folder() {
	name=$1 dir=$2
	: >"$tmp/out"
	: >"$tmp/err"
	for f in report.md .weft-study; do
		[ -f "$dir/$f" ] || { bad "$name" "no $f in $dir"; return; }
	done
	for s in "## Provenance" "### Traces" "## Commands" "weft-estimate " "weft-trace run "; do
		grep -qF -- "$s" "$dir/report.md" || { bad "$name" "report.md lacks \"$s\""; return; }
	done
	nfig=0
	for png in "$dir"/figures/*.png; do
		[ -f "$png" ] || continue
		info=$("$I" "$png" 2>&1)
		case "$info" in
		"png 800 500") ;;
		*) echo "$png: $info" >"$tmp/err"; bad "$name" "a figure is not an 800x500 PNG"; return ;;
		esac
		[ -f "${png%.png}.gp" ] || { bad "$name" "no script beside $png"; return; }
		grep -qF "(figures/${png##*/})" "$dir/report.md" || { bad "$name" "report.md does not show $png"; return; }
		nfig=$((nfig + 1))
	done
	[ "$nfig" -gt 0 ] || { bad "$name" "no figure in $dir/figures"; return; }
	for tex in "$dir"/tables/*/*.tex; do
		[ -f "$tex" ] || { bad "$name" "no LaTeX table"; return; }
		grep -qF '\toprule' "$tex" || { bad "$name" "$tex is not a booktabs table"; return; }
		[ -f "${tex%.tex}.md" ] || { bad "$name" "no Markdown beside $tex"; return; }
	done
	for j in "$dir"/json/*/*.json; do
		[ -f "$j" ] || { bad "$name" "no JSON report"; return; }
		c=${j#"$dir"/json/}
		[ -f "$dir/csv/${c%.json}.csv" ] || { bad "$name" "no CSV beside $j"; return; }
	done
	ok "$name ($nfig figures)"
}

# ---- every bundled recipe at small size -----------------------------------------
if [ $have_gnuplot = 1 ]; then
	for r in recipes/*.ini; do
		n=${r##*/}
		n=${n%.ini}
		"$T" "$n" --size small -o "$tmp/$n" --trace-cache "$C" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			bad "recipe $n at small size" "exit status $rc"
			continue
		fi
		grep -qF "wrote $tmp/$n/: report.md" "$tmp/out" || { bad "recipe $n" "no summary line"; continue; }
		grep -qF "weft-study: estimating" "$tmp/err" || { bad "recipe $n" "no progress on stderr"; continue; }
		check_folder "recipe $n at small size" "$tmp/$n"
		[ -e "$tmp/$n.tmp" ] && bad "recipe $n" "$tmp/$n.tmp left behind"
	done
	# the recipes' own checks
	grep -qF "## Not yet modelled" "$tmp/sgmf/report.md" && ok "sgmf: what is not modelled" ||
		bad "sgmf: what is not modelled" "report.md has no such section"
	grep -qF "dmt_dist_1" "$tmp/dmt/json/main/reduce.json" && ok "dmt: the reports carry dmt_dist" ||
		bad "dmt: the reports carry dmt_dist" "json/main/reduce.json lacks dmt_dist_1"
	grep -qF "\$s0 << EOD" "$tmp/dmt/figures/distance-cdf.gp" && ok "dmt: the distance CDF has data" ||
		bad "dmt: the distance CDF has data" "no datablock"

	# a second run: every trace from the cache, the folder replaced
	echo stale >"$tmp/tesla/figures/stale.png"
	expect "a second run reuses the cache" 0 "(1 traces, 1 reused from the cache)" tesla --size small \
		-o "$tmp/tesla" --trace-cache "$C" -q
	[ -e "$tmp/tesla/figures/stale.png" ] && bad "the folder is replaced" "a file of the old folder is left" ||
		ok "the folder is replaced, not merged"
	[ -s "$tmp/err" ] && bad "-q: no progress" "stderr not empty" || ok "-q: no progress"
else
	echo "study: gnuplot not installed (Debian package gnuplot-nox): the recipes are not drawn"
	expect "no gnuplot: exit 2" 2 "gnuplot-nox" tesla --size small -o "$tmp/tesla" --trace-cache "$C"
fi

# ---- errors -----------------------------------------------------------------------
bad_recipe() { # NAME PHRASE TEXT
	printf '%s\n' "$3" >"$tmp/r.ini"
	once "$1" 2 "$2" "$tmp/r.ini" -o "$tmp/out-dir" --trace-cache "$C" -q
	[ -e "$tmp/out-dir" ] && bad "$1" "an output folder was made"
}
once() {
	expect "$@"
	if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		failed=$((failed + 1)); pass=$((pass - 1))
		echo "FAIL ${PREFIX}$1: stderr has $(wc -l <"$tmp/err") lines, expected one message"
	fi
}
R1='[study]
workloads = vvadd
[run a]
configs = fermi-sm'
bad_recipe "an unknown key, did you mean" "$tmp/r.ini:3: unknown key \`workload\` in [study]; did you mean \`workloads\`?" \
	"[study]
title = x
workload = vvadd"
bad_recipe "an unknown section" "$tmp/r.ini:1: unknown section [studdy]" "[studdy]"
bad_recipe "no [study]" "has no [study] section" "[run a]
configs = fermi-sm"
bad_recipe "no run" "has no [run NAME] section" "[study]
workloads = vvadd"
bad_recipe "an unknown workload" "no bundled workload \`vvad\`; did you mean \`vvadd\`?" "[study]
workloads = vvad
[run a]
configs = fermi-sm"
bad_recipe "a figure of a missing run" "[figure f]: no [run b] in the recipe" "$R1
[figure f]
run = b
kind = bars"
bad_recipe "a bad figure kind" "kind = pie: a figure is bars" "$R1
[figure f]
run = a
kind = pie"
bad_recipe "an option of another kind" "\`of\` does not apply to kind bars" "$R1
[figure f]
run = a
kind = bars
of = active-ut"
bad_recipe "a key twice" "\`run\` again (first at line 6)" "$R1
[figure f]
run = a
run = a"
bad_recipe "a section twice" "[run a] again (first at line 3)" "$R1
[run a]"
bad_recipe "a size suffix that is not a size" "a key may end in .small, .default or .large, not .tiny" "[study]
workloads.tiny = vvadd"
bad_recipe "a bad name" "a name is letters, digits" "[figure a/b]"
bad_recipe "a list with a space" "has a space; separate names with commas" "[study]
workloads = vvadd reduce"
bad_recipe "an unknown config" "fermi-sm-x" "$R1-x"
bad_recipe "a line too long" "line is too long" "[study]
title = $(printf '%0300d' 0)"
T=$BIN/weft-study
once "a missing recipe" 2 "no recipe file nosuch and no bundled recipe \`nosuch\`" nosuch -o "$tmp/o"
once "a bundled name, did you mean" 2 "did you mean \`sgmf\`?" sgm -o "$tmp/o"
mkdir "$tmp/theirs"
echo data >"$tmp/theirs/keep"
once "a folder that is not weft-study's" 2 "$tmp/theirs exists and is not a weft-study folder" tesla -o "$tmp/theirs" \
	--trace-cache "$C"
[ -f "$tmp/theirs/keep" ] && ok "their folder is untouched" || bad "their folder is untouched" "keep is gone"
once "no recipe" 2 "no RECIPE given" -o "$tmp/o"
once "two recipes" 2 "one RECIPE at a time" sgmf dmt
once "a bad size" 2 "bad --size \`huge\`" sgmf --size huge
expect "--help" 0 "usage: weft-study RECIPE" --help

echo "study: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
