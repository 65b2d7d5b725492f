"""Hypothesis strategies derived from a spec's `state` section and parameter lists, for zoospec's
own tests and for users' tests of their implementations.

    from zoospec.strategies import states, arguments
    @given(states(game), arguments(game, game.rule("x.y").params))

States shrink toward the smallest value of every leaf (false, the lowest int, the first atom, the
empty set)."""
from __future__ import annotations

from hypothesis import strategies as st

from .types import AtomT, BoolT, IntT, MapT, RecordT, SetT, Type


def values(t: Type, domains) -> st.SearchStrategy:
    """Python values of a finite type, as the back ends use them."""
    if isinstance(t, BoolT):
        return st.booleans()
    if isinstance(t, IntT):
        if not t.bounded:
            raise ValueError("values() needs a bounded int type")
        return st.integers(t.lo, t.hi)
    if isinstance(t, AtomT):
        return st.sampled_from(domains[t.domain].atoms)
    if isinstance(t, SetT):
        d = domains.of_type(t.elem)
        if d is None:
            raise ValueError(f"no finite domain for elements of {t}")
        return st.frozensets(st.sampled_from(d.atoms), max_size=len(d))
    if isinstance(t, MapT):
        d = domains[t.key]
        return st.fixed_dictionaries({a: values(t.value, domains) for a in d.atoms})
    if isinstance(t, RecordT):
        return st.fixed_dictionaries({n: values(ft, domains) for n, ft in t.fields})
    raise ValueError(f"no strategy for type {t}")


def states(game) -> st.SearchStrategy:
    """Every state the `state` section allows (not only reachable ones)."""
    return st.fixed_dictionaries({n: values(t, game.domains) for n, t in game.state_types.items()})


def arguments(game, params) -> st.SearchStrategy:
    """Arguments for a rule's, action's or claim's parameters, keyed by name."""
    return st.fixed_dictionaries({n: values(t, game.domains) for n, t in params})


def json_states(game) -> st.SearchStrategy:
    """States in their JSON form (what `game.state_from_json` reads)."""
    return states(game).map(game.state_to_json)
