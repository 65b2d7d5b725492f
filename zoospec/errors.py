"""Errors a user can act on: every problem names file, line, column, rule id and what was expected."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    """Where a thing was written: file, 1-based line and column, and the id of the rule around it."""

    file: str = "<string>"
    line: int = 0
    col: int = 0
    rule: str | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def within(self, rule: str | None) -> "Loc":
        return Loc(self.file, self.line, self.col, rule)


@dataclass(frozen=True)
class Problem:
    loc: Loc
    message: str

    def __str__(self) -> str:
        where = f"rule {self.loc.rule}: " if self.loc.rule else ""
        return f"{self.loc}: {where}{self.message}"


class SpecError(Exception):
    """A spec that cannot be loaded; carries every problem found, in file order."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.loc.file, p.loc.line, p.loc.col))
        super().__init__("\n".join(str(p) for p in self.problems))


class Undefined(Exception):
    """An expression has no value on this state: a `the(...)` without exactly one candidate,
    an index outside its domain, a division by zero, or a value outside its declared range."""

    def __init__(self, loc: Loc, reason: str):
        self.loc = loc
        self.reason = reason
        super().__init__(f"{loc}: {reason}")


class StateError(Exception):
    """A concrete state or argument that does not fit the spec's `state` section."""


class InternalError(Exception):
    """The two back ends disagree, or a solver answer failed its re-check: a bug in zoospec, never a finding."""


class Unanswered(InternalError):
    """Z3 gave no answer within its budget on a question about a concrete state, which has one.
    Not a finding: Z3's search on one query depends on the terms its process built before, so the
    same question asked in a fresh process is the reproducible condition (tests/test_agreement.py)."""
