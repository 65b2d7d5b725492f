"""The builder: restricted Python `ast` → typed core IR. Resolves names, checks types, and rewrites
sugar (chained comparisons, `>`, `not in`, `m[a, b]`, `range`) into core ops."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .. import ir
from ..backends.python import constant_value  # range bounds and options are folded to constants
from ..builtins.base import REGISTRY, BuiltinError
from ..errors import Loc
from ..ir.domains import Domains
from ..ir.types import BOOL, INT, AtomT, BoolT, IntT, MapT, RecordT, SetT, ShapeT, Type, compatible, scalar
from ..suggest import suggest
from .parse import ParseError, parse_expr, parse_stmts

AGGREGATES = ("all", "any", "count", "sum", "min", "max", "the")
RESERVED = set(AGGREGATES) | {"abs", "len", "implies", "range", "can", "true", "false", "True", "False"} | set(REGISTRY)


class BuildError(Exception):
    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.message, self.node = message, node


@dataclass
class Signature:
    params: list[tuple[str, Type]]
    result: Type


@dataclass
class Scope:
    """What names mean while building one expression."""

    domains: Domains
    state: dict[str, Type]
    consts: dict[str, tuple[Type, object]]
    define_sig: object  # callable name -> Signature | None  (builds defines on demand)
    atoms: dict[str, list[str]]  # bare atom name -> domains that have it
    locals: dict[str, Type] = field(default_factory=dict)
    allow_state: bool = True
    actions: dict = field(default_factory=dict)  # action id -> ir.ActionRef, for can(...)

    def names(self):
        return list(self.locals) + list(self.state) + list(self.consts) + list(self.domains.by_name) + list(self.atoms)

    def with_locals(self, extra: dict[str, Type]) -> "Scope":
        return Scope(self.domains, self.state, self.consts, self.define_sig, self.atoms, {**self.locals, **extra}, self.allow_state,
                     self.actions)


class LocMap:
    """Maps positions inside an expression string back to the spec file."""

    def __init__(self, file: str, line: int, col: int, style: str | None, rule: str | None):
        self.file, self.line, self.col, self.style, self.rule = file, line, col, style, rule

    def at(self, lineno: int = 1, col_offset: int = 0) -> Loc:
        if self.style in ("|", ">"):
            return Loc(self.file, self.line + lineno, col_offset + 1, self.rule)
        if lineno <= 1:
            return Loc(self.file, self.line, self.col + col_offset + (1 if self.style in ("'", '"') else 0), self.rule)
        return Loc(self.file, self.line + lineno - 1, col_offset + 1, self.rule)

    def of(self, node) -> Loc:
        return self.at(getattr(node, "lineno", 1), getattr(node, "col_offset", 0))


def build_expr(text: str, scope: Scope, locmap: LocMap, expect: Type | None = None) -> ir.Expr:
    try:
        tree = parse_expr(text)
    except ParseError as e:
        raise _located(e.message, locmap.at(e.lineno, e.col)) from None
    b = Builder(scope, locmap)
    e = b.guarded(tree, scope)
    if expect is not None and not compatible(e.type, expect):
        raise _located(f"expected {_what(expect)}, but this is {_what(e.type)}", locmap.of(tree))
    return e


def build_stmts(text: str, scope: Scope, locmap: LocMap) -> tuple[ir.Stmt, ...]:
    try:
        body = parse_stmts(text)
    except ParseError as e:
        raise _located(e.message, locmap.at(e.lineno, e.col)) from None
    b = Builder(scope, locmap)
    try:
        return tuple(b.stmt(s, scope) for s in body)
    except BuildError as e:
        raise _located(e.message, locmap.of(e.node) if e.node is not None else locmap.at()) from None


class LocatedError(Exception):
    def __init__(self, message: str, loc: Loc):
        super().__init__(message)
        self.message, self.loc = message, loc


def _located(message, loc):
    return LocatedError(message, loc)


def _what(t: Type) -> str:
    if isinstance(t, BoolT):
        return "a bool"
    if isinstance(t, IntT):
        return "an int"
    return f"a value of type {t}"


class Builder:
    def __init__(self, scope: Scope, locmap: LocMap):
        self.scope0 = scope
        self.lm = locmap

    def guarded(self, node, scope):
        try:
            return self.expr(node, scope)
        except BuildError as e:
            raise _located(e.message, self.lm.of(e.node) if e.node is not None else self.lm.at()) from None

    def loc(self, node) -> Loc:
        return self.lm.of(node)

    # ---------------------------------------------------------------- expressions
    def expr(self, n, s: Scope) -> ir.Expr:
        meth = getattr(self, "x_" + type(n).__name__, None)
        if meth is None:
            raise BuildError(f"'{type(n).__name__}' is not an expression here", n)
        return meth(n, s)

    def want(self, n, s, t: Type, what: str) -> ir.Expr:
        e = self.expr(n, s)
        if not compatible(e.type, t):
            raise BuildError(f"{what} must be {_what(t)}, not {_what(e.type)}", n)
        return e

    def x_Constant(self, n, s):
        v = n.value
        if isinstance(v, bool):
            return ir.Lit(v, BOOL, self.loc(n))
        return ir.Lit(v, IntT(v, v), self.loc(n))

    def x_Name(self, n, s: Scope):
        name = n.id
        loc = self.loc(n)
        if name in ("true", "True"):
            return ir.Lit(True, BOOL, loc)
        if name in ("false", "False"):
            return ir.Lit(False, BOOL, loc)
        if name in s.locals:
            return ir.Local(name, s.locals[name], loc)
        if name in s.state:
            if not s.allow_state:
                raise BuildError(f"'{name}' is part of the state and cannot be used here (only constants)", n)
            return ir.StateVar(name, s.state[name], loc)
        if name in s.consts:
            t, v = s.consts[name]
            return ir.Lit(v, t, loc)
        if name in s.domains:
            d = s.domains[name]
            return ir.Lit(frozenset(d.atoms), SetT(d.value_type), loc)
        if name in s.atoms:
            ds = s.atoms[name]
            if len(ds) > 1:
                raise BuildError(f"'{name}' is a value of several domains ({', '.join(ds)}); write {ds[0]}.{name}", n)
            return ir.Lit(name, AtomT(ds[0]), loc)
        sig = s.define_sig(name)
        if sig is not None:
            if sig.params:
                raise BuildError(f"'{name}' takes {len(sig.params)} argument(s); call it as {name}(...)", n)
            return ir.Call(name, (), sig.result, loc)
        asleep = [d.name for d in s.domains.by_name.values() if d.asleep(name)]
        if asleep:
            raise BuildError(f"'{name}' is a value of {asleep[0]} only while the switch that adds it is on; "
                             "a rule that must also hold without it names a constant set of such values instead", n)
        raise BuildError(f"unknown name '{name}'{suggest(name, s.names())}", n)

    def x_Attribute(self, n, s: Scope):
        if isinstance(n.value, ast.Name) and n.value.id in s.domains and n.value.id not in s.locals:
            d = s.domains[n.value.id]
            if n.attr in d:
                return ir.Lit(n.attr, AtomT(d.name), self.loc(n))
            raise BuildError(f"domain '{d.name}' has no value '{n.attr}'{suggest(n.attr, [str(a) for a in d.atoms])}", n)
        base = self.expr(n.value, s)
        if not isinstance(base.type, RecordT):
            raise BuildError(f"'.{n.attr}' needs a record, but this is {_what(base.type)}", n)
        ft = base.type.field_type(n.attr)
        if ft is None:
            raise BuildError(f"record has no field '{n.attr}'{suggest(n.attr, [f for f, _ in base.type.fields])}", n)
        return ir.Field(base, n.attr, ft, self.loc(n))

    def x_Subscript(self, n, s: Scope):
        base = self.expr(n.value, s)
        keys = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
        for k in keys:
            base = ir.Index(base, self.key(k, s, base.type, n), base.type.value, self.loc(n))
        return base

    def key(self, k, s, map_type, n) -> ir.Expr:
        """A key for indexing a value of map_type (reads and effect targets alike)."""
        if not isinstance(map_type, MapT):
            raise BuildError(f"only maps can be indexed, and this is {_what(map_type)}", n)
        key = self.expr(k, s)
        dom = s.domains[map_type.key]
        if not compatible(key.type, dom.value_type):
            raise BuildError(f"key must be {_what(dom.value_type)} (domain {dom.name}), not {_what(key.type)}", k)
        return key

    def x_Tuple(self, n, s):
        raise BuildError("tuples are only allowed as map keys: m[a, b]", n)

    def x_UnaryOp(self, n, s):
        if isinstance(n.op, ast.Not):
            return ir.Not(self.want(n.operand, s, BOOL, "the operand of 'not'"), BOOL, self.loc(n))
        a = self.want(n.operand, s, INT, "a signed operand")
        if isinstance(n.op, ast.UAdd):
            return a
        if isinstance(a, ir.Lit):
            return ir.Lit(-a.value, IntT(-a.value, -a.value), self.loc(n))
        t = IntT(-a.type.hi, -a.type.lo) if a.type.bounded else INT
        return ir.Neg(a, t, self.loc(n))

    def x_BoolOp(self, n, s):
        args = tuple(self.want(v, s, BOOL, "an operand of and/or") for v in n.values)
        return (ir.And if isinstance(n.op, ast.And) else ir.Or)(args, BOOL, self.loc(n))

    def x_BinOp(self, n, s):
        left = self.expr(n.left, s)
        right = self.expr(n.right, s)
        loc = self.loc(n)
        if isinstance(n.op, (ast.BitOr, ast.BitAnd)) or (isinstance(n.op, ast.Sub) and isinstance(left.type, SetT)):
            op = {ast.BitOr: "|", ast.BitAnd: "&", ast.Sub: "-"}[type(n.op)]
            if not (isinstance(left.type, SetT) and compatible(left.type, right.type)):
                raise BuildError(f"'{op}' needs two sets of one type, not {_what(left.type)} and {_what(right.type)}", n)
            self.finite_elems(left.type, n)
            t = left.type if op != "|" else SetT(_join(left.type.elem, right.type.elem))
            return ir.SetOp(op, left, right, t, loc)
        op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}[type(n.op)]
        for side, e in (("left", left), ("right", right)):
            if not isinstance(e.type, IntT):
                raise BuildError(f"the {side} operand of '{op}' must be an int, not {_what(e.type)}", n)
        return ir.Arith(op, left, right, _arith_bounds(op, left.type, right.type), loc)

    def x_Compare(self, n, s):
        parts = []
        left = self.expr(n.left, s)
        for op, rn in zip(n.ops, n.comparators):
            right = self.expr(rn, s)
            parts.append(self.compare(op, left, right, n))
            left = right
        return parts[0] if len(parts) == 1 else ir.And(tuple(parts), BOOL, self.loc(n))

    def compare(self, op, a, b, n):
        loc = self.loc(n)
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(b.type, SetT):
                raise BuildError(f"'in' needs a set on its right, not {_what(b.type)}", n)
            if not compatible(a.type, b.type.elem):
                raise BuildError(f"cannot look for {_what(a.type)} in a set of {b.type.elem}", n)
            m = ir.Member(a, b, BOOL, loc)
            return m if isinstance(op, ast.In) else ir.Not(m, BOOL, loc)
        if isinstance(op, (ast.Eq, ast.NotEq)):
            ok = compatible(a.type, b.type) and (scalar(a.type) or isinstance(a.type, (SetT, ShapeT)))
            if not ok:
                raise BuildError(f"cannot compare {_what(a.type)} with {_what(b.type)}", n)
            if isinstance(a.type, SetT):
                self.finite_elems(a.type, n)
            return ir.Compare("==" if isinstance(op, ast.Eq) else "!=", a, b, BOOL, loc)
        for e in (a, b):
            if not isinstance(e.type, IntT):
                raise BuildError(f"order comparisons need ints, not {_what(e.type)}", n)
        if isinstance(op, ast.Lt):
            return ir.Compare("<", a, b, BOOL, loc)
        if isinstance(op, ast.LtE):
            return ir.Compare("<=", a, b, BOOL, loc)
        if isinstance(op, ast.Gt):
            return ir.Compare("<", b, a, BOOL, loc)
        return ir.Compare("<=", b, a, BOOL, loc)

    def x_IfExp(self, n, s):
        c = self.want(n.test, s, BOOL, "the condition")
        a = self.expr(n.body, s)
        b = self.expr(n.orelse, s)
        if not compatible(a.type, b.type):
            raise BuildError(f"both branches must have one type, not {_what(a.type)} and {_what(b.type)}", n)
        return ir.Ite(c, a, b, _join(a.type, b.type), self.loc(n))

    def x_Set(self, n, s):
        items = tuple(self.expr(e, s) for e in n.elts)
        t = items[0].type
        for e, en in zip(items, n.elts):
            if not compatible(e.type, t):
                raise BuildError("all elements of a set must have one type", en)
            t = _join(t, e.type)
        st = SetT(t)
        self.finite_elems(st, n)
        return ir.SetLit(items, st, self.loc(n))

    def x_SetComp(self, n, s):
        clauses, inner = self.clauses(n.generators, s)
        elt = self.expr(n.elt, inner)
        st = SetT(elt.type)
        self.finite_elems(st, n)
        return ir.Agg("set", elt, clauses, st, None, self.loc(n))

    def x_GeneratorExp(self, n, s):
        raise BuildError("a generator must be the argument of all/any/count/sum/min/max/the", n)

    def finite_elems(self, st: SetT, n):
        e = st.elem
        if isinstance(e, AtomT) or (isinstance(e, IntT) and e.bounded):
            return
        if isinstance(e, (SetT, ShapeT)):
            return
        raise BuildError(f"a set of {e} needs elements from a finite domain (an enum, a grid, or int[lo..hi])", n)

    # ---------------------------------------------------------------- generators
    def clauses(self, gens, s: Scope):
        out = []
        inner = s
        for g in gens:
            if not isinstance(g.target, ast.Name):
                raise BuildError("a generator variable must be a single name", g.target)
            if getattr(g, "is_async", 0):
                raise BuildError("async generators are not part of the rule language", g)
            src = self.source(g.iter, inner)
            var = g.target.id
            if var in RESERVED:
                raise BuildError(f"'{var}' is a reserved name", g.target)
            inner = inner.with_locals({var: src.type.elem})
            conds = tuple(self.want(c, inner, BOOL, "a generator's 'if' condition") for c in g.ifs)
            out.append(ir.Clause(var, src, conds))
        return tuple(out), inner

    def source(self, n, s):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "range":
            return self.range(n, s)
        e = self.expr(n, s)
        if not isinstance(e.type, SetT):
            raise BuildError(f"a generator ranges over a set or a domain, not {_what(e.type)}", n)
        return e

    def range(self, n, s):
        if n.keywords or not 1 <= len(n.args) <= 2:
            raise BuildError("range takes one or two constant ints: range(hi) or range(lo, hi)", n)
        vals = [self.constant_int(a, s) for a in n.args]
        lo, hi = (0, vals[0]) if len(vals) == 1 else vals
        if hi - lo > 100_000:
            raise BuildError("range is too large (more than 100000 values)", n)
        return ir.Lit(frozenset(range(lo, hi)), SetT(IntT(lo, max(lo, hi - 1))), self.loc(n))

    def constant_int(self, n, s):
        e = self.want(n, s.with_locals({}), INT, "a range bound")
        v = constant_value(e, self.scope0.domains)
        if v is None:
            raise BuildError("range bounds must be constants (no state, parameters or loop variables): a range must be finite", n)
        return v

    # ---------------------------------------------------------------- calls
    def x_Call(self, n, s: Scope):
        if not isinstance(n.func, ast.Name):
            raise BuildError("only named functions can be called", n)
        name = n.func.id
        loc = self.loc(n)
        if name in AGGREGATES and len(n.args) == 1 and isinstance(n.args[0], ast.GeneratorExp):
            return self.aggregate(name, n, s)
        if name in ("min", "max"):
            if n.keywords or len(n.args) < 2:
                raise BuildError(f"{name} takes a generator (with default=...) or two or more ints", n)
            args = tuple(self.want(a, s, INT, f"an argument of {name}") for a in n.args)
            return ir.MinMax(name, args, _minmax_bounds(name, [a.type for a in args]), loc)
        if name in ("all", "any", "count", "sum", "the"):
            raise BuildError(f"{name} takes one generator, e.g. {name}(x for x in D if ...)", n)
        if name == "abs":
            self.arity(n, 1)
            a = self.want(n.args[0], s, INT, "abs's argument")
            return ir.Abs(a, INT, loc)
        if name == "len":
            self.arity(n, 1)
            a = self.expr(n.args[0], s)
            if not isinstance(a.type, SetT):
                raise BuildError(f"len takes a set, not {_what(a.type)}", n)
            return ir.Len(a, INT, loc)
        if name == "implies":
            self.arity(n, 2)
            return ir.Implies(self.want(n.args[0], s, BOOL, "implies' condition"), self.want(n.args[1], s, BOOL, "implies' conclusion"), BOOL, loc)
        if name == "range":
            return self.range(n, s)
        if name == "can":
            return self.can(n, s)
        if name in REGISTRY:
            return self.builtin(name, n, s)
        sig = s.define_sig(name)
        if sig is None:
            raise BuildError(f"unknown function '{name}'{suggest(name, list(REGISTRY) + ['all', 'any', 'count', 'sum', 'min', 'max', 'the', 'abs', 'len', 'implies'])}", n)
        if n.keywords:
            raise BuildError(f"'{name}' takes positional arguments only", n)
        if len(n.args) != len(sig.params):
            raise BuildError(f"'{name}' takes {len(sig.params)} argument(s), not {len(n.args)}", n)
        args = []
        for a, (pname, pt) in zip(n.args, sig.params):
            args.append(self.want(a, s, pt, f"argument '{pname}' of {name}"))
        return ir.Call(name, tuple(args), sig.result, loc)

    def can(self, n, s):
        """`can(zp.place)`: the action named (a dotted id, not an expression) is legal for some arguments."""
        self.arity(n, 1)
        parts, x = [], n.args[0]
        while isinstance(x, ast.Attribute):
            parts.append(x.attr)
            x = x.value
        if not isinstance(x, ast.Name) or not parts:
            raise BuildError("can takes an action id, e.g. can(zp.place)", n.args[0])
        aid = ".".join([x.id] + parts[::-1])
        if not s.allow_state:
            raise BuildError("can(...) reads the state and cannot be used here (only constants)", n)
        ref = s.actions.get(aid)
        if ref is None:
            raise BuildError(f"no action '{aid}'{suggest(aid, list(s.actions))}", n.args[0])
        return ir.Can(ref, BOOL, self.loc(n))

    def arity(self, n, k):
        if len(n.args) != k or n.keywords:
            raise BuildError(f"{n.func.id} takes {k} argument(s)", n)

    def aggregate(self, name, n, s):
        g = n.args[0]
        clauses, inner = self.clauses(g.generators, s)
        elt = self.expr(g.elt, inner)
        loc = self.loc(n)
        kw = {k.arg: k.value for k in n.keywords}
        if name in ("min", "max"):
            if set(kw) != {"default"}:
                raise BuildError(f"{name} over a generator needs default=<int> for when nothing is left", n)
            if not isinstance(elt.type, IntT):
                raise BuildError(f"{name} needs int elements, not {_what(elt.type)}", g.elt)
            d = self.want(kw["default"], s, INT, "default")
            return ir.Agg(name, elt, clauses, INT, d, loc)
        if kw:
            raise BuildError(f"{name} takes no keyword arguments", n)
        if name in ("all", "any"):
            if not isinstance(elt.type, BoolT):
                raise BuildError(f"{name} needs bool elements, not {_what(elt.type)}", g.elt)
            return ir.Agg(name, elt, clauses, BOOL, None, loc)
        if name == "sum":
            if not isinstance(elt.type, IntT):
                raise BuildError(f"sum needs int elements, not {_what(elt.type)}", g.elt)
            return ir.Agg("sum", elt, clauses, INT, None, loc)
        if name == "count":
            return ir.Agg("count", elt, clauses, IntT(0, None), None, loc)
        if not (scalar(elt.type) or isinstance(elt.type, (SetT, ShapeT))):
            raise BuildError(f"the(...) cannot describe {_what(elt.type)}", g.elt)
        return ir.The(elt, clauses, elt.type, loc)

    def builtin(self, name, n, s):
        bdef = REGISTRY[name]
        args = tuple(self.expr(a, s) for a in n.args)
        options = {}
        for k in n.keywords:
            if k.arg is None or k.arg not in bdef.options:
                raise BuildError(f"{name} has no option '{k.arg}'" + (f"; its options: {', '.join(bdef.options)}" if bdef.options else ""), k)
            if isinstance(k.value, ast.Name) and k.value.id in s.domains:
                options[k.arg] = k.value.id
            else:
                v = constant_value(self.expr(k.value, s.with_locals({})), self.scope0.domains)
                if v is None:
                    raise BuildError(f"option {k.arg}= must be a constant", k.value)
                options[k.arg] = v
        try:
            t = bdef.check([a.type for a in args], options, s.domains)
        except BuiltinError as e:
            raise BuildError(f"{e} — {bdef.signature}", n) from None
        return ir.Builtin(name, args, t, tuple(sorted(options.items())), self.loc(n))

    # ---------------------------------------------------------------- statements
    def stmt(self, n, s: Scope) -> ir.Stmt:
        loc = self.loc(n)
        if isinstance(n, ast.Pass):
            return ir.If(ir.Lit(False, BOOL), (), (), loc)
        if isinstance(n, ast.Assign):
            if len(n.targets) != 1:
                raise BuildError("assign one target at a time", n)
            var, path, t = self.target(n.targets[0], s)
            value = self.expr(n.value, s)
            if not compatible(value.type, t):
                raise BuildError(f"cannot assign {_what(value.type)} to {var}, which holds {_what(t)}", n)
            return ir.Assign(var, path, value, loc)
        if isinstance(n, ast.For):
            if n.orelse:
                raise BuildError("for ... else is not part of the rule language", n)
            fake = ast.comprehension(target=n.target, iter=n.iter, ifs=[], is_async=0)
            (clause,), inner = self.clauses([fake], s)
            return ir.For(clause, tuple(self.stmt(b, inner) for b in n.body), loc)
        if isinstance(n, ast.If):
            c = self.want(n.test, s, BOOL, "the condition of 'if'")
            return ir.If(c, tuple(self.stmt(b, s) for b in n.body), tuple(self.stmt(b, s) for b in n.orelse), loc)
        raise BuildError(f"'{type(n).__name__}' is not an effect statement (use 'x = ...', 'for ...:' or 'if ...:')", n)

    def target(self, n, s: Scope):
        steps = []
        while not isinstance(n, ast.Name):
            if isinstance(n, ast.Subscript):
                keys = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
                steps.append(("index", keys))
                n = n.value
            elif isinstance(n, ast.Attribute):
                steps.append(("field", n.attr))
                n = n.value
            else:
                raise BuildError("an effect assigns to a state variable, a map entry or a record field", n)
        if n.id not in s.state:
            raise BuildError(f"'{n.id}' is not a state variable{suggest(n.id, s.state)}", n)
        t = s.state[n.id]
        path = []
        for kind, v in reversed(steps):
            if kind == "field":
                if not isinstance(t, RecordT) or t.field_type(v) is None:
                    raise BuildError(f"no field '{v}' here", n)
                path.append(("field", v))
                t = t.field_type(v)
            else:
                for k in v:
                    path.append(("index", self.key(k, s, t, n)))
                    t = t.value
        return n.id, tuple(path), t


def _join(a: Type, b: Type) -> Type:
    if isinstance(a, IntT) and isinstance(b, IntT):
        if a.bounded and b.bounded:
            return IntT(min(a.lo, b.lo), max(a.hi, b.hi))
        return INT
    if isinstance(a, SetT) and isinstance(b, SetT):
        return SetT(_join(a.elem, b.elem))
    return a


def _arith_bounds(op, a: IntT, b: IntT) -> IntT:
    if not (a.bounded and b.bounded):
        return INT
    if op == "+":
        return IntT(a.lo + b.lo, a.hi + b.hi)
    if op == "-":
        return IntT(a.lo - b.hi, a.hi - b.lo)
    if op == "*":
        ps = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        return IntT(min(ps), max(ps))
    return INT


def _minmax_bounds(op, ts):
    if all(t.bounded for t in ts):
        f = min if op == "min" else max
        return IntT(f(t.lo for t in ts), f(t.hi for t in ts))
    return INT


