#!/bin/sh
# hostile.sh - hostile launches and traces are refused cleanly (`make
# cli-tests`): a launch or trace that asks for more than CUDA allows (grid
# and block dimensions and their products, shared and local memory,
# registers), a kernel that never ends, and outputs that cannot be written
# each end with exit status 2 and a message naming what, where and the
# limit, promptly, and without allocating what was asked for: every case
# runs under a 1 GiB bound on memory, so an allocation of the requested
# size (GiBs) fails the test. POSIX sh, coreutils and gzip (for CRC-32).

cd "$(dirname "$0")/../.." || exit 3
# the tools under test: bin/, or $WEFT_BIN (make check SAN=1 sets bin-san)
BIN=${WEFT_BIN:-bin}
T=$BIN/weft-trace
E=$BIN/weft-estimate
L=$PWD/tests/fixtures/limits/limits.ptx
F=tests/fixtures/cli
for b in "$T" "$E"; do
	if [ ! -x "$b" ]; then
		echo "hostile tests: $b is missing; run make first" >&2
		exit 2
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-hostile.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT INT TERM
PREFIX="hostile: "
. tests/cli/lib.sh

# The memory bound. A plain build runs under `ulimit -v` (1 GiB of address
# space). A sanitized build (make check SAN=1) reserves terabytes of
# address space for ASan's shadow memory and cannot run under it; there
# ASan itself refuses any single allocation over 1 GiB
# (max_allocation_size_mb), which under halt_on_error fails the case too.
if grep -q __asan_init "$T" 2>/dev/null; then
	bound="ASan max_allocation_size_mb=1024"
	limited() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=1024" timeout 120 "$@"; }
else
	bound="ulimit -v 1048576 (1 GiB)"
	limited() { (ulimit -v 1048576 && exec timeout 120 "$@"); }
fi
echo "hostile tests: memory bound: $bound; time bound: 120 s a case"

# small NAME CODE PHRASE ARGS...: as expect (lib.sh), with $T under the
# memory and time bounds.
small() {
	name=$1 code=$2 phrase=$3
	shift 3
	limited "$T" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		bad "$name" "exit status $rc, expected $code"
	elif ! cat "$tmp/out" "$tmp/err" | grep -qF -- "$phrase"; then
		bad "$name" "output lacks \"$phrase\""
	else
		ok "$name"
	fi
}

# spec FILE KERNEL GRID BLOCK [LINE...]: a launch spec of a limits.ptx
# kernel with one u32 output buffer of 64 elements; extra LINEs go into
# [kernel] (after block, so they are lines 6, 7, ...).
spec() {
	f=$1 k=$2 g=$3 b=$4
	shift 4
	printf '[kernel]\nptx = %s\nname = %s\ngrid = %s\nblock = %s\n' "$L" "$k" "$g" "$b" >"$f"
	for line in "$@"; do printf '%s\n' "$line" >>"$f"; done
	printf '[buffer out]\ntype = u32\ncount = 64\n[args]\nout = buffer:out\n' >>"$f"
}

# ---- traces whose launch record claims an impossible launch --------------
# craft IN OUT OFFSET VALUE...: copies trace IN to OUT with the u32 at
# OFFSET (and the ones after it) of the first record's payload (the launch
# record: index, grid x y z, block x y z, dynamic shared) replaced, and the
# record's CRC-32 recomputed, so only the values are wrong. gzip's trailer
# holds the CRC-32 of its input (the same polynomial as the trace's).
le32() {
	v=$1
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"
}
craft() {
	in=$1 out=$2 off=$3
	shift 3
	cp "$in" "$out" || return 1
	len=$(od -A n -t u4 -j 20 -N 4 "$in" | tr -d ' ')
	for v in "$@"; do
		le32 "$v" | dd of="$out" bs=1 seek=$((24 + off)) conv=notrunc 2>/dev/null || return 1
		off=$((off + 4))
	done
	dd if="$out" bs=1 skip=16 count=$((8 + len)) 2>/dev/null | gzip -c | tail -c 8 | head -c 4 |
		dd of="$out" bs=1 seek=$((24 + len)) conv=notrunc 2>/dev/null
}
if ! "$T" run vvadd --size small -o "$tmp/v.wtr" >/dev/null 2>"$tmp/err"; then
	: >"$tmp/out"; bad "traces" "weft-trace run vvadd -o failed"
