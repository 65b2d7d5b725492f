"""Zoo-ography (solo): the record's rules, its cuts, the puzzle solver's verdicts and the plan
replay (spec/zoo-ography.yaml, solvers/puzzle/search.py, docs/zoo-ography.md)."""
import json
from pathlib import Path

import pytest
from conftest import game, run_zoospec
from test_cases import FILES

from zoospec.cli.main import main
from zoospec.engines.yices import available as yices_available
from zoospec.errors import StateError
from zoospec.front.yamlload import load_file
from zoospec.runtime.agreement import Compiled, Item, forward
from zoospec.runtime.state import merged
from zoospec.solvers.puzzle import layout_first, search as puzzle
from zoospec.solvers.symbolic import py_value, rule_instances

ROOT = Path(__file__).resolve().parent.parent
SPEC = str(ROOT / "spec" / "zoo-ography.yaml")
RECORD = ROOT / "spec" / "cases" / "zoo-ography" / "record.yaml"


def hand_made_record(g):
    """The two-turn record of spec/cases/zoo-ography/record.yaml, as a state."""
    base = load_file(RECORD).data["base_state"]
    return g.state_from_json(merged(g.state_to_json(g.start_state()), base))


def test_every_rule_has_a_case_where_it_holds_and_one_where_it_does_not():
    g = game(SPEC)
    seen: dict = {}
    for f in FILES:
        doc = load_file(f).data
        if doc["spec"] != "spec/zoo-ography.yaml":
            continue
        for case in (c for c in doc["cases"] if "rule" in c):  # a case may name a define instead
            seen.setdefault(case["rule"], set()).add(case["expect"] if isinstance(case["expect"], bool) else repr(case["expect"]))
    checked = [r for r in g.rules.values() if r.kind != "effect"]
    assert not [r.id for r in checked if r.id not in seen]
    assert not [r.id for r in checked if r.kind in ("invariant", "end") and not {True, False} <= seen[r.id]]


def test_every_cut_of_the_hand_made_record_is_legal_in_both_back_ends():
    """zg.record.cut (the effect replay uses): the record at phases 0, 1 and 2 keeps every
    invariant, judged by Python and by Z3, and the cut at 0 holds only the phase-0 tiles."""
    g = game(SPEC)
    record = hand_made_record(g)
    cuts = dict(puzzle.cuts(g, record))
    assert {c for c, p in cuts[0]["at"].items() if p != "no_tile"} == {"1,1", "2,1"}
    assert cuts[0]["now"] == 0 and cuts[0]["act"][1] == "no_action" and not cuts[0]["visit"]["2,2"]["made"]
    assert not any(b["placed"] for b in cuts[0]["beast"].values())
    assert cuts[2] == record
    rules = {r.id: r for r, _ in rule_instances(g, "invariant")}  # those with an instance in this game
    compiled = {i: Compiled(g, Item(i, r.params, r.body)) for i, r in rules.items()}
    for point in (0, 1):
        for r, args in rule_instances(g, "invariant"):
            py, zv = forward(compiled[r.id], cuts[point], args)
            assert py is True and zv is True, (point, r.id, args)


def test_a_broken_plan_is_named_by_the_rule_and_the_point_it_breaks():
    g = game(SPEC)
    record = hand_made_record(g)
    record["now"] = 9  # nine turns claimed, two played
    bad = puzzle.certify(g, record)
    assert any(b.startswith("zg.record.now(u=3)") for b in bad)
    assert "the record is not finished" not in bad


def test_a_deal_file_must_give_exactly_the_deal(tmp_path):
    g = game(SPEC)
    f = tmp_path / "deal.yaml"
    f.write_text("deck: {}\ngoal: {gold3: autumn}\n")
    with pytest.raises(Exception) as e:
        puzzle.read_deal(g, f)
    assert "missing advanced, advanced_layout, card, mono" in str(e.value)
    assert main(["solve", "zoo-ography", "--deal", str(f)]) == 2


FIRST = str(ROOT / "spec" / "zoo-ography" / "deals" / "first-game.yaml")


def test_a_target_above_the_scale_is_unreachable_by_the_scoring_rule_alone(capsys):
    """21 half stars: UNSAT, and the second question (without the game's rules) says why."""
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--target", "21", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unreachable" and out["core"] == [] and "scoring rule cannot reach" in out["reason"]


def test_solve_takes_other_objectives_for_a_deal_and_refuses_a_deal_no_setup_makes(capsys):
    """--objectives changes the deal's objective slots (shown in the answer); a deal breaking the
    deal rules (a silver objective on a gold space) is refused with the rule, not solved."""
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--objectives", "gold3=cliff,gold2=savanna",
                 "--target", "21", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["deal"]["goal"] == {"gold3": "cliff", "gold2": "savanna", "silver2": "bay", "bronze": "no_goal"}
    assert out["status"] == "unreachable"
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--objectives", "gold3=bay"]) == 2
    assert "no setup deals this: it breaks zg.deal.goals" in capsys.readouterr().err
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--objectives", "gold4=cliff"]) == 2
    assert "no slot 'gold4' (did you mean 'gold3'?)" in capsys.readouterr().err


