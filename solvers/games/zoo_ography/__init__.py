"""Zoo-ography's Python: the multiplayer draft's link to its zoos (`draft_deals.py`,
`draft_result.py`, and their commands in `commands.py`). Its seeded solo deal is the spec's own
chance actions (ADR 0039)."""
from __future__ import annotations

from .commands import commands  # noqa: F401  (a hook: solvers/games/__init__.py)

SPEC_IDS = ("zg", "zgd")  # the solo record and the multiplayer draft

