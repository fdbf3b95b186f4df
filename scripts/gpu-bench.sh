#!/usr/bin/env bash
# The GPU figures in docs/perf.md: correctness first, then the tuned shapes
# per size range, a threads-per-block sweep, float32, and end-to-end CLI runs.
# Run on the GPU machine with bin/ carried (see scripts/gpu-run.sh).
set -uo pipefail
# GPU tests fail instead of skipping when they find no GPU (internal/gputest).
export APSP_REQUIRE_GPU=1
out=${OUT:-/tmp}
export APSP_CACHE_DIR=/tmp/apsp-cubin-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
. "$(dirname "$0")/gpu-families.sh"
for b in gpu $(for f in $GPU_FAMILIES; do echo "gpu-$f"; done); do
	echo "$b: $(./bin/$b.test -test.count=1 2>&1 | tail -1)"
done
./bin/apsp.test -test.run GPU -test.count=1 2>&1 | tail -1
B="./bin/apsp bench fw --quiet"
{
$B --sizes 256,512 --tiles 32 --tdims 8 --reps 7
$B --sizes 1024,2048 --tiles 64 --tdims 16 --reps 7
$B --sizes 4096,8192,16384,32768 --tiles 128 --tdims 16 --minblocks 2 --reps 3
$B --sizes 8192 --kernels multi --tiles 64,128 --tdims 8,16,32 --minblocks 1,2 --reps 3
$B --float --sizes 1024,16384,32768 --tiles 128 --tdims 16 --minblocks 2 --reps 3
} > "$out/bench-all.txt" 2>&1
grep -E "^(gpu|cpu)-" "$out/bench-all.txt" | sort -u -k1,2 | head -60
grep -E "ERROR|MISMATCH" "$out/bench-all.txt"
echo "== end to end (CLI, includes reading, context creation, cached cubins)"
./bin/apsp gen gnp n=16384 r=0.05 weights=1..100 seed=3 -o /tmp/g16k.txt
./bin/apsp gen regular n=2048 d=4 seed=3 -o /tmp/r2k.txt
for a in "--device gpu" "--device cpu"; do
  /usr/bin/time -f "%e s wall  $a n=2048" ./bin/apsp stats $a /tmp/r2k.txt | grep -E "diameter|aspl|algorithm"
done
/usr/bin/time -f "%e s wall  --device gpu n=16384" ./bin/apsp stats --device gpu /tmp/g16k.txt | grep -E "diameter|aspl|algorithm|seconds"
