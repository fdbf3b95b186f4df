#!/usr/bin/env bash
# Builds, here, what scripts/gpu-steady.sh (and gpu-run.sh) run on the GPU
# machine, which has no Go: carry bin/ with the run. Every GPU package has
# its own test binary: the base (bin/gpu.test: devices, placements, kernel
# loading), the runtime, and one per family (bin/gpu-FAMILY.test for
# internal/gpu/FAMILY; GPU_FAMILIES below). The race-detector test
# binaries need cgo (a C toolchain here, glibc there); they are skipped
# when they cannot be built.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
CGO_ENABLED=0 go build -o bin/apsp ./cmd/apsp
CGO_ENABLED=0 go test -c -o bin/cuda.test ./internal/cuda
CGO_ENABLED=0 go test -c -o bin/gpurt.test ./internal/gpu/runtime
CGO_ENABLED=0 go test -c -o bin/gpu.test ./internal/gpu
. scripts/gpu-families.sh
for fam in $GPU_FAMILIES; do
	CGO_ENABLED=0 go test -c -o "bin/gpu-$fam.test" "./internal/gpu/$fam"
done
CGO_ENABLED=0 go test -c -o bin/apsp.test .
# The runtime's cancellation, steady state and re-opening under the race
# detector, through the Floyd–Warshall family's tests.
if CGO_ENABLED=1 go test -race -c -o bin/gpu-fw-race.test ./internal/gpu/fw 2>/dev/null &&
	CGO_ENABLED=1 go test -race -c -o bin/apsp-race.test . 2>/dev/null; then
	echo "race binaries built"
else
	rm -f bin/gpu-fw-race.test bin/apsp-race.test
	echo "race binaries not built (go test -race needs cgo)"
fi
du -sh bin
