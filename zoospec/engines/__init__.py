"""SMT engines for compiled queries: Z3, and Yices 2 where it is installed and can take the
question (ADR 0021).

Every query zoospec compiles is a Z3 term. `yices_first` asks it of Yices — translated once,
quantifier-free questions only — and gives back Yices' answer only when it is one: sat (with a
model the caller decodes and checks in Python as it checks Z3's) or unsat. Anything else (Yices
not installed, a term it cannot hold, its time run out) returns None, and the caller asks Z3 as
before, with Z3's deterministic budget. So Yices can make a question faster, never change what
counts as an answer; ZOOSPEC_ENGINE=z3 turns it off (to measure Z3 alone, or to compare).
"""
from __future__ import annotations

import os
import time

import z3

from . import interrupt, yices

# How long Yices gets before Z3 is asked instead. The questions it answers here take well under a
# second to a few seconds (docs/performance.md); one it cannot answer in this time goes to Z3.
YICES_SECONDS = 60.0


def engine_choice() -> str:
    """'auto' (Yices first where it can answer) or 'z3' (Z3 alone), from ZOOSPEC_ENGINE."""
    return "z3" if os.environ.get("ZOOSPEC_ENGINE", "auto").strip().lower() == "z3" else "auto"


def yices_on() -> bool:
    """Whether Yices is to be asked: installed, and not turned off by ZOOSPEC_ENGINE=z3."""
    return engine_choice() != "z3" and yices.available()


def yices_solver(asked: list, translator=None):
    """A Yices solver holding the conjunction `asked`, or None where Yices is off or cannot hold a
    term of it (a quantifier, a function). `translator`: the caller's own, instead of the process's."""
    if not yices_on():
        return None
    s = yices.YicesSolver(tr=translator)
    try:
        s.add(asked)
    except (yices.Untranslatable, yices.Y.YicesError):
        return None
    return s


def yices_first(asked: list, seconds: float = YICES_SECONDS, assumptions=(), translator=None):
    """(answer, solver) from Yices for the conjunction `asked` — sat or unsat — or None where
    Yices cannot give one (not installed, turned off, a term it cannot hold or a question outside
    linear arithmetic, out of time). `translator`: a translator of the caller's own instead of the
    process's (see YicesThenZ3)."""
    s = yices_solver(asked, translator)
    if s is None:
        return None
    s.set("timeout", seconds * 1000)
    try:
        r = s.check(*assumptions)
    except (yices.Untranslatable, yices.Y.YicesError):  # e.g. a product of two unknowns: not linear
        return None
    return None if r == z3.unknown else (r, s)


class YicesThenZ3:
    """A Z3 solver whose every check asks Yices first, with `share` of the time left (and `most`
    seconds at most), and Z3 with the rest: for the puzzle's whole-record question (a layout
    given, or --whole-record), which Yices answered 7-335x faster than Z3 (issue 41), and for the
    bound's counting questions, where Yices answers the sats at once and found no UNSAT of the
    bound's own in 600 s, so it gets 10 s at most (solvers/puzzle/search.py `_Problem.ask`). The
    model is the one of the engine that answered (`engine`); callers decode and certify it as they
    do Z3's.

    `translator`: one per problem (its solvers share it). Yices' search, like Z3's, depends on the
    order its terms were made in: first-game's record with its layout given took 11 s in a fresh
    process and 230 s after another deal had been translated by the process's translator; with a
    translator of its own a problem's constants are made in its own order, as in a fresh process."""

    def __init__(self, solver, share: float = 0.5, translator=None, most: float | None = None):
        self.z3, self.share, self.translator, self.most = solver, share, translator, most
        self.engine = "z3"
        self._model = None
        self._timeout_ms: int | None = None

    def add(self, *terms):
        self.z3.add(*terms)

    def set(self, key, value):
        if key == "timeout":
            self._timeout_ms = value
        self.z3.set(key, value)

    def check(self, *extra):
        self._model, start = None, time.monotonic()
        seconds = (self._timeout_ms / 1000.0 if self._timeout_ms else YICES_SECONDS / self.share) * self.share
        if self.most is not None:
            seconds = min(seconds, self.most)
        got = yices_first(list(self.z3.assertions()) + list(extra), seconds=seconds, translator=self.translator)
        if got is not None:
            r, ys = got
            self.engine = "yices"
            if r == z3.sat:
                self._model = ys.model()
            return r
        self.engine = "z3"
        if interrupt.stopped():  # Yices was stopped by Ctrl-C: Z3 is not asked in its place
            return z3.unknown
        if self._timeout_ms:
            self.z3.set("timeout", max(1, int(self._timeout_ms - 1000 * (time.monotonic() - start))))
        return self.z3.check(*extra)

    def model(self):
        return self._model if self._model is not None else self.z3.model()

    def __getattr__(self, name):  # assertions, reason_unknown, unsat_core, ...: Z3's
        return getattr(self.z3, name)
