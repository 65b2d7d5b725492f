"""The `dealing` section on a coin (a small spec of its own): chance takes moves as their weights
say, refuses weights it cannot draw by, and `deal` and `play` deal from it (ADR 0040)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from zoospec.cli.main import main
from zoospec.errors import StateError
from zoospec.front.loader import load
from zoospec.solvers import dealing

COIN = """
game:
  id: coin
  title: Coin
  rulebook: none.txt
  switches:
    loaded: {default: false, says: a loaded coin, cite: {section: S}}
    tossing: {default: false, says: on while chance tosses, cite: {section: S}}
components:
  domains:
    tosser: {range: [1, 0], with: {tossing: [1, 1]}, says: "the one tosser, only while tossing"}
state:
  side: "int[0..2]"
  tosses: "map[tosser] int[0..1]"
start: {side: 0}
rules:
  - {id: coin.score, cite: {section: S}, says: s, kind: scoring, body: "side"}
  - {id: coin.tossed, cite: {section: S}, says: a dealt coin shows a side, kind: invariant, body: "side != 2 or not loaded"}
actions:
  - id: coin.toss
    cite: {section: S}
    says: heads (1) thrice as likely as tails (2), when the coin is loaded WEIGHT
    params: {k: tosser, s: "int[1..2]"}
    require: ["tosses[k] == 0"]
    weight: "WEIGHT"
    effect: ["side = s", "tosses[k] = 1"]
dealing:
  says: the coin is tossed once, under `tossing`
  by: [coin.toss]
  with: tossing
  play_when: "loaded"
"""


@pytest.fixture
def coin(tmp_path):
    """coin(weight, **switches): the coin with this weight, loaded from a file of its own (the
    dealing loads it again under its switch)."""
    def make(weight="3 if s == 1 else 1", **switches):
        spec = tmp_path / f"coin-{abs(hash(weight))}.yaml"
        spec.write_text(COIN.replace("WEIGHT", weight))
        return load(spec, switches=switches)
    return make


def test_chance_takes_each_move_as_often_as_its_weight_says(coin):
    g = coin()
    sides = Counter(dealing.dealt_start(g, seed)["side"] for seed in range(400))
    assert 0.68 < sides[1] / 400 < 0.82   # 3 in 4, drawn from 400 fixed seeds
    assert dealing.dealt_start(g, 7) == dealing.dealt_start(g, 7)   # a seed deals the same
    assert dealing.dealt_start(g, 7)["tosses"] == {}   # the dealing's progress is not in the state
    assert {dealing.dealt_start(coin("0 if s == 2 else 5"), seed)["side"] for seed in range(50)} == {1}


@pytest.mark.parametrize("weight,message", [("s - 2", "its weight is -1; a weight is never negative"),
                                            ("0", "every legal dealing move weighs 0")])
def test_a_weight_chance_cannot_draw_by_is_refused(coin, weight, message):
    with pytest.raises(StateError, match=message):
        dealing.dealt_start(coin(weight), 1)


def test_a_dealt_state_that_breaks_an_invariant_is_the_dealings_fault(coin):
    g = coin("1 if s == 2 else 0", loaded=True)   # tails only, which a loaded coin never shows
    with pytest.raises(StateError, match="Coin: the state dealt from seed 1 breaks coin.tossed: the spec's dealing actions and its rules disagree"):
        dealing.dealt_start(g, 1)


def test_play_deals_its_start_only_where_play_when_holds(coin, tmp_path, capsys):
    spec = tmp_path / "coin.yaml"
    spec.write_text(COIN.replace("WEIGHT", "1 if s == 1 else 0"))   # heads, as a loaded coin must show
    assert not dealing.deals_play(coin("1")) and dealing.deals_play(coin("1", loaded=True))
    assert main(["play", str(spec), "--with", "loaded", "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["final"]["side"] == 1
    assert main(["play", str(spec), "--seed", "2", "--json"]) == 0   # the start as written
    assert json.loads(capsys.readouterr().out)["final"]["side"] == 0
    out = tmp_path / "dealt.json"
    assert main(["deal", str(spec), "--seed", "2", "--out", str(out)]) == 0
    assert "  side: 1" in capsys.readouterr().out and json.loads(out.read_text())["side"] == 1
    assert main(["deal", str(spec), "--set", "sides=1"]) == 2
    assert "sides: not a state variable of Coin (did you mean 'side'?)" in capsys.readouterr().err
