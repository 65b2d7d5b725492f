"""The tour — the main job: every question of every game asked within one budget, on a pool of
processes, cheap and decisive questions first, each answer handed on as it comes and remembered.

A question gets its own timeout or what is left of the budget, whichever is less; one not started
in time is `unknown` (budget), as is one still running when the budget and a grace period are
spent (its process is stopped). Remembered answers come first and cost nothing; an `unknown`
is asked again when it can now be given more time than it had, and a remembered counterexample
is replayed in Python before it is shown (a witness that no longer replays is asked again).
"""
from __future__ import annotations

import multiprocessing
import queue
import time

from zoospec.front.loader import load

from .. import traces
from . import claims
from .answer_cache import AnswerCache
from .questions import TIMEOUT, Question, ask, questions_of

GRACE = 15.0  # past the budget, running questions get this long to finish before they are stopped


def plan(games: dict[str, str]) -> list[Question]:
    """Every game's questions, cheap first, games in the order given."""
    qs = [q for name, path in games.items() for q in questions_of(name, path)]
    order = {name: i for i, name in enumerate(games)}
    return sorted(qs, key=lambda q: (q.cost, order[q.game]))


def run(games: dict[str, str], budget: float, workers: int, cache: AnswerCache | None, on_answer,
        cap: float | None = None, store: AnswerCache | None = None) -> list[tuple]:
    """[(question, answer)] for every question, in plan order; `on_answer(question, answer)` is
    called as each one is known (answers from the cache carry `"cached": True`). `cache`: where
    answers are looked up (None: ask everything); `store`: where new ones are kept (default
    `cache`); `cap`: at most this long for any one question. Ctrl-C stops the pool and raises
    KeyboardInterrupt after the answers so far were handed on."""
    store = cache if store is None else store
    qs = plan(games)
    deadline = time.time() + budget
    answers: dict[Question, dict] = {}

    def known(q, a):
        answers[q] = a
        on_answer(q, a)

    todo = []
    for q in qs:
        hit = _usable(cache.get(q), q, budget, cap) if cache else None
        if hit is not None:
            known(q, {**hit, "cached": True})
        else:
            todo.append(q)
    if todo:
        _ask_all(todo, deadline, cap, workers, store, known)
    return [(q, answers[q]) for q in qs]


def _ask_all(todo, deadline, cap, workers, cache, known):
    done: queue.SimpleQueue = queue.SimpleQueue()
    pool = multiprocessing.get_context("spawn").Pool(processes=max(1, workers))
    try:
        for q in todo:
            pool.apply_async(ask, (q, deadline, cap), callback=lambda a, q=q: done.put((q, a)),
                             error_callback=lambda e, q=q: done.put((q, {"status": "error", "error": f"{type(e).__name__}: {e}"})))
        left = set(todo)
        while left:
            try:
                q, a = done.get(timeout=max(0.1, deadline + GRACE - time.time()))
            except queue.Empty:
                break
            left.discard(q)
            if cache is not None and not (a["status"] == "unknown" and a.get("why") == "budget"):
                cache.put(q, a)
            known(q, a)
        for q in sorted(left, key=todo.index):  # the budget and its grace are spent
            known(q, {"status": "unknown", "why": "budget", "timeout": 0.0, "seconds": 0.0})
    finally:
        pool.terminate()
        pool.join()


def _usable(hit: dict | None, q: Question, budget: float, cap: float | None) -> dict | None:
    """A remembered answer, if it can stand: an unknown only when it had at least the time it
    would get now; a counterexample only when its trace still replays."""
    if hit is None:
        return None
    if hit["status"] == "unknown":
        now = min(t for t in (TIMEOUT[q.kind], budget, cap) if t is not None)
        return hit if hit.get("timeout", 0.0) >= now else None
    for t in [hit.get("trace")] + [f.get("trace") for f in hit.get("findings", [])]:
        if t and not _stands(q, t):
            return None
    return hit


def _stands(q: Question, itf: dict) -> bool:
    """A remembered witness, read back and re-checked in Python: a claim's counterexample still
    refutes it; a finding's trace still replays."""
    try:
        g = _loaded(q.path)
        trace = traces.load_itf(g, itf)
        if q.kind == "claim":
            return claims.witness_stands(g, g.claims[q.item], trace)
        return all(c.ok for c in traces.replay(trace))
    except Exception:  # a witness that cannot even be read back is not vouched for
        return False


_LOADED: dict[str, object] = {}


def _loaded(path: str):
    if path not in _LOADED:
        _LOADED[path] = load(path)
    return _LOADED[path]
