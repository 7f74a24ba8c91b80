#!/bin/sh
# matrix.sh - the CLI matrix (`make cli-tests`): every tool and command with
# --help and --version, options before and after the operands, --opt=value,
# and each documented bad input with the exit status and the key phrase of
# its message (docs/cli.md has the table). Errors must be one line of
# stderr. POSIX sh and coreutils only.

cd "$(dirname "$0")/../.." || exit 3
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
BIN=${WEFT_BIN:-bin}
for b in weft-trace weft-estimate weft-validate weft-energy weft-area weft-config weft-plot weft-study; do
	if [ ! -x "$BIN/$b" ]; then
		echo "cli matrix: $BIN/$b is missing; run make first" >&2
		exit 2
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-cli-matrix.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="matrix: "
. tests/cli/lib.sh

# once NAME CODE PHRASE ARGS...: as expect, and stderr is exactly one line
# (one message per error, no second print).
once() {
	expect "$@"
	if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		failed=$((failed + 1))
		pass=$((pass - 1))
		echo "FAIL ${PREFIX}$1: stderr has $(wc -l <"$tmp/err") lines, expected one message"
		sed 's/^/     | /' "$tmp/err" | head -n 10
	fi
}

# same NAME ARGS1 -- ARGS2: stdout of $T ARGS1 equals that of $T ARGS2, both exit 0
same() {
	name=$1
	shift
	a=""
	while [ "$1" != "--" ]; do a="$a $1"; shift; done
	shift
	# shellcheck disable=SC2086
	"$T" $a >"$tmp/a" 2>"$tmp/err"; rca=$?
	"$T" "$@" >"$tmp/b" 2>>"$tmp/err"; rcb=$?
	if [ $rca -ne 0 ] || [ $rcb -ne 0 ]; then
		cp "$tmp/b" "$tmp/out"; bad "$name" "exit status $rca / $rcb, expected 0"
	elif ! cmp -s "$tmp/a" "$tmp/b"; then
		diff -u "$tmp/a" "$tmp/b" >"$tmp/out"; : >"$tmp/err"; bad "$name" "outputs differ"
	else
		ok "$name"
	fi
}

# ---- inputs ------------------------------------------------------------------
$BIN/weft-trace run vvadd --size small -o "$tmp/v.wtr" >/dev/null 2>&1 || echo "cli matrix: cannot make a trace" >&2
head -c 300 "$tmp/v.wtr" >"$tmp/trunc.wtr"
printf 'hello, not a trace at all\n' >"$tmp/text.wtr"
mkdir "$tmp/dir"
W=$tmp/v.wtr
CFG=configs/fermi-sm.ini
VER=$(sed -n 's/^#define WEFT_VERSION "\(.*\)"/\1/p' common/version.h)

# ---- every tool: --help, --version, no arguments ----------------------------
for b in weft-trace weft-estimate weft-validate weft-energy weft-area weft-config weft-plot weft-study; do
	T=$BIN/$b
	expect "$b --help" 0 "usage: $b" --help
	expect "$b -h" 0 "usage: $b" -h
	expect "$b --help names the exit statuses" 0 "docs/cli.md" --help
	expect "$b --version" 0 "$b $VER" --version
done
for b in weft-trace weft-energy weft-area; do
	T=$BIN/$b
	expect "$b without arguments" 2 "usage: $b"
done
T=$BIN/weft-plot
expect "weft-plot without arguments" 2 "which plot? give a kind"
T=$BIN/weft-study
expect "weft-study without arguments" 2 "no RECIPE given"
once "weft-study unknown option" 2 "weft-study: unknown option \`--bogus\`; see \`weft-study --help\`" sgmf --bogus
once "weft-study -o without a value" 2 "-o needs a value" sgmf -o

# ---- weft-trace ------------------------------------------------------------------
T=$BIN/weft-trace
for c in list run exec info dump verify stats; do
	expect "trace $c --help" 0 "usage: weft-trace $c" $c --help
	expect "trace $c --help has exit statuses" 0 "Exit status:" $c --help
	expect "trace $c --version" 0 "weft-trace $VER" $c --version
	expect "trace help $c" 0 "usage: weft-trace $c" help $c
	once "trace $c unknown option" 2 "weft-trace $c: unknown option \`--bogus\`; see \`weft-trace $c --help\`" $c --bogus
