#!/bin/sh
# build.sh ODPDIR OUTDIR [threads|cuda]...
#
# Builds odpbench against ODP (github.com/mnakao/ODP), whose source is not
# part of this repository. ODPDIR holds the files of ODP's root Makefile
# layout: aspl.c, utils.c, common.h, parameter.h (threads) and
# aspl_cuda.cu, utils_cuda.cu (cuda). OUTDIR receives odpbench (threads:
# gcc -O3 -march=native -fopenmp, as ODP's Makefile builds
# libodp_threads.a) and odpbench_cuda (nvcc -O3 -arch=sm_90, as
# libodp_cuda.a). Set NVCC_ARCH for another GPU.
set -eu
odp=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cflags="-O3 -march=native -std=gnu99 -Wno-unknown-pragmas"
for kind in "${@:-threads}"; do
	case $kind in
	threads)
		gcc $cflags -fopenmp -I"$odp" -c "$odp/aspl.c" -o "$tmp/aspl_threads.o"
		gcc $cflags -fopenmp -I"$odp" -c "$odp/utils.c" -o "$tmp/utils_threads.o"
		gcc -O3 -march=native -fopenmp -o "$out/odpbench" "$here/odpbench.c" \
			"$tmp/aspl_threads.o" "$tmp/utils_threads.o" -lm
		;;
	cuda)
		arch=${NVCC_ARCH:-sm_90}
		nvcc -O3 -arch="$arch" -I"$odp" -c "$odp/aspl_cuda.cu" -o "$tmp/aspl_cuda.o"
		nvcc -O3 -arch="$arch" -I"$odp" -c "$odp/utils_cuda.cu" -o "$tmp/utils_cuda.o"
		gcc $cflags -I"$odp" -c "$odp/utils.c" -o "$tmp/utils.o"
		init=ODP_Init_aspl_cuda_general
		grep -q "$init" "$odp/aspl_cuda.cu" || init=ODP_Init_aspl_general
		gcc -O3 -DODP_CUDA -DODP_CUDA_INIT=$init -c "$here/odpbench.c" -o "$tmp/odpbench_cuda.o"
		nvcc -O3 -arch="$arch" -o "$out/odpbench_cuda" "$tmp/odpbench_cuda.o" \
			"$tmp/aspl_cuda.o" "$tmp/utils_cuda.o" "$tmp/utils.o" -lcuda -lm
		;;
	*)
		echo "build.sh: unknown kind $kind (threads or cuda)" >&2
		exit 2
		;;
	esac
done
