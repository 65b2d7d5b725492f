"""The tour — the main job: every question of every game asked within one budget, on a pool of
processes, cheap and decisive questions first, each answer handed on as it comes and remembered.

A question is asked on work budgets (zoospec/engines/work.py): its own time, counted in Z3's
deterministic work, so its verdict does not move with the machine's load; one not started in time
is `unknown` (budget), as is one still running when the budget and a grace period are spent (its
process is stopped). Remembered answers come first and cost nothing; an `unknown`
is asked again when it can now be given more time than it had, and a remembered counterexample
is replayed in Python before it is shown (a witness that no longer replays is asked again).
"""
from __future__ import annotations

import os
import time

from zoospec.engines import work
from zoospec.front.loader import load

from .. import traces
from ..workers import Workers
from . import claims
from .answer_cache import AnswerCache
from .questions import LEAST, Question, ask, own_timeout, questions_of, rulebook_of

# a question runs at most its own time (Z3's work under work budgets, with WALL times it on the clock)
# and not past the tour's budget plus a grace, plus the time to load its game in a fresh worker:
# then its process is stopped and replaced, and it is unknown. Validity and coverage have no
# timeout of their own: CHEAP bounds them.
LOADING = 15.0
GRACE = 10.0
CHEAP = 120.0


def plan(games: dict[str, str]) -> list[Question]:
    """Every game's questions, cheap first; within one cost the games take turns, so a game with
    many slow questions does not hold the others back. Games that formalise one rulebook together
    have their coverage counted together (the coverage question names the others)."""
    books = {path: rulebook_of(path) for path in games.values()}
    out = []
    for gi, (name, path) in enumerate(games.items()):
        seen: dict[int, int] = {}
        for q in questions_of(name, path):
            if q.kind == "coverage":
                siblings = [p for p in games.values() if p != path and books[p] is not None and books[p] == books[path]]
                q = Question(q.game, q.path, q.kind, os.pathsep.join(siblings), q.cost)
            turn = seen[q.cost] = seen.get(q.cost, -1) + 1
            out.append(((q.cost, turn, gi), q))
    return [q for _, q in sorted(out, key=lambda kq: kq[0])]


def run(games: dict[str, str], budget: float, workers: int, cache: AnswerCache | None, on_answer,
        cap: float | None = None, store: AnswerCache | None = None, deep: bool = False, on_start=None) -> list[tuple]:
    """[(question, answer)] for every question, in plan order; `on_answer(question, answer)` is
    called as each one is known (answers from the cache carry `"cached": True`), `on_start(question)`
    as one is handed to a worker. `cache`: where
    answers are looked up (None: ask everything); `store`: where new ones are kept (default
    `cache`); `cap`: at most this long for any one question; `deep`: a remembered unknown is asked
    again even under the budget it had. Ctrl-C stops the pool and raises KeyboardInterrupt after
    the answers so far were handed on."""
    store = cache if store is None else store
    qs = plan(games)
    deadline = time.time() + budget
    answers: dict[Question, dict] = {}

    def known(q, a):
        answers[q] = a
        on_answer(q, a)

    todo = []
    for q in qs:
        hit = _usable(cache.get(q), q, budget, cap, deep) if cache else None
        if hit is not None:
            known(q, {**hit, "cached": True})
        else:
            todo.append(q)
    if todo:
        _ask_all(todo, deadline, cap, workers, store, known, budget, on_start)
    return [(q, answers[q]) for q in qs]


def _ask_in_pool(q, deadline, cap) -> dict:
    """ask() in a pool worker, on work budgets (engines/work.py): each check's time is Z3's
    deterministic work, so a verdict does not move with the machine's load; Z3 answers alone
    there (the race's Yices counts wall-clock time). Seconds stay the outer bound."""
    os.environ["ZOOSPEC_WORK_BUDGET"] = "on"
    return ask(q, deadline, cap)


def _ask_all(todo, deadline, cap, workers, cache, known, budget, on_start=None):
    def limit(q):  # when a question's process is stopped: its own time, loading its game, a grace
        own = own_timeout(q.kind, cap)
        if own is None or q.kind in ("validate", "coverage"):
            return CHEAP
        # its own time (under work budgets, WALL times it), but not past the tour's budget
        return lambda start: min(own * work.WALL, max(0.0, deadline - start) + GRACE) + LOADING

    def on_result(q, status, value, seconds):
        if status == "ok":
            a = value
        elif status == "error":
            a = {"status": "error", "error": value, "seconds": round(seconds, 2)}
        else:
            a = {"status": "unknown", "why": "stopped", "timeout": round(seconds, 1), "seconds": round(seconds, 2)}
        a.update(budget=budget, cap=cap)  # the tour's: an unknown is asked again under a bigger one
        if cache is not None and a["status"] != "error":  # a failure of ours is not remembered
            cache.put(q, a)
        known(q, a)

    pool = Workers(workers, _ask_in_pool)
    try:
        always = [q for q in todo if q.kind in ("validate", "coverage")]  # every row of the table exists
        pool.run([(q, (q, deadline, cap), limit(q)) for q in always], on_result, on_start=on_start)
        never = pool.run([(q, (q, deadline, cap), limit(q)) for q in todo if q not in always], on_result,
                         stop_starting_at=deadline - LEAST, on_start=on_start)
    finally:
        pool.close()
    for q in never:  # the budget was spent before they could start
        a = {"status": "unknown", "why": "budget", "timeout": 0.0, "seconds": 0.0, "budget": budget, "cap": cap}
        if cache is not None:
            cache.put(q, a)
        known(q, a)


def _usable(hit: dict | None, q: Question, budget: float, cap: float | None, deep: bool) -> dict | None:
    """A remembered answer, if it can stand: an unknown only when it was asked under a tour budget
    at least this big and the same `--timeout` (a bigger budget, another timeout or `deep` asks it
    again); a counterexample only when it still stands in Python."""
    if hit is None:
        return None
    if hit["status"] == "unknown":
        return None if deep or hit.get("budget", 0.0) < budget or hit.get("cap") != cap else hit
    for t in [hit.get("trace")] + [f.get("trace") for f in hit.get("findings", [])]:
        if t and not _stands(q, t):
            return None
    return hit


def _stands(q: Question, itf: dict) -> bool:
    """A remembered witness, read back and re-checked in Python: a claim's counterexample still
    refutes it; a finding's trace still replays."""
    try:
        meta = itf.get("#meta") or {}
        g = _loaded(q.path, meta.get("readings") or {}, meta.get("switches") or {})  # as the witness was made
        trace = traces.load_itf(g, itf)
        if q.kind == "claim":
            return claims.witness_stands(g, g.claims[q.item], trace)
        return all(c.ok for c in traces.replay(trace))
    except Exception:  # a witness that cannot even be read back is not vouched for
        return False


_LOADED: dict[tuple, object] = {}


def _loaded(path: str, readings: dict, switches: dict):
    key = (path, tuple(sorted(readings.items())), tuple(sorted(switches.items())))
    if key not in _LOADED:
        _LOADED[key] = load(path, readings=readings, switches=switches)
    return _LOADED[key]