done
for c in info dump verify stats; do
	once "trace $c: no trace" 2 "which trace?" $c
	once "trace $c: two traces" 2 "unexpected argument \`$W\`" $c "$W" "$W"
	once "trace $c: missing file" 2 "$tmp/none.wtr" $c "$tmp/none.wtr"
	once "trace $c: not a trace" 2 "$tmp/text.wtr is not a weft trace" $c "$tmp/text.wtr"
	once "trace $c: a directory" 2 "$tmp/dir is a directory, not a trace file" $c "$tmp/dir"
done
for c in info dump stats; do
	once "trace $c: truncated is bad input" 2 "is corrupt at byte offset" $c "$tmp/trunc.wtr"
done
once "trace verify: truncated fails the check" 1 "is corrupt at byte offset" verify "$tmp/trunc.wtr"
expect "trace verify: intact" 0 "OK (version" verify "$W"
same "trace stats: --format json after the file" stats --format json "$W" -- stats "$W" --format json
same "trace stats: --format=json" stats --format json "$W" -- stats --format=json "$W"
same "trace info: options after the file" info --format json "$W" -- info "$W" --format=json
same "trace dump: options around the file" dump --limit 3 --cta 1 "$W" -- dump --cta=1 "$W" --limit=3
once "trace stats: --format without a value" 2 "--format needs a value" stats "$W" --format
once "trace stats: bad --format" 2 "bad --format \`xml\`" stats "$W" --format=xml
once "trace dump: bad --limit" 2 "bad --limit \`x\`" dump "$W" --limit=x
once "trace info: --decode takes no value" 2 "--decode takes no value" info "$W" --decode=1
once "trace list: an operand" 2 "unexpected argument \`x\`" list x
expect "trace run: options before the workload" 0 "size            small" run --size small vvadd
expect "trace run: --size=small after" 0 "size            small" run vvadd --size=small
expect "trace run: -o before the workload" 0 "bytes per thread inst" run -o "$tmp/o.wtr" --size small vvadd
expect "trace run: -oFILE" 0 "bytes per thread inst" run vvadd --size small "-o$tmp/o2.wtr"
once "trace exec: options end at the program (its -o is not exec's)" 2 "cannot run ./no-such-program" exec ./no-such-program -o /nonexistent/x.wtr
once "trace exec: -o without a value" 2 "-o needs a value" exec -o
once "trace run: unknown workload" 2 "unknown workload \`nosuch\`" run nosuch
once "trace run: mistyped workload" 2 "weft-trace run: unknown workload \`sgem\`; \`weft-trace list\` shows the bundled ones (or use --spec FILE.ini for your own kernel); did you mean \`sgemm\` or \`sgemm_shader\`?" run sgem
once "trace run: two workloads" 2 "unexpected argument \`sgemm\`" run vvadd sgemm
once "trace run: --size without a value" 2 "--size needs a value" run vvadd --size
once "trace run: --verify takes no value" 2 "--verify takes no value" run vvadd --verify=yes
once "trace run: -o a directory" 2 "$tmp/dir is a directory; name a file" run vvadd --size small -o "$tmp/dir"
once "trace run: -o into a missing directory" 2 "cannot create /nonexistent/x.wtr" run vvadd --size small -o /nonexistent/x.wtr
once "trace run: --spec a directory" 2 "--spec $tmp/dir is a directory" run --spec "$tmp/dir"
once "trace run: missing spec" 2 "cannot open spec file $tmp/none.ini" run --spec "$tmp/none.ini"
mkdir "$tmp/spec"
cp tests/fixtures/spec/* "$tmp/spec/"
sed 's/^ptx   = saxpy.ptx.*/ptx = nope.ptx/' tests/fixtures/spec/saxpy.ini >"$tmp/spec/noptx.ini"
once "trace run: the spec's PTX file is missing" 2 "cannot open PTX file" run --spec "$tmp/spec/noptx.ini" --output-dir "$tmp"
sed 's/^\[args\]/[argz]/' tests/fixtures/spec/saxpy.ini >"$tmp/spec/argz.ini"
once "trace run: a mistyped spec section" 2 "$tmp/spec/argz.ini:" run --spec "$tmp/spec/argz.ini"
once "trace run: a mistyped spec section, did you mean" 2 "unknown section [argz]; sections are [kernel], [buffer NAME], [symbol NAME], [texture NAME], [surface NAME], [launch NAME] and [args] (or [args NAME]); did you mean [args]?" run --spec "$tmp/spec/argz.ini"
once "trace: unknown command" 2 "unknown command \`frob\`" frob
once "trace help: unknown command" 2 "weft-trace help: unknown command \`frob\`; see \`weft-trace --help\`" help frob

