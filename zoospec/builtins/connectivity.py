"""Connected regions on a grid.

Z3 encoding (definitional, so it may be used under negation): auxiliary Booleans reach[x] and
distance labels d[x] with
  reach[x] -> x in S;   root[x] -> reach[x];   reach[x] and y in S, y next to x -> reach[y];
  reach[x] -> root[x] or some neighbour y has reach[y] and d[y] < d[x].
The closure makes reach contain the root's component and the descending labels keep it inside it,
so for every S exactly one reach satisfies them: the component itself.

reached(sources, S) is the same reach with every source in S as a root.

region(a, S) labels every cell of S with the first cell (row-major) of its component, all cells
at once: label[x] is a cell of S no later than x, neighbours in S share a label, and every cell of
S not its own label has a neighbour with its label and a smaller distance. The labels are constant
on components and each label class is connected to a cell labelled with itself, so that cell is
in the component and no later than any of it: the first. One labelling serves every a (it is
built once per set and context), where one `component` per cell would each need its own.
"""
from __future__ import annotations

import z3

from ..ir.types import BOOL, SetT
from ..smt import terms as zt
from ..smt.values import ZSet
from .base import BuiltinDef, BuiltinError, grid_of, register


def component_py(grid, start, cells: frozenset) -> frozenset:
    if start not in cells:
        return frozenset()
    seen = {start}
    todo = [start]
    while todo:
        x = todo.pop()
        for y in grid.neighbours(x):
            if y in cells and y not in seen:
                seen.add(y)
                todo.append(y)
    return frozenset(seen)


def _reach(grid, s: ZSet, root: dict[int, z3.BoolRef], ctx) -> dict[int, z3.BoolRef]:
    f = z3.BoolVal(False)
    member = {k: s.bits.get(k, f) for k in grid.codes()}
    tag = ctx.fresh_tag("reach")
    reach = {k: z3.Bool(f"{tag}.r{k}") for k in grid.codes()}
    dist = {k: z3.Int(f"{tag}.d{k}") for k in grid.codes()}
    ctx.declare([*reach.values(), *dist.values()])
    n = len(grid)
    for k in grid.codes():
        nbrs = [grid.code(y) for y in grid.neighbours(grid.atom(k))]
        ctx.side(zt.And(dist[k] >= 0, dist[k] <= n))
        ctx.side(zt.Implies(reach[k], member[k]))
        ctx.side(zt.Implies(root[k], reach[k]))
        for j in nbrs:
            ctx.side(zt.Implies(zt.And(reach[k], member[j]), reach[j]))
        ctx.side(zt.Implies(reach[k], zt.Or([root[k]] + [zt.And(reach[j], dist[j] < dist[k]) for j in nbrs])))
    return reach


def _cells_arg(t, domains, what):
    if not isinstance(t, SetT):
        raise BuiltinError(f"{what} must be a set of cells")
    return grid_of(t.elem, domains, f"{what}'s elements")


def _cell_and_set(name, args, domains):
    """The arguments of component() and region(): a cell and a set of cells of one grid."""
    if len(args) != 2:
        raise BuiltinError(f"{name} takes a cell and a set of cells")
    g = _cells_arg(args[1], domains, f"{name}'s second argument")
    if grid_of(args[0], domains, f"{name}'s first argument") is not g:
        raise BuiltinError(f"{name}'s cell and set must be of one grid")


@register
class Component(BuiltinDef):
    name = "component"
    signature = "component(a: cell, s: set[cell]) -> set[cell] — the cells of s connected to a (empty if a is not in s)"

    def check(self, args, options, domains):
        _cell_and_set(self.name, args, domains)
        return args[1]

    def py(self, args, options, ctx):
        return component_py(ctx.domains[ctx.types[1].elem.domain], args[0], args[1])

    def z3(self, args, options, ctx):
        g = ctx.domains[ctx.types[1].elem.domain]
        a, s = args
        return _reached_from(g, s, lambda k, member: zt.And(zt.Eq(a, k), member), ctx)


def _reached_from(grid, s: ZSet, is_root, ctx) -> ZSet:
    """The cells of s reached from the roots: is_root(code, member term) for each cell."""
    f = z3.BoolVal(False)
    root = {k: is_root(k, s.bits.get(k, f)) for k in grid.codes()}
    return ZSet(list(grid.codes()), _reach(grid, s, root, ctx))


def reached_py(grid, sources: frozenset, cells: frozenset) -> frozenset:
    out: set = set()
    for a in sources:
        if a in cells and a not in out:
            out |= component_py(grid, a, cells)
    return frozenset(out)


