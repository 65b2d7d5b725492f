"""Claims `over: independence` — nothing the rules decide depends on some state variables.

"You should never have to lift a domino to see below it" is a promise about the rules: keep what
lies beneath in the state, and no rule's value, no action's legality and no action's effect on
the rest of the state may change with it. Checked in two steps, each sound:
- a read-set analysis: an item (a rule, or an action's requirements and effect) whose expressions,
  through every define they call, never read the variables cannot depend on them (a condition that
  reads no state, such as a reading or a switch, is evaluated, and only its taken branch counts);
- for every item that does read them, Z3 over two states that satisfy the invariants (and the
  claim's `given`) and share every other variable — the same terms, not equal copies, so the
  parts that do not read the variables are one term: a model is two states on which the item's
  value, legality or effect outside the variables differ. UNSAT proves the item independent.
A counterexample is re-checked by the Python back end before it is reported.
"""
from __future__ import annotations

import z3

from zoospec import ir
from zoospec.backends.z3 import ZCtx
from zoospec.engines import work
from zoospec.runtime.state import leaf_eq
from zoospec.smt.values import ZMap, ZRec, ZSet

from ..symbolic import Query, confirm, py_value, python_invariants_hold
from ..traces import Trace, concrete_difference, plain

KINDS = ("legality", "end", "invariant", "scoring", "definition")


def check(game, claim, timeout, verdict):
    """The claim's verdict (a `claims.Verdict`, made by `verdict(status, method, detail, trace)`)."""
    of = set(claim.of)
    deadline = None if timeout is None else work.now() + timeout
    readers = [x for x in _items(game, claim) if _reads(game, x, of)]
    method = (f"read sets of every rule and action; Z3 over two states sharing all but "
              f"{', '.join(sorted(of))} for the {len(readers)} that read them")
    gave_up = []
    for x in readers:
        r, found = _ask(game, claim, x, of, deadline)
        if r == "unknown":
            gave_up.append(f"{x.id} ({found})")
        elif r == "sat":
            return verdict("fails", method, found[0], found[1])
    if gave_up:
        return verdict("unknown", method, f"no engine answered in time on {'; '.join(gave_up)}", None)
    n = len(_items(game, claim))
    return verdict("holds", method, f"none of {n} rules and actions depends on {', '.join(sorted(of))}: "
                   f"{n - len(readers)} never read them, {len(readers)} proved independent (UNSAT)", None)


def _items(game, claim):
    rules = [r for r in game.rules.values() if r.kind in KINDS and r.body is not None]
    actions = [game.action(a) for a in (claim.actions or game.actions)]
    return rules + actions


def _reads(game, x, of) -> bool:
    return bool(_read_set(game, x) & of)


def _read_set(game, x) -> set[str]:
    """The state variables an item's value, legality or effect outside `of` can depend on."""
    if not hasattr(x, "requires"):
        return ir.state_vars_read(x.body, game.defines)
    out: set[str] = set()
    for _, e in x.requires + x.ensures:  # what it ensures is read after the effect, whose reads follow
        out |= ir.state_vars_read(e, game.defines)
    for e in _effect_reads(game, x.effect):
        out |= ir.state_vars_read(e, game.defines)
    return out


def _effect_reads(game, stmts):
    """The expressions of effect statements that can change a write: assignments' keys and
    values, loops' sets and filters, the conditions — but of an `if` whose condition reads no
    state (a reading, a switch) only the branch it takes."""
    todo = list(stmts)
    while todo:
        s = todo.pop()
        if isinstance(s, ir.Assign):
            yield from (k for step, k in s.path if step == "index")
            yield s.value
        elif isinstance(s, ir.For):
            yield s.clause.source
            yield from s.clause.conds
            todo.extend(s.body)
        elif isinstance(s, ir.If):
            fixed = _constant(game, s.cond)
            if fixed is None:
                yield s.cond
                todo.extend(s.body + s.orelse)
            else:
                todo.extend(s.body if fixed else s.orelse)


def _constant(game, e):
    """The value of a condition that reads no state and no bound name; None otherwise."""
    if ir.state_vars_read(e, game.defines) or any(isinstance(n, ir.Local) for n in ir.walk(e)):
        return None
    v = py_value(game, e, {})
    return v if v in (True, False) else None


