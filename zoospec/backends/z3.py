"""Z3 back end: IR → Z3 terms over a symbolic state.

Finite quantifiers expand into quantifier-free terms. Every partial operation (a `the(...)`, an
index into an int-keyed map, a division, a written value's range) adds an *obligation* guarded
by the path condition under which Python would evaluate it; built-ins that need auxiliary
variables add *side* constraints that define them uniquely. A term's value is meaningful where
the obligations hold; both lists live in `ZCtx`.
"""
from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass

import z3

from .. import ir
from ..builtins.base import REGISTRY
from ..errors import Loc
from ..ir.order import ordered
from ..ir.plan import can_plan
from ..ir.types import AtomT, BoolT, IntT, MapT, RecordT, SetT, ShapeT, Type, scalar
from ..smt import terms as zt
from ..smt.values import FALSE, TRUE, Choice, ZMap, ZRec, ZSet, is_term, ite, lift, select
from . import MissingHandler
from .python import UNKNOWN, PyCompiler  # constant folding: `after` bodies known without a state


class Unsupported(Exception):
    """An expression the Z3 back end cannot encode (e.g. placements on a state-dependent board)."""

    def __init__(self, loc: Loc, message: str):
        super().__init__(f"{loc}: {message}")
        self.loc, self.message = loc, message


@dataclass
class Obligation:
    cond: z3.BoolRef
    reason: str
    loc: Loc


class ZCtx:
    """Collects obligations and side constraints while terms are built; tracks the path condition."""

    def __init__(self, prefix: str = "aux"):
        self.guard = TRUE
        self.obligations: list[Obligation] = []
        self.sides: list[z3.BoolRef] = []
        self.aux: list = []  # the auxiliary variables the side constraints define (a `can` binds them)
        self.prefix = prefix
        self._n = 0
        self.memo: dict = {}
        self._unconditional: dict = {}

    @contextlib.contextmanager
    def under(self, cond):
        old = self.guard
        self.guard = cond if old is TRUE else (old if cond is TRUE else zt.And(old, cond))
        try:
            yield
        finally:
            self.guard = old

    def oblige(self, cond, reason: str, loc: Loc):
        if cond is TRUE:
            return
        key = (cond.get_id(), reason)
        if key in self._unconditional:  # already required everywhere: implied under any guard
            return
        if self.guard is TRUE:
            self._unconditional[key] = cond  # (kept alive so its id stays unique)
        self.obligations.append(Obligation(cond if self.guard is TRUE else zt.Implies(self.guard, cond), reason, loc))

    def side(self, cond):
        self.sides.append(cond)

    def fresh_tag(self, what: str) -> str:
        self._n += 1
        return f"{self.prefix}.{what}{self._n}"

    def defined(self) -> z3.BoolRef:
        return zt.And([o.cond for o in self.obligations]) if self.obligations else TRUE


class ZCallCtx:
    """What a built-in's Z3 side may use."""

    def __init__(self, domains, types, loc, ctx: ZCtx):
        self.domains, self.types, self.loc, self._ctx = domains, types, loc, ctx

    def oblige(self, cond, reason):
        self._ctx.oblige(cond, reason, self.loc)

    def side(self, cond):
        self._ctx.side(cond)

    def declare(self, variables):
        """Name the auxiliary variables a built-in made (its side constraints define them)."""
        self._ctx.aux.extend(variables)

    def fresh_tag(self, what):
        return self._ctx.fresh_tag(what)

    @property
    def memo(self) -> dict:
        """Shared with the defines' memo: a built-in may encode a structure once per set."""
        return self._ctx.memo

    def unsupported(self, message):
        raise Unsupported(self.loc, message)


# ------------------------------------------------------------------ values from Python constants

def scalar_codes(t: Type, domains) -> list[int] | None:
    if isinstance(t, AtomT):
        return list(domains[t.domain].codes())
    if isinstance(t, IntT) and t.bounded:
        return list(range(t.lo, t.hi + 1))
    if isinstance(t, BoolT):
        return [0, 1]
    return None


