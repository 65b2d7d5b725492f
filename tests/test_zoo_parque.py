"""Zoo Parque end to end: seeded games (the base game; 3 players with every switch — the variants
and every expansion, Zooperative at its last level) and games with a Feed Phase (Feeding; Feeding
with Unnatural Utilities' food owed) play to their end with every move legal under both back ends;
Exhibits found by the spec match a brute-force flood fill on generated maps, through both back ends;
domino sets printed from seeds by the spec's dealing keep the set rules."""
import json
import random
from functools import lru_cache

import pytest
from conftest import ROOT, game
from hypothesis import given, settings, strategies as st
from test_whole_games import assert_legal_under_both_back_ends

from zoospec.cli.main import main
from zoospec.errors import StateError
from zoospec.front.loader import load_named
from zoospec.front.yamlload import load_file
from zoospec.runtime.agreement import Compiled, Item, forward
from zoospec.runtime.state import merged
from zoospec.solvers import dealing
from zoospec.solvers.play import playout as play

SPEC = str(ROOT / "spec" / "zoo-parque.yaml")
SIDES = {0: (-1, 0, "n", "s"), 1: (0, 1, "e", "w"), 2: (1, 0, "s", "n"), 3: (0, -1, "w", "e")}


EVERY = {"harder": True, "competitive": True, "feeding": True, "strong_species": True,
         "unnatural_utilities": True, "wildlife_wishes": True, "zooperative": True}


@lru_cache(maxsize=None)
def _seeded_game(players: int, every: bool):
    """The seeded game of `players`, with every switch on or none (played once per process)."""
    g = game(SPEC).with_readings({}, EVERY) if every else game(SPEC)
    start = dealing.dealt_start(g, players, players)
    if every:
        start["level"] = 8  # Zooperative: the campaign's last level, eight cards, three left to replace them
    return play.play(g, start, seed=players, max_steps=2000)


@pytest.mark.parametrize("players,switches", [(2, {}), (3, EVERY)])
def test_a_seeded_game_ends_by_the_rules_with_every_move_legal_under_both_back_ends(players, switches):
    result = _seeded_game(players, bool(switches))
    assert result.ended_by == "an end rule holds"
    final = result.trace.states[-1]
    assert final["over"] or final["won"] or (not final["market"] and not final["deck"])
    placed = [s for s in result.trace.steps if s.action == "zp.place"]
    assert placed and all(s.args["d"] in final["used"] for s in placed)
    boxes = {result.trace.game.consts["animal_box"][1][h["animal"]] for d in final["dom"].values() for h in d.values()}
    assert boxes == {"base"} | {b for b in ("strong_species", "unnatural_utilities") if switches.get(b)}
    if switches.get("harder"):  # the variant's two dominoes a turn show up as placements in a row
        turn = [s.action for s in result.trace.steps if s.action not in ("zp.feed", "zp.end-feed")]   # Feeding's look between them
        assert any(a == b == "zp.place" for a, b in zip(turn, turn[1:]))
    if switches.get("feeding"):  # every placement is followed by a look for a finished Exhibit
        looks = [b.action for a, b in zip(result.trace.steps, result.trace.steps[1:]) if a.action == "zp.place"]
        assert looks and set(looks) <= {"zp.feed", "zp.end-feed"}
    if switches.get("zooperative"):  # eight cards laid out; this seed replaces one and wins another
        actions = [s.action for s in result.trace.steps]
        assert actions.count("zp.campaign-card") == 8 and "zp.replace-card" in actions
        assert len(final["drawn"]) == 9 and final["drawn"] - final["cards"] - final["kept"]
    if not switches:  # the game with every switch is checked by Z3 over the next test, split by action
        assert_legal_under_both_back_ends(result.trace)


# The every-switch game's 143 moves re-checked by Z3 in four parts (~75 s of Z3 together on the
# 2-core machine, most of it compiling each action's terms): placing; ending a turn; ending a play
# or a feeding; every other action (what the first three leave: together they are every move).
SPLIT = [("zp.place",), ("zp.end-turn",), ("zp.end-play", "zp.end-feed"), None]


@pytest.mark.parametrize("part", SPLIT, ids=lambda p: "+".join(p) if p else "the-rest")
def test_every_move_of_the_seeded_game_with_every_switch_is_legal_under_z3(part):
    trace = _seeded_game(3, True).trace
    named = {a for p in SPLIT if p for a in p}
    actions = set(part) if part else {s.action for s in trace.steps} - named
    assert actions and {s.action for s in trace.steps} & actions
    assert_legal_under_both_back_ends(trace, actions)