@register
class Reached(BuiltinDef):
    """Where anything starting from some cells can get: one reach with many roots, where a
    `region` comparison per source would label every component of the set."""
    name = "reached"
    signature = "reached(sources: set[cell], s: set[cell]) -> set[cell] — the cells of s connected within s to a cell of sources in s"

    def check(self, args, options, domains):
        if len(args) != 2:
            raise BuiltinError("reached takes a set of cells (the sources) and a set of cells")
        g = _cells_arg(args[1], domains, "reached's second argument")
        if _cells_arg(args[0], domains, "reached's first argument") is not g:
            raise BuiltinError("reached's two sets must be of one grid")
        return args[1]

    def py(self, args, options, ctx):
        return reached_py(ctx.domains[ctx.types[1].elem.domain], args[0], args[1])

    def z3(self, args, options, ctx):
        g = ctx.domains[ctx.types[1].elem.domain]
        src, s = args
        key = ("reached", id(src), id(s))
        hit = ctx.memo.get(key)
        if hit is not None and hit[0] is src and hit[1] is s:
            return hit[2]
        f = z3.BoolVal(False)
        out = _reached_from(g, s, lambda k, member: zt.And(src.bits.get(k, f), member), ctx)
        ctx.memo[key] = (src, s, out)  # src and s kept alive: their ids stay unique
        return out


@register
class Connected(BuiltinDef):
    name = "connected"
    signature = "connected(s: set[cell]) -> bool — s is empty or one orthogonally connected region"

    def check(self, args, options, domains):
        if len(args) != 1:
            raise BuiltinError("connected takes one set of cells")
        _cells_arg(args[0], domains, "connected's argument")
        return BOOL

    def py(self, args, options, ctx):
        s = args[0]
        if not s:
            return True
        g = ctx.domains[ctx.types[0].elem.domain]
        return len(component_py(g, min(s, key=g.code), s)) == len(s)

    def z3(self, args, options, ctx):
        g = ctx.domains[ctx.types[0].elem.domain]
        (s,) = args
        f = z3.BoolVal(False)
        root, none_before = {}, z3.BoolVal(True)
        for k in g.codes():
            m = s.bits.get(k, f)
            root[k] = zt.And(m, none_before)
            none_before = zt.And(none_before, zt.Not(m))
        reach = _reach(g, s, root, ctx)
        return zt.And([zt.Implies(s.bits.get(k, f), reach[k]) for k in g.codes()])


def region_py(grid, start, cells: frozenset):
    if start not in cells:
        return start
    return min(component_py(grid, start, cells), key=grid.code)


def _labels(grid, s: ZSet, ctx) -> dict[int, z3.ArithRef]:
    key = ("region", id(s))
    hit = ctx.memo.get(key)
    if hit is not None and hit[0] is s:
        return hit[1]
    f = z3.BoolVal(False)
    member = {k: s.bits.get(k, f) for k in grid.codes()}
    tag = ctx.fresh_tag("region")
    label = {k: z3.Int(f"{tag}.l{k}") for k in grid.codes()}
    dist = {k: z3.Int(f"{tag}.d{k}") for k in grid.codes()}
    ctx.declare([*label.values(), *dist.values()])
    codes = list(grid.codes())
    for k in codes:
        nbrs = [grid.code(y) for y in grid.neighbours(grid.atom(k))]
        # the label bounds are implied by the next two lines; stated, they help Z3's arithmetic
        ctx.side(zt.And(dist[k] >= 0, dist[k] <= len(codes), label[k] >= codes[0], label[k] <= k))
        ctx.side(zt.Implies(zt.Not(member[k]), zt.Eq(label[k], k)))
        ctx.side(zt.Implies(member[k], zt.Or([zt.And(zt.Eq(label[k], j), member[j]) for j in codes if j <= k])))
        for j in nbrs:
            ctx.side(zt.Implies(zt.And(member[k], member[j]), zt.Eq(label[k], label[j])))
        ctx.side(zt.Implies(zt.And(member[k], zt.Not(zt.Eq(label[k], k))),
                            zt.Or([zt.And(member[j], zt.Eq(label[j], label[k]), dist[j] < dist[k]) for j in nbrs] or [f])))
    ctx.memo[key] = (s, label)  # (s kept alive: its id stays unique)
    return label


@register
class Region(BuiltinDef):
    name = "region"
    signature = "region(a: cell, s: set[cell]) -> cell — the first cell (row-major) of a's component in s; a itself if a is not in s"

    def check(self, args, options, domains):
        _cell_and_set(self.name, args, domains)
        return args[0]

    def py(self, args, options, ctx):
        return region_py(ctx.domains[ctx.types[1].elem.domain], args[0], args[1])

    def z3(self, args, options, ctx):
        g = ctx.domains[ctx.types[1].elem.domain]
        a, s = args
        label = _labels(g, s, ctx)
        if zt.is_int_value(a):
            return label[zt.int_of(a)]
        # a symbolic cell (a pawn's place, say) is looked up once per set: one chain of ifs,
        # however many rules ask (Z3 terms are hash-consed, so get_id names the term)
        key = ("region-at", id(s), a.get_id())
        hit = ctx.memo.get(key)
        if hit is not None and hit[0] is s:
            return hit[1]
        codes = list(g.codes())
        out = label[codes[-1]]
        for k in reversed(codes[:-1]):
            out = zt.If(zt.Eq(a, k), label[k], out)
        ctx.memo[key] = (s, out, a)  # s and a kept alive: their ids stay unique
        return out
