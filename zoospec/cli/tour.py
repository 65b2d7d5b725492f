"""`zoospec` / `zoospec tour` — the main job: every bundled game's questions within a budget, on
every core, one line per answer as it comes (on a terminal or not), then the summary table; and
`zoospec cache`, where the answers are remembered (solvers/analysis/tour.py)."""
from __future__ import annotations

import contextlib
import os
import sys
import time

from zoospec.solvers.analysis import report, tour
from zoospec.solvers.analysis.answer_cache import AnswerCache, cache_dir

from ..errors import StateError
from ..front.catalog import bundled, game_path
from ..front.output import emit
from .analysis import guarded
from .live import TourDisplay
from .options import at_least, positive

DEFAULT_BUDGET = 240.0  # with loading and the table, the whole tour inside five minutes


def add_parsers(sub):
    p = sub.add_parser("tour", help="every bundled game: validate, check, ambiguities, fixtures, coverage — within a budget")
    p.add_argument("--games", nargs="*", help="only these games: bundled names or spec files")
    p.add_argument("--budget", type=positive, default=DEFAULT_BUDGET, metavar="SECONDS",
                   help=f"the whole tour's time (default {DEFAULT_BUDGET:.0f}); a question not answered in it is unknown (budget)")
    p.add_argument("--timeout", type=positive, metavar="SECONDS",
                   help="at most this long for any one question (default: each kind's own, 30-60 s)")
    p.add_argument("--workers", type=at_least(1), default=os.cpu_count() or 1, help="processes asking questions at once (default: one per core)")
    p.add_argument("--rulebooks", metavar="DIR", help="where the rulebook texts are, for coverage (the project ships none; default: beside the project)")
    p.add_argument("--no-cache", action="store_true", help="ask everything again (answers are still remembered)")
    p.add_argument("--deep", action="store_true", help="ask again what is remembered as unknown (a bigger --budget does too)")
    p.add_argument("--report", default="zoospec-report", metavar="DIR",
                   help="write the report here: index.html (opens from disk) and report.json (default zoospec-report)")
    p.add_argument("--no-report", action="store_true", help="write no report")
    p.add_argument("--json", action="store_true", help="the table as JSON")
    p.set_defaults(fn=cmd_tour)
    c = sub.add_parser("cache", help="where the tour's answers are remembered; --clear forgets them")
    c.add_argument("--clear", action="store_true", help="forget every remembered answer")
    c.set_defaults(fn=cmd_cache)


@guarded
def cmd_tour(args) -> int:
    games = {name: str(path) for name, path in bundled().items()}
    if args.games:  # bundled names or spec files, in the order given
        games = {name: str(game_path(name)) for name in args.games}
    if args.rulebooks and not os.path.isdir(args.rulebooks):
        raise StateError(f"--rulebooks {args.rulebooks}: no such folder")
    before = os.environ.get("ZOOSPEC_RULEBOOKS")
    if args.rulebooks:  # read by the workers' coverage questions (solvers/analysis/coverage.find_rulebook)
        os.environ["ZOOSPEC_RULEBOOKS"] = os.path.abspath(args.rulebooks)
    try:
        return _tour(args, games)
    finally:
        if before is None:
            os.environ.pop("ZOOSPEC_RULEBOOKS", None)
        else:
            os.environ["ZOOSPEC_RULEBOOKS"] = before


def _tour(args, games: dict) -> int:
    cache = AnswerCache()
    t0 = time.monotonic()
    got: list[tuple] = []
    shown = TourDisplay(len(tour.plan(games)), args.budget) if not args.json else None

    def on_answer(q, a):
        got.append((q, a))
        if shown is not None:
            shown.answered(q, f"{time.monotonic() - t0:5.0f}s  {q.game}  {q.name}: {summary(a)}")

    if shown is not None:
        print(f"zoospec tour: {len(games)} game(s), budget {args.budget:.0f} s, {args.workers} worker(s); "
              f"answers remembered in {cache.root}", flush=True)
    interrupted = False
    try:
        with shown or contextlib.nullcontext():
            tour.run(games, args.budget, args.workers, None if args.no_cache else cache, on_answer,
                     cap=args.timeout, store=cache, deep=args.deep,
                     on_start=None if shown is None else (lambda q: shown.started(q, f"{q.game}  {q.name}")))
    except KeyboardInterrupt:
        interrupted = True
    rows = [row(name, [(q, a) for q, a in got if q.game == name]) for name in games]
    page = None if args.no_report else report.write(args.report, rows, got, games, args.budget)
    if args.json:
        emit("tour", {"games": rows, "interrupted": interrupted})
    else:
        print("\n" + table(rows))
        if page is not None:
            print(f"\nreport: {page} (and report.json beside it)")
        if interrupted:
            print("interrupted: the table holds the answers so far", file=sys.stderr)
    if interrupted:
        return 130
    return 1 if any(not r["valid"] or r["unexpected"] or r["errors"] for r in rows) else 0


def cmd_cache(args) -> int:
    cache = AnswerCache()
    if args.clear:
        print(f"forgot {cache.clear()} answer(s) in {cache.root}")
        return 0
    n, size = cache.size()
    print(f"{cache.root}: {n} answer(s), {size / 1024:.0f} KiB (cache root {cache_dir()}; ZOOSPEC_CACHE moves it)")
    return 0


