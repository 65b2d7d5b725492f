"""Python back end: IR → closures `f(state, env)` over a concrete state.

A state is a dict from state-variable name to its value: bool, int, atom (str, or int for ranges),
frozenset (sets), dict (maps by atom, records by field). `env` binds parameters and generator
variables; generators rebind it in place and restore it afterwards.
"""
from __future__ import annotations

from .. import ir
from ..builtins.base import REGISTRY
from ..errors import Undefined
from ..ir.order import ordered
from ..ir.plan import can_plan, hoistable_member
from ..ir.types import check_range
from . import MissingHandler

_MISSING = object()
MEMO = "#memo"  # env key of the per-evaluation cache of define calls (not an identifier: no clash with locals)


class CallCtx:
    """What a built-in's Python side may use: the domains, its arguments' types and its location."""

    __slots__ = ("domains", "types", "loc")

    def __init__(self, domains, types, loc):
        self.domains, self.types, self.loc = domains, types, loc

    def undefined(self, reason: str):
        raise Undefined(self.loc, reason)


class PyCompiler:
    def __init__(self, domains, defines: dict[str, tuple[list[str], ir.Expr]] | None = None, types: dict | None = None):
        self.domains = domains
        self.defines = defines or {}
        self.types = types or {}  # the state variables' types, for `after` (an action's ensure)
        self._define_fns: dict[str, object] = {}

    def compile(self, e: ir.Expr):
        h = getattr(self, "c_" + type(e).__name__, None)
        if h is None:
            raise MissingHandler(f"Python back end has no handler for {type(e).__name__}")
        return h(e)

    # -- leaves
    def c_Lit(self, e):
        v = e.value
        return lambda st, env: v

    def c_StateVar(self, e):
        name = e.name
        return lambda st, env: st[name]

    def c_Local(self, e):
        name = e.name
        return lambda st, env: env[name]

    def c_Field(self, e):
        base, name = self.compile(e.base), e.name
        return lambda st, env: base(st, env)[name]

    def c_Index(self, e):
        base, key, loc = self.compile(e.base), self.compile(e.key), e.loc
        dom = e.base.type.key

        def f(st, env):
            k = key(st, env)
            try:
                return base(st, env)[k]
            except (KeyError, TypeError):
                raise Undefined(loc, f"key {k!r} is outside domain {dom}") from None
        return f

    # -- logic and arithmetic
    def c_Compare(self, e):
        a, b = self.compile(e.left), self.compile(e.right)
        op = e.op
        if op == "==":
            return lambda st, env: a(st, env) == b(st, env)
        if op == "!=":
            return lambda st, env: a(st, env) != b(st, env)
        if op == "<":
            return lambda st, env: a(st, env) < b(st, env)
        if op == "<=":
            return lambda st, env: a(st, env) <= b(st, env)
        raise MissingHandler(f"comparison {op}")

    def c_Not(self, e):
        a = self.compile(e.arg)
        return lambda st, env: not a(st, env)

    def c_And(self, e):
        fs = [self.compile(x) for x in e.args]
        return lambda st, env: all(f(st, env) for f in fs)

    def c_Or(self, e):
        fs = [self.compile(x) for x in e.args]
        return lambda st, env: any(f(st, env) for f in fs)

    def c_Implies(self, e):
        a, b = self.compile(e.left), self.compile(e.right)
        return lambda st, env: (not a(st, env)) or b(st, env)

    def c_Arith(self, e):
        a, b, loc = self.compile(e.left), self.compile(e.right), e.loc
        op = e.op
        if op == "+":
            return lambda st, env: a(st, env) + b(st, env)
        if op == "-":
            return lambda st, env: a(st, env) - b(st, env)
        if op == "*":
            return lambda st, env: a(st, env) * b(st, env)

        def div(st, env):
            x, y = a(st, env), b(st, env)
            if y == 0:
                raise Undefined(loc, f"{'division' if op == '//' else 'modulo'} by zero")
            return x // y if op == "//" else x % y
        return div

    def c_Neg(self, e):
        a = self.compile(e.arg)
        return lambda st, env: -a(st, env)

    def c_Abs(self, e):
        a = self.compile(e.arg)
        return lambda st, env: abs(a(st, env))

    def c_MinMax(self, e):
        fs = [self.compile(x) for x in e.args]
        f = min if e.op == "min" else max
        return lambda st, env: f([g(st, env) for g in fs])

    def c_Ite(self, e):
        c, a, b = self.compile(e.cond), self.compile(e.then), self.compile(e.orelse)
        return lambda st, env: a(st, env) if c(st, env) else b(st, env)

    # -- generators
    def iterate(self, clauses: tuple[ir.Clause, ...], in_order: bool = False):
        """A function (st, env, visit) calling visit() once per binding that passes the filters.
        in_order walks each source in the shared domain order (effects need it; reads do not)."""
        domains = self.domains
        compiled = [(c.var, self.compile(c.source), [self.compile(x) for x in c.conds],
                     c.source.type.elem) for c in clauses]

        def run(st, env, visit):
            def rec(i):
                if i == len(compiled):
                    visit()
                    return
                var, src, conds, elem_t = compiled[i]
                xs = src(st, env)
                old = env.get(var, _MISSING)
                try:
                    for x in (ordered(xs, elem_t, domains) if in_order else xs):
                        env[var] = x
                        if all(c(st, env) for c in conds):
                            rec(i + 1)
                finally:
                    if old is _MISSING:
                        env.pop(var, None)
                    else:
                        env[var] = old
            rec(0)
        return run

    def c_Agg(self, e):
        run = self.iterate(e.clauses)
        hoisted = self._member_hoisted(e)
        elt = self.compile(e.elt)
        op = e.op
        count_bools = op == "count" and e.elt.type.kind == "bool"
        default = self.compile(e.default) if e.default is not None else None

        def f(st, env):
            vals = []
            if hoisted is None:
                run(st, env, lambda: vals.append(elt(st, env)))
            else:
                held: list = []
                run(st, env, lambda: vals.append(hoisted(st, env, held)))
            if op == "all":
                return all(vals)
            if op == "any":
                return any(vals)
            if op == "count":
                return sum(1 for v in vals if v) if count_bools else len(vals)
            if op == "sum":
                return sum(vals)
            if op == "set":
                return frozenset(vals)
            if not vals:
                return default(st, env)
            return min(vals) if op == "min" else max(vals)
        return f

    def _member_hoisted(self, e):
        """For `x in S` as the element of a generator whose variables S does not use: a function
        (st, env, held) that works S out once per evaluation of the generator, on the first
        element that passes the filters (so an undefined S is undefined exactly when an element
        reaches it), instead of once per element."""
        m = hoistable_member(e)
        if m is None:
            return None
        a, s = self.compile(m.elem), self.compile(m.set)

        def f(st, env, held):
            if not held:
                held.append(s(st, env))
            return a(st, env) in held[0]
        return f

    def c_The(self, e):
        run = self.iterate(e.clauses)
        elt, loc = self.compile(e.elt), e.loc

        def f(st, env):
            vals = []
            run(st, env, lambda: vals.append(elt(st, env)))
            if len(vals) != 1:
                raise Undefined(loc, f"the(...) needs exactly one candidate, found {len(vals)}")
            return vals[0]
        return f

    # -- sets
    def c_Member(self, e):
        a, s = self.compile(e.elem), self.compile(e.set)
        return lambda st, env: a(st, env) in s(st, env)

    def c_SetLit(self, e):
        fs = [self.compile(x) for x in e.items]
        return lambda st, env: frozenset(f(st, env) for f in fs)

    def c_SetOp(self, e):
        a, b = self.compile(e.left), self.compile(e.right)
        if e.op == "|":
            return lambda st, env: a(st, env) | b(st, env)
        if e.op == "&":
            return lambda st, env: a(st, env) & b(st, env)
        return lambda st, env: a(st, env) - b(st, env)

    def c_Len(self, e):
        a = self.compile(e.arg)
        return lambda st, env: len(a(st, env))

    # -- calls
    def c_Call(self, e):
        params, _ = self.defines[e.name]
        args = [self.compile(a) for a in e.args]
        name = e.name
        holder = {}

        if not params:
            return self._state_call(name)

        def f(st, env):
            body = holder.get("fn")
            if body is None:
                body = holder["fn"] = self.define_fn(name)
            inner = {p: a(st, env) for p, a in zip(params, args)}
            memo = env.get(MEMO)
            if memo is None:
                return body(st, inner)
            try:
                key = (name, tuple(inner.values()))
                hit = memo.get(key, _MISSING)
            except TypeError:  # an unhashable argument (a map): no sharing
                return body(st, {**inner, MEMO: memo})
            if hit is _MISSING:
                hit = memo[key] = body(st, {**inner, MEMO: memo})
            return hit
        return f

    # -- what an action allows
    def c_Can(self, e):
        """Tries arguments the way a player would list moves (`can_plan`): a choice of spaces that
        fails is not tried again for every domino. An argument whose legality is undefined is not
        a legal one — as the move lister has it, and as the Z3 side encodes it."""
        holder = {}

        def f(st, env):
            plan = holder.get("plan")
            if plan is None:
                names, levels, pools = can_plan(e, self.domains)
                plan = holder["plan"] = (names, [[self.compile(c) for c in lv] for lv in levels], pools)
            names, levels, pools = plan
            bound = {MEMO: {}}  # the action's own parameters only; define calls on this state shared

            def extend(depth):
                try:
                    if not all(c(st, bound) for c in levels[depth]):
                        return False
                except Undefined:
                    return False
                if depth == len(names):
                    return True
                for v in pools[depth]:
                    bound[names[depth]] = v
                    if extend(depth + 1):
                        return True
                return False
            return extend(0)
        return f

    def c_After(self, e):
        known = self.known(e.body)
        if known is not UNKNOWN:  # nothing to read after (a switch turns it off): the effect is not run
            return lambda st, env: known
        stmts = [self.stmt(s) for s in e.stmts]
        body = self.compile(e.body)
        types, domains = self.types, self.domains

        def f(st, env):
            writes: list = []
            pre_env = {**env, MEMO: {}}  # every statement reads the state before
            for s in stmts:
                s(st, pre_env, writes)
            post = apply_writes(st, types, writes, domains)
            return body(post, {**env, MEMO: {}})  # define calls on the state before are not shared
        return f

    def known(self, e):
        """The value of e when it reads neither the state nor a parameter on the way to it (`not
        wildlife_wishes or ...` with the switch off), else UNKNOWN: both back ends use it to skip
        an `after`'s effect, so they skip the same ones."""
        try:
            return self.compile(e)(_NO_STATE, {})
        except (_NeedsState, KeyError, Undefined):
            return UNKNOWN

    def _state_call(self, name):
        get = state_getter(self, name)
        return lambda st, env: get(st, env.get(MEMO))

    def define_fn(self, name):
        fn = self._define_fns.get(name)
        if fn is None:
            fn = self._define_fns[name] = self.compile(self.defines[name][1])
        return fn

    def c_Builtin(self, e):
        bdef = REGISTRY[e.name]
        args = [self.compile(a) for a in e.args]
        ctx = CallCtx(self.domains, [a.type for a in e.args], e.loc)
        options = dict(e.options)
        return lambda st, env: bdef.py([a(st, env) for a in args], options, ctx)

    # -- statements: each compiles to `run(pre_state, env, writes)` appending (var, path, value)
    def stmt(self, s: ir.Stmt):
        h = getattr(self, "s_" + type(s).__name__, None)
        if h is None:
            raise MissingHandler(f"Python back end has no handler for {type(s).__name__}")
        return h(s)

    def s_Assign(self, s):
        value = self.compile(s.value)
        steps = [(k, self.compile(v) if k == "index" else v) for k, v in s.path]
        var = s.var

        def run(st, env, writes):
            path = tuple((k, v(st, env) if k == "index" else v) for k, v in steps)
            writes.append((var, path, value(st, env), s.loc))
        return run

    def s_For(self, s):
        run = self.iterate((s.clause,), in_order=True)
        body = [self.stmt(b) for b in s.body]

        def loop(st, env, writes):
            def visit():
                for b in body:
                    b(st, env, writes)
            run(st, env, visit)
        return loop

    def s_If(self, s):
        cond = self.compile(s.cond)
        body = [self.stmt(b) for b in s.body]
        orelse = [self.stmt(b) for b in s.orelse]

        def run(st, env, writes):
            for b in (body if cond(st, env) else orelse):
                b(st, env, writes)
        return run


