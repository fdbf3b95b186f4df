#!/usr/bin/env bash
# Installs, when missing, the Debian packages the Python tests need for
# Debian's interpreter, /usr/bin/python3 (another python3 earlier on PATH
# does not see them): apt-get, as root or through sudo. python3-igraph is
# optional: where Debian lacks it, its tests skip (pytest -rs lists them).
set -euo pipefail
py=/usr/bin/python3
apt() {
  if [ "$(id -u)" = 0 ]; then
    env DEBIAN_FRONTEND=noninteractive apt-get "$@"
  elif command -v sudo >/dev/null; then
    sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@"
  else
    echo "scripts/python-deps.sh: not root and no sudo: install $*" >&2
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