PATH_HALF = {"ground": "path", "animal": "no_animal", "food": False, "n": "no_fence", "e": "no_fence", "s": "no_fence", "w": "no_fence"}


def _scripted_then_random(switches, cases, changes, script):
    """Start from a case file's map with `changes`, play `script`, then the game out at random;
    every move is re-checked by both back ends. Returns the trace's states as JSON."""
    g = game(SPEC).with_readings({}, switches)
    doc = load_file(ROOT / "spec" / "cases" / "zoo-parque" / cases).data
    start = merged(merged(g.state_to_json(g.start_state(2)), doc["base_state"]), changes)
    script = list(script)

    def choose(state, moves):
        if script:
            want = script.pop(0)
            return next(i for i, m in enumerate(moves) if (m.action, m.args) == want)
        return random.Random(len(moves)).randrange(len(moves))

    result = play.play(g, g.state_from_json(start), max_steps=2000, choose=choose)
    assert result.ended_by == "an end rule holds" and not script
    assert_legal_under_both_back_ends(result.trace)
    return [g.state_to_json(st) for st in result.trace.states]


def test_a_game_with_feeding_feeds_an_exhibit_and_every_move_is_legal_under_both_back_ends():
    """Random games seldom finish an Exhibit while another claimed one holds animals, so this one
    starts from the Feeding cases' map (spec/cases/zoo-parque/feeding.yaml) with the jungle pair
    still open to the east: player 1 closes it with a fenced path domino, the grass Exhibit gives
    up its giraffes' domino, and the game is then played out at random."""
    states = _scripted_then_random(
        {"feeding": True}, "feeding.yaml",
        {"phase": "play", "placed": 0, "sq": {"4,4": {"e": "no_fence"}},
         "dom": {"10": {"1": {**PATH_HALF, "w": "weak"}, "2": PATH_HALF}}},
        [("zp.place", {"d": 10, "c": "4,5", "r": 1}), ("zp.feed", {"x": "2,0", "d": 1}), ("zp.end-feed", {})])
    after_feed, looked = states[2], states[3]
    assert after_feed["sq"]["2,0"]["tile"] == 0 and not after_feed["pawn"]["1"]["1"]["on"]
    assert looked["inside"] == ["4,3", "4,4"] and looked["phase"] == "play"   # the grass pair is open now


def test_with_unnatural_utilities_an_exhibit_pays_its_food_icons_over_two_discards():
    """From the Unnatural Utilities cases' map (spec/cases/zoo-parque/unnatural-utilities.yaml)
    with the grass pair open to the west and not yet inside an Exhibit: player 1 closes it with a
    path domino laid south from 4,3 (its printed north fence faces east, onto the grass), so a Feed
    Phase starts; the jungle Exhibit owes 8 // 4 = 2 icons, pays 1 with domino 6 and the last with
    domino 5; the grass pair, just finished, feeds nothing. Then the game is played out at random."""
    states = _scripted_then_random(
        {"feeding": True, "unnatural_utilities": True}, "unnatural-utilities.yaml",
        {"phase": "play", "placed": 0, "due": False, "inside": ["1,1", "1,2", "2,1", "2,2"],
         "sq": {"4,4": {"w": "no_fence"}}, "dom": {"10": {"1": {**PATH_HALF, "n": "weak"}, "2": PATH_HALF}}},
        [("zp.place", {"d": 10, "c": "4,3", "r": 2}), ("zp.feed", {"x": "1,1", "d": 6}),
         ("zp.feed-more", {"d": 5}), ("zp.end-feed", {})])
    first, second, looked = states[2], states[3], states[4]
    assert first["owing"] == 1 and first["being_fed"] == ["1,1", "1,2", "2,1", "2,2"]
    assert second["owing"] == 0 and second["sq"]["1,1"]["tile"] == second["sq"]["2,2"]["tile"] == 0
    assert looked["phase"] == "play" and looked["being_fed"] == [] and looked["inside"] == ["4,4", "4,5"]


# ---------------------------------------------------------------- Exhibits against a flood fill
TERRAINS = {"grass", "water", "jungle", "tundra", "desert", "wild"}   # the spec's `terrains`
STRONG = {"lion", "polar_bear"}   # two strong animals of the passports, and two that are not below


