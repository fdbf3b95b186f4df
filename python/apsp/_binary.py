"""Finding the apsp binary the co-process runs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import List, Optional, Tuple

from ._errors import BinaryNotFoundError

#: Where the package's build step puts the binary it builds with ``go build``.
BUNDLED = Path(__file__).resolve().parent / "bin" / "apsp"


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def candidates() -> List[Tuple[str, Optional[str]]]:
    """The places looked at, in order, as ``(description, path or None)``."""
    env = os.environ.get("APSP_BIN") or None
    return [
        ("beside the package", str(BUNDLED)),
        ("$APSP_BIN", env),
        ("PATH", shutil.which("apsp")),
    ]


def find_binary(explicit: Optional[str] = None) -> str:
    """Return the path of the apsp binary to run.

    ``explicit`` (an ``Evaluator(binary=...)`` argument) wins.  Otherwise the
    binary is looked for, in this order: beside the package
    (``apsp/bin/apsp``, put there when the package was built with Go
    available), ``$APSP_BIN``, then ``apsp`` on ``PATH``.

    Raises:
        BinaryNotFoundError: when none of them is an executable file.
    """
    if explicit is not None:
        path = Path(explicit)
        if _executable(path):
            return str(path)
        raise BinaryNotFoundError(f"apsp binary {explicit!r} is not an executable file")
    looked = []
    for where, path in candidates():
        if path is None:
            looked.append(f"{where}: not set" if where.startswith("$") else f"{where}: none")
            continue
        if _executable(Path(path)):
            return path
        state = "is not an executable file" if Path(path).exists() else "does not exist"
        looked.append(f"{where}: {path} {state}")
    raise BinaryNotFoundError(
        "no apsp binary found ("
        + "; ".join(looked)
        + "). Install the package with Go available so that its build puts one beside it, "
        "or build one (CGO_ENABLED=0 go build -o bin/apsp ./cmd/apsp) and set APSP_BIN to its path"
    )
