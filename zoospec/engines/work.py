"""Work budgets: a question's seconds turned into Z3's deterministic resource count (`rlimit`),
so that the same question gets the same verdict on a quiet machine and a busy one (issue 42).

A check given `seconds` gets `seconds * RATE` units of Z3's work, and a wall-clock bound of
`seconds * WALL` that only a machine more than WALL times slower than this one reaches. Z3's
count is per check and deterministic for one query built the same way (tests/test_engines.py);
Yices keeps no such count, so under work budgets Z3 answers alone (engines/race.py). A question
that asks many checks shares its time out by `now()`: under work budgets the work Z3 has done so
far, in seconds at RATE, so the shares do not depend on load either. Off unless
ZOOSPEC_WORK_BUDGET=on: the tour's workers turn it on (solvers/analysis/tour.py), and so does the
fixture corpus (`budgets()`), which must be the same on every run; other commands run by hand
keep seconds, and the race.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager

# Z3's rlimit units per second of search, measured on this 2-core machine on the analyses' own
# questions (claims and dead ends of the bundled games): 10-20 M a second (docs/performance.md).
# The low end: a budget's seconds are then an upper bound of its time on a quiet machine here.
RATE = 10_000_000
# the wall-clock bound, in budgets: past it a check is unknown whatever its work
WALL = 1.5

_done = 0  # the highest count of Z3's work read so far (Z3 counts per context, over every check)


def rate() -> int | None:
    """Units a second when work budgets are on (ZOOSPEC_WORK_BUDGET=on; ZOOSPEC_WORK_RATE=N sets
    the rate), else None: seconds alone bound a check."""
    if os.environ.get("ZOOSPEC_WORK_BUDGET", "off").strip().lower() not in ("on", "1", "yes"):
        return None
    try:
        return max(1, int(os.environ.get("ZOOSPEC_WORK_RATE", RATE)))
    except ValueError:
        return RATE


def limit(s, seconds: float) -> int | None:
    """Bound Z3 solver `s` for a check of `seconds`: a work budget (returned, in units) and a wall
    bound WALL times longer when work budgets are on; else the plain timeout (None returned)."""
    per_second = rate()
    if per_second is None:
        s.set("timeout", max(1, int(seconds * 1000)))
        return None
    units = max(1, int(seconds * per_second))
    s.set("rlimit", units)
    s.set("timeout", max(1, int(seconds * WALL * 1000)))
    return units


def account(s) -> None:
    """After a check of Z3 solver `s`: read how much work Z3 has done so far (for `now`)."""
    global _done
    if rate() is None:
        return
    stats = s.statistics()
    for key in stats.keys():
        if key == "rlimit count":
            _done = max(_done, int(stats.get_key_value(key)))


def now() -> float:
    """The clock a question's deadlines are read on: Z3's work so far (seconds at the rate) under
    work budgets, else the wall clock."""
    per_second = rate()
    return _done / per_second if per_second is not None else time.monotonic()


@contextmanager
def budgets():
    """Work budgets on for the work done inside (unless the caller set ZOOSPEC_WORK_BUDGET): what
    must come out the same on every run — the fixtures handed to other implementations — is asked
    of Z3 alone, bounded by its deterministic work count, never by a race of two engines."""
    if "ZOOSPEC_WORK_BUDGET" in os.environ:
        yield
        return
    os.environ["ZOOSPEC_WORK_BUDGET"] = "on"
    try:
        yield
    finally:
        os.environ.pop("ZOOSPEC_WORK_BUDGET", None)


class Shares:
    """One question's time shared out among the checks it asks, on `now()`'s clock: each check
    gets an equal part of what is left (time one does not use goes to those after it) and at
    most `each` seconds, so one hard check cannot starve the rest and the question as a whole
    ends within `total`. `total` None: no limit of the question's own (each check its `each`)."""

    def __init__(self, total: float | None, count: int, each: float | None = None):
        self.end = None if total is None else now() + total
        self.left = max(1, count)
        self.each = each

    def spent(self) -> bool:
        return self.end is not None and now() >= self.end

    def deadline(self) -> float | None:
        """The next check's deadline (None: its own timeout bounds it); one check fewer is left."""
        count, self.left = self.left, max(1, self.left - 1)
        if self.end is None:
            return None
        t = now()
        share = t + (self.end - t) / count
        return share if self.each is None else min(share, t + self.each)
