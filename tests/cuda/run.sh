#!/bin/sh
# run.sh - the CUDA programs of the corpus run on weft's CUDA runtime
# (`make cudart-tests`, part of `make check`; no nvcc needed):
#
#  1. the library: its soname, exactly the functions CUDA 13.0's runtime
#     exports under the same version node (libcudart13.symbols), and ldd
#     finding it through LD_LIBRARY_PATH;
#  2. the corpus: each program through `weft-trace exec -o`, exit status 0,
#     its output equal to expected/CASE.out, the trace verified, one launch
#     in the trace per launch the runtime reported, and the trace replayed
#     in weft-estimate with one CSV row per launch (and the total);
#  3. bfs and gaussian as CUDA programs against `weft-trace run bfs` and
#     `run gaussian` at two sizes: the same launches with the same
#     per-launch instruction counts;
#  4. what fails, and how: unsupported calls, kernel faults and budgets,
#     a fatbinary in NVIDIA's LZ format, damaged fatbinaries, bad
#     WEFT_CUDART_* variables, a program killed mid-launch (nothing left
#     behind), exec's own usage errors, and the programs
#     expected to fail until the emulator supports what they use;
#  5. --corpus-only skips 1, 4 and the second size of 3 (for nvcc's fresh
#     builds of the same programs, `make cudart-tests` with nvcc present).
#
#   sh tests/cuda/run.sh [BINDIR] [--corpus-only]
#
# POSIX sh; the tools in $WEFT_BIN (default bin), the library in
# $WEFT_BIN/cudart. Under a sanitized build the library needs the
# sanitizer's runtime loaded first: LD_PRELOAD names it.

cd "$(dirname "$0")/../.." || exit 3
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
LIBDIR=$PWD/$BIN/cudart
LIB=$LIBDIR/libcudart.so.13
PATCH=${WEFT_BUILD:-build}/tests/tools/fatbin_patch
P=${1:-tests/cuda/bin}
case $P in --corpus-only) P=tests/cuda/bin ;; esac
only=0
for a in "$@"; do [ "$a" = --corpus-only ] && only=1; done
for f in "$T" "$E" "$LIB"; do
	if [ ! -e "$f" ]; then
		echo "cudart tests: $f is missing; run make first" >&2
		exit 2
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-cudart.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="cudart: "
. tests/cli/lib.sh

# A sanitized libcudart.so.13 (make check SAN=1) in a program built
# without the sanitizers needs their runtime loaded first, in the program
# only (clang's sanitized tools carry their own copy and refuse a second):
# the programs are run through wrappers in $R that set LD_PRELOAD (the
# files themselves stay in $P), and the env lines below put $PRE in front.
R=$P
PRE=
if nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
	cc=${CC:-cc}
	rt=$($cc -print-file-name=libasan.so)
	case $cc in *clang*) rt=$($cc -print-file-name=libclang_rt.asan-x86_64.so) ;; esac
	PRE="LD_PRELOAD=$rt"
	R=$tmp/run
	mkdir "$R"
	case $P in /*) abs=$P ;; *) abs=$PWD/$P ;; esac
	for f in "$abs"/*; do
		printf '#!/bin/sh\nexec env LD_PRELOAD=%s %s "$@"\n' "$rt" "$f" >"$R/${f##*/}"
		chmod +x "$R/${f##*/}"
	done
	echo "cudart: sanitized library; the programs run with LD_PRELOAD=$rt"
fi
# runnable FILE: FILE, or a wrapper of it that preloads the sanitizer runtime
runnable() {
	if [ -z "$PRE" ]; then
		echo "$1"
		return
	fi
	printf '#!/bin/sh\nexec env %s %s "$@"\n' "$PRE" "$1" >"$1.run"
	chmod +x "$1.run"
	echo "$1.run"
}

# ---- 1. the library ---------------------------------------------------------

