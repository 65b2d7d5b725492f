"""Zoo-ography's own commands: `draft-deal` (one seat's solo deal read off a played multiplayer
draft) and `draft-result` (a draft and one zoo per seat checked against each other, the winner by
the draft's end rule) — the draft and the zoo are two specs, and the link between them is still
Python (ADR 0017)."""
from __future__ import annotations

import json

from zoospec import files
from zoospec.errors import StateError
from zoospec.front.catalog import game_path
from zoospec.front.jsonfile import read_object
from zoospec.front.loader import load, load_recorded
from zoospec.front.output import emit

from ... import traces
from ...puzzle import search as puzzle
from . import draft_deals, draft_result


def commands() -> list:
    return [("draft-deal", "one player's multiplayer zoo deal from a played draft (a zoo-ography-draft trace)", _draft_deal_arguments, run_draft_deal),
            ("draft-result", "a played multiplayer draft and one zoo plan per seat, checked against each other; the winner", _draft_result_arguments, run_draft_result)]


def _draft_deal_arguments(p):
    p.add_argument("trace", help="a trace of zoo-ography-draft (zoospec play zoo-ography-draft --trace FILE)")
    p.add_argument("--seat", type=int, required=True, help="the player whose zoo it is")
    p.add_argument("--tiles", required=True, metavar="TILE,...",
                   help="the tile the player took on each turn, in order (the draft counts tiles, it does not name them)")
    p.add_argument("--objectives", action="append", metavar="SLOT=NAME,...", help="the objectives on the board (default: the spec's start)")
    p.add_argument("--card", help="the player's layout card (default: the spec's start)")
    p.add_argument("--advanced", action="store_true", help="the advanced game")
    p.add_argument("--advanced-layout", action="store_true",
                   help="the player plays their layout card's advanced side (each player's own choice)")
    p.add_argument("--mono", help="a Connections draft: the monorail layout revealed at setup (e.g. ml1)")
    p.add_argument("--regions", metavar="REGION,...",
                   help="a World Exhibits draft: the region of each general sponsor card the player took, in order "
                        "(the draft knows a card's size, not its region)")
    p.add_argument("--sponsors", metavar="CARD,...",
                   help="a World Exhibits draft, instead of --regions: the sponsor card of each card the player took, general "
                        "and secluded, in order (ids of the zoo spec's sponsor_card, e.g. sp06); their icons are the regions")
    p.add_argument("--rewarded", metavar="CARD,...",
                   help="with --sponsors: the card each of the player's card-reward moves flipped, in order; the zoo then "
                        "checks that card's request in that build phase")
    p.add_argument("--markers", metavar="REGION,...",
                   help="with --sponsors: the region of the marker each of the player's marker-reward moves flipped, in order "
                        "(a marker comes with the marked card of its region); the zoo checks that marker's request")
    p.add_argument("--out", metavar="FILE", help="write the deal here (JSON, which `solve --deal` reads); default: print it")


def _draft_result_arguments(p):
    p.add_argument("trace", help="a trace of zoo-ography-draft that has ended")
    p.add_argument("--zoo", action="append", required=True, metavar="SEAT=PLAN",
                   help="a seat's zoo: a plan saved by `zoospec solve zoo-ography --with multiplayer --plan` (one per seat)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _draft_trace(path):
    """A zoo-ography-draft trace file, with the draft spec under its own readings and switches."""
    data = read_object(path, "a trace of zoo-ography-draft")
    meta = data.get("#meta", {})
    if meta.get("kind") == "plan":
        raise StateError(f"{path} is a zoo's plan; expected a trace of zoo-ography-draft (zoospec play --trace)")
    return traces.load_itf(load_recorded(meta, path), data)


def run_draft_deal(args) -> int:
    """A deal for `solve zoo-ography --with multiplayer`: the seat's actions and animals read from
    the draft's trace, its tiles named by the caller; judged by the zoo spec's deal rules."""
    trace = _draft_trace(args.trace)
    rails = bool(trace.game.switches.get("connections"))
    if rails != bool(args.mono):
        raise StateError("a Connections draft's zoo needs --mono (the monorail layout revealed at setup)" if rails
                         else "--mono is for a Connections draft; this one is played without it")
    switched = ["multiplayer"] + [s for s in ("connections", "world_exhibits") if trace.game.switches.get(s)]
    zoo = load(game_path("zoo-ography"), switches=dict.fromkeys(switched, True))
    start = zoo.state_to_json(zoo.start_state())
    tiles = [t.strip() for t in args.tiles.split(",") if t.strip()]
    regions, sponsors, rewarded, markers = ([r.strip() for r in (a or "").split(",") if r.strip()]
                                            for a in (args.regions, args.sponsors, args.rewarded, args.markers))
    raw = draft_deals.deal_from_draft(zoo, trace, args.seat, tiles, start["goal"], args.card or start["card"], args.advanced,
                                      args.advanced_layout, args.mono or "no_monorail", regions, sponsors, rewarded, markers)
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
    files.write_text(args.out, text)
    print(f"{args.out}: seat {args.seat}'s zoo deal, {len(tiles)} turns; solve it with "
          f"zoospec solve zoo-ography --with {','.join(switched)} --deal {args.out}")
    return 0


def run_draft_result(args) -> int:
    """Exit 0 when every zoo is a certified finished record that took what the draft gave its seat
    and no tile is in two zoos (the winner is printed), 1 when something disagrees."""
    trace = _draft_trace(args.trace)
    plans = {}
    for item in args.zoo:
        seat, eq, path = item.partition("=")
        if not eq or not seat.strip().isdigit():
            raise StateError(f"--zoo: expected SEAT=PLAN, got {item!r}")
        data = read_object(path, "a zoo's plan (zoospec solve --plan)")
        if data.get("#meta", {}).get("kind") != "plan" or not data["#meta"].get("switches", {}).get("multiplayer"):
            raise StateError(f"--zoo {item}: not a plan of a multiplayer zoo (zoospec solve zoo-ography --with multiplayer --plan)")
        meta = data["#meta"]  # each zoo judged under the readings and switches it was solved with
        plans[int(seat)] = (load(game_path("zoo-ography"), readings=meta.get("readings") or {}, switches=meta["switches"]), data)
    res = draft_result.check(trace, plans)
    if args.json:
        emit("draft-result", {"ok": res.ok, "winner": res.winner, "problems": res.problems,
                          "zoos": [{"seat": z.seat, "rating": z.rating, "animal_rating": z.animal_rating,
                                    "problems": z.problems} for z in res.zoos]})
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
