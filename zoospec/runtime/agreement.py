"""Proof that the two back ends agree, one body at a time.

`forward`: on a concrete state and arguments, the Python value (or Undefined) equals the Z3 term
fixed to the same state — the term must reduce to a constant (or, where a built-in introduced
auxiliary variables, be the only value the side constraints allow).
`backward`: Z3 finds states where a bool body holds and where it fails (or proves there are
none), and Python agrees on each.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

import z3
import z3.z3 as _z3mod  # the low-level substitute (see substituter)

from .. import engines, ir
from ..backends.python import MEMO, run_statements
from ..backends.z3 import ZCtx
from ..backends.zshare import SharedCompile
from ..errors import InternalError, Unanswered, Undefined
from ..ir.types import AtomT, BoolT, IntT, MapT, RecordT, SetT, Type
from ..smt import terms as zt
from ..smt.values import Choice, ZMap, ZRec, ZSet, is_term

_UNDEF = "undefined"


def substituter(binding):
    """A function t -> t with every (variable, value) pair of `binding` substituted. The same as
    z3.substitute(t, *binding), but the pairs are converted once, not per term, and checked for
    matching kinds without z3py's sort objects (Z3 itself rejects a pair of unequal sorts)."""
    if not binding:
        return lambda t: t
    n = len(binding)
    src, dst = (_z3mod.Ast * n)(), (_z3mod.Ast * n)()
    for i, (var, val) in enumerate(binding):
        if isinstance(var, z3.BoolRef) != isinstance(val, z3.BoolRef):
            raise InternalError(f"binding of {var} has the wrong kind of value: {val}")
        src[i], dst[i] = var.ast, val.ast

    def sub(t):
        return _z3mod._to_expr_ref(_z3mod.Z3_substitute(t.ctx.ref(), t.as_ast(), n, src, dst), t.ctx)
    return sub


def terms_of(v, out: list) -> list:
    """Every Z3 term a back-end value holds, in the order `decode` may read them (a Choice's
    conditions too)."""
    if is_term(v):
        out.append(v)
    elif isinstance(v, ZSet):
        out.extend(v.bits.values())
    elif isinstance(v, ZMap):
        for x in v.entries.values():
            terms_of(x, out)
    elif isinstance(v, ZRec):
        for x in v.fields.values():
            terms_of(x, out)
    elif isinstance(v, Choice):
        for c, x in v.options:
            out.append(c)
            terms_of(x, out)
    elif isinstance(v, dict):  # an effect's post-state: one value per state variable
        for x in v.values():
            terms_of(x, out)
    elif isinstance(v, (frozenset, set, tuple, list)):
        for x in v:
            terms_of(x, out)
    return out


@dataclass
class Item:
    """Something with a body to test: a rule, define, claim, or an action's requirement, weight or effect."""

    label: str
    params: list[tuple[str, Type]]
    expr: ir.Expr | None = None
    action: str | None = None  # for effects: the action id


def items(game) -> list[Item]:
    """What the back ends are compared on. A rule or define with a parameter over an empty domain
    has no instance in this game (Zoo-ography's regions without World Exhibits): it is compared
    under the switch that fills the domain, where it is a changed item."""
    out = []
    for r in game.rules.values():
        if r.body is not None and not _passes_through(game, r.params, r.body) and game.has_instances(r.params):
            out.append(Item(f"rule {r.id}", r.params, r.body))
    for name, (pnames, body) in game.defines.items():
        sig = game.define_sigs[name]
        if all(_finite(t, game) for _, t in sig.params) and game.has_instances(sig.params):
            out.append(Item(f"define {name}", sig.params, body))
    for c in game.claims.values():
        out.append(Item(f"claim {c.id}", c.params, c.body))
        if c.given is not None:
            out.append(Item(f"claim {c.id} given", c.params, c.given))
    for a in game.actions.values():
        if not game.has_instances(a.params):  # no move at all under these switches
            continue
        for i, (rid, e) in enumerate(a.requires):
            if rid is not None and game.rules[rid].body is e:
                continue  # a rule required by id: its own item above is the same expression
            out.append(Item(f"action {a.id} require {rid or i}", a.params, e))
        if a.weight is not None:  # how likely chance takes the move: read by the dealing
            out.append(Item(f"action {a.id} weight", a.params, a.weight))
        if a.ensures:  # read after the effect: the effect and the rules together
            out.append(Item(f"action {a.id} ensure", a.params, game.ensure_expr(a.id)))
        out.append(Item(f"action {a.id} effect", a.params, None, a.id))
    return out


