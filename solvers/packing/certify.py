"""The packing rules of spec/packing/rules.yaml, instantiated for one question, and the check
that turns every witness into a state and runs the compiled Python predicates on it.

A witness that fails any rule is never printed as an answer: `certify` raises InternalError,
because it means an engine is wrong, not that the puzzle is hard.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import yaml

from zoospec.errors import InternalError
from zoospec.front.catalog import SPEC_DIR
from zoospec.front.loader import loads
from zoospec.front.overlay import add_rules
from zoospec.runtime.game import Game

from .model import Packing, Problem

RULES_FILE = SPEC_DIR / "packing" / "rules.yaml"
NONE = "none"


@dataclass
class Vocabulary:
    """The packing game for one problem: its rules plus any side constraints."""

    game: Game
    side: list[str]            # rule ids of the side constraints
    parts: int                 # largest part number the state may use

    def rule_ids(self) -> list[str]:
        return list(self.game.rules)


def components(problem: Problem, parts: int) -> dict:
    b, pieces = problem.board, problem.pieces
    width, height = max(b.width, 1), max(b.height, 1)
    names = [NONE] + [p.name for p in pieces]
    tags = sorted({t for p in pieces for t in p.tags}) or ["untagged"]
    mask = ["".join("#" if (r, c) in b.cells else "." for c in range(width)) for r in range(height)]
    o = problem.options
    return {
        "domains": {
            "cell": {"grid": {"width": width, "height": height}},
            "piece": {"enum": names},
            "part": {"range": [0, parts]},
            "count": {"range": [0, max([p.count for p in pieces], default=0)]},
            "tag": {"enum": tags},
        },
        "constants": {
            "board": {"type": "set[cell]", "value": {"rows": mask}},
            "supply": {"type": "map[piece] int", "value": {NONE: 0, **{p.name: p.count for p in pieces}}},
            "size": {"type": "map[piece] int", "value": {NONE: 0, **{p.name: p.size for p in pieces}}},
            "shape": {"type": "map[piece] shape", "value": {NONE: ["#"], **{p.name: p.shape.rows() for p in pieces}}},
            "tagged": {"type": "map[tag] set[piece]",
                       "value": {t: [p.name for p in pieces if t in p.tags] for t in tags}},
            "exact": {"type": "bool", "value": o.exact},
            "use_all": {"type": "bool", "value": o.use_all},
            "mirror": {"type": "bool", "value": o.mirror},
        },
    }


def vocabulary(problem: Problem, constraints: str | None = None, parts: int | None = None) -> Vocabulary:
    """Load the packing rules for this problem (and the side constraints file, if any)."""
    parts = parts if parts is not None else max(problem.board.area, 1)
    text = RULES_FILE.read_text(encoding="utf-8")
    text += "\n" + yaml.safe_dump({"components": components(problem, parts)}, sort_keys=False)
    if not constraints:
        return Vocabulary(_load(text), [], parts)
    game = loads(text, str(RULES_FILE))  # a fresh game: the side constraints are added to it
    return Vocabulary(game, add_rules(game, constraints), parts)


@lru_cache(maxsize=32)
def _load(text: str) -> Game:
    """The same question asked again (a benchmark, a session) reuses its loaded rules."""
    return loads(text, str(RULES_FILE))


def state_json(packing: Packing, parts: int) -> dict:
    """The witness as a packing state; raises InternalError when two placements overlap."""
    pieces = packing.problem.pieces
    b = packing.problem.board
    width, height = max(b.width, 1), max(b.height, 1)
    piece_at = {f"{r},{c}": NONE for r in range(height) for c in range(width)}
    part_at = {k: 0 for k in piece_at}
    used = {NONE: 0, **{p.name: 0 for p in pieces}}
    if len(packing.placed) > parts:
        raise InternalError(f"witness lays {len(packing.placed)} pieces, more than the {parts} parts allowed")
    for k, pl in enumerate(packing.placed, 1):
        name = pieces[pl.piece].name if pl.piece >= 0 else NONE
        if name != NONE:
            used[name] += 1
        for r, c in pl.cells:
            key = f"{r},{c}"
            if key not in piece_at:
                raise InternalError(f"witness: cell {key} lies outside the {height}x{width} grid")
            if piece_at[key] != NONE:
                raise InternalError(f"witness: cell {key} is covered twice")
            if name != NONE:
                piece_at[key], part_at[key] = name, k
    return {"piece_at": piece_at, "part_at": part_at, "used": used}


def violations(vocab: Vocabulary, packing: Packing) -> list[str]:
    """The rule ids (packing rules and side constraints) the witness breaks."""
    g = vocab.game
    state = g.state_from_json(state_json(packing, vocab.parts))
    return [rid for rid, rule in g.rules.items() if not rule.holds(state)]


def certify(vocab: Vocabulary, packing: Packing) -> Packing:
    bad = violations(vocab, packing)
    if bad:
        raise InternalError(f"an engine returned a packing that breaks {', '.join(bad)}; not reporting it")
    return packing
