"""`zoospec check`: a verdict for every claim of a spec.

- over `state`: in every state that satisfies the spec's invariant rules and the claim's
  `given`, for every value of its parameters, the body holds. Z3 searches for a counterexample;
  UNSAT proves the claim.
- over `move`: from every such state (`given` read there), after every legal move of every
  action with every argument, the body holds in the state reached. UNSAT per action proves it.
- over `play`: from every start state (invariants and `given`), along every sequence of at most
  `bound.steps` legal moves (default 3; one action per step; no move once an end rule holds),
  the body holds in every state reached. Bounded model checking: one symbolic state per step;
  UNSAT at every depth proves it within the bound — and says so.
- over `move` with `decreases: M`: besides the body, every such move lowers the int M and leaves
  it at least 0 — a termination measure: no sequence of such moves goes on for ever.
- over `progress`: in every state satisfying the invariants and `given` where no end rule holds,
  some action (of `actions`, if given: a smaller question that still proves progress) is legal
  with some arguments. A counterexample is a stuck state.
- over `independence` with `of: [vars]`: no rule's value and no action's legality or effect on
  the rest of the state depends on those variables — two states that differ only there are told
  apart by nothing (solvers/analysis/independence.py). A counterexample is such a pair of states.

A counterexample is re-checked by the Python back end (and replayed, for moves and plays)
before it is reported, and shrunk to a 1-minimal start state.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import z3

from zoospec.engines import dump, race, work

from ..moves import Step
from ..symbolic import Query, confirm, py_ended, py_has_move, py_value, python_invariants_hold
from ..traces import Trace, replay
from . import independence
from .shrink import shrink

DEFAULT_STEPS = 3


@dataclass
class Verdict:
    claim: str
    verdict: str            # holds | fails | unknown
    expect: str
    method: str
    detail: str
    trace: Trace | None = None
    seconds: float = 0.0
    covered: dict = field(default_factory=dict)

    @property
    def as_expected(self) -> bool:
        return self.verdict == "unknown" or self.verdict == self.expect


def check_all(game, timeout: float | None = 60.0, progress=None, only=None) -> list[Verdict]:
    out = []
    for c in game.claims.values():
        if only and c.id not in only:
            continue
        if progress:
            progress(f"checking {c.id} ({c.over})")
        out.append(check(game, c, timeout))
    return out


def check(game, claim, timeout: float | None = 60.0) -> Verdict:
    t0 = time.monotonic()
    fn = {"state": _state, "move": _move, "play": _play, "progress": _progress, "independence": _independence}[claim.over]
    v = fn(game, claim, timeout)
    v.seconds = round(time.monotonic() - t0, 3)
    return v


def witness_stands(game, claim, trace) -> bool:
    """A counterexample found earlier still refutes the claim, checked in Python alone (how the
    tour vouches for a remembered one): every step replays, and the body is false after the
    first state (or, over a move, the measure does not decrease)."""
    if not all(c.ok for c in replay(trace)):
        return False
    args, states = trace.params, trace.states
    if claim.over == "state":
        s = states[0]
        return python_invariants_hold(game, s) and _py_given(game, claim, s, args) and _py_breaks(game, claim, s, args)
    if claim.over in ("move", "play"):
        return len(states) > 1 and (any(_py_breaks(game, claim, s, args) for s in states[1:])
                                    or _py_decrease_fails(game, claim, states[0], states[1], args))
    return True  # progress and independence witnesses are re-checked by their replay


def _given_and_not_body(q, claim, args, pre: int, post: int):
    parts = []
    if claim.given is not None:
        parts.append(q.holds(claim.given, pre, args))
    v, d = q.term(claim.body, post, args)
    parts.append(z3.Not(z3.And(d, v)))
    return parts


def _decrease_fails(q, claim, args, pre: int, post: int):
    """The measure is undefined, does not drop, or drops below zero on the move pre -> post."""
    if claim.decreases is None:
        return None
    before, d0 = q.term(claim.decreases, pre, args)
    after, d1 = q.term(claim.decreases, post, args)
    return z3.Not(z3.And(d0, d1, after < before, after >= 0))


def _py_decrease_fails(game, claim, pre, post, args) -> bool:
    if claim.decreases is None:
        return False
    before, after = py_value(game, claim.decreases, pre, args), py_value(game, claim.decreases, post, args)
    return not (isinstance(before, int) and isinstance(after, int) and 0 <= after < before)


def _py_given(game, claim, state, args) -> bool:
    return claim.given is None or py_value(game, claim.given, state, args) is True


def _py_breaks(game, claim, state, args) -> bool:
    return py_value(game, claim.body, state, args) is not True


# ------------------------------------------------------------------ over: state

def _state(game, claim, timeout) -> Verdict:
    q = Query(game, 1, timeout)
    args, _ = q.args(claim.params)
    r, m = q.solve_invariant(0, *_given_and_not_body(q, claim, args, 0, 0))
    method = "Z3 over every state satisfying the invariants"
    if r == "unsat":
        return Verdict(claim.id, "holds", claim.expect, method, "no counterexample exists (UNSAT)")
    if r == "unknown":
        return Verdict(claim.id, "unknown", claim.expect, method, f"no engine answered in time: {m}")
    state, cargs = m.states[0], m.args[0]

    def keeps(s):
        return python_invariants_hold(game, s) and _py_given(game, claim, s, cargs) and _py_breaks(game, claim, s, cargs)

    confirm(keeps(state), f"a counterexample to {claim.id}")
    state = shrink(state, game.state_types, game.domains, keeps)
    why = "the body is undefined here" if py_value(game, claim.body, state, cargs) == "undefined" else "the body is false here"
    return Verdict(claim.id, "fails", claim.expect, method, f"counterexample: {why}",
                   Trace(game, [state], [], cargs, {"finding": f"claim {claim.id} fails"}))


# ------------------------------------------------------------------ over: move

def _move(game, claim, timeout) -> Verdict:
    method = "Z3 over every legal move from every state satisfying the invariants"
    moves = _actions(game, claim)
    if not moves:
        return Verdict(claim.id, "holds", claim.expect, method, "the spec has no actions: there is no move")
    shares = work.Shares(timeout, len(moves))  # each action a fair share of the time left: none starves the rest
    gave_up = []
    for a in moves:
        if shares.spent():
            gave_up.append((a.id, "deadline reached"))
            continue
        q = Query(game, 2, timeout)
        cargs, _ = q.args(claim.params, "c")
        aargs, _ = q.args(a.params, "a")
        conds = [q.transition(a.id, 0, 1, aargs)] + _given_and_not_body(q, claim, cargs, 0, 1)
        drop = _decrease_fails(q, claim, cargs, 0, 1)
        if drop is not None:  # the body fails, or the measure does not drop
            conds[-1] = z3.Or(conds[-1], drop)
        r, m = q.solve_invariant(0, *conds, deadline=shares.deadline())
        if r == "unknown":
            gave_up.append((a.id, m))  # the other actions may still fail: keep looking
            continue
        if r == "sat":
            pre, ca, aa = m.states[0], m.args[0], m.args[1]

            def keeps(s, a=a, ca=ca, aa=aa):
                if not (python_invariants_hold(game, s) and _py_given(game, claim, s, ca)):
                    return False
                try:
                    if not game.legal(s, a.id, aa):
                        return False
                    nxt = game.apply(s, a.id, aa)
                except Exception:
                    return False
                return _py_breaks(game, claim, nxt, ca) or _py_decrease_fails(game, claim, s, nxt, ca)

            confirm(keeps(pre), f"a move breaking {claim.id}")
            pre = shrink(pre, game.state_types, game.domains, keeps)
            post = game.apply(pre, a.id, aa)
            what = "the body fails" if _py_breaks(game, claim, post, ca) else (
                f"the measure goes from {py_value(game, claim.decreases, pre, ca)} to {py_value(game, claim.decreases, post, ca)}")
            return Verdict(claim.id, "fails", claim.expect, method, f"counterexample: after {a.id} {what}",
                           Trace(game, [pre, post], [Step(a.id, aa)], ca, {"finding": f"claim {claim.id} fails"}))
    if gave_up:
        names = "; ".join(f"{aid} ({why})" for aid, why in gave_up)
        return Verdict(claim.id, "unknown", claim.expect, method,
                       f"no counterexample for {len(moves) - len(gave_up)} of {len(moves)} actions (UNSAT); no engine answered in time on {names}")
    extra = " and the measure drops on every move" if claim.decreases is not None else ""
    return Verdict(claim.id, "holds", claim.expect, method, f"no counterexample for any of {len(moves)} actions (UNSAT){extra}")


# ------------------------------------------------------------------ over: independence

def _independence(game, claim, timeout) -> Verdict:
    return independence.check(game, claim, timeout, lambda status, method, detail, trace:
                              Verdict(claim.id, status, claim.expect, method, detail, trace))


# ------------------------------------------------------------------ over: progress

def _progress(game, claim, timeout) -> Verdict:
    method = "Z3 over every state satisfying the invariants where no end rule holds"
    q = Query(game, 1, timeout)
    args, _ = q.args(claim.params)
    among = _actions(game, claim)
    conds = [z3.Not(q.ended(0))]
    if claim.given is not None:
        conds.append(q.holds(claim.given, 0, args))
    r, m = q.solve_stuck(0, *conds, actions=among)
    if r == "unsat":
        which = "some action" if not claim.actions else f"one of {len(among)} actions"
        return Verdict(claim.id, "holds", claim.expect, method, f"{which} is legal in every such state (UNSAT)")
    if r == "unknown":
        return Verdict(claim.id, "unknown", claim.expect, method, f"no engine answered in time: {m}")
    state, cargs = m.states[0], m.args[0]

    def keeps(s):
        return (python_invariants_hold(game, s) and _py_given(game, claim, s, cargs) and not py_ended(game, s)
                and not py_has_move(game, s, among))

    confirm(keeps(state), f"a stuck state against {claim.id}")
    state = shrink(state, game.state_types, game.domains, keeps)
    return Verdict(claim.id, "fails", claim.expect, method,
                   "counterexample: no action is legal and no end rule holds here (reachability not checked)",
                   Trace(game, [state], [], cargs, {"finding": f"claim {claim.id} fails"}))


def _actions(game, claim):
    """The actions a move or play claim is about: those it names, else all."""
    return [game.actions[a] for a in claim.actions] if claim.actions else list(game.actions.values())


# ------------------------------------------------------------------ over: play

def _play(game, claim, timeout) -> Verdict:
    k = int(claim.bound.get("steps", DEFAULT_STEPS))
    method = f"bounded model checking with Z3: one symbolic state per step, up to {k} steps"
    deadline = None if timeout is None else work.now() + timeout
    actions = _actions(game, claim)
    for depth in range(0, k + 1):
        q = Query(game, depth + 1, timeout)
        cargs, _ = q.args(claim.params, "c")
        conds = [q.invariants(0)]
        if claim.given is not None:
            conds.append(q.holds(claim.given, 0, cargs))
        picks = []
        for i in range(depth):
            pick = z3.Int(f"pick{i}")
            picks.append(pick)
            conds += [pick >= 0, pick < len(actions), z3.Not(q.ended(i))]
            for j, a in enumerate(actions):
                aargs, _ = q.args(a.params, f"step{i}_{j}_")
                conds.append(z3.Implies(pick == j, q.transition(a.id, i, i + 1, aargs)))
        if depth and not actions:
            break
        v, d = q.term(claim.body, depth, cargs)
        conds.append(z3.Not(z3.And(d, v)))
        s = z3.Solver()
        left = None if deadline is None else deadline - work.now()
        if left is not None and left <= 0:
            return Verdict(claim.id, "unknown", claim.expect, method, f"deadline reached; no violation within {depth - 1} steps",
                           covered={"steps": depth - 1})
        s.add(q.facts + conds)
        answered = dump.query("claim", s.assertions())
        got = race.check(s, left, q._translator())
        answered(got.result)
        if got.result == z3.unknown:
            return Verdict(claim.id, "unknown", claim.expect, method, f"no engine answered at depth {depth}: {got.reason}",
                           covered={"steps": depth - 1})
        if got.result == z3.sat:
            mod = got.model
            states = [sym.decode(mod) for sym in q.syms]
            args = [a.decode(mod) for a in q.arg_syms]
            ca = args[0]
            steps = []
            for i, pick in enumerate(picks):
                j = mod.eval(pick, model_completion=True).as_long()
                steps.append(Step(actions[j].id, args[1 + i * len(actions) + j]))
            return _play_counterexample(game, claim, states[0], steps, ca, method)
    return Verdict(claim.id, "holds", claim.expect, method + " (bounded)",
                   f"no violation within {k} steps from any start state (UNSAT at every depth)", covered={"steps": k})


def _run(game, start, steps):
    """The states a sequence of moves visits, or None if one is not legal (Python)."""
    states = [start]
    for st in steps:
        s = states[-1]
        try:
            if py_ended(game, s) or not game.legal(s, st.action, st.args):
                return None
            states.append(game.apply(s, st.action, st.args))
        except Exception:
            return None
    return states


def _play_counterexample(game, claim, start, steps, ca, method) -> Verdict:
    def keeps(s):
        if not (python_invariants_hold(game, s) and _py_given(game, claim, s, ca)):
            return False
        run = _run(game, s, steps)
        return run is not None and _py_breaks(game, claim, run[-1], ca)

    confirm(keeps(start), f"a play breaking {claim.id}")
    start = shrink(start, game.state_types, game.domains, keeps)
    trace = Trace(game, _run(game, start, steps), steps, ca, {"finding": f"claim {claim.id} fails"})
    confirm(all(c.ok for c in replay(trace)), f"a replayable play breaking {claim.id}")
    return Verdict(claim.id, "fails", claim.expect, method,
                   f"counterexample: {len(steps)} move(s) from a start state reach a state where the body fails", trace)
