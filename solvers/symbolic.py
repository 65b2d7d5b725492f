"""Asking Z3 about a game, and trusting only what Python confirms.

A `Query` holds one symbolic state (or several, for moves and plays) and its symbolic arguments;
callers add conditions built by the Z3 back end (each term in a fresh ZCtx, whose definedness
comes back with it) and call `solve`. Every model is decoded
to a concrete state and arguments, and the caller re-checks the finding with the Python back
end (`confirm`): a model that Python does not confirm is an InternalError — a back-end bug —
never a finding. Deadlines come back as `unknown`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import z3

from zoospec.backends.z3 import ZCtx
from zoospec.engines import dump, race, work
from zoospec.engines.yices import Translator as YicesTranslator, available as yices_available
from zoospec.errors import InternalError, Undefined

from .moves import legal_moves, param_pools

UNDEFINED = "undefined"


@dataclass
class Model:
    states: list[dict]
    args: list[dict]


def py_value(game, expr, state, args=None):
    """The Python value of an expression, or UNDEFINED."""
    try:
        return game.evaluate(expr, state, args or {})
    except Undefined:
        return UNDEFINED


def param_values(game, params) -> list[dict]:
    """Every combination of finite parameter values (in domain order)."""
    pools = param_pools(game, params)
    return [dict(zip([n for n, _ in params], combo)) for combo in itertools.product(*pools)]


def rule_instances(game, kind) -> list[tuple]:
    """(rule, arguments) for every rule of one kind and every value of its parameters."""
    return [(r, args) for r in game.rules.values() if r.kind == kind and r.body is not None
            for args in param_values(game, r.params)]


def broken_invariants(game, state, prefix: str) -> list[str]:
    """The ids of the invariants named `prefix...` that fail on a state (Python back end), each
    once: how a generated deal or domino set is judged by the spec's own rules."""
    return sorted({r.id for r, _ in broken_invariant_instances(game, state, prefix)})


def broken_invariant_instances(game, state, prefix: str = "") -> list[tuple]:
    """(rule, arguments) of every invariant instance named `prefix...` that is not true on a state
    (an undefined one included): what a state read from a file is refused for."""
    return [(r, a) for r, a in rule_instances(game, "invariant")
            if r.id.startswith(prefix) and py_value(game, r.body, state, a) is not True]


def _py_rule_values(game, kind, state):
    """The value of every rule of one kind on a state, for every value of its parameters."""
    for r, args in rule_instances(game, kind):
        yield py_value(game, r.body, state, args)


def python_invariants_hold(game, state) -> bool:
    return all(v is True for v in _py_rule_values(game, "invariant", state))


def py_ended(game, state) -> bool:
    """Some end rule holds: the game is over and nobody moves."""
    return any(v is True for v in _py_rule_values(game, "end", state))


