"""Where bundled games live, and how a command-line name finds its spec file."""
from __future__ import annotations

from pathlib import Path

from ..errors import Loc, Problem, SpecError
from ..suggest import suggest

# the checkout (or the source tree of an editable install) this package lives in
PROJECT_DIR = Path(__file__).resolve().parents[2]
SPEC_DIR = PROJECT_DIR / "spec"


def bundled() -> dict[str, Path]:
    """Game name (file stem) -> spec file, for every game shipped in spec/."""
    return {p.stem: p for p in sorted(SPEC_DIR.glob("*.yaml"))}


def game_path(name: str) -> Path:
    """A spec file path as given, or the bundled game of that name."""
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    games = bundled()
    if name not in games:
        raise SpecError([Problem(Loc(name, 0, 0), f"no bundled game '{name}'{suggest(name, games)}; "
                                                   f"bundled: {', '.join(games)}")])
    return games[name]
