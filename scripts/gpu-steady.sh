#!/usr/bin/env bash
# Issue 9 on the GPU machine: the process GPU runtime. Tests every GPU
# package (APSP_REQUIRE_GPU=1: a missing GPU fails), the race-detector
# builds where they were made, then times ComputeStats in steady state and
# the first call of a fresh process (cold and warm cubin cache), the same
# loop on the tree before the runtime (bin/loop-old) and after
# (bin/loop-new), the large blocked-FW figures, and the CLI end to end.
# Build here first (no Go on the GPU machine):
#   CGO_ENABLED=0 go build -o bin/apsp ./cmd/apsp
#   the test binaries of ./internal/cuda, ./internal/gpu, ./internal/gpu/runtime,
#   each GPU family ./internal/gpu/FAMILY and . (see scripts/gpu-build.sh)
# and carry bin/. The logs go to /tmp/steady and, packed, to $OUT/steady-logs.tgz
# with summary.txt beside it; the summary is printed last.
set -uo pipefail
out=/tmp/steady
rm -rf "$out"
mkdir -p "$out"
export APSP_REQUIRE_GPU=1
export APSP_CACHE_DIR=/tmp/apsp-cubin-steady
rm -rf "$APSP_CACHE_DIR"
sum=$out/summary.txt
: >"$sum"
note() { echo "$*" | tee -a "$sum"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader | tee "$out/nvidia-smi.txt"
note "device: $(head -1 "$out/nvidia-smi.txt")"

# The first call with an empty cubin cache (NVRTC compiles), then with the
# cache populated, each in a fresh process.
B="./bin/apsp.test -test.run ^$ -test.bench GPUStatsSteadyState/n=1024$ -test.benchtime 300x"
$B >"$out/bench-cold.txt" 2>&1
note "cold cache: $(grep -E '^BenchmarkGPU' "$out/bench-cold.txt" | head -1)"
for i in 1 2 3; do
	$B >"$out/bench-warm$i.txt" 2>&1
	note "warm cache $i: $(grep -E '^BenchmarkGPU' "$out/bench-warm$i.txt" | head -1)"
done

echo "== tests"
t() { # name, binary, args...
	local name=$1
	shift
	local s=$SECONDS
	"$@" >"$out/test-$name.log" 2>&1
	local rc=$?
	note "test $name: rc=$rc $((SECONDS - s))s $(grep -cE '^\s*--- PASS' "$out/test-$name.log") passed, $(grep -cE '^\s*--- (FAIL|SKIP)' "$out/test-$name.log") failed/skipped"
	grep -E '^\s*--- (FAIL|SKIP)|panic|Error|error' "$out/test-$name.log" | head -8
}
t cuda ./bin/cuda.test -test.v -test.count=1
t gpurt ./bin/gpurt.test -test.v -test.count=1
t gpu ./bin/gpu.test -test.v -test.count=1 -test.timeout 300s
. "$(dirname "$0")/gpu-families.sh"
for f in $GPU_FAMILIES; do
	t "gpu-$f" "./bin/gpu-$f.test" -test.v -test.count=1 -test.timeout 300s
done
t apsp ./bin/apsp.test -test.v -test.count=1 -test.run 'GPU|NoGPU' -test.timeout 200s
grep -hE 'GPU calls matched|GPU runs matched|device pool' "$out"/test-*.log | tee -a "$sum"
if [ -x bin/gpu-fw-race.test ]; then
	t gpu-fw-race ./bin/gpu-fw-race.test -test.v -test.count=1 -test.run 'CancelQueued|SteadyState|CloseReopens' -test.timeout 120s
	t apsp-race ./bin/apsp-race.test -test.v -test.count=1 -test.run 'GPUCancel|NoGPU' -test.timeout 60s
fi

echo "== steady state, all sizes (3 runs)"
./bin/apsp.test -test.run '^$' -test.bench GPUStatsSteadyState -test.benchtime 1000x -test.count 3 >"$out/bench-steady.txt" 2>&1
grep -E '^BenchmarkGPU' "$out/bench-steady.txt" | tee -a "$sum"

echo "== before and after: the issue's loop, fresh processes, warm cache"
for v in old new; do
	[ -x bin/loop-$v ] || continue
	./bin/loop-$v -label $v -calls 30 2>&1 | tee -a "$sum"
	./bin/loop-$v -label $v -calls 30 2>&1 | tee -a "$sum"
done

echo "== blocked FW, large (kernel time)"
./bin/apsp bench fw --quiet --sizes 16384,32768 --kernels multi --tiles 128 --tdims 16 --minblocks 2 --reps 3 >"$out/bench-fw.txt" 2>&1
grep -E '^(gpu|Benchmark)' "$out/bench-fw.txt" | tee -a "$sum"
grep -E 'ERROR|MISMATCH|rror' "$out/bench-fw.txt" | head -3

echo "== CLI end to end (fresh process each, warm cache)"
./bin/apsp gen regular n=1024 d=4 seed=3 -o /tmp/r1k.txt
TIMEFORMAT="%R s wall"
for i in 1 2 3; do
	{ time ./bin/apsp stats --device gpu /tmp/r1k.txt >/tmp/cli.out; } 2>>"$out/cli-time.txt"
done
note "cli apsp stats --device gpu n=1024: $(tr '\n' ' ' <"$out/cli-time.txt")"
grep -E 'diameter|aspl|algorithm' /tmp/cli.out | tr '\n' ' ' | tee -a "$sum"
echo
if [ -n "${OUT:-}" ]; then
	cp "$sum" "$OUT/summary.txt"
	tar czf "$OUT/steady-logs.tgz" -C /tmp steady
fi
echo "================ summary"
cat "$sum"