class Query:
    def __init__(self, game, n_states: int = 1, timeout: float | None = None, seed: int = 0):
        self.game = game
        self.syms = [game.sym_state(f"s{i}.") for i in range(n_states)]
        self.facts: list = [c for s in self.syms for c in s.constraints]
        self.arg_syms: list = []
        self.timeout, self.seed = timeout, seed
        self._memos: dict = {}  # per game (reading): define values built once for the whole query
        self._yices = None

    @property
    def sym(self):
        return self.syms[0]

    def args(self, params, label: str = "a"):
        """Symbolic arguments for `params` (kept so that models decode them)."""
        args, cons, arg_sym = self.game.sym_args(params, f"{label}{len(self.arg_syms)}.")
        self.facts.extend(cons)
        self.arg_syms.append(arg_sym)
        return args, len(self.arg_syms) - 1

    def term(self, expr, state_index: int = 0, args=None, game=None):
        """The Z3 value of an expression (of `game`, default the query's: another reading of the
        same spec shares the state); its definedness is tracked in a fresh context."""
        v, ctx = self.term_ctx(expr, state_index, args, game)
        return v, ctx.defined()

    def term_ctx(self, expr, state_index: int = 0, args=None, game=None):
        ctx = ZCtx(f"t{len(self.facts)}")
        g = game or self.game
        # Every context's side constraints join self.facts, so a define built for one term may
        # serve the next; its obligations are re-added under each use's guard (ZCompiler._call).
        ctx.memo = self._memos.setdefault(id(g), (g, {}))[1]  # (g kept alive: its id stays unique)
        v = g.z3_eval(expr, self.syms[state_index], ctx, args or {})
        self.facts.extend(ctx.sides)
        return v, ctx

    def holds(self, expr, state_index: int = 0, args=None, game=None):
        """A Z3 Bool: the expression is defined and true."""
        v, d = self.term(expr, state_index, args, game)
        return z3.And(d, v)

    def _rules(self, kind, state_index):
        return [self.holds(r.body, state_index, self.game._zargs(r.params, args))
                for r, args in rule_instances(self.game, kind)]

    def invariants(self, state_index: int = 0):
        """Every invariant rule holds (for every value of its parameters)."""
        out = self._rules("invariant", state_index)
        return z3.And(out) if out else z3.BoolVal(True)

    def ended(self, state_index: int = 0):
        """Some end rule holds."""
        out = self._rules("end", state_index)
        return z3.Or(out) if out else z3.BoolVal(False)

    def transition(self, action: str, pre: int, post: int, args, game=None):
        """The action taken from state `pre` to state `post`: legal, defined, post = effect."""
        ctx = ZCtx(f"tr{pre}")
        t = (game or self.game).transition(self.syms[pre], self.syms[post], action, args, ctx)
        self.facts.extend(ctx.sides)
        return t

    def solve(self, *conds, deadline: float | None = None):
        """('sat', Model) | ('unsat', None) | ('unknown', reason)."""
        s = z3.Solver()
        s.set("random_seed", self.seed)
        s.add(list(conds))
        return self._check_incremental(s, deadline)

    def solve_invariant(self, states, *conds, deadline: float | None = None):
        """Like solve(invariants(i) for i in states, *conds) — `states` an index or a tuple of
        them — but each invariant instance is added only once a model breaks it (checked in
        Python). A big spec's invariants can bury an easy question; most never matter to it.
        Sound both ways: UNSAT without some invariants is UNSAT with all, and a model is returned
        only when every invariant holds in every state named."""
        indices = (states,) if isinstance(states, int) else tuple(states)
        s, lazy = self._lazy_solver(conds, indices)
        while True:
            r, m = self._check_incremental(s, deadline)
            if r != "sat" or not lazy.add_broken(m):
                return r, m

    def solve_stuck(self, i: int, *conds, actions=None, deadline: float | None = None):
        """A state i (invariants and conds holding) where no action of `actions` (default all) is
        legal with any arguments — found lazily: ask for a state, list its legal moves in Python,
        forbid exactly those moves, ask again. Each round rules out at least one move instance, so
        it ends; asserting every move instance up front can mean thousands of big terms. The
        invariants are added lazily as in solve_invariant."""
        s, lazy = self._lazy_solver(conds, (i,))
        forbidden = set()
        while True:
            r, m = self._check_incremental(s, deadline)
            if r != "sat":
                return r, m
            if lazy.add_broken(m):  # an invariant failed there: ask again with it
                continue
            moves = legal_moves(self.game, m.states[i], actions)
            if not moves:
                return r, m
            for mv in moves:
                key = (mv.action, tuple(sorted(mv.args.items(), key=repr)))
                if key in forbidden:
                    raise InternalError(f"Z3 allows {mv.action} {mv.args} to be illegal where Python finds it legal")
                forbidden.add(key)
                a = self.game.action(mv.action)
                s.add(z3.Not(self.holds(self.game.legal_expr(a.id), i, self.game._zargs(a.params, mv.args))))

    def _lazy_solver(self, conds, indices):
        s = z3.Solver()
        s.set("random_seed", self.seed)
        s.add(list(conds))
        return s, _LazyInvariants(self, s, indices)

    def _check_incremental(self, s, deadline):
        """Check s with every fact not yet given to it (facts grow as terms are compiled)."""
        seen = getattr(s, "_zoospec_facts", 0)
        s.add(self.facts[seen:])
        s._zoospec_facts = len(self.facts)
        left = self.timeout if deadline is None else max(0.001, deadline - work.now())  # deadlines on work.now()
        answered = dump.query("question", s.assertions())
        got = race.check(s, left, self._translator())
        answered(got.result)
        if got.result == z3.sat:
            m = got.model
            return "sat", Model([sym.decode(m) for sym in self.syms], [a.decode(m) for a in self.arg_syms])
        if got.result == z3.unsat:
            return "unsat", None
        return "unknown", got.reason

    def _translator(self):
        """This query's own Yices translator (engines/race.py), made on first use: its terms are
        translated once across the query's checks, and freed with it."""
        if self._yices is None and yices_available():
            self._yices = YicesTranslator()
        return self._yices


class _LazyInvariants:
    """The invariant instances (rule, arguments) per state index not yet given to a solver."""

    def __init__(self, q, solver, indices):
        self.q, self.s = q, solver
        self.pending = [(i, r, args) for i in indices for r, args in rule_instances(q.game, "invariant")]

    def add_broken(self, model) -> bool:
        """Give the solver every pending instance the model's states break; False if none."""
        g, keep, broken = self.q.game, [], []
        for i, r, args in self.pending:
            (keep if py_value(g, r.body, model.states[i], args) is True else broken).append((i, r, args))
        self.pending = keep
        self.s.add([self.q.holds(r.body, i, g._zargs(r.params, args)) for i, r, args in broken])
        return bool(broken)


def confirm(ok: bool, what: str):
    """A Z3 finding Python does not reproduce is a bug in a back end, not a result."""
    if not ok:
        raise InternalError(f"Z3 reported {what}, but the Python back end does not reproduce it; "
                            f"not reporting it (a back-end disagreement)")


def py_has_move(game, state, actions=None) -> bool:
    """Some action (of `actions`, default all) is legal in a concrete state (Python back end)."""
    return bool(legal_moves(game, state, actions))
