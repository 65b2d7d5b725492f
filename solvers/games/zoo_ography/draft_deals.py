"""One player's zoo deal from a played multiplayer draft (ADR 0017).

The draft spec (`zgd`, spec/zoo-ography-draft.yaml) plays the draft; the solo record under its
switch `multiplayer` is one player's zoo. A trace of the draft says, turn by turn, which action a
player took, which animals came with it — read from the trace's own states (what the move added
to the player's planks and patch), so no rule of the draft is restated here — and, with
Connections, whether a monorail track came with its tile (the take move's own argument). It does
not say which tile: the draft counts tiles (ADR 0013), so the tiles are given by the caller, one
per turn. With World Exhibits the draft knows each sponsor card's size and whether it is secluded
(the take's own picks), not a general sponsor's region: the caller names those too, in the order
the cards were taken — or names the cards themselves (`sponsors`, ids of the zoo spec's
`sponsor_card` catalogue), whose icons are then the regions, and which card each of the seat's
card-reward moves flipped (`rewarded`) and the region of each marker a marker-reward move flipped
(`markers`; a marker comes with the marked card of its region), so that the zoo checks each
request in the build phase the reward came in. The turns with the extra plank and the sponsor track's coin are read off the
trace's states (the draft's `planks_of`, and the coins a reward move gave).
"""
from __future__ import annotations

from zoospec.errors import StateError

from ...symbolic import py_value

# The draft's take moves and the record's action each one is.
ACTIONS = {"zgd.take-animals": "two_animals", "zgd.take-column": "column",
           "zgd.take-secluded": "secluded_coin", "zgd.take-renovation": "renovation",
           "zgd.take-sponsors": "two_animals", "zgd.take-secluded-sponsor": "secluded_coin"}  # World Exhibits'
# The zoo's kind of a secluded sponsor's animal, by the draft's size of its card.
SECLUDED = {"small": "secluded", "big": "secluded_large"}
# The zoo's suffix for a general sponsor's animal of each draft size (africa_small, africa_large, ...).
SIZE = {"small": "small", "big": "large"}


def recorded(trace):
    """Refuse a trace that is not of the multiplayer draft, else return it."""
    if trace.game.id != "zgd":
        raise StateError(f"the trace is of {trace.game.id}, not of the multiplayer draft (zgd)")
    return trace


def _takes(trace, seat: int):
    """(index of the step, the step) for each take of `seat`, in order."""
    return [(i, st) for i, st in enumerate(trace.steps) if st.action in ACTIONS and st.args.get("p") == seat]


def sponsors_of(trace, seat: int) -> list[list[tuple[bool, str]]]:
    """World Exhibits: each take's sponsor cards, as (secluded?, the draft's size), in order."""
    g = trace.game
    params, secluded = g.defines["secluded_pick"]
    size = g.consts["pick_size"][1]
    return [[(py_value(g, secluded, trace.states[i], dict(zip(params, [x]))) is True, size[x])
             for x in (st.args.get("x"), st.args.get("y")) if x not in (None, "no_sponsor")]
            for i, st in _takes(trace, seat)]


def turns_of(trace, seat: int, regions: list[str] | None = None) -> list[tuple[str, dict, bool]]:
    """Each take of `seat` in order: the record's action, the animals it took, by kind, and
    whether its tile came with a monorail track (the take's `m`: Connections). With World Exhibits
    a sponsor card's animal is the zoo's kind for it: a secluded one by its size, a general one by
    the next of `regions` (the caller's) and its size."""
    g = recorded(trace).game
    kinds = g.domains["kind"].atoms
    named = iter(regions or [])
    cards = sponsors_of(trace, seat) if g.switches.get("world_exhibits") else [[] for _ in _takes(trace, seat)]
    out = []
    for (i, step), picks in zip(_takes(trace, seat), cards):
        pre, post = trace.states[i], trace.states[i + 1]
        took = {k: post["held"][seat][k] - pre["held"][seat][k] for k in kinds}
        took["secluded"] += 1 if post["patch"][seat] and not pre["patch"][seat] else 0  # onto the patch
        took["nobody"] = 0
        for secluded, size in picks:
            k = SECLUDED[size] if secluded else f"{next(named)}_{SIZE[size]}"
            took[k] = took.get(k, 0) + 1
        out.append((ACTIONS[step.action], took, bool(step.args.get("m"))))
    return out


