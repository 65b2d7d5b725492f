"""A game spec read as a packing question, through its `packing:` section.

The section names constants, never code: the board constant (map[K] set[cell]) and a key pattern
choosing one board from --players and --seat, and the piece constants (map[K] shape, optionally
map[K] int counts, plus tags). So a new packing game needs YAML only.
"""
from __future__ import annotations

from zoospec.builtins.polyomino import Shape
from zoospec.errors import Problem, SpecError
from zoospec.ir.types import IntT, MapT, SetT, ShapeT
from zoospec.runtime.game import Game

from .model import Board, Piece


def _fail(game: Game, msg: str):
    raise SpecError([Problem(game.packing_loc, msg)])


def _const(game: Game, name: str, ok, want: str):
    if name not in game.consts:
        _fail(game, f"packing names constant '{name}', which the spec does not define")
    t, v = game.consts[name]
    if not ok(t):
        _fail(game, f"packing constant '{name}' has type {t}; expected {want}")
    return t, v


def board_keys(game: Game) -> list[str]:
    _, v = _const(game, game.packing["boards"]["constant"], lambda t: isinstance(t, MapT), "map[K] set[cell]")
    return [str(k) for k in v]


def board(game: Game, players: int | None = None, seat: int | None = None, key: str | None = None) -> Board:
    """The board for --players/--seat (through the key pattern) or for an explicit key."""
    if game.packing is None:
        raise SpecError([Problem(game.packing_loc, f"game {game.id} has no packing section")])
    spec = game.packing["boards"]
    t, v = _const(game, spec["constant"], lambda t: isinstance(t, MapT) and isinstance(t.value, SetT), "map[K] set[cell]")
    if key is None:
        if players is None or seat is None:
            _fail(game, "choose a board with --players and --seat (or --board-key)")
        key = spec["key"].replace("{players}", str(players)).replace("{seat}", str(seat))
    by_name = {str(k): k for k in v}
    if key not in by_name:
        _fail(game, f"no board '{key}' in constant '{spec['constant']}'; boards: {', '.join(by_name)}")
    grid = game.domains[t.value.elem.domain]
    return Board(frozenset(grid.pos[a] for a in v[by_name[key]]), f"{game.id}:{key}")


def pieces(game: Game) -> list[Piece]:
    if game.packing is None:
        raise SpecError([Problem(game.packing_loc, f"game {game.id} has no packing section")])
    out: list[Piece] = []
    for entry in game.packing["pieces"]:
        _, shapes = _const(game, entry["shapes"], lambda t: isinstance(t, MapT) and isinstance(t.value, ShapeT), "map[K] shape")
        counts = {}
        if "counts" in entry:
            _, counts = _const(game, entry["counts"], lambda t: isinstance(t, MapT) and isinstance(t.value, IntT), "map[K] int")
        for k, shape in shapes.items():
            n = counts.get(k, 1)
            if not isinstance(shape, Shape) or n < 0:
                _fail(game, f"piece {k}: expected a shape and a count >= 0")
            if n:
                out.append(Piece(str(k), shape, n, tuple(entry.get("tags", ()))))
    return out

