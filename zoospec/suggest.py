"""'Did you mean' hints for unknown names."""
from __future__ import annotations

import difflib


def suggest(name: str, candidates) -> str:
    close = difflib.get_close_matches(name, list(candidates), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
