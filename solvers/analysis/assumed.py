"""The values a spec marks `assumed` — numbers and names the rulebook does not print — and the
other values each could as well have been given.

Another implementation that answers otherwise than the spec may have taken one of those other
values: conform.py tries them on a group of disagreements, and where one explains every answer
(and never the spec's own where the two differ) the difference is an assumption, not a bug. The
values tried are near the spec's (a number one or two either side, or nothing; another name of
the same kind; the other truth value), of the constants the rules behind the answer read.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass

from zoospec.errors import SpecError
from zoospec.front.yamlload import load_file
from zoospec.ir.types import AtomT, BoolT, IntT, MapT

from .dependencies import action_exprs, reached


@dataclass(frozen=True)
class Choice:
    """One other value for one assumed value: `constant`, or its entry `key`."""
    constant: str
    key: str | None
    value: object   # as the spec file would write it
    spec: object    # the spec's own

    def __str__(self) -> str:
        where = self.constant if self.key is None else f"{self.constant}[{self.key}]"
        return f"{where} = {json.dumps(self.value)} (the spec assumes {json.dumps(self.spec)})"


def choices(game, rules: list[str], actions: list[str]) -> list[Choice]:
    """The other values of every assumed value of the constants that the named rules and actions
    (their conditions and effects) read, through the defines and readings they reach. The IR
    holds a constant's value, not its name, so the names are found in the spec's text of each."""
    raw = load_file(game.file).data
    table = (raw.get("components") or {}).get("constants") or {}
    exprs = [game.rules[r].body for r in rules if r in game.rules]
    exprs += [e for a in actions if a in game.actions for e in action_exprs(game.actions[a])]
    names, can = reached(game, [e for e in exprs if e is not None])
    actions = list(actions) + sorted(can)  # an action a `can(...)` asks about: its conditions are read too
    rules = list(rules) + [rid for a in can for rid, _ in game.actions[a].requires + game.actions[a].ensures if rid]
    written = [x for x in raw.get("rules") or [] if isinstance(x, dict) and x.get("id") in rules]
    written += [x for x in raw.get("actions") or [] if isinstance(x, dict) and x.get("id") in actions]
    written += [(raw.get("define") or {}).get(n) or (raw.get("readings") or {}).get(n) for n in sorted(names)]
    text = json.dumps(written)
    out = []
    for name, c in table.items():
        if not c.get("assumed") or name not in game.consts or not re.search(rf"\b{re.escape(name)}\b", text):
            continue
        t, _ = game.consts[name]
        if isinstance(t, MapT) and isinstance(c["value"], dict):
            keys = [str(k) for k in c["value"]] if c["assumed"] is True else [str(k) for k in c["assumed"]]
            for k in keys:
                v = next(v for kk, v in c["value"].items() if str(kk) == k)
                out += [Choice(name, k, x, v) for x in _others(v, t.value, game.domains)]
        elif c["assumed"] is True:
            out += [Choice(name, None, x, c["value"]) for x in _others(c["value"], t, game.domains)]
    return out


def varied(game, choice: Choice):
    """The game with the choice's value in place of the spec's; None if the spec refuses it."""
    value = load_file(game.file).data["components"]["constants"][choice.constant]["value"]
    if choice.key is not None:
        value = copy.deepcopy(value)
        key = next(k for k in value if str(k) == choice.key)
        value[key] = choice.value
    else:
        value = choice.value
    try:
        return game.with_constants({choice.constant: value})
    except SpecError:
        return None


def _others(v, t, domains) -> list:
    if isinstance(t, BoolT) and isinstance(v, bool):
        return [not v]
    if isinstance(t, IntT) and isinstance(v, int) and not isinstance(v, bool):
        near = sorted({v - 2, v - 1, v + 1, v + 2, 0} - {v})
        return [x for x in near if (x >= 0 or v < 0) and (not t.bounded or t.lo <= x <= t.hi)]
    if isinstance(t, AtomT) and isinstance(v, str) and t.domain in domains:
        return [a for a in domains[t.domain].atoms if a != v]
    return []
