"""`zoospec ambiguities`: where a rulebook leaves room, found with a concrete witness.

1. Readings that disagree: for each declared reading and each pair of its choices, a state (and
   arguments) on which the two choices give a different value of the reading itself, of a rule
   that uses it, or a different legality or effect of an action that uses it — or UNSAT: they
   never differ, which is worth knowing too.
2. Gaps: every partial operation the spec evaluates — a `the(...)` with no candidate or several,
   an index outside its domain, a division by zero, a write outside its range — for which a
   state exists where it fails. `the(...)` gaps are definite descriptions the rulebook does not
   make definite.
3. Dead ends and dead actions: a state satisfying the invariants, with no end rule holding, where
   no action is legal for any arguments; an action that is legal in no such state.

States quantify over those satisfying the spec's invariant rules (reachability is not checked:
the finding says so). Every witness is re-checked with the Python back end and shrunk.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import z3

from zoospec import ir
from zoospec.backends.z3 import zequal
from zoospec.engines import work
from zoospec.errors import SpecError, Undefined

from ..symbolic import UNDEFINED, Query, confirm, py_ended, py_has_move, py_value, python_invariants_hold
from ..traces import Trace
from .shrink import shrink



@dataclass
class Finding:
    kind: str          # readings-differ | readings-agree | gap | dead-end | dead-action | switched-off | unknown
    subject: str       # reading, rule or action id
    cite: object       # the rulebook sentence behind it
    message: str
    trace: Trace | None = None
    loc: object = None
    seconds: float = 0.0

    @property
    def is_problem(self) -> bool:
        return self.kind in ("readings-differ", "gap", "dead-end", "dead-action")  # not switched-off


def find_all(game, timeout: float | None = 30.0, progress=None) -> list[Finding]:
    out = []
    for r in game.readings.values():
        if progress:
            progress(f"reading {r.id}")
        out.extend(readings(game, r.id, timeout))
    if progress:
        progress("gaps")
    out.extend(gaps(game, timeout))
    if game.actions:
        if progress:
            progress("dead ends")
        out.extend(dead_ends(game, timeout))
    return out


# ------------------------------------------------------------------ 1. readings

def calls(expr, defines) -> set[str]:
    """Every define (and reading) an expression reaches."""
    return {n.name for n in ir.reach([expr], defines) if isinstance(n, ir.Call) and n.name in defines}


def _uses(game, name, exprs) -> bool:
    return any(e is not None and name in calls(e, game.defines) for e in exprs)


def users(game, rid: str) -> tuple[list, list]:
    """The rules and the actions whose value, legality or effect a reading can change."""
    rules = [r for r in game.rules.values() if r.body is not None and _uses(game, rid, [r.body])]
    actions = [x for x in game.actions.values()
               if _uses(game, rid, [e for _, e in x.requires + x.ensures]) or _effect_uses(x, rid, game)]
    return rules, actions


def readings(game, rid: str, timeout, budget: float | None = None) -> list[Finding]:
    """Each check within `timeout`; with a `budget`, the whole question within it too (its checks
    share it out: work.Shares), and a check there was no time left for is an unknown finding."""
    rd = game.readings[rid]
    rules, actions = users(game, rid)
    subjects = [("reading", rid)] + [("rule", r.id) for r in rules] + [("action", x.id) for x in actions]
    pairs = list(itertools.combinations(list(rd.choices), 2))
    shares = work.Shares(budget, len(pairs) * len(subjects), timeout)
    out = []
    for a, b in pairs:
        ga, gb = game.with_readings({rid: a}), game.with_readings({rid: b})
        for kind, sid in subjects:
            if shares.spent():
                out.append(Finding("unknown", rd.id, rd.cite, f"{rd.id}: '{a}' vs '{b}': {_what(kind, sid)}: not asked, "
                                   f"the question's {budget:g} s were spent", loc=rd.loc))
                continue
            t0 = time.monotonic()
            f = _differ(game, ga, gb, kind, sid, rd, a, b, timeout, shares.deadline())
            f.seconds = round(time.monotonic() - t0, 3)
            out.append(f)
    return out


def _what(kind, sid) -> str:
    return {"reading": "the reading itself", "rule": f"rule {sid}", "action": f"action {sid}"}[kind]


def _effect_uses(action, rid, game) -> bool:
    for s in action.effect:
        for n in ir.stmt_exprs(s):
            if rid in calls(n, game.defines):
                return True
    return False


def _differ(game, ga, gb, kind, sid, rd, a, b, timeout, deadline=None) -> Finding:
    label = f"{rd.id}: '{a}' vs '{b}'"
    q = Query(ga, 3 if kind == "action" else 1, timeout)
    if kind == "reading":
        params, body_a, body_b = rd.params, ga.defines[sid][1], gb.defines[sid][1]
    elif kind == "rule":
        params, body_a, body_b = ga.rules[sid].params, ga.rules[sid].body, gb.rules[sid].body
    else:
        params = ga.actions[sid].params
    args, _ = q.args(params)
    conds = []
    if kind in ("reading", "rule"):
        va, da = q.term(body_a, 0, args, ga)
        vb, db = q.term(body_b, 0, args, gb)
        conds.append(z3.Or(da != db, z3.And(da, db, z3.Not(zequal(va, vb)))))
    else:
        la, lb = q.holds(ga.legal_expr(sid), 0, args, ga), q.holds(gb.legal_expr(sid), 0, args, gb)
        ta = q.transition(sid, 0, 1, args, ga)
        tb = q.transition(sid, 0, 2, args, gb)
        conds.append(z3.Or(la != lb, z3.And(ta, tb, z3.Not(q.syms[1].equal(q.syms[2])))))
    r, m = q.solve_invariant(0, *conds, deadline=deadline)
    what = _what(kind, sid)
    if r == "unsat":
        return Finding("readings-agree", rd.id, rd.cite, f"{label}: {what} is the same under both (UNSAT)", loc=rd.loc)
    if r == "unknown":
        return Finding("unknown", rd.id, rd.cite, f"{label}: {what}: no engine answered in time ({m})", loc=rd.loc)
    state, pargs = m.states[0], m.args[0]

    def values(s):
        if kind == "reading":
            return _call(ga, sid, s, pargs), _call(gb, sid, s, pargs)
        if kind == "rule":
            return py_value(ga, body_a, s, pargs), py_value(gb, body_b, s, pargs)
        return _outcome(ga, sid, s, pargs), _outcome(gb, sid, s, pargs)

    def keeps(s):
        if not python_invariants_hold(ga, s):
            return False
        x, y = values(s)
        return x != y

    confirm(keeps(state), f"a state where {label} differ on {what}")
    state = shrink(state, ga.state_types, ga.domains, keeps)
    x, y = values(state)
    msg = f"{label}: {what} differs — {_show(x)} under '{a}', {_show(y)} under '{b}'"
    trace = Trace(ga, [state], [], pargs, {"finding": msg, "reading": rd.id, "choices": [a, b]})
    return Finding("readings-differ", rd.id, rd.cite, msg, trace, loc=rd.loc)


def _call(game, name, state, args):
    pnames, body = game.defines[name]
    return py_value(game, body, state, {p: args[p] for p in pnames})


def _outcome(game, aid, state, args):
    try:
        if not game.legal(state, aid, args):
            return "illegal"
        return ("legal", _freeze(game.apply(state, aid, args)))
    except Undefined:
        return UNDEFINED


def _freeze(v):
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v


def _show(v):
    if isinstance(v, tuple) and v and v[0] == "legal":
        return "legal, with a different result"
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, v))) + "}"
    return str(v)


# ------------------------------------------------------------------ 2. gaps

def _bodies(game):
    """(subject, params, expression) for everything the spec evaluates."""
    for r in game.rules.values():
        if r.body is not None:
            yield f"rule {r.id}", r.params, r.body, r.cite
    for a in game.actions.values():
        for rid, e in a.requires:
            yield f"action {a.id}", a.params, e, a.cite
        if a.ensures:  # on the state its effect leaves
            yield f"action {a.id} ensure", a.params, game.ensure_expr(a.id), a.cite
    for c in game.claims.values():
        yield f"claim {c.id}", c.params, c.body, c.cite


def gaps(game, timeout, budget: float | None = None) -> list[Finding]:
    """Each check within `timeout`; with a `budget`, the whole question within it too, shared out
    by body (work.Shares): the bodies there was no time left for are named in one unknown finding."""
    out, seen = [], set()
    bodies = list(_bodies(game))
    shares = work.Shares(budget, len(bodies), timeout)
    for n, (subject, params, expr, cite) in enumerate(bodies):
        if shares.spent():
            rest = [b[0] for b in bodies[n:]]
            out.append(Finding("unknown", game.id, None, f"gaps not sought in {len(rest)} bodies ({rest[0]} and on): "
                               f"the question's {budget:g} s were spent"))
            break
        deadline = shares.deadline()
        q = Query(game, 1, timeout)
        args, _ = q.args(params)
        _, ctx = q.term_ctx(expr, 0, args)
        for ob in ctx.obligations:
            key = (ob.loc.file, ob.loc.line, ob.loc.col, ob.reason)
            if key in seen:
                continue
            seen.add(key)
            t0 = time.monotonic()
            found = _gap(game, q, expr, ctx.obligations, ob, deadline)
            if found is None:
                continue
            if isinstance(found, str):
                out.append(Finding("unknown", subject, cite, f"{ob.loc}: {ob.reason}: no engine answered in time ({found})", loc=ob.loc))
                continue
            state, pargs, why = found
            msg = f"{subject}: {why} ({ob.loc.file}:{ob.loc.line}:{ob.loc.col})"
            out.append(Finding("gap", subject.split()[-1], cite, msg,
                               Trace(game, [state], [], pargs, {"finding": msg}), ob.loc, round(time.monotonic() - t0, 3)))
    return out


def _gap(game, q, expr, obligations, ob, deadline):
    """A state (shrunk), arguments and Python's reason, where evaluating `expr` stops at obligation `ob`, checked in
    Python; None where none exists; a reason string where no engine answered. Python stops at the
    first partial operation that fails, so where Z3's state also fails another one that Python
    meets first (`(n // m) + (n % m)` with m = 0), that one is asked to hold and Z3 asked again;
    a gap reachable only through another gap is that other gap's finding, not one of its own."""
    at = {(o.loc.line, o.loc.col): o for o in obligations}
    held = []
    while True:
        r, m = q.solve_invariant(0, z3.Not(ob.cond), *held, deadline=deadline)
        if r == "unsat":
            return None
        if r == "unknown":
            return m
        state, pargs = m.states[0], m.args[0]
        stop = _stops_at(game, expr, state, pargs)
        first = at.get(stop)
        if stop == (ob.loc.line, ob.loc.col) or first is None or first is ob or first.cond in held:
            break
        held.append(first.cond)

    def keeps(s):
        return python_invariants_hold(game, s) and _stops_at(game, expr, s, pargs) == (ob.loc.line, ob.loc.col)

    confirm(keeps(state), f"{ob.reason} at {ob.loc}")
    state = shrink(state, game.state_types, game.domains, keeps)
    return state, pargs, _undefined(game, expr, state, pargs).reason