elif [ "$(od -A n -t x1 -j 16 -N 4 "$tmp/v.wtr" | tr -d ' ')" != 4c4e4348 ]; then
	: >"$tmp/out"; : >"$tmp/err"; bad "traces" "the first record of a trace is not LNCH"
elif ! craft "$tmp/v.wtr" "$tmp/block.wtr" 16 2147483648 ||
     ! craft "$tmp/v.wtr" "$tmp/grid.wtr" 4 2147483647 65535 65535 ||
     ! craft "$tmp/v.wtr" "$tmp/dyn.wtr" 28 4294967295; then
	: >"$tmp/out"; : >"$tmp/err"; bad "traces" "cannot craft the traces"
else
	# the checksums are right: only the values are refused
	"$T" verify "$tmp/v.wtr" >/dev/null 2>&1 || echo "FAIL hostile: the crafted traces' source does not verify"
	for c in info stats dump; do
		small "trace $c: 2^31 threads per CTA is corrupt (not out of memory)" 2 \
			"block.wtr is corrupt at byte offset 16: launch record 0: block (2147483648,1,1) exceeds CUDA's block dimensions" \
			$c "$tmp/block.wtr"
	done
	small "trace verify: 2^31 threads per CTA fails the check" 1 \
		"is corrupt at byte offset 16: launch record 0: block (2147483648,1,1)" verify "$tmp/block.wtr"
	small "trace info: a grid of 2^63 CTAs is corrupt" 2 \
		"launch record 0: grid (2147483647,65535,65535) has 9223090559730712575 CTAs" info "$tmp/grid.wtr"
	small "trace stats: 4 GiB of dynamic shared memory is corrupt" 2 \
		"launch record 0: 4294967295 bytes of dynamic shared memory, more than CUDA's 232448 per block" \
		stats "$tmp/dyn.wtr"
	T_SAVED=$T
	T=$E
	small "estimate: 2^31 threads per CTA is corrupt" 2 "is corrupt at byte offset 16" \
		"$tmp/block.wtr" -c configs/fermi-sm.ini
	T=$T_SAVED
fi

# ---- launch specs past CUDA's limits ---------------------------------------
spec "$tmp/grid.ini" no_shared 2147483647,65535,65535 32
small "spec: a grid whose CTA count overflows 32 bits" 2 \
	"grid.ini:4: grid (2147483647,65535,65535) has 9223090559730712575 CTAs; weft runs at most 4294967295" \
	run --spec "$tmp/grid.ini"
spec "$tmp/block.ini" no_shared 1 1024,1024,64
small "spec: a block whose thread count is 2^26" 2 \
	"block.ini:5: block (1024,1024,64) has more than 1024 threads (67108864), CUDA's limit per block" \
	run --spec "$tmp/block.ini"
spec "$tmp/blockx.ini" no_shared 1 4294967295
small "spec: block x of 2^32-1" 2 "blockx.ini:5: block (4294967295,1,1) exceeds CUDA's block dimensions" \
	run --spec "$tmp/blockx.ini"
spec "$tmp/shared.ini" no_shared 1 32 "shared = 4294967295"
small "spec: 4 GiB of dynamic shared memory" 2 \
	"shared.ini:6: shared = 4294967295 bytes is more than the 232448 bytes (227 KB) of shared memory CUDA allows a block" \
	run --spec "$tmp/shared.ini"
spec "$tmp/shared1.ini" no_shared 1 32 "shared = 232449"
small "spec: one byte past the shared memory of a block" 2 "shared1.ini:6: shared = 232449 bytes is more than" \
	run --spec "$tmp/shared1.ini"
spec "$tmp/static.ini" huge_static_shared 1 32
small "PTX: 4 GiB of static shared memory (its size does not wrap to 0)" 2 \
	"limits.ptx:18: kernel huge_static_shared: static shared memory reaches 4294967296 bytes with \`big\` (4294967296 bytes), more than the 232448 bytes (227 KB) CUDA allows a block" \
	run --spec "$tmp/static.ini"
