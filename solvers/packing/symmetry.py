"""Counting packings up to the board's own symmetries, exactly.

The board's symmetry group G is the set of the 8 turns and flips of the square grid (only the 4
turns when pieces may not be flipped) that map the board onto itself. Counting orbits of
solutions uses a piece P with a single copy: every orbit of solutions with P placed meets
"P at p" for exactly one representative p of P's placement orbits, and it meets it in one
solution when no symmetry fixes p — so those counts are plain counts with P forced at p.
Where a symmetry fixes p we recurse with the stabiliser of p; solutions without P are counted
(again up to G) with P forbidden. With no single-copy piece left we enumerate and keep one
canonical form per orbit. Every step is exact; the classic pentomino counts check it.
"""
from __future__ import annotations

from .matrix import Matrix
from .model import Board, Placement
from .search import Budget, run

Sym = dict  # board cell -> board cell

_OPS = [lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
        lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (c, r), lambda r, c: (-c, -r)]


def board_group(board: Board, mirror: bool = True) -> list[Sym]:
    """The symmetries of the board (identity first)."""
    if not board.cells:
        return [{}]
    out = []
    r0 = min(r for r, _ in board.cells)
    c0 = min(c for _, c in board.cells)
    for op in _OPS[: 8 if mirror else 4]:
        moved = {cell: op(*cell) for cell in board.cells}
        mr = min(r for r, _ in moved.values())
        mc = min(c for _, c in moved.values())
        f = {cell: (r - mr + r0, c - mc + c0) for cell, (r, c) in moved.items()}
        if set(f.values()) == board.cells:
            out.append(f)
    return out


def image(g: Sym, p: Placement) -> Placement:
    return Placement(p.piece, frozenset(g[c] for c in p.cells))


def canonical(solution, group: list[Sym]) -> tuple:
    return min(tuple(sorted((p.piece, tuple(sorted(image(g, p).cells))) for p in solution)) for g in group)


def orbit_representatives(m: Matrix, piece: int, group: list[Sym]):
    """(row, stabiliser) for one placement of `piece` per orbit of its placements."""
    rows = {lab: k for k, lab in enumerate(m.labels) if lab.piece == piece}
    seen, reps = set(), []
    for lab, k in rows.items():
        if lab in seen:
            continue
        orbit = {image(g, lab) for g in group}
        seen |= orbit
        reps.append((k, [g for g in group if image(g, lab) == lab]))
    return reps


def count_orbits(m: Matrix, group: list[Sym], budget: Budget) -> tuple[bool, int]:
    """(complete, number of solutions of m up to `group`); m must be invariant under `group`."""
    if len(group) == 1:
        o = run(m, budget)
        return o.complete, o.count
    pieces = sorted({lab.piece for lab in m.labels if lab.piece >= 0
                     and ("piece", lab.piece) in m.items and m.caps[m.items.index(("piece", lab.piece))] == 1})
    best = None
    for piece in pieces:
        reps = orbit_representatives(m, piece, group)
        score = (sum(len(stab) > 1 for _, stab in reps), len(reps))
        if best is None or score < best[0]:
            best = (score, piece, reps)
    if best is None:
        return _enumerate_orbits(m, group, budget)
    _, piece, reps = best
    total = 0
    for row, stab in reps:
        done, n = count_orbits(m.force(row), stab, budget)
        total += n
        if not done:
            return False, total
    if not m.is_primary_piece(piece):
        done, n = count_orbits(m.without_piece(piece), group, budget)
        total += n
        if not done:
            return False, total
    return True, total


def _enumerate_orbits(m: Matrix, group: list[Sym], budget: Budget) -> tuple[bool, int]:
    o = run(m, budget, keep=1 << 62)
    return o.complete, len({canonical(sol, group) for sol in o.solutions})