def summary(a: dict) -> str:
    """One answer in words."""
    s = a["status"]
    tail = " (remembered)" if a.get("cached") else f" [{a.get('seconds', 0):.1f} s]"
    if s == "invalid":
        return f"INVALID: {a['problems'][0] if a['problems'] else '?'}"
    if s == "error":
        return f"internal error: {a['error']}"
    if a.get("why") == "budget":
        return "unknown (budget)"
    if a.get("why") == "stopped":
        return f"unknown (stopped at {a['seconds']:.0f} s: past its time){tail if a.get('cached') else ''}"
    if "verdict" in a:
        v = a["verdict"]
        if v == "unknown":
            return f"unknown ({a['detail']}){tail}"
        return (f"{v} (as expected){tail}" if a["as_expected"] else f"{v.upper()} — expected to {a['expect'][:-1]}{tail}")
    if "findings" in a:
        problems = [f for f in a["findings"] if f["kind"] != "readings-agree"]
        if not problems:
            return ("readings agree" if a["findings"] else "none") + tail
        return "; ".join(f"{f['kind']}: {f['message']}" for f in problems[:3]) + (" …" if len(problems) > 3 else "") + tail
    if "fixtures" in a:
        return f"{a['fixtures']} fixtures" + (f" ({a['skipped']} subjects skipped: budget)" if a["skipped"] else "") + tail
    if "rulebook" in a:
        if a["rulebook"] is None:
            return "rulebook not found" + tail
        together = f" with {', '.join(a['with'])} ({a['alone']}% alone)" if a.get("with") else ""
        return f"{a['percent']}% of normative sentences{together} ({a['uncovered']} uncovered)" + tail
    return f"valid: {a['rules']} rules, {a['actions']} actions, {a['readings']} readings, {a['claims']} claims{tail}"


NOT_ASKED = "—"  # a question the game's spec does not pose (dead ends where every action deals)
KINDS = ("readings-differ", "readings-agree", "gap", "dead-end", "dead-action", "switched-off", "unknown")


def row(game: str, answers: list[tuple]) -> dict:
    """One game's line of the table, from its answers."""
    by = {(q.kind, q.item): a for q, a in answers}
    valid = by.get(("validate", ""), {})
    out = {"game": game, "valid": valid.get("status") == "answered", "rules": valid.get("rules"),
           "actions": valid.get("actions"), "readings": valid.get("readings"),
           "claims": {"holds": 0, "fails": 0, "unknown": 0}, "unexpected": [], "findings": dict.fromkeys(KINDS, 0),
           "fixtures": None, "fixtures_skipped": None, "coverage": None, "unknown_budget": [], "errors": [],
           "asked": sorted({q.kind for q, _ in answers}),
           "seconds": round(sum(a.get("seconds", 0.0) for _, a in answers if not a.get("cached")), 1)}
    for q, a in answers:
        if a.get("why") == "budget":
            out["unknown_budget"].append(q.name)
        if a["status"] == "error":
            out["errors"].append(f"{q.name}: {a['error']}")
        if q.kind == "claim":
            v = a.get("verdict", "unknown")
            out["claims"][v] += 1
            if not a.get("as_expected", True):
                out["unexpected"].append(q.item)
        elif "findings" in a:
            for f in a["findings"]:
                out["findings"][f["kind"]] += 1
        elif q.kind == "fixtures" and "fixtures" in a:
            out["fixtures"], out["fixtures_skipped"] = a["fixtures"], a["skipped"]
        elif q.kind == "coverage" and a.get("rulebook"):
            out["coverage"] = {"percent": a["percent"], "uncovered": a["uncovered"], "dangling": a["dangling"],
                               "with": a.get("with", []), "alone": a.get("alone", a["percent"])}
    return out


def table(rows) -> str:
    head = ["game", "rules", "claims held/failed/unknown", "not as expected", "readings differ/agree", "gaps",
            "dead ends", "fixtures", "coverage", "seconds"]
    out = [head]
    for r in rows:
        if not r["valid"]:
            out.append([r["game"], "INVALID"] + [""] * (len(head) - 2))
            continue
        budget = set(r["unknown_budget"])

        def cell(value, kinds):  # a column whose questions all ran out of budget says so
            return "unknown (budget)" if kinds and kinds <= budget else value
        c, f = r["claims"], r["findings"]
        reading_qs = {n for n in budget if n.startswith("reading ")}
        dead = str(f["dead-end"] + f["dead-action"]) + (f" ({f['switched-off']} switched off)" if f["switched-off"] else "")
        dead = dead if "dead-ends" in r["asked"] else NOT_ASKED
        out.append([r["game"], str(r["rules"]), f"{c['holds']}/{c['fails']}/{c['unknown']}", str(len(r["unexpected"])),
                    f"{f['readings-differ']}/{f['readings-agree']}" + (f" ({len(reading_qs)} unknown (budget))" if reading_qs else ""),
                    cell(str(f["gap"]), {"gaps"}), cell(dead, {"dead-ends"}),
                    cell("?" if r["fixtures"] is None else str(r["fixtures"]) + (f" ({r['fixtures_skipped']} skipped)" if r["fixtures_skipped"] else ""), {"fixtures"}),
                    cell("n/a" if r["coverage"] is None else f"{r['coverage']['percent']}%"
                         + (f" (with {'+'.join(r['coverage']['with'])})" if r["coverage"]["with"] else ""), {"coverage"}),
                    str(r["seconds"])])
    widths = [max(len(row[i]) for row in out) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in out)
