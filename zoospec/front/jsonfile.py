"""JSON files a user names (states, traces, plans, deals), read with the YAML loader's guarantees:
every failure says the file and, where there is one, the line and column; the size and the
nesting depth are capped before parsing (Python's own parser recurses); a duplicate key is an
error, not last-wins; bytes that are not UTF-8 text are refused, never a traceback."""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..errors import StateError

MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 200


def read_json(path: str, what: str):
    """The JSON value in a file, or a StateError naming the file and what it should have been."""
    text = _text(path, what)
    _check_depth(path, text)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        raise StateError(f"{path}:{e.lineno}:{e.colno}: not JSON ({e.msg}); expected {what}") from None
    except _Duplicate as e:
        raise StateError(f"{path}: key {e.args[0]!r} appears twice in one object; expected {what}") from None


def read_json_lines(path: str, what: str) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line of a JSON-lines file, each line read with
    read_json's guarantees; a line that is not one JSON object is refused with its number."""
    out = []
    for n, line in enumerate(_text(path, what).splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        _check_depth(where, line)
        try:
            value = json.loads(line, object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as e:
            raise StateError(f"{where}:{e.colno}: not JSON ({e.msg}); expected {what}, one JSON object a line") from None
        except _Duplicate as e:
            raise StateError(f"{where}: key {e.args[0]!r} appears twice in one object") from None
        if not isinstance(value, dict):
            raise StateError(f"{where}: a JSON {type(value).__name__ if value is not None else 'null'}, not an object; "
                             f"expected {what}, one JSON object a line")
        out.append((n, value))
    return out


def _text(path: str, what: str) -> str:
    """A file's text, refused (naming the file) when it is a folder, too large, not UTF-8 or empty."""
    p = Path(path)
    try:
        if p.is_dir():
            raise StateError(f"{path}: is a folder; expected {what}")
        if p.stat().st_size > MAX_BYTES:
            raise StateError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MiB; expected {what}")
        raw = p.read_bytes()
    except OSError as e:
        raise StateError(f"{path}: cannot read it ({e.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise StateError(f"{path}: not UTF-8 text (byte {e.start}); expected {what}") from None
    if not text.strip():
        raise StateError(f"{path}: empty; expected {what}")
    return text


def read_object(path: str, what: str) -> dict:
    """A JSON object from a file (see read_json)."""
    data = read_json(path, what)
    if not isinstance(data, dict):
        raise StateError(f"{path}: a JSON {type(data).__name__ if data is not None else 'null'}, not an object; expected {what}")
    return data


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


def _check_depth(path: str, text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH, counted without recursion (strings left out)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for ch in _BRACKET.findall(_STRING.sub('""', text)):
        depth += 1 if ch in "[{" else -1
        if depth > MAX_DEPTH:
            raise StateError(f"{path}: nested deeper than {MAX_DEPTH} levels; not a state, trace or plan")


_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_BRACKET = re.compile(r"[\[\]{}]")