# ---- weft-estimate ---------------------------------------------------------------
T=$BIN/weft-estimate
same "estimate: options before the trace" "$W" -c $CFG --format csv -- --format=csv -c $CFG "$W"
same "estimate: --config=FILE" "$W" -c $CFG -- "$W" --config=$CFG
if "$T" -o "$tmp/r.csv" --format csv -c $CFG "$W" >"$tmp/out" 2>"$tmp/err" && [ -s "$tmp/r.csv" ]
then ok "estimate: -o before the trace writes the report"
else bad "estimate: -o before the trace" "no report in $tmp/r.csv"; fi
once "estimate: truncated trace, one message" 2 "is corrupt at byte offset" "$tmp/trunc.wtr" -c $CFG
once "estimate: not a trace" 2 "is not a weft trace" "$tmp/text.wtr" -c $CFG
once "estimate: a directory as the trace" 2 "$tmp/dir is a directory, not a trace file" "$tmp/dir" -c $CFG
once "estimate: a directory as a config" 2 "-c configs is a directory" "$W" -c configs
once "estimate: missing trace file" 2 "$tmp/none.wtr" "$tmp/none.wtr" -c $CFG
once "estimate: missing config" 2 "$tmp/none.ini" "$W" -c "$tmp/none.ini"
once "estimate: -o a directory" 2 "$tmp/dir is a directory; name a file" "$W" -c $CFG -o "$tmp/dir"
once "estimate: -o into a missing directory" 2 "cannot create /nonexistent/x.csv" "$W" -c $CFG -o /nonexistent/x.csv
once "estimate: unknown option" 2 "weft-estimate: unknown option \`--bogus\`; see \`weft-estimate --help\`" "$W" -c $CFG --bogus
once "estimate: -c without a value" 2 "-c needs a value" "$W" -c
once "estimate: --explain takes no value" 2 "--explain takes no value" "$W" -c $CFG --explain=1
once "estimate: two traces" 2 "unexpected argument" "$W" "$W" -c $CFG
once "estimate: no config" 2 "no configuration" "$W"
once "estimate: no trace" 2 "which trace?"
once "estimate: bad --shard" 2 "bad --shard \`x\`; give K/N" "$W" -c $CFG --shard x
once "estimate: --merge a missing part" 2 "cannot open shard part $tmp/none.json" --merge "$tmp/none.json"
once "estimate: --merge not a part" 2 "text.wtr:1:5: not a valid shard part (bad JSON)" --merge "$tmp/text.wtr"

# ---- weft-validate (usage only; tests/cli/validate.sh runs claims) -------------------
T=$BIN/weft-validate
once "validate: unknown option" 2 "weft-validate: unknown option \`--bogus\`; see \`weft-validate --help\`" --bogus
once "validate: bad --size=" 2 "bad --size \`huge\`" --size=huge
once "validate: --size without a value" 2 "--size needs a value" --size
once "validate: --strict takes no value" 2 "--strict takes no value" --strict=1
once "validate: an operand" 2 "unexpected argument \`x\`" x
once "validate: --claims a directory" 2 "--claims $tmp/dir is a directory" --claims "$tmp/dir"
once "validate: missing claims file" 2 "$tmp/none.csv" --claims "$tmp/none.csv"
once "validate: -o a directory" 2 "$tmp/dir is a directory; name a file" -o "$tmp/dir"
once "validate: -o into a missing directory" 2 "cannot create /nonexistent/x.csv" -o /nonexistent/x.csv

# ---- weft-energy ----------------------------------------------------------------
T=$BIN/weft-energy
for c in show scale; do
	nodes=""
	[ $c = scale ] && nodes="--from 65 --to 45"
	expect "energy $c --help" 0 "usage: weft-energy $c" $c --help
	expect "energy $c --help has exit statuses" 0 "Exit status:" $c --help
	expect "energy $c --version" 0 "weft-energy $VER" $c --version
	expect "energy help $c" 0 "usage: weft-energy $c" help $c
	once "energy $c unknown option" 2 "weft-energy $c: unknown option \`--bogus\`; see \`weft-energy $c --help\`" $c --bogus
	once "energy $c an operand" 2 "unexpected argument \`x\`" $c x
	once "energy $c --table a directory" 2 "--table $tmp/dir is a directory" $c $nodes --table "$tmp/dir"
	once "energy $c --table missing" 2 "cannot open the table" $c $nodes --table "$tmp/none.csv"
