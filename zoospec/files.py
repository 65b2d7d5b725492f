"""Writing a result file so that it is either whole or not there: a temporary file beside it,
then one rename. A command stopped mid-write (Ctrl-C, a full disk, a crash) leaves the old file
or none, never half of a plan, a trace or a report (issue 43)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text(path, text: str) -> None:
    """`path`'s content becomes `text` (UTF-8) all at once."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