def _ask(game, claim, x, of, deadline):
    """Z3: two states sharing all but `of`, on which x differs. ('sat', (detail, trace)) with a
    counterexample Python confirms, ('unsat', None) or ('unknown', reason)."""
    q = Query(game, 2)
    q.syms[1].share(q.syms[0], [n for n in game.state_types if n not in of])
    cargs, _ = q.args(claim.params, "c")
    conds = [q.holds(claim.given, i, cargs) for i in (0, 1)] if claim.given is not None else []
    args, _ = q.args(x.params, "a")
    conds.append(_differs(game, q, x, args, of))
    r, m = q.solve_invariant((0, 1), *conds, deadline=deadline)
    if r != "sat":
        return r, m
    s1, s2, ca, xa = m.states[0], m.states[1], m.args[0], m.args[1]
    why = concrete_difference(game, x, s1, s2, xa, of)
    confirm(why is not None and all(python_invariants_hold(game, s) for s in (s1, s2))
            and (claim.given is None or all(py_value(game, claim.given, s, ca) is True for s in (s1, s2))),
            f"two states on which {x.id} depends on {', '.join(sorted(of))}")
    trace = Trace(game, [s1, s2], [], ca, {"finding": f"claim {claim.id} fails: {x.id} {why}"},
                  pair={"item": x.id, "args": plain(xa), "of": sorted(of)})
    return "sat", (f"counterexample: two states that differ only in {', '.join(sorted(of))}, and {x.id} {why}", trace)


def _differs(game, q, x, args, of):
    """Z3: x's value (a rule) or legality and effect outside `of` (an action) differ between the
    query's two states — definedness included."""
    if not hasattr(x, "requires"):
        def compile_on(sym, ctx):
            return game.z3_eval(x.body, sym, ctx, args)
        (v1, d1), (v2, d2) = _on_both(q, compile_on, of)
        return z3.Or(d1 != d2, z3.And(d1, d2, z3.Not(leaf_eq(v1, v2))))

    def compile_on(sym, ctx):
        return game.z3_legal(sym, x.id, args, ctx), game.z3_effect(sym, x.id, args, ctx)
    ((legal1, post1), d1), ((legal2, post2), d2) = _on_both(q, compile_on, of)
    ok1, ok2 = z3.And(d1, legal1), z3.And(d2, legal2)
    same = z3.And([leaf_eq(post1[n], post2[n]) for n in game.state_types if n not in of] or [z3.BoolVal(True)])
    return z3.Or(ok1 != ok2, z3.And(ok1, ok2, z3.Not(same)))


def _on_both(q, compile_on, of):
    """(value, defined) on each of the query's two states. Compiled once, on the first: the
    second's is the same terms with the first's `of` leaves replaced by the second's — exact when
    no side constraint of the compile reads them, as the auxiliary terms (region labels and the
    like) are then defined alike on both; otherwise it is compiled on the second state too."""
    s1, s2 = q.syms
    pairs = [(a, b) for n in sorted(of) for a, b in zip(s1.terms(n), s2.terms(n)) if not a.eq(b)]
    out = []
    for sym in (s1, s2):
        ctx = ZCtx(f"ind{len(q.facts)}")
        ctx.memo = {}
        value = compile_on(sym, ctx)
        q.facts.extend(ctx.sides)
        out.append((value, ctx.defined()))
        if pairs and all(z3.substitute(side, *pairs).eq(side) for side in ctx.sides):
            value, defined = out[0]
            out.append((_substitute(value, pairs), z3.substitute(defined, *pairs)))
            return out
    return out


def _substitute(v, pairs):
    """A back-end value (a term, a tuple or dict of them, a set, map or record) with leaves replaced."""
    if isinstance(v, tuple):
        return tuple(_substitute(x, pairs) for x in v)
    if isinstance(v, dict):
        return {k: _substitute(x, pairs) for k, x in v.items()}
    if isinstance(v, ZSet):
        return ZSet(v.codes, {k: z3.substitute(b, *pairs) for k, b in v.bits.items()})
    if isinstance(v, ZMap):
        return ZMap(v.codes, {k: _substitute(e, pairs) for k, e in v.entries.items()})
    if isinstance(v, ZRec):
        return ZRec({n: _substitute(f, pairs) for n, f in v.fields.items()})
    return z3.substitute(v, *pairs) if z3.is_expr(v) else v
