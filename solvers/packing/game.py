"""A game spec read as a packing question, through its `packing:` section.

The section (zoospec/front/packing.py, which checks its constants at load) names constants, never
code: the boards (map[K] set[cell]) and a key pattern choosing one from --players and --seat, and
the piece sets (map[K] shape, optionally map[K] int counts, plus tags). So a new packing game
needs YAML only.
"""
from __future__ import annotations

from zoospec.builtins.polyomino import Shape
from zoospec.errors import Loc, Problem, SpecError
from zoospec.runtime.game import Game

from .model import Board, Piece


def _fail(game: Game, msg: str):
    raise SpecError([Problem(game.packing.loc, msg)])


def _section(game: Game):
    if game.packing is None:
        raise SpecError([Problem(Loc(game.file, 1, 1), f"game {game.id} has no packing section")])
    return game.packing


def board_keys(game: Game) -> list[str]:
    return [str(k) for k in game.consts[_section(game).boards][1]]


def board(game: Game, players: int | None = None, seat: int | None = None, key: str | None = None) -> Board:
    """The board for --players/--seat (through the key pattern) or for an explicit key."""
    spec = _section(game)
    t, v = game.consts[spec.boards]
    if key is None:
        if players is None or seat is None:
            _fail(game, "choose a board with --players and --seat (or --board-key)")
        key = spec.key.replace("{players}", str(players)).replace("{seat}", str(seat))
    by_name = {str(k): k for k in v}
    if key not in by_name:
        _fail(game, f"no board '{key}' in constant '{spec.boards}'; boards: {', '.join(by_name)}")
    grid = game.domains[t.value.elem.domain]
    return Board(frozenset(grid.pos[a] for a in v[by_name[key]]), f"{game.id}:{key}")


def pieces(game: Game) -> list[Piece]:
    out: list[Piece] = []
    for entry in _section(game).pieces:
        shapes = game.consts[entry.shapes][1]
        counts = game.consts[entry.counts][1] if entry.counts else {}
        for k, shape in shapes.items():
            n = counts.get(k, 1)
            if not isinstance(shape, Shape) or n < 0:
                _fail(game, f"piece {k}: expected a shape and a count >= 0")
            if n:
                out.append(Piece(str(k), shape, n, entry.tags))
    return out
