"""docs/adding-a-game.md is true: a new game written as data only — Pen Pals, an invented game
whose whole rulebook is tests/games/pen-pals.txt — goes through validate, coverage, play, check,
solve --seed and sweep, with its deal made by its own chance actions and its states drawn by its
own picture, and no Python anywhere for it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from zoospec.cli.main import main
from zoospec.front.loader import load
from zoospec.solvers import games, traces
from zoospec.solvers.puzzle import deals

HERE = Path(__file__).resolve().parent / "games"
SPEC = str(HERE / "pen-pals.yaml")
RULEBOOK = str(HERE / "pen-pals.txt")


def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_no_python_serves_the_new_game():
    assert games.hooks_for(load(SPEC)) is None


def test_it_validates_and_every_sentence_of_its_rulebook_is_judged(capsys):
    code, out = run(capsys, "validate", "--json", SPEC)
    assert code == 0 and json.loads(out)["files"][0]["game"] == "pp"
    code, out = run(capsys, "coverage", SPEC, "--rulebook", RULEBOOK, "--json")
    report = json.loads(out)
    status = [x["status"] for x in report["sentences"]]
    assert code == 0 and report["dangling"] == []
    assert (report["covered"], report["normative"], status.count("non-normative")) == (7, 7, 4)
    assert "uncovered" not in status


def test_a_seeded_game_is_played_to_its_end_and_drawn(capsys):
    code, out = run(capsys, "play", SPEC, "--seed", "3", "--json")
    game = json.loads(out)
    assert code == 0
    moves = [m["action"] for m in game["moves"]]
    assert moves == ["pp.deal"] * 4 + ["pp.place"] * 4  # chance deals the deck, then every card is placed
    assert game["ended_by"] == "an end rule holds" and game["end_rules"] == ["pp.end"]
    g = load(SPEC)
    assert game["scores"] == [{"rule": "pp.score.total", "args": {}, "points": 0}]
    assert g.rules["pp.score.total"].holds(g.state_from_json(game["final"])) == 0
    code, out = run(capsys, "play", SPEC, "--seed", "3")
    assert "Placed 4 of 4 cards" in out and "Pens:" in out  # the spec's own picture
    assert "pp.end: The game ends when all four cards are placed." in out  # why it ended, in the spec's words


def test_check_proves_the_ceiling_and_shows_a_zoo_that_reaches_it(capsys):
    code, out = run(capsys, "check", SPEC, "--json")
    verdicts = {c["claim"]: c for c in json.loads(out)["claims"]}
    assert code == 0
    assert verdicts["pp.claim.at-most-6"]["verdict"] == "holds"
    reached = verdicts["pp.claim.6-is-reached"]
    assert reached["verdict"] == "fails" and reached["as_expected"]
    g = load(SPEC)
    witness = traces.load_itf(g, reached["trace"]).states[0]
    assert g.rules["pp.score.total"].holds(witness) == 6


def test_a_deal_comes_from_the_spec_s_chance_actions():
    g = load(SPEC)
    decks = [deals.deal(g, seed)["deck"] for seed in range(1, 21)]
    assert deals.deal(g, 1) == deals.deal(g, 1)  # a seed always deals the same
    assert all(len(set(d.values())) == 4 for d in decks)  # four different cards (pp.deal.different-cards)
    assert len({tuple(d.values()) for d in decks}) > 10


def test_a_deal_variable_set_before_the_dealing_must_be_the_games(capsys):
    """`--set VAR=VALUE` fixes a deal variable before chance deals the rest (Zoo-ography's advanced
    game): a variable the game does not deal is refused, naming what it deals, and so is one its
    chance actions deal themselves (a fixed value would be silently dealt over)."""
    assert main(["solve", SPEC, "--seed", "1", "--set", "advanced=true"]) == 2
    assert "advanced: not a deal variable of Pen Pals (it deals deck)" in capsys.readouterr().err
    deck = {"1": "panda1", "2": "panda2", "3": "lion1", "4": "lion2"}
    assert main(["solve", SPEC, "--seed", "1", "--set", f"deck={json.dumps(deck)}"]) == 2
    assert "deck: the dealing of Pen Pals deals it itself; it cannot be set before" in capsys.readouterr().err
    assert main(["solve", SPEC, "--seed", "1", "--set", "deck"]) == 2
    assert "--set: expected VAR=VALUE, got 'deck'" in capsys.readouterr().err


@pytest.mark.parametrize("seed, status, code", [(1, "reachable", 0), (3, "unreachable", 1)])
def test_solve_a_seeded_deal(capsys, seed, status, code):
    got, out = run(capsys, "solve", SPEC, "--seed", str(seed), "--json")
    answer = json.loads(out)
    assert (got, answer["status"]) == (code, status)
    if status == "reachable":  # certified: the record's score by the Python back end
        g = load(SPEC)
        assert g.rules["pp.score.total"].holds(g.state_from_json(answer["record"])) == answer["score"] >= 4


def test_sweep_many_seeded_deals(capsys, tmp_path):
    out_file = tmp_path / "pp.jsonl"
    code, out = run(capsys, "sweep", SPEC, "--deals", "1-8", "--out", str(out_file), "--workers", "1", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["deals"] == 8
    lines = [json.loads(ln) for ln in out_file.read_text().splitlines()]
    assert sorted(ln["seed"] for ln in lines if ln["status"] == "reachable") == [1, 7]
