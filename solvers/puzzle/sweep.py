"""Many deals solved, one JSON line each as they finish: `zoospec sweep`.

Each seed is dealt (solvers/puzzle/deals.py) and solved (solvers/puzzle/search.py) in a worker: local processes
by default, a Dask cluster when a scheduler address (or a Dask client, in the tests) is given.
Lines are appended to the output file as results arrive, so a stopped sweep resumes by skipping the
seeds already there. The summary counts verdicts; unknowns are counted apart, never as unwinnable.
"""
from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from zoospec.errors import StateError
from zoospec.front.loader import load

from . import deals, search as puzzle

_GAMES: dict = {}


def solve_seed(spec: str, readings: dict, switches: dict, seed: int, how: dict) -> dict:
    """One deal, solved in a worker (the spec is loaded once per process). `how`: the asking
    options every deal shares — timeout, target, best, a game sampler's options, layout_first."""
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


def done_seeds(out: Path) -> set[int]:
    """Seeds already in the output file (a line cut short by a crash is ignored)."""
    seen = set()
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            try:
                seen.add(json.loads(line)["seed"])
            except (ValueError, KeyError, TypeError):
                continue
    return seen


def run(spec: str, seeds: list[int], out: str | Path, workers: int = 1, scheduler=None, timeout: float = 600.0,
        target=None, best: bool = False, deal_options: dict | None = None, readings: dict | None = None, progress=None,
        switches: dict | None = None, layout_first: bool = False) -> dict:
    out = Path(out)
    readings = readings or {}
    todo = [s for s in seeds if s not in done_seeds(out)]
    bar = progress or (lambda done, total, line: None)
    args = (spec, readings, switches or {})
    how = {"timeout": timeout, "target": target, "best": best, "deal_options": deal_options or {}, "layout_first": layout_first}
    total, finished = len(todo), 0
    with out.open("a", encoding="utf-8") as f:
        if out.stat().st_size and not out.read_bytes().endswith(b"\n"):
            f.write("\n")  # a line cut short by a crash stays on its own line, ignored
        for result in _results(args, how, todo, workers, scheduler):
            f.write(json.dumps(result) + "\n")
            f.flush()
            finished += 1
            bar(finished, total, result)
    return summarise(out, seeds)


def _results(args, how, todo, workers, scheduler):
    if not todo:
        return
    if scheduler is not None:
        yield from _dask(scheduler, args, how, todo)
        return
    # Spawned, not forked: a forked worker inherits the Z3 terms its parent built, and those
    # change Z3's search (ADR 0008's addendum), so a deal's path — and, where budgets are wall
    # clock, its verdict — would depend on what the caller did before the sweep.
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(solve_seed, *args, s, how) for s in todo]
        for fut in as_completed(futures):
            yield fut.result()


def _dask(scheduler, args, how, todo):
    try:
        from dask.distributed import Client, as_completed as dask_completed
    except ImportError:
        raise StateError("--scheduler needs Dask: pip install 'zoospec[dask]'") from None
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        futures = [client.submit(solve_seed, *args, s, how, pure=False) for s in todo]
        for fut in dask_completed(futures):
            yield fut.result()
    finally:
        if client is not scheduler:
            client.close()


def summarise(out: Path, seeds: list[int]) -> dict:
    """Verdicts of the seeds asked for (the file may hold others): counts, share winnable among
    the decided, and the distribution of the best score where --best gave one."""
    wanted, rows = set(seeds), {}
    for line in Path(out).read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("seed") in wanted:
            rows[r["seed"]] = r
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