def _passes_through(game, params, expr) -> bool:
    """A body that only calls a define with the item's own parameters, in order and of the same
    types (`exhibit(x)` under `zp.def.exhibit`): the define's own item is the same expression over
    the same arguments, so comparing it again would only compile the same Z3 terms twice."""
    if not (isinstance(expr, ir.Call) and expr.name in game.defines and len(expr.args) == len(params)):
        return False
    sig = game.define_sigs[expr.name].params
    return (all(isinstance(a, ir.Local) and a.name == n for a, (n, _) in zip(expr.args, params))
            and all(t == dt and _finite(t, game) for (_, t), (_, dt) in zip(params, sig)))


def variants(game) -> list[tuple[str, dict, dict]]:
    """Each single departure from the default game: (tag, readings, switches) for every switch
    turned on (with the switches it needs) and every reading's other choices."""
    out = [(f"with {s}", {}, game.switches_for(s)) for s, on in game.switches.items() if not on]
    out += [(f"{r.id}={c}", {r.id: c}, {}) for r in game.readings.values() for c in r.choices if c != game.chosen[r.id]]
    return out


def under_variant(game, tag: str):
    """The game under the departure `tag` names (one of `variants`), or the game itself for ''."""
    if not tag:
        return game
    (readings, switches), = [(r, s) for t, r, s in variants(game) if t == tag]
    return game.with_readings(readings, switches)


def changed_items(game, other) -> list[Item]:
    """The items of `other` (the same spec under other readings or switches) whose own expression
    or effect differs from `game`'s: a switch or a reading is folded into the bodies that name it,
    so these are the bodies the default game's items never test."""
    mine = {i.label: i for i in items(game)}

    def text(g, i):
        return repr(g.actions[i.action].effect) if i.action else repr(i.expr)
    return [i for i in items(other) if i.label not in mine or text(other, i) != text(game, mine[i.label])]


def _finite(t, game):
    if isinstance(t, IntT):
        return t.bounded
    if isinstance(t, (BoolT, AtomT)):
        return True
    if isinstance(t, SetT):
        return game.domains.of_type(t.elem) is not None
    if isinstance(t, MapT):
        return _finite(t.value, game)
    if isinstance(t, RecordT):
        return all(_finite(ft, game) for _, ft in t.fields)
    return False


_SHARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game -> SharedCompile
_COMPILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game -> {(label, body): Compiled}


def compiled(game, item: Item) -> "Compiled":
    """The item compiled once per process: every body of one game is compiled on one symbolic
    state with one memo (backends/zshare.py), so the define calls bodies share are built once —
    across the agreement items, the known-answer cases and the replayed games of a test worker."""
    mine = _COMPILED.setdefault(game, {})
    key = (item.label, id(item.expr) if item.action is None else item.action)
    hit = mine.get(key)
    if hit is None or hit.item.expr is not item.expr:
        shared = _SHARED.get(game)
        if shared is None:
            shared = _SHARED[game] = SharedCompile(game.sym_state("pre."))
        hit = mine[key] = Compiled(game, item, shared)
    return hit


