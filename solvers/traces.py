"""Traces: a start state and the moves that follow, saved in a JSON format modelled on the TLA+
Informal Trace Format (ITF, https://apalache-mc.org/docs/adr/015adr-trace.html), and replayed
step by step with the Python back end.

    {"#meta": {"format": "ITF", "format-description": ..., "source": "spec/g.yaml", "game": "g",
               "readings": {...}, "switches": {...}, "finding": "claim g.x fails", ...},
     "params": {...},                      # the claim's (or rule's) parameters, if any
     "vars": ["board", "score"],
     "states": [{"#meta": {"index": 0}, "board": {"#set": ["0,1"]}, "score": 3},
                {"#meta": {"index": 1, "action": "g.move", "args": {"c": "0,2"}}, ...}]}

A *pair* (an independence claim's counterexample, solvers/analysis/independence.py) is two states side by
side, not a move: its #meta names the rule or action and the arguments that tell them apart
("pair": {"item", "args", "of"}), and its states carry no action.

Values: bool and int as JSON (big ints as {"#bigint": "..."}), atoms as strings, sets as
{"#set": [...]}, maps as {"#map": [[key, value], ...]}, records as objects — ITF's encoding.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from zoospec import files
from zoospec.errors import StateError, Undefined
from zoospec.ir.types import AtomT, BoolT, IntT, MapT, RecordT, SetT
from zoospec.runtime.agreement import Item, compiled

from .moves import Step
from .symbolic import py_value

FORMAT_URL = "https://apalache-mc.org/docs/adr/015adr-trace.html"


@dataclass
class Trace:
    game: object
    states: list[dict]                 # Python states
    steps: list[Step] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    pair: dict | None = None           # two states an item tells apart: {"item", "args", "of"}

    def to_itf(self) -> dict:
        g = self.game
        states = []
        for i, s in enumerate(self.states):
            m = {"index": i}
            if i > 0 and self.pair is None:
                st = self.steps[i - 1]
                m.update(action=st.action, args=plain(st.args))
            states.append({"#meta": m, **{n: to_itf(s[n], t, g.domains) for n, t in g.state_types.items()}})
        return {"#meta": {"format": "ITF", "format-description": FORMAT_URL, "source": str(g.file), "game": g.id,
                          "readings": dict(g.chosen), "switches": dict(g.switches), **self.meta,
                          **({"pair": self.pair} if self.pair else {})},
                "params": plain(self.params), "vars": list(g.state_types), "states": states}


def plain(v):
    """A Python value as plain JSON data: sets as sorted lists, map keys as strings."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        return sorted(plain(x) for x in v)
    return v


def to_itf(v, t, domains):
    if isinstance(t, (BoolT, AtomT)):
        return v
    if isinstance(t, IntT):
        return v if abs(v) < 2 ** 53 else {"#bigint": str(v)}
    if isinstance(t, SetT):
        return {"#set": sorted((to_itf(x, t.elem, domains) for x in v), key=json.dumps)}
    if isinstance(t, MapT):
        d = domains[t.key]
        return {"#map": [[d.atom(k), to_itf(v[d.atom(k)], t.value, domains)] for k in d.codes()]}
    if isinstance(t, RecordT):
        return {n: to_itf(v[n], ft, domains) for n, ft in t.fields}
    raise StateError(f"cannot write a value of type {t} to a trace")


def from_itf(v, t):
    """ITF value -> the JSON state format (the game's state_from_json does the rest)."""
    if isinstance(v, dict) and "#bigint" in v:
        return int(v["#bigint"])
    if isinstance(t, SetT):
        return [from_itf(x, t.elem) for x in _field(v, "#set")]
    if isinstance(t, MapT):
        return {str(k): from_itf(x, t.value) for k, x in _field(v, "#map")}
    if isinstance(t, RecordT):
        return {n: from_itf(v[n], ft) for n, ft in t.fields}
    return v


def _field(v, key):
    if not isinstance(v, dict) or key not in v:
        raise StateError(f"expected an ITF {key} value, got {json.dumps(v)[:80]}")
    return v[key]


def load_itf(game, data: dict) -> Trace:
    states, steps = [], []
    pair = data.get("#meta", {}).get("pair")
    for i, s in enumerate(data.get("states", [])):
        try:
            states.append(game.state_from_json({n: from_itf(s[n], t) for n, t in game.state_types.items()}))
        except KeyError as e:
            raise StateError(f"state {i}: missing variable {e.args[0]}") from None
        if i > 0 and pair is None:
            m = s.get("#meta", {})
            if "action" not in m:
                raise StateError(f"state {i}: #meta has no action")
            steps.append(Step(m["action"], m.get("args", {})))
    if not states:
        raise StateError("a trace needs at least one state")
    if pair is not None and (len(states) != 2 or not isinstance(pair, dict) or not {"item", "args", "of"} <= set(pair)):
        raise StateError("a pair is two states and #meta.pair names its item, args and of")
    return Trace(game, states, steps, data.get("params", {}), data.get("#meta", {}), pair)


