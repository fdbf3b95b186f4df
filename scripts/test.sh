#!/usr/bin/env bash
# Every test: Go (go test ./...) and Python (pytest python/tests against the
# binary built here). README's test command; .ci/run runs it. The Python
# tests need Debian's packages for Debian's interpreter, /usr/bin/python3
# (another python3 earlier on PATH does not see them): they are installed
# here when missing (apt-get, as root or through sudo). python3-igraph is
# optional (its tests skip, and pytest says so, where Debian lacks it).
set -euo pipefail
cd "$(dirname "$0")/.."

py=/usr/bin/python3
apt() {
  if [ "$(id -u)" = 0 ]; then
    env DEBIAN_FRONTEND=noninteractive apt-get "$@"
  elif command -v sudo >/dev/null; then
    sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@"
  else
    echo "scripts/test.sh: not root and no sudo: install $*" >&2
    return 1
  fi
}
if ! "$py" -c 'import pytest, numpy, networkx, scipy' 2>/dev/null; then
  echo "== installing the Python tests' Debian packages"
  apt update -qq
  apt install -y -qq python3-pytest python3-numpy python3-networkx python3-scipy >/dev/null
fi
if ! "$py" -c 'import igraph' 2>/dev/null; then
  apt install -y -qq python3-igraph >/dev/null 2>&1 || echo "python3-igraph not installed: its tests will skip"
fi

echo "== Go tests"
go test ./...

echo "== Python tests"
mkdir -p bin
CGO_ENABLED=0 go build -o bin/apsp ./cmd/apsp
# -rs lists every skipped test with its reason.
APSP_BIN="$PWD/bin/apsp" "$py" -m pytest -q -rs python/tests
