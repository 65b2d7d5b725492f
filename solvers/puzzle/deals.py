"""Seeded deals for a puzzle: what chance decides at setup, drawn the way the rulebook says.

A sampler follows the setup procedure (shuffle, pick cards) and reads every component from the
spec's own constants, so a designer's data is what gets dealt. What it draws is then judged by the
spec's deal rules in the Python back end: a sampler that drifts from the rules fails loudly, it is
never trusted as a second copy of them.
"""
from __future__ import annotations

import random

from zoospec.errors import InternalError, StateError

from ..symbolic import broken_invariants


def zoo_ography(game, seed: int, advanced: bool = False) -> dict:
    """Setup the Zoo Tile Deck (base set and one variable set shuffled; 3 + 3 × 6 tiles drawn),
    one objective per space of its colour, a layout card; Objectives and Requirements Setup. With
    the Connections switch (advanced game only) a monorail requirements card takes the bronze
    space and a monorail layout is revealed (Connections Expansion Setup, 5-6)."""
    if game.switches.get("multiplayer", False):
        raise StateError("a multiplayer zoo is dealt by a draft, not by a seed: give a deal file of what the "
                         "player took (spec/zoo-ography/deals/multiplayer/)")
    rng = random.Random(seed)
    tile_set = game.consts["tile_set"][1]
    goal_card = game.consts["goal_card"][1]
    monorail_goals = game.consts["monorail_goals"][1]
    connections = game.switches.get("connections", False)
    advanced = advanced or connections
    variable = sorted({s for s in tile_set.values() if s not in ("base", "own")})
    chosen = rng.choice(variable)
    tiles = [p for p in game.domains["piece"].atoms if tile_set[p] in ("base", chosen)]
    rng.shuffle(tiles)
    n = len(game.domains["deckpos"].atoms)
    goal = {}
    for slot in game.domains["goalslot"].atoms:
        pool = sorted(o for o, c in goal_card.items() if c["slot"] == slot and o != "no_goal"
                      and (slot != "bronze" or (o in monorail_goals) == connections))
        goal[slot] = rng.choice(pool) if slot != "bronze" or advanced else "no_goal"
    layouts = [m for m in game.domains["monolayout"].atoms if m != "no_monorail"]
    return {"deck": {i + 1: t for i, t in enumerate(tiles[:n])}, "goal": goal,
            "card": rng.choice(game.domains["layout"].atoms), "advanced": advanced,
            "mono": rng.choice(layouts) if connections else "no_monorail"}


SAMPLERS = {"zg": zoo_ography}


def deal(game, seed: int, **options) -> dict:
    sampler = SAMPLERS.get(game.id)
    if sampler is None:
        raise StateError(f"no deal sampler for {game.id}: give deal files instead")
    d = sampler(game, seed, **options)
    state = dict(game.start_state() if game.start is not None else {})
    state.update(d)
    broken = broken_invariants(game, state, f"{game.id}.deal.")
    if broken:
        raise InternalError(f"deal {seed} breaks {', '.join(broken)}: the sampler and the rules disagree")
    return d


def parse_range(text: str) -> list[int]:
    """'1-1000' or '3,5,9-12' → the seeds."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise StateError(f"--deals: expected seeds like 1-1000 or 3,5,9-12, got {text!r}") from None
        if b < a:
            raise StateError(f"--deals: {part} runs backwards")
        out.extend(range(a, b + 1))
    return out
