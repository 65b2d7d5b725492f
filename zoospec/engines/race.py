"""Z3 and Yices asked the same question at once, on the two cores; the first answer is taken.

Neither engine is faster everywhere on our questions (docs/performance.md): on Zooloretto's
`zlr.claim.round-ends` Yices finds in 0.02-1.7 s the models Z3 did not find in 60 s, while the
UNSAT answers Z3 gives there take Yices longer than 60 s. So for the questions the analyses ask
(claims, ambiguities, dead ends, fixtures), Z3 checks in the calling thread while Yices checks
the same terms, translated beforehand, in a second one; whichever answers sat or unsat first
stops the other (Z3 through its context's interrupt, which is meant to be called from another
thread; Yices through its stop flag).

Yices joins only after `DELAY` seconds: most questions take Z3 milliseconds, and there a second
engine would only cost. ZOOSPEC_RACE=off asks Z3 alone here, for runs that already keep every core
busy with processes of their own (the test suite's workers); so do work budgets (engines/work.py),
which a wall-clock race would make load-dependent again. The Z3 answer keeps its meaning: unknown only when neither engine has an
answer in time. A Yices model is read as Z3 constants (engines/yices.py), and the caller decodes
and certifies it exactly as it does Z3's.
"""
from __future__ import annotations

import os
import threading

import z3

from . import interrupt, work, yices_on, yices_solver
from .yices_lib import YicesError

# Seconds Z3 has the question alone before Yices joins in.
DELAY = 1.0


class Raced:
    """The answer of one raced check: which engine gave it, and its model when sat."""

    def __init__(self, result, engine: str, model=None, reason: str = ""):
        self.result, self.engine, self.model, self.reason = result, engine, model, reason


def check(s, seconds: float | None, translator=None, delay: float = DELAY) -> Raced:
    """Z3's solver `s` (its assertions as they stand) asked within `seconds`, Yices joining
    after `delay` where it is installed, on, and can hold the terms."""
    units = work.limit(s, seconds) if seconds is not None else None
    ys = _yices_twin(s, translator) if units is None and (seconds is None or seconds > delay) else None
    if ys is None:
        return _z3_only(s, units)
    done, got = threading.Event(), {}
    lock = threading.Lock()  # Z3 is interrupted only while its check runs (see below)

    def run():
        if done.wait(delay):
            return  # Z3 answered before Yices was needed
        ys.set("timeout", None if seconds is None else max(0.001, seconds - delay) * 1000)
        try:
            r = ys.check()
        except YicesError:  # e.g. a product of two unknowns, which Yices' linear context refuses
            r = z3.unknown
        got["r"] = r
        if r in (z3.sat, z3.unsat):
            with lock:
                if not done.is_set():
                    got["interrupted"] = True
                    s.ctx.interrupt()

    worker = threading.Thread(target=run, daemon=True, name="yices-race")
    worker.start()
    r = s.check()
    with lock:
        done.set()
    if got.get("interrupted"):
        _drain(s.ctx)
    if r in (z3.sat, z3.unsat):
        ys.stop()
        worker.join()
        return Raced(r, "z3", s.model() if r == z3.sat else None)
    worker.join()
    y = got.get("r")
    if y == z3.sat:
        return Raced(y, "yices", ys.model())
    if y == z3.unsat:
        return Raced(y, "yices")
    return Raced(z3.unknown, "z3", reason=s.reason_unknown())


def _drain(ctx):
    """Spend the interrupt given to Z3 when Yices answered first. Z3 keeps it until its next
    check starts, and until then cancels what else is asked of it: a simplification returns its
    input unchanged, without a word, and a tactic can fail with Z3Exception 'canceled' (seen as an
    internal error of `conform`). A check of an empty solver takes it."""
    z3.Solver(ctx=ctx).check()


def _z3_only(s, units: int | None = None) -> Raced:
    r = s.check()
    work.account(s)
    if r != z3.unknown:
        return Raced(r, "z3", s.model() if r == z3.sat else None)
    why = s.reason_unknown()
    if units is not None and why == "canceled" and not interrupt.stopped():  # Z3's word for a spent rlimit
        why = f"its work budget ran out ({units:,} units of Z3's rlimit)"
    return Raced(r, "z3", reason=why)


def racing() -> bool:
    """Whether Yices races Z3 here: installed, not turned off (ZOOSPEC_ENGINE=z3, ZOOSPEC_RACE=off)."""
    off = os.environ.get("ZOOSPEC_RACE", "on").strip().lower() in ("off", "0", "no")
    return not off and yices_on()


def _yices_twin(s, translator):
    """A Yices solver holding s's assertions, or None where Yices is not to be asked."""
    return yices_solver(list(s.assertions()), translator) if racing() else None
