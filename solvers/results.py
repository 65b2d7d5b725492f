"""The three honest answers every solver gives, and a count.

`Unsat` is only returned after a proof (a finished search, an UNSAT from Z3, or a necessary
condition that fails); a deadline or a bound gives `Unknown`, which says what was explored.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Sat:
    witness: object
    optimal: bool = True          # for maximisation: proved best (False: best found before the deadline)
    stats: dict = field(default_factory=dict)
    verdict = "sat"


@dataclass
class Unsat:
    reason: str
    stats: dict = field(default_factory=dict)
    verdict = "unsat"


@dataclass
class Unknown:
    reason: str
    stats: dict = field(default_factory=dict)
    verdict = "unknown"


@dataclass
class Count:
    """An exact count (exact=True) or, after a deadline, a lower bound (exact=False).

    When packings are listed, `count` is how many are listed and `more` says whether others
    exist (None: the deadline came first)."""

    count: int
    exact: bool
    witnesses: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    more: bool | None = None

    @property
    def verdict(self) -> str:
        return "count" if self.exact else "unknown"
