"""Grid geometry: orthogonal adjacency, a cell's row and column, and the cell at (row, col)."""
from __future__ import annotations

import z3

from ..ir.domains import GridDomain
from ..ir.types import BOOL, AtomT, IntT
from ..smt import terms as zt
from .base import BuiltinDef, BuiltinError, grid_of, register


@register
class Adjacent(BuiltinDef):
    cheap = True
    name = "adjacent"
    signature = "adjacent(a: cell, b: cell) -> bool — the two cells share a side"

    def check(self, args, options, domains):
        if len(args) != 2:
            raise BuiltinError("adjacent takes two cells")
        grid_of(args[0], domains, "adjacent's first argument")
        if args[1] != args[0]:
            raise BuiltinError(f"adjacent's arguments must be cells of one grid, not {args[0]} and {args[1]}")
        return BOOL

    def py(self, args, options, ctx):
        g = ctx.domains[ctx.types[0].domain]
        return args[1] in g.neighbours(args[0])

    def py_positional(self, options, ctx):
        near = ctx.domains[ctx.types[0].domain].neighbours
        return lambda a, b: b in near(a)

    def z3(self, args, options, ctx):
        g = ctx.domains[ctx.types[0].domain]
        a, b = args
        if zt.is_int_value(a) and zt.is_int_value(b):  # known cells: a known answer, so filters fold
            return z3.BoolVal(g.atom(zt.int_of(b)) in g.neighbours(g.atom(zt.int_of(a))))
        if zt.is_int_value(a):
            at = g.atom(zt.int_of(a))
            return zt.Or([zt.Eq(b, g.code(n)) for n in g.neighbours(at)] or [z3.BoolVal(False)])
        return zt.Or([zt.And(zt.Eq(a, g.code(x)), zt.Or([zt.Eq(b, g.code(n)) for n in g.neighbours(x)])) for x in g.atoms if g.neighbours(x)]
                     or [z3.BoolVal(False)])


class _Coord(BuiltinDef):
    cheap = True
    axis = 0

    def check(self, args, options, domains):
        if len(args) != 1:
            raise BuiltinError(f"{self.name} takes one cell")
        g = grid_of(args[0], domains, f"{self.name}'s argument")
        vals = [rc[self.axis] for rc in g.cells]
        return IntT(min(vals), max(vals))

    def py(self, args, options, ctx):
        return ctx.domains[ctx.types[0].domain].pos[args[0]][self.axis]

    def py_positional(self, options, ctx):
        pos, axis = ctx.domains[ctx.types[0].domain].pos, self.axis
        return lambda c: pos[c][axis]

    def z3(self, args, options, ctx):
        g = ctx.domains[ctx.types[0].domain]
        (a,) = args
        if zt.is_int_value(a):
            return zt.num(g.cells[zt.int_of(a)][self.axis])
        out = zt.num(g.cells[-1][self.axis])
        for k in reversed(range(len(g.cells) - 1)):
            out = zt.If(zt.Eq(a, k), g.cells[k][self.axis], out)
        return out


@register
class Row(_Coord):
    name = "row"
    signature = "row(c: cell) -> int — the cell's row, 0 at the top"
    axis = 0


@register
class Col(_Coord):
    name = "col"
    signature = "col(c: cell) -> int — the cell's column, 0 at the left"
    axis = 1


@register
class At(BuiltinDef):
    cheap = True
    name = "at"
    signature = "at(r: int, c: int, grid=D) -> D — the cell of grid D at row r, column c; undefined off the grid"
    options = {"grid": None}

    def check(self, args, options, domains):
        if len(args) != 2 or any(not isinstance(t, IntT) for t in args):
            raise BuiltinError("at takes a row and a column (ints) and grid=<grid domain>")
        g = options.get("grid")
        if not isinstance(g, str) or g not in domains or not isinstance(domains[g], GridDomain):
            raise BuiltinError("at needs grid=<name of a grid domain>")
        return AtomT(g)

    def py(self, args, options, ctx):
        g = ctx.domains[options["grid"]]
        rc = (args[0], args[1])
        if rc not in g.at:
            ctx.undefined(f"no cell at row {rc[0]}, column {rc[1]} of grid {g.name}")
        return g.at[rc]

    def py_positional(self, options, ctx):
        cells, py = ctx.domains[options["grid"]].at, self.py

        def at(r, c):
            cell = cells.get((r, c))
            return cell if cell is not None else py([r, c], options, ctx)  # off the grid: its message
        return at

    def z3(self, args, options, ctx):
        g = ctx.domains[options["grid"]]
        r, c = args
        if zt.is_int_value(r) and zt.is_int_value(c):  # a known cell: no choice, no obligation
            cell = g.at.get((zt.int_of(r), zt.int_of(c)))
            if cell is not None:
                return zt.num(g.code(cell))
        hits = [(zt.And(zt.Eq(r, rr), zt.Eq(c, cc)), g.code(a)) for a, (rr, cc) in g.pos.items()]
        ctx.oblige(zt.Or([h for h, _ in hits]), f"a cell of grid {g.name} exists at the given row and column")
        out = z3.IntVal(hits[-1][1])
        for h, k in reversed(hits[:-1]):
            out = zt.If(h, k, out)
        return out
