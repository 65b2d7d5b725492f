"""A played multiplayer draft and its players' zoos, checked against each other (ADR 0017).

The draft spec (`zgd`) plays the draft and names the winner from each zoo's rating, which it takes
as an input; the solo record under `multiplayer` builds one zoo. Here they meet: each seat's plan
(a record `zoospec solve --with multiplayer` saved) must be a certified, finished zoo whose turns
took what the trace says the seat took (the deal draft_deals.deal_from_draft reads off the trace:
actions, animals, tracks; with World Exhibits, named by the zoo's own cards, the sponsor track's
plank and coin and the phase of each reward), no tile or sponsor card may be in two zoos (the
draft hands each to one player), and the zoos' ratings, set into the
draft's last state, let the draft's own end rule name the winner. Every value comes from the two
specs' rules, evaluated by the Python back end; nothing about scoring or winning is restated here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from zoospec.errors import StateError

from ...puzzle import search as puzzle
from ...symbolic import py_value
from . import draft_deals


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


# The deal fields of a World Exhibits zoo that the draft decides, each compared with what the
# draft gave its seat (read from the trace with the zoo's own card names), and what it is.
SPONSOR_FIELDS = {"wider": "the sponsor track's extra plank, by turn", "coined": "the sponsor track's coin, by turn",
                  "scard": "the sponsor cards, by turn and slot", "rewarded": "the build phase of each card's reward",
                  "rboth": "the secluded cards rewarded for both conditions", "mtook": "the turn each region marker came",
                  "mrewarded": "the build phase of each region marker's reward"}


def _zoo(zoo_game, trace, seat: int, plan: dict) -> tuple[Zoo, dict]:
    z = Zoo(seat)
    record = puzzle.load_plan(zoo_game, plan)
    z.problems += puzzle.certify(zoo_game, record)  # every rule at every cut, and finished
    mine = zoo_game.state_to_json(record)
    named = _named(zoo_game, trace, seat, mine)
    try:
        theirs = draft_deals.deal_from_draft(
            zoo_game, trace, seat, _tiles_of(record), mine["goal"],
            mine["card"], mine["advanced"], mine["advanced_layout"], mine["mono"], **named)
    except StateError as e:  # e.g. the zoo's cards cannot be the ones the seat took, or flipped when the draft did
        how = " with this zoo's cards and rewards (read as draft-deal --sponsors --rewarded --markers)" if "sponsors" in named else ""
        z.problems.append(f"the draft gives seat {seat} no deal{how}: {e}")
    else:
        for u in sorted(theirs["act"], key=int):
            ours = (mine["act"].get(u), {k: n for k, n in mine["took"].get(u, {}).items() if n})
            drafts = (theirs["act"][u], {k: n for k, n in theirs["took"][u].items() if n})
            if ours != drafts:
                z.problems.append(f"turn {u}: the zoo took {ours[0]} {ours[1]}, the draft {drafts[0]} {drafts[1]}")
        ours, drafts = (sorted(int(u) for u, m in d["railed"].items() if m) for d in (mine, theirs))
        if ours != drafts:
            z.problems.append(f"monorail tracks: the zoo's came on turns {ours or 'none'}, the draft's on {drafts or 'none'}")
        for name, what in SPONSOR_FIELDS.items():
            if name in theirs and mine[name] != theirs[name]:
                ours, drafts = _differing(mine[name], theirs[name])
                z.problems.append(f"{what}: the zoo has {ours}, the draft {drafts}")
    z.rating = puzzle.score_of(zoo_game, record)
    z.animal_rating = py_value(zoo_game, zoo_game.rule("zg.score.animal-rating").body, record)
    return z, record


def _tiles_of(record: dict) -> list[str]:
    """The zoo's tiles in the order its seat took them (its deal's `deck`)."""
    return [t for _, t in sorted(record["deck"].items()) if t != "no_tile"]


def _named(zoo_game, trace, seat: int, mine: dict) -> dict:
    """World Exhibits: the zoo's own names for what its seat took and flipped, in the form
    draft_deals.deal_from_draft takes them — its cards in the order taken, and for each of the
    seat's reward moves a card (or a marker's region) the zoo claimed in that move's build phase
    with the move's spaces, where it has one. A zoo naming no card (solved from a `--regions`
    deal) gives the regions of its general sponsor animals instead. What does not fit is then
    refused by deal_from_draft with its reason, or differs from the deal it gives."""
    if not trace.game.switches.get("world_exhibits") or not zoo_game.switches.get("world_exhibits"):
        return {}
    cards = [(u, j, c) for u, slots in sorted(mine["scard"].items(), key=lambda x: int(x[0]))
             for j, c in sorted(slots.items()) if c != "no_card"]
    if not cards:
        return {"regions": _regions_taken(zoo_game, trace, seat, mine["took"])}
    catalogue = zoo_game.consts["sponsor_card"][1]

    def spaces(u, j, c):
        return catalogue[c]["icons2"] if mine["rboth"][u][j] else catalogue[c]["icons"]
    claimed = [(mine["rewarded"][u][j], spaces(u, j, c), c) for u, j, c in cards if mine["rewarded"][u][j]]
    region_of = zoo_game.consts["region_of"][1]
    name_of = {region_of[f"{name}_small"]: name for name in draft_deals.regions_of(zoo_game)}
    marked = [(phase, zoo_game.consts["marker_card"][1][int(r)]["icons"], name_of[int(r)])
              for r, phase in mine["mrewarded"].items() if phase]
    return {"sponsors": [c for _, _, c in cards], "rewarded": _matched(claimed, draft_deals.card_rewards(trace, seat)),
            "markers": _matched(marked, draft_deals.card_rewards(trace, seat, markers=True))}


def _matched(claimed: list[tuple], moves: list[tuple]) -> list[str]:
    """For each reward move (phase, spaces), in order, a claim (phase, spaces, name) of the zoo
    with the same phase and spaces — or, failing that, the same phase only, so that the refusal
    names the spaces — each claim used once; then the claims no move took, which make the counts
    differ."""
    left, out = list(claimed), []
    for move in moves:
        pick = next((c for c in left if c[:2] == move), None) or next((c for c in left if c[0] == move[0]), None)
        if pick:
            left.remove(pick)
            out.append(pick[2])
    return out + [name for _, _, name in left]


def _regions_taken(zoo_game, trace, seat: int, took: dict) -> list[str]:
    """The region of each general sponsor card the seat took, in order, read from the zoo's own
    animals on that turn (a `R_small` or `R_large` kind for the card's size); a card whose animal
    the zoo did not take keeps the first region, and the turn's animals then differ."""
    regions, out = draft_deals.regions_of(zoo_game), []
    for u, picks in enumerate(draft_deals.sponsors_of(trace, seat), 1):
        left = dict(took.get(str(u), {}))
        for size in (size for secluded, size in picks if not secluded):
            suffix = f"_{draft_deals.SIZE[size]}"
            name = next((r for r in regions if left.get(r + suffix, 0) > 0), regions[0])
            left[name + suffix] = left.get(name + suffix, 0) - 1
            out.append(name)
    return out


def _differing(ours, theirs) -> tuple[dict, dict]:
    """The entries of two deal maps (nested by turn and slot) that differ, from each side."""
    if not isinstance(ours, dict):
        return ours, theirs
    keys = [k for k in ours if ours[k] != theirs.get(k)]
    pairs = {k: _differing(ours[k], theirs.get(k)) for k in keys}
    return {k: a for k, (a, _) in pairs.items()}, {k: b for k, (_, b) in pairs.items()}


def check(trace, plans: dict[int, tuple]) -> Result:
    """The zoos of `plans` (seat -> the zoo spec under the plan's readings and switches, and the
    saved plan's JSON) against the draft `trace`."""
    draft = draft_deals.recorded(trace).game
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
        tiles = [("tile", t) for t in _tiles_of(record)]
        cards = [("sponsor card", c) for _, slots in sorted(record.get("scard", {}).items())
                 for _, c in sorted(slots.items()) if c != "no_card"]
        for what, name in tiles + cards:
            if name in owner:
                problems.append(f"{name} is in the zoos of seats {owner[name]} and {seat}: the draft hands a {what} to one player")
            owner[name] = seat
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
