"""The core IR: frozen dataclasses, one per op. Sugar (chained comparisons, `not in`, multi-key
indexing, `x > y`) is rewritten into these before any back end sees it.

Every expression node has a `type` and a `loc`; back ends have exactly one handler per class in
`EXPR_OPS` / `STMT_OPS`, and a test checks that none is missing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Loc
from .types import Type

_loc = field(default=Loc(), compare=False, repr=False)


@dataclass(frozen=True)
class Expr:
    pass


@dataclass(frozen=True)
class Lit(Expr):
    """A constant: a literal, a component constant or a whole domain (as a set)."""

    value: object
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class StateVar(Expr):
    name: str
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Local(Expr):
    """A bound name: a rule/action/define parameter or a generator variable."""

    name: str
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Field(Expr):
    base: Expr
    name: str
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Index(Expr):
    """`base[key]` on a map with a finite key domain; undefined when key is outside it."""

    base: Expr
    key: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Compare(Expr):
    op: str  # one of == != < <=
    left: Expr
    right: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Not(Expr):
    arg: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class And(Expr):
    args: tuple[Expr, ...]
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Or(Expr):
    args: tuple[Expr, ...]
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Implies(Expr):
    left: Expr
    right: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Arith(Expr):
    op: str  # + - * // %   (// and % round toward minus infinity, as in Python)
    left: Expr
    right: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Neg(Expr):
    arg: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Abs(Expr):
    arg: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class MinMax(Expr):
    op: str  # min | max
    args: tuple[Expr, ...]
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Ite(Expr):
    cond: Expr
    then: Expr
    orelse: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Clause:
    """One `for var in source if cond ...` clause of a generator."""

    var: str
    source: Expr  # a set-typed expression
    conds: tuple[Expr, ...]


@dataclass(frozen=True)
class Agg(Expr):
    """all / any / count / sum / min / max / set over a generator on finite domains.
    `default` is the value of min/max when no element passes."""

    op: str
    elt: Expr
    clauses: tuple[Clause, ...]
    type: Type
    default: Expr | None = None
    loc: Loc = _loc


@dataclass(frozen=True)
class The(Expr):
    """Definite description: the single element the generator yields; undefined unless exactly one."""

    elt: Expr
    clauses: tuple[Clause, ...]
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Member(Expr):
    elem: Expr
    set: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class SetLit(Expr):
    items: tuple[Expr, ...]
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class SetOp(Expr):
    op: str  # | & -
    left: Expr
    right: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Len(Expr):
    arg: Expr
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Call(Expr):
    """A call of a `define`d function (or the chosen alternative of a reading)."""

    name: str
    args: tuple[Expr, ...]
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class Builtin(Expr):
    """A built-in with one Python implementation and one Z3 encoding (`zoospec/builtins`)."""

    name: str
    args: tuple[Expr, ...]
    type: Type
    options: tuple[tuple[str, object], ...] = ()
    loc: Loc = _loc


class ActionRef:
    """An action named in a `can(...)`, filled in once the actions are loaded (defines are built
    before them): its parameters and its whole legality (`Game.legal_expr`)."""

    def __init__(self, action: str):
        self.action = action
        self.params: list | None = None
        self.legal: Expr | None = None

    def __repr__(self):
        # with the conditions themselves: a switch or reading that changes them changes every
        # `can` of the action (tests compare bodies by their text to find those a variant
        # changes). Not the effect an `after` runs: the action's own effect item covers it.
        return f"ActionRef({self.action!r}, {_conditions_text(self.legal)})"


def _conditions_text(e) -> str:
    if isinstance(e, After):
        return repr(e.body)
    if isinstance(e, And):
        return "And(" + ", ".join(_conditions_text(x) for x in e.args) + ")"
    return repr(e)


@dataclass(frozen=True)
class Can(Expr):
    """`can(a)`: some arguments make action `a` legal (its requirements and what it ensures).
    Both back ends go through them in one plan (`can_plan`); Z3 quantifies over them instead
    when the action ensures something on the state after it (ADR 0015)."""

    ref: ActionRef
    type: Type
    loc: Loc = _loc


@dataclass(frozen=True)
class After(Expr):
    """`body` read on the state the statements leave, their parameters bound as in the caller
    (an action's `ensure:`, part of its legality)."""

    stmts: tuple
    body: Expr
    type: Type
    loc: Loc = _loc


# statements (action effects)

@dataclass(frozen=True)
class Stmt:
    pass


@dataclass(frozen=True)
class Assign(Stmt):
    """`var[k1][k2].f = value`: path steps are ("index", Expr) or ("field", name)."""

    var: str
    path: tuple[tuple[str, object], ...]
    value: Expr
    loc: Loc = _loc


@dataclass(frozen=True)
class For(Stmt):
    clause: Clause
    body: tuple[Stmt, ...]
    loc: Loc = _loc


@dataclass(frozen=True)
class If(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    loc: Loc = _loc


EXPR_OPS = (Lit, StateVar, Local, Field, Index, Compare, Not, And, Or, Implies, Arith, Neg, Abs, MinMax,
            Ite, Agg, The, Member, SetLit, SetOp, Len, Call, Builtin, Can, After)
STMT_OPS = (Assign, For, If)


def stmt_exprs(s: Stmt) -> list[Expr]:
    """The expressions a statement reads (its values, keys, loop sources and conditions)."""
    if isinstance(s, Assign):
        return [v for k, v in s.path if k == "index"] + [s.value]
    if isinstance(s, For):
        return [s.clause.source, *s.clause.conds] + [x for b in s.body for x in stmt_exprs(b)]
    return [s.cond] + [x for b in s.body + s.orelse for x in stmt_exprs(b)]


def children(e: Expr) -> list[Expr]:
    """Direct sub-expressions, for generic walks (dependency analysis, op coverage). A `can`'s
    action legality is not a child (it is shared, and may be filled in later): see `state_vars_read`."""
    if isinstance(e, After):
        return [x for s in e.stmts for x in stmt_exprs(s)] + [e.body]
    out: list[Expr] = []
    for name in getattr(e, "__dataclass_fields__", {}):
        v = getattr(e, name)
        if isinstance(v, Expr):
            out.append(v)
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, Expr):
                    out.append(x)
                elif isinstance(x, Clause):
                    out.append(x.source)
                    out.extend(x.conds)
    return out


def walk(e: Expr):
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))


def reach(exprs, defines: dict[str, tuple[list[str], Expr]], follow_can=None):
    """Every node of `exprs` and of the defines they call, through one another, each define
    walked once. `follow_can(node)`: the expressions a `can(...)` node reads, walked once per
    action (not followed when None) — the analyses differ on what an action's `can` reads."""
    seen: set[tuple[str, str]] = set()
    todo = list(exprs)
    while todo:
        for n in walk(todo.pop()):
            yield n
            if isinstance(n, Call) and n.name in defines and ("define", n.name) not in seen:
                seen.add(("define", n.name))
                todo.append(defines[n.name][1])
            elif follow_can is not None and isinstance(n, Can) and ("can", n.ref.action) not in seen:
                seen.add(("can", n.ref.action))
                todo.extend(follow_can(n))


def state_vars_read(e: Expr, defines: dict[str, tuple[list[str], Expr]]) -> set[str]:
    """The state variables an expression reads, through the defines it calls and the legality of
    the actions its `can(...)` asks about."""
    return {n.name for n in reach([e], defines, lambda n: [n.ref.legal]) if isinstance(n, StateVar)}
