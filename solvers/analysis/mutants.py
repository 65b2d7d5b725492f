"""Random states a game's rules allow, near the states its games reach.

States drawn at random from a spec's types almost never satisfy its invariants (a Zooloretto
table has a thousand leaves, and the invariants tie them together), so they are made the way a
fuzzer makes inputs: one to three leaves of a state some seeded game reached are changed at
random, and the result is kept when every invariant holds (checked in Python) and it is new.
The states a game cannot reach, but the rules allow, are where an implementation's unstated
assumptions show. Those that break an invariant are kept apart, with the invariants they break:
what a robust implementation refuses rather than crashes on. A seed always gives the same states.
"""
from __future__ import annotations

import json
import random

from zoospec.ir.types import AtomT, BoolT, IntT, SetT

from ..symbolic import broken_invariants, python_invariants_hold
from .shrink import leaves, value_at, with_value

# tries per state wanted before giving up: a spec whose invariants leave no room near its games
TRIES = 50


def random_states(game, bases: list[dict], n: int, seed: int = 0) -> list[dict]:
    """Up to `n` states, each one to three random changes away from one of `bases` (states the
    game reached), every one satisfying the invariants, none equal to a base or to another."""
    return [s for s, _ in _mutants(game, bases, n, seed, lambda s: [] if python_invariants_hold(game, s) else None)]


def invalid_states(game, bases: list[dict], n: int, seed: int = 0) -> list[tuple[dict, list[str]]]:
    """Up to `n` (state, the invariants it breaks): states of the game's types one to three random
    changes away from `bases` that break one invariant or more — what a robust implementation
    refuses (or at least survives) when it is handed one."""
    def broken(s):
        ids = broken_invariants(game, s, "")
        return ids or None
    return _mutants(game, bases, n, seed, broken)


def _mutants(game, bases, n, seed, keep) -> list[tuple[dict, list]]:
    """Up to n (state, keep(state)) where keep gives not None, each state new."""
    rng = random.Random(seed)
    seen = {state_key(game, s) for s in bases}
    out: list[tuple[dict, list]] = []
    where = [[(name, path, t) for name, vt in game.state_types.items() for path, t in leaves(s[name], vt)] for s in bases]
    for _ in range(n * TRIES):
        if len(out) >= n or not bases:
            break
        i = rng.randrange(len(bases))
        s = bases[i]
        for _ in range(rng.randint(1, 3)):
            name, path, t = rng.choice(where[i])
            s = {**s, name: with_value(s[name], path, _other(value_at(s[name], path), t, game.domains, rng))}
        key = state_key(game, s)
        if key in seen:
            continue
        kept = keep(s)
        if kept is None:
            continue
        seen.add(key)
        out.append((s, kept))
    return out


def _other(value, t, domains, rng):
    """A random value of leaf type t (for a set: one element put in or taken out)."""
    if isinstance(t, BoolT):
        return not value
    if isinstance(t, IntT):
        if t.bounded:
            return rng.randint(t.lo, t.hi)
        return value + rng.choice((-2, -1, 1, 2))
    if isinstance(t, AtomT):
        return rng.choice(domains[t.domain].atoms)
    if isinstance(t, SetT):
        d = domains.of_type(t.elem)
        if d is None or not d.atoms:
            return value
        x = rng.choice(d.atoms)
        return value - {x} if x in value else value | {x}
    return value


def state_key(game, s) -> str:
    """A state as one text, equal for equal states (sets and maps in a fixed order)."""
    return json.dumps(game.state_to_json(s), sort_keys=True)