def general_sponsors(trace, seat: int) -> int:
    """How many general sponsor cards `seat` took: the regions the caller names."""
    return sum(not secluded for picks in sponsors_of(trace, seat) for secluded, _ in picks)


def sponsor_track(trace, seat: int) -> tuple[list[bool], list[bool]]:
    """World Exhibits, per turn of `seat`: whether its action could use the extra plank (the
    draft's `planks_of` before the take is above its value at the start, when every tracker is at
    0), and whether by the end of the build phase after it a reward had given the track's coin (a
    `zgd.sponsor-reward` move of the seat that raised its coins)."""
    g = trace.game
    params, planks = g.defines["planks_of"]
    at = dict(zip(params, [seat]))
    start = py_value(g, planks, trace.states[0], at)
    takes = [i for i, _ in _takes(trace, seat)]
    wider = [py_value(g, planks, trace.states[i], at) > start for i in takes]
    coin_at = next((i for i, st in enumerate(trace.steps) if st.action == "zgd.sponsor-reward" and st.args.get("p") == seat
                    and trace.states[i + 1]["coins"][seat] > trace.states[i]["coins"][seat]), None)
    # turn u has the coin if the reward came before the next take (in u's build phase or earlier)
    coined = [coin_at is not None and coin_at < (takes[u + 1] if u + 1 < len(takes) else len(trace.steps))
              for u in range(len(takes))]
    return wider, coined


def card_rewards(trace, seat: int, markers: bool = False) -> list[tuple[int, int]]:
    """World Exhibits: each of `seat`'s reward moves that flipped a sponsor card (or with
    `markers`, a region marker), in order, as (its build phase — the number of the seat's takes
    before the move —, the spaces it moved the tracker)."""
    takes = [i for i, _ in _takes(trace, seat)]
    return [(sum(1 for j in takes if j < i), st.args.get("r")) for i, st in enumerate(trace.steps)
            if st.action == "zgd.sponsor-reward" and st.args.get("p") == seat and bool(st.args.get("t")) == markers]


def marked_of(trace, seat: int) -> list[list[bool]]:
    """World Exhibits: for each take's sponsor cards (as `sponsors_of`), whether the card carried
    a region marker (the draft's pile of the pick: its marked general sponsors)."""
    pile = trace.game.consts["pick_from"][1]
    return [[pile[x] == "draft_marked" for x in (st.args.get("x"), st.args.get("y")) if x not in (None, "no_sponsor")]
            for _, st in _takes(trace, seat)]


def _per_slot(turns: int, value) -> dict:
    """A deal map over (turn, card slot) holding `value` everywhere, in the JSON form."""
    return {str(u): {"1": value, "2": value} for u in range(1, turns + 1)}


