"""The questions the tour asks of a game, one at a time, each answerable alone in any process:
is the spec valid, how much of its rulebook it covers, each claim, each reading, its gaps, its
dead ends, its fixtures. An answer is plain JSON, so it can cross processes and be remembered.
"""
from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from zoospec.engines import work
from zoospec.errors import SpecError
from zoospec.front.loader import load
from zoospec.front.yamlload import load_file

from . import ambiguity, claims, coverage, fixtures

# what a question may take when the budget allows it (short enough that one slow game does not
# starve the others in a default tour; `--timeout` and a bigger `--budget` give more), and the order
# they are asked in (cheap, decisive questions first: a claim over states settles in seconds;
# fixtures can use any time)
TIMEOUT = {"validate": None, "coverage": None, "claim": 30.0, "reading": 20.0, "gaps": 20.0, "dead-ends": 20.0,
           "fixtures": 30.0}
COST = {"validate": 0, "coverage": 1, "claim": 2, "reading": 3, "gaps": 5, "dead-ends": 6, "fixtures": 8}
SLOW_CLAIMS = {"play": 4, "progress": 4, "move": 3}  # claims over moves and plays ask more of Z3
# a question is not started with less than this left of the budget: it would only say unknown
LEAST = 2.0


@dataclass(frozen=True)
class Question:
    game: str          # as named in the table: a bundled name or a spec file
    path: str          # the spec file
    kind: str          # validate | coverage | claim | reading | gaps | dead-ends | fixtures
    item: str = ""     # the claim or reading id; for coverage, the other specs of its rulebook
    cost: int = 0      # asked in this order

    @property
    def name(self) -> str:
        return f"{self.kind} {self.item}" if self.kind in ("claim", "reading") else self.kind


def questions_of(game: str, path: str) -> list[Question]:
    """Every question of one game, read off its YAML (nothing is compiled: the first answers come
    at once). A file that is not even YAML still gets its `validate` question, which says why."""
    out = [Question(game, path, "validate", cost=0)]
    try:
        data = load_file(path).data
    except SpecError:
        return out
    if not isinstance(data, dict):
        return out
    out.append(Question(game, path, "coverage", cost=COST["coverage"]))
    for c in data.get("claims") or []:
        if isinstance(c, dict) and isinstance(c.get("id"), str):
            out.append(Question(game, path, "claim", c["id"], SLOW_CLAIMS.get(c.get("over", "state"), COST["claim"])))
    readings = data.get("readings") or {}
    for rid in readings if isinstance(readings, dict) else []:
        out.append(Question(game, path, "reading", str(rid), COST["reading"]))
    out.append(Question(game, path, "gaps", cost=COST["gaps"]))
    if _plays(data):
        out.append(Question(game, path, "dead-ends", cost=COST["dead-ends"]))
    out.append(Question(game, path, "fixtures", cost=COST["fixtures"]))
    return out


def _plays(data: dict) -> bool:
    """Whether the spec has moves of play: actions beyond those of its `dealing`, which ends
    exactly when none is legal — a dead end there is how it is meant to stop."""
    actions = data.get("actions") or []
    section = data.get("dealing") if isinstance(data.get("dealing"), dict) else {}
    dealing = set(section.get("by") or []) if isinstance(section.get("by"), list) else set()
    return any(not (isinstance(a, dict) and a.get("id") in dealing) for a in actions)


@lru_cache(maxsize=8)
def _game(path: str):
    return load(path)


def own_timeout(kind: str, cap: float | None) -> float | None:
    """A question's own time: its kind's, at most `cap` (`--timeout`); None: no limit of its own."""
    if cap is None:
        return TIMEOUT[kind]
    return cap if TIMEOUT[kind] is None else min(cap, TIMEOUT[kind])


