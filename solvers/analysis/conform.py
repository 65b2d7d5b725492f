"""Conformance: another implementation of a game, driven through a small JSON protocol and
compared with the spec answer by answer; each disagreement is classified — the implementation
follows another **reading** of an ambiguous sentence (named), or it is a **bug on one side**
(the rule and rulebook sentence that decide it are cited) — and each reading of the spec gets a
**fingerprint**: on the questions its choices answer differently, which choice the
implementation matched, and whether it did so every time.

The adapter is a command zoospec starts once and talks to over standard input and output, one
JSON object per line each way (docs/conformance.md). `hello` says which operations it answers:
`legal` (state, action, args → true/false), `moves` (state → the legal moves), `apply` (→ the
next state), `score` (state, rule, args → a number), `end` (state → over or not). States travel
in zoospec's JSON state format. Cases are the states of seeded games played by the spec (every
legal move from them and as many illegal ones), with `readings` for each reading a smallest
state where its choices disagree (the ambiguity analysis's witness), and with `fixtures` every
state of the boundary fixtures (each rule's and action's states on either side of its verdict). An adapter that answers
garbage, the wrong shape or an error is noted as a protocol problem naming the request, and the
comparison goes on; one that hangs past its timeout or dies is started again (at most
`RESTARTS` times in a row).
"""
from __future__ import annotations

import json
import os
import random
import selectors
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from functools import lru_cache

import jsonschema

from zoospec.errors import InternalError, StateError, Undefined
from zoospec.front.catalog import SPEC_DIR

from ..moves import legal_moves
from ..play.playout import play
from ..symbolic import param_values, py_ended, py_value, python_invariants_hold
from ..traces import plain
from . import ambiguity, assumed, fixtures, mutants
from .shrink import shrink

PROTOCOL = 1  # spec/schema/protocol.schema.json: every request and answer
OPS = ("legal", "moves", "apply", "score", "end")
CASES = ("games", "readings", "fixtures", "random", "invalid")
RESTARTS = 3
SHRINK_CHECKS = 400  # adapter requests one shrink may make
# The field of each answer that holds its value.
ANSWER = {"legal": "legal", "moves": "moves", "apply": "state", "score": "points", "end": "over"}