def named_cards(zoo_game, trace, seat: int, sponsors: list[str], rewarded: list[str]) -> tuple[list[str], dict, dict, dict]:
    """The caller's sponsor cards for `seat`'s takes, checked against the draft: one per card taken,
    in order, each in the zoo spec's catalogue once, a secluded card for a secluded pick and a
    general one otherwise, of the pick's size. Returns the regions of the general ones, and the
    deal's `scard`, `rewarded` and `rboth`: each card-reward move names a card already taken and
    not yet rewarded, and moved the tracker by the card's icons (a secluded card's `icons2` when
    claimed for both conditions)."""
    catalogue = zoo_game.consts["sponsor_card"][1]
    secluded = set(zoo_game.consts["secluded_kinds"][1])
    picks = sponsors_of(trace, seat)
    if len(sponsors) != sum(map(len, picks)):
        raise StateError(f"--sponsors names {len(sponsors)} card(s); seat {seat} took {sum(map(len, picks))} sponsor card(s)")
    if len(set(sponsors)) != len(sponsors):
        raise StateError("--sponsors names a card twice; each card is taken once")
    cards, regions, turn_of = iter(sponsors), [], {}
    scard = _per_slot(len(picks), "no_card")
    for u, take in enumerate(picks, 1):
        for j, (is_secluded, size) in enumerate(take, 1):
            s = next(cards)
            if s not in catalogue or s == "no_card":
                raise StateError(f"--sponsors: {s} is not a sponsor card of the zoo spec")
            kind = catalogue[s]["kind"]
            suffix = f"_{SIZE[size]}"
            if not (kind == SECLUDED[size] if is_secluded else kind not in secluded and kind.endswith(suffix)):
                raise StateError(f"--sponsors: turn {u}'s card {j} is a {size} {'secluded' if is_secluded else 'general'} "
                                 f"sponsor in the draft; {s} is {kind}")
            scard[str(u)][str(j)], turn_of[s] = s, (u, j)
            regions += [] if is_secluded else [kind[: -len(suffix)]]
    moves = card_rewards(trace, seat)
    if len(rewarded) != len(moves):
        raise StateError(f"--rewarded names {len(rewarded)} card(s); seat {seat} flipped {len(moves)} sponsor card(s) "
                         "for their rewards, and the zoo checks each one's request")
    done, both = _per_slot(len(picks), 0), _per_slot(len(picks), False)
    for s, (phase, spaces) in zip(rewarded, moves):
        if s not in turn_of or turn_of[s][0] > phase or done[str(turn_of[s][0])][str(turn_of[s][1])]:
            raise StateError(f"--rewarded: {s} is not a card seat {seat} held unrewarded in build phase {phase}")
        card = catalogue[s]
        if spaces not in (card["icons"], card["icons2"] or card["icons"]):
            raise StateError(f"--rewarded: the reward in build phase {phase} moved the tracker {spaces} space(s); {s} gives "
                             + (f"{card['icons']}, or {card['icons2']} for both conditions" if card["icons2"] else str(card["icons"])))
        u, j = (str(x) for x in turn_of[s])
        done[u][j], both[u][j] = phase, spaces != card["icons"]
    return regions, scard, done, both


def region_markers(zoo_game, trace, seat: int, scard: dict, markers: list[str]) -> tuple[dict, dict]:
    """The deal's `mtook` and `mrewarded` (keyed by region number, `region_of`): the turn each
    marked card of `scard` (the caller's cards, `named_cards`) brought its region's marker — one
    per region — and the build phase of each marker-reward move, whose region the caller names
    (`markers`, in order): a marker held and not yet rewarded, moving the tracker its icons."""
    catalogue, region_of = zoo_game.consts["sponsor_card"][1], zoo_game.consts["region_of"][1]
    number = {name: region_of[f"{name}_small"] for name in regions_of(zoo_game)}
    took = {str(r): 0 for r in zoo_game.domains["region"].atoms}  # the sharing icon (world) is no region
    for u, marks in enumerate(marked_of(trace, seat), 1):
        for j, marked in enumerate(marks, 1):
            s = scard[str(u)][str(j)]
            if marked:
                r = str(region_of[catalogue[s]["kind"]])
                if r not in took:
                    raise StateError(f"--sponsors: {s} carried a region marker on turn {u}, but it is {catalogue[s]['kind']}, "
                                     "of no region (a marker lies on a card of its region)")
                if took[r]:
                    raise StateError(f"--sponsors: {s} carried a region marker on turn {u}, but that region's one marker "
                                     f"came on turn {took[r]}")
                took[r] = u
    moves = card_rewards(trace, seat, markers=True)
    if len(markers) != len(moves):
        raise StateError(f"--markers names {len(markers)} region(s); seat {seat} flipped {len(moves)} region marker(s) for "
                         "their rewards, and the zoo checks each one's request")
    done = {r: 0 for r in took}
    for name, (phase, spaces) in zip(markers, moves):
        r = str(number.get(name, 0))
        if r not in took or not 0 < took[r] <= phase or done[r]:
            raise StateError(f"--markers: seat {seat} held no unrewarded {name} marker in build phase {phase}")
        icons = zoo_game.consts["marker_card"][1][int(r)]["icons"]
        if spaces != icons:
            raise StateError(f"--markers: the reward in build phase {phase} moved the tracker {spaces} space(s); the {name} "
                             f"marker gives {icons}")
        done[r] = phase
    return took, done


def regions_of(zoo_game) -> list[str]:
    """The region names a general sponsor can have: the zoo's sponsor kinds `R_small` (ADR 0019)."""
    return [k[: -len("_small")] for k in zoo_game.domains["kind"].atoms if k.endswith("_small")]


