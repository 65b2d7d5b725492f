"""Hypothesis strategies derived from a spec's `state` section and parameter lists, for zoospec's
own tests and for users' tests of their implementations.

    from zoospec.runtime.strategies import states, arguments
    @given(states(game), arguments(game, game.rule("x.y").params))

States shrink toward the smallest value of every leaf (false, the lowest int, the first atom, the
empty set).

A whole table's state has a thousand leaves or more, and Hypothesis pays for every draw: one draw
per leaf made a state cost 20–50 ms, most of a forward agreement check. So `states` draws the
whole state as one block of bytes, a byte or two per leaf, and reads the leaves off it: one draw
per state, 15–40× faster. Shrinking the block shrinks its bytes toward zero, which is each leaf's
smallest value. `values` (one draw per leaf) stays for arguments and single values, where
draws are few and a shrunk example reads better."""
from __future__ import annotations

import weakref

try:
    from hypothesis import strategies as st
except ImportError:  # an extra: the rules themselves do not need it
    raise ImportError("zoospec.runtime.strategies needs Hypothesis: pip install 'zoospec[strategies]'") from None

from ..ir.types import AtomT, BoolT, IntT, MapT, RecordT, SetT, Type


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


def packed(t: Type, domains) -> st.SearchStrategy:
    """Values of a finite type drawn as one block of bytes: each leaf takes the next one to four
    bytes (as many as its number of values needs), read modulo that number. Zero bytes are each
    leaf's smallest value, so a block shrinks as the leaves would."""
    sizes = _leaf_sizes(t, domains)
    widths = [max(1, ((s - 1).bit_length() + 7) // 8) for s in sizes]
    total = sum(widths)
    one_byte = all(w == 1 for w in widths)

    def read(block: bytes):
        if one_byte:
            codes = [b % s for b, s in zip(block, sizes)]
        else:
            codes, i = [], 0
            for s, w in zip(sizes, widths):
                codes.append(int.from_bytes(block[i:i + w], "big") % s)
                i += w
        return _build(t, domains, iter(codes))
    return st.binary(min_size=total, max_size=total).map(read)


def _leaf_sizes(t: Type, domains) -> list[int]:
    """The number of values of each leaf of t, in the order `_build` reads them."""
    if isinstance(t, BoolT):
        return [2]
    if isinstance(t, IntT):
        if not t.bounded:
            raise ValueError("a state needs bounded ints")
        return [t.hi - t.lo + 1]
    if isinstance(t, AtomT):
        return [len(domains[t.domain].atoms)]
    if isinstance(t, SetT):
        d = domains.of_type(t.elem)
        if d is None:
            raise ValueError(f"no finite domain for elements of {t}")
        return [2] * len(d.atoms)
    if isinstance(t, MapT):
        return [s for _ in domains[t.key].atoms for s in _leaf_sizes(t.value, domains)]
    if isinstance(t, RecordT):
        return [s for _, ft in t.fields for s in _leaf_sizes(ft, domains)]
    raise ValueError(f"no strategy for type {t}")


def _build(t: Type, domains, codes):
    """A Python value of type t from its leaves' codes (0 is a leaf's smallest value)."""
    if isinstance(t, BoolT):
        return next(codes) == 1
    if isinstance(t, IntT):
        return t.lo + next(codes)
    if isinstance(t, AtomT):
        return domains[t.domain].atoms[next(codes)]
    if isinstance(t, SetT):
        return frozenset(a for a in domains.of_type(t.elem).atoms if next(codes))
    if isinstance(t, MapT):
        return {a: _build(t.value, domains, codes) for a in domains[t.key].atoms}
    return {n: _build(ft, domains, codes) for n, ft in t.fields}


_STATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def states(game) -> st.SearchStrategy:
    """Every state the `state` section allows (not only reachable ones); built once per game."""
    s = _STATES.get(game)
    if s is None:
        s = _STATES[game] = packed(RecordT(tuple(game.state_types.items())), game.domains)
    return s


def arguments(game, params) -> st.SearchStrategy:
    """Arguments for a rule's, action's or claim's parameters, keyed by name."""
    return st.fixed_dictionaries({n: values(t, game.domains) for n, t in params})


def json_states(game) -> st.SearchStrategy:
    """States in their JSON form (what `game.state_from_json` reads)."""
    return states(game).map(game.state_to_json)
