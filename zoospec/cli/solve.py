"""`zoospec solve` — a spec's puzzle for one deal, answered exactly (solvers/puzzle/search.py)."""
from __future__ import annotations

import json
import os
import sys

from zoospec.solvers.play import picture
from zoospec.solvers.puzzle import deals, portfolio, search as puzzle, sweep

from .. import files
from ..engines import interrupt
from ..errors import StateError
from ..front.catalog import game_path, readings_arg, switches_arg
from ..front.loader import load_named
from ..front.output import emit
from .analysis import guarded
from .options import add_dump_smt2, add_game_choices, add_set, at_least, check_writable, fixed_deal, positive, start_dump


def add_parser(sub):
    p = sub.add_parser("solve", help="is the puzzle's target reachable for this deal? a certified plan, or UNSAT with the goals that conflict")
    p.add_argument("game", help="a bundled game name (e.g. zoo-ography) or a spec file")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--deal", metavar="FILE", help="the deal: a YAML or JSON mapping of the puzzle's deal variables")
    which.add_argument("--seed", type=int, help="deal with this seed instead, as `sweep` does (the deal is printed)")
    add_set(p)
    p.add_argument("--objectives", action="append", metavar="SLOT=NAME,...",
                   help="put these objectives in the deal (e.g. gold3=cliff,gold2=savanna); the deal rules must still hold")
    p.add_argument("--given", metavar="FILE[:VAR,...]",
                   help="fix parts of the record in advance (a layout to complete: plan.json:at,side,turned); "
                        "FILE is a mapping of record variables or a plan; the verdict is about records with them")
    p.add_argument("--target", type=int, help="the score to reach (default: the puzzle's target)")
    p.add_argument("--best", action="store_true", help="the highest score reachable, with its plan, when the target is not")
    _how_asked(p, "ask the whole record one proposed layout at a time (the puzzle's layout_first section; ADR 0016); "
                  "the default when the puzzle names a layout and --given fixes none of it")
    p.add_argument("--timeout", type=positive, default=600.0, help="seconds in all (default 600); past it: unknown")
    p.add_argument("--workers", type=at_least(1), default=1,
                   help="ask the same question in N processes at once, each on its own random seed (Z3's and Yices'); the first "
                        "decisive answer wins (solvers/puzzle/portfolio.py; default 1)")
    add_game_choices(p)
    p.add_argument("--plan", metavar="FILE", help="save the certified plan (zoospec replay re-checks it)")
    p.add_argument("--svg", metavar="FILE", help="draw the finished record as SVG")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_dump_smt2(p)
    p.set_defaults(fn=cmd_solve)
    w = sub.add_parser("sweep", help="solve many seeded deals, one JSON line each as they finish; resumes where it stopped")
    w.add_argument("game", help="a bundled game name (e.g. zoo-ography) or a spec file")
    w.add_argument("--deals", required=True, metavar="SEEDS", help="the seeds to deal, e.g. 1-1000 or 3,5,9-12")
    w.add_argument("--out", required=True, metavar="FILE", help="results, one JSON line per deal (appended; seeds already there are skipped)")
    w.add_argument("--workers", type=at_least(1), default=os.cpu_count() or 1,
                   help="local worker processes (default: one per core; Z3 runs one thread per process)")
    w.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://host:8786 (pip install 'zoospec[dask]')")
    w.add_argument("--timeout", type=positive, default=600.0, help="seconds per deal (default 600); past it: unknown")
    w.add_argument("--target", type=int, help="the score to reach (default: the puzzle's target)")
    w.add_argument("--best", action="store_true", help="the best score of each deal, not only whether the target is reached")
    w.add_argument("--retry-unknown", action="store_true",
                   help="ask again the deals whose answer in --out is unknown (say with a longer --timeout)")
    add_set(w)
    _how_asked(w, "ask each deal one proposed layout at a time (as solve --layout-first); the default when the puzzle names a layout")
    add_game_choices(w)
    w.add_argument("--json", action="store_true", help="print the summary as JSON")
    w.set_defaults(fn=cmd_sweep)


def _how_asked(p, layout_help):
    """--layout-first or --whole-record; neither: puzzle.asks_layout_first decides (ADR 0020)."""
    how = p.add_mutually_exclusive_group()
    how.add_argument("--layout-first", dest="layout_first", action="store_const", const=True, default=None, help=layout_help)
    how.add_argument("--whole-record", dest="layout_first", action="store_const", const=False,
                     help="ask the whole record as one question, even where the puzzle names a layout")