def state_getter(compiler: PyCompiler, name: str):
    """`f(state, memo)`: the value of a define without parameters, a function of the state alone.
    Its value is kept for as long as every state variable it reads is the very same immutable value
    (a new state, or a variable replaced, recomputes it; maps and records, which could change in
    place, are never trusted); within one evaluation the memo shares it."""
    reads = sorted(ir.state_vars_read(compiler.defines[name][1], compiler.defines))
    cache: dict = {}

    def f(st, memo):
        if memo is not None and name in memo:  # already computed in this evaluation
            return memo[name]
        vals = tuple(st[v] for v in reads)
        hit = cache.get("entry")
        if hit is not None and len(hit[0]) == len(vals) and all(a is b for a, b in zip(hit[0], vals)):
            value = hit[1]
        else:
            value = compiler.define_fn(name)(st, {} if memo is None else {MEMO: memo})
            if all(isinstance(v, (frozenset, int, str, bool, tuple)) for v in vals):
                cache["entry"] = (vals, value)  # holds the values: their identities cannot be reused
        if memo is not None:
            memo[name] = value
        return value
    return f


UNKNOWN = object()


class _NeedsState(Exception):
    pass


class _NoStateDict(dict):
    def __getitem__(self, k):
        raise _NeedsState()


_NO_STATE = _NoStateDict()


