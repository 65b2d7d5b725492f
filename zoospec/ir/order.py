"""One iteration order for both back ends (it matters only when an effect writes one place twice:
the later write wins). Scalars follow their domain's codes; other values their sorted form."""
from __future__ import annotations

from .types import AtomT, BoolT, IntT, Type


def sort_key(t: Type, domains):
    if isinstance(t, AtomT):
        d = domains[t.domain]
        return d.code
    if isinstance(t, (IntT, BoolT)):
        return int
    return _structural


def _structural(v):
    if isinstance(v, frozenset):
        return (0, tuple(sorted(repr(x) for x in v)))
    return (1, repr(v))


def ordered(values, t: Type, domains):
    return sorted(values, key=sort_key(t, domains))