def _terrain(state, c):
    return c in state["sq"] and c != "3,3" and state["sq"][c]["ground"] in TERRAINS


def _border(state, c, d):
    """The fences printed on both sides of c's border toward d (the default `either` reading)."""
    r, col = map(int, c.split(","))
    dr, dc, mine, theirs = SIDES[d]
    n = f"{r + dr},{col + dc}"
    return n, {state["sq"][c][mine]} | ({state["sq"][n][theirs]} if n in state["sq"] else set())


def _flood(state, start, through) -> set:
    group, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for d in SIDES:
            n, fences = _border(state, c, d)
            if _terrain(state, n) and n not in group and through(c, n, fences):
                group.add(n)
                todo.append(n)
    return group


def _strong_near(state, reading) -> set:
    """Spaces whose weak fences do nothing: a strong animal's reach through everything but strong
    fences (`reach`), or every space of an Area (one terrain, fences ignored) holding one (`area`)."""
    out = set()
    for c, sq in state["sq"].items():
        if _terrain(state, c) and sq["animal"] in STRONG:
            if reading == "reach":
                out |= _flood(state, c, lambda a, b, fences: "strong" not in fences)
            else:
                out |= _flood(state, c, lambda a, b, fences: state["sq"][a]["ground"] == state["sq"][b]["ground"])
    return out


def flood_exhibits(state, reading=None) -> list[set]:
    """The enclosed groups, found the slow obvious way: flood through every border between terrain
    spaces that holds nothing in; a group is an Exhibit when no such border leaves it. With Strong
    Species (`reading` names the `strong_reach` choice), a weak fence next to a space of
    `_strong_near` holds nothing."""
    loose = _strong_near(state, reading) if reading else set()

    def open_(c, n, fences):
        return fences <= {"no_fence"} or ("strong" not in fences and (c in loose or n in loose))
    seen, out = set(), []
    for start in sorted(state["sq"], key=lambda c: tuple(map(int, c.split(",")))):
        if start in seen or not _terrain(state, start):
            continue
        group = _flood(state, start, open_)
        seen |= group
        leaks = any(open_(c, n, fences) and not _terrain(state, n)
                    for c in group for d in SIDES for n, fences in [_border(state, c, d)])
        if not leaks:
            out.append(group)
    return out


@st.composite
def maps(draw):
    """A start state with a random map: grounds (some spaces free), animals (strong or not) and
    fences on every edge."""
    g = game(SPEC)
    state = g.state_to_json(g.start_state(2))
    fence = st.sampled_from(["no_fence", "no_fence", "weak", "strong"])
    beast = st.sampled_from(["no_animal", "no_animal", "no_animal", "lion", "giraffe", "polar_bear", "penguin"])
    for c in state["sq"]:
        ground = draw(st.sampled_from(["empty", "path", "grass", "grass", "water", "jungle", "tundra"]), label=c)
        state["sq"][c].update(ground=ground, tile=0 if ground == "empty" else 1,
                              animal=draw(beast) if ground in TERRAINS else "no_animal",
                              **{s: draw(fence) for s in "nesw"})
    return g.state_from_json(state)


@lru_cache(maxsize=None)
def _define(name, reading=None):
    g = game(SPEC)
    if reading:
        g = g.with_readings({"strong_reach": reading}, {"strong_species": True})
    return g, Compiled(g, Item(name, g.define_sigs[name].params, g.defines[name][1]))


@pytest.mark.parametrize("name", ["exhibit_heads", "enclosed"])
@pytest.mark.parametrize("reading", [None, "reach", "area"], ids=["base", "strong-reach", "strong-area"])
@settings(max_examples=15)
@given(state=maps())
def test_exhibits_match_a_brute_force_flood_fill_in_both_back_ends(reading, name, state):
    """Each Exhibit's head (`exhibit_heads`) or every space inside one (`enclosed`), by the spec
    in both back ends, against a flood fill; and, in Python, each Exhibit space by space."""
    g, _ = _define("in_exhibit", reading)
    js = g.state_to_json(state)
    found = flood_exhibits(js, reading)
    heads = {min(grp, key=lambda c: tuple(map(int, c.split(",")))) for grp in found}
    want = heads if name == "exhibit_heads" else (set().union(*found) if found else set())
    py, zv = forward(_define(name, reading)[1], state, {})
    assert set(py) == want, name
    assert py == zv, f"{name}: Python {py} but Z3 {zv}"
    for grp in found:  # and each group exactly, in Python
        head = min(grp, key=lambda c: tuple(map(int, c.split(","))))
        body = g.defines["in_exhibit"][1]
        assert {c for c in g.domains["cell"].atoms if g.evaluate(body, state, {"x": head, "c": c})} == grp


