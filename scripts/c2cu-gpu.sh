#!/usr/bin/env bash
# C2CU on the GPU machine (bin/ carried): the equivalence tests, then the
# seeds' cases of Fig. 4.10–4.12 against the C program on one core.
set -uo pipefail
# GPU tests fail instead of skipping when they find no GPU (internal/gputest).
export APSP_REQUIRE_GPU=1
export APSP_CACHE_DIR=/tmp/apsp-cubin-cache
cc --version | head -1
(cd internal/c2curun && ../../bin/c2curun.test -test.v -test.count=1 2>&1 | grep -E "identical|^(--- |PASS|FAIL|ok)|rror")
./bin/apsp c2cu bench -p 1000,16384,131072 examples/c2cu/floyd.c
./bin/apsp c2cu bench -p 1000,65536,4194304 examples/c2cu/bitonic.c
./bin/apsp c2cu bench -p 1000,65536,2097152 examples/c2cu/montgomery.c
./bin/apsp c2cu bench -p 1000,65536,1048576 examples/c2cu/prefix.c
