"""Python back end, generated: IR → Python source → one compiled function per expression (issue 47).

The closures of backends/python.py pay a call, an `env` lookup and an indirection for every IR
node; here an expression is written out as one Python expression instead — generators become list
comprehensions over Python locals, defines real functions with positional arguments and their own
memo wrapper, sub-expressions that read nothing are worked out once and passed in as constants,
a membership test against a set the generator does not change works the set out once per
generator, and a define call, built-in, lookup or generator met again where its first working is
sure to have run (not past a branch, not out of a comprehension) is read from a local. Values and undefinedness are exactly the closures' (tests/test_pygen.py and the forward
agreement tests compare the two on every body of every spec); `can(...)` and `after` keep their
closure drivers, whose parts are generated.

Safety. The source is written only from the typed IR: every identifier in it is one made here
(`v3`, `d7`, `k12`, ...), never a name from a spec; the only constants written into it are
`repr` of an `int`, `bool` or `str`; every other value (sets, locations, built-in functions, a
closure driver) reaches the code through its namespace under a made name. The namespace's
builtins are a short allow-list. This module holds zoospec's only `compile` and `exec`.
"""
from __future__ import annotations

import builtins
import operator
import re
from contextlib import contextmanager

from .. import ir
from ..builtins.base import REGISTRY
from ..errors import Undefined
from ..ir.plan import hoistable_member
from .python import MEMO, CallCtx, PyCompiler, state_getter

_MISSING = object()

_ALLOWED = ("abs", "all", "any", "bool", "frozenset", "len", "max", "min", "sum", "KeyError", "TypeError")
_SAFE_BUILTINS = {n: getattr(builtins, n) for n in _ALLOWED}


# -- helpers the generated code calls (its namespace), each with the closures' messages
def _ix(key, base, site):
    try:
        return base[key]
    except (KeyError, TypeError):
        raise Undefined(site[0], f"key {key!r} is outside domain {site[1]}") from None


def _div(x, y, loc):
    if y == 0:
        raise Undefined(loc, "division by zero")
    return x // y


def _mod(x, y, loc):
    if y == 0:
        raise Undefined(loc, "modulo by zero")
    return x % y


def _the(vals, loc):
    if len(vals) != 1:
        raise Undefined(loc, f"the(...) needs exactly one candidate, found {len(vals)}")
    return vals[0]


def _min_or(vals, default):
    return min(vals) if vals else default()


def _max_or(vals, default):
    return max(vals) if vals else default()


def _all_in(xs, s):
    """all(x in S for x in xs), S worked out only if xs has an element (as the closures do)."""
    return True if not xs else frozenset(s()).issuperset(xs)


def _any_in(xs, s):
    return False if not xs else not frozenset(s()).isdisjoint(xs)


def _push(held, value):
    held.append(value)
    return value


def _env(memo, bound):
    """The env a closure driver (`after`) is given inside a define: its parameters and the memo."""
    if memo is not None:
        bound[MEMO] = memo
    return bound


def _unbound(name):
    raise KeyError(name)


_HELPERS = {"_ix": _ix, "_div": _div, "_mod": _mod, "_the": _the, "_min_or": _min_or, "_max_or": _max_or,
            "_push": _push, "_all_in": _all_in, "_any_in": _any_in, "_env": _env, "_unbound": _unbound, "_contains": operator.contains,
            "_MISSING": _MISSING}

# what may be worked out once, when the expression is compiled: no state, no variable, no call
_READS = (ir.StateVar, ir.Local, ir.Call, ir.Can, ir.After)
# a sub-expression of these kinds met again where its first value is sure to have been worked out
# is read from a local instead (`w3`): a repeated define call, built-in, lookup or generator
_SHARED = (ir.Call, ir.Builtin, ir.Index, ir.Agg, ir.The)
_LET = re.compile("\0(w[0-9]+)\0")  # where a shared value is bound; NUL never appears in a repr
# the closures give a strict True/False for these (moves.py asks `is True`)
_STRICT = (ir.Compare, ir.Not, ir.And, ir.Or, ir.Member, ir.Can)