class Compiled:
    """An item's Z3 side, built once on a symbolic state and symbolic arguments (with `shared`,
    the state, memo and side constraints of other items of the same game: `compiled`)."""

    def __init__(self, game, item: Item, shared: SharedCompile | None = None):
        self.game, self.item = game, item
        self.sym = game.sym_state("pre.") if shared is None else shared.sym
        self.args, self.arg_constraints, self.arg_sym = game.sym_args(item.params, "arg.")
        self.ctx = ZCtx() if shared is None else shared.context()
        if item.action is None:
            self.value = game.z3_eval(item.expr, self.sym, self.ctx, self.args)
            self.type = item.expr.type
        else:
            self.value = game.z3_effect(self.sym, item.action, self.args, self.ctx)
            self.type = None
        self.defined = self.ctx.defined()
        if shared is not None:
            shared.finish(self.ctx, terms_of(self.value, [self.defined]))
        self._packed = None  # built by _reader on first use
        self._reference = None  # the closure back end's function(s), built by `reference` on first use

    def _reader(self, sub, model=None, read=None):
        """ev: term -> its constant on the state `sub` fixes. Every term of the value is one
        argument of a single packed application, substituted and simplified in one call: the
        terms share most of their structure, which per-term calls would walk again each time.
        With a `model` (of the side constraints on that state), what is left of a term over
        auxiliary variables is read in the model, and 'differs from that' is noted in `read`."""
        if self._packed is None:
            uniq, index = [], {}
            for t in terms_of(self.value, [self.defined]):
                if id(t) not in index:
                    index[id(t)] = len(uniq)
                    uniq.append(t)
            pack = z3.Function(f"pack.{self.item.label}", *[t.sort() for t in uniq], z3.BoolSort())
            app = pack(*uniq)
            self._packed = (app, index, zt.has_quantifier(app), len(uniq))  # the ids are of terms self.value keeps alive
        app, index, quantified, n = self._packed
        got = z3.simplify(sub(app))
        if quantified:
            got = settle(got, self.item.label)
        ref, got_ast = got.ctx_ref(), got.as_ast()
        seen: dict[int, object] = {}
        if model is None:  # every term a constant, as on a state with no side constraints: one read for all
            consts = zt.constant_args(got, n)
            if consts is not None:
                seen = dict(enumerate(consts))

        def ev(t):
            i = index.get(id(t))
            if i is None:  # not a term of the value (decode reads only those): on its own
                alone = settle(z3.simplify(sub(t)), self.item.label)  # held while its AST is read
                raw = alone.as_ast()
            else:
                v = seen.get(i)
                if v is not None:
                    return v
                raw = _z3mod.Z3_get_app_arg(ref, got_ast, i)  # unwrapped: z3py's wrapper costs more than the read
            if model is not None:
                left = _z3mod._to_expr_ref(raw, got.ctx)
                alone = model.eval(left, model_completion=True)  # held while its AST is read
                read.append(left != alone)
                raw = alone.as_ast()
            v = zt.constant(raw)
            if v is None:
                raise InternalError(f"{self.item.label}: Z3 term does not reduce to a constant on a concrete state: "
                                    f"{_z3mod._to_expr_ref(raw, got.ctx)}")
            if i is not None:
                seen[i] = v
            return v
        return ev

    def binding(self, state, args):
        return self.sym.bind(state) + self.arg_sym.bind(args)

    def python(self, state, args):
        g = self.game
        try:
            if self.item.action is None:
                return g.evaluate(self.item.expr, state, args)
            return g.run_effect(g.action(self.item.action).effect, state, args)
        except Undefined:
            return _UNDEF

    def reference(self, state, args):
        """The value by the closure back end (backends/python.py), which the generated Python
        of `python` (backends/pygen.py) must equal on every state."""
        g = self.game
        if self._reference is None:
            ref = g.reference()
            self._reference = (ref.compile(self.item.expr) if self.item.action is None
                               else [ref.stmt(s) for s in g.action(self.item.action).effect])
        try:
            if self.item.action is None:
                return self._reference(state, {**args, MEMO: {}})
            return run_statements(self._reference, state, args, g.state_types, g.domains)
        except Undefined:
            return _UNDEF

    def z3_on(self, state, args):
        """The Z3 side's value on a concrete state and arguments, as a Python value."""
        sub = substituter(self.binding(state, args))
        if not self.ctx.sides:
            ev = self._reader(sub)
        else:
            # the side constraints are fixed to the state before Z3 sees them: with the state's
            # variables substituted and simplified away, only the auxiliary variables are left
            # (a region's labels on a known map), which presolving settles at once; asserting the
            # state as equalities instead left that to the search (~10 s a state on Zoo Parque)
            # budgeted as backward's questions are: a check that swings (Z3's path depends on the
            # terms a worker built before) then fails with its name instead of running unbounded
            s = _budgeted(z3.Then(*PRESOLVE).solver(), RLIMIT, [z3.simplify(sub(zt.And(self.ctx.sides)))])
            r = s.check()
            if r == z3.unknown:
                raise Unanswered(f"{self.item.label}: Z3 found no solution of the side constraints on a concrete state"
                                 " within its budget")
            if r != z3.sat:
                raise InternalError(f"{self.item.label}: side constraints have no solution on a concrete state")
            read = []
            ev = self._reader(sub, s.model(), read)
        if not zt.is_true(ev(self.defined)):
            out = _UNDEF
        elif self.type is None:
            out = {n: decode(self.value[n], t, ev, self.game.domains) for n, t in self.game.state_types.items()}
        else:
            out = decode(self.value, self.type, ev, self.game.domains)
        if self.ctx.sides:  # every term read has that value in every solution: one question for all
            s.add(z3.Or(read))
            r = s.check()
            if r == z3.unknown:
                raise Unanswered(f"{self.item.label}: Z3 could not show the value unique on a concrete state within its budget")
            if r != z3.unsat:
                raise InternalError(f"{self.item.label}: auxiliary variables leave the value open on a concrete state")
        return out