if [ $only = 0 ]; then
	if readelf -d "$LIB" | grep -q 'SONAME.*\[libcudart.so.13\]'; then
		ok "soname libcudart.so.13"
	else
		: >"$tmp/out"; readelf -d "$LIB" >"$tmp/err"
		bad "soname" "not libcudart.so.13"
	fi
	grep -v '^#' tests/cuda/libcudart13.symbols >"$tmp/want"
	nm -D --defined-only "$LIB" | awk '$3 ~ /@@libcudart.so.13$/ { sub(/@@.*/, "", $3); print $3 }' |
		sort >"$tmp/have"
	if cmp -s "$tmp/want" "$tmp/have"; then
		ok "exports the $(wc -l <"$tmp/want") functions of CUDA 13.0's runtime, version libcudart.so.13"
	else
		diff "$tmp/want" "$tmp/have" >"$tmp/out"; : >"$tmp/err"
		bad "exported functions" "not those of tests/cuda/libcudart13.symbols (< missing, > extra)"
	fi
	others=$(nm -D --defined-only "$LIB" | awk '$3 !~ /@@libcudart.so.13$/ && $3 != "libcudart.so.13" { print $3 }')
	if [ -z "$others" ]; then
		ok "exports nothing else"
	else
		echo "$others" >"$tmp/out"; : >"$tmp/err"
		bad "exports" "names outside version libcudart.so.13"
	fi
	if LD_LIBRARY_PATH=$LIBDIR ldd "$P/vecadd" 2>&1 | grep -qF "libcudart.so.13 => $LIB"; then
		ok "ldd finds weft's libcudart.so.13 through LD_LIBRARY_PATH"
	else
		LD_LIBRARY_PATH=$LIBDIR ldd "$P/vecadd" >"$tmp/out" 2>"$tmp/err"
		bad "ldd" "does not resolve libcudart.so.13 to $LIB"
	fi
fi

# ---- 2. the corpus ------------------------------------------------------------

# corpus CASE PROGRAM [ARGS...]: runs, compares, verifies and replays.
corpus() {
	name=$1
	shift
	prog=$1
	shift
	"$T" exec --max-device-mem 1G -o "$tmp/$name.wtr" "$R/$prog" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$name" "exit status $rc, expected 0"
		return
	fi
	if ! cmp -s "$tmp/out" "tests/cuda/expected/$name.out"; then
		diff -u "tests/cuda/expected/$name.out" "$tmp/out" >"$tmp/diff"
		cp "$tmp/diff" "$tmp/out"
		bad "$name" "output differs from tests/cuda/expected/$name.out"
		return
	fi
	launches=$(sed -n 's/^launches *//p' "$tmp/err")
	if ! "$T" verify "$tmp/$name.wtr" >"$tmp/out" 2>>"$tmp/err"; then
		bad "$name" "the trace does not verify"
		return
	fi
	n=$("$T" info "$tmp/$name.wtr" | grep -c '^launch ')
	if [ "$n" != "$launches" ]; then
		bad "$name" "the trace has $n launches, the runtime reported $launches"
		return
	fi
	# (dynshared's 60 KB of shared memory needs more than the Fermi SM's 48 KB)
	"$E" "$tmp/$name.wtr" -c configs/fermi-sm.ini --set core.shmem_bytes=232448 --format csv \
		>"$tmp/csv" 2>"$tmp/err"
	rows=$(cut -d, -f12 "$tmp/csv" | grep -c '^[0-9][0-9]*$')
	if [ "$rows" != "$launches" ]; then
		cp "$tmp/csv" "$tmp/out"
		bad "$name" "weft-estimate gave $rows rows for $launches launches"
		return
	fi
	ok "$name: output as expected, $launches launches traced and replayed"
}

corpus vecadd vecadd
corpus hostloop hostloop
corpus constmem constmem
corpus structs structs
corpus devquery devquery
corpus dynshared dynshared
corpus threads threads
corpus twounits twounits
corpus bfs-small bfs small
corpus gaussian-small gaussian small
corpus warpsize warpsize
corpus negshared negshared
corpus textures textures
corpus arrays arrays
corpus printf printf

# ---- 3. bfs and gaussian against the bundled drivers --------------------------

# launches FILE.wtr: each launch's kernel, geometry and instruction counts
launches() {
	"$T" info "$1" | sed -n 's/ (ptx [0-9a-f]*)//; s/; [0-9]* chunks.*//; /^launch /p'
}

sizes="small default"
[ $only = 1 ] && sizes=small
for w in bfs gaussian; do
	for s in $sizes; do
		name="$w $s vs weft-trace run $w"
		"$T" exec -q -o "$tmp/$w-$s.wtr" "$R/$w" "$s" >"$tmp/out" 2>"$tmp/err" &&
			"$T" run "$w" --size "$s" -o "$tmp/$w-$s-run.wtr" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			bad "$name" "exit status $rc"
			continue
		fi
		launches "$tmp/$w-$s.wtr" >"$tmp/a"
		launches "$tmp/$w-$s-run.wtr" >"$tmp/b"
		if [ ! -s "$tmp/a" ] || ! cmp -s "$tmp/a" "$tmp/b"; then
			diff "$tmp/b" "$tmp/a" >"$tmp/out"; : >"$tmp/err"
			bad "$name" "the launches differ (< the bundled driver, > the CUDA program)"
		else
			ok "$name: the same $(wc -l <"$tmp/a") launches, per-launch thread and warp instructions equal"
		fi
	done