def run_statements(fns, state: dict, env: dict, types: dict, domains) -> dict:
    """The state after compiled statements (`stmt`), each reading the state before (so define
    calls are shared among them); the state given is not changed."""
    writes: list = []
    env = {**env, MEMO: {}}
    for f in fns:
        f(state, env, writes)
    return apply_writes(state, types, writes, domains)


def apply_writes(state: dict, types: dict, writes, domains) -> dict:
    """The state after statements' writes, applied in order (later wins); the state is not changed."""
    out = dict(state)
    copied: set = set()
    for var, path, value, loc in writes:
        if var not in copied:
            out[var] = deep_copy(out[var])
            copied.add(var)
        out[var] = _write(out[var], types[var], path, value, loc, domains)
    return out


def deep_copy(v):
    if isinstance(v, dict):
        return {k: deep_copy(x) for k, x in v.items()}
    return v


def _write(cur, t, path, value, loc, domains):
    if not path:
        why = check_range(value, t, domains)
        if why:
            raise Undefined(loc, f"the value written is out of range: {why}")
        return deep_copy(value)
    kind, k = path[0]
    if kind == "field":
        cur[k] = _write(cur[k], t.field_type(k), path[1:], value, loc, domains)
        return cur
    if k not in cur:
        raise Undefined(loc, f"key {k!r} is outside domain {t.key}")
    cur[k] = _write(cur[k], t.value, path[1:], value, loc, domains)
    return cur


def constant_value(e: ir.Expr, domains):
    """The value of an expression that reads no state, parameter, variable or define; else None."""
    for n in ir.walk(e):
        if isinstance(n, (ir.StateVar, ir.Local, ir.Call)):
            return None
    try:
        return PyCompiler(domains).compile(e)({}, {})
    except Undefined:
        return None


