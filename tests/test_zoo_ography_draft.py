"""Zoo-ography's multiplayer draft (spec/zoo-ography-draft.yaml): every rule has known cases both
ways, the rulebook's promises about the draft and its animals are proved on the moves (the
whole-spec proofs in bench/proofs.py, which CI runs; here what breaks them: one shown to fail
under the other reading of where a secluded animal goes, two mutants), and a whole draft played
for 2, 3 and 4 players keeps them, every move checked by both back ends."""
import json

import pytest
from conftest import ROOT, game
from test_whole_games import _actions_using, _expectations, assert_legal_under_both_back_ends

from zoospec.cli.main import main
from zoospec.solvers.games.zoo_ography import draft_deals
from zoospec.solvers.play import picture, playout as play
from zoospec.solvers.puzzle import search as puzzle
from zoospec.solvers.symbolic import broken_invariants, python_invariants_hold

SPEC = str(ROOT / "spec" / "zoo-ography-draft.yaml")
ZOO = str(ROOT / "spec" / "zoo-ography.yaml")


def test_every_rule_has_a_case_where_it_holds_and_one_where_it_does_not():
    g = game(SPEC)
    cases = _expectations("zoo-ography-draft")
    effects = [r for r in g.rules.values() if r.kind == "effect"]
    assert [r.id for r in effects] == ["zgd.take.tile"]
    assert all(any(a in cases for a in _actions_using(g, r)) for r in effects)
    rules = [r for r in g.rules.values() if r.kind != "effect"]
    assert not [r.id for r in rules if r.id not in cases]
    assert not [r.id for r in rules if r.kind != "definition" and not {True, False} <= cases[r.id]]
    assert cases["zgd.end.winner"] == {"1", "2"}  # winners by rating, animal rating and turn order
    assert not [a for a in g.actions if a not in cases]


def test_with_one_track_fewer_a_four_player_game_runs_short(tmp_path, capsys):
    """With the Connections expansion every claim holds, the track pile included (bench/proofs.py
    draft_promises_with_connections, run by CI); with one track fewer, Z3 finds a four-player
    game's last reset short of a track."""
    text = open(SPEC, encoding="utf-8").read()
    assert text.count('      type: "int[0..16]"\n      value: 16') == 1
    mutant = tmp_path / "draft.yaml"
    mutant.write_text(text.replace('      type: "int[0..16]"\n      value: 16', '      type: "int[0..16]"\n      value: 15'),
                      encoding="utf-8")
    assert main(["check", str(mutant), "--with", "connections", "--claim", "zgd.claim.tracks-suffice", "--json"]) != 0
    (c,) = json.loads(capsys.readouterr().out)["claims"]
    (state,) = c["trace"]["states"]
    assert c["verdict"] == "fails" and state["players"] == 4 and state["pile"] < 2


def test_a_secluded_animal_on_a_plank_breaks_the_one_patch_promise(capsys):
    """Under the reading where a secluded animal taken from the game board goes onto a plank, the
    rulebook's "never more than one secluded animal on your board" fails: Z3 finds the move, and
    the Python back end replays it to a board with two or more (a column may hold two)."""
    assert main(["check", "zoo-ography-draft", "--reading", "board_secluded=plank", "--claim",
                 "zgd.claim.one-secluded", "--json", "--timeout", "120"]) != 0
    (c,) = json.loads(capsys.readouterr().out)["claims"]
    assert c["verdict"] == "fails"
    before, after = c["trace"]["states"]  # ITF: maps as {"#map": [[key, value], ...]}
    assert after["#meta"]["action"] in ("zgd.take-animals", "zgd.take-column")
    secluded = [dict(dict(s["held"]["#map"])[p]["#map"])["secluded"] + dict(s["patch"]["#map"])[p]
                + dict(s["spatch"]["#map"])[p] for s in (before, after) for p in (1, 2, 3, 4)]
    assert max(secluded[:4]) <= 1 and max(secluded[4:]) >= 2


