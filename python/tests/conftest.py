"""Test set-up: the package from this checkout, and an apsp binary.

The binary is ``$APSP_BIN`` when set; otherwise, when Go is on ``PATH``, this
builds ``bin/apsp`` at the repository's root with ``go build`` (as README says)
and points ``APSP_BIN`` at it.  Tests that need the binary ask for the
``apsp_bin`` fixture and are skipped, with the reason, when there is none.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

PYTHON_DIR = Path(__file__).resolve().parent.parent
REPO = PYTHON_DIR.parent
sys.path.insert(0, str(PYTHON_DIR))  # the package of this checkout, not an installed one

_binary: Optional[str] = None
_why_not: str = ""


def _build() -> None:
    global _binary, _why_not
    env_bin = os.environ.get("APSP_BIN")
    if env_bin:
        if os.path.isfile(env_bin) and os.access(env_bin, os.X_OK):
            _binary = env_bin
        else:
            _why_not = f"APSP_BIN={env_bin} is not an executable file"
        return
    go = shutil.which("go")
    if go is None:
        _why_not = "APSP_BIN is unset and Go is not on PATH to build bin/apsp"
        return
    if not (REPO / "go.mod").is_file():
        _why_not = f"APSP_BIN is unset and {REPO} has no go.mod to build from"
        return
    out = REPO / "bin" / "apsp"
    env = dict(os.environ, CGO_ENABLED="0")
    proc = subprocess.run(
        [go, "build", "-o", str(out), "./cmd/apsp"], cwd=REPO, env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        _why_not = f"go build ./cmd/apsp failed: {proc.stderr.strip()[-2000:]}"
        return
    _binary = str(out)
    os.environ["APSP_BIN"] = _binary


def pytest_configure(config: pytest.Config) -> None:
    _build()


def pytest_report_header(config: pytest.Config) -> str:
    import apsp._binary

    bundled = apsp._binary.BUNDLED
    extra = f" (note: {bundled} exists and is found first)" if bundled.exists() else ""
    return f"apsp binary: {_binary or 'none: ' + _why_not}{extra}"


@pytest.fixture(scope="session")
def apsp_bin() -> str:
    """The apsp binary's path; skips the test when there is none."""
    if _binary is None:
        pytest.skip(_why_not)
    return _binary
