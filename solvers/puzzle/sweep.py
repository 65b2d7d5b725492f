"""Many deals solved, one JSON line each as they finish: `zoospec sweep`.

Each seed is dealt (solvers/puzzle/deals.py) and solved (solvers/puzzle/search.py) in a worker: local processes
by default, a Dask cluster when a scheduler address (or a Dask client, in the tests) is given.
Lines are appended to the output file as results arrive, so a stopped sweep (Ctrl-C included)
resumes by skipping the seeds already there; `retry_unknown` asks the unknown ones again (say with
a longer timeout). Each line holds the question it answers (target, best, readings, switches, the
deal's options, how it was asked): a file answering another question is refused, not mixed in.
Seeds are taken as workers free up, so a range of a billion starts at once. The summary counts
verdicts (the latest line of a seed counts); unknowns are counted apart, never as unwinnable.
"""
from __future__ import annotations

import itertools
import json
import sys
import time
from collections import Counter
from pathlib import Path

from zoospec.errors import StateError
from zoospec.front.loader import load

from ..workers import Workers
from . import deals, search as puzzle

# a deal's worker is stopped past its timeout twice over plus this (loading, dealing, certifying)
SLACK = 120.0

_GAMES: dict = {}


def solve_seed(spec: str, readings: dict, switches: dict, seed: int, how: dict) -> dict:
    """One deal, solved in a worker (the spec is loaded once per process). `how`: the asking
    options every deal shares — timeout, target, best, the deal variables the player fixed (a game's deal options), layout_first."""
    key = (spec, tuple(sorted(readings.items())), tuple(sorted(switches.items())))
    if key not in _GAMES:
        _GAMES[key] = load(spec, readings=readings, switches=switches)
    g = _GAMES[key]
    t0 = time.monotonic()
    d = deals.deal(g, seed, how["deal_options"])
    v = puzzle.solve(g, d, target=how["target"], best=how["best"], timeout=how["timeout"], layout_first=how["layout_first"])
    return {"seed": seed, "status": v.status, "target": v.target, "score": v.score, "best": v.best,
            "proved_below": v.proved_below, "core": v.core, "reason": v.reason, "layouts": v.layouts,
            "seconds": round(time.monotonic() - t0, 2),
            "deal": puzzle.deal_json(g, d)}


def _lines(out: Path) -> list[dict]:
    """The result lines of an output file (a line cut short by a crash is skipped)."""
    if not out.exists():
        return []
    try:
        text = out.read_text(encoding="utf-8")
    except (UnicodeDecodeError, IsADirectoryError) as e:
        raise StateError(f"{out}: not a sweep's results file ({type(e).__name__}); give another --out") from None
    rows = []
    for line in text.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if isinstance(r, dict) and isinstance(r.get("seed"), int):
            rows.append(r)
    return rows


def done_seeds(out: Path, retry_unknown: bool = False) -> set[int]:
    """Seeds already answered in the output file (their latest line); with `retry_unknown`, not
    those whose latest answer is unknown."""
    latest = {r["seed"]: r for r in _lines(out)}
    return {s for s, r in latest.items() if not (retry_unknown and r.get("status") == "unknown")}


def same_question(out: Path, question: dict):
    """Refuses an output file whose lines answer another question: its answers would be counted
    as this one's. Says what differs."""
    for r in _lines(out):
        theirs = r.get("question")
        if theirs == question:
            continue
        if theirs is None:
            raise StateError(f"{out}: holds answers that do not say which question they answer (written by "
                             f"an older zoospec); give another --out")
        diff = ", ".join(f"{k} {json.dumps(theirs.get(k))} there, {json.dumps(question.get(k))} here"
                         for k in sorted(set(theirs) | set(question)) if theirs.get(k) != question.get(k))
        raise StateError(f"{out}: holds answers to another question ({diff}); give another --out")