def ask(q: Question, deadline: float | None = None, cap: float | None = None) -> dict:
    """The answer to one question, within its own timeout (at most `cap`) and what is left before
    `deadline` (time.time()): {"status": answered | unknown | invalid, "timeout", "seconds", ...}."""
    t0 = time.time()
    timeout = own_timeout(q.kind, cap)
    if deadline is not None and q.kind not in ("validate", "coverage"):  # those two are cheap and always asked
        left = deadline - t0
        if left < LEAST:
            return {"status": "unknown", "why": "budget", "timeout": 0.0, "seconds": 0.0}
        # under work budgets a question gets its whole own time or is stopped by the tour's pool:
        # a share cut by the clock would make its verdict depend on when (and how busily) it ran
        if timeout is None or work.rate() is None:
            timeout = left if timeout is None else min(timeout, left)
    try:
        g = _game(q.path)
    except SpecError as e:
        return {"status": "invalid", "problems": [str(p) for p in e.problems][:20], "timeout": timeout,
                "seconds": round(time.time() - t0, 2)}
    out = _ASK[q.kind](g, q.item, timeout)
    out.setdefault("status", "answered")
    out.update(timeout=timeout, seconds=round(time.time() - t0, 2))
    return out


def _validate(g, _, __):
    return {"rules": len(g.rules), "actions": len(g.actions), "readings": len(g.readings), "claims": len(g.claims)}


def _coverage(g, siblings, __):
    """Of the game's rulebook by the game and by `siblings` (the other specs of the tour that
    formalise the same rulebook, paths joined by os.pathsep) together, and by the game alone."""
    book = coverage.find_rulebook(g)
    if book is None:
        return {"rulebook": None}
    others = [_game(p) for p in siblings.split(os.pathsep) if p]
    rep, alone = coverage.report([g, *others], book), coverage.report(g, book)
    return {"rulebook": str(book), "percent": round(rep.percent, 1), "uncovered": len(rep.uncovered),
            "dangling": len(rep.dangling), "with": [o.id for o in others], "alone": round(alone.percent, 1),
            "normative": rep.normative, "covered": rep.covered,
            "sentences": [{"section": ln.sentence.section, "n": ln.sentence.number, "text": ln.sentence.text,
                           "status": ln.status, "by": ln.by, "why": ln.why} for ln in rep.lines]}


def rulebook_of(path: str) -> str | None:
    """The rulebook a spec file names, read off its YAML (None if it cannot be read)."""
    try:
        data = load_file(path).data
    except SpecError:
        return None
    game = data.get("game") if isinstance(data, dict) else None
    return game.get("rulebook") if isinstance(game, dict) and isinstance(game.get("rulebook"), str) else None


def _claim(g, cid, timeout):
    v = claims.check(g, g.claims[cid], timeout)
    return {"status": "unknown" if v.verdict == "unknown" else "answered", "verdict": v.verdict, "expect": v.expect,
            "as_expected": v.as_expected, "method": v.method, "detail": v.detail,
            "trace": v.trace.to_itf() if v.trace else None}


def _findings(found) -> dict:
    return {"status": "unknown" if any(f.kind == "unknown" for f in found) else "answered",
            "findings": [{"kind": f.kind, "subject": f.subject, "message": f.message,
                          "cite": str(f.cite) if f.cite else None,
                          "trace": f.trace.to_itf() if f.trace else None} for f in found]}


def _fixtures(g, _, timeout):
    """The corpus itself rides in the answer (its files by name: what the tour's 30 s make is a
    few hundred kB a game), so the cache remembers it and the report writes it out with its index."""
    with tempfile.TemporaryDirectory() as tmp:
        index = fixtures.generate(g, tmp, 0, timeout, None, budget=timeout)
        corpus = {p.name: p.read_text(encoding="utf-8") for p in sorted(Path(tmp).iterdir())}
    return {"status": "unknown" if index["skipped"] else "answered", "fixtures": fixtures.count(index),
            "skipped": len(index["skipped"]), "corpus": corpus}


_ASK = {"validate": _validate, "coverage": _coverage, "claim": _claim,
        # a question's own time bounds the whole question, its checks sharing it out
        "reading": lambda g, rid, t: _findings(ambiguity.readings(g, rid, t, budget=t)),
        "gaps": lambda g, _, t: _findings(ambiguity.gaps(g, t, budget=t)),
        "dead-ends": lambda g, _, t: _findings(ambiguity.dead_ends(g, t, budget=t)),
        "fixtures": _fixtures}
