"""What a packing question is about: a board (a set of grid cells), pieces (polyominoes with a
count and tags), their placements on the board, and a packing (a list of placements).

Everything here is plain data; the search engines and the certificate checker all read it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from zoospec.builtins.polyomino import Shape, orientations

Cell = tuple[int, int]


@dataclass(frozen=True)
class Board:
    cells: frozenset[Cell]
    name: str = "board"

    @staticmethod
    def from_rows(rows: list[str], name: str = "board") -> "Board":
        return Board(frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"), name)

    @staticmethod
    def rectangle(height: int, width: int) -> "Board":
        return Board(frozenset((r, c) for r in range(height) for c in range(width)), f"{height}x{width}")

    @property
    def height(self) -> int:
        return 1 + max((r for r, _ in self.cells), default=-1)

    @property
    def width(self) -> int:
        return 1 + max((c for _, c in self.cells), default=-1)

    @property
    def area(self) -> int:
        return len(self.cells)

    def rows(self) -> list[str]:
        return ["".join("#" if (r, c) in self.cells else "." for c in range(self.width)) for r in range(self.height)]


@dataclass(frozen=True)
class Piece:
    name: str
    shape: Shape
    count: int = 1
    tags: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return self.shape.size


@dataclass(frozen=True)
class Placement:
    """One way to lay piece number `piece`: the board cells it covers."""

    piece: int
    cells: frozenset[Cell]


@dataclass(frozen=True)
class Options:
    exact: bool = True       # every board cell covered (False: gaps allowed, coverage maximised)
    use_all: bool = False    # every copy of every piece placed
    mirror: bool = True      # pieces may be flipped as well as turned


@dataclass
class Problem:
    board: Board
    pieces: list[Piece]
    options: Options = field(default_factory=Options)

    @property
    def supply_area(self) -> int:
        return sum(p.size * p.count for p in self.pieces)

    @cached_property
    def placements(self) -> list[Placement]:
        """Every placement of every piece on the board, in a fixed order (piece, orientation, cell):
        each orientation's first cell is put on each board cell in turn."""
        out = []
        cells = self.board.cells
        order = sorted(cells)
        for i, p in enumerate(self.pieces):
            seen = set()
            for o in sorted(orientations(p.shape, self.options.mirror)):
                ar, ac = o.cells[0]
                rel = [(r - ar, c - ac) for r, c in o.cells]
                for r0, c0 in order:
                    cov = [(r0 + dr, c0 + dc) for dr, dc in rel]
                    if all(x in cells for x in cov):
                        fs = frozenset(cov)
                        if fs not in seen:
                            seen.add(fs)
                            out.append(Placement(i, fs))
        return out


@dataclass(frozen=True)
class Packing:
    """A witness: the placements laid, in the order the search laid them."""

    problem: Problem
    placed: tuple[Placement, ...]

    @property
    def covered(self) -> int:
        return sum(len(p.cells) for p in self.placed)

    def owner(self) -> dict[Cell, int]:
        """Board cell -> index into `placed` of the placement covering it."""
        return {c: k for k, p in enumerate(self.placed) for c in p.cells}

    def to_json(self) -> dict:
        pieces = self.problem.pieces
        return {
            "board": self.problem.board.rows(),
            "covered": self.covered,
            "area": self.problem.board.area,
            "placements": [{"piece": pieces[p.piece].name, "cells": sorted([r, c] for r, c in p.cells)}
                           for p in self.placed],
        }