done
same "energy show: --node=65" show --node 65 -- show --node=65
same "energy show: options in any order" show --node 65 --format csv -- show --format=csv --node=65
same "energy scale: --from=/--to=" scale --from 65 --to 45 -- scale --to=45 --from=65
once "energy show: --node without a value" 2 "--node needs a value" show --node
once "energy show: bad --node" 2 "--node x: expected a node in nm" show --node=x
once "energy show: --from is scale's" 2 "unknown option \`--from\`" show --from 65
once "energy scale: needs --to" 2 "scale needs --from N and --to M" scale --from 65
once "energy: unknown command" 2 "unknown command \`shwo\`" shwo
once "energy: unknown option first" 2 "unknown option \`--node\`" --node 65
once "energy help: unknown command" 2 "weft-energy help: unknown command \`frob\` (show or scale); see \`weft-energy --help\`" help frob

# ---- weft-area ------------------------------------------------------------------
T=$BIN/weft-area
expect "area fit --help" 0 "usage: weft-area fit" fit --help
expect "area fit --help has exit statuses" 0 "Exit status:" fit --help
expect "area fit --version" 0 "weft-area $VER" fit --version
expect "area help fit" 0 "usage: weft-area fit" help fit
same "area: options before the config" configs/tesla-sm.ini --node 40 --format csv -- --format=csv --node=40 configs/tesla-sm.ini
same "area: --set=" configs/tesla-sm.ini --set core.num_sm=16 -- --set=core.num_sm=16 configs/tesla-sm.ini
same "area fit: --format=json" fit --format json -- fit --format=json
once "area: unknown option" 2 "weft-area: unknown option \`--bogus\`; see \`weft-area --help\`" configs/tesla-sm.ini --bogus
once "area: --node without a value" 2 "--node needs a value" configs/tesla-sm.ini --node
once "area: two configs" 2 "unexpected argument" configs/tesla-sm.ini configs/gtx480.ini
once "area: no config" 2 "which configuration?" --node 40
once "area: a directory as the config" 2 "configs is a directory" configs
once "area: missing config" 2 "cannot open the config" "$tmp/none.ini"
once "area fit: unknown option" 2 "weft-area fit: unknown option \`--bogus\`; see \`weft-area fit --help\`" fit --bogus
once "area fit: one operand" 2 "fit x: which model? give DATA.csv and MODEL" fit x
once "area fit: three operands" 2 "unexpected argument \`z\` (fit takes DATA.csv and MODEL)" fit x y z
once "area fit: --data with operands" 2 "--data is for the Tesla SM fit" fit --data x y z2
once "area fit: --data a directory" 2 "--data $tmp/dir is a directory" fit --data "$tmp/dir"
once "area help: unknown command" 2 "weft-area help: unknown command \`frob\` (fit; or give CONFIG.ini); see \`weft-area --help\`" help frob

# ---- weft-config -----------------------------------------------------------------
T=$BIN/weft-config
for c in models keys show; do
	expect "config $c --help" 0 "usage: weft-config" $c --help
	expect "config $c --help has exit statuses" 0 "Exit status:" $c --help
	expect "config $c --version" 0 "weft-config $VER" $c --version
	expect "config help $c" 0 "usage: weft-config" help $c
	once "config $c unknown option" 2 "weft-config: unknown option \`--bogus\`; see \`weft-config --help\`" $c --bogus
done
same "config models: --format before the command" --format csv models -- models --format=csv
same "config keys: options before and after the model" keys --format csv simt -- keys simt --format=csv
same "config show: options around the file" show --format json $CFG --set core.num_sm=4 -- \
	--set=core.num_sm=4 show $CFG --format=json