# ---------------------------------------------------------------- Areas with the new terrain, against a flood fill
GROUNDS = ["empty", "path", "grass", "water", "jungle", "wild", "wild"]


def flood_areas(state, reading) -> dict:
    """Each space's Areas, the slow obvious way: for every terrain the space counts as (the
    wildcard as all of them, under `wildcard`), flood through neighbours that count as it too."""
    def counts(c, t):
        g = state["sq"][c]["ground"]
        return _terrain(state, c) and (g == t or (reading == "wildcard" and g == "wild"))
    return {c: set().union(*(_flood(state, c, lambda a, n, fences, t=t: counts(n, t)) for t in TERRAINS if counts(c, t)))
            for c in state["sq"]}


@st.composite
def wild_maps(draw):
    """A start state whose spaces show random grounds, the new terrain among them."""
    g = game(SPEC)
    state = g.state_to_json(g.start_state(2))
    for c in state["sq"]:
        ground = draw(st.sampled_from(GROUNDS), label=c)
        state["sq"][c].update(ground=ground, tile=0 if ground == "empty" else 1)
    return g.state_from_json(state)


@lru_cache(maxsize=None)
def _wild_define(name, reading):
    g = game(SPEC).with_readings({"wild_terrain": reading}, {"unnatural_utilities": True})
    return g, Compiled(g, Item(name, g.define_sigs[name].params, g.defines[name][1]))


@pytest.mark.parametrize("reading", ["wildcard", "own"])
@settings(max_examples=10)
@given(state=wild_maps(), x=st.integers(0, 48), y=st.integers(0, 48))
def test_areas_with_the_new_terrain_match_a_flood_fill_in_both_back_ends(reading, state, x, y):
    """Under either `wild_terrain` reading, every space's Areas (`same_area`, in Python) are what a
    flood fill finds; Z3 agrees on one pair of spaces and on one space's Area size."""
    g, same = _wild_define("same_area", reading)
    js = g.state_to_json(state)
    want = flood_areas(js, reading)
    cells = g.domains["cell"].atoms
    body = g.defines["same_area"][1]
    for a in cells:
        assert {b for b in cells if g.evaluate(body, state, {"x": a, "y": b})} == want[a], a
    a, b = cells[x], cells[y]
    py, zv = forward(same, state, {"x": a, "y": b})
    assert py == (b in want[a]) and py == zv
    py, zv = forward(_wild_define("area_size", reading)[1], state, {"c": a})
    assert py == len(want[a]) and py == zv


# ---------------------------------------------------------------- domino sets and the commands
def _printed(g, seed):
    return dealing.dealt_start(g, seed)["dom"]


def test_a_domino_set_is_printed_from_its_seed_and_keeps_the_set_rules(monkeypatch):
    """The spec's `dealing` prints a set (`zp.print.*`, under `printing`): the same for a seed,
    a quarter TOP dominoes whose bare half brings an animal, animals where they can be played."""
    g = game(SPEC)
    a, b, c = (_printed(g, s) for s in (4, 4, 5))
    assert a == b and a != c
    tops = [d for d, h in a.items() if "empty" in (h[1]["ground"], h[2]["ground"])]
    assert len(tops) == 9 and all(a[d][1]["animal"] != "no_animal" or a[d][2]["animal"] != "no_animal" for d in tops)
    passport = g.consts["passport"][1]
    assert all(h["ground"] in passport[h["animal"]]["likes"] for d in a.values() for h in d.values()
               if h["animal"] != "no_animal" and h["ground"] != "empty")   # printed where it can be played
    assert all(h["animal"] == "no_animal" and not h["food"] for d in a.values() for h in d.values() if h["ground"] == "path")
    assert {h["stall"] for d in a.values() for h in d.values()} == {"no_stall"}   # stalls come with an expansion
    assert dealing.dealt_start(g, 4)["printing_at"] == {}   # the printing's own progress is not the game's
    printed = dealing.deal_state

    def drifted(*args, **kw):  # dealing actions that print a domino with no background
        state = printed(*args, **kw)
        state["dom"][1] = {1: {**state["dom"][1][1], "ground": "empty"}, 2: {**state["dom"][1][2], "ground": "empty"}}
        return state
    monkeypatch.setattr(dealing, "deal_state", drifted)
    with pytest.raises(StateError, match="zp.set.background: the spec's dealing actions and its rules disagree"):
        dealing.dealt_start(g, 4)


