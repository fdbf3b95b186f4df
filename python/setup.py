"""The build step: put an apsp binary beside the package (apsp/bin/apsp).

Everything else is in pyproject.toml.  When the package is built from a
checkout of the apsp repository (python/ inside it) and Go is on PATH (or
$GO names it), ``go build`` compiles ./cmd/apsp with CGO_ENABLED=0 into the
wheel.  Without Go, or outside a checkout, the package is built without a
binary and finds one at run time through $APSP_BIN or PATH; a prebuilt
binary named by $APSP_BIN at build time is copied in instead.  Set
APSP_REQUIRE_BINARY=1 to make a missing binary fail the build.

Go fetches nothing when its module cache already holds apsp's three
modules (purego, x/sys, x/image), as it does wherever `go build ./...` ran
once: the build works offline then.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
MODULE = "module github.com/apsp/apsp"


def _say(msg: str) -> None:
    print(f"apsp build: {msg}", file=sys.stderr, flush=True)


def _source_root() -> Path | None:
    root = Path(os.environ.get("APSP_GO_SRC") or HERE.parent)
    gomod = root / "go.mod"
    try:
        if any(line.strip() == MODULE for line in gomod.read_text().splitlines()):
            return root
    except OSError:
        pass
    return None


def build_binary(dest: Path) -> bool:
    """Build (or copy) the binary to ``dest``; False when there is none."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    go = os.environ.get("GO") or shutil.which("go")
    root = _source_root()
    if go and root is not None:
        env = dict(os.environ, CGO_ENABLED="0")
        cmd = [go, "build", "-trimpath", "-o", str(dest), "./cmd/apsp"]
        _say(f"{' '.join(cmd)} (in {root})")
        proc = subprocess.run(cmd, cwd=root, env=env)
        if proc.returncode == 0:
            return True
        _say(f"go build failed with status {proc.returncode}")
    elif root is None:
        _say(f"no apsp Go checkout at {HERE.parent} (set APSP_GO_SRC to one)")
    else:
        _say("Go is not on PATH (set GO to the go command)")
    prebuilt = os.environ.get("APSP_BIN")
    if prebuilt and os.path.isfile(prebuilt) and os.access(prebuilt, os.X_OK):
        _say(f"copying the prebuilt binary $APSP_BIN={prebuilt}")
        shutil.copy2(prebuilt, dest)
        return True
    return False


class BuildPyWithBinary(build_py):
    """build_py, then the apsp binary into the built package."""

    def run(self) -> None:
        super().run()
        dest = (Path(self.build_lib) / "apsp" / "bin" / "apsp").resolve()
        if build_binary(dest):
            dest.chmod(0o755)
            _say(f"bundled {dest}")
            return
        if os.environ.get("APSP_REQUIRE_BINARY") == "1":
            raise SystemExit("apsp build: no binary could be built or copied, and APSP_REQUIRE_BINARY=1")
        _say(
            "WARNING: the package has no bundled binary; at run time it uses $APSP_BIN or apsp on PATH"
        )


class BinaryDistribution(Distribution):
    """A wheel with a native binary is platform-specific."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildPyWithBinary}, distclass=BinaryDistribution)
