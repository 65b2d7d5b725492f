"""A loaded game: its rules, actions, readings and claims, each rule's Python predicate and Z3
constraint (compiled on first use), and what a state is. The front end (front/loader.py) builds it."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import z3

from .. import ir
from ..backends.pygen import GenCompiler
from ..backends.python import MEMO, PyCompiler, deep_copy, run_statements
from ..backends.z3 import ZCompiler, ZCtx, apply_writes, zconst
from ..errors import Loc, StateError
from ..ir.domains import Domains
from ..ir.types import BOOL, MapT, Type, check_range
from ..suggest import suggest
from .state import SymState, from_json, json_schema, to_json

if TYPE_CHECKING:  # only named in an annotation: the runtime does not import the front end
    from ..front.build import Signature
    from ..front.packing import Packing


@dataclass
class Cite:
    """Where in the rulebook something comes from: a section and its sentences; `also` holds the
    further sections when one rule formalises sentences of several (a `cite:` list in the spec)."""
    file: str
    section: str
    sentence: tuple[int, ...] = ()
    also: tuple["Cite", ...] = ()

    def parts(self) -> list["Cite"]:
        """Each section cited, as a Cite of its own."""
        return [Cite(self.file, self.section, self.sentence), *self.also]

    def __str__(self):
        def one(c):
            return f"{c.file} § {c.section}" + (f", sentence {', '.join(map(str, c.sentence))}" if c.sentence else "")
        return "; ".join(one(c) for c in self.parts())


@dataclass(frozen=True)
class NonNormative:
    """Rulebook sentences a spec judges to state no rule (the `coverage` section), and why."""
    section: str
    sentence: tuple[int, ...]
    why: str


@dataclass
class Rule:
    id: str
    kind: str
    cite: Cite
    says: str
    params: list[tuple[str, Type]]
    loc: Loc
    body: ir.Expr | None = None
    effect: tuple[ir.Stmt, ...] = ()
    assumption: str | None = None
    game: "Game" = field(default=None, repr=False)

    def holds(self, state: dict, **args) -> bool:
        """The rule's value on a concrete state (bool for legality rules, int for scoring)."""
        return self.game.evaluate(self.body, state, self.game._args(self.params, args, self.id))

    value = holds

    def z3(self, sym: SymState, ctx: ZCtx, **args):
        """The rule's Z3 term on a symbolic state; arguments may be concrete or Z3 terms."""
        return self.game.z3_eval(self.body, sym, ctx, self.game._zargs(self.params, args))


@dataclass
class Action:
    id: str
    says: str
    cite: Cite | None
    params: list[tuple[str, Type]]
    requires: list[tuple[str | None, ir.Expr]]
    effect: tuple[ir.Stmt, ...]
    loc: Loc
    ensures: list[tuple[str | None, ir.Expr]] = field(default_factory=list)  # read on the state after the effect
    weight: ir.Expr | None = None  # how likely chance takes a move of it when it deals (None: 1)


@dataclass
class FinalScore:
    """What decides the game at its end: a scoring rule, the arguments that count (`given`, e.g.
    the seated players) and the states it applies to (`when`, e.g. not in the co-operative mode)."""

    rule: str
    given: ir.Expr | None = None
    when: ir.Expr | None = None


@dataclass
class Reading:
    id: str
    cite: Cite
    question: str
    default: str
    choices: dict[str, str]  # choice -> says
    params: list[tuple[str, Type]]
    loc: Loc


@dataclass
class Claim:
    id: str
    says: str
    cite: Cite | None
    over: str
    params: list[tuple[str, Type]]
    given: ir.Expr | None
    body: ir.Expr
    expect: str
    bound: dict
    loc: Loc
    actions: tuple[str, ...] = ()  # for move and play: only these (empty: every action)
    decreases: ir.Expr | None = None  # for move: an int every such move lowers, staying >= 0
    of: tuple[str, ...] = ()  # for independence: the state variables nothing may depend on


