"""Conformance: another implementation of a game, driven through a small JSON protocol and
compared with the spec answer by answer; each disagreement is classified — the implementation
follows another **reading** of an ambiguous sentence (named), or it is a **bug on one side**
(the rule and rulebook sentence that decide it are cited).

The adapter is a command zoospec starts once and talks to over standard input and output, one
JSON object per line each way (docs/conformance.md). `hello` says which operations it answers:
`legal` (state, action, args → true/false), `apply` (→ the next state), `score` (state, rule,
args → a number), `end` (state → over or not). States travel in zoospec's JSON state format.
Cases are the states of seeded games played by the spec, every legal move from them and as many
illegal ones.
"""
from __future__ import annotations

import json
import random
import shlex
import subprocess
from dataclasses import dataclass, field

from zoospec.errors import StateError, Undefined

from ..moves import legal_moves
from ..play.playout import play
from ..symbolic import param_values, py_ended, py_value
from ..traces import plain

PROTOCOL = 1
OPS = ("legal", "apply", "score", "end")


class Adapter:
    """The other implementation, one process, one request and one answer per line."""

    def __init__(self, command: str, timeout: float = 30.0):
        self.command, self.timeout, self.n = command, timeout, 0
        try:
            self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise StateError(f"--adapter {command!r}: cannot start it ({e.strerror})") from None
        hello = self.ask({"op": "hello", "protocol": PROTOCOL})
        if "error" in hello or hello.get("protocol") != PROTOCOL:
            raise StateError(f"--adapter {command!r}: no protocol {PROTOCOL} hello (it answered {hello})")
        self.name = str(hello.get("name", command))
        self.ops = [op for op in hello.get("ops", []) if op in OPS]

    def ask(self, request: dict) -> dict:
        self.n += 1
        try:
            self.proc.stdin.write(json.dumps({"id": self.n, **request}) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (OSError, ValueError):
            line = ""
        if not line:
            raise StateError(f"--adapter {self.command!r} stopped answering (request {self.n}: {request['op']})")
        try:
            answer = json.loads(line)
        except ValueError:
            return {"error": f"not JSON: {line[:80]!r}"}
        return answer if isinstance(answer, dict) else {"error": f"not an object: {line[:80]!r}"}

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


@dataclass
class Disagreement:
    op: str
    subject: str          # the action or rule asked about
    args: dict
    state: dict           # JSON
    spec: object          # what the spec answers
    other: object         # what the implementation answered
    kind: str = "bug"     # bug | reading
    why: str = ""         # the reading it follows, or the rules and sentences that decide


@dataclass
class Report:
    game: str
    implementation: str
    asked: dict = field(default_factory=dict)        # op -> questions asked
    disagreements: list[Disagreement] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        groups: dict = {}
        for d in self.disagreements:
            groups.setdefault((d.kind, d.why), []).append(d)
        return {key: len(ds) for key, ds in groups.items()}


def conform(game, adapter: Adapter, games: int = 3, seed: int = 0, max_steps: int = 200, progress=None) -> Report:
    """Play `games` seeded games with the spec, and ask the adapter about every state of them."""
    rep = Report(game.id, adapter.name, {op: 0 for op in adapter.ops}, unsupported=[op for op in OPS if op not in adapter.ops])
    rng = random.Random(seed)
    variants = _variants(game)
    asked: list[_Asked] = []
    for k in range(games):
        start = game.start_state()
        states = play(game, start, seed=seed + k, max_steps=max_steps).trace.states
        for i, s in enumerate(states):
            if progress:
                progress(f"game {k + 1} of {games}, state {i + 1} of {len(states)}")
            asked.extend(_ask_state(game, adapter, s, rng, rep, variants))
    rep.disagreements = _classify(game, asked, [name for name, _ in variants])
    return rep


@dataclass
class _Asked:
    op: str
    subject: str
    args: dict
    state: dict
    ours: object
    other: object
    under: dict          # reading=choice -> what the spec answers under it


def _classify(game, asked: list[_Asked], names: list[str]) -> list[Disagreement]:
    """A disagreement is the other reading when that reading explains every disagreement about the
    same question (op and subject) and the implementation never sides with the spec's own choice
    where the two readings differ; otherwise it is a bug, cited by the rules that decide it."""
    out, groups = [], {}
    for a in asked:
        if a.other != a.ours:
            groups.setdefault((a.op, a.subject), []).append(a)
    for (op, subject), group in groups.items():
        reading = next((n for n in names
                        if all(a.other == a.under[n] for a in group)
                        and not any(a.under[n] != a.ours and a.other == a.ours
                                    for a in asked if (a.op, a.subject) == (op, subject))), None)
        why = reading or _decided_by(game, op, subject)
        out.extend(Disagreement(a.op, a.subject, plain(a.args), a.state, a.ours, a.other,
                                "reading" if reading else "bug", why) for a in group)
    return out


def _ask_state(game, adapter, s, rng, rep, variants) -> list[_Asked]:
    sj = game.state_to_json(s)
    out = []

    def ask(op, subject, args, request, key, answer):
        out.append(_compare(rep, adapter, game, variants, op, subject, args, sj, request, key, answer))

    if "end" in adapter.ops:
        ask("end", "", {}, {"op": "end", "state": sj}, "over", lambda g: py_ended(g, s))
    if "score" in adapter.ops:
        for fs in game.final_scores:
            rule = game.rules[fs.rule]
            for a in param_values(game, rule.params):
                ask("score", rule.id, a, {"op": "score", "state": sj, "rule": rule.id, "args": plain(a)}, "points",
                    lambda g, rule=rule, a=a: py_value(g, g.rules[rule.id].body, s, a))
    legal = legal_moves(game, s)
    for action in game.actions.values():
        moves = [m.args for m in legal if m.action == action.id]
        others = [a for a in param_values(game, action.params) if a not in moves]
        tried = moves + rng.sample(others, min(len(others), max(1, len(moves))))
        for a in tried:
            if "legal" in adapter.ops:
                ask("legal", action.id, a, {"op": "legal", "state": sj, "action": action.id, "args": plain(a)}, "legal",
                    lambda g, a=a, aid=action.id: _legal(g, s, aid, a))
            if "apply" in adapter.ops and a in moves:
                ask("apply", action.id, a, {"op": "apply", "state": sj, "action": action.id, "args": plain(a)}, "state",
                    lambda g, a=a, aid=action.id: g.state_to_json(g.apply(s, aid, a)))
    return out


def _legal(g, s, aid, a):
    try:
        return g.legal(s, aid, a)
    except Undefined:
        return False  # as the move list has it: an undefined legality is not a legal move


def _compare(rep, adapter, game, variants, op, subject, args, sj, request, key, spec_answer) -> _Asked:
    rep.asked[op] += 1
    answer = adapter.ask(request)
    other = answer.get(key, answer.get("error", "(no answer)"))
    if op == "apply" and isinstance(other, dict):
        try:
            other = game.state_to_json(game.state_from_json(other))  # the same state written another way
        except StateError as e:
            other = f"not a state: {e}"
    return _Asked(op, subject, args, sj, _value(spec_answer, game), other,
                  {name: _value(spec_answer, g) for name, g in variants})


def _value(fn, g):
    try:
        return fn(g)
    except Undefined as e:
        return f"undefined ({e.reason})"


def _variants(game) -> list[tuple]:
    """(`reading=choice`, the game under it) for every choice not taken."""
    out = []
    for rid, r in game.readings.items():
        for choice in r.choices:
            if choice != game.chosen[rid]:
                out.append((f"{rid}={choice}", game.with_readings({rid: choice})))
    return out


def _decided_by(game, op, subject) -> str:
    """The rules behind an answer, with the rulebook sentences they cite."""
    if op in ("legal", "apply"):
        a = game.action(subject)
        ids = ([rid for rid, _ in a.requires + a.ensures if rid] if op == "legal" else []) or [a.id]
    elif op == "score":
        ids = [subject]
    else:
        ids = [r.id for r in game.rules.values() if r.kind == "end"]
    cites = []
    for rid in ids:
        x = game.rules.get(rid) or game.actions.get(rid)
        cites.append(f"{rid} ({x.cite})" if x is not None and x.cite else rid)
    return "; ".join(cites)
