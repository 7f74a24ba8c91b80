#!/bin/sh
# config.sh - CLI tests for bin/weft-config (`make config-tests`, part of
# `make check`): each subcommand, each format, and every documented error
# with its exit code and the key phrase of its message. POSIX sh only.

cd "$(dirname "$0")/../.." || exit 3
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-config
if [ ! -x "$T" ]; then
	echo "config tests: $T is missing; run make first" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-config.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="config: "
. tests/cli/lib.sh

expect "version" 0 "weft-config 0." --version
expect "help" 0 "usage: weft-config models" --help
expect "models" 0 "dmt " models
expect "models csv" 0 "model,description" models --format csv
expect "keys simt" 0 "core.num_sm" keys simt
expect "keys common" 0 "tech.node_nm" keys sgmf
expect "keys csv" 0 "key,type,default,unit,range,description" keys dmt --format csv
expect "keys json" 0 '"key": "core.num_sm"' keys simt --format=json
expect "keys enum range" 0 "classic|stillmaker" keys simt
expect "show file line" 0 "configs/fermi-sm.ini:13" show configs/fermi-sm.ini
expect "show default" 0 "default" show configs/fermi-sm.ini
expect "show --set" 0 "--set" show configs/fermi-sm.ini --set core.num_sm=4
expect "show json" 0 '"from": "--set"' show configs/fermi-sm.ini --set core.num_sm=4 --format json

expect "no command" 2 "which command?"
expect "unknown command" 2 "unknown command \`frob\`" frob
expect "keys no model" 2 "which model?" keys
expect "unknown model" 2 "did you mean simt?" keys smit
expect "unknown model list" 2 "(models: simt, sgmf, dmt, vt, overlay)" keys zzzzzzzz
expect "bad format" 2 "bad --format \`xml\`" keys simt --format xml
expect "unknown option" 2 "unknown option \`--frob\`" models --frob
expect "show no file" 2 "which config?" show
expect "show missing file" 2 "nosuch.ini" show nosuch.ini
expect "show bad --set" 2 "did you mean" show configs/fermi-sm.ini --set core.num_sn=4
expect "show bad value" 2 "core" show configs/fermi-sm.ini --set core.num_sm=0
expect "set on keys" 2 "--set is for \`show\`" keys simt --set core.num_sm=2

# bundled configs by name
expect "configs" 0 "vt-c4v1r256+bi+2s     vt       configs/maven/vt-c4v1r256+bi+2s.ini" configs
expect "configs csv" 0 "fermi-sm,simt,configs/fermi-sm.ini" configs --format csv
expect "configs takes no operand" 2 "\`configs\` takes no argument" configs x
expect "show by name" 0 "configs/maven/vt-c4v1r32.ini:6" show vt-c4v1r32
expect "show by name.ini" 0 "configs/fermi-sm.ini:13" show fermi-sm.ini
expect "show unknown name" 2 "no bundled config of that name; did you mean \`fermi-sm\`?" show fermi-sn
expect "show bad Maven suffix" 2 "Maven tile names: mimd-cCrR" show vt-c4v1r256+bi+3s

# every shipped config shows
for c in configs/*.ini configs/*/*.ini; do
	expect "show $c" 0 "model.name" show "$c"
done

echo "config tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
