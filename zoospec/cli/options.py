"""Options several commands share, declared once."""
from __future__ import annotations


def add_game_choices(p):
    """`--reading ID=CHOICE` and `--with SWITCH,...`: which meaning of an ambiguous sentence, and
    which variants or expansions, the game is loaded under (front/catalog.py reads them)."""
    p.add_argument("--reading", action="append", metavar="ID=CHOICE", help="choose a reading (repeatable)")
    p.add_argument("--with", dest="switches", action="append", metavar="SWITCH,...",
                   help="turn on variants or expansions (the spec's switches)")
