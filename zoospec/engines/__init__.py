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

import z3

from . import yices

# How long Yices gets before Z3 is asked instead. The questions it answers here take well under a
# second to a few seconds (docs/performance.md); one it cannot answer in this time goes to Z3.
YICES_SECONDS = 60.0


def engine_choice() -> str:
    """'auto' (Yices first where it can answer) or 'z3' (Z3 alone), from ZOOSPEC_ENGINE."""
    return "z3" if os.environ.get("ZOOSPEC_ENGINE", "auto").strip().lower() == "z3" else "auto"


def yices_first(asked: list, seconds: float = YICES_SECONDS, assumptions=()):
    """(answer, solver) from Yices for the conjunction `asked` — sat or unsat — or None where
    Yices cannot give one (not installed, turned off, a term it cannot hold or a question outside
    linear arithmetic, out of time)."""
    if engine_choice() == "z3" or not yices.available():
        return None
    s = yices.YicesSolver()
    s.set("timeout", seconds * 1000)
    try:
        s.add(asked)
        r = s.check(*assumptions)
    except (yices.Untranslatable, yices.Y.YicesError):  # e.g. a product of two unknowns: not linear
        return None
    return None if r == z3.unknown else (r, s)
