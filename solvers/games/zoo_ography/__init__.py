"""Zoo-ography's Python: the seeded solo deal (`deals.py`) and the multiplayer draft's link to its
zoos (`draft_deals.py`, `draft_result.py`, and their commands in `commands.py`)."""
from __future__ import annotations

from .commands import commands  # noqa: F401  (a hook: solvers/games/__init__.py)
from .deals import sample_deal  # noqa: F401  (a hook)

SPEC_IDS = ("zg", "zgd")  # the solo record and the multiplayer draft


def deal_arguments(p):
    p.add_argument("--advanced", action="store_true",
                   help="Zoo-ography: deal the advanced game (a bronze objective), on the layout card's advanced side")
    p.add_argument("--advanced-layout", action="store_true",
                   help="Zoo-ography: the layout card's advanced side (its red border) in a standard game")


def deal_options(args) -> dict:
    return {k: True for k in ("advanced", "advanced_layout") if getattr(args, k, False)}
