"""Cheap necessary conditions, tried before any search so that a hopeless board is refused at
once — each failure is a proof, and says which argument proved it.

- area: the pieces must have enough cells (exactly as many when all must be used);
- reach: every cell must lie under some placement (exact cover), every piece must have a
  placement (when all are used);
- regions and colouring: colour the board like a checkerboard; a piece always covers b black
  and w white cells with |b - w| fixed by its shape, the sign chosen by where it lies. Each
  connected region of the board must be filled by pieces whose areas add up to the region's
  area and whose signed imbalances add up to the region's — a small subset-sum over
  (area, imbalance) pairs.
"""
from __future__ import annotations

from .model import Cell, Problem


def refute(problem: Problem) -> str | None:
    """A reason the problem has no solution, or None when these checks cannot tell."""
    o, board = problem.options, problem.board
    supply = problem.supply_area
    if o.exact and supply < board.area:
        return f"area: the pieces cover at most {supply} cells, the board has {board.area}"
    if o.use_all and supply > board.area:
        return f"area: all pieces together need {supply} cells, the board has {board.area}"
    if o.exact and o.use_all and supply != board.area:
        return f"area: all pieces need {supply} cells, an exact cover needs {board.area}"
    placed = {p.piece for p in problem.placements}
    if o.use_all:
        for i, p in enumerate(problem.pieces):
            if i not in placed:
                return f"reach: piece {p.name} fits nowhere on the board"
    if o.exact:
        reach = set().union(*(p.cells for p in problem.placements)) if problem.placements else set()
        for c in sorted(board.cells):
            if c not in reach:
                return f"reach: no piece can cover cell {c[0]},{c[1]}"
        return _regions(problem)
    return None


def regions(cells) -> list[set[Cell]]:
    left, out = set(cells), []
    while left:
        start = min(left)
        left.discard(start)
        comp, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for d in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if d in left:
                    left.discard(d)
                    comp.add(d)
                    stack.append(d)
        out.append(comp)
    return out


def _imbalance(cells) -> int:
    return sum(1 if (r + c) % 2 == 0 else -1 for r, c in cells)


def _reachable(problem: Problem, area_cap: int, use_all: bool) -> list[int]:
    """For each area a <= area_cap, a bit mask of the signed imbalances (bit b + area_cap) some
    choice of pieces of total area a can make."""
    full = (1 << (2 * area_cap + 1)) - 1
    states = [0] * (area_cap + 1)
    states[0] = 1 << area_cap
    for p in problem.pieces:
        d = abs(_imbalance(p.shape.cells))
        for k in range(p.count):
            nxt = [0] * (area_cap + 1) if use_all else list(states)
            for a in range(area_cap - p.size, -1, -1):
                m = states[a]
                if m:
                    nxt[a + p.size] |= ((m << d) | (m >> d)) & full
            states = nxt
    return states


def _has(states: list[int], area: int, imbalance: int, cap: int) -> bool:
    return area <= cap and bool(states[area] >> (imbalance + cap) & 1)


def _regions(problem: Problem) -> str | None:
    regs = regions(problem.board.cells)
    cap = problem.board.area
    total = (cap, _imbalance(problem.board.cells))
    if not _has(_reachable(problem, cap, problem.options.use_all), *total, cap):
        return (f"colouring: no choice of pieces covers {total[0]} cells with {abs(total[1])} more of one "
                f"checkerboard colour than the other")
    if len(regs) > 1:
        for reg in regs:
            want = (len(reg), _imbalance(reg))
            if not _has(_reachable(problem, len(reg), False), *want, len(reg)):
                r, c = min(reg)
                return (f"regions: the region of {len(reg)} cells at {r},{c} cannot be filled by any choice of "
                        f"pieces (area and checkerboard colouring)")
    return None
