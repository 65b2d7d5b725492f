"""Zoo-ography's Python: the multiplayer draft's link to its zoos (`draft_deals.py`,
`draft_result.py`, and their commands in `commands.py`), and the options of the seeded solo deal
(the spec's chance actions deal it; the player's choices are set before they do)."""
from __future__ import annotations

from .commands import commands  # noqa: F401  (a hook: solvers/games/__init__.py)

SPEC_IDS = ("zg", "zgd")  # the solo record and the multiplayer draft


def deal_arguments(p):
    p.add_argument("--advanced", action="store_true",
                   help="Zoo-ography: deal the advanced game (a bronze objective), on the layout card's advanced side")
    p.add_argument("--advanced-layout", action="store_true",
                   help="Zoo-ography: the layout card's advanced side (its red border) in a standard game")


def deal_options(args) -> dict:
    return {k: True for k in ("advanced", "advanced_layout") if getattr(args, k, False)}
