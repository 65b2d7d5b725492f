"""`zoospec conform GAME --trace LOG.jsonl`: a game log written by another implementation, checked
move by move against the spec — the first illegal move or wrong state, with the rules that break
and the rulebook sentences they cite (docs/conformance.md, "Game logs").

A log is JSON lines. The first line starts the game: `{"start": STATE}` (zoospec's JSON state
format) or `{"players": N}` (the spec's own start state for N players). Every other line is a
move, `{"action": ID, "args": {...}}`, optionally with `"state": STATE`, the state the
implementation says the move led to; or `{"over": true|false}`, whether it says the game has ended.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from zoospec.errors import StateError, Undefined

from ..symbolic import broken_invariant_instances, py_ended
from ..traces import plain


@dataclass
class Problem:
    line: int
    kind: str            # start | shape | illegal | state | over
    message: str
    rules: list[str] = field(default_factory=list)   # each with the sentences it cites
    state: dict | None = None                         # the state before the move (JSON)


@dataclass
class LogCheck:
    game: str
    moves: int = 0                  # moves checked and found legal
    states: int = 0                 # claimed states compared and found equal
    problem: Problem | None = None  # the first one: checking stops there


def check(game, entries: list[tuple[int, dict]]) -> LogCheck:
    """Check a log's entries ((line, object) pairs) until the first problem."""
    out = LogCheck(game.id)
    if not entries:
        out.problem = Problem(0, "shape", "the log is empty: its first line starts the game")
        return out
    state = _start(game, *entries[0], out)
    for line, e in entries[1:]:
        if out.problem is not None:
            break
        if "over" in e:
            _over(game, line, e, state, out)
        elif "action" in e:
            state = _move(game, line, e, state, out)
        else:
            out.problem = Problem(line, "shape", "neither a move ({\"action\": …, \"args\": …}) nor {\"over\": …}: "
                                  f"keys {', '.join(sorted(e)) or 'none'}")
    return out


def _cited(game, rid: str) -> str:
    x = game.rules.get(rid) or game.actions.get(rid)
    return f"{rid} ({x.cite})" if x is not None and x.cite else rid


def _start(game, line, e, out):
    if "players" in e and "start" not in e:
        n = e["players"]
        try:
            if not isinstance(n, int) or isinstance(n, bool):
                raise StateError(f"players must be a whole number, not {n!r}")
            return game.start_state(n)
        except StateError as err:
            out.problem = Problem(line, "start", str(err))
            return None
    if "start" not in e:
        out.problem = Problem(line, "shape", 'the first line starts the game: {"start": STATE} or {"players": N}')
        return None
    try:
        state = game.state_from_json(e["start"])
    except StateError as err:
        out.problem = Problem(line, "start", f"the start is not a state of {game.id}: {err}")
        return None
    broken = broken_invariant_instances(game, state)
    if broken:
        out.problem = Problem(line, "start", "the start breaks "
                              + ", ".join(f"{r.id}({', '.join(f'{k}={v}' for k, v in plain(a).items())})" for r, a in broken[:5]),
                              [_cited(game, r.id) for r, _ in broken[:5]], e["start"])
    return state


def _move(game, line, e, state, out):
    action, args = e["action"], e.get("args", {})
    before = game.state_to_json(state)
    if not isinstance(action, str) or action not in game.actions:
        out.problem = Problem(line, "illegal", f"{action!r} is not an action of {game.id}", state=before)
        return state
    if not isinstance(args, dict):
        out.problem = Problem(line, "shape", f"args must be an object, not {args!r}", state=before)
        return state
    try:
        legal = game.legal(state, action, args)
    except StateError as err:
        out.problem = Problem(line, "illegal", f"{action} {args}: {err}", [_cited(game, action)], before)
        return state
    except Undefined as err:
        legal, why = False, err.reason
    else:
        why = None
    if not legal:
        failing = game.failing_requirements(state, action, args) if why is None else []
        reason = ", ".join(failing) or why or "not legal"
        out.problem = Problem(line, "illegal", f"move {out.moves + 1}, {action} {_show(args)}, is not legal here: breaks {reason}",
                              [_cited(game, r) for r in failing if r in game.rules] or [_cited(game, action)], before)
        return state
    after = game.apply(state, action, args)
    out.moves += 1
    if "state" in e:
        try:
            claimed = game.state_to_json(game.state_from_json(e["state"]))
        except StateError as err:
            out.problem = Problem(line, "state", f"after move {out.moves} the log's state is not a state of {game.id}: {err}",
                                  state=before)
            return after
        ours = game.state_to_json(after)
        differ = [n for n in ours if ours[n] != claimed.get(n)]
        if differ:
            shown = "; ".join(f"{n}: the spec has {_show(ours[n])}, the log {_show(claimed.get(n))}" for n in differ[:4])
            out.problem = Problem(line, "state", f"after move {out.moves}, {action} {_show(args)}, the state differs — {shown}",
                                  [_cited(game, action)], before)
            return after
        out.states += 1
    return after


def _over(game, line, e, state, out):
    said, ours = e["over"], py_ended(game, state)
    if not isinstance(said, bool):
        out.problem = Problem(line, "shape", f"over must be true or false, not {said!r}")
    elif said != ours:
        ends = [r.id for r in game.rules.values() if r.kind == "end"]
        out.problem = Problem(line, "over", f"the log says the game is {'over' if said else 'not over'} after move "
                              f"{out.moves}; by the spec it is {'over' if ours else 'not over'}",
                              [_cited(game, r) for r in ends], game.state_to_json(state))


def _show(v, width: int = 80) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= width else text[: width - 1] + "…"
