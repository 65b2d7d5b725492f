"""Where bundled games live, and how what a user types names a game: a bundled name or a spec
file, `--reading ID=CHOICE`, `--with SWITCH,...`."""
from __future__ import annotations

from pathlib import Path

from ..errors import Loc, Problem, SpecError
from ..suggest import suggest

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # zoospec/
# the checkout (or the source tree of an editable install) the package lives in; rulebooks are
# looked for beside it
PROJECT_DIR = PACKAGE_DIR.parent
# the bundled games, their schema, piece sets and deals: inside the package when installed from a
# wheel (pyproject.toml maps spec/ to zoospec/spec), beside it in a checkout
SPEC_DIR = PACKAGE_DIR / "spec" if (PACKAGE_DIR / "spec" / "schema").is_dir() else PROJECT_DIR / "spec"


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


def readings_arg(items) -> dict[str, str]:
    """`--reading ID=CHOICE` (repeatable) as {reading id: choice}."""
    out = {}
    for it in items or []:
        if "=" not in it:
            raise SpecError([Problem(Loc("--reading", 0, 0), f"expected ID=CHOICE, got {it!r}")])
        k, v = it.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def switches_arg(items) -> dict[str, bool]:
    """--with a,b (repeatable): those switches (variants, expansions) on. A switch name has no
    hyphen, so `strong-species` (as an expansion is written in prose) means `strong_species`."""
    return {n.strip().replace("-", "_"): True for it in items or [] for n in it.split(",") if n.strip()}
