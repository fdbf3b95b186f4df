#!/bin/bash
# loop-ab.sh BIN: the 16-core side-by-side of docs/perf.md ("Fourth pass").
# BIN holds apsp, apsp.test (after), apsp.test.base (before), bfs.test and
# par.test (CGO_ENABLED=0 builds) and odp/ (ODP's files, see build.sh).
# The tests run first, while a fresh instance settles; then ODP, before and
# after interleaved, three rounds, and the larger sizes once.
b=$(cd "$1" && pwd); here=$(cd "$(dirname "$0")" && pwd); w=/tmp/w; cd /tmp
uptime; lscpu | grep -E "Model name|^CPU\(s\)|L2|L3"
mkdir -p $w/g; "$here/build.sh" "$b/odp" "$w/odp" threads >/dev/null 2>&1
for n in 1024 4096 16384 65536; do $b/apsp gen regular n=$n d=16 seed=1 -o $w/g/r$n.txt; done
echo "== tests on 16 cores"
$b/par.test -test.count 1 2>&1 | tail -1
$b/bfs.test -test.count 1 -test.timeout 300s 2>&1 | tail -1
( cd "$here/../.." && timeout 300 $b/apsp.test -test.count 1 -test.timeout 280s 2>&1 | grep -E "^(--- FAIL|FAIL|PASS|ok)" | head )
for n in 1024 4096 16384 65536; do printf "apsp r$n "; $b/apsp stats --device cpu $w/g/r$n.txt | grep -E "^(diameter|aspl|threads)" | tr -s ' \n' ' '; echo; done
while [ "$(cut -d. -f1 /proc/uptime)" -lt 150 ]; do sleep 5; done
uptime
odp() { $w/odp/odpbench $w/g/r$1.txt $2 | sed 's/ min_ms.*//; s/.*vertices=/ODP n=/; s/ degree.*calls=[0-9]*//'; }
for r in 1 2 3; do
echo "== round $r"
odp 1024 1000
$b/apsp.test.base -test.run XXX -test.bench 'LoopSummary/n=1024$' -test.benchtime 2s | grep Bench | sed 's/^/base /' | awk '{print $1, $2, $4}'
$b/apsp.test -test.run XXX -test.bench 'LoopSummary/n=1024$' -test.benchtime 2s | grep Bench | sed 's/^/new /' | awk '{print $1, $2, $4, $6}'
$b/bfs.test -test.run XXX -test.bench 'BitBriefLockstep/n=1024/w=8/outer=2/inner=4/lockstep' -test.benchtime 1s | grep Bench | awk '{print $1, $3}'
odp 4096 300
$b/apsp.test.base -test.run XXX -test.bench 'LoopSummary/n=4096$' -test.benchtime 2s | grep Bench | sed 's/^/base /' | awk '{print $1, $2, $4}'
$b/apsp.test -test.run XXX -test.bench 'LoopSummary/n=4096$' -test.benchtime 2s | grep Bench | sed 's/^/new /' | awk '{print $1, $2, $4, $6}'
done
echo "== larger, once"
odp 16384 30; odp 65536 5
$b/apsp.test -test.run XXX -test.bench 'LoopSummary/n=(16384|65536)$' -test.benchtime 3s | grep Bench | sed 's/^/new /' | awk '{print $1, $2, $4, $6}'
echo "== ComputeStats loop (center and periphery too)"
$b/apsp.test -test.run XXX -test.bench 'LoopStats/n=(1024|4096)$' -test.benchtime 2s | grep Bench | awk '{print $1, $3, $5}'
echo "== timeline (one steady call)"
$b/bfs.test -test.run XXX -test.bench 'LockstepTimeline/w=8/outer=2/inner=4/lockstep/chunks=0$' -test.benchtime 3000x | grep -A9 "call 4"
uptime