def _undefined(game, expr, state, args) -> Undefined | None:
    """Why evaluating `expr` in Python stops undefined, or None."""
    try:
        game.evaluate(expr, state, args)
        return None
    except Undefined as e:
        return e


def _stops_at(game, expr, state, args):
    """Where evaluating `expr` in Python stops undefined (line, column), or None."""
    e = _undefined(game, expr, state, args)
    return None if e is None else (e.loc.line, e.loc.col)


# ------------------------------------------------------------------ 3. dead ends and dead actions

def _legal_somewhere(game, action: str, timeout, deadline=None):
    """('sat', model) when some state satisfying the invariants allows `action` with some arguments."""
    q = Query(game, 1, timeout)
    args, _ = q.args(game.actions[action].params)
    return q.solve_invariant(0, q.holds(game.legal_expr(action), 0, args), deadline=deadline)


def _switched_on(game, action: str, timeout, switched: dict, deadline=None):
    """For an action legal nowhere: the switches, off here, that make it legal somewhere — each one
    alone (with those it needs) first, then all of them — and a state where it is, checked in
    Python: (switches, trace, []) — else (None, None, the switch sets no engine answered for in time)."""
    off = [s for s, on in game.switches.items() if not on]
    tries = [game.switches_for(s) for s in off] + ([dict.fromkeys(off, True)] if len(off) > 1 else [])
    unanswered = []
    for on in tries:
        key = tuple(sorted(on))
        if key not in switched:
            try:
                switched[key] = game.with_readings({}, on)
            except SpecError:  # switches that cannot be on together
                switched[key] = None
        g = switched[key]
        if g is None:
            continue
        r, m = _legal_somewhere(g, action, timeout, deadline)
        if r == "unknown":
            unanswered.append(" and ".join(key))
        if r == "sat":
            state, args = m.states[0], m.args[0]

            def keeps(s, g=g, args=args):
                return python_invariants_hold(g, s) and g.legal(s, action, args)
            confirm(keeps(state), f"{action} switched on")
            state = shrink(state, g.state_types, g.domains, keeps)
            msg = f"{action} is legal here with {' and '.join(key)} on"
            return list(key), Trace(g, [state], [], args, {"finding": msg}), []
    return None, None, unanswered