@guarded
def cmd_solve(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    check_writable(plan=args.plan, svg=args.svg)  # before the search, not after a certified answer
    start_dump(args)
    if args.deal is not None:
        deal = puzzle.read_deal(g, args.deal)
    else:
        deal = deals.deal(g, args.seed, fixed_deal(args.fixed))
    if args.objectives:
        deal = puzzle.with_objectives(g, deal, args.objectives)
    broken = puzzle.deal_problems(g, deal)
    if broken:
        raise StateError("no setup deals this: it breaks " + "; ".join(broken))
    shown = puzzle.deal_json(g, deal)
    if not args.json and (args.seed is not None or args.objectives):
        print(("deal" if args.seed is None else f"deal {args.seed}") + ": " + json.dumps(shown))
    given = puzzle.read_given(g, args.given) if args.given else None
    progress = None if args.json else (lambda msg: print(f"  … {msg}", file=sys.stderr, flush=True))
    how = {"target": args.target, "best": args.best, "timeout": args.timeout,
           "layout_first": puzzle.asks_layout_first(g, given, args.layout_first)}  # refused here, once, not by every worker
    if args.workers > 1:  # Ctrl-C: each worker stops and reports its best so far (portfolio.solve)
        v = portfolio.solve(str(game_path(args.game)), readings_arg(args.reading), switches_arg(args.switches), g, deal,
                            args.workers, given=args.given, progress=progress, **how)
    else:
        with interrupt.ctrl_c_stops() as ctrl_c:  # the search stops where it is; its best so far is shown
            v = puzzle.solve(g, deal, progress=progress, given=given, **how)
        if ctrl_c.came and v.status == "unknown":
            said = v.reason not in ("", "unknown", "canceled")  # an engine's word for being stopped says nothing
            v.interrupted = True
            v.reason = v.reason if v.reason.startswith("interrupted") else "interrupted" + (f" ({v.reason})" if said else "")
    interrupted = v.interrupted
    if v.record is not None and args.plan:
        puzzle.save_plan(g, str(game_path(args.game)), deal, v, args.plan, readings_arg(args.reading), switches_arg(args.switches))
    if v.record is not None and args.svg:
        files.write_text(args.svg, picture.svg(g, v.record))
    plan = puzzle.plan_text(g, v.record) if v.record is not None else []
    if args.json:
        emit("solve", {"status": v.status, "interrupted": interrupted, "deal": shown, "given": v.given, "layouts": v.layouts,
                          "target": v.target, "score": v.score, "best": v.best,
                          "proved_below": v.proved_below, "core": v.core, "reason": v.reason,
                          "seconds": round(v.seconds, 2), "plan": plan,
                          "record": g.state_to_json(v.record) if v.record is not None else None})
    else:
        _print(g, v, plan, interrupted)
    if interrupted:
        print("interrupted: what was found so far is above", file=sys.stderr)
        return 130
    return {"reachable": 0, "unreachable": 1}.get(v.status, 3)


def _print(g, v, plan, interrupted: bool = False):
    head = {"reachable": f"REACHABLE — a certified record scores {v.score} (target {v.target})",
            "unreachable": f"UNREACHABLE — UNSAT: no finished record scores {v.target}",
            "unknown": f"UNKNOWN — no answer within the timeout ({v.reason})"}[v.status]
    if interrupted:
        head = f"INTERRUPTED — {v.reason}" + (f"; the best certified so far scores {v.score}" if v.score is not None else "")
    if v.best and v.status == "unreachable" and v.score is not None:
        head = f"BEST {v.score} — a certified record scores {v.score}; UNSAT: none scores {v.proved_below} or more (target {v.target})"
    if v.status == "unknown" and v.proved_below is not None:
        head += f"; still proved (UNSAT): no record scores {v.proved_below} or more"
    if v.given:
        head += f" — among records with the given {', '.join(v.given)}"
    print(f"{head}  [{v.seconds:.1f}s]")
    if v.core:
        print("these cannot all hold at once (a minimal unsat core: goals, and rule ids when the bound decided):")
        for c in v.core:
            print(f"  {c}")
    elif v.reason and v.status == "unreachable":
        print(f"  {v.reason}")
    if v.record is not None:
        print("the plan, point by point (what the record adds at each):")
        for line in plan:
            print(f"  {line}")
        print(picture.text(g, v.record))


@guarded
def cmd_sweep(args) -> int:
    g = load_named(args.game, args.reading, args.switches)  # a bad spec or reading fails here, not in every worker
    seeds = deals.parse_range(args.deals)
    layout_first = puzzle.asks_layout_first(g, None, args.layout_first)  # refused here, once, not by every worker
    summary = sweep.run(str(game_path(args.game)), seeds, args.out, workers=args.workers, scheduler=args.scheduler,
                        timeout=args.timeout, target=args.target, best=args.best, deal_options=fixed_deal(args.fixed), layout_first=layout_first,
                        readings=readings_arg(args.reading), switches=switches_arg(args.switches), retry_unknown=args.retry_unknown,
                        progress=None if args.json else sweep.progress_bar)
    if args.json:
        emit("sweep", summary)
    else:
        if summary["interrupted"]:
            print(file=sys.stderr)  # off the progress bar's line
        share = summary["winnable_share"]
        print(f"{summary['deals']} of {summary['asked']} deals in {args.out}: {summary['reachable']} reachable, "
              f"{summary['unreachable']} unreachable, {summary['unknown']} unknown (timeout)")
        print(f"winnable share of the decided deals: {'-' if share is None else f'{share:.1%}'}; "
              f"median seconds per deal: {summary['seconds_median']}")
        if summary["best_scores"]:
            print("best score: " + ", ".join(f"{k}: {n}" for k, n in summary["best_scores"].items()))
    if summary["interrupted"]:
        print(f"interrupted: the answers so far are in {args.out}; the same command goes on where it stopped",
              file=sys.stderr)
        return 130
    return 0
