#!/bin/sh
# mpi-check.sh [NP...]: runs `apsp stats --distributed` under mpirun with
# each rank count (default 1 2 4) on a few graphs and checks that every
# measure equals the single-process `apsp stats --device cpu`. Needs Open
# MPI (mpirun, libmpi.so.40); on Debian: apt-get install openmpi-bin.
set -eu
cd "$(dirname "$0")/.."
nps=${*:-1 2 4}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
CGO_ENABLED=0 go build -o "$bin/apsp" ./cmd/apsp
"$bin/apsp" gen gnp n=1000 r=1 weights=1..100 seed=3 -o "$bin/gnp.txt"
"$bin/apsp" gen regular n=1500 d=6 seed=4 -o "$bin/reg.txt"
cp testdata/karate.txt "$bin/karate.txt"
strip() { grep -v '"seconds"\|"algorithm"\|"device"\|"threads"\|"lanes"'; }
root=""
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
status=0
for g in karate gnp reg; do
	"$bin/apsp" stats --json --device cpu "$bin/$g.txt" | strip > "$bin/$g.want"
	for np in $nps; do
		mpirun $root --oversubscribe -np "$np" "$bin/apsp" stats --distributed --json "$bin/$g.txt" > "$bin/$g.$np" 2> "$bin/$g.$np.err" || { echo "$g np=$np: mpirun failed"; cat "$bin/$g.$np.err"; status=1; continue; }
		if strip < "$bin/$g.$np" | cmp -s - "$bin/$g.want"; then
			echo "$g np=$np: same as one process ($(grep '"seconds"' "$bin/$g.$np" | tr -d ' ,'))"
		else
			echo "$g np=$np: DIFFERENT"; status=1
		fi
	done
done
# A refusal every rank shares is reported by rank 0 every time, before the
# ranks end together (issue 32: 5-10 % of such runs printed only Open
# MPI's banner when a rank exited first). A float graph, and --device gpu
# on a machine where a rank finds no GPU, each 100 times at 2 ranks.
printf '0 1 0.5\n1 2 1.5\n2 0 2.5\n' > "$bin/float.txt"
cases="float:graph not supported by the distributed run"
"$bin/apsp" devices 2>&1 | grep -q '^no usable GPU' && cases="$cases|gpu:rank 0 of 2"
IFS='|'
for c in $cases; do
	name=${c%%:*} want=${c#*:}
	args="$bin/float.txt"
	[ "$name" = gpu ] && args="--device gpu $bin/karate.txt"
	missing=0
	i=0
	while [ $i -lt 100 ]; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		out=$(IFS=' '; mpirun $root --oversubscribe -np 2 "$bin/apsp" stats --distributed $args 2>&1) && { echo "$name: run $i succeeded"; status=1; }
		case $out in *"apsp stats: "*"$want"*) ;; *) missing=$((missing + 1)); [ $missing = 1 ] && printf '%s\n' "$out" ;; esac
	done
	echo "$name refused at 2 ranks: the reason printed in $((100 - missing)) of 100 runs"
	[ $missing = 0 ] || status=1
done
exit $status
