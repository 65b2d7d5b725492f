"""What every whole game must show: each rule has a known-answer case where it holds and one where
it does not (an effect rule: a case of an action that runs it), and each action a case for its
effect (the cases themselves run in test_cases.py, through both back ends); a seed replays the
same game; `play --players N` plays one to its end from the command line. Each game's own file (test_zooloretto.py, test_new_york_zoo.py, test_zoo_parque.py) plays a
seeded game per player count through `assert_legal_under_both_back_ends`."""
import pytest
from conftest import ROOT, game

from zoospec.cli.main import main
from zoospec.front.yamlload import load_file
from zoospec.solvers import traces
from zoospec.solvers.play import playout as play

GAMES = ["zooloretto", "new-york-zoo", "zoo-parque"]
# game: (moves for the same-seed test, seed for play, a final score line it prints, a player count it refuses)
PLAY = {"zooloretto": (40, 5, "zlr.score.total(z=2)", 7), "new-york-zoo": (120, 2, "nyz.end.rank(p=1)", 6),
        "zoo-parque": (60, 1, "zp.score.total(p=2)", 5)}


def assert_legal_under_both_back_ends(trace, actions=None):
    """Every step of a played game re-checked by the Python and by the Z3 back end (with
    `actions`, by Z3 only the steps of those actions: a long game is split over several tests)."""
    assert all(c.ok for c in traces.replay(trace))
    z3_checks = traces.replay_z3(trace, actions=actions)
    steps = [s for s in trace.steps if actions is None or s.action in actions]
    assert len(z3_checks) == len(steps) and all(c.ok for c in z3_checks), [c.detail for c in z3_checks if not c.ok][:3]


def _expectations(name):
    out = {}
    for f in sorted((ROOT / "spec" / "cases" / name).glob("*.yaml")):
        for case in load_file(f).data["cases"]:
            key = case.get("rule") or case.get("action")
            out.setdefault(key, set()).add(case["expect"] if isinstance(case["expect"], bool) else repr(case["expect"]))
    return out


def _actions_using(g, rule):
    """The actions whose effect includes the effect rule's statements (the very statements: an
    action naming an effect rule takes them over as they are)."""
    return [a.id for a in g.actions.values() if all(any(s is t for t in a.effect) for s in rule.effect)]


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_has_a_case_where_it_holds_and_one_where_it_does_not(name):
    g = game(str(ROOT / "spec" / f"{name}.yaml"))
    cases = _expectations(name)
    # an effect rule has no value of its own: its cases are those of the actions that run it
    missing = [r.id for r in g.rules.values() if r.id not in cases
               and not (r.kind == "effect" and any(a in cases for a in _actions_using(g, r)))]
    assert not missing, f"rules without a case: {missing}"
    one_sided = [r.id for r in g.rules.values() if r.kind in ("legality", "invariant", "end") and not {True, False} <= cases[r.id]]
    assert not one_sided, f"rules that need a legal and an illegal case: {one_sided}"
    no_effect = [a for a in g.actions if a not in cases]
    assert not no_effect, f"actions without an effect case: {no_effect}"


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_plays_the_same_game(name):
    g = game(str(ROOT / "spec" / f"{name}.yaml"))
    steps = PLAY[name][0]
    a = play.play(g, g.start_state(3), seed=11, max_steps=steps)
    b = play.play(g, g.start_state(3), seed=11, max_steps=steps)
    assert a.trace.steps == b.trace.steps and len(a.trace.steps) == steps


@pytest.mark.parametrize("name", GAMES)
def test_play_from_the_command_line_plays_to_the_end_and_names_the_highest(name, capsys):
    _, seed, score_line, too_many = PLAY[name]
    assert main(["play", name, "--players", "2", "--seed", str(seed), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "ended after" in out and "an end rule holds" in out and score_line in out and "highest:" in out
    assert main(["play", name, "--players", str(too_many)]) == 2
    assert "players" in capsys.readouterr().err