done

[ $only = 1 ] && { echo "cudart tests ($P): $pass passed, $failed failed"; [ $failed = 0 ]; exit; }

# ---- 4. what fails, and how ---------------------------------------------------

# fails NAME CODE PHRASE [exec OPTIONS...] PROGRAM [ARGS...]: weft-trace
# exec must exit with CODE and print PHRASE
fails() {
	name=$1 code=$2 phrase=$3
	shift 3
	expect "$name" "$code" "$phrase" exec "$@"
}

fails "cudaMallocManaged is not supported yet" 2 \
	"cudaMallocManaged: not supported yet: managed memory" -o "$tmp/x.wtr" "$R/unsupported" managed
fails "a graph call is not supported yet" 2 "cudaGraphCreate: not supported yet: CUDA graphs" \
	"$R/unsupported" graph
fails "a cooperative launch is not supported yet" 2 \
	"cudaLaunchCooperativeKernel: not supported yet: cooperative launches" "$R/unsupported" cooperative
fails "a mipmapped CUDA array is not supported yet" 2 \
	"cudaMallocMipmappedArray: not supported yet: mipmapped CUDA arrays" "$R/unsupported" mipmapped
fails "the program sees cudaErrorNotSupported" 2 "mipmapped -> cudaErrorNotSupported" "$R/unsupported" mipmapped
fails "a texture over a 3-D CUDA array is not supported yet" 2 \
	"cudaCreateTextureObject: not supported yet: textures and surfaces over 3-D CUDA arrays" \
	"$R/unsupported" tex3d
fails "an out-of-bounds store is a sticky fault" 2 "a later copy -> cudaErrorIllegalAddress" \
	-o "$tmp/fault.wtr" "$R/fault" oob
fails "the fault names the kernel, thread and PTX line" 2 \
	"out-of-bounds global store of 4 bytes at address 0x1000000100" "$R/fault" oob
fails "after a fault no trace is written" 2 "trace $tmp/fault.wtr not written" \
	-o "$tmp/fault.wtr" "$R/fault" oob
if [ -e "$tmp/fault.wtr" ]; then : >"$tmp/out"; : >"$tmp/err"; bad "no trace after a fault" "$tmp/fault.wtr exists"; fi
fails "a kernel that never ends stops at its budget" 2 "synchronize -> cudaErrorLaunchTimeout" \
	--max-launch-insts 100000 "$R/fault" spin
fails "the budget is named" 2 "ran out of its launch's instruction budget of 100000" \
	--max-launch-insts 100000 "$R/fault" spin
fails "PTX in NVIDIA's LZ format is refused naming the flag" 2 \
	"compressed in NVIDIA's LZ format (fatbinary flag 0x2000, what nvcc --compress-mode=speed writes)" \
	"$R/vecadd_lz"
fails "a program's own failure is exit status 1" 1 "exited with status 1" "$R/unsupported" none
# (hostloop allocates no host memory before: its early exit leaks nothing
# a sanitized run would report)
fails "a device memory cap below the program's needs" 1 "FAIL cudaMalloc" --max-device-mem 1K "$R/hostloop"


# damaged fatbinaries, reached through the program itself
if [ -x "$PATCH" ]; then
	patched() { # NAME PHRASE FIELD VALUE
		"$PATCH" "$P/vecadd" "$tmp/patched" "$3" "$4" >"$tmp/out" 2>"$tmp/err" ||
			{ bad "$1" "fatbin_patch failed"; return; }
		fails "$1" 2 "$2" "$(runnable "$tmp/patched")"
	}
	patched "a fatbinary claiming more bytes than its segment" \
		"fatbinary corrupt at byte offset 8: header: 1099511627776 bytes of entries do not fit" \
		entries-size 0x10000000000
	patched "an entry header of size 0" "entry 0: header size 0 is outside 64..4096" entry-header 0
	patched "an entry header running past the end" "entry 0: header size 4096 runs past the end" \
		entry-header 4096
	patched "a PTX entry flagged with both compressions" "name two compression formats" ptx-flags 0xa000
	patched "a fatbinary without PTX" "has no PTX, only machine code (sm_75)" ptx-kind 3
	patched "a wrapper with a wrong magic" "the fatbinary wrapper's magic is wrong" wrapper-magic 0
else
	echo "cudart: $PATCH missing; damaged fatbinaries not tested (make $PATCH)"
	failed=$((failed + 1))
fi