def test_without_the_turn_order_tie_break_two_players_can_tie(tmp_path, capsys):
    """The one-winner claim can fail: drop the last tie-break and Z3 finds an end with two
    players tied on zoo and animal rating, so the(...) has no single winner."""
    text = open(SPEC, encoding="utf-8").read()
    assert text.count(" and p > q)))") == 1
    mutant = tmp_path / "draft.yaml"
    mutant.write_text(text.replace(" and p > q)))", ")))"), encoding="utf-8")
    assert main(["check", str(mutant), "--claim", "zgd.claim.one-winner", "--json", "--timeout", "120"]) != 0
    (c,) = json.loads(capsys.readouterr().out)["claims"]
    assert c["verdict"] == "fails" and "undefined" in c["detail"]


WORLD_EXHIBITS = {"zgd.draw-sponsor", "zgd.reveal-secluded", "zgd.take-sponsors", "zgd.take-secluded-sponsor",
                  "zgd.sponsor-reward", "zgd.place-sponsor-animal"}


@pytest.mark.parametrize("players,connections,world_exhibits,seed", [  # seeds whose games take every move
    (2, False, False, 2), (3, False, False, 3), (4, False, False, 4), (4, True, False, 4), (3, False, True, 4)])
def test_a_whole_draft_gives_everyone_ten_turns_from_at_least_three_tiles(players, connections, world_exhibits, seed):
    g = game(SPEC).with_readings({}, {"connections": connections, "world_exhibits": world_exhibits})
    offered = []
    res = play.play(g, g.start_state(players), seed=seed, max_steps=1000,
                    on_step=lambda i, st, s: offered.append(s["draft"] + 1) if st.action.startswith("zgd.take-") else None)
    assert res.ended_by == "an end rule holds"
    final = res.trace.states[-1]
    assert {p: final["turns"][p] for p in range(1, players + 1)} == {p: 10 for p in range(1, players + 1)}
    assert final["left"] == 0 and final["draft"] == 2 and len(offered) == 10 * players and min(offered) == 3
    assert all(python_invariants_hold(g, s) for s in res.trace.states)
    seats = range(1, players + 1)  # every meeple accounted for, in one place each
    assert all(final["supply"][k] + sum(b == k for b in final["board"].values()) + final["reserve"][k]
               + sum(final["held"][p][k] + final["zoo"][p][k] + (k == "secluded" and final["patch"][p]) for p in seats)
               == {"nobody": 0, "zebra": 9, "ostrich": 9, "gazelle": 9, "elephant": 6, "giraffe": 6, "rhino": 6,
                   "secluded": 34}[k] for k in final["supply"] if k != "nobody")
    taken = {st.action for st in res.trace.steps}  # every move of the spec played (the expansions' with their switches)
    assert taken == (set(g.actions) - (set() if connections else {"zgd.build-monorail"})
                     - ({"zgd.take-secluded"} if world_exhibits else WORLD_EXHIBITS))
    drawn = picture.text(g, final)  # the end drawn: the game over, each player's zoo listed
    assert "The game is over" in drawn and "?" not in drawn
    assert all(f"Player {p}'s zoo ({sum(final['zoo'][p].values())} animals)" in drawn for p in seats)
    assert ("Player 1's sponsors:" in drawn) == world_exhibits
    if connections:  # tracks left the pile at resets and reached hands with their tiles
        assert final["pile"] < 16 and any(st.args.get("m") for st in res.trace.steps)
        assert any(st.action == "zgd.build-monorail" for st in res.trace.steps)
    if world_exhibits:  # all 44 sponsor cards accounted for; no unique meeple left the supply
        assert sum(sum(v.values()) for v in final["cards"].values()) + sum(
            final["shand"][p] + final["sdone"][p] for p in seats) == 44
        assert final["supply"]["secluded"] == 34 and any(final["track"][p] > 0 for p in seats)
    assert_legal_under_both_back_ends(res.trace)
    # The part both specs formalise agrees: each seat's turns as the draft played them (actions,
    # animals, tracks, sponsor cards) are a deal the one-zoo record's rules accept — zg.deal.* and
    # each action's rule, zg.action.* (all but zg.action.room, which needs the zoo's placements),
    # under its switch multiplayer (ADR 0017); the tiles are named by us (the draft counts them).
    zoo = game(ZOO).with_readings({}, {"multiplayer": True, "connections": connections, "world_exhibits": world_exhibits})
    start = zoo.state_to_json(zoo.start_state())
    goal = {**start["goal"], "bronze": "express"} if connections else start["goal"]
    for p in seats:
        regions = ["africa"] * draft_deals.general_sponsors(res.trace, p) if world_exhibits else None
        raw = draft_deals.deal_from_draft(zoo, res.trace, p, [f"z{i:02}" for i in range(1, 11)], goal, start["card"],
                                          advanced=connections, mono="ml1" if connections else "no_monorail", regions=regions)
        deal = puzzle.deal_from_data(zoo, raw, f"seat {p}")
        assert puzzle.deal_problems(zoo, deal) == []
        acts = [r for r in broken_invariants(zoo, {**zoo.start_state(), **deal}, "zg.action.") if r != "zg.action.room"]
        assert acts == [], f"seat {p}: the draft's turns break {acts}"