spec "$tmp/static1.ini" over_static_shared 1 32
small "PTX: static shared memory just past 227 KB" 2 "kernel over_static_shared: static shared memory reaches 232452 bytes" \
	run --spec "$tmp/static1.ini"
spec "$tmp/local.ini" huge_local 1 1024
small "PTX: 1 MiB of local memory per thread" 2 \
	"kernel huge_local: local memory per thread (.local variables, call frames) reaches 1048576 bytes with \`depot\` (1048576 bytes), more than the 524288 bytes (512 KB) CUDA allows a thread" \
	run --spec "$tmp/local.ini"
spec "$tmp/regs.ini" many_regs 1 1024
small "PTX: 100000 virtual registers" 2 \
	"kernel many_regs needs more than 65536 register slots per thread" run --spec "$tmp/regs.ini"
spec "$tmp/maxnreg.ini" big_maxnreg 1 32
small "PTX: .maxnreg past 255" 2 \
	"limits.ptx:69: kernel big_maxnreg: .maxnreg 1000 is more than the 255 registers CUDA allows a thread" \
	run --spec "$tmp/maxnreg.ini"
spec "$tmp/req.ini" need_64 1 32
small "PTX: a block other than .reqntid" 2 \
	"kernel need_64 requires blocks of (64,1,1) threads (.reqntid) but the launch gives (32,1,1)" \
	run --spec "$tmp/req.ini"
# the most shared memory a block may have, for a kernel that uses none, over
# 4096 CTAs: allocated as touched, not 227 KB cleared per CTA
printf '[kernel]\nptx = %s\nname = no_shared\ngrid = 4096\nblock = 32\nshared = 232448\n[buffer out]\ntype = u32\ncount = 131072\n[args]\nout = buffer:out\n' \
	"$L" >"$tmp/unused.ini"
small "spec: 227 KB of unused shared memory runs" 0 "verification    not run" run --spec "$tmp/unused.ini"

# ---- device memory ------------------------------------------------------------
# a buffer of 2^36 u32 (256 GiB): over this machine's memory, and over the
# 1 GiB bound, so an attempt to allocate it fails the case
spec "$tmp/huge.ini" no_shared 1 32
sed 's/^count = 64$/count = 68719476736/' "$tmp/huge.ini" >"$tmp/hugebuf.ini"
small "device memory: a 256 GiB buffer is refused before allocation" 2 \
	"hugebuf.ini:6: [buffer out]: device memory limit: 274877906944 bytes requested with 0 already held" \
	run --spec "$tmp/hugebuf.ini"
small "device memory: the message says how to raise the limit" 2 "set the limit with --max-device-mem" \
	run --spec "$tmp/hugebuf.ini"
sed 's/^count = 64$/count = 1048576/' "$tmp/huge.ini" >"$tmp/fourmeg.ini"
small "device memory: --max-device-mem lowers the limit" 2 \
	"4194304 bytes requested with 0 already held, beyond the limit of 1048576 bytes (the limit the caller set" \
	run --spec "$tmp/fourmeg.ini" --max-device-mem 1M
small "device memory: within --max-device-mem runs" 0 "verification    not run" \
	run --spec "$tmp/fourmeg.ini" --max-device-mem 4MiB
small "device memory: a bad --max-device-mem" 2 "bad --max-device-mem \`4X\`" \
	run vvadd --max-device-mem 4X
# padding: 1 GiB before and after a buffer is accepted by the spec and
# refused by the device-memory limit before anything is allocated
sed 's/^count = 64$/count = 64\npad_before = 1073741824\npad_after = 1073741824/' "$tmp/huge.ini" >"$tmp/pad.ini"
small "device memory: 2 GiB of buffer padding is refused before allocation" 2 \
	"pad.ini:6: [buffer out]: device memory limit: 2147483904 bytes requested" \
	run --spec "$tmp/pad.ini" --max-device-mem 1G
