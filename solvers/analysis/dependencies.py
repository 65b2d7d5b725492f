"""What a tour question's answer depends on, as one text: the parts of the loaded game it reads.

The answer cache keys a claim or a reading question by this text rather than by the spec file's
bytes, so that editing one rule asks again only the questions that read it (issue 42). Rules,
defines, actions and claims enter as their typed IR, whose text holds no line or column (an IR
node's `loc` is not part of its repr): moving a rule, rewording what it says or commenting it
asks nothing again. What every question reads enters too — the components, the state, the start
and the game section as written, the switches and readings in force, and the invariants (the
states asked about are those that satisfy them) — as does what an answer shows of the spec (a
claim's or a reading's citation).
"""
from __future__ import annotations

import dataclasses

from zoospec import ir

from .ambiguity import users

# the spec's sections every question reads, taken as written
WORLD = ("game", "components", "state", "start")


def claim_text(game, raw: dict, claim) -> str | None:
    """Of a claim question (`raw`: the spec's YAML as written); None where the text would not be
    stable, and the caller keys by the file's bytes."""
    parts = [(claim.id, claim.cite, claim.over, claim.params, claim.given, claim.body, claim.expect,
              sorted(claim.bound.items()), claim.actions, claim.decreases, claim.of)]
    exprs = [claim.given, claim.body, claim.decreases]
    rules, actions = [], []
    if claim.over in ("move", "play", "progress"):  # the moves it is asked over, and when a game ends
        actions = [game.actions[a] for a in (claim.actions or game.actions) if a in game.actions]
        rules = [r for r in game.rules.values() if r.kind == "end"]
    elif claim.over == "independence":  # every rule and action is read
        rules, actions = list(game.rules.values()), list(game.actions.values())
    return _text(game, raw, parts, exprs, rules, actions)


def reading_text(game, raw: dict, rid: str) -> str | None:
    """Of a reading question: the reading as written (every choice's body, its citation) and the
    rules and actions that use it, as the question finds them (ambiguity.users)."""
    readings = raw.get("readings")
    if not isinstance(readings, dict) or rid not in readings:
        return None
    rules, actions = users(game, rid)
    return _text(game, raw, [readings[rid]], [], rules, actions)


def _text(game, raw, parts, exprs, rules, actions) -> str | None:
    invariants = [r for r in game.rules.values() if r.kind == "invariant"]
    exprs = exprs + [r.body for r in rules + invariants] + [e for a in actions for e in action_exprs(a)]
    defines, can = reached(game, [e for e in exprs if e is not None])
    try:
        return _canon([[raw.get(s) for s in WORLD], game.chosen, game.switches, [_rule(r) for r in invariants],
                       parts, [_rule(r) for r in rules], [_action(a) for a in actions],
                       [(n, game.defines[n]) for n in sorted(defines)], [_action(game.actions[a]) for a in sorted(can)]])
    except _Unstable:
        return None


def reached(game, exprs) -> tuple[set, set]:
    """The defines the expressions call and the actions whose legality a `can(...)` in them reads,
    through one another."""
    def reads(n):
        a = game.actions.get(n.ref.action)
        return [] if a is None else action_exprs(a)
    nodes = list(ir.reach(exprs, game.defines, reads))
    return ({n.name for n in nodes if isinstance(n, ir.Call) and n.name in game.defines},
            {n.ref.action for n in nodes if isinstance(n, ir.Can) and n.ref.action in game.actions})


def action_exprs(a) -> list:
    """Every expression an action evaluates: its conditions, what it ensures, its effect's."""
    return [e for _, e in a.requires + a.ensures] + [e for s in a.effect for e in ir.stmt_exprs(s)]


class _Unstable(Exception):
    """A value with no text that is the same in every process."""


def _canon(v) -> str:
    """A text of `v` that is the same in every process: sets and mappings in a sorted order (a
    set's repr follows string hashing, which changes from process to process), dataclasses by
    their fields as their repr shows them (an IR node's location is not shown)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_canon(x) for x in v) + "]"
    if isinstance(v, (set, frozenset)):
        return "{" + ",".join(sorted(_canon(x) for x in v)) + "}"
    if isinstance(v, dict):
        return "{" + ",".join(sorted(f"{_canon(k)}:{_canon(x)}" for k, x in v.items())) + "}"
    if isinstance(v, ir.ActionRef):  # the action's legality is in the text as the action (reached)
        return f"ActionRef({v.action!r})"
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        shown = [f.name for f in dataclasses.fields(v) if f.repr]
        return type(v).__name__ + "(" + ",".join(f"{n}={_canon(getattr(v, n))}" for n in shown) + ")"
    raise _Unstable(type(v).__name__)


def _rule(r):
    return (r.id, r.kind, r.cite, r.params, r.body, r.effect)


def _action(a):
    return (a.id, a.cite, a.params, a.requires, a.ensures, a.effect)