def test_a_set_is_printed_with_the_odds_the_spec_gives():
    """The odds are spec data (`print_odds`, assumed) read by the dealing actions' weights: a
    designer who prints no TOP dominoes and no fences, and food on every half, gets such a set."""
    g = game(SPEC)
    odds = {**g.consts["print_odds"][1], "top": 0, "fence": 0, "inner_fence": 0, "food": 100}
    a = _printed(g.with_constants({"print_odds": odds}), 4)
    halves = [h for d in a.values() for h in d.values()]
    assert "empty" not in {h["ground"] for h in halves}
    assert {h[s] for h in halves for s in "nesw"} == {"no_fence"}
    assert all(h["food"] for h in halves if h["ground"] != "path")
    assert a != _printed(g, 4)
    # every animal printed on a terrain, every half a path: the weights decide, not the order
    a = _printed(g.with_constants({"print_odds": {**odds, "animal": 100, "path": 100}}), 4)
    assert {h["ground"] for d in a.values() for h in d.values()} == {"path"}


def test_with_unnatural_utilities_random_games_play_extinct_animals_only_after_a_research_lab():
    """Seeded two-player games (Python back end; the all-expansion game above replays through Z3):
    extinct animals do get played, and never before the first Research Lab."""
    g = game(SPEC).with_readings({}, {"unnatural_utilities": True})
    passport = g.consts["passport"][1]
    extinct_played = 0
    for seed in (1, 2, 3):
        result = play.play(g, dealing.dealt_start(g, seed, 2), seed=seed, max_steps=2000)
        dom = result.trace.states[-1]["dom"]
        placed = [s.args["d"] for s in result.trace.steps if s.action == "zp.place"]
        lab = [i for i, d in enumerate(placed) if any(h["stall"] == "research_lab" for h in dom[d].values())]
        extinct = [i for i, d in enumerate(placed) if any(passport[h["animal"]]["extinct"] for h in dom[d].values())]
        assert not extinct or (lab and lab[0] < extinct[0]), seed
        extinct_played += len(extinct)
    assert extinct_played > 0


def test_with_unnatural_utilities_a_set_brings_research_labs_on_paths_and_extinct_animals():
    g = game(SPEC).with_readings({}, {"unnatural_utilities": True})
    a = _printed(g, 4)
    labs = [h for d in a.values() for h in d.values() if h["stall"] == "research_lab"]
    assert labs and all(h["ground"] == "path" for h in labs)
    passport = g.consts["passport"][1]
    assert any(passport[h["animal"]]["extinct"] for d in a.values() for h in d.values())
    assert {h["ground"] for d in a.values() for h in d.values()} >= {"wild"}
    assert _printed(game(SPEC), 4) != a   # the base set of the same seed has none of it