@lru_cache(maxsize=None)
def _validator(definition: str):
    """A validator for one definition of the protocol's schema (`request`, `answer-legal`, ...)."""
    schema = json.loads((SPEC_DIR / "schema" / "protocol.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]})


def protocol_problem(definition: str, message: dict) -> str | None:
    """How `message` breaks the protocol's `definition`, or None when it follows it."""
    errors = sorted(_validator(definition).iter_errors(message), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    return f"{'/'.join(map(str, e.absolute_path)) or '(the answer)'}: {e.message[:100]}"


class ProtocolError(Exception):
    """The adapter broke the protocol on one request; the message says how. `lost`: no answer
    will come from this process any more (it hung or ended), so it must be started again."""

    def __init__(self, message: str, lost: bool = False):
        super().__init__(message)
        self.lost = lost


class Adapter:
    """The other implementation, one process, one request and one answer per line, each answer
    within `timeout` seconds. A hung or dead process is started again by `restart`."""

    def __init__(self, command: str, timeout: float = 30.0):
        self.command, self.timeout, self.n = command, timeout, 0
        self._start()
        self.name = str(self.hello.get("name", command))
        self.ops = [op for op in self.hello.get("ops", []) if op in OPS]

    def _start(self):
        try:
            self.proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL)
        except OSError as e:
            raise StateError(f"--adapter {self.command!r}: cannot start it ({e.strerror})") from None
        self._buf = b""
        try:
            hello = self.ask({"op": "hello", "protocol": PROTOCOL})
        except ProtocolError as e:
            raise StateError(f"--adapter {self.command!r}: no protocol {PROTOCOL} hello ({e})") from None
        wrong = protocol_problem("answer-hello", hello)
        if wrong:
            raise StateError(f"--adapter {self.command!r}: no protocol {PROTOCOL} hello ({wrong}; it answered {json.dumps(hello)[:120]})")
        self.hello = hello

    def restart(self):
        """A hung or dead adapter: killed at once, and started again."""
        self.proc.kill()
        self.proc.wait()
        self._start()

    def ask(self, request: dict) -> dict:
        """The answer object to one request; ProtocolError if none came in time, it is not a JSON
        object, or it answers another request."""
        self.n += 1
        request = {"id": self.n, **request}
        if os.environ.get("ZOOSPEC_CHECK_OUTPUT") == "1":  # the test suite: every request zoospec makes follows the schema
            wrong = protocol_problem("request", request)
            if wrong:
                raise InternalError(f"a {request.get('op')} request breaks the protocol's schema: {wrong}")
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise ProtocolError("it stopped answering (its input is closed)", lost=True) from None
        line = self._line()
        try:
            answer = json.loads(line)
        except ValueError:
            raise ProtocolError(f"not JSON: {line[:80]!r}") from None
        if not isinstance(answer, dict):
            raise ProtocolError(f"not a JSON object: {line[:80]!r}")
        if answer.get("id", self.n) != self.n:
            raise ProtocolError(f"the answer is to request {answer.get('id')!r}, not to this one ({self.n})")
        return answer

    def _line(self) -> str:
        """One line of output, read straight from the pipe so a timeout is exact."""
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise ProtocolError(f"no answer within {self.timeout:g} s", lost=True)
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise ProtocolError("it stopped answering (its process ended)", lost=True)
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("utf-8", "replace")

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


@dataclass
class Disagreement:
    op: str
    subject: str          # the action or rule asked about
    args: dict
    state: dict           # JSON
    spec: object          # what the spec answers
    other: object         # what the implementation answered
    kind: str = "bug"     # bug | reading | assumption
    why: str = ""         # the reading or the other assumed value it follows, or the rules and sentences that decide
    smallest: dict | None = None  # a bug's first disagreement: the smallest state it still happens on (JSON)


@dataclass
class Report:
    game: str
    implementation: str
    asked: dict = field(default_factory=dict)        # op -> questions asked
    disagreements: list[Disagreement] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    protocol: list[dict] = field(default_factory=list)   # requests the adapter did not answer as the protocol says
    fingerprint: list[dict] = field(default_factory=list)  # per reading: which choice the answers follow
    cases: dict = field(default_factory=dict)         # case source -> states asked about
    questions: list[dict] = field(default_factory=list)  # per request kind and rule or action: asked, agreed
    robustness: dict | None = None  # with --cases invalid: states breaking invariants, requests, answered, refused
    unasked: int = 0  # states of the cases not asked about: the budget was spent

    def as_json(self) -> dict:
        """What `conform --json` prints (and `--report` writes as conform.json)."""
        return {"game": self.game, "implementation": self.implementation, "asked": self.asked,
                "unsupported": self.unsupported, "cases": self.cases, "protocol": self.protocol,
                "fingerprint": self.fingerprint, "questions": self.questions, "robustness": self.robustness,
                "unasked": self.unasked,
                "groups": [{"kind": k, "why": w, "count": n} for (k, w), n in self.summary().items()],
                "disagreements": [d.__dict__ for d in self.disagreements]}

    def summary(self) -> dict:
        groups: dict = {}
        for d in self.disagreements:
            groups.setdefault((d.kind, d.why), []).append(d)
        return {key: len(ds) for key, ds in groups.items()}


def conform(game, adapter: Adapter, games: int = 3, seed: int = 0, max_steps: int = 200, progress=None,
            cases=("games",), timeout: float | None = 30.0, randoms: int = 100, budget: float | None = None) -> Report:
    """Ask the adapter about the states of the case sources chosen: every state of `games` seeded
    games played with the spec; a smallest state where each reading's choices disagree; the
    boundary fixtures; `randoms` states the rules allow near the games' (mutants.py) — and, with
    `invalid`, as many that break an invariant, asked only whether the implementation survives
    them (its answers are not compared: the spec has none for a state its rules exclude).
    `budget`: seconds for finding the cases and asking about them; what it leaves out is counted
    (`unasked`), and the comparison is made on what was asked."""
    stop = None if budget is None else time.monotonic() + budget

    def left() -> float | None:
        return None if stop is None else max(0.0, stop - time.monotonic())
    rep = Report(game.id, adapter.name, {op: 0 for op in adapter.ops}, unsupported=[op for op in OPS if op not in adapter.ops])
    rng = random.Random(seed)
    variants = _variants(game)
    session = _Session(game, adapter, rep, variants)
    states, reached = [], []
    if {"games", "random", "invalid"} & set(cases):
        for k in range(games):
            played = play(game, game.start_state(), seed=seed + k, max_steps=max_steps).trace.states
            reached += [(f"game {k + 1} of {games}, state {i + 1} of {len(played)}", s) for i, s in enumerate(played)]
    if "games" in cases:
        states += reached
        rep.cases["games"] = len(reached)
    if "random" in cases:
        if progress:
            progress(f"{randoms} random states the rules allow")
        found = mutants.random_states(game, [s for _, s in reached], randoms, seed)
        rep.cases["random"] = len(found)
        states += [(f"random state {i + 1} of {len(found)} (a few changes from a game's)", s) for i, s in enumerate(found)]
    if "readings" in cases:
        found = _reading_states(game, timeout, progress, left)
        rep.cases["readings"] = len(found)
        states += [(f"where {what}", s) for what, s in found]
    if "fixtures" in cases:
        found = _distinct(game, fixtures.states(game, seed, timeout, progress, budget=left()))
        rep.cases["fixtures"] = len(found)
        states += [(f"the fixture {what}", s) for what, s in found]
    for i, (where, s) in enumerate(states):
        if left() == 0.0:
            rep.unasked = len(states) - i
            break
        if progress:
            progress(where)
        _ask_state(session, s, rng)
    if "invalid" in cases and left() != 0.0:
        if progress:
            progress(f"{randoms} states that break an invariant")
        bad = mutants.invalid_states(game, [s for _, s in reached], randoms, seed + 1)
        rep.cases["invalid"] = len(bad)
        rep.robustness = _robustness(session, bad, rng)
    rep.disagreements = _classify(game, session.asked, [name for name, _ in variants])
    if progress and rep.disagreements:
        progress("shrinking each bug to a smallest state")
    _shrink_bugs(session, session.asked, rep.disagreements)
    rep.fingerprint = _fingerprint(game, session.asked)
    rep.questions = _tally(session.asked)
    return rep


def headline(kind: str, why: str) -> str:
    """What a group of disagreements is, in words."""
    return {"reading": f"follows the reading {why}",
            "assumption": f"takes another value for one the spec assumes: {why}"}.get(kind, f"disagrees with {why}")


def _tally(asked: list[_Asked]) -> list[dict]:
    """Per request kind and the rule or action it is about: how many questions, how many agreed."""
    counts: dict = {}
    for a in asked:
        c = counts.setdefault((a.op, a.subject), [0, 0])
        c[0] += 1
        c[1] += a.other == a.ours
    return [{"op": op, "subject": subject, "asked": n, "agreed": ok} for (op, subject), (n, ok) in counts.items()]


def _distinct(game, named) -> list[tuple[str, dict]]:
    """(what, state) pairs with each state once."""
    out, seen = [], set()
    for what, s in named:
        key = mutants.state_key(game, s)
        if key not in seen:
            seen.add(key)
            out.append((what, s))
    return out


def _reading_states(game, timeout, progress, left=lambda: None) -> list[tuple[str, dict]]:
    """For each reading, the smallest states the ambiguity analysis found where its choices
    give different answers (one per subject it differs on, each a state the invariants allow),
    within the time `left()` says is left (None: no limit)."""
    def found():
        for rid in game.readings:
            if left() == 0.0:
                return
            if progress:
                progress(f"a state where reading {rid}'s choices differ")
            for f in ambiguity.readings(game, rid, timeout, budget=left()):
                if f.kind == "readings-differ" and f.trace is not None:
                    yield f"{rid}'s choices differ", f.trace.states[0]
    return _distinct(game, found())


@dataclass
class _Asked:
    op: str
    subject: str
    args: dict
    state: dict
    ours: object
    other: object
    under: dict          # reading=choice -> what the spec answers under it
    py_state: dict = field(default=None, repr=False)


@dataclass
class _Question:
    """One question about one state: the request, the spec's answer (a function of the game, so
    it is asked under each reading too) and how the adapter's answer is read."""
    op: str
    subject: str
    args: dict
    request: dict
    spec: object                      # game -> the spec's answer
    read: object = None               # the adapter's answer value -> the value compared


def _question(game, op, subject, args, s) -> _Question:
    sj = game.state_to_json(s)
    base = {"op": op, "state": sj}
    if op == "end":
        return _Question(op, "", {}, base, lambda g: py_ended(g, s))
    if op == "score":
        return _Question(op, subject, args, {**base, "rule": subject, "args": plain(args)},
                         lambda g: py_value(g, g.rules[subject].body, s, args))
    if op == "legal":
        return _Question(op, subject, args, {**base, "action": subject, "args": plain(args)}, lambda g: _legal(g, s, subject, args))
    if op == "apply":
        return _Question(op, subject, args, {**base, "action": subject, "args": plain(args)},
                         lambda g: g.state_to_json(g.apply(s, subject, args)), lambda other: _as_state(game, other))
    k = _move_key(subject, args)  # moves: is this one move among the legal ones?
    return _Question(op, subject, args, base, lambda g: any(_move_key(m.action, m.args) == k for m in legal_moves(g, s)),
                     lambda listed: k in _listed(listed))


def _move_key(action, args) -> str:
    return json.dumps([action, plain(args)], sort_keys=True)


def _listed(listed) -> set[str]:
    """The moves an adapter listed (checked against the protocol's schema), as keys."""
    return {_move_key(m["action"], m.get("args", {})) for m in listed}


class _Session:
    """One conformance run's questions: asks, compares, and keeps protocol problems apart."""

    def __init__(self, game, adapter, rep, variants):
        self.game, self.adapter, self.rep, self.variants = game, adapter, rep, variants
        self.asked: list[_Asked] = []
        self.failures = 0  # restarts in a row

    def answer(self, op, subject, args, request, counted=True):
        """The adapter's answer value for one request, or None after noting a protocol problem."""
        if counted:
            self.rep.asked[op] += 1
        try:
            answer = self.adapter.ask(request)
        except ProtocolError as e:
            self._problem(op, subject, args, str(e))
            if e.lost:
                self._restart(op, subject)
            return None
        self.failures = 0
        key = ANSWER[op]
        if "error" in answer and key not in answer:
            self._problem(op, subject, args, f"it answered an error: {str(answer['error'])[:120]}")
            return None
        wrong = protocol_problem(f"answer-{op}", answer)
        if wrong:
            self._problem(op, subject, args, f"the answer breaks the protocol ({wrong}): {json.dumps(answer)[:120]}")
            return None
        return answer[key]

    def _problem(self, op, subject, args, what):
        self.rep.protocol.append({"op": op, "subject": subject, "args": plain(args), "request": self.adapter.n, "problem": what})

    def _restart(self, op, subject):
        self.failures += 1
        if self.failures > RESTARTS:
            raise StateError(f"--adapter {self.adapter.command!r}: it failed {RESTARTS + 1} requests in a row "
                             f"(the last: {op} {subject}); stopped")
        self.adapter.restart()

    def other(self, q: _Question, counted=True):
        """The adapter's answer to a question, read as the spec's is; None after a protocol problem."""
        other = self.answer(q.op, q.subject, q.args, q.request, counted)
        return other if other is None or q.read is None else q.read(other)

    def compare(self, q: _Question, s):
        other = self.other(q)
        if other is not None:
            self.asked.append(_Asked(q.op, q.subject, q.args, q.request["state"], _value(q.spec, self.game), other,
                                     {name: _value(q.spec, g) for name, g in self.variants}, s))


def _classify(game, asked: list[_Asked], names: list[str]) -> list[Disagreement]:
    """A disagreement is the other reading when that reading explains every disagreement about the
    same question (op and subject) and the implementation never sides with the spec's own choice
    where the two readings differ; else an assumption when another value of an `assumed` constant
    explains them so (assumed.py); otherwise it is a bug, cited by the rules that decide it."""
    out, groups, loaded = [], {}, {}
    for a in asked:
        if a.other != a.ours:
            groups.setdefault((a.op, a.subject), []).append(a)
    for (op, subject), group in groups.items():
        same = [a for a in asked if (a.op, a.subject) == (op, subject)]
        reading = next((n for n in names
                        if all(a.other == a.under[n] for a in group)
                        and not any(a.under[n] != a.ours and a.other == a.ours for a in same)), None)
        kind, why = ("reading", reading) if reading else _assumption(game, op, subject, group, same, loaded)
        out.extend(Disagreement(a.op, a.subject, plain(a.args), a.state, a.ours, a.other, kind, why) for a in group)
    return out


def _assumption(game, op, subject, group, same, loaded: dict) -> tuple[str, str]:
    """("assumption", the other value) when one other value of an assumed constant the deciding
    rules read gives the implementation's answer on every disagreement of the group and never
    the spec's own where the two differ; else ("bug", the rules and sentences that decide).
    `loaded`: the game under each other value tried so far (a group after another reuses it)."""
    rules, actions = _deciders(game, op, subject)
    for choice in assumed.choices(game, rules, actions):
        if choice not in loaded:
            loaded[choice] = assumed.varied(game, choice)
        g = loaded[choice]
        if g is None or not all(_answer(g, a) == a.other for a in group):
            continue
        if not any(a.other == a.ours and _answer(g, a) != a.ours for a in same):
            return "assumption", str(choice)
    return "bug", _decided_by(game, op, subject)


def _answer(g, a: _Asked):
    """The spec's answer to an asked question, under game g (another reading or value)."""
    return _value(_question(g, a.op, a.subject, a.args, a.py_state).spec, g)


def _shrink_bugs(session, asked: list[_Asked], found: list[Disagreement]):
    """Each group of bugs' first disagreement shrunk against the adapter (readings need none:
    the fingerprint explains them)."""
    done = set()
    for d in found:
        if d.kind == "bug" and (d.op, d.why) not in done:
            done.add((d.op, d.why))
            a = next(a for a in asked if (a.op, a.subject, a.state) == (d.op, d.subject, d.state)
                     and plain(a.args) == d.args and a.other == d.other)
            d.smallest = _shrink(session, a)


def _fingerprint(game, asked: list[_Asked]) -> list[dict]:
    """For each reading: the questions its choices answer differently, how many of them the
    implementation answered as each choice does (or as none), and the choice it follows when it
    followed one every time."""
    out = []
    for rid, r in game.readings.items():
        spec = game.chosen[rid]
        others = [c for c in r.choices if c != spec]
        telling = [a for a in asked if any(a.under[f"{rid}={c}"] != a.ours for c in others)]
        matches = {c: sum(a.other == (a.ours if c == spec else a.under[f"{rid}={c}"]) for a in telling) for c in r.choices}
        neither = sum(all(a.other != (a.ours if c == spec else a.under[f"{rid}={c}"]) for c in r.choices) for a in telling)
        follows = next((c for c in r.choices if telling and matches[c] == len(telling)), None)
        out.append({"reading": rid, "spec": spec, "questions": len(telling), "matches": matches,
                    "neither": neither, "follows": follows})
    return out


def _ask_state(session, s, rng):
    game, ops = session.game, session.adapter.ops
    if "end" in ops:
        session.compare(_question(game, "end", "", {}, s), s)
    if "score" in ops:
        for fs in game.final_scores:
            for a in param_values(game, game.rules[fs.rule].params):
                session.compare(_question(game, "score", fs.rule, a, s), s)
    legal = legal_moves(game, s)
    if "moves" in ops:
        _ask_moves(session, s, legal)
    for action in game.actions.values():
        moves = [m.args for m in legal if m.action == action.id]
        others = [a for a in param_values(game, action.params) if a not in moves]
        for a in moves + rng.sample(others, min(len(others), max(1, len(moves)))):
            if "legal" in ops:
                session.compare(_question(game, "legal", action.id, a, s), s)
            if "apply" in ops and a in moves:
                session.compare(_question(game, "apply", action.id, a, s), s)


def _robustness(session, bad: list, rng) -> dict:
    """Each state that breaks invariants asked every request kind once (each action with arguments
    drawn at random): an answer of the protocol's shape, or an `error` answer (a refusal, the
    robust thing to do), passes; a crash, a hang, garbage or a wrong shape is a protocol problem
    that names the invariants the state breaks. An implementation that dies on a state is started
    again and not asked about that state again (it would only die again); the run goes on."""
    game, ops = session.game, session.adapter.ops
    out = {"states": len(bad), "requests": 0, "answered": 0, "refused": 0}
    for s, broken in bad:
        asks = [("end", "", {})] if "end" in ops else []
        if "score" in ops:
            asks += [("score", fs.rule, next(iter(param_values(game, game.rules[fs.rule].params)))) for fs in game.final_scores]
        if "moves" in ops:
            asks.append(("moves", "", {}))
        for action in game.actions.values():
            a = rng.choice(list(param_values(game, action.params)))
            asks += [(op, action.id, a) for op in ("legal", "apply") if op in ops]
        for op, subject, args in asks:
            out["requests"] += 1
            try:
                answer = session.adapter.ask(_question(game, op, subject, args, s).request)
            except ProtocolError as e:
                session._problem(op, subject, args, f"{e}, on a state that breaks {', '.join(broken)}")
                if e.lost:
                    session.adapter.restart()
                    break
                continue
            if "error" in answer and ANSWER[op] not in answer:
                out["refused"] += 1
                continue
            wrong = protocol_problem(f"answer-{op}", answer)
            if wrong:
                session._problem(op, subject, args, f"the answer breaks the protocol ({wrong}), on a state that breaks "
                                 f"{', '.join(broken)}: {json.dumps(answer)[:120]}")
                continue
            out["answered"] += 1
    return out


def _ask_moves(session, s, legal):
    """One `moves` request; then one question per move that the spec, the implementation or the
    spec under another reading lists: is it among the legal moves?"""
    game = session.game
    sj = game.state_to_json(s)
    listed = session.answer("moves", "", {}, {"op": "moves", "state": sj})
    if listed is None:
        return
    theirs = _listed(listed)
    ours = {_move_key(m.action, m.args): (m.action, m.args) for m in legal}
    under = {name: {_move_key(m.action, m.args): (m.action, m.args) for m in legal_moves(g, s)} for name, g in session.variants}
    every = {_move_key(m["action"], m.get("args", {})): (m["action"], m.get("args", {})) for m in listed}
    for u in under.values():
        every.update(u)
    every.update(ours)
    for k, (action, args) in every.items():
        session.asked.append(_Asked("moves", action, args, sj, k in ours, k in theirs,
                                    {name: k in u for name, u in under.items()}, s))


def _shrink(session, a: _Asked) -> dict:
    """The smallest state (1-minimal, every invariant kept) on which the implementation still
    answers a's question otherwise than the spec — the adapter asked again at each step."""
    game = session.game

    def differs(s):
        if not python_invariants_hold(game, s):
            return False
        if a.op == "apply" and not _legal(game, s, a.subject, a.args):
            return False
        q = _question(game, a.op, a.subject, a.args, s)
        other = session.other(q, counted=False)
        return other is not None and other != _value(q.spec, game)

    return game.state_to_json(shrink(a.py_state, game.state_types, game.domains, differs, max_checks=SHRINK_CHECKS))


def _as_state(game, other):
    try:
        return game.state_to_json(game.state_from_json(other))  # the same state written another way
    except StateError as e:
        return f"not a state: {e}"


def _legal(g, s, aid, a):
    try:
        return g.legal(s, aid, a)
    except Undefined:
        return False  # as the move list has it: an undefined legality is not a legal move


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


def _deciders(game, op, subject) -> tuple[list[str], list[str]]:
    """The rules and actions whose conditions, values or effects decide an answer."""
    if op in ("legal", "apply", "moves"):
        a = game.actions.get(subject)
        if a is None:
            return [], []
        return [rid for rid, _ in a.requires + a.ensures if rid], [a.id]
    if op == "score":
        return [subject], []
    return [r.id for r in game.rules.values() if r.kind == "end"], []


def _decided_by(game, op, subject) -> str:
    """The rules behind an answer, with the rulebook sentences they cite: an action's conditions
    for its legality (or the action itself where it has none), the action for its effect."""
    if op in ("legal", "apply", "moves") and subject not in game.actions:
        return f"{subject} (not an action of the spec)"
    rules, actions = _deciders(game, op, subject)
    ids = (rules if op != "apply" else []) or actions
    cites = []
    for rid in ids:
        x = game.rules.get(rid) or game.actions.get(rid)
        cites.append(f"{rid} ({x.cite})" if x is not None and x.cite else rid)
    return "; ".join(cites)
