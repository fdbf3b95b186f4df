#!/usr/bin/env bash
# Runs on the GPU machine (no Go there): the binaries come in bin/, built by
#   CGO_ENABLED=0 go build -o bin/apsp ./cmd/apsp
#   CGO_ENABLED=0 go test -c -o bin/gpu.test ./internal/gpu
#   CGO_ENABLED=0 go test -c -o bin/gpu-FAMILY.test ./internal/gpu/FAMILY   (each of scripts/gpu-families.sh)
#   CGO_ENABLED=0 go test -c -o bin/apsp.test .
# Usage: scripts/gpu-run.sh [bench flags...]; logs go to $OUT (or /tmp).
set -uo pipefail
# GPU tests fail instead of skipping when they find no GPU (internal/gputest).
export APSP_REQUIRE_GPU=1
out=${OUT:-/tmp}
export APSP_CACHE_DIR=/tmp/apsp-cubin-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee "$out/nvidia-smi.txt"
./bin/apsp devices
. "$(dirname "$0")/gpu-families.sh"
for b in gpu $(for f in $GPU_FAMILIES; do echo "gpu-$f"; done); do
	echo "== GPU kernel tests: $b"
	./bin/$b.test -test.v -test.count=1 2>&1 | tee "$out/$b-test.log" | grep -E "^(---|===|ok|FAIL|PASS)|matched|MISMATCH|Error|error" | grep -v "=== RUN" | tail -20
done
echo "== API tests on the GPU"
./bin/apsp.test -test.run 'GPU' -test.v -test.count=1 2>&1 | tee "$out/api-test.log" | grep -E "^(---|ok|FAIL|PASS)" | tail -10
echo "== bench"
./bin/apsp bench fw "$@" 2>"$out/bench.log" | tee "$out/bench.txt"
grep -E "registers|rror" "$out/bench.log" | sort -u
