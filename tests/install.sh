#!/bin/sh
# install.sh - `make install` into a temporary prefix, then the README tour
# with the installed tools, from another working directory and without
# WEFT_DATA: they must find PREFIX/share/weft/data by themselves (models/
# config.h weft_data_dir). Also: the man pages, a program built against the
# installed library through pkg-config, a DESTDIR-staged install, the
# data-directory error of a tool with no data beside it, weft's
# libcudart.so.13 in PREFIX/lib/weft running a CUDA program through the
# installed weft-trace exec, and `make uninstall`. `make check` runs it (make install-test).
#
# usage: sh tests/install.sh     (from anywhere; builds nothing itself
#                                 beyond what `make install` needs)
# Under `make check SAN=1` the sub-make inherits SAN=1, so the sanitized
# tools and library are installed; $WEFT_SAN_FLAGS then builds the
# pkg-config program with the same sanitizers, or it would not link.
set -u
cd "$(dirname "$0")/.." || exit 3
src=$(pwd)
MAKE=${MAKE:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-install.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
P=$tmp/prefix
fail=0
ok() { echo "ok      $1"; }
bad() { echo "FAILED  $1"; fail=1; }
# run NAME CMD...: runs CMD in the current directory, output to $tmp/NAME.out
run() {
	name=$1
	shift
	if "$@" >"$tmp/$name.out" 2>&1; then ok "$name"; else
		bad "$name (exit $?): $*"
		sed 's/^/        /' "$tmp/$name.out" | tail -15
	fi
}

echo "== make install PREFIX=$P"
if ! $MAKE --no-print-directory -C "$src" install PREFIX="$P" >"$tmp/install.log" 2>&1; then
	sed 's/^/        /' "$tmp/install.log" | tail -20
	echo "install: make install failed"
	exit 1
fi
for f in bin/weft-trace bin/weft-estimate bin/weft-energy bin/weft-area bin/weft-validate bin/weft-config bin/weft-plot bin/weft-study \
	 lib/libweft.a lib/pkgconfig/weft.pc lib/weft/libcudart.so.13 include/weft/common/error.h \
	 include/weft/trace/launch/workload.h share/weft/data/energy/horowitz45.csv \
	 share/weft/configs/fermi-sm.ini share/weft/recipes/tesla.ini share/doc/weft/README.md share/doc/weft/docs/estimate.md; do
	[ -s "$P/$f" ] || bad "installed $f"
done
[ -e "$P/include/weft/trace/cli/cli.h" ] && bad "the CLI's cli.h is not a library header"
[ -e "$P/include/weft/cli/cli.h" ] && bad "cli/cli.h (the CLIs' shared module) is not a library header"
[ -e "$P/include/weft/trace/cudart/rt.h" ] && bad "the CUDA runtime's rt.h is not a library header"
nm "$P/lib/libweft.a" 2>/dev/null | grep -q ' T weft_cli_' && bad "libweft.a holds the CLIs' cli/cli.o"

echo "== the tour with the installed tools (WEFT_DATA unset, cwd $tmp/work)"
unset WEFT_DATA
mkdir -p "$tmp/work" && cd "$tmp/work" || exit 3
B=$P/bin
C=$P/share/weft/configs
run trace-run "$B/weft-trace" run sgemm --size small --verify -o sgemm.wtr
grep -q '^verification *PASS' "$tmp/trace-run.out" || bad "weft-trace run: no verification PASS"
run trace-info "$B/weft-trace" info sgemm.wtr
run estimate "$B/weft-estimate" sgemm.wtr -c "$C/fermi-sm.ini" -c "$C/tesla-sm.ini"
run estimate-names "$B/weft-estimate" sgemm.wtr -c fermi-sm -c vt-c4v1r256+bi+2s
grep -q "$C/maven/vt-c4v1r256+bi+2s.ini" "$tmp/estimate-names.out" ||
	bad "weft-estimate -c NAME did not find the installed bundled config"
run energy-show "$B/weft-energy" show --node 65
grep -q "$P/share/weft/data/energy/horowitz45.csv" "$tmp/energy-show.out" ||
	bad "weft-energy show did not read the installed table"
run area "$B/weft-area" "$C/tesla-sm.ini"
run area-fit "$B/weft-area" fit
run validate "$B/weft-validate" --size small
run estimate-json "$B/weft-estimate" sgemm.wtr -c fermi-sm -c tesla-sm --format json -o sgemm.json
if command -v gnuplot >/dev/null 2>&1; then
	run plot "$B/weft-plot" cpi sgemm.json -o cpi.png
	[ -s cpi.png ] && [ -s cpi.gp ] || bad "weft-plot drew no cpi.png and cpi.gp"
	run study "$B/weft-study" tesla --size small -o tesla --trace-cache traces
	grep -q "$P/share/weft/recipes/tesla.ini" tesla/report.md ||
		bad "weft-study tesla did not find the installed bundled recipe"
else
	run plot-script "$B/weft-plot" cpi sgemm.json -o cpi.png --script-only
fi

echo "== a CUDA program on the installed libcudart.so.13 (weft-trace exec)"
# a sanitized library (make check SAN=1) needs the sanitizer's runtime first
pre=
if nm -D "$P/lib/weft/libcudart.so.13" 2>/dev/null | grep -q __asan_init; then
	pre=$(${CC:-cc} -print-file-name=libasan.so)
	case ${CC:-cc} in *clang*) pre=$(${CC:-cc} -print-file-name=libclang_rt.asan-x86_64.so) ;; esac
