"""One deal asked by several worker processes at once, each with its own Z3 random seed:
`zoospec solve --workers N`.

How long a deal takes is heavy-tailed and depends on the path the search happens to take (the
same layout-first question has taken 203 to 349 s on first-game, and 575 s against no answer in
800 s on another deal), so the same question asked on different paths, one per core, answers
when the luckiest does. Each worker is a spawned process (ADR 0008: nothing inherited) that
loads the spec, sets `smt.random_seed` and Yices' seed to its number (worker 0 keeps the defaults, so it asks
exactly what `solve` alone asks) and solves; the first reachable or unreachable verdict wins and
the others are stopped. Every worker's verdict means what `puzzle.solve`'s means, so the first
decisive one is the answer; a record is certified again here, in this process, before it is
returned. When every worker answers unknown, so does the portfolio (with the best record any of
them certified, under --best).
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import time

import z3

from zoospec import collector, stack_room
from zoospec.engines import interrupt, yices
from zoospec.errors import InternalError
from zoospec.front.loader import load

from . import search as puzzle

# How long after the timeout a worker may take to report before it is stopped and counted unknown
# (it finishes its last Z3 call, decodes and certifies).
GRACE = 30.0
# After Ctrl-C, how long the workers get to stop their searches and report what they have; one
# still loading its spec ignores the signal and is stopped at the end of it.
INTERRUPT_GRACE = 10.0
# How often the wait for reports looks whether Ctrl-C came
POLL = 0.2


def solve(spec: str, readings: dict, switches: dict, game, deal: dict, workers: int, given: str | None = None,
          progress=None, **how) -> puzzle.Verdict:
    """The portfolio's verdict. `given` is the `--given` text (each worker reads it again);
    `how`: target, best, timeout, layout_first — as `puzzle.solve` takes them. Ctrl-C is passed on
    to the workers once: each stops its search where it is and reports what it has, and the
    verdict says `interrupted` with the best certified record among them (a second Ctrl-C stops
    everything at once)."""
    say = progress or (lambda msg: None)
    ctx = multiprocessing.get_context("spawn")
    reports = ctx.Queue()
    job = {"spec": spec, "readings": readings, "switches": switches, "deal": puzzle.deal_json(game, deal),
           "given": given, "how": how}
    procs = [ctx.Process(target=_worker, args=(reports, k, job), daemon=True) for k in range(workers)]
    start = time.monotonic()
    for p in procs:
        p.start()
    answers, interrupted = {}, False
    deadline = start + how["timeout"] + GRACE
    try:
        with interrupt.ctrl_c_stops() as ctrl_c:
            while len(answers) < workers and time.monotonic() < deadline:
                if ctrl_c.came and not interrupted:
                    interrupted = True
                    for p in procs:
                        if p.is_alive():
                            os.kill(p.pid, signal.SIGINT)
                    deadline = min(deadline, time.monotonic() + INTERRUPT_GRACE)
                try:
                    k, kind, body = reports.get(timeout=POLL)
                except queue.Empty:
                    continue
                if kind == "say":
                    say(f"[worker {k}] {body}")
                    continue
                if kind == "error":
                    raise InternalError(f"worker {k} failed: {body}")
                answers[k] = body
                if body["status"] != "unknown" and not interrupted:
                    break
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
            p.join()
    v = _verdict(game, answers, workers, how, interrupted)
    v.seconds = time.monotonic() - start
    return v


def _verdict(game, answers: dict, workers: int, how: dict, interrupted: bool = False) -> puzzle.Verdict:
    decisive = [(k, a) for k, a in answers.items() if a["status"] != "unknown"]
    if decisive:
        k, a = decisive[0]
        return _from_json(game, a, f"worker {k} of {workers}")
    best = [a for a in answers.values() if a["score"] is not None]
    if (how.get("best") or interrupted) and best:
        a = max(best, key=lambda a: a["score"])
        v = _from_json(game, a, "")
    else:
        v = puzzle.Verdict("unknown", how.get("target") if how.get("target") is not None else game.puzzle.target,
                           best=bool(how.get("best")))
    asked = [a["layouts"] for a in answers.values() if a.get("layouts") is not None]
    v.layouts = sum(asked) if asked else None  # layout by layout: how many the workers asked in all
    silent = workers - len(answers)
    v.reason = "; ".join([f"worker {k}: {a['reason']}" for k, a in sorted(answers.items())]
                         + ([f"{silent} worker(s) gave no answer in time"] if silent else []))
    if interrupted:
        v.interrupted = True
        v.reason = "interrupted" + (f" ({v.reason})" if v.reason else "")
    return v


def _from_json(game, a: dict, who: str) -> puzzle.Verdict:
    """A worker's verdict, its record read back and certified in this process."""
    record = game.state_from_json(a["record"]) if a["record"] is not None else None
    if record is not None:
        bad = puzzle.certify(game, record)
        if bad:
            raise InternalError(f"{who}'s record does not stand up in Python: " + "; ".join(bad[:5]))
    return puzzle.Verdict(a["status"], a["target"], a["score"], record, core=a["core"], best=a["best"],
                          proved_below=a["proved_below"], reason=a["reason"] + (f" ({who})" if who and a["reason"] else ""),
                          layouts=a["layouts"], given=a["given"])


def _worker(reports, k: int, job: dict):
    """Worker k: the deal solved with Z3's and Yices' random seed k, its verdict reported as JSON.
    In a process group of its own, so that Ctrl-C at a terminal reaches only the parent, which
    passes it on once (a second press would stop the worker before it reports)."""
    os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # until its search can stop on it
    collector.tune()
    try:
        if k:
            z3.set_param("smt.random_seed", k)
            z3.set_param("sat.random_seed", k)
            yices.set_seed(k)
        g = load(job["spec"], readings=job["readings"], switches=job["switches"])
        deal = puzzle.deal_from_data(g, job["deal"], "the portfolio's deal")
        given = puzzle.read_given(g, job["given"]) if job["given"] else None
        with interrupt.ctrl_c_stops():  # the search stops where it is; its best so far is reported
            v = stack_room.run(lambda: puzzle.solve(g, deal, given=given, progress=lambda msg: reports.put((k, "say", msg)),
                                                    **job["how"]))
        reports.put((k, "verdict", {
            "status": v.status, "target": v.target, "score": v.score, "core": v.core, "best": v.best,
            "proved_below": v.proved_below, "reason": v.reason, "layouts": v.layouts, "given": v.given,
            "record": g.state_to_json(v.record) if v.record is not None else None}))
    except Exception as e:  # reported, so the caller names the worker instead of waiting out the timeout
        reports.put((k, "error", f"{type(e).__name__}: {e}"))
