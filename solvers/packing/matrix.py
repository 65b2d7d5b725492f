"""The exact-cover matrix of a packing problem, and the two moves the symmetry reduction needs:
force a placement, or forbid a piece.

Items: one primary item per board cell (covered exactly once); one item per piece, primary when
the piece must be used and has a single copy, otherwise secondary with capacity = its count; in
gap mode one secondary `gap` item whose capacity is the number of cells allowed to stay empty,
with one monomino row per cell.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .model import Placement, Problem

GAP = -1  # the piece index of a gap row


@dataclass
class Matrix:
    items: list[tuple]             # ("cell", (r, c)) | ("piece", i) | ("gap",)
    n_primary: int
    caps: list[int]
    rows: list[tuple[int, ...]]    # item indices
    labels: list[Placement]        # what each row lays (piece GAP for an empty cell)
    fixed: tuple[Placement, ...] = field(default=())  # forced before the search

    @staticmethod
    def of(problem: Problem, gaps: int = 0, must_use: bool = False) -> "Matrix":
        """`must_use`: every piece is used (declared, or implied by area in exact mode)."""
        cells = sorted(problem.board.cells)
        single = [i for i, p in enumerate(problem.pieces) if p.count == 1]
        multi = [i for i, p in enumerate(problem.pieces) if p.count > 1]
        prim_pieces = single if must_use else []
        sec_pieces = multi + ([] if must_use else single)
        items = [("cell", c) for c in cells] + [("piece", i) for i in prim_pieces]
        n_primary = len(items)
        items += [("piece", i) for i in sec_pieces]
        caps = [1] * n_primary + [problem.pieces[i].count for i in sec_pieces]
        if gaps > 0:
            items.append(("gap",))
            caps.append(gaps)
        index = {it: k for k, it in enumerate(items)}
        rows, labels = [], []
        for pl in problem.placements:
            rows.append(tuple([index[("piece", pl.piece)]] + [index[("cell", c)] for c in sorted(pl.cells)]))
            labels.append(pl)
        if gaps > 0:
            for c in cells:
                rows.append((index[("gap",)], index[("cell", c)]))
                labels.append(Placement(GAP, frozenset([c])))
        return Matrix(items, n_primary, caps, rows, labels)

    def force(self, r: int) -> "Matrix":
        """The matrix left once row r is laid: its primary items gone with every row touching
        them, its secondary items one use poorer (gone at zero)."""
        used = set(self.rows[r])
        gone = {i for i in used if i < self.n_primary or self.caps[i] == 1}
        keep_items = [i for i in range(len(self.items)) if i not in gone]
        remap = {old: new for new, old in enumerate(keep_items)}
        caps = [self.caps[i] - (1 if i in used else 0) for i in keep_items]
        rows, labels = [], []
        for k, row in enumerate(self.rows):
            if k == r or any(i in gone for i in row):
                continue
            rows.append(tuple(remap[i] for i in row))
            labels.append(self.labels[k])
        n_primary = sum(1 for i in keep_items if i < self.n_primary)
        return Matrix([self.items[i] for i in keep_items], n_primary, caps, rows, labels,
                      self.fixed + (self.labels[r],))

    def without_piece(self, piece: int) -> "Matrix":
        """The matrix in which `piece` is never laid (it must be secondary)."""
        keep = [k for k, lab in enumerate(self.labels) if lab.piece != piece]
        return Matrix(self.items, self.n_primary, self.caps, [self.rows[k] for k in keep],
                      [self.labels[k] for k in keep], self.fixed)

    def is_primary_piece(self, piece: int) -> bool:
        return ("piece", piece) in self.items[:self.n_primary]