class _Scope:
    """Where a spec name is bound: Python locals for generator variables and define parameters;
    `top` when the function has an `env` (a rule body), not a define's positional parameters."""

    def __init__(self, top: bool, names: dict[str, str] | None = None):
        self.top, self.names = top, dict(names or {})

    def bind(self, name: str, py: str) -> "_Scope":
        return _Scope(self.top, {**self.names, name: py})


class _Frame:
    """The values a function being written has bound to locals (`w3 := ...`) where every later
    read is sure to run after them; a binding nobody reads again is written as plain code."""

    def __init__(self):
        self.bound: dict = {}  # share key -> local
        self.read: set[str] = set()  # locals read again
        self.binds = True  # False inside a lambda or a comprehension

    def use(self, key) -> str:
        local = self.bound[key]
        self.read.add(local)
        return local

    def bind(self, key, text: str, local: str) -> str:
        if not self.binds:
            return text
        self.bound[key] = local
        return f"(\0{local}\0{text})"

    def finish(self, text: str) -> str:
        return _LET.sub(lambda m: f"{m[1]} := " if m[1] in self.read else "", text)


class GenCompiler(PyCompiler):
    """A PyCompiler whose `compile` writes Python source; the closure handlers stay the fallback
    (an expression too deep for Python's parser) and the drivers of `can(...)` and `after`."""

    def __init__(self, domains, defines=None, types=None):
        super().__init__(domains, defines, types)
        self._ns: dict = {"__builtins__": _SAFE_BUILTINS, **_HELPERS}
        self._count = 0
        self._defs: dict[str, str] = {}  # define name -> its memoised positional function
        self._states: dict[str, str] = {}  # define without parameters -> its state getter
        self._pure: dict[int, tuple] = {}  # id(expr) -> (reads nothing, expr kept alive)
        self.sources: dict[str, str] = {}  # made function name -> its source
        self._calls: dict[str, list[str]] = {}  # made function name -> defines its source calls
        self._made: dict[int, tuple] = {}  # id(expr) -> (function name, expr kept alive)
        self._names: dict[int, tuple] = {}  # id(expr) -> (the names it reads, or None; expr kept alive)
        self._calling: list[str] = []  # the made functions the source being written calls
        self._frame = _Frame()  # the values the function being written has bound so far

    # -- the public side: one function per expression
    def compile(self, e: ir.Expr):
        try:
            name = self._function(e)
        except (RecursionError, SyntaxError, MemoryError):  # too deep for the parser: closures
            return PyCompiler.compile(self, e)
        return self._ns[name]

    def source(self, e: ir.Expr) -> str:
        """The generated source of e and of every define it calls, for a reader (`--show-python`)."""
        name = self._function(e)
        order, todo = [], [name]
        while todo:
            n = todo.pop(0)
            if n not in order:
                order.append(n)
                todo += self._calls.get(n, [])
        return "\n".join(self.sources[n] for n in order)

    def _function(self, e) -> str:
        hit = self._made.get(id(e))
        if hit is not None:
            return hit[0]
        name, outer = self._fresh("f"), self._calling
        self._calling = []
        try:
            with self._new_frame() as frame:
                body = frame.finish(self._x(e, _Scope(top=True)))
            memo = "    memo = env.get(%r)\n" % MEMO if "memo" in body else ""
            self._define(name, f"def {name}(st, env):\n{memo}    return {body}\n")
        finally:
            self._calling = outer
        self._made[id(e)] = (name, e)
        return name

    def _define(self, name: str, src: str):
        self._calls[name] = list(self._calling)
        code = compile(src, f"<zoospec generated {name}>", "exec")
        exec(code, self._ns)
        self.sources[name] = src

    def _fresh(self, prefix: str) -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def _const(self, value) -> str:
        """A value in the source: repr of an int, bool or str; anything else by a made name."""
        if type(value) in (int, bool, str):
            return f"({value!r})"
        name = self._fresh("k")
        self._ns[name] = value
        return name

    # -- expressions: each handler returns Python source for a value
    def _x(self, e, sc: _Scope) -> str:
        if not isinstance(e, ir.Lit) and self._is_pure(e):
            try:
                return self._const(PyCompiler(self.domains).compile(e)({}, {}))
            except Exception:  # noqa: BLE001 — undefined (or failing) on every state: left to run, to fail there alike
                pass
        key = self._share_key(e, sc)
        if key is not None and key in self._frame.bound:
            return self._frame.use(key)
        h = getattr(self, "g_" + type(e).__name__, None)
        if h is None:  # a node kept as a closure driver
            return self._driven(e, sc)
        text = h(e, sc)
        return self._frame.bind(key, text, self._fresh("w")) if key is not None else text

    def _share_key(self, e, sc):
        """What makes two sub-expressions one value: the same IR (locations aside) with every name
        in it bound alike here; None where it is not worth sharing or cannot be (a closure driver
        inside, a constant that is no dictionary key)."""
        if not isinstance(e, _SHARED) or (isinstance(e, ir.Call) and not e.args):
            return None
        names = self._names.get(id(e))
        if names is None:
            nodes = list(ir.walk(e))
            if any(isinstance(n, (ir.Can, ir.After)) for n in nodes):
                names = self._names[id(e)] = (None, e)
            else:
                names = self._names[id(e)] = (sorted({n.name for n in nodes if isinstance(n, ir.Local)}), e)
        if names[0] is None:
            return None
        key = (e, tuple(sc.names.get(n, sc.top) for n in names[0]))
        try:
            hash(key)
        except TypeError:
            return None
        return key

    @contextmanager
    def _new_frame(self):
        outer, self._frame = self._frame, _Frame()
        try:
            yield self._frame
        finally:
            self._frame = outer

    @contextmanager
    def _branch(self):
        """Code run only on some paths (the right of `and`/`or`, a branch of `if`): what is bound
        there is not sure to be bound after it."""
        kept = dict(self._frame.bound)
        try:
            yield
        finally:
            self._frame.bound = kept

    @contextmanager
    def _nested(self):
        """Code inside a lambda or a comprehension: it may read the values bound so far, but what
        it binds would live in another scope (or is not allowed there), so it binds nothing."""
        was, self._frame.binds = self._frame.binds, False
        try:
            yield
        finally:
            self._frame.binds = was

    def _is_pure(self, e) -> bool:
        hit = self._pure.get(id(e))
        if hit is None:
            pure = not isinstance(e, _READS) and all(self._is_pure(c) for c in ir.children(e))
            if isinstance(e, (ir.Agg, ir.The)):  # a generator's element reads its own variables
                pure = False
            hit = self._pure[id(e)] = (pure, e)  # the node kept alive, so its id is not reused
        return hit[0]

    def _strict(self, e) -> bool:
        if isinstance(e, _STRICT) or (isinstance(e, ir.Lit) and type(e.value) is bool):
            return True
        if isinstance(e, ir.Agg):
            return e.op in ("all", "any")
        return isinstance(e, ir.Ite) and self._strict(e.then) and self._strict(e.orelse)

    def g_Lit(self, e, sc):
        return self._const(e.value)

    def g_StateVar(self, e, sc):
        return f"st[{e.name!r}]"

    def g_Local(self, e, sc):
        if e.name in sc.names:
            return sc.names[e.name]
        return f"env[{e.name!r}]" if sc.top else f"_unbound({e.name!r})"

    def g_Field(self, e, sc):
        return f"{self._x(e.base, sc)}[{e.name!r}]"

    def g_Index(self, e, sc):
        site = self._const((e.loc, e.base.type.key))
        return f"_ix({self._x(e.key, sc)}, {self._x(e.base, sc)}, {site})"

    def g_Compare(self, e, sc):
        if e.op not in ("==", "!=", "<", "<="):
            return self._driven(e, sc)
        return f"({self._x(e.left, sc)} {e.op} {self._x(e.right, sc)})"

    def g_Not(self, e, sc):
        return f"(not {self._x(e.arg, sc)})"

    def _junction(self, e, sc, word):
        if not e.args:
            return "(True)" if word == "and" else "(False)"
        first = self._x(e.args[0], sc)
        with self._branch():
            rest = [self._x(a, sc) for a in e.args[1:]]
        out = f"({f' {word} '.join([first, *rest])})"
        return out if all(self._strict(a) for a in e.args) else f"bool{out}"

    def g_And(self, e, sc):
        return self._junction(e, sc, "and")

    def g_Or(self, e, sc):
        return self._junction(e, sc, "or")

    def g_Implies(self, e, sc):
        left = self._x(e.left, sc)
        with self._branch():
            return f"((not {left}) or {self._x(e.right, sc)})"

    def g_Arith(self, e, sc):
        a, b = self._x(e.left, sc), self._x(e.right, sc)
        if e.op in ("+", "-", "*"):
            return f"({a} {e.op} {b})"
        return f"{'_div' if e.op == '//' else '_mod'}({a}, {b}, {self._const(e.loc)})"

    def g_Neg(self, e, sc):
        return f"(-{self._x(e.arg, sc)})"

    def g_Abs(self, e, sc):
        return f"abs({self._x(e.arg, sc)})"

    def g_MinMax(self, e, sc):
        return f"{'min' if e.op == 'min' else 'max'}(({''.join(self._x(a, sc) + ', ' for a in e.args)}))"

    def g_Ite(self, e, sc):
        cond = self._x(e.cond, sc)  # run first, so written first
        with self._branch():
            then = self._x(e.then, sc)
        with self._branch():
            orelse = self._x(e.orelse, sc)
        return f"({then} if {cond} else {orelse})"

    def _loops(self, clauses, sc) -> tuple[str, _Scope]:
        """`for v in source if cond ...` for each clause, and the scope inside them."""
        parts = []
        for c in clauses:
            src = self._x(c.source, sc)
            sc = sc.bind(c.var, self._fresh("v"))
            parts.append(f"for {sc.names[c.var]} in {src}" + "".join(f" if {self._x(x, sc)}" for x in c.conds))
        return " ".join(parts), sc

    def g_Agg(self, e, sc):
        held = hoistable_member(e)
        (first, *more) = e.clauses
        if (held is not None and e.op in ("all", "any") and not more and not first.conds
                and isinstance(held.elem, ir.Local) and held.elem.name == first.var):  # all(x in S for x in xs)
            return self._subset_test(e.op, first.source, held.set, sc)
        with self._nested():
            return self._comprehension(e, held, sc)

    def _subset_test(self, op, xs, s, sc):
        """all(x in S for x in xs) as one `issuperset` (any: `isdisjoint`), S worked out only when
        xs has an element: inline where this function may bind xs to a local, else by a helper."""
        xs_text = self._x(xs, sc)
        if not self._frame.binds:
            with self._nested():
                return f"_{op}_in({xs_text}, lambda: {self._x(s, sc)})"
        held = xs_text if xs_text.isidentifier() else self._fresh("w")
        bind = "" if held == xs_text else f"{held} := "
        with self._branch():
            s_text = self._x(s, sc)
        if op == "all":
            return f"(not ({bind}{xs_text}) or frozenset({s_text}).issuperset({held}))"
        return f"(bool({bind}{xs_text}) and not frozenset({s_text}).isdisjoint({held}))"

    def _comprehension(self, e, held, sc):
        if held is not None:  # the set is worked out once, when the first element reaches it
            h = self._fresh("h")
            loops, inner = self._loops(e.clauses, sc)
            elt = f"_contains(({h}[0] if {h} else _push({h}, {self._x(held.set, sc)})), {self._x(held.elem, inner)})"
            loops = f"for {h} in ([],) {loops}"
        else:
            loops, inner = self._loops(e.clauses, sc)
            elt = self._x(e.elt, inner)
        vals = f"[{elt} {loops}]"
        if e.op in ("all", "any", "sum"):
            return f"{e.op}({vals})"
        if e.op == "count":
            return f"len([0 {loops} if {elt}])" if e.elt.type.kind == "bool" else f"len({vals})"
        if e.op == "set":
            return f"frozenset({vals})"
        default = self._x(e.default, sc) if e.default is not None else "_unbound('default')"
        return f"_{e.op}_or({vals}, lambda: {default})"

    def g_The(self, e, sc):
        with self._nested():
            loops, inner = self._loops(e.clauses, sc)
            return f"_the([{self._x(e.elt, inner)} {loops}], {self._const(e.loc)})"

    def g_Member(self, e, sc):
        return f"({self._x(e.elem, sc)} in {self._x(e.set, sc)})"

    def g_SetLit(self, e, sc):
        return f"frozenset(({''.join(self._x(a, sc) + ', ' for a in e.items)}))"

    def g_SetOp(self, e, sc):
        return f"({self._x(e.left, sc)} {e.op} {self._x(e.right, sc)})"

    def g_Len(self, e, sc):
        return f"len({self._x(e.arg, sc)})"

    def g_Builtin(self, e, sc):
        ctx = CallCtx(self.domains, [a.type for a in e.args], e.loc)
        fn = self._const(REGISTRY[e.name].py_positional(dict(e.options), ctx))
        return f"{fn}({', '.join(self._x(a, sc) for a in e.args)})"

    def g_Call(self, e, sc):
        params, _ = self.defines[e.name]
        if not params:
            getter = self._states.get(e.name)
            if getter is None:
                getter = self._states[e.name] = self._const(state_getter(self, e.name))
            return f"{getter}(st, memo)"
        fn = self._define_function(e.name)
        self._calling.append(fn)
        return f"{fn}(st, memo, {', '.join(self._x(a, sc) for a in e.args)})"

    def _define_function(self, name: str) -> str:
        """The memoised positional function of a define with parameters, made once: `d` computes
        the body, `c` looks the call up in the evaluation's memo first (key as the closures')."""
        hit = self._defs.get(name)
        if hit is not None:
            return hit
        params, body = self.defines[name]
        n = self._fresh("")
        d, c = f"d{n}", f"c{n}"
        self._defs[name] = c
        outer = self._calling
        self._calling = []
        args = [f"p{n}_{i}" for i in range(len(params))]
        try:
            with self._new_frame() as frame:
                text = frame.finish(self._x(body, _Scope(top=False, names=dict(zip(params, args)))))
            self._define(d, f"def {d}(st, memo, {', '.join(args)}):\n    return {text}\n")
        except (RecursionError, SyntaxError, MemoryError):  # too deep for the parser: the closure
            self._ns[f"b{n}"] = PyCompiler.compile(self, body)
            self._define(d, f"def {d}(st, memo, {', '.join(args)}):\n"
                         f"    return b{n}(st, _env(memo, {{{', '.join(f'{p!r}: {a}' for p, a in zip(params, args))}}}))\n")
        if self._cheap(body):  # a lookup or two: the memo would cost more than it saves
            self._defs[name], self._calling = d, outer
            return d
        key = f"({name!r}, ({''.join(a + ', ' for a in args)}))"
        src_c = (f"def {c}(st, memo, {', '.join(args)}):\n"
                 f"    if memo is None:\n        return {d}(st, None, {', '.join(args)})\n"
                 f"    key = {key}\n"
                 f"    try:\n        hit = memo.get(key, _MISSING)\n"
                 f"    except TypeError:\n        return {d}(st, memo, {', '.join(args)})\n"
                 f"    if hit is _MISSING:\n        hit = memo[key] = {d}(st, memo, {', '.join(args)})\n"
                 f"    return hit\n")
        self._calling = [d]
        self._define(c, src_c)
        self._calling = outer
        return c

    @staticmethod
    def _cheap(body) -> bool:
        """A body with no generator, no call and only cheap built-ins: worth no memo lookup."""
        for n in ir.walk(body):
            if isinstance(n, (ir.Agg, ir.The, ir.Call, ir.Can, ir.After)):
                return False
            if isinstance(n, ir.Builtin) and not REGISTRY[n.name].cheap:
                return False
        return True

    def _driven(self, e, sc):
        """A node run by its closure driver (`can`, `after`), its parts generated: it is given an
        env holding the names bound here and the memo."""
        fn = self._const(PyCompiler.compile(self, e))
        bound = "{" + ", ".join(f"{n!r}: {py}" for n, py in sc.names.items()) + "}"
        if sc.top:
            return f"{fn}(st, {{**env, **{bound}}})" if sc.names else f"{fn}(st, env)"
        return f"{fn}(st, _env(memo, {bound}))"
