"""What is still one game's Python, each game in a folder of its own, found by its spec's id.

The rule language says almost everything a game is; what it cannot say yet lives here (issue 45:
it is to become spec data), and nothing outside a game's folder names the game. A game's package
declares `SPEC_IDS` (the `game.id` of the specs it serves) and this hook:
- `commands() -> [(name, help, add_arguments, run)]`: subcommands of its own; `run(args)` returns
  an exit code and raises StateError or SpecError for bad input, as every command does.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache


@lru_cache(maxsize=None)
def registry() -> dict:
    """Spec id -> the game package that serves it."""
    out = {}
    for info in pkgutil.iter_modules(__path__):
        pkg = importlib.import_module(f"{__name__}.{info.name}")
        for sid in pkg.SPEC_IDS:
            out[sid] = pkg
    return out


def hooks_for(game):
    """The package of the game a loaded spec belongs to, or None (most games need none)."""
    return registry().get(game.id)


def all_games() -> list:
    """Every game package, once each, in name order."""
    return sorted(set(registry().values()), key=lambda p: p.__name__)
