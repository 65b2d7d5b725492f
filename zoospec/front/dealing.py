"""A spec's `dealing` section: how chance deals a game from a seed.

Setup is chance's part of a game (a shuffled deck, a printed domino set, the objectives on the
board). A spec says it with chance actions: from the start state, chance takes one legal move of
them at a time, as likely as its action's `weight` says, until none is legal (solvers/dealing.py
plays them). `with` names a switch that is on while they deal, so what only the dealing reads
(how far it has got) stays out of every other state; `play_when` says, over the switches, when
`play` starts from a dealt state rather than the `start` section (an example set holds none of an
expansion's pieces). One section for every use: `zoospec deal`, `solve --seed` and `sweep` read
the puzzle's deal off the dealt state, `play` plays from it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..ir.types import BOOL
from ..suggest import suggest


@dataclass(frozen=True)
class Dealing:
    says: str
    by: tuple[str, ...]  # the chance actions that deal
    switch: str | None = None  # on while they deal (not a variant)
    play_when: ir.Expr | None = None  # over the switches: `play` starts from a dealt state


def load(loader, raw: dict) -> Dealing | None:
    """Build the section (errors go to the loader, located in the file)."""
    g, p, ok = loader.g, ("dealing",), True
    for i, aid in enumerate(raw["by"]):
        if aid not in g.actions:
            loader.err(p + ("by", i), f"'{aid}' is not an action{suggest(aid, g.actions)}", "dealing")
            ok = False
    switch = raw.get("with")
    if switch is not None and switch not in g.switches:
        loader.err(p + ("with",), f"'{switch}' names no switch of the game{suggest(switch, g.switches)}", "dealing")
        ok = False
    if g.start is None:
        loader.err(p + ("by",), "dealing starts from the spec's start state, and it has no `start` section", "dealing")
        ok = False
    play_when = None
    if "play_when" in raw:
        play_when = loader.expr(raw["play_when"], p + ("play_when",), loader.scope(), "dealing", BOOL)
        read = sorted(ir.state_vars_read(play_when, g.defines)) if play_when is not None else []
        if read:
            loader.err(p + ("play_when",), f"reads the state ({', '.join(read)}): it is asked of the switches alone", "dealing")
        ok = ok and play_when is not None and not read
    return Dealing(raw["says"], tuple(raw["by"]), switch, play_when) if ok else None