sed 's/^count = 64$/count = 64\npad_before = 1073741825/' "$tmp/huge.ini" >"$tmp/pad2.ini"
small "spec: padding beyond 1 GiB" 2 "pad2.ini:9: bad pad_before \`1073741825\`: want a number of bytes, at most 1073741824" \
	run --spec "$tmp/pad2.ini"
# a sequence repeating a launch a million times plus one
printf '[kernel]\nptx = %s\n[buffer out]\ntype = u32\ncount = 64\n[launch a]\nkernel = no_shared\ngrid = 1\nblock = 32\nrepeat = 1000000\n[args a]\nout = buffer:out\n[launch b]\nkernel = no_shared\ngrid = 1\nblock = 32\n[args b]\nout = buffer:out\n' \
	"$L" >"$tmp/manylaunches.ini"
small "spec: more than a million launches" 2 "manylaunches.ini:13: the spec runs more than 1000000 launches" \
	run --spec "$tmp/manylaunches.ini"

# ---- the instruction budget of a launch ------------------------------------
small "budget: a kernel that never ends stops (--max-launch-insts)" 2 \
	"kernel spin_forever ran out of its launch's instruction budget of 1000000 thread instructions (--max-launch-insts) in CTA 0 of 1" \
	run --spec $F/runaway.ini --max-launch-insts 1e6
small "budget: the message names the CTA and thread" 2 "at kernel spin_forever, CTA (0,0,0), thread (" \
	run --spec $F/runaway.ini --max-launch-insts 1000000
small "budget: the message says how to raise it" 2 "raise it with --max-launch-insts N" \
	run --spec $F/runaway.ini --max-launch-insts 1e6
sed 's/^block = 32$/block = 32\nmax_insts = 5e5/' $F/runaway.ini >"$tmp/runaway.ini"
cp $F/faults.ptx "$tmp/"
small "budget: a spec's max_insts names its line" 2 \
	"instruction budget of 500000 thread instructions (max_insts at $tmp/runaway.ini:7)" \
	run --spec "$tmp/runaway.ini"
small "budget: the smaller of max_insts and --max-launch-insts applies" 2 \
	"budget of 200000 thread instructions (--max-launch-insts)" \
	run --spec "$tmp/runaway.ini" --max-launch-insts 2e5
sed 's/^block = 32$/block = 32\nmax_insts = lots/' $F/runaway.ini >"$tmp/badmax.ini"
small "budget: a bad max_insts" 2 "badmax.ini:7: bad max_insts \`lots\`" run --spec "$tmp/badmax.ini"
small "budget: a bad --max-launch-insts" 2 "bad --max-launch-insts \`0\`" run vvadd --max-launch-insts 0
small "budget: per launch, not per run (bfs: 12 launches)" 0 "PASS" \
	run bfs --size small --verify --max-launch-insts 40000
small "budget: --max-thread-insts counts all launches" 2 "exceeded --max-thread-insts 40000" \
	run bfs --size small --max-thread-insts 40000

# ---- outputs are checked before the work starts ----------------------------
# each with a kernel that never ends: only a check made first can answer
mkdir "$tmp/adir"
small "output: -o into a missing folder fails at once" 2 "cannot create $tmp/nodir/t.wtr" \
	run --spec $F/runaway.ini -o "$tmp/nodir/t.wtr"
small "output: -o a directory fails at once" 2 "$tmp/adir is a directory; name a file" \
	run --spec $F/runaway.ini -o "$tmp/adir"
sed '/^\[args\]/,$d' $F/runaway.ini >"$tmp/outdir.ini"
printf 'output = adir\n[args]\nflag = buffer:flag\ncount = buffer:count\n' >>"$tmp/outdir.ini"
small "output: a spec output that is a directory fails at once" 2 \
	"outdir.ini:13: [buffer count]: cannot write output $tmp/adir: it is a directory; name a file" \
	run --spec "$tmp/outdir.ini"
: >"$tmp/afile"
small "output: --output-dir a file fails at once" 2 "directory $tmp/afile is not a directory" \
	run --spec tests/fixtures/spec/saxpy.ini --output-dir "$tmp/afile"

echo "hostile tests: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
