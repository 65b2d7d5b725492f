"""`zoospec solve` — a spec's puzzle for one deal, answered exactly (solvers/puzzle/search.py)."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from zoospec.solvers import traces
from zoospec.solvers.games.zoo_ography import draft_deals, draft_result
from zoospec.solvers.play import picture
from zoospec.solvers.puzzle import deals, portfolio, search as puzzle, sweep

from ..errors import StateError
from ..front.catalog import game_path
from ..front.loader import load
from .analysis import _readings, _switches, game_of, guarded, load_game


def add_parser(sub):
    p = sub.add_parser("solve", help="is the puzzle's target reachable for this deal? a certified plan, or UNSAT with the goals that conflict")
    p.add_argument("game", help="a bundled game name (e.g. zoo-ography) or a spec file")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--deal", metavar="FILE", help="the deal: a YAML or JSON mapping of the puzzle's deal variables")
    which.add_argument("--seed", type=int, help="deal with this seed instead, as `sweep` does (the deal is printed)")
    p.add_argument("--advanced", action="store_true", help="with --seed: deal the advanced game")
    p.add_argument("--objectives", action="append", metavar="SLOT=NAME,...",
                   help="put these objectives in the deal (e.g. gold3=cliff,gold2=savanna); the deal rules must still hold")
    p.add_argument("--given", metavar="FILE[:VAR,...]",
                   help="fix parts of the record in advance (a layout to complete: plan.json:at,side,turned); "
                        "FILE is a mapping of record variables or a plan; the verdict is about records with them")
    p.add_argument("--target", type=int, help="the score to reach (default: the puzzle's target)")
    p.add_argument("--best", action="store_true", help="the highest score reachable, with its plan, when the target is not")
    _how_asked(p, "ask the whole record one proposed layout at a time (the puzzle's layout_first section; ADR 0016); "
                  "the default when the puzzle names a layout and --given fixes none of it")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds in all (default 600); past it: unknown")
    p.add_argument("--workers", type=int, default=1,
                   help="ask the same question in N processes at once, each on its own Z3 random seed; the first "
                        "decisive answer wins (solvers/puzzle/portfolio.py; default 1)")
    p.add_argument("--reading", action="append", metavar="ID=CHOICE", help="choose a reading (repeatable)")
    p.add_argument("--with", dest="switches", action="append", metavar="SWITCH,...", help="turn on expansions (the spec's switches)")
    p.add_argument("--plan", metavar="FILE", help="save the certified plan (zoospec replay re-checks it)")
    p.add_argument("--svg", metavar="FILE", help="draw the finished record as SVG")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(fn=cmd_solve)
    w = sub.add_parser("sweep", help="solve many seeded deals, one JSON line each as they finish; resumes where it stopped")
    w.add_argument("game", help="a bundled game name (e.g. zoo-ography) or a spec file")
    w.add_argument("--deals", required=True, metavar="SEEDS", help="the seeds to deal, e.g. 1-1000 or 3,5,9-12")
    w.add_argument("--out", required=True, metavar="FILE", help="results, one JSON line per deal (appended; seeds already there are skipped)")
    w.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="local worker processes (default: one per core; Z3 runs one thread per process)")
    w.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://host:8786 (pip install 'zoospec[dask]')")
    w.add_argument("--timeout", type=float, default=600.0, help="seconds per deal (default 600); past it: unknown")
    w.add_argument("--target", type=int, help="the score to reach (default: the puzzle's target)")
    w.add_argument("--best", action="store_true", help="the best score of each deal, not only whether the target is reached")
    w.add_argument("--advanced", action="store_true", help="deal the advanced game (a bronze objective)")
    _how_asked(w, "ask each deal one proposed layout at a time (as solve --layout-first); the default when the puzzle names a layout")
    w.add_argument("--reading", action="append", metavar="ID=CHOICE", help="choose a reading (repeatable)")
    w.add_argument("--with", dest="switches", action="append", metavar="SWITCH,...", help="turn on expansions (the spec's switches)")
    w.add_argument("--json", action="store_true", help="print the summary as JSON")
    w.set_defaults(fn=cmd_sweep)
    d = sub.add_parser("draft-deal", help="one player's multiplayer zoo deal from a played draft (a zoo-ography-draft trace)")
    d.add_argument("trace", help="a trace of zoo-ography-draft (zoospec play zoo-ography-draft --trace FILE)")
    d.add_argument("--seat", type=int, required=True, help="the player whose zoo it is")
    d.add_argument("--tiles", required=True, metavar="TILE,...",
                   help="the tile the player took on each turn, in order (the draft counts tiles, it does not name them)")
    d.add_argument("--objectives", action="append", metavar="SLOT=NAME,...", help="the objectives on the board (default: the spec's start)")
    d.add_argument("--card", help="the player's layout card (default: the spec's start)")
    d.add_argument("--advanced", action="store_true", help="the advanced game")
    d.add_argument("--mono", help="a Connections draft: the monorail layout revealed at setup (e.g. ml1)")
    d.add_argument("--regions", metavar="REGION,...",
                   help="a World Exhibits draft: the region of each general sponsor card the player took, in order "
                        "(the draft knows a card's size, not its region)")
    d.add_argument("--sponsors", metavar="CARD,...",
                   help="a World Exhibits draft, instead of --regions: the sponsor card of each card the player took, general "
                        "and secluded, in order (ids of the zoo spec's sponsor_card, e.g. sp06); their icons are the regions")
    d.add_argument("--rewarded", metavar="CARD,...",
                   help="with --sponsors: the card each of the player's card-reward moves flipped, in order; the zoo then "
                        "checks that card's request in that build phase")
    d.add_argument("--markers", metavar="REGION,...",
                   help="with --sponsors: the region of the marker each of the player's marker-reward moves flipped, in order "
                        "(a marker comes with the marked card of its region); the zoo checks that marker's request")
    d.add_argument("--out", metavar="FILE", help="write the deal here (JSON, which `solve --deal` reads); default: print it")
    d.set_defaults(fn=cmd_draft_deal)
    r = sub.add_parser("draft-result", help="a played multiplayer draft and one zoo plan per seat, checked against each other; the winner")
    r.add_argument("trace", help="a trace of zoo-ography-draft that has ended")
    r.add_argument("--zoo", action="append", required=True, metavar="SEAT=PLAN",
                   help="a seat's zoo: a plan saved by `zoospec solve zoo-ography --with multiplayer --plan` (one per seat)")
    r.add_argument("--json", action="store_true", help="machine-readable output")
    r.set_defaults(fn=cmd_draft_result)


def _how_asked(p, layout_help):
    """--layout-first or --whole-record; neither: puzzle.asks_layout_first decides (ADR 0020)."""
    how = p.add_mutually_exclusive_group()
    how.add_argument("--layout-first", dest="layout_first", action="store_const", const=True, default=None, help=layout_help)
    how.add_argument("--whole-record", dest="layout_first", action="store_const", const=False,
                     help="ask the whole record as one question, even where the puzzle names a layout")


@guarded
def cmd_solve(args) -> int:
    if args.workers < 1:
        raise StateError("--workers must be at least 1")
    g = load_game(args.game, args.reading, args.switches)
    if args.deal is not None:
        deal = puzzle.read_deal(g, args.deal)
    else:
        deal = deals.deal(g, args.seed, advanced=args.advanced)
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
    if args.workers > 1:
        v = portfolio.solve(str(game_path(args.game)), _readings(args.reading), _switches(args.switches), g, deal,
                            args.workers, given=args.given, progress=progress, **how)
    else:
        v = puzzle.solve(g, deal, progress=progress, given=given, **how)
    if v.record is not None and args.plan:
        puzzle.save_plan(g, str(game_path(args.game)), deal, v, args.plan, _readings(args.reading), _switches(args.switches))
    if v.record is not None and args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(picture.svg(g, v.record))
    plan = puzzle.plan_text(g, v.record) if v.record is not None else []
    if args.json:
        print(json.dumps({"status": v.status, "deal": shown, "given": v.given, "layouts": v.layouts,
                          "target": v.target, "score": v.score, "best": v.best,
                          "proved_below": v.proved_below, "core": v.core, "reason": v.reason,
                          "seconds": round(v.seconds, 2), "plan": plan,
                          "record": g.state_to_json(v.record) if v.record is not None else None}, indent=2))
    else:
        _print(g, v, plan)
    return {"reachable": 0, "unreachable": 1}.get(v.status, 3)


def _print(g, v, plan):
    head = {"reachable": f"REACHABLE — a certified record scores {v.score} (target {v.target})",
            "unreachable": f"UNREACHABLE — UNSAT: no finished record scores {v.target}",
            "unknown": f"UNKNOWN — no answer within the timeout ({v.reason})"}[v.status]
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
    g = load_game(args.game, args.reading, args.switches)  # a bad spec or reading fails here, not in every worker
    seeds = deals.parse_range(args.deals)
    if args.workers < 1:
        raise StateError("--workers must be at least 1")
    layout_first = puzzle.asks_layout_first(g, None, args.layout_first)  # refused here, once, not by every worker
    summary = sweep.run(str(game_path(args.game)), seeds, args.out, workers=args.workers, scheduler=args.scheduler,
                        timeout=args.timeout, target=args.target, best=args.best, advanced=args.advanced, layout_first=layout_first,
                        readings=_readings(args.reading), switches=_switches(args.switches), progress=None if args.json else sweep.progress_bar)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        share = summary["winnable_share"]
        print(f"{summary['deals']} of {summary['asked']} deals in {args.out}: {summary['reachable']} reachable, "
              f"{summary['unreachable']} unreachable, {summary['unknown']} unknown (timeout)")
        print(f"winnable share of the decided deals: {'-' if share is None else f'{share:.1%}'}; "
              f"median seconds per deal: {summary['seconds_median']}")
        if summary["best_scores"]:
            print("best score: " + ", ".join(f"{k}: {n}" for k, n in summary["best_scores"].items()))
    return 0


def _json_file(path: str, what: str) -> dict:
    """A JSON object from a file, or an error naming the file and what it should have been."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise StateError(f"{path}: cannot read it ({e.strerror})") from None
    except ValueError as e:
        raise StateError(f"{path}: not JSON ({e}); expected {what}") from None
    if not isinstance(data, dict):
        raise StateError(f"{path}: expected {what}")
    return data


