"""Polyominoes: shapes, their orientations (rotations and mirrors, deduplicated) and their
placements on a board mask. Shapes are always concrete, so the Z3 side works on the same
Python values (a placement set is a constant set of cell sets)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, order=True)
class Shape:
    """A polyomino: cells (row, col) translated so the smallest row and column are 0."""

    cells: tuple[tuple[int, int], ...]

    @staticmethod
    def of(cells) -> "Shape":
        cells = list(cells)
        if not cells:
            raise ValueError("a shape needs at least one cell")
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        return Shape(tuple(sorted({(r - r0, c - c0) for r, c in cells})))

    @staticmethod
    def from_rows(rows: list[str]) -> "Shape":
        """Rows top to bottom; '#', 'X' or '1' is a cell, '.', ' ' or '0' is not."""
        cells = []
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in "#X1":
                    cells.append((r, c))
                elif ch not in ". 0":
                    raise ValueError(f"unexpected character {ch!r} in shape row {row!r}")
        return Shape.of(cells)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    def rows(self) -> list[str]:
        s = set(self.cells)
        return ["".join("#" if (r, c) in s else "." for c in range(self.width)) for r in range(self.height)]

    def rotated(self) -> "Shape":
        return Shape.of((c, -r) for r, c in self.cells)

    def mirrored(self) -> "Shape":
        return Shape.of((r, -c) for r, c in self.cells)

    def __str__(self):
        return "/".join(self.rows())


def orientations(shape: Shape, mirror: bool = True) -> frozenset[Shape]:
    out = set()
    s = shape
    for _ in range(4):
        out.add(s)
        if mirror:
            out.add(s.mirrored())
        s = s.rotated()
    return frozenset(out)


def placements(shape: Shape, board: dict[tuple[int, int], object], mirror: bool = True) -> frozenset[frozenset]:
    """Every set of board atoms the shape can cover (any orientation, any offset), given
    `board` mapping (row, col) to the atom of each cell on the board."""
    return _placements(shape, frozenset(board.items()), mirror)


@lru_cache(maxsize=4096)
def _placements(shape: Shape, items: frozenset, mirror: bool) -> frozenset[frozenset]:
    """Cached: rule checks ask for the same shape on the same board again and again."""
    board = dict(items)
    out = set()
    if not board:
        return frozenset()
    rows = [r for r, _ in board]
    cols = [c for _, c in board]
    for o in orientations(shape, mirror):
        for dr in range(min(rows), max(rows) - o.height + 2):
            for dc in range(min(cols), max(cols) - o.width + 2):
                try:
                    out.add(frozenset(board[(r + dr, c + dc)] for r, c in o.cells))
                except KeyError:
                    continue
    return frozenset(out)
