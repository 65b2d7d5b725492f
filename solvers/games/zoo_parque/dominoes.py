"""Seeded domino sets for Zoo Parque: every print of the game generates its own dominoes, so a set
is input data (the state variable `dom`), drawn here the way a print generator would.

Everything drawn is read from the spec — grounds, animals, their passports, how many dominoes a
set holds, and the odds (`print_odds`, assumed: the rulebook gives none) — so a designer's data
is what gets drawn. A drawn set is judged by the spec's `zp.set.*` rules in the Python back end:
a generator that drifts from the rules fails loudly.
"""
from __future__ import annotations

import random

from zoospec.errors import InternalError
from zoospec.ir.types import AtomT, MapT

from ...symbolic import broken_invariants


def _fences(rng, odds, sides, inner: str) -> dict:
    out = {}
    for s in sides:
        p = odds["inner_fence"] if s == inner else odds["fence"]
        out[s] = ("strong" if rng.random() < odds["strong"] else "weak") if rng.random() < p else "no_fence"
    return out


def _half(rng, odds, sides, terrains, likers, stalls, inner, *, empty=False) -> dict:
    h = {"ground": "empty", "animal": "no_animal", "food": False, **_fences(rng, odds, sides, inner), "stall": "no_stall"}
    if empty:
        # a TOP domino's bare half brings an animal (and maybe food) onto what lies below
        h["animal"] = rng.choice(sorted(a for ts in likers.values() for a in ts))
        h["food"] = rng.random() < odds["food"]
        return h
    if rng.random() < odds["path"]:
        h["ground"] = "path"
        if stalls and rng.random() < odds["stall"]:
            h["stall"] = rng.choice(stalls)   # assumed: a stall stands beside the walkway
        return h
    g = rng.choice(terrains)
    h["ground"] = g
    if likers[g] and rng.random() < odds["animal"]:
        h["animal"] = rng.choice(likers[g])   # printed on a terrain it prefers, so it can be played
    h["food"] = rng.random() < odds["food"]
    return h


def boxes(game) -> set[str]:
    """The boxes in play: the base game and every expansion whose switch is on."""
    return {"base"} | {s for s, on in game.switches.items() if on and s in game.domains["box"].atoms}


def domino_set(game, seed: int) -> dict:
    """{domino: {1: half, 2: half}} for every domino of the spec's `domino` domain, showing only
    the terrains and animals of the boxes in play (the base game's terrains first, in the spec's
    order, so a base set drawn from a seed stays the same whatever the spec adds)."""
    rng = random.Random(seed)
    odds = {k: v / 100 for k, v in game.consts["print_odds"][1].items()}
    passport, ground_box = game.consts["passport"][1], game.consts["ground_box"][1]
    inbox = boxes(game)
    terrain = [g for g in game.domains["ground"].atoms if g in game.consts["terrains"][1]]
    terrains = [g for g in terrain if ground_box[g] == "base"] + sorted(g for g in terrain if ground_box[g] in inbox - {"base"})
    animals = [a for a in game.domains["animal"].atoms if a != "no_animal" and game.consts["animal_box"][1][a] in inbox]
    likers = {g: [a for a in animals if g in passport[a]["likes"]] for g in terrains}
    # stalls come with Unnatural Utilities, the one box that brings any
    stalls = [s for s in game.domains["stall"].atoms if s != "no_stall"] if "unnatural_utilities" in inbox else []
    sides = _fenced_edges(game)
    dominoes = list(game.domains["domino"].atoms)
    tops = set(rng.sample(dominoes, round(len(dominoes) * odds["top"])))
    out = {}
    for d in dominoes:
        bare = rng.choice((1, 2)) if d in tops else 0
        out[d] = {1: _half(rng, odds, sides, terrains, likers, stalls, "e", empty=bare == 1),
                  2: _half(rng, odds, sides, terrains, likers, stalls, "w", empty=bare == 2)}
    _judge(game, seed, out)
    return out


def _fenced_edges(game) -> list[str]:
    """The edges of a half that can carry a fence, as the spec's half record names them (n, e, s, w)."""
    t = game.state_types["dom"]
    while isinstance(t, MapT):
        t = t.value
    return [name for name, ft in t.fields if isinstance(ft, AtomT) and ft.domain == "fence"]


def _judge(game, seed, dom):
    state = dict(game.start_state())
    state["dom"] = dom
    broken = broken_invariants(game, state, f"{game.id}.set.")
    if broken:
        raise InternalError(f"domino set {seed} breaks {', '.join(broken)}: the generator and the rules disagree")


def start_with(game, seed: int, players: int, **options) -> dict:
    """The spec's start state with a fresh domino set and `players` seated."""
    state = game.start_state(players)
    state["dom"] = domino_set(game, seed, **options)
    return state
