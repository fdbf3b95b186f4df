#!/bin/sh
# device.sh BIN OUT: the side-by-side run of docs/perf.md ("One graph at a
# time, against ODP") on a machine without Go. BIN holds apsp, apsp.test
# and bfs.test (CGO_ENABLED=0 builds) and odp/ (ODP's files, see
# build.sh); logs go to OUT. It builds ODP (threads, and CUDA when nvcc
# is there), writes the random 16-regular graphs, checks that ODP and apsp
# agree on each, then times ODP's ODP_Set_aspl and apsp's ComputeStats in
# a loop with every core.
set -u
bin=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) # graphs and the ODP build, which need not come back
mkdir -p "$out" "$work/graphs"
exec > "$out/log.txt" 2>&1
echo "== machine"; nproc; lscpu | grep -E "Model name|Thread|Core|Socket|L2|L3"; nvidia-smi -L 2>/dev/null
kinds=threads
[ "${ODPBENCH_CUDA:-1}" != 0 ] && command -v nvcc > /dev/null && kinds="threads cuda"
echo "== build ODP ($kinds)"
"$here/build.sh" "$bin/odp" "$work/odp" $kinds || echo "ODP build failed"
for n in 1024 4096 16384 65536; do
	"$bin/apsp" gen regular n=$n d=16 seed=1 -o "$work/graphs/r$n.txt"
done
echo "== apsp stats (the answers to match)"
for n in 1024 4096 16384 65536; do
	printf 'apsp r%s ' $n
	"$bin/apsp" stats --device cpu "$work/graphs/r$n.txt" | grep -E "^(diameter|aspl|algorithm|threads|seconds)" | tr -s ' \n' ' '
	echo
done
calls() { case $1 in 1024) echo 1000;; 4096) echo 300;; 16384) echo 30;; *) echo 5;; esac; }
echo "== ODP threads (OMP_NUM_THREADS unset)"
for n in 1024 4096 16384 65536; do
	[ -x "$work/odp/odpbench" ] && "$work/odp/odpbench" "$work/graphs/r$n.txt" $(calls $n)
done
echo "== ODP CUDA"
for n in 1024 4096 16384 65536; do
	[ -x "$work/odp/odpbench_cuda" ] && "$work/odp/odpbench_cuda" "$work/graphs/r$n.txt" $(calls $n)
done
echo "== apsp ComputeStats loop (GOMAXPROCS unset)"
"$bin/apsp.test" -test.run XXX -test.bench 'LoopStats' -test.benchtime 2s -test.count 3
echo "== apsp ComputeStats loop on fewer threads (GOMAXPROCS 1, 2, 4, 8)"
"$bin/apsp.test" -test.run XXX -test.bench 'LoopStats/n=(1024|4096)$' -test.benchtime 1s -test.cpu 1,2,4,8
echo "== apsp ComputeExtremes loop"
"$bin/apsp.test" -test.run XXX -test.bench 'LoopExtremes' -test.benchtime 1s
echo "== bitbfs layouts"
"$bin/bfs.test" -test.run XXX -test.bench 'BitRowsLoop' -test.benchtime 1s
echo "== ODP threads again (order effects)"
for n in 1024 4096; do
	[ -x "$work/odp/odpbench" ] && "$work/odp/odpbench" "$work/graphs/r$n.txt" $(calls $n)
done
echo "== done"
