#!/bin/sh
# build.sh - builds the CUDA programs of the corpus with nvcc into DIR
# (default tests/cuda/bin, the committed binaries `make check` runs without
# nvcc; `make cuda-corpus` runs this). Each program is built as
# docs/cuda-programs.md tells users to build theirs, `nvcc -cudart shared`
# with PTX in the fatbinary, and a few with other fatbinary forms the
# runtime must read (the flags below say which). --frandom-seed, and
# stripping the symbol table (which names nvcc's temporary files), make the
# output the same from one build to the next, so rebuilding changes the
# committed files only when a source or nvcc changes.
#
#   sh tests/cuda/build.sh [DIR]
set -eu
cd "$(dirname "$0")"
out=${1:-bin}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
	echo "tests/cuda/build.sh: nvcc not found (set NVCC); keeping the committed binaries" >&2
	exit 0
fi
case $out in /*) ;; *) out=$PWD/$out ;; esac
mkdir -p "$out"
COMMON="-cudart shared -O2 -Xlinker --strip-all"
build() { # NAME FLAGS SOURCES...
	name=$1 flags=$2
	shift 2
	echo "nvcc $flags -o $out/$name $*"
	# shellcheck disable=SC2086
	"$NVCC" $COMMON $flags --frandom-seed="$name" -o "$out/$name" "$@"
}
# -arch=sm_75 embeds sm_75 machine code and compute_75 PTX, zstd-compressed
# (nvcc 13's default --compress-mode=balance)
for p in vecadd hostloop constmem devquery threads fault unsupported bfs gaussian \
	 textures warpsize negshared arrays printf; do
	build "$p" "-arch=sm_75" "$p.cu"
done
# PTX stored plain
build structs "-arch=sm_75 --compress-mode=none" structs.cu
# PTX only (no machine code), from two translation units: two fatbinaries
build twounits "-gencode arch=compute_75,code=compute_75" twounits_a.cu twounits_b.cu
# PTX for two virtual architectures: the runtime takes compute_90's
build dynshared "-gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,code=compute_90" dynshared.cu
# PTX in NVIDIA's LZ format (--compress-mode=speed), which the runtime refuses
build vecadd_lz "-arch=sm_75 --compress-mode=speed" vecadd.cu
