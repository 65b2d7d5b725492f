"""Answers remembered between runs of the tour.

An answer is stored under a key made of everything it depends on: the spec file's bytes, the
question, and zoospec's own code (its source files hashed), so editing a rule or the code asks
again and nothing else does. It lives where the platform keeps caches (`ZOOSPEC_CACHE` overrides),
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

VERSION = 1  # of the stored form


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

    def _spec_hash(self, path: str) -> str:
        if path not in self._spec_hashes:
            try:
                self._spec_hashes[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
            except OSError:
                self._spec_hashes[path] = "unreadable"
        return self._spec_hashes[path]

    def key(self, q) -> str:
        """Of the spec's bytes — and, for a coverage counted with other specs (their paths in
        `item`), theirs too — the question and zoospec's source."""
        specs = [q.path] + ([p for p in q.item.split(os.pathsep) if p] if q.kind == "coverage" else [])
        where = os.environ.get("ZOOSPEC_RULEBOOKS", "") if q.kind == "coverage" else ""  # which rulebook texts
        text = json.dumps([VERSION, code_hash(), [self._spec_hash(p) for p in specs], q.kind, q.item, where])
        return hashlib.sha256(text.encode()).hexdigest()[:32]

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
