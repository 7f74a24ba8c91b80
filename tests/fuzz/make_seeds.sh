#!/bin/sh
# make_seeds.sh - rebuilds the committed seed corpora under tests/fuzz/corpus/
# (`make fuzz-seeds`; run from the repository root after `make`):
#   fuzz_config  every bundled configs/*.ini, and two with --set overrides
#   fuzz_spec    the launch specs of tests/fixtures/ and tests/fuzz/seed/
#   fuzz_ptx     every workload's and fixture's PTX
#   fuzz_trace   small traces of a few workloads and of tests/fuzz/seed/tiny.ini
#                at the smallest size, each also with its zstd frames rewritten
#                as raw blocks (tests/fuzz/trace_rawzstd.c)
#   fuzz_merge   weft-estimate shard parts of small runs on vvadd and tiny.ini:
#                a whole run as one part, and runs of 2 and 3 shards, their parts
#                joined by lines `%%` as the harness reads them
#   fuzz_plotjson  the weft-estimate reports of tests/fixtures/plot/
#   fuzz_recipe    the bundled weft-study recipes of recipes/
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
mkdir -p $C/fuzz_config $C/fuzz_spec $C/fuzz_ptx $C/fuzz_trace $C/fuzz_merge $C/fuzz_plotjson $C/fuzz_fatbin $C/fuzz_recipe
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
	 tests/fixtures/spec/*.ptx tests/fixtures/emu/*.ptx tests/fuzz/seed/*.ptx; do
	cp "$f" "$C/fuzz_ptx/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
done

for f in tests/fixtures/plot/*.json; do cp "$f" "$C/fuzz_plotjson/seed-$(basename "$f")"; done
for f in recipes/*.ini; do cp "$f" "$C/fuzz_recipe/seed-$(basename "$f")"; done

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
# shard parts: the trace under a short relative name, as a user runs it
cp "$tmp/vvadd.wtr" "$tmp/v.wtr"
cp "$tmp/tiny.wtr" "$tmp/t.wtr"
E=$PWD/bin/weft-estimate
F=configs
ln -s "$PWD/configs" "$tmp/configs"
# parts K..N-1 of shard run N (the rest of the arguments) joined by `%%`
parts() {
	out=$1 n=$2
	shift 2
	k=0
	while [ $k -lt "$n" ]; do
		[ $k -gt 0 ] && printf '%%%%\n' >>"$out"
		(cd "$tmp" && "$E" "$@" --shard $k/"$n") >>"$out"
		k=$((k + 1))
	done
}
: >$C/fuzz_merge/seed-vvadd-whole.json
parts $C/fuzz_merge/seed-vvadd-whole.json 1 v.wtr -c $F/fermi-sm.ini -c $F/sgmf-core.ini --explain
: >$C/fuzz_merge/seed-vvadd-3.json
parts $C/fuzz_merge/seed-vvadd-3.json 3 v.wtr -c $F/fermi-sm.ini -c $F/dmt-cgra.ini --sweep tech.node_nm=40,45 \
	--baseline 'dmt-cgra[tech.node_nm=45]' --format json
: >$C/fuzz_merge/seed-tiny-2.json
parts $C/fuzz_merge/seed-tiny-2.json 2 t.wtr -c $F/maven/mimd-c4r32.ini -c $F/tesla-sm.ini --sample every:2 --format csv
for p in vecadd structs twounits dynshared vecadd_lz; do
	"$PATCH" "tests/cuda/bin/$p" "$C/fuzz_fatbin/seed-$p.fatbin" extract
	chmod 644 "$C/fuzz_fatbin/seed-$p.fatbin"
done
du -sh $C/*
