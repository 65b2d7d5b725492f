"""Every legal move of a concrete state, fast enough to play whole games move by move.

Trying every action with every combination of argument values is exact but slow when an action
has several parameters (thousands of combinations, most failing on their first requirement). So
the requirements are split into their top-level conjuncts, each conjunct is tried as soon as the
parameters it mentions are bound, and a combination is dropped at the first conjunct that is not
true — sound, because a conjunction is true only when every conjunct is, and exact, because when
every conjunct of every requirement is true (none undefined) each requirement is true, which is
all `Game.legal` asks (tests compare the two on played games). Define calls are shared across
the whole listing (one state, one cache).
"""
from __future__ import annotations

from dataclasses import dataclass

from zoospec.backends.python import MEMO
from zoospec.errors import InternalError, Undefined
from zoospec.ir.plan import conditions_by_depth, conjuncts
from zoospec.ir.types import AtomT, BoolT, IntT


@dataclass
class Step:
    action: str
    args: dict


def param_pools(game, params) -> list[list]:
    """Each parameter's values, in domain order."""
    pools = []
    for _, t in params:
        if isinstance(t, BoolT):
            pools.append([False, True])
        elif isinstance(t, IntT):
            pools.append(list(range(t.lo, t.hi + 1)))
        elif isinstance(t, AtomT):
            d = game.domains[t.domain]
            pools.append([d.atom(k) for k in d.codes()])
        else:
            raise InternalError(f"parameter type {t} is not finite")
    return pools


def _plan(game, action):
    """Per parameter depth, the compiled conjuncts that need exactly the parameters bound so far."""
    cache = game.__dict__.setdefault("_move_plans", {})
    hit = cache.get(action.id)
    if hit is None:
        names = [n for n, _ in action.params]
        # requirements, then what it ensures
        levels = [[game.python_of(c) for c in lv] for lv in conditions_by_depth(list(conjuncts(game.legal_expr(action.id))), names)]
        hit = cache[action.id] = (names, levels, param_pools(game, action.params))
    return hit


def legal_moves(game, state, actions=None) -> list[Step]:
    """The legal moves of `actions` (default: every action), in action and domain order."""
    memo: dict = {}
    out: list[Step] = []
    for a in game.actions.values() if actions is None else actions:
        names, levels, pools = _plan(game, a)

        def true_at(depth, env):
            try:
                return all(f(state, env) is True for f in levels[depth])
            except Undefined:
                return False

        def extend(depth, env):
            if not true_at(depth, env):
                return
            if depth == len(names):
                out.append(Step(a.id, {n: env[n] for n in names}))
                return
            for v in pools[depth]:
                extend(depth + 1, {**env, names[depth]: v})

        extend(0, {MEMO: memo})
    return out
