"""A played multiplayer draft and its players' zoos, checked against each other (ADR 0017).

The draft spec (`zgd`) plays the draft and names the winner from each zoo's rating, which it takes
as an input; the solo record under `multiplayer` builds one zoo. Here they meet: each seat's plan
(a record `zoospec solve --with multiplayer` saved) must be a certified, finished zoo whose turns
took what the trace says the seat took (draft_deals.turns_of: actions, animals, tracks), no tile
may be in two zoos (the draft hands each tile to one player), and the zoos' ratings, set into the
draft's last state, let the draft's own end rule name the winner. Every value comes from the two
specs' rules, evaluated by the Python back end; nothing about scoring or winning is restated here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import StateError
from . import draft_deals, puzzle
from .symbolic import py_value


@dataclass
class Zoo:
    seat: int
    rating: int | None = None
    animal_rating: int | None = None
    problems: list[str] = field(default_factory=list)


@dataclass
class Result:
    zoos: list[Zoo]
    problems: list[str]        # between the zoos, or between a zoo and the draft
    winner: int | None         # the draft's winner, when everything agrees

    @property
    def ok(self) -> bool:
        return not self.problems and not any(z.problems for z in self.zoos)


def _zoo(zoo_game, trace, seat: int, plan: dict) -> tuple[Zoo, dict]:
    z = Zoo(seat)
    record = puzzle.load_plan(zoo_game, plan)
    z.problems += puzzle.certify(zoo_game, record)  # every rule at every cut, and finished
    turns = draft_deals.turns_of(trace, seat)
    json_record = zoo_game.state_to_json(record)
    for u, (act, took, _) in enumerate(turns, 1):
        mine = (json_record["act"].get(str(u)), {k: n for k, n in json_record["took"].get(str(u), {}).items() if n})
        theirs = (act, {k: n for k, n in took.items() if n})
        if mine != theirs:
            z.problems.append(f"turn {u}: the zoo took {mine[0]} {mine[1]}, the draft {theirs[0]} {theirs[1]}")
    mine = sorted(u for u, m in record["railed"].items() if m)
    theirs = [u for u, (_, _, m) in enumerate(turns, 1) if m]
    if mine != theirs:
        z.problems.append(f"monorail tracks: the zoo's came on turns {mine or 'none'}, the draft's on {theirs or 'none'}")
    z.rating = puzzle.score_of(zoo_game, record)
    z.animal_rating = py_value(zoo_game, zoo_game.rule("zg.score.animal-rating").body, record)
    return z, record


def check(trace, plans: dict[int, tuple]) -> Result:
    """The zoos of `plans` (seat -> the zoo spec under the plan's readings and switches, and the
    saved plan's JSON) against the draft `trace`."""
    draft = draft_deals.recorded(trace).game
    if draft.switches.get("world_exhibits"):
        raise StateError("a World Exhibits draft: its zoos' sponsor animals have regions the draft does not record, "
                         "so their turns cannot be matched to it here yet (draft-deal takes them as --regions)")
    last = trace.states[-1]
    if not any(py_value(draft, r.body, last) is True for r in draft.rules.values() if r.kind == "end"):
        raise StateError("the draft in this trace has not ended: its zoos are scored at the end")
    seats = [p for p in draft.domains["seat"].atoms if p <= last["players"]]
    if sorted(plans) != seats:
        raise StateError(f"the draft has seats {seats}; give one zoo each (--zoo SEAT=PLAN), got {sorted(plans)}")
    zoos, problems, owner = [], [], {}
    for seat in seats:
        zoo_game, plan = plans[seat]
        z, record = _zoo(zoo_game, trace, seat, plan)
        zoos.append(z)
        for tile in (t for _, t in sorted(record["deck"].items()) if t != "no_tile"):
            if tile in owner:
                problems.append(f"{tile} is in the zoos of seats {owner[tile]} and {seat}: the draft hands a tile to one player")
            owner[tile] = seat
    lo, hi = draft.state_types["rating"].value.lo, draft.state_types["rating"].value.hi
    for z in zoos:
        if not lo <= z.rating <= hi:
            problems.append(f"seat {z.seat}'s rating {z.rating} is outside the draft's range {lo}..{hi}")
    winner = None
    if not problems and not any(z.problems for z in zoos):
        scored = dict(last)
        scored["rating"] = {**last["rating"], **{z.seat: z.rating for z in zoos}}
        scored["animal_rating"] = {**last["animal_rating"], **{z.seat: z.animal_rating for z in zoos}}
        winner = py_value(draft, draft.rule("zgd.end.winner").body, scored)
    return Result(zoos, problems, winner)