def test_without_the_cap_on_the_animal_rating_bonus_a_zoo_passes_ten_stars(tmp_path, capsys):
    """With World Exhibits (and Connections beside it) every claim holds — the sponsors'
    invariant kept by every move, the measure still dropping, a secluded sponsor's animal counting
    toward the one patch, no zoo above 10 stars (bench/proofs.py draft_promises_with_world_exhibits,
    run by CI). Without the cap on the animal-rating bonus, Z3 finds a zoo of 10 stars lifted to
    10 and a half."""
    text = open(SPEC, encoding="utf-8").read()
    assert text.count("      min(top_rating, rating[p]") == 1
    mutant = tmp_path / "draft.yaml"
    mutant.write_text(text.replace("      min(top_rating, rating[p]", "      (rating[p]"), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(mutant), "--with", "world_exhibits", "--claim", "zgd.claim.ten-stars-at-most", "--json"]) != 0
    (c,) = json.loads(capsys.readouterr().out)["claims"]
    (state,) = c["trace"]["states"]
    top = [p for p, r in state["rating"]["#map"] if r == 20]
    assert c["verdict"] == "fails" and any(dict(state["animal_rating"]["#map"])[p]
                                           + dict(state["srating"]["#map"])[p] >= 25 for p in top)


def test_the_general_sponsor_deck_runs_out_before_the_tiles_do():
    """The rulebook refills the sponsor draft to four general sponsors at every reset but never
    says what happens when the 30-card deck cannot: four players taking two sponsors a turn reach
    a due reset with the deck short (here a reset draws what is left, an assumption the spec
    names). The game is played by the rules, every move checked by both back ends."""
    g = game(SPEC).with_readings({}, {"world_exhibits": True})

    def greedy(state, moves):  # two sponsor cards whenever the rules allow, else the first move
        two = [i for i, m in enumerate(moves) if m.action == "zgd.take-sponsors" and m.args["y"] != "no_sponsor"]
        return two[0] if two else 0

    res = play.play(g, g.start_state(4), choose=greedy, max_steps=1000)
    assert res.ended_by == "an end rule holds"
    short = [s for st, s in zip(res.trace.steps, res.trace.states[1:])
             if st.action == "zgd.reset" and s["srefill"] < 4 - sum(s["cards"]["draft_general"].values())
             - sum(s["cards"]["draft_marked"].values())]
    assert short and sum(short[0]["cards"]["general_deck"].values()) == short[0]["srefill"]
    assert all(python_invariants_hold(g, s) for s in res.trace.states)
    assert_legal_under_both_back_ends(res.trace)
