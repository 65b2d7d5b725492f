"""Symbolic values of the Z3 back end.

Scalars (bool, int, atom codes) are Z3 terms. Sets of scalars are `ZSet`s (one Boolean per
possible element), maps are `ZMap`s (one value per key), records `ZRec`s. Values that are never
symbolic in themselves (shapes, sets of cell sets) stay Python values; a symbolic choice among
such values is a `Choice`. `ite` merges two values of one type under a condition.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import z3

from . import terms as zt

TRUE, FALSE = zt.TRUE, zt.FALSE
# Hot paths test `x is TRUE` / `x is FALSE` (identity, cheap) instead of z3.is_true (a C call that
# dominated compile time); a constant built elsewhere only misses the shortcut, never the meaning.


@dataclass
class ZSet:
    """A set of scalars: codes is every element it may hold, bits[code] says whether it does."""

    codes: list[int]
    bits: dict[int, z3.BoolRef]

    def member(self, term) -> z3.BoolRef:
        if zt.is_int_value(term):
            b = self.bits.get(zt.int_of(term))
            return b if b is not None else FALSE
        if z3.is_bool(term):  # bool elements use codes 0/1
            return zt.Or(zt.And(term, self.bits.get(1, z3.BoolVal(False))), zt.And(zt.Not(term), self.bits.get(0, z3.BoolVal(False))))
        return zt.Or([zt.And(zt.Eq(term, zt.num(k)), b) if b is not TRUE else zt.Eq(term, zt.num(k)) for k, b in self.bits.items()] or [FALSE])

    def items(self):
        return list(self.bits.items())


@dataclass
class ZMap:
    codes: list[int]
    entries: dict[int, object]


@dataclass
class ZRec:
    fields: dict[str, object]


@dataclass
class Choice:
    """One of several concrete Python values, chosen by mutually exclusive conditions."""

    options: list[tuple[z3.BoolRef, object]]


def leaves(v) -> list:
    """The Z3 terms a symbolic value is made of, in a fixed order (Booleans as 0/1): what the
    solvers compare values by and pin a value with."""
    if isinstance(v, ZRec):
        return [x for f in v.fields.values() for x in leaves(f)]
    if isinstance(v, ZMap):
        return [x for e in v.entries.values() for x in leaves(e)]
    if isinstance(v, ZSet):
        return [z3.If(b, 1, 0) for b in v.bits.values()]
    return [z3.If(v, 1, 0) if z3.is_bool(v) else v]


def is_term(v) -> bool:
    return isinstance(v, z3.ExprRef)


def ite(cond, a, b):
    """`a if cond else b` for values of the same type."""
    if cond is TRUE:
        return a
    if cond is FALSE:
        return b
    if is_term(a) and is_term(b):
        return zt.If(cond, a, b)
    if isinstance(a, ZSet) and isinstance(b, ZSet):
        codes = sorted(set(a.codes) | set(b.codes))
        return ZSet(codes, {k: _bite(cond, a.bits.get(k, FALSE), b.bits.get(k, FALSE)) for k in codes})
    if isinstance(a, ZMap) and isinstance(b, ZMap):
        return ZMap(a.codes, {k: ite(cond, a.entries[k], b.entries[k]) for k in a.codes})
    if isinstance(a, ZRec) and isinstance(b, ZRec):
        return ZRec({n: ite(cond, a.fields[n], b.fields[n]) for n in a.fields})
    opts = []
    for c, v in alternatives(a):
        opts.append((cond if c is TRUE else zt.And(cond, c), v))
    neg = zt.Not(cond)
    for c, v in alternatives(b):
        opts.append((neg if c is TRUE else zt.And(neg, c), v))
    return Choice(opts)


def _bite(c, x, y):
    if x is y or x.eq(y):
        return x
    return zt.If(c, x, y)


def alternatives(v):
    if isinstance(v, Choice):
        return v.options
    return [(TRUE, v)]


def select(pairs: list[tuple[z3.BoolRef, object]], default):
    """The value of the first pair whose condition holds, else default."""
    out = default
    for c, v in reversed(pairs):
        out = ite(c, v, out)
    return out


def lift(fn, *args):
    """Apply fn to concrete alternatives of any `Choice` arguments and merge the results."""
    if not any(isinstance(a, Choice) for a in args):
        return fn(*args)
    alts = [alternatives(a) for a in args]
    pairs = []
    for combo in itertools.product(*alts):
        cond = zt.And([c for c, _ in combo])
        pairs.append((cond, fn(*[v for _, v in combo])))
    return select(pairs[:-1], pairs[-1][1])