def test_a_reachable_target_gives_a_plan_that_replays(tmp_path, capsys):
    """Any finished record (target -40): Z3's record is certified at every phase before it is
    printed; the saved plan replays; a tampered plan does not. Asked layout by layout (5 layouts
    refuted in under 4 s each, then completed: ~50 s alone, against 270 s as one question in a full suite run; the
    whole-record path is test_a_given_layout_is_completed_to_a_perfect_zoo's), in a process of
    its own: the Z3 terms a test worker built before would change the path (ADR 0008)."""
    plan = tmp_path / "plan.json"
    done = run_zoospec("solve", "zoo-ography", "--deal", FIRST, "--target", "-40", "--layout-first",
                       "--plan", str(plan), "--json", timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["status"] == "reachable" and out["score"] >= -40 and len(out["plan"]) == 9 and out["layouts"] >= 1
    assert main(["replay", str(plan)]) == 0
    assert "replays" in capsys.readouterr().out
    data = json.loads(plan.read_text())
    data["record"]["act"]["5"] = "no_action"  # a turn of the game left out
    plan.write_text(json.dumps(data))
    assert main(["replay", str(plan), "--json"]) == 1
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert any("zg.record.now(u=5)" in b for s in steps for b in s["broken"])


# The shipped unwinnable deals (this one, and multiplayer/short-of-seats.yaml) are answered by two
# hard UNSAT questions each, ~90 s a deal: proofs, not tests — bench/proofs.py checks their verdicts,
# cores and the ceiling of this one against the known answers, and .ci/run runs it with --check.
SHORT = str(ROOT / "spec" / "zoo-ography" / "deals" / "snake-short-of-seats.yaml")
MULTI = ROOT / "spec" / "zoo-ography" / "deals" / "multiplayer"


def test_a_multiplayer_deal_names_its_switch_and_the_solo_game_refuses_it(capsys):
    """A deal file's `with: [multiplayer]`: asked of the solo game it is refused with the switch
    to turn on, not misread as a solo deal missing its deck; and a seed cannot deal a multiplayer
    zoo (the draft does: no dealing action is legal with the switch on), which is said rather
    than dealt wrong."""
    assert main(["solve", "zoo-ography", "--deal", str(MULTI / "short-of-seats.yaml")]) == 2
    assert "this deal is for the game with multiplayer on (solve it --with multiplayer)" in capsys.readouterr().err
    assert main(["solve", "zoo-ography", "--with", "multiplayer", "--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert "deals nothing from a seed with multiplayer on" in err and "give a deal file" in err


def test_a_multiplayer_deal_with_a_tile_taken_twice_is_refused(tmp_path, capsys):
    """The deal rules read the deal: a draft that gave one tile on two turns is no draft at all,
    so it is refused (zg.deal.deck), not answered 'unreachable'."""
    text = (MULTI / "short-of-seats.yaml").read_text().replace('"10": "z03"', '"10": "z14"')
    bad = tmp_path / "twice.yaml"
    bad.write_text(text)
    assert main(["solve", "zoo-ography", "--with", "multiplayer", "--deal", str(bad)]) == 2
    assert "it breaks zg.deal.deck" in capsys.readouterr().err


TEN_TILES = "z20,z06,z14,z10,z21,z22,z12,z13,z01,z17"


def _played_draft(tmp_path, players=2, seed=2, choose=None, **switches):
    """A draft played to its end (random moves with `seed`, or `choose`'s), saved as a trace."""
    from zoospec.solvers.play import playout as play
    from zoospec.solvers import traces
    g = game(str(ROOT / "spec" / "zoo-ography-draft.yaml")).with_readings({}, switches)
    res = play.play(g, g.start_state(players), seed=seed, choose=choose, max_steps=1000)
    assert res.ended_by == "an end rule holds"
    path = tmp_path / "draft.json"
    traces.save(res.trace, path)
    return res.trace, path


def test_a_played_draft_gives_each_seat_its_zoo_deal(tmp_path, capsys):
    """`zoospec draft-deal`: a two-player draft played by the draft spec, and each seat's ten turns
    read off its trace — the action of each take move, and the animals it put on the planks and
    patch, which for the two-animal action are the animals the move itself names. The tiles are
    the caller's (the draft counts them); the zoo spec accepts the deal."""
    from collections import Counter

    actions = {"zgd.take-animals": "two_animals", "zgd.take-column": "column",  # the record's name for each take
               "zgd.take-secluded": "secluded_coin", "zgd.take-renovation": "renovation"}
    trace, path = _played_draft(tmp_path)
    multi = game(SPEC).with_readings({}, {"multiplayer": True})
    for seat in (1, 2):
        out = tmp_path / f"seat{seat}.json"
        assert main(["draft-deal", str(path), "--seat", str(seat), "--tiles", TEN_TILES, "--out", str(out)]) == 0
        deal = json.loads(out.read_text())
        takes = [st for st in trace.steps if st.action in actions and st.args["p"] == seat]
        assert [deal["act"][str(u)] for u in range(1, 11)] == [actions[st.action] for st in takes]
        named = [(u, st) for u, st in enumerate(takes, 1) if st.action == "zgd.take-animals"]
        assert named  # the seed's game has some, so the comparison below is not empty
        for u, st in named:
            expected = Counter(k for k in (st.args["a"], st.args["b"]) if k != "nobody") + Counter(["secluded"] * st.args["u"])
            assert {k: n for k, n in deal["took"][str(u)].items() if n} == dict(expected)
        assert deal["deck"]["10"] == "z17" and deal["deck"]["11"] == "no_tile" and puzzle.deal_problems(multi, puzzle.read_deal(multi, out)) == []
    capsys.readouterr()
    assert main(["draft-deal", str(path), "--seat", "1", "--tiles", "z20,z06"]) == 2
    assert "--tiles names 2 tiles; seat 1 took one on each of its 10 turns" in capsys.readouterr().err
    assert main(["draft-deal", str(path), "--seat", "1", "--tiles", TEN_TILES.replace("z17", "z20")]) == 2
    assert "it breaks zg.deal.deck" in capsys.readouterr().err


def test_a_connections_draft_gives_each_seat_its_tracks(tmp_path, capsys):
    """With Connections, a take whose tile was paired brings its track (the take move's `m`): the
    deal names the seat's turns that brought one (`railed`), and the zoo spec under multiplayer
    and connections accepts it. The monorail layout is the caller's (the draft does not reveal
    one), so a Connections draft needs --mono and another refuses it."""
    trace, path = _played_draft(tmp_path, seed=3, connections=True)
    zoo = game(SPEC).with_readings({}, {"multiplayer": True, "connections": True})
    for seat in (1, 2):
        out = tmp_path / f"seat{seat}.json"
        assert main(["draft-deal", str(path), "--seat", str(seat), "--tiles", TEN_TILES, "--advanced", "--mono", "ml2",
                     "--objectives", "bronze=express", "--out", str(out)]) == 0
        deal = json.loads(out.read_text())
        takes = [st for st in trace.steps if st.action.startswith("zgd.take-") and st.args["p"] == seat]
        railed = [u for u, st in enumerate(takes, 1) if st.args["m"]]
        assert railed  # the seed's draft pairs some of this seat's tiles, so the comparison is not empty
        assert [u for u in range(1, 11) if deal["railed"][str(u)]] == railed
        assert deal["with"] == ["multiplayer", "connections"] and deal["mono"] == "ml2"
        assert puzzle.deal_problems(zoo, puzzle.read_deal(zoo, out)) == []
    capsys.readouterr()
    assert main(["draft-deal", str(path), "--seat", "1", "--tiles", TEN_TILES]) == 2
    assert "needs --mono" in capsys.readouterr().err
    _, plain = _played_draft(tmp_path)
    assert main(["draft-deal", str(plain), "--seat", "1", "--tiles", TEN_TILES, "--mono", "ml2"]) == 2
    assert "--mono is for a Connections draft" in capsys.readouterr().err


def test_a_multiplayer_connections_zoo_is_found_and_certified(tmp_path, capsys):
    """The multiplayer first-game-tiles draft played with Connections (advanced, a monorail
    objective, layout ml1; tracks brought by turns 2, 5 and 8): with its shipped zoo's layout given,
    a finished zoo is found and certified — the monorail rules compile and hold under both
    switches — and every track it built was the player's by then (`railed`: track 2 from turn 2,
    3 from 5, 4 from 8). Track 3 given built in phase 5 fits; in phase 3, before its turn, UNSAT
    with no goal: no finished record has it."""
    import yaml
    deal = yaml.safe_load((MULTI / "first-game-tiles.yaml").read_text())
    deal = {k: v for k, v in deal.items() if k not in ("says", "expect")}
    deal.update({"with": ["multiplayer", "connections"], "advanced": True, "mono": "ml1",
                 "railed": {str(u): u in (2, 5, 8) for u in range(1, 11)}})
    deal["goal"]["bronze"] = "express"
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal))
    assert main(["solve", "zoo-ography", "--with", "multiplayer,connections", "--deal", str(path), "--given",
                 f"{MULTI / 'first-game-tiles.plan.json'}:at,side,turned", "--target", "-40", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "reachable" and out["record"]["railed"] == deal["railed"]
    _assert_tracks_built_once_held(out["record"])
    # track 3 (from turn 5) given across z14 and st1: built in phase 5 it fits, in phase 3 no record has it
    layout = json.loads((MULTI / "first-game-tiles.plan.json").read_text())["record"]
    for when, code in ((5, 0), (3, 1)):
        given = {n: layout[n] for n in ("at", "side", "turned")}
        given["track"] = {"3": {"made": True, "a": "2,2", "b": "2,3", "station": False, "order": 1, "when": when}}
        (tmp_path / "given.json").write_text(json.dumps(given))
        assert main(["solve", "zoo-ography", "--with", "multiplayer,connections", "--deal", str(path), "--given",
                     str(tmp_path / "given.json"), "--target", "-40", "--json"]) == code
        out = json.loads(capsys.readouterr().out)
        assert out["status"] == ("reachable", "unreachable")[code]
        if code == 0:
            assert out["record"]["track"]["3"]["made"] and out["record"]["track"]["3"]["when"] == 5
            _assert_tracks_built_once_held(out["record"])
        else:
            assert out["reason"].startswith("no finished record at all")


def _assert_tracks_built_once_held(record):
    """Every track the zoo built was the player's by its phase (`railed`: track 2 from turn 2,
    3 from 5, 4 from 8; track 1 from the start). Which tracks a solve builds is the solver's
    choice, so this reads what it built, and may read none."""
    built = {int(m): t["when"] for m, t in record["track"].items() if t["made"]}
    assert all(when >= {2: 2, 3: 5, 4: 8}.get(m, 0) for m, when in built.items()) and set(built) <= {1, 2, 3, 4}


def test_a_world_exhibits_draft_gives_a_zoo_deal_with_the_regions_named(tmp_path, capsys):
    """A World Exhibits draft knows each sponsor card's size and whether it is secluded, not a
    general sponsor's region: `draft-deal --regions` names those, in the order the cards were
    taken. Each turn's sponsor animals are then the zoo's kinds for them, and the turns with the
    extra plank and the track's coin follow the seat's tracker in the trace (checked here against
    the draft's own track positions and spaces). A wrong count of regions is refused."""
    from collections import Counter
    SEAT = 2  # in this seed's game: small and large sponsors, general and secluded
    trace, path = _played_draft(tmp_path, players=3, seed=4, world_exhibits=True)
    draft = trace.game
    pile, size = draft.consts["pick_from"][1], draft.consts["pick_size"][1]
    takes = [(i, st) for i, st in enumerate(trace.steps) if st.action.startswith("zgd.take-") and st.args.get("p") == SEAT]
    picks = [[x for x in (st.args.get("x"), st.args.get("y")) if x not in (None, "no_sponsor")] for _, st in takes]
    general = [x for xs in picks for x in xs if pile[x] not in ("draft_secluded", "secluded_deck")]
    assert len(takes) == 10 and general and len(general) < sum(map(len, picks))  # some of each kind of card
    regions = (["africa", "asia", "world", "europe", "oceania", "americas"] * 3)[: len(general)]
    out = tmp_path / "seat.json"
    assert main(["draft-deal", str(path), "--seat", str(SEAT), "--tiles", TEN_TILES, "--regions", ",".join(regions), "--out", str(out)]) == 0
    deal = json.loads(out.read_text())
    assert deal["with"] == ["multiplayer", "world_exhibits"]
    named = iter(regions)
    for u, xs in enumerate(picks, 1):
        want = Counter(("secluded" if size[x] == "small" else "secluded_large") if pile[x] in ("draft_secluded", "secluded_deck")
                       else f"{next(named)}_{dict(small='small', big='large')[size[x]]}" for x in xs)
        sponsors = {k: n for k, n in deal["took"][str(u)].items() if n and (k.endswith(("_small", "_large")) or k in want)}
        assert Counter(sponsors) == want, f"turn {u}"
    ends = [i for i, _ in takes[1:]] + [len(trace.steps)]  # the build phase after turn u ends at the next take
    plank, coin = draft.consts["plank_space"][1], draft.consts["coin_space"][1]
    assert [deal["wider"][str(u)] for u in range(1, 11)] == [trace.states[i]["track"][SEAT] >= plank for i, _ in takes]
    assert [deal["coined"][str(u)] for u in range(1, 11)] == [trace.states[e]["track"][SEAT] >= coin for e in ends]
    assert any(deal["coined"].values()) and not all(deal["wider"].values())  # the seed's tracker moves during the game
    assert main(["draft-deal", str(path), "--seat", str(SEAT), "--tiles", TEN_TILES, "--regions", "africa"]) == 2
    assert f"seat {SEAT} took {len(general)} general sponsor card(s)" in capsys.readouterr().err


def test_a_world_exhibits_draft_names_its_sponsor_cards_and_the_rewards_they_gave(tmp_path, capsys):
    """`draft-deal --sponsors --rewarded --markers`: the caller names each sponsor card the seat
    took (from the zoo spec's catalogue), the card each of its card-reward moves flipped and the
    region of the marker each marker-reward move flipped. The cards must fit the draft's picks
    (secluded or general, and size); a reward's build phase is the number of the seat's takes
    before its move, the card or marker must be held unrewarded by then (a marker comes with the
    marked card of its region), and the move's spaces must be its icons (a secluded card's
    `icons2`: claimed for both conditions). The deal names the cards per turn and the markers per
    region, and the zoo spec's deal rules accept it (exit 0)."""
    SEAT = 2
    trace, path = _played_draft(tmp_path, players=3, seed=4, world_exhibits=True)
    draft, zoo = trace.game, game(SPEC).with_readings({}, {"multiplayer": True, "world_exhibits": True})
    pile, size = draft.consts["pick_from"][1], draft.consts["pick_size"][1]
    catalogue, marker, region_of = (zoo.consts[n][1] for n in ("sponsor_card", "marker_card", "region_of"))
    steps = list(enumerate(trace.steps))
    takes = [i for i, st in steps if st.action.startswith("zgd.take-") and st.args.get("p") == SEAT]
    picks = [[x for x in (trace.steps[i].args.get("x"), trace.steps[i].args.get("y")) if x not in (None, "no_sponsor")] for i in takes]
    moves = [(sum(j < i for j in takes), st.args["r"]) for i, st in steps
             if st.action == "zgd.sponsor-reward" and st.args.get("p") == SEAT and not st.args["t"]]
    mmoves = [(sum(j < i for j in takes), st.args["r"]) for i, st in steps
              if st.action == "zgd.sponsor-reward" and st.args.get("p") == SEAT and st.args["t"]]
    phases = [phase for phase, _ in moves]
    assert len(phases) >= 5 and any(p for xs in picks for p in xs if pile[p] in ("draft_secluded", "secluded_deck"))
    assert mmoves and any(pile[x] == "draft_marked" for xs in picks for x in xs)

    def fits(card, x, spaces=None, marker_spaces=None):
        kind, big = catalogue[card]["kind"], size[x] == "big"
        if spaces and spaces not in (catalogue[card]["icons"], catalogue[card]["icons2"]):
            return False
        if pile[x] == "draft_marked" and (region_of[kind] not in marker or marker_spaces not in (None, marker[region_of[kind]]["icons"])):
            return False  # a marker lies on a card of its region, and gives its own reward
        if pile[x] in ("draft_secluded", "secluded_deck"):
            return kind == ("secluded_large" if big else "secluded")
        return not kind.startswith("secluded") and kind.endswith("_large" if big else "_small")
    slots = [(u, j, x) for u, xs in enumerate(picks, 1) for j, x in enumerate(xs, 1)]
    flips = {}  # each reward flips the earliest card held and not yet flipped
    for phase, spaces in moves:
        flips[next(s for s in slots if s[0] <= phase and s not in flips)] = spaces
    mflips = {}  # likewise each marker reward, of the markers the marked cards brought
    for phase, spaces in mmoves:
        mflips[next(s for s in slots if pile[s[2]] == "draft_marked" and s[0] <= phase and s not in mflips)] = spaces
    free, named = [c for c in catalogue if c != "no_card"], []  # a card for each pick, in order, giving its rewards' spaces
    for u, j, x in slots:
        named.append((u, j, next(c for c in free if fits(c, x, flips.get((u, j, x)), mflips.get((u, j, x))))))
        free.remove(named[-1][2])
    card_of = {(u, j): c for u, j, c in named}
    flipped = [(u, j, card_of[u, j]) for u, j, _ in flips]
    cards, rewards = ",".join(c for _, _, c in named), ",".join(c for _, _, c in flipped)
    region = {(u, j): region_of[catalogue[card_of[u, j]]["kind"]] for u, j, x in slots if pile[x] == "draft_marked"}
    markers = ",".join(catalogue[card_of[u, j]]["kind"].rsplit("_", 1)[0] for u, j, _ in mflips)
    out = tmp_path / "seat.json"
    args = ["draft-deal", str(path), "--seat", str(SEAT), "--tiles", TEN_TILES]
    assert main(args + ["--sponsors", cards, "--rewarded", rewards, "--markers", markers, "--out", str(out)]) == 0
    deal = json.loads(out.read_text())
    assert {int(r): u for r, u in deal["mtook"].items() if u} == {r: u for (u, _), r in region.items()}
    assert {int(r): p for r, p in deal["mrewarded"].items() if p} == {region[u, j]: phase for (u, j, _), (phase, _) in zip(mflips, mmoves)}
    assert {(int(u), int(j), c) for u, js in deal["scard"].items() for j, c in js.items() if c != "no_card"} == set(named)
    assert {(int(u), int(j)): p for u, js in deal["rewarded"].items() for j, p in js.items() if p} == \
        {(u, j): phase for (u, j, _), phase in zip(flipped, phases)}
    assert {(int(u), int(j)) for u, js in deal["rboth"].items() for j, b in js.items() if b} == \
        {(u, j) for (u, j, c), (_, spaces) in zip(flipped, moves) if spaces != catalogue[c]["icons"]}
    assert any(b for js in deal["rboth"].values() for b in js.values())  # a secluded card rewarded for both conditions
    capsys.readouterr()
    # refused: a card of the wrong size for its pick, a reward for a card not yet taken, too few rewards, a reward of
    # other spaces than its card's icons, rewards alone
    u, j, first = named[0]

    def other_icons(cards, rewards):
        """A rewarded card traded for an untaken one of its kind whose reward is another size."""
        old, new = next((old, c) for (_, _, old), (_, spaces) in zip(flipped, moves) for c in catalogue
                        if c not in cards.split(",") and catalogue[c]["kind"] == catalogue[old]["kind"]
                        and spaces not in (catalogue[c]["icons"], catalogue[c]["icons2"]))
        return [",".join(new if c == old else c for c in cards.split(",")), ",".join(new if c == old else c for c in rewards.split(","))]
    wrong = next(c for c in catalogue if c != "no_card" and c not in cards.split(",") and not fits(c, picks[u - 1][j - 1]))
    late = named[-1][2]
    for bad, why in (([cards.replace(first, wrong, 1), rewards.replace(first, wrong)], f"turn 1's card 1 is a {size[picks[0][0]]}"),
                     ([cards, ",".join([late] + rewards.split(",")[1:])], f"{late} is not a card seat {SEAT} held unrewarded"),
                     ([cards, rewards.rsplit(",", 1)[0]], f"seat {SEAT} flipped {len(phases)} sponsor card(s)"),
                     (other_icons(cards, rewards), "moved the tracker")):
        assert main(args + ["--sponsors", bad[0], "--rewarded", bad[1], "--markers", markers]) == 2
        assert why in capsys.readouterr().err
    # and a marker the seat never held, none named for its marker reward, a marked card of another region whose
    # marker gives another reward, or rewards without the cards
    unheld = next(n for n in ("africa", "asia", "americas", "europe", "oceania") if region_of[f"{n}_small"] not in region.values())
    (u, j, x), spaces = next(iter(mflips.items()))
    other = next(c for c in catalogue if c not in cards.split(",") and region_of[catalogue[c]["kind"]] in marker
                 and marker[region_of[catalogue[c]["kind"]]]["icons"] != spaces and fits(c, x, flips.get((u, j, x))))
    elsewhere = [cards.replace(card_of[u, j], other), rewards.replace(card_of[u, j], other),
                 ",".join([catalogue[other]["kind"].rsplit("_", 1)[0]] + markers.split(",")[1:])]
    for bad, why in ((["--sponsors", cards, "--rewarded", rewards, "--markers", unheld], f"held no unrewarded {unheld} marker"),
                     (["--sponsors", cards, "--rewarded", rewards], f"flipped {len(mmoves)} region marker(s)"),
                     (["--sponsors", elsewhere[0], "--rewarded", elsewhere[1], "--markers", elsewhere[2]], "marker gives")):
        assert main(args + bad) == 2
        assert why in capsys.readouterr().err
    assert main(args + ["--rewarded", rewards]) == 2
    assert "name the cards taken too" in capsys.readouterr().err


def test_a_world_exhibits_reward_is_claimed_only_once_its_request_is_met(tmp_path, capsys):
    """The World Exhibits deal names its sponsor cards and two claimed rewards (ss12's in phase 4,
    sp01's in phase 10); with the layout given a zoo meeting both requests is found and certified.
    Claim sp10's reward too, in phase 9: it asks for two animals of its African icon, and the deal
    brings one African animal in all, so no finished record exists (UNSAT with no goal)."""
    import yaml
    layout = {n: json.loads((MULTI / "first-game-tiles.plan.json").read_text())["record"][n] for n in ("at", "side", "turned")}
    (tmp_path / "layout.json").write_text(json.dumps(layout))
    deal = yaml.safe_load((MULTI / "world-exhibits.yaml").read_text())
    assert deal["scard"]["9"]["1"] == "sp10" and deal["rewarded"]["9"]["1"] == 0
    for rewarded, code in ((0, 0), (9, 1)):
        deal["rewarded"]["9"]["1"] = rewarded
        (tmp_path / "deal.json").write_text(json.dumps(deal))
        assert main(["solve", "zoo-ography", "--with", "multiplayer,world_exhibits", "--deal", str(tmp_path / "deal.json"),
                     "--given", str(tmp_path / "layout.json"), "--target", "-40", "--json"]) == code
        out = json.loads(capsys.readouterr().out)
        assert out["status"] == ("reachable", "unreachable")[code]
        if code == 0:
            assert out["record"]["rewarded"]["4"]["1"] == 4 and out["record"]["rewarded"]["10"]["1"] == 10
        else:
            assert out["reason"].startswith("no finished record at all")


@pytest.mark.skipif(not yices_available(), reason="Yices is not installed: Z3's widening loop takes far longer here")
def test_the_world_exhibits_deal_has_no_perfect_zoo(capsys):
    """The deal file's verdict (issue 41): asked as `solve` asks by default, every layout is refuted
    by UNSAT, each blocked by the pins of its unsat core, and the last core is empty — no record
    reaches 20 half stars whatever its layout (Z3 agrees on that whole-record question in ~11 s,
    docs/performance.md). Unknown at 1,200 s with Z3's widening loop before."""
    deal = str(MULTI / "world-exhibits.yaml")
    assert load_file(deal).data["expect"] == "unreachable"
    assert main(["solve", "zoo-ography", "--with", "multiplayer,world_exhibits", "--deal", deal, "--json", "--timeout", "300"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unreachable" and out["layouts"] >= 1 and "refuted by UNSAT" in out["reason"]


def test_a_world_exhibits_zoo_keeps_each_region_to_itself(tmp_path, capsys):
    """The World Exhibits deal (first-game tiles, turn 9 a large African sponsor) with its layout
    given: the sponsor given on pt4 (0,0) in phase 9, a zoo is found and certified, and nothing
    but African animals shares its habitat (pt4 and z08 below it); a gazelle is given elsewhere in
    the next slot, so a given map must not be put in order (its sorted twin swaps the two). Given
    a zebra on z08 instead,
    UNSAT with no goal: no finished record has them together, though the habitat has the room and
    the watering holes for both."""
    layout = {n: json.loads((MULTI / "first-game-tiles.plan.json").read_text())["record"][n] for n in ("at", "side", "turned")}
    deal = str(MULTI / "world-exhibits.yaml")
    sponsor = {"kind": "africa_large", "on": "0,0", "placed": True, "when": 9}
    zebra = {"kind": "zebra", "on": "1,0", "placed": True, "when": 8}
    gazelle = {"kind": "gazelle", "on": "1,2", "placed": True, "when": 8}  # elsewhere; a kind before the sponsor's
    for beasts, code in (({"1": sponsor, "2": gazelle}, 0), ({"1": sponsor, "2": zebra}, 1)):
        (tmp_path / "given.json").write_text(json.dumps({**layout, "beast": beasts}))
        assert main(["solve", "zoo-ography", "--with", "multiplayer,world_exhibits", "--deal", deal, "--given",
                     str(tmp_path / "given.json"), "--target", "-40", "--json"]) == code
        out = json.loads(capsys.readouterr().out)
        assert out["status"] == ("reachable", "unreachable")[code]
        if code:
            assert out["reason"].startswith("no finished record at all")
            continue
        mates = [b["kind"] for b in out["record"]["beast"].values() if b["placed"] and b["on"] in ("0,0", "1,0")]
        assert "africa_large" in mates and set(mates) <= {"africa_small", "africa_large"}


def _renovation_draft(tmp_path):
    """A two-player draft in which every seat takes a renovation on every turn (and builds a tile
    whenever it may): the draft of the zoos in tests/specs/draft-zoos/."""
    def renovations(state, moves):
        for want in ("zgd.take-renovation", "zgd.build-tile"):
            for i, m in enumerate(moves):
                if m.action == want:
                    return i
        return 0
    return _played_draft(tmp_path, choose=renovations)[1]


def test_a_draft_and_its_zoos_name_the_winner_when_they_agree(tmp_path, capsys):
    """`zoospec draft-result`: the draft (zgd) and one zoo per seat (tests/specs/draft-zoos: records
    `solve --with multiplayer --target -40` found for the seats' draft-deal deals, tiles z01-z10 and
    z11-z20, rated -3 and -10) agree — certified, finished, the turns the draft gave — so the
    ratings go into the draft's last state and its own end rule names the winner. Both zoos took
    ten renovations, so either fits either seat: swapped, the winner swaps. A zoo with a monorail
    track the draft never gave its seat disagrees with it."""
    path = _renovation_draft(tmp_path)
    zoos = ROOT / "tests" / "specs" / "draft-zoos"
    one, two = f"{zoos / 'seat1.plan.json'}", f"{zoos / 'seat2.plan.json'}"
    assert main(["draft-result", str(path), "--zoo", f"1={one}", "--zoo", f"2={two}", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and [(z["rating"], z["animal_rating"]) for z in out["zoos"]] == [(-3, 1), (-10, 0)] and out["winner"] == 1
    assert main(["draft-result", str(path), "--zoo", f"1={two}", "--zoo", f"2={one}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == 2
    # the shipped multiplayer zoo as seat 2's: other actions than the draft's, and four tiles of seat 1's zoo
    other = str(MULTI / "first-game-tiles.plan.json")
    assert main(["draft-result", str(path), "--zoo", f"1={one}", "--zoo", f"2={other}", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert not out["ok"] and out["winner"] is None and out["zoos"][0]["problems"] == []
    assert "turn 4: the zoo took secluded_coin {'secluded': 1}, the draft renovation {}" in out["zoos"][1]["problems"]
    assert "z01 is in the zoos of seats 1 and 2: the draft hands a tile to one player" in out["problems"]
    # seat 1's zoo claiming a track from turn 3: the draft (without Connections) gave none
    railed = json.loads(Path(one).read_text())
    railed["record"]["railed"]["3"] = True
    (tmp_path / "railed.json").write_text(json.dumps(railed))
    assert main(["draft-result", str(path), "--zoo", f"1={tmp_path / 'railed.json'}", "--zoo", f"2={two}", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert "monorail tracks: the zoo's came on turns [3], the draft's on none" in out["zoos"][0]["problems"]
    assert main(["draft-result", str(path), "--zoo", f"1={one}"]) == 2
    assert "give one zoo each" in capsys.readouterr().err


def _sponsor_draft(tmp_path):
    """A two-player World Exhibits draft in which every seat takes a renovation on every turn but
    two — a general sponsor card on its third, a secluded one on its sixth — builds a tile whenever
    it may, and from its eighth take on flips sponsor cards for their rewards: seat 1 one, seat 2
    two. The draft of the zoos in tests/specs/draft-zoos/world-exhibits-seat*.plan.json."""
    from collections import Counter
    taken, flipped = Counter(), Counter()
    sponsor_on = {3: "zgd.take-sponsors", 6: "zgd.take-secluded-sponsor"}

    def choose(state, moves):
        for i, m in enumerate(moves):
            p = m.args.get("p")
            if m.action == "zgd.sponsor-reward" and not m.args.get("t") and taken[p] >= 8 and flipped[p] < p:
                flipped[p] += 1
                return i
        takes = [i for i, m in enumerate(moves) if m.action.startswith("zgd.take-")]
        if takes:
            p = moves[takes[0]].args["p"]
            wanted = [sponsor_on[taken[p] + 1]] if taken[p] + 1 in sponsor_on else []
            for action in wanted + ["zgd.take-renovation", "zgd.take-secluded", "zgd.take-animals", "zgd.take-column"]:
                i = next((i for i in takes if moves[i].action == action), None)
                if i is not None:
                    taken[p] += 1
                    return i
        return next((i for i, m in enumerate(moves) if m.action == "zgd.build-tile"), 0)
    return _played_draft(tmp_path, choose=choose, world_exhibits=True)[1]


def test_a_world_exhibits_draft_and_its_zoos_agree_on_cards_rewards_and_the_track(tmp_path, capsys):
    """`draft-result` for World Exhibits: each zoo names its sponsor cards and the phase of each
    reward, and the draft is read with those names (as `draft-deal --sponsors --rewarded
    --markers` reads it). The shipped zoos (`solve --with multiplayer,world_exhibits --target -40`
    for the seats' draft-deal deals, with the layouts of seat1/seat2.plan.json given: seat 1 sp01
    and ss01, sp01 rewarded in phase 8, rated -6; seat 2 sp07 and ss07, both rewarded in phase 8,
    rated -7) agree with the draft, and its end rule names seat 1 the winner. Swapped, seat 1's draft flipped one card where the zoo claims two rewards. A zoo
    claiming its reward a phase late, a card of the wrong size, and one card in both zoos: each is
    named. A zoo naming no card at all is read by its sponsor animals' regions, as a `--regions`
    deal is, and agrees."""
    path = _sponsor_draft(tmp_path)
    zoos = ROOT / "tests" / "specs" / "draft-zoos"
    one, two = (json.loads((zoos / f"world-exhibits-seat{s}.plan.json").read_text()) for s in (1, 2))

    def result(first, second, code):
        for seat, plan in ((1, first), (2, second)):
            (tmp_path / f"zoo{seat}.json").write_text(json.dumps(plan))
        assert main(["draft-result", str(path), "--zoo", f"1={tmp_path / 'zoo1.json'}",
                     "--zoo", f"2={tmp_path / 'zoo2.json'}", "--json"]) == code
        return json.loads(capsys.readouterr().out)
    out = result(one, two, 0)
    assert out["ok"] and out["winner"] == 1 and all(z["problems"] == [] for z in out["zoos"])
    assert [z["rating"] for z in out["zoos"]] == [one["score"], two["score"]] == [-6, -7]
    out = result(two, one, 1)
    assert any("seat 1 flipped 1 sponsor card(s) for their rewards" in p for p in out["zoos"][0]["problems"])
    late = json.loads(json.dumps(one))
    late["record"]["rewarded"]["3"]["1"] = 9
    out = result(late, two, 1)
    assert out["zoos"][0]["problems"] == [
        "the build phase of each card's reward: the zoo has {'3': {'1': 9}}, the draft {'3': {'1': 8}}"]
    large = json.loads(json.dumps(one))
    large["record"]["scard"]["3"]["1"] = "sp05"  # world_large, where the draft's pick was small
    out = result(large, two, 1)
    assert any("turn 3's card 1 is a small general sponsor in the draft; sp05 is world_large" in p for p in out["zoos"][0]["problems"])
    # a zoo naming no card (solved from a --regions deal): its sponsor animals give the regions, and no reward is checked
    unnamed = [json.loads(json.dumps(plan)) for plan in (one, two)]
    for plan in unnamed:
        for field, value in (("scard", "no_card"), ("rewarded", 0), ("rboth", False)):
            plan["record"][field] = {u: {j: value for j in slots} for u, slots in plan["record"][field].items()}
    assert result(*unnamed, 0)["ok"]
    shared = json.loads(json.dumps(two))
    shared["record"]["scard"]["6"]["1"] = "ss01"
    out = result(one, shared, 1)
    assert "ss01 is in the zoos of seats 1 and 2: the draft hands a sponsor card to one player" in out["problems"]


def test_the_bound_does_not_decide_the_same_deal_with_a_seating_tile_drawn():
    """The other side of that verdict: swap z04 into the deck for z11 (no seats) and the bound's
    rules allow a perfect zoo — it is the missing seats, not the bound, that made it UNSAT."""
    import time
    import z3
    g = game(SPEC)
    deal = puzzle.read_deal(g, SHORT)
    deck = deal["deck"]
    pos = next(i for i, p in deck.items() if p == "z11")
    deal["deck"] = {**deck, pos: "z04"}
    prob = puzzle._Problem(g, deal)
    assert puzzle.ask_bound(prob, 20, time.monotonic() + 900) == z3.sat


@pytest.mark.parametrize("claim", ["zg.claim.rating-at-most-10", "zg.claim.solo-deck-suffices"])
@pytest.mark.parametrize("switches", [[], ["--with", "multiplayer"]], ids=["solo", "multiplayer"])
def test_the_rulebooks_claims_hold(switches, claim, capsys, monkeypatch):
    """Rating at most 10 and the solo deck suffices: each proved (UNSAT of its negation), not
    unknown — for a solo zoo and for one player's ten-turn multiplayer zoo. (The multiplayer
    draft's claims are proved on its moves: test_zoo_ography_draft.py.) Asked as a user asks,
    Yices racing Z3 (the suite turns the race off): Z3 alone took 61-83 s on the multiplayer
    rating, past the suite's 60 s; raced it is answered in 7."""
    monkeypatch.setenv("ZOOSPEC_RACE", "on")
    assert main(["check", "zoo-ography", *switches, "--claim", claim, "--json", "--timeout", "300"]) == 0
    verdicts = {c["claim"]: c["verdict"] for c in json.loads(capsys.readouterr().out)["claims"]}
    assert verdicts == {claim: "holds"}


def test_the_picture_letters_every_tile_with_its_turns_phase_and_visitor():
    from zoospec.solvers.play import picture
    g = game(SPEC)
    text = picture.text(g, hand_made_record(g))
    assert " .AB." in text and " .CD." in text
    assert "D z10 (front, 3 turns, phase 1): N habitat E walkway S walkway W habitat" in text
    assert "feature visited in phase 2" in text and "zebra on 2,1 (1)" in text
    assert "<svg" in picture.svg(g, hand_made_record(g))


def test_a_rule_on_a_cut_means_the_same_to_z3_as_to_python():
    """The solver's refinement asserts 'rule R holds on the record cut back to phase p' as a Z3
    term (the cut effect compiled on the symbolic record). On the hand-made record, and on one
    whose z13 was built a phase before it was drafted, that term is true exactly where Python
    finds R holding on the cut — both ways, for rules of tiles, visitors and habitats."""
    import z3
    g = game(SPEC)
    legal = hand_made_record(g)
    early = {**legal, "built": {**legal["built"], "1,2": 1}}
    checks = [("zg.tile.orthogonal", {"t": 1}), ("zg.visitor.where", {"c": "2,2"}),
              ("zg.animal.sharing", {"c": "2,1"}), ("zg.tile.in-hand", {"c": "1,2"})]
    seen = set()
    for record in (legal, early):
        prob = puzzle._Problem(g, {n: record[n] for n in g.puzzle.deal})
        s = z3.Solver()
        s.add([v == c for v, c in prob.q.sym.bind(record) if not v.eq(c)])
        cuts = dict(puzzle.cuts(g, record))
        for rule, args in checks:
            r = g.rule(rule)
            for point in (0, 1, 2):
                term = prob.at_cut(r, args, point)
                s.add(prob.q.facts)
                expected = py_value(g, r.body, cuts[point], g._args(r.params, args, rule)) is True
                seen.add(expected)
                assert s.check(z3.Not(term) if expected else term) == z3.unsat, (rule, point, expected)
    assert seen == {True, False}


@pytest.mark.parametrize("name,score", [("first-game", 20), ("cliff-savanna-prairie", 20), ("seed-1", 20),
                                        ("multiplayer/first-game-tiles", 20), ("multiplayer/world-exhibits", 16)])
def test_a_shipped_zoo_replays_on_its_deal(name, score, tmp_path, capsys):
    """spec/zoo-ography/deals/NAME.plan.json: the record `zoospec solve` found for the deal
    NAME.yaml (first-game: 34 minutes, the whole-record question; Cliff, Savanna and Prairie: ~10
    minutes, and seeded deal 1: ~5 minutes, --layout-first — so they are shipped, not re-solved;
    World Exhibits: the best of `--best --layout-first` in 1,200 s, 16 half stars): every cut
    keeps every rule in Python, it is finished, it is rated as saved (a perfect 10 stars but the
    last), and its deal is the deal file's."""
    deals = ROOT / "spec" / "zoo-ography" / "deals"
    data = json.loads((deals / f"{name}.plan.json").read_text())
    data["#meta"]["source"] = SPEC
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(data))
    assert main(["replay", str(plan), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    g = game(SPEC).with_readings({}, data["#meta"]["switches"])
    assert out["ok"] and out["finished"] and out["score"] == score and len(out["steps"]) == len(g.domains["tick"].atoms)
    assert {n: g.state_to_json(puzzle.load_plan(g, data))[n] for n in g.puzzle.deal} == \
        {n: g.state_to_json({**g.start_state(), **puzzle.read_deal(g, deals / f"{name}.yaml")})[n] for n in g.puzzle.deal}


PLAN = ROOT / "spec" / "zoo-ography" / "deals" / "first-game.plan.json"


def test_a_given_layout_is_completed_to_a_perfect_zoo(capsys):
    """`--given plan.json:at,side,turned`: the shipped perfect zoo's layout fixed, Z3 finds the rest
    of a 20-half-star record (timing, animals, visitors) itself, certified at every phase."""
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", f"{PLAN}:at,side,turned", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "reachable" and out["score"] == 20 and out["given"] == ["at", "side", "turned"]
    plan = json.loads(PLAN.read_text())["record"]
    assert {n: out["record"][n] for n in ("at", "side", "turned")} == {n: plan[n] for n in ("at", "side", "turned")}


def test_two_setup_tiles_given_in_the_zoo_are_unreachable_by_the_hand_rule(tmp_path, capsys):
    """Only one of the three setup tiles is kept, so a zoo holding z20 and z06 (deck 1 and 2)
    cannot be built: UNSAT on the bound, and the minimal core is zg.tile.in-hand alone. The two
    spots are given, the other fourteen left to Z3 (a map that leaves keys out)."""
    given = tmp_path / "layout.json"
    given.write_text(json.dumps({"at": {"1,0": "z20", "1,3": "z06"}}))
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", str(given), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unreachable" and out["given"] == ["at (2 entries)"] and out["core"] == ["zg.tile.in-hand"]
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", str(given), "--target", "21"]) == 1
    assert "among records with the given at (2 entries)" in capsys.readouterr().out


def _z14_turned_wrong(tmp_path):
    """The shipped perfect zoo's layout with z14 (spot 3,1) turned from 3 to 0 quarter turns, so its
    habitat edge meets z10's walkway: a --given file."""
    given = {n: json.loads(PLAN.read_text())["record"][n] for n in ("at", "side", "turned")}
    assert given["at"]["3,1"] == "z14" and given["turned"]["3,1"] == 3
    given["turned"]["3,1"] = 0
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(given))
    return path


def test_a_given_layout_breaking_a_rule_admits_no_record_at_all(tmp_path, capsys):
    """The shipped perfect zoo's layout with z14 (spot 3,1) turned so its habitat edge meets z10's
    walkway: no finished record has it, whatever it scores — the core keeps no goal, and the
    verdict says so instead of naming none."""
    path = _z14_turned_wrong(tmp_path)
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unreachable" and out["core"] == [] and out["reason"].startswith("no finished record at all")
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", str(path), "--best"]) == 1
    assert "no finished record at all" in capsys.readouterr().out


def test_given_refuses_deal_variables_and_unknown_ones(tmp_path, capsys):
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", f"{PLAN}:deck"]) == 2
    assert "'deck' is part of the deal" in capsys.readouterr().err
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", f"{PLAN}:side,turnd"]) == 2
    assert "no variable 'turnd' (did you mean 'turned'?)" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"side": {"1,0": "front", "9,9": "front"}}))
    assert main(["solve", "zoo-ography", "--deal", FIRST, "--given", str(bad)]) == 2
    assert "side: key '9,9' is not a value of spot" in capsys.readouterr().err


CONNECTIONS = ROOT / "spec" / "cases" / "zoo-ography" / "connections.yaml"


def test_a_seed_deals_the_solo_game_by_the_specs_chance_actions():
    """ADR 0039: a seed is dealt by the zg.dealing.* actions under the switch `dealing` — a deck of
    21 different tiles of the base set and one variable set, each of the four sets dealt by some
    seed, the standard game unless the player chose the advanced one (then its bronze objective
    and the layout card's advanced side) — and nothing of the dealing is in the deal."""
    from zoospec.solvers.puzzle import deals
    g = game(SPEC)
    tile_set = g.consts["tile_set"][1]
    seen = set()
    for seed in range(1, 31):
        d = deals.deal(g, seed)
        variable = {tile_set[t] for t in d["deck"].values()} - {"base"}
        assert len(variable) == 1 and len(set(d["deck"].values())) == 21 and set(d) == set(g.puzzle.deal)
        assert not d["advanced"] and d["goal"]["bronze"] == "no_goal"
        seen |= variable
    assert seen == {"bird", "monkey", "shark", "snake"}
    assert deals.deal(g, 7) == deals.deal(g, 7)  # a seed always deals the same
    a = deals.deal(g, 7, {"advanced": True})
    assert a["advanced_layout"] and g.consts["goal_card"][1][a["goal"]["bronze"]]["slot"] == "bronze"
    with pytest.raises(StateError, match="turned: not a deal variable"):
        deals.deal(g, 7, {"turned": {}})


def test_connections_deals_are_advanced_with_a_monorail_card():
    """With the switch, chance deals the advanced game, a monorail objective in the bronze
    space and a layout (each deal judged by the spec's zg.deal.* rules, zg.deal.monorail among
    them, inside deals.deal); without it, never a monorail card."""
    from zoospec.solvers.puzzle import deals
    g = game(SPEC)
    gc = g.with_readings({}, {"connections": True})
    monorail = gc.consts["monorail_goals"][1]
    for seed in range(1, 21):
        d = deals.deal(gc, seed)
        assert d["advanced"] and d["mono"] != "no_monorail" and d["goal"]["bronze"] in monorail
        b = deals.deal(g, seed, {"advanced": True})
        assert b["mono"] == "no_monorail" and b["goal"]["bronze"] not in monorail


def test_the_picture_lists_the_monorail_with_its_station():
    from zoospec.solvers.play import picture
    g = game(SPEC).with_readings({}, {"connections": True})
    base = load_file(CONNECTIONS).data["base_state"]
    record = g.state_from_json(merged(g.state_to_json(g.start_state()), base))
    text = picture.text(g, record)
    assert "station 1,1-2,1 (#1, 0; station on 1,1)" in text and "track 2,1-2,2 (#2, 1)" in text
    assert "Monorail pieces" not in picture.text(game(SPEC), hand_made_record(game(SPEC)))


def test_layout_first_pins_a_side_and_turns_only_where_a_tile_lies():
    """The puzzle's `pin_only` (ADR 0016, session 24): with the shipped perfect zoo's tiles given
    where they lie, a proposal pins `side` and `turned` at exactly the spots holding a tile — an
    empty spot's are left free, so a refuted layout is not proposed again with one turned."""
    import z3
    g = game(SPEC)
    prob = puzzle._Problem(g, puzzle.read_deal(g, FIRST), puzzle.read_given(g, f"{PLAN}:at"))
    tiled = {c for c, p in json.loads(PLAN.read_text())["record"]["at"].items() if p != "no_tile"}
    pinned = {}
    for (name, _key), when, leaves in layout_first.pin_groups(g, prob):
        if when is not None and z3.is_true(z3.simplify(when)):
            pinned.setdefault(name, set()).update(str(x).split("[")[1].rstrip("]") for x in leaves)
        else:
            assert when is None or z3.is_false(z3.simplify(when)), when
    assert 1 < len(tiled) < 16 and pinned == {"side": tiled, "turned": tiled}


def test_draft_commands_name_the_file_they_cannot_read(tmp_path, capsys):
    """A missing file, a file that is not JSON, and a plan given where a draft trace belongs: each
    refused with the file named and what was expected, never a traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["draft-deal", str(tmp_path / "none.json"), "--seat", "1", "--tiles", TEN_TILES]) == 2
    assert "none.json: cannot read it" in capsys.readouterr().err
    assert main(["draft-deal", str(bad), "--seat", "1", "--tiles", TEN_TILES]) == 2
    assert "bad.json:1:2: not JSON" in capsys.readouterr().err  # where in the file
    assert main(["draft-deal", str(MULTI / "first-game-tiles.plan.json"), "--seat", "1", "--tiles", TEN_TILES]) == 2
    assert "is a zoo's plan; expected a trace of zoo-ography-draft" in capsys.readouterr().err
