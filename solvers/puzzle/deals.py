"""Seeded deals for a puzzle: what chance decides at setup.

A spec says how it is dealt with chance actions (`puzzle.dealt_by`): from the start state, chance
takes one of their legal moves at a time, each equally likely under a seeded generator, until none
is legal; the deal is read off the state that leaves. A game whose setup the language cannot yet
say has a sampler of its own in `solvers/games/<game>/`, found by the spec's id. Either way the
deal is judged by the spec's deal rules in the Python back end: a sampler that drifts from the
rules fails loudly, it is never trusted as a second copy of them.
"""
from __future__ import annotations

import random

from zoospec.errors import InternalError, StateError

from .. import games
from ..moves import legal_moves
from ..symbolic import broken_invariants

# a dealing that has not stopped after this many moves is a spec whose dealing actions stay legal
MOST_MOVES = 100_000


def deal(game, seed: int, options: dict | None = None) -> dict:
    """The deal of `seed`: the puzzle's deal variables. `options`: a game sampler's own (e.g.
    Zoo-ography's advanced game), refused where the game has none."""
    options = options or {}
    hooks = games.hooks_for(game)
    if game.puzzle is not None and game.puzzle.dealt_by:
        if options:
            raise StateError(f"{game.title} is dealt by its chance actions; {', '.join(options)} does not apply")
        d = chance_deal(game, seed)
    elif hooks is not None and hasattr(hooks, "sample_deal"):
        d = hooks.sample_deal(game, seed, **options)
    else:
        raise StateError(f"{game.title} says no way to deal from a seed (no `dealt_by` in its puzzle): give deal files instead")
    state = dict(game.start_state() if game.start is not None else {})
    state.update(d)
    broken = broken_invariants(game, state, f"{game.id}.deal.")
    if broken:
        raise InternalError(f"deal {seed} breaks {', '.join(broken)}: the sampler and the rules disagree")
    return d


def chance_deal(game, seed: int) -> dict:
    """Play the puzzle's dealing actions from the start state, each move chosen uniformly among
    the legal ones (moves listed in action and domain order, so a seed always deals the same)."""
    rng = random.Random(seed)
    actions = [game.action(a) for a in game.puzzle.dealt_by]
    state = game.start_state()
    for _ in range(MOST_MOVES):
        moves = legal_moves(game, state, actions)
        if not moves:
            return {v: state[v] for v in game.puzzle.deal}
        m = rng.choice(moves)
        state = game.apply(state, m.action, m.args)
    raise StateError(f"dealing {game.title} did not stop after {MOST_MOVES} moves of {', '.join(game.puzzle.dealt_by)}: "
                     f"some dealing action stays legal")


class Seeds:
    """Seeds as the ranges they were given in ('1-1000000000', '3,5,9-12'), never listed out: a
    sweep over a billion deals starts at once and holds only the deals being asked."""

    def __init__(self, ranges: list[range]):
        self.ranges = ranges

    def __iter__(self):
        for i, r in enumerate(self.ranges):  # in the order given; a seed given twice ('1-5,3') once
            earlier = self.ranges[:i]
            yield from (s for s in r if not any(s in e for e in earlier))

    def __contains__(self, seed) -> bool:
        return isinstance(seed, int) and any(seed in r for r in self.ranges)

    def __len__(self) -> int:
        rs = sorted(self.ranges, key=lambda r: r.start)
        if any(a.stop > b.start for a, b in zip(rs, rs[1:])):  # overlapping: count them once each
            return sum(1 for _ in self)
        return sum(len(r) for r in rs)


def parse_range(text: str) -> Seeds:
    """'1-1000' or '3,5,9-12' → the seeds (lazily)."""
    out: list[range] = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise StateError(f"--deals: expected seeds like 1-1000 or 3,5,9-12, got {text!r}") from None
        if b < a:
            raise StateError(f"--deals: {part} runs backwards")
        out.append(range(a, b + 1))
    return Seeds(out)
