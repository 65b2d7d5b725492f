"""Seeded deals for a puzzle: what chance decides at setup.

A spec says how it is dealt with chance actions (`puzzle.dealt_by`): from the start state, chance
takes one of their legal moves at a time, each equally likely under a seeded generator, until none
is legal; the deal is read off the state that leaves. While they deal, the puzzle's `dealt_with`
switch is on: what only the dealing reads (how far it has got) lives in maps over a domain that
switch fills, so the record the deal is solved in holds none of it. The deal is judged by the
spec's deal rules in the Python back end: dealing actions that drift from the rules fail loudly.
"""
from __future__ import annotations

import random
import weakref

from zoospec.errors import InternalError, StateError
from zoospec.suggest import suggest

from ..moves import legal_moves
from ..symbolic import broken_invariants

# a dealing that has not stopped after this many moves is a spec whose dealing actions stay legal
MOST_MOVES = 100_000


def deal(game, seed: int, fixed: dict | None = None) -> dict:
    """The deal of `seed`: the puzzle's deal variables. `fixed`: deal variables the player sets
    before chance deals the rest (e.g. Zoo-ography's advanced game: `{"advanced": True}`)."""
    if game.puzzle is None or not game.puzzle.dealt_by:
        raise StateError(f"{game.title} says no way to deal from a seed (no `dealt_by` in its puzzle): give deal files instead")
    d = chance_deal(game, seed, fixed or {})
    state = dict(game.start_state() if game.start is not None else {})
    state.update(d)
    broken = broken_invariants(game, state, f"{game.id}.deal.")
    if broken:
        raise InternalError(f"deal {seed} breaks {', '.join(broken)}: the dealing actions and the rules disagree")
    return d


# game -> the same game under its puzzle's `dealt_with` switch, loaded once: a sweep deals seed
# after seed from one game, and loading the spec again was most of a deal's time (0.13 of 0.16 s)
_DEALERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _dealer(game):
    if not game.puzzle.dealt_with:
        return game
    if game not in _DEALERS:
        _DEALERS[game] = game.with_readings({}, {game.puzzle.dealt_with: True})
    return _DEALERS[game]


def chance_deal(game, seed: int, fixed: dict | None = None) -> dict:
    """Play the puzzle's dealing actions from the start state (with `fixed` set first), each move
    chosen uniformly among the legal ones (moves listed in action and domain order, so a seed
    always deals the same), under the puzzle's `dealt_with` switch."""
    pz = game.puzzle
    unknown = sorted(set(fixed or {}) - set(pz.deal))
    if unknown:
        raise StateError(f"{unknown[0]}: not a deal variable of {game.title}{suggest(unknown[0], pz.deal)} (it deals {', '.join(pz.deal)})")
    dealer = _dealer(game)
    rng = random.Random(seed)
    actions = [dealer.action(a) for a in pz.dealt_by]
    state = dealer.start_state()
    if fixed:
        state = dealer.state_from_json({**dealer.state_to_json(state), **fixed})
        chosen = {v: state[v] for v in fixed}
    for moves_made in range(MOST_MOVES):
        moves = legal_moves(dealer, state, actions)
        if not moves:
            if not moves_made:
                on = [s for s, v in game.switches.items() if v]
                raise StateError(f"{game.title} deals nothing from a seed{' with ' + ', '.join(on) + ' on' if on else ''}: "
                                 "no dealing action is legal at the start — give a deal file (--deal FILE)")
            overwritten = sorted(v for v in (fixed or {}) if state[v] != chosen[v])
            if overwritten:
                raise StateError(f"{', '.join(overwritten)}: the dealing of {game.title} deals it itself; it cannot be set before")
            return {v: state[v] for v in pz.deal}
        m = rng.choice(moves)
        state = dealer.apply(state, m.action, m.args)
    raise StateError(f"dealing {game.title} did not stop after {MOST_MOVES} moves of {', '.join(pz.dealt_by)}: "
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
