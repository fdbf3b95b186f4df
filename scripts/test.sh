#!/usr/bin/env bash
# Every test: Go (go test ./...) and Python (pytest python/tests against the
# binary built here). README's test command; .ci/run runs it. The Python
# tests need Debian's packages for Debian's interpreter, /usr/bin/python3
# (another python3 earlier on PATH does not see them): they are installed
# here when missing (apt-get, as root or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

py=/usr/bin/python3
pkgs="python3-pytest python3-numpy python3-networkx python3-scipy python3-igraph"
if ! "$py" -c 'import pytest, numpy, networkx, scipy' 2>/dev/null; then
  echo "== installing the Python tests' Debian packages: $pkgs"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $pkgs >/dev/null
fi

echo "== Go tests"
go test ./...

echo "== Python tests"
mkdir -p bin
CGO_ENABLED=0 go build -o bin/apsp ./cmd/apsp
APSP_BIN="$PWD/bin/apsp" "$py" -m pytest -q python/tests