def deal_from_draft(zoo_game, trace, seat: int, tiles: list[str], goal: dict, card: str, advanced: bool = False,
                    advanced_layout: bool = False, mono: str = "no_monorail", regions: list[str] | None = None, sponsors: list[str] | None = None,
                    rewarded: list[str] | None = None, markers: list[str] | None = None) -> dict:
    """The multiplayer deal (JSON form) of `seat`'s zoo: `tiles` taken on its turns, the actions,
    animals and tracks the trace shows, the objectives, layout card (and its side) and monorail layout given —
    with World Exhibits also the region of each general sponsor card taken, in order (or the cards
    themselves and the ones each reward move flipped), and the turns with the sponsor track's
    plank and coin. Judged by the zoo spec's deal rules when it is
    read (puzzle.deal_from_data, deal_problems), like any deal file."""
    if not zoo_game.switches.get("multiplayer"):
        raise StateError("a deal from a draft is for the zoo spec with its switch multiplayer on")
    switched = [s for s in ("connections", "world_exhibits") if trace.game.switches.get(s)]
    for s in ("connections", "world_exhibits"):
        if bool(trace.game.switches.get(s)) != bool(zoo_game.switches.get(s)):
            raise StateError(f"the draft and the zoo spec disagree on {s}: turn it on for both or neither")
    regions, named = list(regions or []), None
    if (sponsors or rewarded or markers) and "world_exhibits" not in switched:
        raise StateError("--sponsors, --rewarded and --markers are for a World Exhibits draft; this one is played without it")
    if (rewarded or markers) and not sponsors:
        raise StateError("--rewarded and --markers name cards and markers of --sponsors: name the cards taken too")
    if sponsors:
        if regions:
            raise StateError("--regions and --sponsors both name the regions: give the cards only")
        regions, scard, done, both = named_cards(zoo_game, trace, seat, list(sponsors), list(rewarded or []))
        named = (scard, done, both) + region_markers(zoo_game, trace, seat, scard, list(markers or []))
    if "world_exhibits" in switched:
        wanted = general_sponsors(trace, seat)
        if len(regions) != wanted:
            raise StateError(f"--regions names {len(regions)} region(s); seat {seat} took {wanted} general sponsor "
                             "card(s), and each one's region is the caller's (the draft knows its size only)")
        unknown = sorted(set(regions) - set(regions_of(zoo_game)))
        if unknown:
            raise StateError(f"--regions: {', '.join(unknown)} is not a region; the zoo spec has {', '.join(regions_of(zoo_game))}")
    elif regions:
        raise StateError("--regions is for a World Exhibits draft; this one is played without it")
    turns = turns_of(trace, seat, regions)
    n = len(zoo_game.domains["turn"].atoms)
    if len(turns) != n:
        raise StateError(f"seat {seat} took {len(turns)} turns in this trace; a finished draft gives each player {n}")
    if len(tiles) != n:
        raise StateError(f"--tiles names {len(tiles)} tiles; seat {seat} took one on each of its {n} turns")
    kinds = zoo_game.domains["kind"].atoms
    deal = {"with": ["multiplayer"] + switched,
            "deck": {str(i): (tiles[i - 1] if i <= n else "no_tile") for i in zoo_game.domains["deckpos"].atoms},
            "act": {str(u): a for u, (a, _, _) in enumerate(turns, 1)},
            "took": {str(u): {k: took.get(k, 0) for k in kinds} for u, (_, took, _) in enumerate(turns, 1)},
            "goal": goal, "card": card, "advanced": advanced, "advanced_layout": advanced_layout, "mono": mono,
            "railed": {str(u): m for u, (_, _, m) in enumerate(turns, 1)}}
    if "world_exhibits" in switched:
        wider, coined = sponsor_track(trace, seat)
        deal["wider"] = {str(u): w for u, w in enumerate(wider, 1)}
        deal["coined"] = {str(u): c for u, c in enumerate(coined, 1)}
        no_markers = {str(r): 0 for r in zoo_game.domains["region"].atoms}
        deal["scard"], deal["rewarded"], deal["rboth"], deal["mtook"], deal["mrewarded"] = named or (
            _per_slot(n, "no_card"), _per_slot(n, 0), _per_slot(n, False), no_markers, dict(no_markers))
    return deal
