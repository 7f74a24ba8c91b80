#!/bin/sh
# make_seeds.sh - rebuilds the committed seed corpora under tests/fuzz/corpus/
# (`make fuzz-seeds`; run from the repository root after `make`):
#   fuzz_config  every bundled configs/*.ini, and two with --set overrides
#   fuzz_spec    the launch specs of tests/fixtures/ and tests/fuzz/seed/
#   fuzz_ptx     every workload's and fixture's PTX
#   fuzz_trace   small traces of a few workloads and of tests/fuzz/seed/tiny.ini
#                at the smallest size, each also with its zstd frames rewritten
#                as raw blocks (tests/fuzz/trace_rawzstd.c)
#   fuzz_fatbin  the fatbinary (the one with PTX) of corpus programs built
#                with each fatbinary form tests/cuda/build.sh uses: zstd,
#                plain, PTX only from two units, two PTX entries, NVIDIA's LZ
# It replaces the seed files it writes (named seed-*) and leaves inputs
# that `make fuzz-merge` added alone.
set -eu
C=tests/fuzz/corpus
RAWZ=build-fuzz/trace_rawzstd
PATCH=build/tests/tools/fatbin_patch
[ -x bin/weft-trace ] || { echo "make_seeds.sh: run make first" >&2; exit 2; }
[ -x "$RAWZ" ] || { echo "make_seeds.sh: $RAWZ missing (make fuzz-seeds builds it)" >&2; exit 2; }
[ -x "$PATCH" ] || { echo "make_seeds.sh: $PATCH missing (make fuzz-seeds builds it)" >&2; exit 2; }
mkdir -p $C/fuzz_config $C/fuzz_spec $C/fuzz_ptx $C/fuzz_trace $C/fuzz_fatbin
rm -f $C/*/seed-*

for f in configs/*.ini; do cp "$f" "$C/fuzz_config/seed-$(basename "$f")"; done
{ cat configs/tesla-sm.ini; printf '%%%%\ncore.sp_per_sm=16\nmem.l2_bytes=65536\n'; } \
	> $C/fuzz_config/seed-tesla-sm-set.ini
{ cat configs/sgmf-core.ini; printf '%%%%\nfabric.token_buffer=4\ntech.node_nm=65\n'; } \
	> $C/fuzz_config/seed-sgmf-core-set.ini

for f in tests/fixtures/spec/*.ini tests/fixtures/cli/*.ini tests/fuzz/seed/*.ini; do
	cp "$f" "$C/fuzz_spec/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
done

for f in trace/workloads/*.ptx tests/fixtures/ptx/*.ptx tests/fixtures/cli/*.ptx tests/fixtures/limits/*.ptx \
	 tests/fixtures/spec/*.ptx tests/fuzz/seed/*.ptx; do
	cp "$f" "$C/fuzz_ptx/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for w in vvadd micro_diverge micro_chase micro_barrier reduce; do
	bin/weft-trace run "$w" --size small -o "$tmp/$w.wtr" >/dev/null
done
bin/weft-trace run --spec tests/fuzz/seed/tiny.ini --output-dir "$tmp" -o "$tmp/tiny.wtr" >/dev/null
for t in "$tmp"/*.wtr; do
	n=$(basename "$t" .wtr)
	cp "$t" "$C/fuzz_trace/seed-$n.wtr"
	case $n in reduce) continue ;; esac # its raw form is 40 KB
	"$RAWZ" "$t" "$C/fuzz_trace/seed-$n-raw.wtr"
	bin/weft-trace verify "$C/fuzz_trace/seed-$n-raw.wtr" >/dev/null
done
for p in vecadd structs twounits dynshared vecadd_lz; do
	"$PATCH" "tests/cuda/bin/$p" "$C/fuzz_fatbin/seed-$p.fatbin" extract
	chmod 644 "$C/fuzz_fatbin/seed-$p.fatbin"
done
du -sh $C/*