@dataclass
class StepCheck:
    index: int
    ok: bool
    message: str


def replay(trace: Trace) -> list[StepCheck]:
    """Re-check every step with the Python back end: each action legal in the state before it,
    and its effect equal to the state after it."""
    g = trace.game
    if trace.pair is not None:
        p = trace.pair
        why = py_difference(g, p["item"], trace.states[0], trace.states[1], p["args"], set(p["of"]))
        return [StepCheck(1, why is not None, f"{p['item']} {why}" if why else
                          f"{p['item']} does not tell the two states apart (or they differ outside {', '.join(p['of'])})")]
    out = []
    for i, st in enumerate(trace.steps):
        pre, post = trace.states[i], trace.states[i + 1]
        try:
            if not g.legal(pre, st.action, st.args):
                why = "; ".join(g.failing_requirements(pre, st.action, st.args))
                out.append(StepCheck(i + 1, False, f"{st.action} is not legal in state {i}" + (f": BROKEN — {why}" if why else "")))
                continue
            got = g.apply(pre, st.action, st.args)
        except (Undefined, StateError, KeyError) as e:
            out.append(StepCheck(i + 1, False, f"{st.action}: {e}"))
            continue
        if got != post:
            diff = [n for n in g.state_types if got[n] != post[n]]
            out.append(StepCheck(i + 1, False, f"{st.action} leads elsewhere: {', '.join(diff)} differ"))
        else:
            out.append(StepCheck(i + 1, True, f"{st.action} {json.dumps(plain(st.args))} legal; effect matches"))
    return out


def replay_z3(trace: Trace, progress=None, actions=None) -> list[StepCheck]:
    """Re-check every step with the Z3 back end: the action's requirements, compiled to Z3 and
    evaluated on the state before it, are true, and its Z3 effect yields the state after it.
    With `replay`, a trace replayed by both back ends is legal under both. `actions` (ids): only
    the steps of these actions are checked, and only their terms compiled."""
    g = trace.game
    legal, effect, out = {}, {}, []
    for i, st in enumerate(trace.steps):
        if progress:
            progress(i + 1, len(trace.steps))
        if actions is not None and st.action not in actions:
            continue
        a = g.action(st.action)
        if a.id not in legal:
            legal[a.id] = compiled(g, Item(f"legal {a.id}", a.params, g.legal_expr(a.id)))
            effect[a.id] = compiled(g, Item(f"action {a.id} effect", a.params, None, a.id))
        pre, post = trace.states[i], trace.states[i + 1]
        if legal[a.id].z3_on(pre, st.args) is not True:
            out.append(StepCheck(i + 1, False, f"{st.action} is not legal in state {i} by the Z3 back end"))
            continue
        got = effect[a.id].z3_on(pre, st.args)
        if got != post:
            diff = [n for n in g.state_types if not isinstance(got, dict) or got[n] != post[n]]
            out.append(StepCheck(i + 1, False, f"{st.action} leads elsewhere by the Z3 back end: {', '.join(diff)} differ"))
        else:
            out.append(StepCheck(i + 1, True, f"{st.action} {json.dumps(plain(st.args))} legal; Z3 effect matches"))
    return out


def save(trace: Trace, path: str | Path):
    files.write_text(path, json.dumps(trace.to_itf(), indent=2, sort_keys=True) + "\n")


def py_difference(game, item: str, s1, s2, args: dict, of) -> str | None:
    """How the rule or action `item` tells two states apart (Python back end), or None if it
    does not or they differ outside `of`: what `zoospec replay` re-checks of a pair."""
    x = game.rules[item] if item in game.rules else game.action(item)
    return concrete_difference(game, x, s1, s2, game._args(x.params, args, item), of)


def concrete_difference(game, x, s1, s2, xa, of):
    """How x differs on two concrete states (Python back end), or None if it does not."""
    if any(s1[n] != s2[n] for n in game.state_types if n not in of):
        return None
    if not hasattr(x, "requires"):
        v1, v2 = py_value(game, x.body, s1, xa), py_value(game, x.body, s2, xa)
        return None if v1 == v2 else f"is {v1!r} on the first and {v2!r} on the second"
    (l1, p1), (l2, p2) = (_concrete_outcome(game, x.id, s, xa) for s in (s1, s2))
    if l1 != l2:
        return f"is {'legal' if l1 else 'illegal'} on the first and {'legal' if l2 else 'illegal'} on the second"
    changed = [n for n in game.state_types if n not in of and l1 and p1[n] != p2[n]]
    return f"leaves {', '.join(changed)} different" if changed else None


def _concrete_outcome(game, aid, s, xa):
    """(legal, the state after) as Z3 has it: legal means the requirements and the effect are
    defined and the requirements true."""
    try:
        return (True, game.apply(s, aid, xa)) if game.legal(s, aid, xa) else (False, None)
    except Undefined:
        return False, None
