"""Extra rules from a separate YAML file, checked against a game that is already loaded.

Used for questions a user poses on top of a spec — the packing engine's side constraints, say:

    constraints:
      - id: side.corner
        says: the top-left cell is covered by an attraction
        body: "piece_at[at(0, 0, grid=cell)] in tagged[attraction]"

Each entry becomes a legality rule of the game, compiled by both back ends like any other;
errors point into the overlay file.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import Problem, SpecError
from ..runtime.game import Game
from .loader import Loader
from .yamlload import load_file, load_text

RULE_ID = re.compile(r"^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$")
FIELDS = {"id", "says", "body", "cite", "params"}


def add_rules(game: Game, path: str | Path | None = None, text: str | None = None, section: str = "constraints") -> list[str]:
    """Compile the overlay's entries into `game` (mutated); returns their rule ids."""
    doc = load_file(path) if text is None else load_text(text, str(path or "<string>"))
    data = doc.data
    problems: list[Problem] = []
    if not isinstance(data, dict) or not isinstance(data.get(section), list):
        raise SpecError([Problem(doc.loc(()), f"expected a mapping with a '{section}' list")])
    raw = []
    for i, r in enumerate(data[section]):
        p = (section, i)
        if not isinstance(r, dict):
            problems.append(Problem(doc.loc(p), "each entry is a mapping with id, says and body"))
            continue
        extra = set(r) - FIELDS
        missing = {"id", "says", "body"} - set(r)
        if extra or missing:
            what = [f"unknown field(s) {', '.join(sorted(extra))}"] if extra else []
            what += [f"missing {', '.join(sorted(missing))}"] if missing else []
            problems.append(Problem(doc.loc(p), f"{'; '.join(what)} (an entry has id, says, body and optionally cite, params)"))
            continue
        if not isinstance(r["id"], str) or not RULE_ID.match(r["id"]):
            problems.append(Problem(doc.loc(p + ("id",)), "an id is dotted lowercase words, like side.corner"))
            continue
        if not isinstance(r["body"], str) or not isinstance(r["says"], str):
            problems.append(Problem(doc.loc(p), "says and body are strings", r["id"]))
            continue
        if r.get("cite") is not None and not (isinstance(r["cite"], dict) and isinstance(r["cite"].get("section"), str)):
            problems.append(Problem(doc.loc(p + ("cite",)), "a cite is a mapping with a section (and optionally sentence)", r["id"]))
            continue
        raw.append({"kind": "legality", "cite": None, **r})
    if problems:
        raise SpecError(problems)
    loader = Loader(doc, {}, {})
    loader.g = game
    loader.atoms = loader._atom_table()
    loader.define_sig = game.define_sigs.get
    before = set(game.rules)
    loader.rules(raw, section)
    if loader.problems:
        for rid in set(game.rules) - before:
            del game.rules[rid]
        raise SpecError(loader.problems)
    return [r["id"] for r in raw]