class Game:
    """A loaded, type-checked game spec with one reading chosen per ambiguous sentence."""

    def __init__(self):
        self.id = ""
        self.title = ""
        self.file = ""
        self.rulebook = ""
        self.domains = Domains()
        self.consts: dict[str, tuple[Type, object]] = {}
        self.switches: dict[str, bool] = {}
        self.switch_needs: dict[str, list[str]] = {}  # the switches each one needs on with it
        self.switch_cites: dict[str, Cite] = {}
        self.component_cites: dict[str, Cite] = {}  # domains and constants whose size or value the rulebook prints
        self.state_types: dict[str, Type] = {}
        self.defines: dict[str, tuple[list[str], ir.Expr]] = {}
        self.define_sigs: dict[str, Signature] = {}
        self.rules: dict[str, Rule] = {}
        self.actions: dict[str, Action] = {}
        self.readings: dict[str, Reading] = {}
        self.chosen: dict[str, str] = {}
        self.claims: dict[str, Claim] = {}
        self.non_normative: list[NonNormative] = []  # the `coverage` section's judgements
        self.packing: "Packing | None" = None  # the `packing` section (front/packing.py; read by solvers/packing/game.py)
        self.start: dict | None = None  # the `start` section as a state (plain values for what it leaves out)
        self.final_scores: list[FinalScore] = []  # the `final_score` entries, in order
        self.views: tuple = ()  # the `picture` section (zoospec/front/picture.py), drawn by solvers/play/picture.py
        self.dealing = None  # the `dealing` section (zoospec/front/dealing.py), played by solvers/dealing.py
        self.puzzle = None  # the `puzzle` section (zoospec/front/puzzle.py), answered by solvers/puzzle/search.py
        self._py = None
        self._z3 = None
        # the front end's `load` (front/loader.py sets it; the runtime does not import the front end):
        # `with_readings` loads the same file again under other choices
        self._reload = None
        self.varied: dict = {}  # constants given other values than the file's (front/loader.load)
        self._closures: dict[int, tuple] = {}
        self._legal_exprs: dict[str, ir.Expr] = {}
        self._ensure_exprs: dict[str, ir.Expr] = {}

    # ------------------------------------------------------------------ back ends
    @property
    def python_backend(self) -> PyCompiler:
        """The Python back end: source generated from the IR (backends/pygen.py), or with
        ZOOSPEC_PYTHON=closures the closures it is checked against (`reference`)."""
        if self._py is None:
            make = PyCompiler if os.environ.get("ZOOSPEC_PYTHON") == "closures" else GenCompiler
            self._py = make(self.domains, self.defines, self.state_types)
        return self._py

    def reference(self) -> PyCompiler:
        """A fresh closure compiler: the reference the generated Python is compared with."""
        return PyCompiler(self.domains, self.defines, self.state_types)

    @property
    def z3_backend(self) -> ZCompiler:
        """The Z3 back end, made on first use."""
        if self._z3 is None:
            self._z3 = ZCompiler(self.domains, self.defines, self.state_types)
        return self._z3

    def _compiled(self, node, build):
        """The Python closure of an IR node, built once (the node is kept alive beside it so its id stays unique)."""
        hit = self._closures.get(id(node))
        if hit is None:
            hit = self._closures[id(node)] = (build(node), node)
        return hit[0]

    def python_of(self, e: ir.Expr):
        """The compiled Python of an expression: a function of (state, env)."""
        return self._compiled(e, self.python_backend.compile)

    def evaluate(self, e: ir.Expr, state: dict, env: dict | None = None):
        """The value of e on a state. Define calls are shared within this one evaluation (the
        state cannot change during it), never across evaluations."""
        return self.python_of(e)(state, {**(env or {}), MEMO: {}})

    def z3_eval(self, e: ir.Expr, sym, ctx: ZCtx, env: dict | None = None):
        vars_ = sym.vars if isinstance(sym, SymState) else sym
        return self.z3_backend.compile(e, dict(env or {}), ctx, vars_)

    def rule(self, rid: str) -> Rule:
        try:
            return self.rules[rid]
        except KeyError:
            raise KeyError(f"no rule {rid!r}{suggest(rid, self.rules)}") from None

    # ------------------------------------------------------------------ arguments
    def _args(self, params, args: dict, who: str) -> dict:
        names = [n for n, _ in params]
        extra = set(args) - set(names)
        if extra:
            raise StateError(f"{who}: unknown argument(s) {', '.join(sorted(extra))}; it takes {', '.join(names) or 'none'}")
        out = {}
        for n, t in params:
            if n not in args:
                raise StateError(f"{who}: missing argument {n}")
            out[n] = from_json(args[n], t, self.domains, f"{who}({n})")  # parameters are scalars
        return out

    def _zargs(self, params, args: dict) -> dict:
        out = {}
        for n, t in params:
            v = args[n]
            out[n] = v if isinstance(v, z3.ExprRef) else zconst(v, t, self.domains)
        return out

    def sym_args(self, params, prefix: str):
        """Symbolic arguments for parameters: Z3 variables constrained to their domains."""
        sym = SymState(dict(params), self.domains, prefix)
        return sym.vars, sym.constraints, sym

    # ------------------------------------------------------------------ states
    def state_from_json(self, data: dict) -> dict:
        if not isinstance(data, dict):
            raise StateError("a state is a JSON object with one entry per state variable")
        extra = set(data) - set(self.state_types)
        if extra:
            raise StateError(f"unknown state variable(s): {', '.join(sorted(extra))}")
        out = {}
        for n, t in self.state_types.items():
            if n not in data and not self.always_empty(t):
                raise StateError(f"missing state variable {n}")
            out[n] = from_json(data.get(n, {}), t, self.domains, n)
        return out

    def has_instances(self, params) -> bool:
        """Whether parameters of these types can be bound at all: none ranges over an empty domain
        (one only a switch that is off fills — Zoo-ography's dealing without `dealing`)."""
        return not any((d := self.domains.of_type(t)) is not None and len(d) == 0 for _, t in params)

    def always_empty(self, t) -> bool:
        """A map over a domain with no values (one only a switch that is off fills): it has one
        value, the empty map, so a state may leave it out (a record saved before it existed)."""
        return isinstance(t, MapT) and not self.domains[t.key].atoms

    def start_state(self, players: int | None = None) -> dict:
        """A copy of the spec's `start` state; `players` sets the state variable of that name."""
        if self.start is None:
            raise StateError(f"{self.id} has no start section: give a state file")
        s = deep_copy(self.start)
        if players is not None:
            t = self.state_types.get("players")
            if t is None:
                raise StateError(f"{self.id} has no state variable 'players' to set")
            why = check_range(players, t, self.domains)
            if why:
                raise StateError(f"players: {why}")
            s["players"] = players
        return s

    def state_to_json(self, state: dict) -> dict:
        return {n: to_json(state[n], t, self.domains) for n, t in self.state_types.items()}

    def state_schema(self) -> dict:
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"state of {self.title}",
            "type": "object",
            "properties": {n: json_schema(t, self.domains) for n, t in self.state_types.items()},
            "required": [n for n, t in self.state_types.items() if not self.always_empty(t)],
            "additionalProperties": False,
        }

    def sym_state(self, prefix: str = "") -> SymState:
        return SymState(self.state_types, self.domains, prefix)

    # ------------------------------------------------------------------ actions
    def action(self, aid: str) -> Action:
        try:
            return self.actions[aid]
        except KeyError:
            raise KeyError(f"no action {aid!r}{suggest(aid, self.actions)}") from None

    def legal_expr(self, action: str) -> ir.Expr:
        """The action's legality as one expression (built once), for analyses that pose it as a
        question rather than check it: its requirements, then what it ensures (read after it)."""
        hit = self._legal_exprs.get(action)
        if hit is None:
            a = self.action(action)
            parts = tuple(e for _, e in a.requires) + ((self.ensure_expr(action),) if a.ensures else ())
            hit = self._legal_exprs[action] = ir.And(parts, BOOL) if parts else ir.Lit(True, BOOL)
        return hit

    def ensure_expr(self, action: str) -> ir.Expr:
        """What the action ensures, as one expression on the state before it (`after` its
        effect), built once: compiled closures are kept per node."""
        hit = self._ensure_exprs.get(action)
        if hit is None:
            a = self.action(action)
            body = tuple(e for _, e in a.ensures)
            hit = self._ensure_exprs[action] = ir.After(a.effect, ir.And(body, BOOL) if len(body) > 1 else body[0], BOOL, a.loc)
        return hit

    def legal(self, state: dict, action: str, args: dict) -> bool:
        a = self.action(action)
        env = self._args(a.params, args, a.id)
        if not all(self.evaluate(req, state, env) for _, req in a.requires):
            return False
        return not a.ensures or self.evaluate(self.ensure_expr(action), state, env)

    def failing_requirements(self, state: dict, action: str, args: dict) -> list[str]:
        """Why an action is not legal here, one entry per requirement that fails: the rule id it
        names, or `require N (FILE:LINE)`; `ensure` likewise, read after the effect."""
        a = self.action(action)
        env = self._args(a.params, args, a.id)
        out = [rid or f"require {k} ({req.loc.file}:{req.loc.line})" for k, (rid, req) in enumerate(a.requires, 1)
               if self.evaluate(req, state, env) is not True]
        if not out and a.ensures and not self.evaluate(self.ensure_expr(action), state, env):
            out.append("what it ensures: " + ", ".join(rid or f"ensure {k}" for k, (rid, _) in enumerate(a.ensures, 1)))
        return out

    def apply(self, state: dict, action: str, args: dict) -> dict:
        """The state after the action's effect (legality is not checked: see `legal`)."""
        a = self.action(action)
        env = self._args(a.params, args, a.id)
        return self.run_effect(a.effect, state, env)

    def run_effect(self, stmts, state: dict, env: dict) -> dict:
        return run_statements([self._stmt_fn(s) for s in stmts], state, env, self.state_types, self.domains)

    def _stmt_fn(self, s):
        return self._compiled(s, self.python_backend.stmt)

    def z3_legal(self, pre, action: str, args: dict, ctx: ZCtx):
        a = self.action(action)
        env = self._zargs(a.params, args)
        parts = [self.z3_eval(req, pre, ctx, env) for _, req in a.requires]
        if a.ensures:
            parts.append(self.z3_eval(self.ensure_expr(action), pre, ctx, env))
        return z3.And(parts or [z3.BoolVal(True)])

    def z3_effect(self, pre, action: str, args: dict, ctx: ZCtx) -> dict:
        a = self.action(action)
        return self.z3_run_effect(a.effect, pre, self._zargs(a.params, args), ctx)

    def z3_run_effect(self, stmts, pre, env: dict, ctx: ZCtx) -> dict:
        """The symbolic state after effect statements (an action's, or an effect rule's)."""
        vars_ = pre.vars if isinstance(pre, SymState) else pre
        writes: list = []
        for s in stmts:
            self.z3_backend.stmt(s, env, ctx, vars_, writes)
        return apply_writes(vars_, self.state_types, writes, ctx, self.domains)

    def transition(self, pre: SymState, post: SymState, action: str, args: dict, ctx: ZCtx) -> z3.BoolRef:
        """The action as a relation between two symbolic states: legal, defined, and post = effect(pre)."""
        legal = self.z3_legal(pre, action, args, ctx)
        nxt = self.z3_effect(pre, action, args, ctx)
        return z3.And(legal, ctx.defined(), post.equal(nxt))

    # ------------------------------------------------------------------ readings
    @property
    def switched_on(self) -> list[str]:
        """The switches that are on, in the spec's order (for headings, hints and errors)."""
        return [s for s, on in self.switches.items() if on]

    def switches_for(self, name: str) -> dict[str, bool]:
        """The switches to turn on for `name`: itself and, in turn, those it needs."""
        out, todo = {}, [name]
        while todo:
            s = todo.pop()
            if s not in out:
                out[s] = True
                todo += self.switch_needs.get(s, [])
        return out

    def with_readings(self, choices: dict[str, str], switches: dict[str, bool] | None = None) -> "Game":
        return self._reload(self.file, readings={**self.chosen, **choices}, switches={**self.switches, **(switches or {})},
                            constants=self.varied)

    def with_constants(self, values: dict) -> "Game":
        """The game with component constants given other values (name -> whole value, as written
        in the spec file), under the same readings and switches."""
        return self._reload(self.file, readings=self.chosen, switches=self.switches, constants={**self.varied, **values})

    def summary(self) -> str:
        return (f"{len(self.rules)} rules, {len(self.actions)} actions, {len(self.readings)} readings, "
                f"{len(self.claims)} claims")