# the library's environment, without weft-trace exec
T=env
expect "WEFT_CUDART_LEVEL not a level" 1 "WEFT_CUDART_LEVEL=\`abc\`: not a zstd level, 1..19" \
	$PRE LD_LIBRARY_PATH="$LIBDIR" WEFT_CUDART_LEVEL=abc "$P/vecadd"
expect "every call fails after a bad variable" 1 "cudaErrorInitializationError" \
	$PRE LD_LIBRARY_PATH="$LIBDIR" WEFT_CUDART_LEVEL=abc "$P/vecadd"
expect "WEFT_CUDART_MAX_LAUNCH_INSTS not a count" 1 "WEFT_CUDART_MAX_LAUNCH_INSTS=\`-5\`: not a positive count" \
	$PRE LD_LIBRARY_PATH="$LIBDIR" WEFT_CUDART_MAX_LAUNCH_INSTS=-5 "$P/vecadd"
expect "WEFT_CUDART_MAX_DEVICE_MEM not a size" 1 "WEFT_CUDART_MAX_DEVICE_MEM=\`8X\`: not a positive size" \
	$PRE LD_LIBRARY_PATH="$LIBDIR" WEFT_CUDART_MAX_DEVICE_MEM=8X "$P/vecadd"
expect "WEFT_CUDART_TRACE in a missing directory" 1 "WEFT_CUDART_TRACE=" \
	$PRE LD_LIBRARY_PATH="$LIBDIR" WEFT_CUDART_TRACE=/nonexistent-weft-dir/x.wtr "$P/vecadd"
long=$(printf '%05000d' 0)
expect "a value over 4095 bytes" 1 "longer than 4095 bytes" \
	$PRE LD_LIBRARY_PATH="$LIBDIR" WEFT_CUDART_PTX_DIR="$long" "$P/vecadd"
expect "no variables: the program runs, no trace" 0 "PASS" $PRE LD_LIBRARY_PATH="$LIBDIR" "$P/vecadd"
# a program killed while a kernel runs leaves no trace and no temporary file
mkdir "$tmp/killed"
timeout -s KILL 2 env $PRE LD_LIBRARY_PATH="$LIBDIR" WEFT_CUDART_TRACE="$tmp/killed/t.wtr" \
	"$P/fault" spin >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 137 ] && [ -z "$(ls -A "$tmp/killed")" ]; then
	ok "a program killed by SIGKILL mid-launch leaves nothing behind"
else
	ls -la "$tmp/killed" >>"$tmp/out"
	bad "killed mid-launch" "exit status $rc (137 expected) or files left"
fi
T=$BIN/weft-trace

# weft-trace exec's own errors
expect "exec without a program" 2 "which program?" exec -o "$tmp/x.wtr"
expect "exec -o into a missing directory" 2 "exec: -o:" exec -o /nonexistent-weft-dir/x.wtr "$R/vecadd"
expect "exec --level without -o" 2 "--level applies only with -o" exec --level 3 "$R/vecadd"
expect "exec a bad --max-launch-insts" 2 "bad --max-launch-insts" exec --max-launch-insts x "$R/vecadd"
expect "exec a program that does not exist" 2 "cannot run ./no-such-program" exec ./no-such-program
expect "exec a program without CUDA" 2 "without weft's libcudart.so.13 having run" exec /bin/true
expect "exec a program killed by a signal" 2 "was killed by signal 9" exec sh -c 'kill -9 $$'
T=env
expect "exec with a bad WEFT_CUDART_DIR" 2 "WEFT_CUDART_DIR=/nonexistent-weft-dir holds no libcudart.so.13" \
	WEFT_CUDART_DIR=/nonexistent-weft-dir "$BIN/weft-trace" exec "$R/vecadd"
T=$BIN/weft-trace
mkdir "$tmp/ptx"
expect "exec --ptx-dir writes each module's PTX" 0 "PASS" exec --ptx-dir "$tmp/ptx" "$R/twounits"
if [ "$(ls "$tmp/ptx" | wc -l)" = 2 ] && grep -q '^\.visible \.entry' "$tmp/ptx/twounits-0.compute_75.ptx"; then
	ok "--ptx-dir: twounits-0.compute_75.ptx and twounits-1.compute_75.ptx"
else
	ls -l "$tmp/ptx" >"$tmp/out"; : >"$tmp/err"
	bad "--ptx-dir" "not the two modules' PTX"
fi
expect "exec options end at the program" 0 "2 host callbacks" exec -q "$R/hostloop" -o ignored

echo "cudart tests: $pass passed, $failed failed"
[ $failed = 0 ]
