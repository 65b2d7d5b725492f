"""One player's zoo deal from a played multiplayer draft (ADR 0017).

The draft spec (`zgd`, spec/zoo-ography-draft.yaml) plays the draft; the solo record under its
switch `multiplayer` is one player's zoo. A trace of the draft says, turn by turn, which action a
player took, which animals came with it — read from the trace's own states (what the move added
to the player's planks and patch), so no rule of the draft is restated here — and, with
Connections, whether a monorail track came with its tile (the take move's own argument). It does
not say which tile: the draft counts tiles (ADR 0013), so the tiles are given by the caller, one
per turn.
"""
from __future__ import annotations

from ..errors import StateError

# The draft's take moves and the record's action each one is.
ACTIONS = {"zgd.take-animals": "two_animals", "zgd.take-column": "column",
           "zgd.take-secluded": "secluded_coin", "zgd.take-renovation": "renovation"}


def recorded(trace):
    """Refuse a trace whose zoos the record cannot hold (with the reason), else return it."""
    if trace.game.id != "zgd":
        raise StateError(f"the trace is of {trace.game.id}, not of the multiplayer draft (zgd)")
    if trace.game.switches.get("world_exhibits"):
        raise StateError("a World Exhibits draft: it records each sponsor's size but not its region, which the "
                         "zoo's habitat sharing needs; write the zoo's deal by hand (as "
                         "spec/zoo-ography/deals/multiplayer/world-exhibits.yaml)")
    return trace


def turns_of(trace, seat: int) -> list[tuple[str, dict, bool]]:
    """Each take of `seat` in order: the record's action, the animals it took, by kind, and
    whether its tile came with a monorail track (the take's `m`: Connections)."""
    g = recorded(trace).game
    kinds = g.domains["kind"].atoms
    out = []
    for i, step in enumerate(trace.steps):
        if step.action not in ACTIONS or step.args.get("p") != seat:
            continue
        pre, post = trace.states[i], trace.states[i + 1]
        took = {k: post["held"][seat][k] - pre["held"][seat][k] for k in kinds}
        took["secluded"] += 1 if post["patch"][seat] and not pre["patch"][seat] else 0  # onto the patch
        took["nobody"] = 0
        out.append((ACTIONS[step.action], took, bool(step.args.get("m"))))
    return out


def deal_from_draft(zoo_game, trace, seat: int, tiles: list[str], goal: dict, card: str, advanced: bool = False,
                    mono: str = "no_monorail") -> dict:
    """The multiplayer deal (JSON form) of `seat`'s zoo: `tiles` taken on its turns, the actions,
    animals and tracks the trace shows, the objectives, layout card and monorail layout given.
    Judged by the zoo spec's deal rules when it is read (puzzle.deal_from_data, deal_problems),
    like any deal file."""
    if not zoo_game.switches.get("multiplayer"):
        raise StateError("a deal from a draft is for the zoo spec with its switch multiplayer on")
    rails = bool(trace.game.switches.get("connections"))
    if rails != bool(zoo_game.switches.get("connections")):
        raise StateError("the draft and the zoo spec disagree on Connections: turn it on for both or neither")
    turns = turns_of(trace, seat)
    n = len(zoo_game.domains["turn"].atoms)
    if len(turns) != n:
        raise StateError(f"seat {seat} took {len(turns)} turns in this trace; a finished draft gives each player {n}")
    if len(tiles) != n:
        raise StateError(f"--tiles names {len(tiles)} tiles; seat {seat} took one on each of its {n} turns")
    return {"with": ["multiplayer"] + (["connections"] if rails else []),
            "deck": {str(i): (tiles[i - 1] if i <= n else "no_tile") for i in zoo_game.domains["deckpos"].atoms},
            "act": {str(u): a for u, (a, _, _) in enumerate(turns, 1)},
            "took": {str(u): took for u, (_, took, _) in enumerate(turns, 1)},
            "goal": goal, "card": card, "advanced": advanced, "mono": mono,
            "railed": {str(u): m for u, (_, _, m) in enumerate(turns, 1)}}