def dead_ends(game, timeout, budget: float | None = None) -> list[Finding]:
    """Each check within `timeout`; with a `budget`, the whole question within it too (the dead-end
    search and each action share it out: work.Shares); what there was no time left for is unknown."""
    out = []
    t0 = time.monotonic()
    shares = work.Shares(budget, 1 + len(game.actions), timeout)
    q = Query(game, 1, timeout)
    r, m = q.solve_stuck(0, z3.Not(q.ended(0)), deadline=shares.deadline())
    if r == "sat":
        def keeps(s):
            return python_invariants_hold(game, s) and not py_ended(game, s) and not py_has_move(game, s)

        state = m.states[0]
        confirm(keeps(state), "a dead end")
        state = shrink(state, game.state_types, game.domains, keeps)
        msg = ("no action is legal and no end rule holds in a state satisfying the invariants "
               "(reachability not checked)")
        out.append(Finding("dead-end", game.id, None, msg, Trace(game, [state], [], {}, {"finding": msg}),
                           seconds=round(time.monotonic() - t0, 3)))
    elif r == "unknown":
        out.append(Finding("unknown", game.id, None, f"dead ends: no engine answered in time ({m})"))
    switched: dict = {}  # the game under each set of switches tried, loaded once
    for a in game.actions.values():
        if shares.spent():
            out.append(Finding("unknown", a.id, a.cite, f"action {a.id}: not asked, the question's {budget:g} s were spent",
                               loc=a.loc))
            continue
        deadline = shares.deadline()
        r, m = _legal_somewhere(game, a.id, timeout, deadline)
        if r == "unsat":
            names, trace, unanswered = _switched_on(game, a.id, timeout, switched, deadline)
            if names is None:  # dead as the switches are (UNSAT); a switch no engine answered for is said
                open_ = f"; with {', '.join(unanswered)} on: no engine answered in time" if unanswered else ""
                out.append(Finding("dead-action", a.id, a.cite,
                                   f"action {a.id} is legal in no state satisfying the invariants (UNSAT){open_}", loc=a.loc))
            else:
                msg = (f"action {a.id} is legal in no state satisfying the invariants with the switches as they are "
                       f"(UNSAT), but in some with {' and '.join(names)} on: switched off here, not dead")
                out.append(Finding("switched-off", a.id, a.cite, msg, trace, loc=a.loc))
        elif r == "unknown":
            out.append(Finding("unknown", a.id, a.cite, f"action {a.id}: no engine answered in time ({m})", loc=a.loc))
    return out
