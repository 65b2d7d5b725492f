"""Analyses of the IR that both back ends share, so they go through a rule the same way: the
top-level conjuncts of a condition, the order `can(...)` binds an action's parameters in, each
condition at the depth where it can first be decided, and a generator's hoistable membership."""
from __future__ import annotations

from .. import ir
from .order import ordered
from .types import BoolT, IntT, SetT


def conjuncts(e: ir.Expr):
    """The top-level conjuncts of e (nested `and`s flattened), in order."""
    if isinstance(e, ir.And):
        for x in e.args:
            yield from conjuncts(x)
    else:
        yield e


def can_plan(e: ir.Can, domains):
    """How both back ends go through `can(a)`'s arguments: the parameters most top-level
    conditions of the legality mention first (declared order on ties), and each condition at the
    first depth where every parameter it mentions is bound. (names, conditions per depth 0..n,
    each parameter's values in domain order)."""
    params = dict(e.ref.params)
    conj = list(conjuncts(e.ref.legal))
    names = sorted(params, key=lambda n: -sum(n in _mentioned(c, params) for c in conj))
    levels = conditions_by_depth(conj, names)
    pools = [ordered(domain_lit(params[n], domains).value, params[n], domains) for n in names]
    return names, levels, pools


def _mentioned(c, names) -> set:
    return {x.name for x in ir.walk(c) if isinstance(x, ir.Local)} & set(names)


def conditions_by_depth(conds, names) -> list[list]:
    """Each condition at the first depth (0..len(names)) where every parameter it mentions is
    bound, parameters bound in the order of `names` (shared with the move lister)."""
    levels: list[list] = [[] for _ in range(len(names) + 1)]
    for c in conds:
        levels[max((names.index(n) + 1 for n in _mentioned(c, names)), default=0)].append(c)
    return levels


def domain_lit(t, domains) -> ir.Lit:
    """Every value of a parameter's finite type, as a set constant."""
    if isinstance(t, IntT):
        return ir.Lit(frozenset(range(t.lo, t.hi + 1)), SetT(t))
    if isinstance(t, BoolT):
        return ir.Lit(frozenset((False, True)), SetT(t))
    d = domains[t.domain]
    return ir.Lit(frozenset(d.atoms), SetT(d.value_type))


def hoistable_member(e: ir.Agg):
    """The generator's element when it is `x in S` and S uses none of the generator's variables
    (so S can be worked out once per evaluation of the generator), else None."""
    m = e.elt
    if not isinstance(m, ir.Member):
        return None
    bound = {c.var for c in e.clauses}
    if any(isinstance(n, ir.Local) and n.name in bound for n in ir.walk(m.set)):
        return None
    return m
