"""The Z3 encoding of a packing question, for what exact-cover search cannot say: side
constraints written in the rule language, and the fullest packing under them.

One Boolean per placement; per cell `PbEq(...) == 1` (exact cover) or `PbLe(...) <= 1` (gaps);
per piece `PbLe(..., count)` (or `PbEq` when all must be used) — the encoding measured cheapest
here (../shared/notes/packing-peers.md). Side constraints are compiled by the Z3 back end over
the packing state of spec/packing/rules.yaml, whose cells are tied to the placement Booleans.
"""
from __future__ import annotations

import time

import z3

from zoospec.backends.z3 import Unsupported, ZCtx
from zoospec.errors import Problem, SpecError
from zoospec.ir import state_vars_read

from .certify import NONE, Vocabulary
from .model import Packing, Problem as PackProblem


class Z3Packing:
    def __init__(self, problem: PackProblem, vocab: Vocabulary | None = None):
        self.problem = problem
        self.rows = problem.placements
        self.x = [z3.Bool(f"x{k}") for k in range(len(self.rows))]
        self.constraints: list = []
        o = problem.options
        by_cell: dict = {c: [] for c in problem.board.cells}
        for k, pl in enumerate(self.rows):
            for c in pl.cells:
                by_cell[c].append(k)
        for c, ks in by_cell.items():
            lits = [(self.x[k], 1) for k in ks]
            if o.exact:
                self.constraints.append(z3.PbEq(lits, 1) if lits else z3.BoolVal(False))
            elif len(lits) > 1:
                self.constraints.append(z3.PbLe(lits, 1))
        for i, p in enumerate(problem.pieces):
            lits = [(self.x[k], 1) for k, pl in enumerate(self.rows) if pl.piece == i]
            if o.use_all:
                self.constraints.append(z3.PbEq(lits, p.count) if lits else z3.BoolVal(False))
            elif len(lits) > p.count:
                self.constraints.append(z3.PbLe(lits, p.count))
        if vocab is not None and vocab.side:
            self.constraints.extend(self._side(vocab, by_cell))

    def _side(self, vocab: Vocabulary, by_cell) -> list:
        """Tie the packing state to the Booleans and compile the side constraints over it."""
        g = vocab.game
        sym = g.sym_state("s.")
        out = list(sym.constraints)
        reads = set().union(*(state_vars_read(g.rules[rid].body, g.defines) for rid in vocab.side))
        piece_dom, cell_dom = g.domains["piece"], g.domains["cell"]
        none = piece_dom.code(NONE)
        code_of_row = [piece_dom.code(self.problem.pieces[pl.piece].name) for pl in self.rows]
        for code in cell_dom.codes():
            ks = by_cell.get(cell_dom.pos[cell_dom.atom(code)], [])
            if "piece_at" in reads:
                pa = sym["piece_at"].entries[code]
                by_piece: dict[int, list] = {}
                for k in ks:
                    by_piece.setdefault(code_of_row[k], []).append(self.x[k])
                out.append(z3.Or([pa == none] + [pa == p for p in by_piece]))
                out.extend((pa == p) == z3.Or(xs) for p, xs in by_piece.items())
            if "part_at" in reads:
                pt = sym["part_at"].entries[code]
                out.extend(z3.Implies(self.x[k], pt == k + 1) for k in ks)
                out.append(z3.Implies(z3.Not(z3.Or([self.x[k] for k in ks])), pt == 0) if ks else pt == 0)
        if "used" in reads:
            for i, p in enumerate(self.problem.pieces):
                ks = [k for k, pl in enumerate(self.rows) if pl.piece == i]
                used = sym["used"].entries[piece_dom.code(p.name)]
                out.append(used == z3.Sum([z3.If(self.x[k], 1, 0) for k in ks]) if ks else used == 0)
            out.append(sym["used"].entries[none] == 0)
        ctx = ZCtx("side")
        problems = []
        for rid in vocab.side:
            rule = g.rules[rid]
            try:
                out.append(rule.z3(sym, ctx))
            except Unsupported as e:
                problems.append(Problem(e.loc, f"side constraint cannot be posed to Z3: {e.message}"))
        if problems:
            raise SpecError(problems)
        out.extend(ctx.sides)
        out.append(ctx.defined())
        return out

    def decode(self, model) -> Packing:
        placed = tuple(pl for k, pl in enumerate(self.rows) if z3.is_true(model.eval(self.x[k], model_completion=True)))
        return Packing(self.problem, placed)

    def block(self, model):
        """A clause excluding exactly this packing (in gap mode also its supersets must stay)."""
        on = [z3.is_true(model.eval(v, model_completion=True)) for v in self.x]
        lits = [z3.Not(v) for v, b in zip(self.x, on) if b]
        if not self.problem.options.exact:
            lits += [v for v, b in zip(self.x, on) if not b]
        return z3.Or(lits) if lits else z3.BoolVal(False)

    def solver(self, timeout: float | None, optimize: bool = False):
        s = z3.Optimize() if optimize else z3.Solver()
        if timeout is not None:
            s.set("timeout", max(1, int(timeout * 1000)))
        s.add(self.constraints)
        return s

    def coverage(self):
        return z3.Sum([z3.If(self.x[k], len(pl.cells), 0) for k, pl in enumerate(self.rows)]) if self.rows else z3.IntVal(0)


def remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.001, deadline - time.monotonic())