def test_the_commands_draw_a_set_play_it_with_the_variants_and_score_a_map(tmp_path, capsys):
    start = tmp_path / "start.json"
    assert main(["deal", "zoo-parque", "--seed", "3", "--players", "3", "--out", str(start)]) == 0
    out = capsys.readouterr().out
    assert "Zoo Parque dealt from seed 3 for 3 players:" in out and "dom: 72 entries" in out and " empty 9" in out and "tundra" not in out
    assert main(["deal", "zoo-parque", "--seed", "3", "--with", "strong_species"]) == 0
    out = capsys.readouterr().out   # the expansion's terrain and (assumed) animals come with it
    assert "tundra" in out and any(a in out for a in ("polar_bear", "walrus", "musk_ox", "penguin")) and "research_lab" not in out
    assert main(["deal", "zoo-parque", "--seed", "3", "--with", "unnatural_utilities"]) == 0
    out = capsys.readouterr().out   # the Research Labs a set holds are counted
    assert "research_lab " in out and "wild" in out and any(a in out for a in ("dodo", "mammoth", "sabre_tooth"))
    assert main(["play", "zoo-parque", "--seed", "3", "--with", "strong_species", "--quiet", "--json"]) == 0
    dom = json.loads(capsys.readouterr().out)["final"]["dom"]   # no --state: a set is printed with the expansion's dominoes
    assert any(h["ground"] == "tundra" for d in dom.values() for h in d.values())
    assert json.loads(start.read_text())["players"] == 3
    assert main(["play", "zoo-parque", "--state", str(start), "--seed", "2", "--with", "harder", "--quiet", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ended_by"] == "an end rule holds" and [r["args"]["p"] for r in out["scores"]] == [1, 2, 3]
    assert main(["play", "zoo-parque", "--seed", "3", "--with", "zooperative", "--quiet", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)   # the team wins or loses together: one result, not a total per player
    assert out["final"]["won"] and out["scores"] == [{"rule": "zp.score.team", "args": {}, "points": 1}]
    assert main(["play", "zoo-parque", "--seed", "3", "--with", "zooperative", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "zp.score.team() = 1  — Zooperative: 1 for every player if the team won" in out and "highest" not in out
    assert main(["play", "zoo-parque", "--with", "hardest"]) == 2
    assert "no switch named 'hardest'" in capsys.readouterr().err
    example = str(ROOT / "docs" / "examples" / "zoo-parque-map.json")
    assert main(["score", "zoo-parque", example, "--over-start", "--draw"]) == 0
    text = capsys.readouterr().out
    assert "Exhibit at 2,0: 2 spaces of its most common terrain x 2 animals, doubled" in text
    assert "Exhibit at 3,4: 3 spaces of its most common terrain x 3 animals" in text
    assert main(["score", "zoo-parque", example, "--over-start", "--json", "--with", "competitive"]) == 0
    lines = {(ln["rule"], ln["args"]["p"]): ln["points"] for ln in json.loads(capsys.readouterr().out)["lines"] if ln["rule"] == "zp.score.total"}
    assert lines == {("zp.score.total", 1): 16, ("zp.score.total", 2): 9}   # player 1's Area is 4 grass spaces
    assert main(["score", "zoo-parque", example, "--over-start", "--json", "--with", "zooperative"]) == 0
    lines = json.loads(capsys.readouterr().out)["lines"]
    assert {ln["rule"] for ln in lines if ln.get("final")} == {"zp.score.team"}   # what decides the game under Zooperative
    assert {ln["args"]["p"] for ln in lines if "p" in ln["args"]} == {1, 2}   # still only the seated players' lines


def test_nobody_ever_has_to_lift_a_domino():
    """Play, 11, checked: what the dominoes cover (`under`, written by every placement) is read by
    no rule and no action, so nothing depends on it. Under the what_was_below reading a discard
    reads it (zp.feed and zp.feed-more, through zp.feed.lift), and the read sets no longer settle
    the claim by themselves."""
    from zoospec.solvers.analysis import claims, independence
    g = game(SPEC)
    v = claims.check(g, g.claims["zp.claim.never-lift"], timeout=60)
    assert v.verdict == "holds" and v.detail.startswith("none of 66 rules and actions depends on under: 66 never read them")
    below = game(SPEC).with_readings({"discard_leaves": "what_was_below"})
    readers = [x.id for x in independence._items(below, below.claims["zp.claim.never-lift"])
               if independence._reads(below, x, {"under"})]
    assert readers == ["zp.feed", "zp.feed-more"]


def test_what_a_domino_covers_is_listed_by_entry_not_drawn_as_a_grid():
    """`under` (a map from cells to records) is no view's: the picture lists its entries that are
    not plain, field by field, where a grid of first characters would show only '{'."""
    from zoospec.solvers.play import picture
    g = game(SPEC)
    st = g.state_to_json(g.start_state(2))
    st["under"]["2,2"] = {**st["under"]["2,2"], "animal": "okapi", "food": True, "tile": 3}
    text = picture.text(g, g.state_from_json(st))
    assert '    under[2,2]: animal="okapi", food=true, tile=3\n      (under: every other entry plain)' in text
    assert "{{" not in text


def test_with_takes_an_expansion_written_with_a_hyphen():
    """`--with feeding,strong-species`, as the issue and the rulebook's prose write it: a switch
    name has no hyphen, so the hyphen means the underscore."""
    base = game(str(ROOT / "spec" / "zoo-parque.yaml")).switches
    assert not base["strong_species"]
    assert load_named("zoo-parque", switches=["feeding,strong-species"]).switches == {**base, "feeding": True, "strong_species": True}
