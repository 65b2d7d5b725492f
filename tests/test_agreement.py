"""The two back ends agree on every rule, define, claim, action requirement and effect of every
spec in spec/ and tests/specs/: forward on Hypothesis states, backward on Z3's witnesses."""
from functools import lru_cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import ALL_SPECS, game
from zoospec.agreement import Compiled, backward, forward, items
from zoospec.strategies import arguments, states

CASES = [(str(p), it.label) for p in ALL_SPECS for it in items(game(str(p)))]


@lru_cache(maxsize=None)
def compiled(path, label):
    g = game(path)
    (item,) = [i for i in items(g) if i.label == label]
    return Compiled(g, item)


@pytest.mark.parametrize("path,label", CASES, ids=[f"{p.rsplit('/', 1)[-1]}::{lab}" for p, lab in CASES])
def test_forward(path, label):
    c = compiled(path, label)

    @given(st.data())
    def check(data):
        state = data.draw(states(c.game), label="state")
        args = data.draw(arguments(c.game, c.item.params), label="args")
        py, zv = forward(c, state, args)
        assert py == zv, f"{label}: Python {py!r} but Z3 {zv!r}"

    check()


@pytest.mark.parametrize("path,label", CASES, ids=[f"{p.rsplit('/', 1)[-1]}::{lab}" for p, lab in CASES])
def test_backward(path, label):
    c = compiled(path, label)
    results = backward(c)
    assert results, "no question was asked"
    for what, py, zv in results:
        assert py != "unknown", f"{label}: Z3 gave no answer for '{what}' in time"
        if zv is not None:
            assert py == zv, f"{label} ({what}): Python {py!r} but Z3 {zv!r} on Z3's own witness"
