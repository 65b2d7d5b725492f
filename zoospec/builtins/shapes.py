"""Polyomino built-ins: orientations, placements on a board mask, size."""
from __future__ import annotations

import z3

from ..types import INT, SHAPE, SetT, ShapeT
from ..backends.zvalues import ZSet, lift
from . import BuiltinDef, BuiltinError, grid_of, register
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
    name = "size"
    signature = "size(s: shape) -> int — number of cells"

    def check(self, args, options, domains):
        if len(args) != 1 or not isinstance(args[0], ShapeT):
            raise BuiltinError("size takes one shape")
        return INT

    def py(self, args, options, ctx):
        return args[0].size

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