def _draft_trace(path):
    """A zoo-ography-draft trace file, with the draft spec under its own readings and switches."""
    data = _json_file(path, "a trace of zoo-ography-draft")
    meta = data.get("#meta", {})
    if meta.get("kind") == "plan":
        raise StateError(f"{path} is a zoo's plan; expected a trace of zoo-ography-draft (zoospec play --trace)")
    return traces.load_itf(game_of(meta), data)


@guarded
def cmd_draft_deal(args) -> int:
    """A deal for `solve zoo-ography --with multiplayer`: the seat's actions and animals read from
    the draft's trace, its tiles named by the caller; judged by the zoo spec's deal rules."""
    trace = _draft_trace(args.trace)
    rails = bool(trace.game.switches.get("connections"))
    if rails != bool(args.mono):
        raise StateError("a Connections draft's zoo needs --mono (the monorail layout revealed at setup)" if rails
                         else "--mono is for a Connections draft; this one is played without it")
    switched = ["multiplayer"] + [s for s in ("connections", "world_exhibits") if trace.game.switches.get(s)]
    zoo = load_game("zoo-ography", None, switched)
    start = zoo.state_to_json(zoo.start_state())
    tiles = [t.strip() for t in args.tiles.split(",") if t.strip()]
    regions, sponsors, rewarded, markers = ([r.strip() for r in (a or "").split(",") if r.strip()]
                                            for a in (args.regions, args.sponsors, args.rewarded, args.markers))
    raw = draft_deals.deal_from_draft(zoo, trace, args.seat, tiles, start["goal"], args.card or start["card"], args.advanced,
                                      args.mono or "no_monorail", regions, sponsors, rewarded, markers)
    deal = puzzle.deal_from_data(zoo, raw, args.trace)
    if args.objectives:
        deal = puzzle.with_objectives(zoo, deal, args.objectives)
    broken = puzzle.deal_problems(zoo, deal)
    if broken:
        raise StateError("the draft and the tiles make no deal: it breaks " + "; ".join(broken))
    text = json.dumps({"with": switched, **puzzle.deal_json(zoo, deal)}, indent=1) + "\n"
    if not args.out:
        print(text, end="")
        return 0
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"{args.out}: seat {args.seat}'s zoo deal, {len(tiles)} turns; solve it with "
          f"zoospec solve zoo-ography --with {','.join(switched)} --deal {args.out}")
    return 0


