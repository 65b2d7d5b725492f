"""Make a witness small: drop set elements, lower numbers, reset atoms and flags one at a time,
keeping each change only while the finding still reproduces in Python.

The result is 1-minimal — no single such step keeps the finding — which is what a person reading
a counterexample needs: only what matters is left.
"""
from __future__ import annotations

import copy
from typing import Callable

from zoospec.ir.types import AtomT, BoolT, IntT, MapT, RecordT, SetT
from zoospec.runtime.state import zero as _zero


def _candidates(value, t, domains):
    """Simpler values for one leaf or container, simplest first."""
    if isinstance(t, SetT):
        for x in sorted(value, key=repr):
            yield value - {x}
    elif isinstance(t, (BoolT, IntT, AtomT)):
        z = _zero(t, domains)
        if value != z:
            yield z
        if isinstance(t, IntT) and value != z:
            step = (value - z) // 2
            if step:
                yield value - step
            yield value - (1 if value > z else -1)


def leaves(value, t, path=()):
    """(path, type) of every leaf or set of a state variable's value, in a fixed order."""
    if isinstance(t, MapT):
        for k in sorted(value, key=repr):
            yield from leaves(value[k], t.value, path + (k,))
    elif isinstance(t, RecordT):
        for n, ft in t.fields:
            yield from leaves(value[n], ft, path + (n,))
    else:
        yield path, t


def value_at(v, path):
    """The part of a value at a path of `leaves`."""
    for p in path:
        v = v[p]
    return v


def with_value(v, path, x):
    """A copy of a value with the part at `path` replaced by x (the rest shared, not copied)."""
    if not path:
        return x
    out = copy.copy(v)
    out[path[0]] = with_value(v[path[0]], path[1:], x)
    return out


def size(state: dict, types: dict, domains) -> int:
    n = 0
    for name, t in types.items():
        for path, lt in leaves(state[name], t):
            v = value_at(state[name], path)
            if isinstance(lt, SetT):
                n += len(v)
            elif v != _zero(lt, domains):
                n += abs(v - _zero(lt, domains)) if isinstance(lt, IntT) else 1
    return n


def _containers(value, t, path=()):
    """(path, type) of every map and record, outermost first (the whole variable is path ())."""
    if isinstance(t, (MapT, RecordT)):
        yield path, t
        items = [(k, value[k], t.value) for k in sorted(value, key=repr)] if isinstance(t, MapT) else \
                [(n, value[n], ft) for n, ft in t.fields]
        for k, v, vt in items:
            yield from _containers(v, vt, path + (k,))


def _clear_containers(state, types, domains, keeps, budget):
    """Reset whole maps to plain, outermost first: on a big state most of it is irrelevant to a
    finding, and one check clears what would take hundreds leaf by leaf."""
    checks = 0
    for name, t in types.items():
        for path, ct in list(_containers(state[name], t)):
            if checks >= budget:
                return state, checks
            try:
                current = value_at(state[name], path)
            except (KeyError, TypeError):
                continue
            plain = _zero(ct, domains)
            if current == plain:
                continue
            trial = dict(state)
            trial[name] = with_value(state[name], path, plain)
            checks += 1
            if keeps(trial):
                state = trial
    return state, checks


def shrink(state: dict, types: dict, domains, keeps: Callable[[dict], bool], max_checks: int = 2000) -> dict:
    """A 1-minimal state for which `keeps` still holds (the input state must satisfy it), unless
    max_checks runs out first (then as small as reached)."""
    state, checks = _clear_containers(state, types, domains, keeps, max_checks // 2)
    changed = True
    while changed and checks < max_checks:
        changed = False
        for name, t in types.items():
            for path, lt in list(leaves(state[name], t)):
                for cand in _candidates(value_at(state[name], path), lt, domains):
                    trial = dict(state)
                    trial[name] = with_value(state[name], path, cand)
                    checks += 1
                    if keeps(trial):
                        state, changed = trial, True
                        break
                    if checks >= max_checks:
                        return state
    return state
