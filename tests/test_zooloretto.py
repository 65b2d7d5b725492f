"""Zooloretto end to end: seeded games for every player count play to the end with every move
legal under both back ends; every rule has a case where it holds and one where it does not."""
import pytest

from conftest import ROOT, game
from zoospec.cli import main
from zoospec.solvers import play, traces
from zoospec.yamlload import load_file

SPEC = str(ROOT / "spec" / "zooloretto.yaml")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_seeded_game_ends_by_the_rules_with_every_move_legal_under_both_back_ends(players):
    g = game(SPEC)
    result = play.play(g, g.start_state(players), seed=players, max_steps=3000)
    final = result.trace.states[-1]
    assert result.ended_by == "an end rule holds" and final["phase"] == "over"
    assert len(final["removed"]) == {2: 3, 3: 2, 4: 1, 5: 0}[players]
    assert all(final["herd"][z][p][s] == 0 for z in range(players + 1, 6) for p in final["herd"][z] for s in final["herd"][z][p])
    assert final["pile_started"] and sum(final["bag"].values()) < 15       # the last round used the pile
    assert all(c.ok for c in traces.replay(result.trace))
    z3_checks = traces.replay_z3(result.trace)
    assert len(z3_checks) == len(result.trace.steps) and all(c.ok for c in z3_checks), [c.detail for c in z3_checks if not c.ok][:3]
    scores = play.final_scores(g, final)
    assert [r["args"]["z"] for r in scores] == list(range(1, players + 1))


def test_the_same_seed_plays_the_same_game():
    g = game(SPEC)
    a = play.play(g, g.start_state(3), seed=11, max_steps=40)
    b = play.play(g, g.start_state(3), seed=11, max_steps=40)
    assert a.trace.steps == b.trace.steps and len(a.trace.steps) == 40


def _cases():
    out = {}
    for f in sorted((ROOT / "spec" / "cases" / "zooloretto").glob("*.yaml")):
        for case in load_file(f).data["cases"]:
            key = case.get("rule") or case.get("action")
            out.setdefault(key, set()).add(repr(case["expect"]) if not isinstance(case["expect"], bool) else case["expect"])
    return out


def test_every_rule_has_a_case_where_it_holds_and_one_where_it_does_not():
    g = game(SPEC)
    cases = _cases()
    for r in g.rules.values():
        assert r.id in cases, f"no case for {r.id}"
        if r.kind in ("legality", "invariant", "end"):
            assert {True, False} <= cases[r.id], f"{r.id} needs a legal and an illegal case"
    missing = [a for a in g.actions if a not in cases]
    assert not missing, f"actions without an effect case: {missing}"


def test_play_from_the_command_line_with_players(capsys):
    assert main(["play", "zooloretto", "--players", "2", "--seed", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "ended after" in out and "an end rule holds" in out and "zlr.score.total(z=2)" in out and "highest:" in out
    assert main(["play", "zooloretto", "--players", "7"]) == 2
    assert "players" in capsys.readouterr().err