def zconst(value, t: Type, domains):
    """A concrete Python value of type t as a Z3 back-end value."""
    if isinstance(t, BoolT):
        return TRUE if value else FALSE
    if isinstance(t, IntT):
        return zt.num(value)
    if isinstance(t, AtomT):
        return zt.num(domains[t.domain].code(value))
    if isinstance(t, SetT):
        if not scalar(t.elem):
            return value
        codes = scalar_codes(t.elem, domains)
        present = sorted({_code(x, t.elem, domains) for x in value})
        # sparse: absent codes are implicitly false (every reader uses bits.get(k, FALSE))
        return ZSet(codes if codes is not None else present, {k: TRUE for k in present})
    if isinstance(t, MapT):
        d = domains[t.key]
        return ZMap(list(d.codes()), {d.code(a): zconst(v, t.value, domains) for a, v in value.items()})
    if isinstance(t, RecordT):
        return ZRec({n: zconst(value[n], ft, domains) for n, ft in t.fields})
    if isinstance(t, ShapeT):
        return value
    raise MissingHandler(f"no Z3 constant for type {t}")


def _code(x, t, domains):
    if isinstance(t, AtomT):
        return domains[t.domain].code(x)
    return int(x)


def zero(t: Type, domains):
    """Some value of type t (used where the value does not matter because an obligation fails)."""
    if isinstance(t, BoolT):
        return FALSE
    if isinstance(t, (IntT, AtomT)):
        return zt.num(0)
    if isinstance(t, SetT):
        return zconst(frozenset(), t, domains)
    if isinstance(t, MapT):
        d = domains[t.key]
        return ZMap(list(d.codes()), {k: zero(t.value, domains) for k in d.codes()})
    if isinstance(t, RecordT):
        return ZRec({n: zero(ft, domains) for n, ft in t.fields})
    return Choice([])


def in_range(v, t: Type, domains) -> z3.BoolRef:
    """The Z3 condition that a value fits its declared type's bounds."""
    if isinstance(t, IntT) and t.bounded:
        return zt.And(v >= t.lo, v <= t.hi)
    if isinstance(t, AtomT):
        return zt.And(v >= 0, v < len(domains[t.domain]))
    if isinstance(t, MapT):
        return zt.And([in_range(x, t.value, domains) for x in v.entries.values()] or [TRUE])
    if isinstance(t, RecordT):
        return zt.And([in_range(v.fields[n], ft, domains) for n, ft in t.fields] or [TRUE])
    if isinstance(t, SetT) and isinstance(v, ZSet):
        allowed = scalar_codes(t.elem, domains)
        if allowed is None:
            return TRUE
        allowed = set(allowed)
        return zt.And([zt.Not(b) for k, b in v.bits.items() if k not in allowed] or [TRUE])
    return TRUE


def _bool(x: bool):
    return TRUE if x else FALSE


# Aggregates over known elements fold to constants, as `and`/`or` chains do: a rule asking
# whether a neighbour exists (`any(row(x) == row(c) - 1 ... for x in cell)`) on a known cell must
# come out TRUE or FALSE, or everything guarded by it is compiled as if it could go either way.
def _fold_all(pairs):
    return _fold_bool(pairs, True)


def _fold_any(pairs):
    return _fold_bool(pairs, False)


def _fold_bool(pairs, is_all: bool):
    """all(v where g) — each element g → v — or any(v where g) — each element g ∧ v."""
    unit, decides = (TRUE, FALSE) if is_all else (FALSE, TRUE)
    terms = []
    for g, v in pairs:
        g, v = zt.known(g), zt.known(v)
        if g is FALSE or v is unit:
            continue
        if v is decides and g is TRUE:
            return decides
        if g is TRUE:
            terms.append(v)
        elif is_all:
            terms.append(zt.Not(g) if v is FALSE else zt.Implies(g, v))
        else:
            terms.append(g if v is TRUE else zt.And(g, v))
    if len(terms) == 1:
        return terms[0]
    return (zt.And(terms) if is_all else zt.Or(terms)) if terms else unit


def _fold_sum(pairs):
    """sum of v where g: known terms added up, the rest left to Z3."""
    total, terms = 0, []
    for g, v in pairs:
        g = zt.known(g)
        if g is FALSE:
            continue
        if g is TRUE and zt.is_int_value(v):
            total += zt.int_of(v)
        else:
            terms.append(v if g is TRUE else zt.If(g, v, zt.num(0)))
    if not terms:
        return zt.num(total)
    return z3.Sum(terms + [zt.num(total)]) if total else (terms[0] if len(terms) == 1 else z3.Sum(terms))


