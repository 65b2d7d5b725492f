"""Run the exact-cover engine on a matrix under a shared deadline, reporting progress.

The engine is resumable, so the search runs in chunks of nodes; between chunks we look at the
clock (and whether the user asked to stop: Ctrl-C) and, at most twice a second, tell the caller
how far we are. A search stopped early says so (complete=False) — the caller turns that into
Unknown or a lower bound, never into a verdict.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from . import xcover
from .matrix import Matrix

CHUNK = 200_000 if xcover.COMPILED else 20_000


@dataclass
class Budget:
    """A deadline and running totals shared by every sub-search of one question."""

    timeout: float | None = None
    progress: Callable[[dict], None] | None = None
    stop: object = None  # a threading.Event the caller sets to stop the search (Ctrl-C) as a deadline would
    started: float = field(default_factory=time.monotonic)
    nodes: int = 0
    solutions: int = 0
    searches: int = 0
    _last: float = 0.0

    def expired(self) -> bool:
        return self.interrupted() or (self.timeout is not None and time.monotonic() - self.started >= self.timeout)

    def interrupted(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def why(self) -> str:
        """Why a search stopped early, in words."""
        return "interrupted" if self.interrupted() else "deadline reached"

    def stats(self) -> dict:
        return {"nodes": self.nodes, "solutions_seen": self.solutions, "searches": self.searches,
                "seconds": round(time.monotonic() - self.started, 3),
                "engine": "dlx-python" if xcover.Search is xcover.PySearch else "dlx-c",
                **({"interrupted": True} if self.interrupted() else {})}

    def tick(self):
        if self.progress is None:
            return
        now = time.monotonic()
        if now - self._last >= 0.5:
            self._last = now
            self.progress(self.stats())


@dataclass
class Outcome:
    complete: bool           # the whole tree was explored (or stop_at reached)
    count: int               # solutions found
    solutions: list          # up to `keep` of them, each a tuple of Placements (forced ones first)


def run(m: Matrix, budget: Budget, keep: int = 0, stop_at: int = 0) -> Outcome:
    """Explore the matrix; stop after `stop_at` solutions (0: all), keep up to `keep` of them."""
    budget.searches += 1
    s = xcover.Search(m.n_primary, m.caps, m.rows)
    sols: list[tuple] = []
    while True:
        before_nodes, before_sols = s.nodes, s.solutions
        done, found = s.run(CHUNK, keep=max(0, keep - len(sols)), stop_at=stop_at)
        budget.nodes += s.nodes - before_nodes
        budget.solutions += s.solutions - before_sols
        sols.extend(m.fixed + tuple(m.labels[r] for r in sol) for sol in found)
        if done or (stop_at and s.solutions >= stop_at):
            return Outcome(True, s.solutions, sols)
        budget.tick()
        if budget.expired():
            return Outcome(False, s.solutions, sols)