@guarded
def cmd_draft_result(args) -> int:
    """Exit 0 when every zoo is a certified finished record that took what the draft gave its seat
    and no tile is in two zoos (the winner is printed), 1 when something disagrees."""
    trace = _draft_trace(args.trace)
    plans = {}
    for item in args.zoo:
        seat, eq, path = item.partition("=")
        if not eq or not seat.strip().isdigit():
            raise StateError(f"--zoo: expected SEAT=PLAN, got {item!r}")
        data = _json_file(path, "a zoo's plan (zoospec solve --plan)")
        if data.get("#meta", {}).get("kind") != "plan" or not data["#meta"].get("switches", {}).get("multiplayer"):
            raise StateError(f"--zoo {item}: not a plan of a multiplayer zoo (zoospec solve zoo-ography --with multiplayer --plan)")
        meta = data["#meta"]  # each zoo judged under the readings and switches it was solved with
        plans[int(seat)] = (load(game_path("zoo-ography"), readings=meta.get("readings") or {}, switches=meta["switches"]), data)
    res = draft_result.check(trace, plans)
    if args.json:
        print(json.dumps({"ok": res.ok, "winner": res.winner, "problems": res.problems,
                          "zoos": [{"seat": z.seat, "rating": z.rating, "animal_rating": z.animal_rating,
                                    "problems": z.problems} for z in res.zoos]}, indent=2))
    else:
        for z in res.zoos:
            print(f"seat {z.seat}: rating {z.rating} half stars, animal rating {z.animal_rating}"
                  + ("" if not z.problems else f" — {len(z.problems)} problem(s):"))
            for p in z.problems[:10]:
                print(f"    {p}")
        for p in res.problems:
            print(f"  {p}")
        print(f"the winner: seat {res.winner} (the draft's end rule, zgd.end.winner)" if res.ok
              else "the zoos and the draft disagree: no winner is named")
    return 0 if res.ok else 1