def settle(t, label: str = ""):
    """t with each quantifier (a `can`, its definedness) replaced by its truth value. On a concrete
    state a quantifier is closed: its truth is asked of Z3 as an existential (a universal by its
    negation), so only a witness is ever sought. An answer other than sat or unsat is an error."""
    found, seen, todo = [], set(), [t]
    while todo:
        x = todo.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_quantifier(x):
            found.append(x)
        elif z3.is_app(x):
            todo.extend(x.children())
    if not found:
        return t
    pairs = []
    for q in found:
        exists = not q.is_forall()
        s = z3.Then(*PRESOLVE).solver()
        s.set("rlimit", RLIMIT)
        s.add(q if exists else z3.Not(q))
        r = s.check()
        if r == z3.unknown:
            raise Unanswered(f"{label}: Z3 could not decide a quantified term on a concrete state ({s.reason_unknown()})")
        pairs.append((q, z3.BoolVal((r == z3.sat) == exists)))
    return z3.simplify(z3.substitute(t, *pairs))


def decode(v, t: Type, ev, domains):
    """A Z3 back-end value as a Python value, reading terms through ev (term → Z3 constant)."""
    if isinstance(v, Choice):
        for cond, x in v.options:
            if zt.is_true(ev(cond)):
                return decode(x, t, ev, domains)
        raise InternalError("no alternative of a choice holds")
    if isinstance(t, BoolT):
        return zt.is_true(ev(v))
    if isinstance(t, IntT):
        return zt.int_of(ev(v))
    if isinstance(t, AtomT):
        return domains[t.domain].atom(zt.int_of(ev(v)))
    if isinstance(t, SetT):
        if isinstance(v, ZSet):
            d = domains.of_type(t.elem)
            conv = (lambda k: bool(k)) if isinstance(t.elem, BoolT) else (d.atom if d is not None else (lambda k: k))
            return frozenset(conv(k) for k, b in v.bits.items() if zt.is_true(ev(b)))
        return frozenset(decode_elem(x, t.elem, ev, domains) for x in v)
    if isinstance(t, MapT):
        d = domains[t.key]
        return {d.atom(k): decode(x, t.value, ev, domains) for k, x in v.entries.items()}
    if isinstance(t, RecordT):
        return {n: decode(v.fields[n], ft, ev, domains) for n, ft in t.fields}
    return v


def decode_elem(x, t, ev, domains):
    if is_term(x) or isinstance(x, (ZSet, ZMap, ZRec, Choice)):
        return decode(x, t, ev, domains)
    return x


def forward(compiled: Compiled, state, args) -> tuple:
    """(python value, z3 value) on one concrete state; equal when the back ends agree."""
    return compiled.python(state, args), compiled.z3_on(state, args)


PRESOLVE = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt")