fi
# (through env in front of the program: the tools must not get it)
run exec env -u WEFT_CUDART_DIR "$B/weft-trace" exec -o bfs.wtr ${pre:+env LD_PRELOAD=$pre} \
	"$src/tests/cuda/bin/bfs" small
grep -q '^PASS' "$tmp/exec.out" || bad "weft-trace exec: the program did not pass"
run exec-trace "$B/weft-trace" verify bfs.wtr

echo "== man pages"
if grep -q 'help2man not found' "$tmp/install.log"; then
	echo "skip    man pages: help2man is not installed (make deps installs it)"
else
	for t in weft-trace weft-estimate weft-energy weft-area weft-validate weft-plot weft-study; do
		[ -s "$P/share/man/man1/$t.1" ] || bad "man page $t.1 missing or empty"
	done
	if command -v man >/dev/null 2>&1; then
		if MANWIDTH=80 man -l "$P/share/man/man1/weft-estimate.1" 2>/dev/null | grep -q 'weft-estimate'; then
			ok "man -l weft-estimate.1"
		else bad "man -l weft-estimate.1 shows no weft-estimate"; fi
	else ok "man pages present (man is not installed; not rendered)"; fi
fi

echo "== a program against the installed library (pkg-config)"
if command -v pkg-config >/dev/null 2>&1; then
	cat >hello.c <<'EOF'
#include <stdio.h>
#include "common/error.h"
#include "common/version.h"
#include "trace/launch/workload.h"
int main(void)
{
	struct weft_error err;
	weft_error_clear(&err);
	int rc = weft_error_set(&err, WEFT_ERR_INPUT, "hello from weft %s", WEFT_VERSION);
	char buf[256];
	printf("%s; exit %d; sgemm %s\n", weft_error_format(&err, buf, sizeof(buf)),
	       weft_err_exit_code(rc), weft_workload_find("sgemm") ? "found" : "missing");
	return 0;
}
EOF
	if flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs weft) &&
	   ${CC:-cc} -std=c11 -Wall -Wextra -Werror ${WEFT_SAN_FLAGS:-} -o hello hello.c $flags >"$tmp/cc.out" 2>&1; then
		out=$(./hello)
		case $out in
		"hello from weft "*"; exit 2; sgemm found") ok "pkg-config build: $out" ;;
		*) bad "the pkg-config program printed: $out" ;;
		esac
	else
		bad "building against the installed library: pkg-config --cflags --libs weft = ${flags:-}"
		sed 's/^/        /' "$tmp/cc.out" | tail -15
	fi
else
	echo "skip    pkg-config is not installed (make deps installs pkgconf)"
fi

echo "== a tool with no data beside it"
mkdir -p "$tmp/lone/bin" && cp "$B/weft-energy" "$tmp/lone/bin/" || exit 3
"$tmp/lone/bin/weft-energy" show >"$tmp/lone.out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "$tmp/lone/bin/../share/weft/data" "$tmp/lone.out" &&
   grep -q 'WEFT_DATA' "$tmp/lone.out"; then ok "not found: exit 2, every path tried named"
else bad "not found: exit $rc: $(cat "$tmp/lone.out")"; fi

echo "== DESTDIR staging, then uninstall"
if $MAKE --no-print-directory -C "$src" install PREFIX=/opt/weft DESTDIR="$tmp/stage" >"$tmp/stage.log" 2>&1 &&
   grep -q '^prefix=/opt/weft$' "$tmp/stage/opt/weft/lib/pkgconfig/weft.pc"; then
	run staged-energy "$tmp/stage/opt/weft/bin/weft-energy" show --node 45
else bad "make install DESTDIR=... PREFIX=/opt/weft"; fi
$MAKE --no-print-directory -C "$src" uninstall PREFIX="$P" >"$tmp/uninstall.log" 2>&1 || bad "make uninstall"
left=$(find "$P" -type f | head -5)
if [ -z "$left" ]; then ok "make uninstall left no files"; else bad "make uninstall left: $left"; fi

if [ $fail != 0 ]; then echo "install test: FAILED"; exit 1; fi
echo "install test: all passed"
