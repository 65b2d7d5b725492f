"""Answers remembered between runs of the tour.

An answer is stored under a key made of everything it depends on: the question, zoospec's own
code (its source files hashed), and of the spec what the question reads — for a claim or a
reading, the parts of the loaded game it reads (dependencies.py), so editing one rule asks again
only the questions that read it; for the other questions (their answers show lines and texts of
the whole file), the file's bytes. It lives where the platform keeps caches (`ZOOSPEC_CACHE` overrides),
one JSON file per answer; `zoospec cache --clear` empties it.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

import zoospec
import zoospec.solvers
from zoospec.errors import SpecError, StateError
from zoospec.front.loader import load
from zoospec.front.yamlload import load_file

from .dependencies import claim_text, reading_text

VERSION = 2  # of the stored form and its keys


def cache_dir() -> Path:
    if os.environ.get("ZOOSPEC_CACHE"):
        return Path(os.environ["ZOOSPEC_CACHE"])
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "zoospec"


@lru_cache(maxsize=1)
def code_hash() -> str:
    """Of every Python source file of zoospec and its solvers: an answer from other code is not reused."""
    h = hashlib.sha256()
    for pkg in (zoospec, zoospec.solvers):
        root = Path(pkg.__file__).parent
        for p in sorted(root.rglob("*.py")):
            h.update(str(p.relative_to(root)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


class AnswerCache:
    def __init__(self, root: Path | None = None):
        self.root = (root or cache_dir()) / "answers"
        self._spec_hashes: dict[str, str] = {}
        self._games: dict[str, tuple | None] = {}
        self._keys: dict = {}

    def _spec_hash(self, path: str) -> str:
        if path not in self._spec_hashes:
            try:
                self._spec_hashes[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
            except OSError:
                self._spec_hashes[path] = "unreadable"
        return self._spec_hashes[path]

    def key(self, q) -> str:
        """Of what the question reads of its spec (a claim's or reading's parts, else the file's
        bytes — and, for a coverage counted with other specs, their paths in `item`, theirs too),
        the question and zoospec's source."""
        if q not in self._keys:
            read = self._reads(q)
            if read is None:
                specs = [q.path] + ([p for p in q.item.split(os.pathsep) if p] if q.kind == "coverage" else [])
                read = [self._spec_hash(p) for p in specs]
            where = os.environ.get("ZOOSPEC_RULEBOOKS", "") if q.kind == "coverage" else ""  # which rulebook texts
            text = json.dumps([VERSION, code_hash(), read, q.kind, q.item, where])
            self._keys[q] = hashlib.sha256(text.encode()).hexdigest()[:32]
        return self._keys[q]

    def _reads(self, q) -> str | None:
        """The hash of what a claim or reading question reads of its game; None for other
        questions, and where the spec does not load or has no such item (keyed by bytes then)."""
        if q.kind not in ("claim", "reading"):
            return None
        if q.path not in self._games:
            try:
                self._games[q.path] = (load(q.path), load_file(q.path).data)
            except (SpecError, StateError, OSError):
                self._games[q.path] = None
        if self._games[q.path] is None:
            return None
        game, raw = self._games[q.path]
        if q.kind == "claim":
            text = claim_text(game, raw, game.claims[q.item]) if q.item in game.claims else None
        else:
            text = reading_text(game, raw, q.item) if q.item in game.readings else None
        return None if text is None else "reads:" + hashlib.sha256(text.encode()).hexdigest()

    def get(self, q) -> dict | None:
        try:
            return json.loads((self.root / f"{self.key(q)}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, q, answer: dict) -> None:
        """Written whole or not at all (a temporary file renamed), so a run stopped midway leaves
        no half answer; a cache that cannot be written is not an error."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            target = self.root / f"{self.key(q)}.json"
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(answer), encoding="utf-8")
            os.replace(tmp, target)
        except OSError:
            pass

    def clear(self) -> int:
        n = 0
        for p in self.root.glob("*.json"):
            p.unlink(missing_ok=True)
            n += 1
        return n

    def size(self) -> tuple[int, int]:
        files = list(self.root.glob("*.json"))
        return len(files), sum(p.stat().st_size for p in files)