# Z3's budget per attempt, in its deterministic resource units (`rlimit`), not seconds: a verdict
# must not depend on how busy the machine is (tests run one worker per core). Deterministic for one
# query, but not across processes: the terms built before a query change Z3's search. Zoo Parque's
# zp.feed.final-say takes 286 M for 'undefined' and 14 M or 187 M for 'any' in a fresh process,
# depending only on whether the 'undefined' term was built first — and over 300 M once in a CI
# worker that had compiled other items before it. Hence a wide margin (~10 M a second here).
# The wall-clock cap only stops a pathological case and is far above what the budget takes here.
RLIMIT = 1_000_000_000
WALL_CAP_MS = 300_000


def _budgeted(s, rlimit: int, asked):
    s.set("rlimit", rlimit)
    s.set("timeout", WALL_CAP_MS)
    s.add(asked)
    return s


def backward(compiled: Compiled, rlimit: int = RLIMIT, on: dict | None = None) -> list[tuple[str, str]]:
    """Ask for witnesses of the compiled terms and replay each in Python. Returns (what, verdict)
    per question: 'what' says which question; the verdict is 'agree' or 'disagree: ...' (both
    values) on the witness, 'none' (proved: there is no such state) or 'unknown' (no answer
    within the budget). A witness must also answer its question — the body holds on a 'holds'
    witness, and so on — by both back ends: the solver's model is evidence, not the verdict.
    The question goes to Yices first where it can take it (engines.yices_first, ADR 0021), then
    to Z3 with its deterministic budget.
    `on` (state variable -> concrete value) seeks the 'holds' and 'fails' witnesses among states
    with those values only — for a body over a whole map, where Z3 building the map itself is the
    search that swings; no such witness there is 'none where pinned', not a proof of anything."""
    out = []
    pinned = [a == b for n, v in (on or {}).items() for a, b in compiled.sym.bind_one(n, v)]
    base = [compiled.defined] + compiled.sym.constraints + compiled.arg_constraints + compiled.ctx.sides + pinned
    t = compiled.type
    if isinstance(t, BoolT):
        questions = [("holds", compiled.value), ("fails", z3.Not(compiled.value))]
    else:  # an int, set, ... value, or an effect: any defined witness
        questions = [("effect" if t is None else "any", z3.BoolVal(True))]
    questions.append(("undefined", z3.Not(compiled.defined)))
    for what, q in questions:
        asked = (compiled.sym.constraints + compiled.arg_constraints + compiled.ctx.sides if what == "undefined" else base) + [q]
        r, s = _ask(asked, rlimit)
        if r == z3.unknown:
            out.append((what, "unknown"))
        elif r == z3.unsat:
            out.append((what, "none where pinned" if pinned and what != "undefined" else "none"))
        else:
            m = s.model()
            state, args = compiled.sym.decode(m), compiled.arg_sym.decode(m)
            py, zv = compiled.python(state, args), compiled.z3_on(state, args)
            if py != zv:
                out.append((what, f"disagree: Python {py!r} but Z3 {zv!r}"))
            elif not _answers(what, py):
                out.append((what, f"disagree: the witness is not one ({what} asked, both back ends give {py!r})"))
            else:
                out.append((what, "agree"))
    return out


def _answers(what: str, value) -> bool:
    """Whether a value (the same in both back ends) answers the question its witness was for."""
    if what == "holds":
        return value is True
    if what == "fails":
        return value is False
    if what == "undefined":
        return value == _UNDEF
    return value != _UNDEF


def _ask(asked, rlimit):
    """(answer, solver): Yices first where it can answer; else Z3, presolving first (substituting
    the equalities away, as solvers/puzzle/search.py does, answers a whole table's region labels — Zoo
    Parque's Areas and Exhibits — which defeat Z3's default strategy, and measured no slower
    elsewhere), with Z3's default strategy as the fallback."""
    got = engines.yices_first(asked)
    if got is not None:
        return got
    s = _budgeted(z3.Then(*PRESOLVE).solver(), rlimit, asked)
    r = s.check()
    if r == z3.unknown:
        s = _budgeted(z3.Solver(), rlimit, asked)
        r = s.check()
    return r, s
