"""Polyomino built-ins: orientations, placements on a board mask, size, and the cells one
orientation covers at a given position (cells_at)."""
from __future__ import annotations

from functools import lru_cache

import z3

from ..ir.domains import GridDomain
from ..ir.types import INT, SHAPE, AtomT, IntT, SetT, ShapeT
from ..smt import terms as zt
from ..smt.values import ZSet, alternatives, lift, select
from .base import BuiltinDef, BuiltinError, grid_of, register
from .polyomino import orientations, placements


def _mirror(options):
    m = options.get("mirror", True)
    if not isinstance(m, bool):
        raise BuiltinError("mirror= must be true or false")
    return m


@register
class Orientations(BuiltinDef):
    name = "orientations"
    signature = "orientations(s: shape, mirror=true) -> set[shape] — distinct rotations (and mirror images)"
    options = {"mirror": True}

    def check(self, args, options, domains):
        if len(args) != 1 or not isinstance(args[0], ShapeT):
            raise BuiltinError("orientations takes one shape")
        _mirror(options)
        return SetT(SHAPE)

    def py(self, args, options, ctx):
        return orientations(args[0], options.get("mirror", True))

    def z3(self, args, options, ctx):
        return lift(lambda s: orientations(s, options.get("mirror", True)), args[0])


@register
class Size(BuiltinDef):
    cheap = True
    name = "size"
    signature = "size(s: shape) -> int — number of cells"

    def check(self, args, options, domains):
        if len(args) != 1 or not isinstance(args[0], ShapeT):
            raise BuiltinError("size takes one shape")
        return INT

    def py(self, args, options, ctx):
        return args[0].size

    def py_positional(self, options, ctx):
        return lambda s: s.size

    def z3(self, args, options, ctx):
        return lift(lambda s: z3.IntVal(s.size), args[0])


@register
class Placements(BuiltinDef):
    name = "placements"
    signature = ("placements(s: shape, board: set[cell], mirror=true) -> set[set[cell]] — every set of board "
                 "cells the shape covers in some orientation and position (board must be constant for Z3)")
    options = {"mirror": True}

    def check(self, args, options, domains):
        if len(args) != 2 or not isinstance(args[0], ShapeT) or not isinstance(args[1], SetT):
            raise BuiltinError("placements takes a shape and a set of cells")
        grid_of(args[1].elem, domains, "placements' board")
        _mirror(options)
        return SetT(SetT(args[1].elem))

    def py(self, args, options, ctx):
        g = ctx.domains[ctx.types[1].elem.domain]
        return placements(args[0], {g.pos[a]: a for a in args[1]}, options.get("mirror", True))

    def z3(self, args, options, ctx):
        g = ctx.domains[ctx.types[1].elem.domain]
        board = args[1]
        if isinstance(board, ZSet):
            if not all(z3.is_true(b) or z3.is_false(b) for b in board.bits.values()):
                ctx.unsupported("placements needs a board that does not depend on the state")
            cells = [g.atom(k) for k, b in board.bits.items() if z3.is_true(b)]
        else:
            cells = list(board)
        mask = {g.pos[a]: a for a in cells}
        return lift(lambda s: placements(s, mask, options.get("mirror", True)), args[0])




def _ordered(shape, mirror):
    """The shape's distinct orientations in a fixed order (orientation numbers index it)."""
    return _ordered_cached(shape, mirror)


@lru_cache(maxsize=4096)
def _ordered_cached(shape, mirror):
    return tuple(sorted(orientations(shape, mirror)))


@register
class CellsAt(BuiltinDef):
    cheap = True
    name = "cells_at"
    signature = ("cells_at(s: shape, o: int, r: int, c: int, grid=D, mirror=true) -> set[D] — the cells of grid D "
                 "covered by orientation number o of s (0-based; turns and flips, distinct, in a fixed order) laid "
                 "with its top-left corner at row r, column c; cells off the grid are left out, and an orientation "
                 "number the shape does not have covers nothing")
    options = {"grid": None, "mirror": True}

    def check(self, args, options, domains):
        if len(args) != 4 or not isinstance(args[0], ShapeT) or any(not isinstance(t, IntT) for t in args[1:]):
            raise BuiltinError("cells_at takes a shape, an orientation number, a row and a column, and grid=<grid domain>")
        g = options.get("grid")
        if not isinstance(g, str) or g not in domains or not isinstance(domains[g], GridDomain):
            raise BuiltinError("cells_at needs grid=<name of a grid domain>")
        _mirror(options)
        return SetT(AtomT(g))

    def py(self, args, options, ctx):
        s, o, r, c = args
        g = ctx.domains[options["grid"]]
        ors = _ordered(s, options.get("mirror", True))
        if not 0 <= o < len(ors):
            return frozenset()
        return frozenset(g.at[(r + dr, c + dc)] for dr, dc in ors[o].cells if (r + dr, c + dc) in g.at)

    def py_positional(self, options, ctx):
        """`py`, each answer kept: a pure function of its four arguments, asked again and again for
        the same few placements while moves are listed."""
        at, mirror, kept = ctx.domains[options["grid"]].at, options.get("mirror", True), {}

        def cells_at(s, o, r, c):
            key = (s, o, r, c)
            hit = kept.get(key)
            if hit is None:
                if len(kept) >= 100_000:
                    kept.clear()
                ors = _ordered(s, mirror)
                hit = kept[key] = (frozenset() if not 0 <= o < len(ors) else
                                   frozenset(at[(r + dr, c + dc)] for dr, dc in ors[o].cells if (r + dr, c + dc) in at))
            return hit
        return cells_at

    def z3(self, args, options, ctx):
        """Compact: the i-th covered cell's offset is chosen by (shape alternative, orientation)
        once, then each grid cell asks whether one of the at most n offsets lands on it — cells x
        n terms, not cells x shapes x orientations."""
        s, o, r, c = args
        g = ctx.domains[options["grid"]]
        mirror = options.get("mirror", True)
        picks = []  # (condition, offsets)
        for cond, shape in alternatives(s):
            for j, ori in enumerate(_ordered(shape, mirror)):
                picks.append((zt.And(cond, o == j), ori.cells))
        n = max((len(cells) for _, cells in picks), default=0)
        slots = []
        for i in range(n):
            have = [(p, cells[i]) for p, cells in picks if i < len(cells)]
            valid = z3.simplify(zt.Or([p for p, _ in have]))
            dr = select([(p, z3.IntVal(x[0])) for p, x in have[:-1]], z3.IntVal(have[-1][1][0]))
            dc = select([(p, z3.IntVal(x[1])) for p, x in have[:-1]], z3.IntVal(have[-1][1][1]))
            slots.append((valid, z3.simplify(r + dr), z3.simplify(c + dc)))
        bits = {}
        for a, (row, col) in g.pos.items():
            bits[g.code(a)] = zt.Or([zt.And(v, pr == row, pc == col) for v, pr, pc in slots] or [z3.BoolVal(False)])
        return ZSet(list(bits), bits)
