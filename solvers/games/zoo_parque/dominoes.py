"""Seeded domino sets for Zoo Parque: every print of the game generates its own dominoes, so a set
is input data (the state variable `dom`), drawn here the way a print generator would.

The vocabulary — grounds, animals, their passports, how many dominoes a set holds — is read from the
spec, so a designer's data is what gets drawn. The odds are ours (the rulebook gives none) and are
named in `Odds` below. A drawn set is judged by the spec's `zp.set.*` rules in the Python
back end: a generator that drifts from the rules fails loudly.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from zoospec.errors import InternalError

from ...symbolic import broken_invariants

BASE_TERRAINS = ("grass", "water", "jungle")
SIDES = ("n", "e", "s", "w")


@dataclass(frozen=True)
class Odds:
    """How often a half shows each thing (assumed: the rulebook prints no counts)."""
    top_share: float = 0.25      # dominoes with one half without background
    path: float = 0.10           # a half that is a path
    animal: float = 0.35         # an animal on a half with terrain
    food: float = 0.30           # a food icon
    fence: float = 0.22          # a fence on an outer edge
    inner_fence: float = 0.10    # a fence between the two halves
    strong: float = 0.35         # a fence that is strong
    stall: float = 0.50          # a stall on a path half, when an expansion brings stalls


def _fences(rng, odds, inner: str) -> dict:
    out = {}
    for s in SIDES:
        p = odds.inner_fence if s == inner else odds.fence
        out[s] = ("strong" if rng.random() < odds.strong else "weak") if rng.random() < p else "no_fence"
    return out


def _half(rng, odds, terrains, likers, stalls, inner, *, empty=False) -> dict:
    h = {"ground": "empty", "animal": "no_animal", "food": False, **_fences(rng, odds, inner), "stall": "no_stall"}
    if empty:
        # a TOP domino's bare half brings an animal (and maybe food) onto what lies below
        h["animal"] = rng.choice(sorted(a for ts in likers.values() for a in ts))
        h["food"] = rng.random() < odds.food
        return h
    if rng.random() < odds.path:
        h["ground"] = "path"
        if stalls and rng.random() < odds.stall:
            h["stall"] = rng.choice(stalls)   # assumed: a stall stands beside the walkway
        return h
    g = rng.choice(terrains)
    h["ground"] = g
    if likers[g] and rng.random() < odds.animal:
        h["animal"] = rng.choice(likers[g])   # printed on a terrain it prefers, so it can be played
    h["food"] = rng.random() < odds.food
    return h


def boxes(game) -> set[str]:
    """The boxes in play: the base game and every expansion whose switch is on."""
    return {"base"} | {s for s, on in game.switches.items() if on and s in game.domains["box"].atoms}


def domino_set(game, seed: int, odds: Odds = Odds(), terrains=None) -> dict:
    """{domino: {1: half, 2: half}} for every domino of the spec's `domino` domain, showing only
    the terrains and animals of the boxes in play (the base terrains first, so a base set drawn
    from a seed stays the same whatever the spec adds)."""
    rng = random.Random(seed)
    passport = game.consts["passport"][1]
    inbox = boxes(game)
    if terrains is None:
        more = [g for g, b in game.consts["ground_box"][1].items() if b in inbox and b != "base"]
        terrains = BASE_TERRAINS + tuple(sorted(more))
    animals = [a for a in game.domains["animal"].atoms if a != "no_animal" and game.consts["animal_box"][1][a] in inbox]
    likers = {g: [a for a in animals if g in passport[a]["likes"]] for g in terrains}
    # stalls come with Unnatural Utilities, the one box that brings any
    stalls = [s for s in game.domains["stall"].atoms if s != "no_stall"] if "unnatural_utilities" in inbox else []
    dominoes = list(game.domains["domino"].atoms)
    tops = set(rng.sample(dominoes, round(len(dominoes) * odds.top_share)))
    out = {}
    for d in dominoes:
        bare = rng.choice((1, 2)) if d in tops else 0
        out[d] = {1: _half(rng, odds, list(terrains), likers, stalls, "e", empty=bare == 1),
                  2: _half(rng, odds, list(terrains), likers, stalls, "w", empty=bare == 2)}
    _judge(game, seed, out)
    return out


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
