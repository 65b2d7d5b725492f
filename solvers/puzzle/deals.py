"""Seeded deals for a puzzle: what chance decides at setup.

The spec's `dealing` section deals a game from its start state (solvers/dealing.py); the deal is
the puzzle's deal variables read off the state it leaves, judged by the spec's deal rules.
"""
from __future__ import annotations

from zoospec.errors import StateError
from zoospec.suggest import suggest

from ..dealing import deal_state
from ..symbolic import broken_invariants


def deal(game, seed: int, fixed: dict | None = None) -> dict:
    """The deal of `seed`: the puzzle's deal variables as the spec's dealing leaves them.
    `fixed`: deal variables the player sets before chance deals the rest (e.g. Zoo-ography's
    advanced game: `{"advanced": True}`)."""
    pz = game.puzzle
    if pz is None or game.dealing is None:
        raise StateError(f"{game.title} says no way to deal from a seed (no `dealing` section): give deal files instead")
    unknown = sorted(set(fixed or {}) - set(pz.deal))
    if unknown:
        raise StateError(f"{unknown[0]}: not a deal variable of {game.title}{suggest(unknown[0], pz.deal)} (it deals {', '.join(pz.deal)})")
    d = {v: x for v, x in deal_state(game, seed, fixed=fixed).items() if v in pz.deal}
    state = dict(game.start_state())
    state.update(d)
    broken = broken_invariants(game, state, f"{game.id}.deal.")
    if broken:
        raise StateError(f"{game.title}: deal {seed} breaks {', '.join(broken)}: the spec's dealing actions and its rules disagree")
    return d


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
