"""Zoo Parque's Python: domino sets drawn from a seed with the spec's own grounds, animals and
passports (`dominoes.py`, ADR 0007), the `dominoes` command, and `play`'s start when an expansion
is on (the spec's example set holds none of an expansion's dominoes)."""
from __future__ import annotations

from . import dominoes
from .commands import commands  # noqa: F401  (a hook: solvers/games/__init__.py)

SPEC_IDS = ("zp",)


def play_start(game, start: dict, seed: int, say) -> dict | None:
    """With an expansion on, a set drawn from the seed with its dominoes; else None (the spec's own)."""
    boxes = dominoes.boxes(game)
    if boxes == {"base"}:
        return None
    say(f"(a domino set drawn from seed {seed} with {', '.join(sorted(boxes - {'base'}))}: the example set has none of their dominoes)")
    return dominoes.start_with(game, seed, start["players"])