same "config: -- ends the options" models -- -- models
once "config: no command" 2 "weft-config: which command? models, configs, keys MODEL or show CONFIG; see \`weft-config --help\`"
once "config: unknown command" 2 "weft-config: unknown command \`frob\` (models, configs, keys or show); see \`weft-config --help\`" frob
once "config help: unknown command" 2 "weft-config help: unknown command \`frob\` (models, configs, keys or show); see \`weft-config --help\`" help frob
once "config: unknown option with a value" 2 "unknown option \`--frob\`" models --frob=1
once "config: --format without a value" 2 "--format needs a value" keys simt --format
once "config: bad --format" 2 "bad --format \`xml\` (table, csv or json)" keys simt --format=xml
once "config: --set without a value" 2 "--set needs a value" show $CFG --set
once "config: --help takes no value" 2 "--help takes no value" models --help=1
once "config models: an operand" 2 "\`models\` takes no argument (got \`x\`)" models x
once "config keys: no model" 2 "which model?" keys
once "config keys: a third operand" 2 "unexpected argument \`x\`" keys simt x
once "config keys: unknown model, did you mean" 2 "weft-config: unknown model \`smit\`; did you mean simt? (models: simt, sgmf, dmt, vt, overlay)" keys smit
once "config keys: --set is for show" 2 "--set is for \`show\`" keys simt --set core.num_sm=2
once "config show: no config" 2 "which config?" show
once "config show: missing config" 2 "$tmp/none.ini: cannot open the config" show "$tmp/none.ini"
once "config show: a directory" 2 "weft-config: $tmp/dir is a directory; give a CONFIG.ini" show "$tmp/dir"
sed 's/^num_sm/num_sms/' $CFG >"$tmp/typo.ini"
once "config show: unknown key, file:line, did you mean" 2 "$tmp/typo.ini:" show "$tmp/typo.ini"
once "config show: unknown key names a close one" 2 "did you mean [core] num_sm?" show "$tmp/typo.ini"
once "config show: bad --set value" 2 "--set core.num_sm=0: [core] num_sm: 0 is out of range" show $CFG --set=core.num_sm=0
if [ -w /dev/full ]; then
	"$T" models >/dev/full 2>"$tmp/err"; rc=$?
	if [ $rc -eq 2 ] && grep -qF "weft-config: writing to stdout failed" "$tmp/err"; then
		ok "config: stdout that cannot be written is an I/O error (2)"
	else : >"$tmp/out"; bad "config: stdout that cannot be written" "exit status $rc, expected 2"; fi
fi

# ---- weft-plot (tests/cli/plot.sh draws every kind) ------------------------------
T=$BIN/weft-plot
R=tests/fixtures/plot/sgemm.json
for k in bars energy cpi sweep dist scatter util; do
	expect "plot $k --help" 0 "usage: weft-plot" $k --help
	expect "plot $k --version" 0 "weft-plot $VER" $k --version
	once "plot $k unknown option" 2 "weft-plot $k: unknown option \`--bogus\`; see \`weft-plot $k --help\`" $k $R --bogus
done
expect "plot help" 0 "usage: weft-plot" help
same "plot: options before and after the reports" bars $R -o "$tmp/p.png" --script-only --metric ipc -- \
	--metric=ipc --script-only bars -o "$tmp/p.png" $R
same "plot: --output=FILE" cpi $R -o "$tmp/p.png" --script-only -- cpi $R --output="$tmp/p.png" --script-only
once "plot: unknown kind" 2 "unknown plot kind \`frob\`" frob $R -o "$tmp/p.png"
once "plot: no report" 2 "which reports?" bars -o "$tmp/p.png"
once "plot: no -o" 2 "no figure named" bars $R
once "plot: -o without a value" 2 "-o needs a value" bars $R -o
once "plot: --geomean takes no value" 2 "--geomean takes no value" bars $R --geomean=1 -o "$tmp/p.png"
once "plot: missing report" 2 "cannot read the report $tmp/none.json" bars "$tmp/none.json" -o "$tmp/p.png"
once "plot: not JSON" 2 "$tmp/text.wtr:1:5: not valid JSON" bars "$tmp/text.wtr" -o "$tmp/p.png"
once "plot: a directory as a report" 2 "$tmp/dir is a directory; give a REPORT.json" bars "$tmp/dir" -o "$tmp/p.png"
once "plot: -o into a missing directory" 2 "cannot create /nonexistent/x.png" bars $R -o /nonexistent/x.png
mkdir "$tmp/dir.png"
once "plot: -o a directory" 2 "$tmp/dir.png is a directory; name a file" bars $R -o "$tmp/dir.png"
once "plot: an extension that is not a format" 2 "the figure's format comes from its extension" bars $R -o "$tmp/p.gif"

# ---- every tool: standard output that cannot be written is exit 2 ------------
if [ -w /dev/full ]; then
	for c in "weft-trace:list" "weft-trace:--help" "weft-energy:show" "weft-area:$CFG" "weft-estimate:--help" "weft-config:--help" \
		"weft-estimate:$W -c $CFG" "weft-validate:--help" "weft-config:keys simt" "weft-plot:--help" "weft-study:--help" \
		"weft-plot:bars tests/fixtures/plot/sgemm.json -o $tmp/full.png --script-only"; do
		tool=${c%%:*}
		# shellcheck disable=SC2086
		"$BIN/$tool" ${c#*:} >/dev/full 2>"$tmp/err"; rc=$?
		if [ $rc -eq 2 ] && grep -qi "writing .*failed" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
			ok "$tool ${c#*:} >/dev/full: one message, exit 2"
		else : >"$tmp/out"; bad "$tool ${c#*:} >/dev/full" "exit status $rc, expected 2 with one message"; fi
	done
fi

echo "cli matrix: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
