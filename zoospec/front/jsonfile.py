"""A JSON object read from a file a user names, every failure said with the file and what it
should have been (never a traceback)."""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import StateError


def read_object(path: str, what: str) -> dict:
    """A JSON object from a file, or a StateError naming the file and what it should have been."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise StateError(f"{path}: cannot read it ({e.strerror})") from None
    except ValueError as e:
        raise StateError(f"{path}: not JSON ({e}); expected {what}") from None
    if not isinstance(data, dict):
        raise StateError(f"{path}: expected {what}")
    return data