def zequal(a, b):
    if is_term(a) and is_term(b):
        return zt.Eq(a, b)
    if isinstance(a, ZSet) and isinstance(b, ZSet):
        codes = set(a.codes) | set(b.codes)
        return zt.And([zt.Eq(a.bits.get(k, FALSE), b.bits.get(k, FALSE)) for k in sorted(codes)] or [TRUE])
    return lift(lambda x, y: z3.BoolVal(x == y), a, b)


# ------------------------------------------------------------------ the compiler

class ZCompiler:
    def __init__(self, domains, defines: dict[str, tuple[list[str], ir.Expr]] | None = None, types: dict | None = None):
        self.domains = domains
        self.defines = defines or {}
        self.types = types or {}  # the state variables' types, for `after` (an action's ensure)
        self._py = None  # a Python compiler, to see which `after` bodies are constants
        self._known: dict[int, tuple] = {}
        self._lits: dict[int, tuple] = {}
        self._pure: dict[str, bool] = {}  # define name -> reads no state (_stateless)

    def compile(self, e: ir.Expr, env: dict, ctx: ZCtx, state: dict):
        h = getattr(self, "z_" + type(e).__name__, None)
        if h is None:
            raise MissingHandler(f"Z3 back end has no handler for {type(e).__name__}")
        return h(e, env, ctx, state)

    def c(self, e, env, ctx, state):
        return self.compile(e, env, ctx, state)

    # -- leaves
    def z_Lit(self, e, env, ctx, st):
        # one Z3 value per literal node: constants (whole maps and sets) are built once, and
        # memos keyed on a value's identity (z_Index) can hit
        hit = self._lits.get(id(e))
        if hit is None or hit[0] is not e:
            hit = self._lits[id(e)] = (e, zconst(e.value, e.type, self.domains))
        return hit[1]

    def z_StateVar(self, e, env, ctx, st):
        return st[e.name]

    def z_Local(self, e, env, ctx, st):
        return env[e.name]

    def z_Field(self, e, env, ctx, st):
        return self.c(e.base, env, ctx, st).fields[e.name]

    def z_Index(self, e, env, ctx, st):
        m = self.c(e.base, env, ctx, st)
        k = self.c(e.key, env, ctx, st)
        if zt.is_int_value(k):
            code = zt.int_of(k)
            if code in m.entries:
                return m.entries[code]
            ctx.oblige(FALSE, f"key {code} is outside domain {e.base.type.key}", e.loc)
            return zero(e.type, self.domains)
        if not m.codes:  # an empty domain (`range: [1, 0]` until a switch widens it): no key is in it
            ctx.oblige(FALSE, f"key is outside domain {e.base.type.key} (it is empty)", e.loc)
            return zero(e.type, self.domains)
        if isinstance(e.key.type, IntT):
            ctx.oblige(zt.Or([zt.Eq(k, zt.num(c)) for c in m.codes]), f"key is outside domain {e.base.type.key}", e.loc)
        else:  # an atom key is always in range: the same (map, key) pair may share one term
            hit = ctx.memo.get(("index", id(m), k.get_id()))
            if hit is not None and hit[0] is m:  # holding m keeps its id from being reused
                return hit[1]
        pairs = [(zt.Eq(k, zt.num(c)), m.entries[c]) for c in m.codes]
        out = select(pairs[:-1], pairs[-1][1])
        if not isinstance(e.key.type, IntT):
            ctx.memo[("index", id(m), k.get_id())] = (m, out)
        return out

    # -- logic
    def z_Compare(self, e, env, ctx, st):
        a, b = self.c(e.left, env, ctx, st), self.c(e.right, env, ctx, st)
        if zt.is_int_value(a) and zt.is_int_value(b):  # both known (a pinned state part, a loop atom)
            x, y = zt.int_of(a), zt.int_of(b)
            return _bool({"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y}[e.op])
        if e.op == "==":
            return zequal(a, b)
        if e.op == "!=":
            return zt.Not(zequal(a, b))
        return a < b if e.op == "<" else a <= b

    def z_Not(self, e, env, ctx, st):
        a = self.c(e.arg, env, ctx, st)
        return FALSE if a is TRUE else TRUE if a is FALSE else zt.Not(a)

    def _chain(self, args, env, ctx, st, is_and):
        """The operands' terms, left to right, each compiled under the path condition that the
        ones before let evaluation reach it; a known operand that decides the result stops the
        chain there (Python would not evaluate the rest either) and known neutral ones drop."""
        terms = []
        cond = TRUE
        decides, neutral = (FALSE, TRUE) if is_and else (TRUE, FALSE)
        for a in args:
            with ctx.under(cond):
                t = self.c(a, env, ctx, st)
            if t is decides:
                return [t]
            if t is neutral:
                continue
            terms.append(t)
            cond = zt.And(cond, t) if is_and else zt.And(cond, zt.Not(t))
        return terms

    def z_And(self, e, env, ctx, st):
        terms = self._chain(e.args, env, ctx, st, True)
        return terms[0] if len(terms) == 1 else zt.And(terms) if terms else TRUE

    def z_Or(self, e, env, ctx, st):
        terms = self._chain(e.args, env, ctx, st, False)
        return terms[0] if len(terms) == 1 else zt.Or(terms) if terms else FALSE

    def z_Implies(self, e, env, ctx, st):
        a = self.c(e.left, env, ctx, st)
        if a is FALSE:
            return TRUE
        with ctx.under(a):
            b = self.c(e.right, env, ctx, st)
        return zt.Implies(a, b)

    # -- arithmetic
    def z_Arith(self, e, env, ctx, st):
        a, b = self.c(e.left, env, ctx, st), self.c(e.right, env, ctx, st)
        if zt.is_int_value(a) and zt.is_int_value(b) and (e.op in "+-*" or zt.int_of(b) != 0):
            x, y = zt.int_of(a), zt.int_of(b)
            return zt.num({"+": x + y, "-": x - y, "*": x * y, "//": x // y if y else 0, "%": x % y if y else 0}[e.op])
        if zt.is_int_value(b) and zt.int_of(b) != 0 and e.op in ("//", "%"):
            k = zt.int_of(b)
            q = a / k if k > 0 else (-a) / (-k)
            return q if e.op == "//" else a - k * q
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        ctx.oblige(b != 0, "division by zero" if e.op == "//" else "modulo by zero", e.loc)
        q = zt.If(b > 0, a / b, (-a) / (-b))  # Python's floor division from SMT-LIB's Euclidean one
        return q if e.op == "//" else a - b * q

    def z_Neg(self, e, env, ctx, st):
        return -self.c(e.arg, env, ctx, st)

    def z_Abs(self, e, env, ctx, st):
        a = self.c(e.arg, env, ctx, st)
        return zt.If(a < 0, -a, a)

    def z_MinMax(self, e, env, ctx, st):
        vals = [self.c(a, env, ctx, st) for a in e.args]
        out = vals[0]
        for v in vals[1:]:
            out = zt.If(v < out, v, out) if e.op == "min" else zt.If(v > out, v, out)
        return out

    def z_Ite(self, e, env, ctx, st):
        c = self.c(e.cond, env, ctx, st)
        if c is TRUE or c is FALSE:  # a known condition: only the branch Python takes
            return self.c(e.then if c is TRUE else e.orelse, env, ctx, st)
        with ctx.under(c):
            a = self.c(e.then, env, ctx, st)
        with ctx.under(zt.Not(c)):
            b = self.c(e.orelse, env, ctx, st)
        return ite(c, a, b)

    # -- generators
    def elements(self, src, t: Type):
        """(guard, value) for each element a set value may hold, in the shared iteration order."""
        if isinstance(src, ZSet):
            return [(b, self._elem(k, t)) for k, b in sorted(src.bits.items()) if b is not FALSE]
        if isinstance(src, Choice):
            guards: dict = {}
            for cond, s in src.options:
                for x in s:
                    guards.setdefault(x, []).append(cond)
            return [(zt.Or(guards[x]), zconst(x, t, self.domains)) for x in ordered(guards, t, self.domains)]
        return [(TRUE, zconst(x, t, self.domains)) for x in ordered(src, t, self.domains)]

    def _elem(self, code, t):
        if isinstance(t, BoolT):
            return z3.BoolVal(bool(code))
        return zt.num(code)

    def bindings(self, clauses, env, ctx, st):
        """Expand generator clauses: a list of (guard, env) pairs, conditions included."""
        out = [(TRUE, env)]
        for cl in clauses:
            nxt = []
            for g, en in out:
                with ctx.under(g):
                    src = self.c(cl.source, en, ctx, st)
                for bit, val in self.elements(src, cl.source.type.elem):
                    g2 = bit if g is TRUE else (g if bit is TRUE else zt.And(g, bit))
                    en2 = {**en, cl.var: val}
                    for cond in cl.conds:
                        with ctx.under(g2):
                            cv = self.c(cond, en2, ctx, st)
                        g2 = cv if g2 is TRUE else zt.And(g2, cv)
                    if g2 is not FALSE:
                        nxt.append((g2, en2))
            out = nxt
        return out

    def z_Agg(self, e, env, ctx, st):
        pairs = []
        for g, en in self.bindings(e.clauses, env, ctx, st):
            with ctx.under(g):
                pairs.append((g, self.c(e.elt, en, ctx, st)))
        op = e.op
        if op == "all":
            return _fold_all(pairs)
        if op == "any":
            return _fold_any(pairs)
        if op == "count":
            if isinstance(e.elt.type, BoolT):
                pairs = [(_fold_any([(g, v)]), zt.num(1)) for g, v in pairs]
            else:
                pairs = [(g, zt.num(1)) for g, _ in pairs]
            return _fold_sum(pairs)
        if op == "sum":
            return _fold_sum(pairs)
        if op == "set":
            codes = scalar_codes(e.type.elem, self.domains)
            if codes is None:
                raise Unsupported(e.loc, "a set comprehension needs elements from a finite domain")
            bits = {k: zt.Or([zt.And(g, zt.Eq(v, self._elem(k, e.type.elem))) for g, v in pairs] or [FALSE]) for k in codes}
            return ZSet(codes, bits)
        with ctx.under(zt.Not(zt.Or([g for g, _ in pairs] or [FALSE]))):
            acc = self.c(e.default, env, ctx, st)
        seen = FALSE
        for g, v in pairs:
            better = (v < acc) if op == "min" else (v > acc)
            acc = zt.If(g, zt.If(seen, zt.If(better, v, acc), v), acc)
            seen = zt.Or(seen, g)
        return acc

    def z_The(self, e, env, ctx, st):
        pairs = []
        for g, en in self.bindings(e.clauses, env, ctx, st):
            with ctx.under(g):
                pairs.append((g, self.c(e.elt, en, ctx, st)))
        if not pairs:
            ctx.oblige(FALSE, "the(...) needs exactly one candidate, and there can be none", e.loc)
            return zero(e.type, self.domains)
        ctx.oblige(z3.PbEq([(g, 1) for g, _ in pairs], 1), "the(...) needs exactly one candidate", e.loc)
        return select(pairs[:-1], pairs[-1][1])

    # -- sets
    def z_Member(self, e, env, ctx, st):
        x, s = self.c(e.elem, env, ctx, st), self.c(e.set, env, ctx, st)
        if isinstance(s, ZSet):
            return s.member(x)
        t = e.set.type.elem
        return lift(lambda concrete: zt.Or([zequal(x, zconst(v, t, self.domains)) for v in concrete] or [FALSE]), s)

    def z_SetLit(self, e, env, ctx, st):
        items = [self.c(x, env, ctx, st) for x in e.items]
        codes = scalar_codes(e.type.elem, self.domains)
        if codes is not None:
            return ZSet(codes, {k: zt.Or([x == self._elem(k, e.type.elem) for x in items]) for k in codes})
        if all(isinstance(x, (frozenset,)) or not isinstance(x, (ZSet, Choice)) and not is_term(x) for x in items):
            return frozenset(items)
        raise Unsupported(e.loc, "a set of sets or shapes must be built from constants")

    def z_SetOp(self, e, env, ctx, st):
        a, b = self.c(e.left, env, ctx, st), self.c(e.right, env, ctx, st)
        if isinstance(a, ZSet):
            codes = sorted(set(a.codes) | set(b.codes))
            ga = lambda k: a.bits.get(k, FALSE)  # noqa: E731
            gb = lambda k: b.bits.get(k, FALSE)  # noqa: E731
            f = {"|": lambda k: zt.Or(ga(k), gb(k)), "&": lambda k: zt.And(ga(k), gb(k)),
                 "-": lambda k: zt.And(ga(k), zt.Not(gb(k)))}[e.op]
            return ZSet(codes, {k: z3.simplify(f(k)) if _small(f(k)) else f(k) for k in codes})
        py = {"|": lambda x, y: x | y, "&": lambda x, y: x & y, "-": lambda x, y: x - y}[e.op]
        return lift(py, a, b)

    def z_Len(self, e, env, ctx, st):
        s = self.c(e.arg, env, ctx, st)
        if isinstance(s, ZSet):
            return z3.Sum([zt.If(b, zt.num(1), zt.num(0)) for b in s.bits.values()]) if s.bits else zt.num(0)
        return lift(lambda v: z3.IntVal(len(v)), s)

    # -- calls
    def z_Call(self, e, env, ctx, st):
        params, body = self.defines[e.name]
        args = {p: self.c(a, env, ctx, st) for p, a in zip(params, e.args)}
        split = self._split_on(e.name, params, e.args, args)
        if split is None:
            return self._call(e.name, body, args, ctx, st)
        return self._call_by_cases(e.name, body, args, split, ctx, st)

    SPLIT_LIMIT = 64

    def _split_on(self, name, params, exprs, args):
        """For a define that reads no state: the one argument that is an unknown atom of a small
        domain while every other argument is a known atom, else None."""
        unknown = [(p, a.type) for p, a in zip(params, exprs) if not zt.is_int_value(args[p]) or not isinstance(a.type, AtomT)]
        if len(unknown) != 1 or not isinstance(unknown[0][1], AtomT) or not isinstance(args[unknown[0][0]], z3.ArithRef):
            return None
        p, t = unknown[0]
        codes = list(self.domains[t.domain].codes())
        return (p, codes) if len(codes) <= self.SPLIT_LIMIT and self._stateless(name) else None

    def _stateless(self, name) -> bool:
        """The define reads no state variable, itself or through the defines it calls: its value
        is a function of its arguments (geometry, a catalogue lookup), cheap to tabulate."""
        hit = self._pure.get(name)
        if hit is None:
            self._pure[name] = False  # a recursive define counts as reading state
            hit = self._pure[name] = name in self.defines and not self._reads_state(self.defines[name][1])
        return hit

    def _reads_state(self, e) -> bool:
        if isinstance(e, ir.StateVar):
            return True
        if isinstance(e, ir.Call) and not self._stateless(e.name):
            return True
        if isinstance(e, (tuple, list)):
            return any(self._reads_state(x) for x in e)
        if dataclasses.is_dataclass(e) and not isinstance(e, type):
            return any(self._reads_state(getattr(e, f.name)) for f in dataclasses.fields(e))
        return False

    def _call_by_cases(self, name, body, args, split, ctx, st):
        """A stateless define on an unknown atom, tabulated — one case per value the atom may
        take, each a call on a known atom, where lookups fold — when that records fewer
        obligations than the general encoding: as Python evaluates it, and nothing is asked of
        values the atom cannot have (`at(2 * row(c) + 1, ...)` on an unknown space: 2,304
        obligations in one Zoo Parque rule; by cases, none). ADR 0011."""
        key = ("cases", name, id(st), tuple(("z", v.get_id()) if not zt.is_int_value(v) else ("v", zt.int_of(v)) for v in args.values()))
        hit = ctx.memo.get(key)
        if hit is not None and hit[2] is st:
            choice = hit[0]
        else:
            p, codes = split
            general = ZCtx(ctx.prefix)
            general._n, general.sides, general.memo, general.aux = ctx._n, ctx.sides, ctx.memo, ctx.aux
            value = self._call(name, body, args, general, st)
            choice = ("general", value, general.obligations)
            if general.obligations:
                cases = ZCtx(ctx.prefix)
                cases._n, cases.sides, cases.memo, cases.aux = general._n, ctx.sides, ctx.memo, ctx.aux
                pairs = []
                for k in codes:
                    cond = zt.Eq(args[p], zt.num(k))
                    with cases.under(cond):
                        pairs.append((cond, self._call(name, body, {**args, p: zt.num(k)}, cases, st)))
                general._n = cases._n
                if len(cases.obligations) < len(general.obligations):
                    choice = ("cases", select(pairs[:-1], pairs[-1][1]), cases.obligations)
            ctx._n = general._n
            ctx.memo[key] = (choice, args, st)
        for o in choice[2]:
            ctx.oblige(o.cond, o.reason, o.loc)
        return choice[1]

    def _call(self, name, body, args, ctx, st):
        """A define has one value per state and arguments: build it once per context for each
        distinct argument (terms by identity, plain values by value) and re-add its obligations
        under the guard of each use. Arguments that are sets, maps or choices are not shared."""
        keys = []
        for v in args.values():
            if isinstance(v, z3.ExprRef):
                keys.append(("z", v.get_id()))
            elif isinstance(v, (bool, int, str)):
                keys.append(("v", v))
            else:
                return self.c(body, args, ctx, st)
        key = ("call", name, id(st), tuple(keys))
        hit = ctx.memo.get(key)
        if hit is None or hit[2] is not st:
            inner = ZCtx(ctx.prefix)
            inner._n, inner.sides, inner.memo, inner.aux = ctx._n + 1000, ctx.sides, ctx.memo, ctx.aux
            value = self.c(body, args, inner, st)
            ctx._n = inner._n
            hit = ctx.memo[key] = (value, inner.obligations, st, args)  # args kept alive: their ids stay unique
        for o in hit[1]:
            ctx.oblige(o.cond, o.reason, o.loc)
        return hit[0]

    # -- what an action allows, and what it leaves
    def _known_value(self, e):
        """As `PyCompiler.known`: the same `after` bodies count as constants in both back ends."""
        hit = self._known.get(id(e))
        if hit is None or hit[0] is not e:
            if self._py is None:
                self._py = PyCompiler(self.domains, self.defines, self.types)
            hit = self._known[id(e)] = (e, self._py.known(e))
        return hit[1]

    def _live_afters(self, e) -> bool:
        """Some `after` in e (through defines, not through other `can`s) has a body to read."""
        seen: set = set()
        todo = [e]
        while todo:
            for n in ir.walk(todo.pop()):
                if isinstance(n, ir.After) and self._known_value(n.body) is UNKNOWN:
                    return True
                if isinstance(n, ir.Call) and n.name not in seen and n.name in self.defines:
                    seen.add(n.name)
                    todo.append(self.defines[n.name][1])
        return False

    def z_After(self, e, env, ctx, st):
        known = self._known_value(e.body)
        if known is not UNKNOWN:
            return _bool(known) if isinstance(known, bool) else zconst(known, e.type, self.domains)
        writes: list = []
        for s in e.stmts:
            self.stmt(s, env, ctx, st, writes)
        post = apply_writes(st, self.types, writes, ctx, self.domains)
        return self.c(e.body, env, ctx, post)

    def z_Can(self, e, env, ctx, st):
        """One legality per argument (`_can_expanded`) — unless the action's legality reads the
        state after it (an `ensure`): then one post-state encoding under an existential over the
        arguments and every auxiliary variable built for it (region labels), instead of one per
        argument. Exact under negation too: the auxiliaries have one solution per state and
        arguments. Its terms are built apart from the caller's (no shared labels inside)."""
        if not self._live_afters(e.ref.legal):
            return self._can_expanded(e, ctx, st)
        tag = ctx.fresh_tag("can")
        args, ranges = {}, []
        for n, t in e.ref.params:
            v = z3.Bool(f"{tag}.{n}") if isinstance(t, BoolT) else z3.Int(f"{tag}.{n}")
            args[n] = v
            ranges.append(in_range(v, t, self.domains))
        inner = ZCtx(tag)
        body = self.c(e.ref.legal, args, inner, st)
        bound = list(args.values()) + inner.aux
        # an argument whose legality is undefined is not a legal one (its obligations are part of it)
        return z3.Exists(bound, zt.And(ranges + inner.sides + [inner.defined(), body]))

    def _can_expanded(self, e, ctx, st):
        """One legality per argument, staged as Python goes through them (`can_plan`): the
        conditions on the spaces once per space and way, the domino's under them. Each condition
        counts only where it is defined."""
        names, levels, pools = can_plan(e, self.domains)
        types = dict(e.ref.params)

        def defined_value(c, env):
            sub = ZCtx(ctx.prefix)
            sub._n, sub.sides, sub.memo, sub.aux = ctx._n, ctx.sides, ctx.memo, ctx.aux
            v = self.c(c, env, sub, st)
            ctx._n = sub._n
            return zt.And(sub.defined(), v) if sub.obligations else v

        def rec(depth, env):
            here = _fold_all([(TRUE, defined_value(c, env)) for c in levels[depth]])
            if depth == len(names) or zt.known(here) is FALSE:
                return here
            t = types[names[depth]]
            subs = [(TRUE, rec(depth + 1, {**env, names[depth]: zconst(v, t, self.domains)})) for v in pools[depth]]
            return _fold_all([(TRUE, here), (TRUE, _fold_any(subs))])
        return rec(0, {})

    def z_Builtin(self, e, env, ctx, st):
        args = [self.c(a, env, ctx, st) for a in e.args]
        return REGISTRY[e.name].z3(args, dict(e.options), ZCallCtx(self.domains, [a.type for a in e.args], e.loc, ctx))

    # -- statements: `writes` collects (var, path, value, guard, loc); applied by `apply_writes`
    def stmt(self, s, env, ctx, st, writes):
        h = getattr(self, "s_" + type(s).__name__, None)
        if h is None:
            raise MissingHandler(f"Z3 back end has no handler for {type(s).__name__}")
        h(s, env, ctx, st, writes)

    def s_Assign(self, s, env, ctx, st, writes):
        path = []
        for kind, v in s.path:
            path.append((kind, self.c(v, env, ctx, st) if kind == "index" else v))
        writes.append((s.var, tuple(path), self.c(s.value, env, ctx, st), ctx.guard, s.loc))

    def s_For(self, s, env, ctx, st, writes):
        for g, en in self.bindings((s.clause,), env, ctx, st):
            with ctx.under(g):
                for b in s.body:
                    self.stmt(b, en, ctx, st, writes)

    def s_If(self, s, env, ctx, st, writes):
        c = self.c(s.cond, env, ctx, st)
        with ctx.under(c):
            for b in s.body:
                self.stmt(b, env, ctx, st, writes)
        with ctx.under(zt.Not(c)):
            for b in s.orelse:
                self.stmt(b, env, ctx, st, writes)


def _small(t) -> bool:
    return z3.is_const(t) or (z3.is_app(t) and t.num_args() <= 4)


def apply_writes(state: dict, types: dict[str, Type], writes, ctx: ZCtx, domains) -> dict:
    """The post-state: every write applied in order (later wins) under its guard."""
    out = dict(state)
    for var, path, value, guard, loc in writes:
        out[var] = _write(out[var], types[var], path, value, guard, ctx, loc, domains)
    return out


def _write(cur, t, path, value, guard, ctx, loc, domains):
    if not path:
        with ctx.under(guard):
            ctx.oblige(in_range(value, t, domains), f"the value written is outside {t}", loc)
        return ite(guard, value, cur)
    kind, v = path[0]
    if kind == "field":
        fields = dict(cur.fields)
        fields[v] = _write(fields[v], t.field_type(v), path[1:], value, guard, ctx, loc, domains)
        return ZRec(fields)
    entries = dict(cur.entries)
    if zt.is_int_value(v):
        k = zt.int_of(v)
        if k not in entries:
            with ctx.under(guard):
                ctx.oblige(FALSE, f"key {k} is outside domain {t.key}", loc)
            return cur
        entries[k] = _write(entries[k], t.value, path[1:], value, guard, ctx, loc, domains)
        return ZMap(cur.codes, entries)
    if isinstance(domains[t.key].value_type, IntT):
        with ctx.under(guard):
            ctx.oblige(zt.Or([zt.Eq(v, zt.num(k)) for k in cur.codes]), f"key is outside domain {t.key}", loc)
    for k in cur.codes:
        entries[k] = _write(entries[k], t.value, path[1:], value, zt.And(guard, zt.Eq(v, zt.num(k))), ctx, loc, domains)
    return ZMap(cur.codes, entries)
