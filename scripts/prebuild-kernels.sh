#!/usr/bin/env bash
# Builds the kernels ahead of time (package internal/gpu/prebuilt), in two
# steps:
#
#   on a GPU machine (no Go needed; bin/apsp built beside it here):
#     scripts/prebuild-kernels.sh record OUTDIR
#   runs the CLI's default workloads on every engine with
#   APSP_PREBUILT_RECORD=OUTDIR/rec and a fresh kernel cache, so that every
#   module they load is compiled by NVRTC and written out with its key;
#
#   back on a machine with Go:
#     scripts/prebuild-kernels.sh gather OUTDIR/rec
#   gzips those cubins into internal/gpu/prebuilt/cubins/ARCH/ and adds
#   them to its manifest.json, each replacing the module of the same file,
#   architecture and options (a binary with prebuilt cubins records only
#   the modules whose source changed).
#
# go test ./internal/gpu (TestPrebuiltMatchSources) fails when a kernel
# source no longer matches its cubins, naming this script.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
record)
  out=${2:?usage: $0 record OUTDIR}
  A=${APSP:-bin/apsp}
  T=$(mktemp -d)
  mkdir -p "$out/rec"
  export APSP_PREBUILT_RECORD=$out/rec APSP_CACHE_DIR=$T/cache
  run() { echo "+ $*" >&2; "$A" "$@" > /dev/null || echo "FAILED: $*" >&2; }
  for n in 64 256 1024 4096 16384; do
    "$A" gen regular n=$n d=16 seed=1 -o "$T/r$n.txt"
    "$A" gen regular n=$n d=16 seed=1 weights=1..100 -o "$T/w$n.txt"
    "$A" gen regular n=$n d=16 seed=1 weights=0.5..9.5 -o "$T/f$n.txt"
    "$A" gen regular n=$n d=16 seed=1 weights=1..3 -o "$T/s$n.txt"
    "$A" gen regular n=$n d=16 seed=1 directed weights=1..100 -o "$T/dw$n.txt"
    for g in r w f s dw; do run stats --device gpu "$T/$g$n.txt"; done
    run stats --device gpu --no-aspl "$T/r$n.txt"
    run dist --device gpu -o "$T/d.npy" "$T/r$n.txt"
    run hist --device gpu "$T/r$n.txt"
    run closeness --device gpu "$T/w$n.txt"
  done
  for n in 65536 262144; do
    "$A" gen regular n=$n d=16 seed=1 -o "$T/r$n.txt"
    run stats --device gpu "$T/r$n.txt"
    run stats --device gpu --algo gpu-sssp "$T/r$n.txt"
  done
  for algo in gpu-multi gpu-single gpu-bitbfs gpu-sssp gpu-minplus; do
    for n in 256 1024 4096; do
      [ $algo = gpu-minplus ] && [ $n -gt 1024 ] && continue
      for g in r w f s; do
        [ $algo = gpu-bitbfs ] && [ $g != r ] && continue
        run stats --device gpu --algo $algo "$T/$g$n.txt"
      done
    done
  done
  for algo in gpu-multi gpu-single; do
    for lanes in int16 int32 float32; do
      run stats --device gpu --algo $algo --lanes $lanes "$T/r1024.txt"
      run stats --device gpu --algo $algo --lanes $lanes "$T/s4096.txt"
    done
  done
  for n in 16 32 64 128 256 512 1024; do
    mkdir -p "$T/bulk$n" "$T/bulkw$n"
    for i in 1 2 3 4; do
      "$A" gen regular n=$n d=4 seed=$i -o "$T/bulk$n/$i.txt"
      "$A" gen regular n=$n d=4 seed=$i weights=1..9 -o "$T/bulkw$n/$i.txt"
    done
    run bulk --device gpu "$T/bulk$n"
    run bulk --device gpu "$T/bulkw$n"
  done
  ls "$out/rec" | grep -c cubin
  ;;
gather)
  rec=${2:?usage: $0 gather RECDIR}
  go run ./internal/gpu/prebuilt/gather "$rec" internal/gpu/prebuilt/cubins
  ;;
*)
  echo "usage: $0 record OUTDIR | gather RECDIR" >&2
  exit 2
  ;;
esac
