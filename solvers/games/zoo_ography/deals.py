"""Zoo-ography's seeded solo deal, following the rulebook's setup (a sampler: the rule language
cannot yet say "shuffle these and draw so many"). It reads every component from the spec's own
constants, and what it deals is judged by the spec's deal rules (solvers/puzzle/deals.py)."""
from __future__ import annotations

import random

from zoospec.errors import StateError

def sample_deal(game, seed: int, advanced: bool = False, advanced_layout: bool = False) -> dict:
    """Setup the Zoo Tile Deck (base set and one variable set shuffled; 3 + 3 × 6 tiles drawn),
    one objective per space of its colour (never one with the 3-player or leaf symbol, and a bronze
    objective never with the silver one's icons), a layout card; Objectives and Requirements Setup. With
    the Connections switch (advanced game only) a monorail requirements card takes the bronze
    space and a monorail layout is revealed (Connections Expansion Setup, 5-6). The layout card's
    advanced side is the player's own choice (Player Setup and Components, 17-18): `advanced_layout`,
    and taken with the advanced game too — an advanced game's player is an experienced one."""
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
    unused = game.consts["three_player_goals"][1] | game.consts["leaf_goals"][1]  # solo: neither symbol
    goal = {}
    for slot in game.domains["goalslot"].atoms:  # silver before bronze: a bronze showing silver's icons is turned over
        pool = sorted(o for o, c in goal_card.items() if c["slot"] == slot and o != "no_goal" and o not in unused
                      and (slot != "bronze" or ((o in monorail_goals) == connections
                                                and c["what"] != goal_card[goal["silver2"]]["what"])))
        goal[slot] = rng.choice(pool) if slot != "bronze" or advanced else "no_goal"
    layouts = [m for m in game.domains["monolayout"].atoms if m != "no_monorail"]
    return {"deck": {i + 1: t for i, t in enumerate(tiles[:n])}, "goal": goal,
            "card": rng.choice(game.domains["layout"].atoms), "advanced": advanced,
            "advanced_layout": advanced_layout or advanced,
            "mono": rng.choice(layouts) if connections else "no_monorail"}