def run(spec: str, seeds, out: str | Path, workers: int = 1, scheduler=None, timeout: float = 600.0,
        target=None, best: bool = False, deal_options: dict | None = None, readings: dict | None = None, progress=None,
        switches: dict | None = None, layout_first: bool = False, retry_unknown: bool = False) -> dict:
    """Solves every seed of `seeds` (a list, or deals.Seeds) not yet in `out`, appending one line
    each; the summary of `out`'s answers for `seeds`, with `"interrupted": True` after Ctrl-C."""
    out = Path(out)
    readings = readings or {}
    args = (spec, readings, switches or {})
    how = {"timeout": timeout, "target": target, "best": best, "deal_options": deal_options or {}, "layout_first": layout_first}
    question = {k: v for k, v in how.items() if k != "timeout"} | {"readings": readings, "switches": switches or {}}
    question = json.loads(json.dumps(question))  # as a line will hold it
    same_question(out, question)
    done = done_seeds(out, retry_unknown)
    wanted = seeds if isinstance(seeds, deals.Seeds) else set(seeds)
    total = len(wanted) - sum(1 for s in done if s in wanted)
    todo = (s for s in seeds if s not in done)
    bar = progress or (lambda done, total, line: None)
    finished, interrupted = 0, False
    with out.open("a", encoding="utf-8") as f:
        if out.stat().st_size and not out.read_bytes().endswith(b"\n"):
            f.write("\n")  # a line cut short by a crash stays on its own line, ignored

        def write(result):
            nonlocal finished
            f.write(json.dumps({**result, "question": question, "timeout": timeout}) + "\n")
            f.flush()
            finished += 1
            bar(finished, total, result)
        try:
            if scheduler is not None:
                for result in _dask(scheduler, args, how, todo):
                    write(result)
            else:
                _local(args, how, todo, workers, write)
        except KeyboardInterrupt:
            interrupted = True
    return {**summarise(out, seeds), "interrupted": interrupted}


def _local(args, how, todo, workers, write):
    """Local processes, spawned, not forked: a forked worker inherits the Z3 terms its parent
    built, and those change Z3's search (ADR 0037), so a deal's path — and, where budgets
    are wall clock, its verdict — would depend on what the caller did before the sweep. A deal
    past twice its timeout (and SLACK) is stopped and counted unknown."""
    def on_result(seed, status, value, seconds):
        if status == "ok":
            write(value)
        else:
            why = "stopped: past twice its timeout" if status == "stopped" else f"the worker failed: {value}"
            write({"seed": seed, "status": "unknown", "target": how["target"], "score": None, "best": how["best"],
                   "proved_below": None, "core": None, "reason": why, "layouts": None,
                   "seconds": round(seconds, 2), "deal": None})

    pool = Workers(workers, solve_seed)
    try:
        pool.run(((s, (*args, s, how), 2 * how["timeout"] + SLACK) for s in todo), on_result)
    finally:
        pool.close()


def _dask(scheduler, args, how, todo):
    try:
        from dask.distributed import Client, as_completed as dask_completed
    except ImportError:
        raise StateError("--scheduler needs Dask: pip install 'zoospec[dask]'") from None
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:  # a window of deals in flight, refilled as each finishes: seeds are never listed out
        todo = iter(todo)
        window = max(2, 2 * sum(client.nthreads().values()))
        running = dask_completed([client.submit(solve_seed, *args, s, how, pure=False) for s in itertools.islice(todo, window)])
        for fut in running:
            for s in itertools.islice(todo, 1):
                running.add(client.submit(solve_seed, *args, s, how, pure=False))
            yield fut.result()
    finally:
        if client is not scheduler:
            client.close()


def summarise(out: Path, seeds) -> dict:
    """Verdicts of the seeds asked for (the file may hold others; a seed's latest line counts):
    counts, share winnable among the decided, and the distribution of the best score where
    --best gave one."""
    wanted = seeds if isinstance(seeds, deals.Seeds) else set(seeds)
    rows = {r["seed"]: r for r in _lines(Path(out)) if r["seed"] in wanted}
    status = Counter(r["status"] for r in rows.values())
    decided = status["reachable"] + status["unreachable"]
    scores = Counter(r["score"] for r in rows.values() if r.get("best") and r.get("score") is not None)
    return {"deals": len(rows), "asked": len(wanted), "reachable": status["reachable"],
            "unreachable": status["unreachable"], "unknown": status["unknown"],
            "winnable_share": (status["reachable"] / decided) if decided else None,
            "best_scores": dict(sorted(scores.items())),
            "seconds_median": _median([r["seconds"] for r in rows.values()])}


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def progress_bar(done: int, total: int, result: dict, stream=sys.stderr):
    width = 30
    fill = int(width * done / total) if total else width
    stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total}  seed {result['seed']}: {result['status']}"
                 f"{'' if result['score'] is None else ' ' + str(result['score'])}   ")
    if done == total:
        stream.write("\n")
    stream.flush()
