"""The analysis finds what is planted (tests/quality/specs/planted.yaml) with correct witnesses,
reports nothing where nothing is planted (clean.yaml), and never prints a finding the Python back
end does not reproduce. Witnesses are checked here again, independently of the tool's own check."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

from zoospec.backends.pygen import GenCompiler
from zoospec.backends.z3 import ZCompiler
from zoospec.cli.main import main
from zoospec.errors import InternalError, Undefined
from zoospec.front.loader import load
from zoospec.runtime.agreement import Compiled, items
from zoospec.runtime.strategies import states
from zoospec.solvers import traces
from zoospec.solvers.analysis import ambiguity, claims, coverage, fixtures

HERE = Path(__file__).resolve().parent / "specs"
PLANTED, CLEAN = HERE / "planted.yaml", HERE / "clean.yaml"
OPS = Path(__file__).resolve().parent.parent / "specs" / "ops.yaml"


@pytest.fixture(scope="module")
def planted():
    return load(PLANTED)


@pytest.fixture(scope="module")
def clean():
    return load(CLEAN)


# ------------------------------------------------------------------ false claims

def test_false_claims_fail_with_true_counterexamples(planted):
    got = {v.claim: v for v in claims.check_all(planted, 30)}
    assert {k: v.verdict for k, v in got.items()} == {
        "planted.claim.someone-at-zero": "fails", "planted.claim.score-keeps-ann-low": "fails",
        "planted.claim.slow-start": "fails", "planted.claim.ann-runs-out": "fails",
        "planted.claim.points-run-out": "holds", "planted.claim.always-a-move": "fails"}
    runs = got["planted.claim.ann-runs-out"]           # bob scored: ann's measure did not drop
    assert runs.trace.steps[0].args == {"p": "bob"} and "measure goes from" in runs.detail
    assert runs.trace.states[0]["points"]["ann"] == runs.trace.states[1]["points"]["ann"]
    assert "measure drops on every move" in got["planted.claim.points-run-out"].detail
    stuck = got["planted.claim.always-a-move"].trace.states[0]
    assert stuck == {"points": {"ann": 3, "bob": 3}, "over": False}
    s = got["planted.claim.someone-at-zero"].trace.states[0]
    assert all(n > 0 for n in s["points"].values())           # nobody at zero: the claim is false here
    mv = got["planted.claim.score-keeps-ann-low"].trace
    assert mv.states[0]["points"]["ann"] <= 2 < mv.states[1]["points"]["ann"]
    play = got["planted.claim.slow-start"].trace
    assert len(play.steps) == 2 and play.states[0]["points"] == {"ann": 0, "bob": 0}
    assert play.states[-1]["points"]["ann"] == 2
    assert all(c.ok for c in traces.replay(play))
    assert not any(v.as_expected for k, v in got.items() if k != "planted.claim.points-run-out")


def test_true_claims_hold(clean):
    got = {v.claim: v for v in claims.check_all(clean, 30)}
    assert {k: v.verdict for k, v in got.items()} == {
        "clean.claim.bounded": "holds", "clean.claim.pass-keeps-points": "holds", "clean.claim.play": "holds",
        "clean.claim.always-a-move": "holds"}
    assert "bounded" in got["clean.claim.play"].method and got["clean.claim.play"].covered == {"steps": 3}


# ------------------------------------------------------------------ ambiguities

def test_planted_ambiguity_gap_and_dead_ends_are_found(planted):
    found = ambiguity.find_all(planted, 30)
    kinds = sorted((f.kind, f.subject) for f in found)
    assert kinds == [("dead-action", "planted.never"), ("dead-end", "planted"), ("gap", "planted.crown"),
                     ("readings-differ", "ahead"), ("readings-differ", "ahead"), ("switched-off", "planted.bonus")]
    strict = planted.with_readings({"ahead": "strictly"})
    loose = planted.with_readings({"ahead": "tie_counts"})
    for f in found:
        s = f.trace.states[0] if f.trace else None
        if f.kind == "readings-differ" and "planted.win" in f.message:
            p = f.trace.params["p"]
            assert strict.rule("planted.win").holds(s, p=p) != loose.rule("planted.win").holds(s, p=p)
        if f.kind == "switched-off":  # legal with the variant on, in the state shown, and dead without it
            assert "bonus" in f.message and f.trace.game.switches["bonus"] and not planted.switches["bonus"]
            assert f.trace.game.legal(s, "planted.bonus", f.trace.params)
            assert not planted.legal(s, "planted.bonus", f.trace.params)
        if f.kind == "gap":
            assert s["points"]["ann"] == s["points"]["bob"]  # a tie: no single leader
            with pytest.raises(Undefined):
                planted.rule("planted.crown").holds(s)
        if f.kind == "dead-end":
            assert not s["over"] and not any(planted.legal(s, a, args) for a, args in
                                             [("planted.score", {"p": "ann"}), ("planted.score", {"p": "bob"}),
                                              ("planted.never", {})])


def test_a_gap_python_meets_only_after_another_is_that_ones_finding():
    """ops.div is `(n // m) + (n % m)`: both fail at m = 0 and Python stops at the division first.
    The modulo's gap was asked of Z3 alone, and Python, stopping elsewhere on Z3's state, refused
    it as a back-end disagreement: `ambiguities` ended with an internal error on this spec. Now
    Z3 is asked again with the division defined (UNSAT: the modulo fails only where it does)."""
    found = [f for f in ambiguity.gaps(load(OPS), 30) if f.subject == "ops.div"]
    assert [f.kind for f in found] == ["gap"] and "division by zero" in found[0].message
    s = found[0].trace.states[0]
    with pytest.raises(Undefined, match="division by zero"):
        load(OPS).evaluate(load(OPS).rules["ops.div"].body, s, {})


def test_nothing_is_reported_where_nothing_is_planted(clean):
    found = ambiguity.find_all(clean, 30)
    assert not [f for f in found if f.is_problem]
    assert {f.kind for f in found} == {"readings-agree"}


# ------------------------------------------------------------------ the Python back end has the last word

def test_a_broken_z3_back_end_is_caught_as_an_internal_error(monkeypatch, clean, capsys):
    real = ZCompiler.z_Compare

    def wrong(self, e, env, ctx, st):
        if e.op == "<=":
            e = dataclasses.replace(e, left=e.right, right=e.left)
        return real(self, e, env, ctx, st)

    monkeypatch.setattr(ZCompiler, "z_Compare", wrong)  # a <= b now means b <= a on the Z3 side
    with pytest.raises(InternalError, match="does not reproduce"):
        claims.check(clean, clean.claims["clean.claim.bounded"], 30)
    assert main(["check", str(CLEAN)]) == 4
    err = capsys.readouterr()
    assert "internal error" in err.err and "FAILS" not in err.out


def test_a_broken_generated_python_is_caught_by_the_forward_check(monkeypatch):
    """A planted defect in the generator (`a <= b` written as `b <= a`): on the states the forward
    agreement test draws, the generated Python leaves the closures, and the closures stay with Z3."""
    real = GenCompiler.g_Compare

    def wrong(self, e, sc):
        if e.op == "<=":
            e = dataclasses.replace(e, left=e.right, right=e.left)
        return real(self, e, sc)

    monkeypatch.setattr(GenCompiler, "g_Compare", wrong)
    monkeypatch.delenv("ZOOSPEC_PYTHON", raising=False)  # the generated back end, whatever the suite runs on
    g = load(OPS)  # a fresh game: nothing generated before the defect
    (item,) = [i for i in items(g) if i.label == "rule ops.cmp"]
    c = Compiled(g, item)
    found = []

    @settings(max_examples=100, database=None)
    @given(states(g))
    def check(state):
        py, ref = c.python(state, {}), c.reference(state, {})
        if py != ref:
            found.append((ref, c.z3_on(state, {})))

    check()
    assert found and all(ref == zv for ref, zv in found)


# ------------------------------------------------------------------ fixtures

def test_fixtures_are_boundary_pairs_that_python_confirms(tmp_path, planted):
    index = fixtures.generate(planted, tmp_path, seed=0, timeout=30)
    assert fixtures.count(index) >= 5
    assert json.loads((tmp_path / "state.schema.json").read_text())["required"] == ["points", "over"]
    win = json.loads((tmp_path / "planted.win.json").read_text())
    for fx in win:
        a = fx["args"]
        held = planted.state_from_json(fx["holds"]["state"])
        failed = planted.state_from_json(fx["fails"]["state"])
        assert planted.rule("planted.win").holds(held, **a) is True
        assert planted.rule("planted.win").holds(failed, **a) is False
        assert fx["changed"]  # one difference, named
    score = json.loads((tmp_path / "planted.score.json").read_text())[0]
    s = planted.state_from_json(score["legal"]["state"])
    assert planted.legal(s, "planted.score", score["args"])
    assert planted.state_to_json(planted.apply(s, "planted.score", score["args"])) == score["legal"]["expected_after"]
    assert not planted.legal(planted.state_from_json(score["illegal"]["state"]), "planted.score", score["args"])
    assert any(nb.get("action") == "planted.never" for nb in index["no_boundary"])


def test_fixtures_are_byte_identical_for_one_seed(tmp_path):
    outs = []
    for run in ("a", "b"):
        d = tmp_path / run
        subprocess.run([sys.executable, "-m", "zoospec.cli", "fixtures", str(PLANTED), "--out", str(d), "--seed", "7"],
                       check=True, capture_output=True)
        outs.append({p.name: p.read_bytes() for p in sorted(d.iterdir())})
    assert outs[0] == outs[1] and len(outs[0]) >= 4


# ------------------------------------------------------------------ coverage, traces, commands

def test_coverage_counts_sentences(planted):
    rep = coverage.report(planted, HERE / "planted-rulebook.txt")
    assert (rep.covered, rep.normative, len(rep.uncovered)) == (6, 7, 1)
    assert rep.uncovered[0].sentence.text == "Nobody may skip a turn."
    assert main(["coverage", str(PLANTED), "--rulebook", str(HERE / "planted-rulebook.txt")]) == 1


def test_traces_round_trip_and_replay_from_the_command_line(tmp_path, capsys):
    assert main(["check", str(PLANTED), "--traces", str(tmp_path), "--svg", str(tmp_path / "svg")]) == 1
    saved = tmp_path / "planted.claim.slow-start.itf.json"
    data = json.loads(saved.read_text())
    assert data["#meta"]["format"] == "ITF" and data["states"][1]["#meta"]["action"] == "planted.score"
    assert data["states"][0]["points"] == {"#map": [["ann", 0], ["bob", 0]]}
    assert main(["replay", str(saved)]) == 0
    data["states"][2]["points"]["#map"][0][1] = 3
    saved.write_text(json.dumps(data))
    assert main(["replay", str(saved)]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    data = json.loads(saved.read_text())  # a step that is not legal names the requirement it breaks
    data["states"][0]["over"] = True
    saved.write_text(json.dumps(data))
    assert main(["replay", str(saved)]) == 1
    out = capsys.readouterr().out
    assert "planted.score is not legal in state 0: BROKEN — require 2 (" in out and "planted.yaml:" in out
    assert (tmp_path / "svg" / "planted.claim.slow-start.state0.svg").read_text().startswith("<svg")


def test_check_json_and_exit_codes(capsys):
    assert main(["check", str(CLEAN), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [c["verdict"] for c in out["claims"]] == ["holds", "holds", "holds", "holds"]
    assert main(["ambiguities", str(PLANTED), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert {f["kind"] for f in out["findings"]} >= {"readings-differ", "gap", "dead-end", "dead-action"}
    assert main(["check", str(CLEAN), "--reading", "nonsense"]) == 2


def test_the_tour_runs_every_search_and_flags_an_unexpected_verdict(capsys):
    """The tour end to end on spec files (a bundled game's tour takes minutes — New York Zoo's
    about 13 at short timeouts; tests/test_new_york_zoo.py and tests/test_zooloretto.py check their
    claims and findings one by one): every search runs, the clean spec passes, the planted one
    fails the tour (exit 1) by the claims that went against their expectation."""
    assert main(["tour", "--no-report", "--json", "--timeout", "30", "--games", str(CLEAN), str(PLANTED)]) == 1
    rows = {r["game"]: r for r in json.loads(capsys.readouterr().out)["games"]}
    clean, planted = rows[str(CLEAN)], rows[str(PLANTED)]
    assert clean["valid"] and clean["claims"] == {"holds": 4, "fails": 0, "unknown": 0} and not clean["unexpected"]
    assert clean["fixtures"] >= 3 and clean["coverage"]["dangling"] == 0
    assert planted["unexpected"] and "planted.claim.always-a-move" in planted["unexpected"]
    assert all(planted["findings"][k] >= 1 for k in ("readings-differ", "gap", "dead-end", "dead-action", "switched-off"))
    assert main(["tour", "--no-report", "--games", "no-such-game"]) == 2


def test_play_takes_only_legal_moves_and_stops_by_the_rules(planted, tmp_path):
    from zoospec.solvers.play import playout as play

    start = planted.state_from_json({"points": {"ann": 0, "bob": 0}, "over": False})
    result = play.play(planted, start, seed=3, max_steps=50)
    assert result.ended_by == "no legal move"          # the planted dead end: both at 3
    assert result.trace.states[-1]["points"] == {"ann": 3, "bob": 3}
    assert len(result.trace.steps) == 6 and all(c.ok for c in traces.replay(result.trace))
    again = play.play(planted, start, seed=3, max_steps=50)
    assert again.trace.steps == result.trace.steps      # a seed fixes the game
    f = tmp_path / "start.json"
    f.write_text(json.dumps({"points": {"ann": 2, "bob": 3}, "over": False}))
    assert main(["play", str(PLANTED), "--state", str(f), "--seed", "1", "--quiet",
                 "--trace", str(tmp_path / "g.itf.json")]) == 0
    assert main(["replay", str(tmp_path / "g.itf.json")]) == 0


def test_analysis_commands_refuse_bad_specs_cleanly(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text((HERE / "clean.yaml").read_text().replace('body: "mover == turn"', 'body: "mover == turnn"')
                   .replace('require: ["mover == turn"]', 'require: ["mover == turnn"]'))
    for cmd in (["check", str(bad)], ["ambiguities", str(bad)], ["fixtures", str(bad), "--out", str(tmp_path / "fx")]):
        assert main(cmd) == 2
        err = capsys.readouterr().err
        assert "bad.yaml:" in err and "turnn" in err and "Traceback" not in err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2


def test_fixtures_of_a_set_valued_rule_compare_sets_by_value(tmp_path, clean):
    """A rule whose value is a set: the pair's two values differ as sets (not as Z3 objects) and
    are written as JSON lists."""
    fixtures.generate(clean, tmp_path, seed=0, timeout=30)
    (pair,) = json.loads((tmp_path / "clean.scorers.json").read_text())
    first, second = pair["holds"]["expected"], pair["fails"]["expected"]
    assert isinstance(first, list) and isinstance(second, list) and set(first) != set(second)
    g = clean
    s1 = g.state_from_json(pair["holds"]["state"])
    assert sorted(g.evaluate(g.rule("clean.scorers").body, s1)) == first


def test_a_spent_fixture_budget_skips_what_is_left_and_says_so(tmp_path, planted):
    index = fixtures.generate(planted, tmp_path, seed=0, timeout=30, budget=0)
    assert index["files"] == [] and set(index["skipped"]) == set(planted.rules) | set(planted.actions)
    assert json.loads((tmp_path / "index.json").read_text())["skipped"] == index["skipped"]


def test_an_action_no_engine_answered_for_under_its_switch_is_not_called_plainly_dead(planted, monkeypatch):
    """planted.bonus is UNSAT as the switches are; when the question with `bonus` on gets no
    answer, the finding stays dead-action (the UNSAT it has) but says the switch is unanswered —
    never 'switched off' without a state, never dead without saying what was not known."""
    real = ambiguity._legal_somewhere

    def bonus_unanswered(game, action, timeout, deadline=None):
        if game.switches.get("bonus") and action == "planted.bonus":
            return "unknown", "timeout"
        return real(game, action, timeout, deadline)
    monkeypatch.setattr(ambiguity, "_legal_somewhere", bonus_unanswered)
    found = {f.subject: f for f in ambiguity.dead_ends(planted, 30)}
    assert found["planted.bonus"].kind == "dead-action"
    assert found["planted.bonus"].message.endswith("(UNSAT); with bonus on: no engine answered in time")
    assert found["planted.never"].message.endswith("(UNSAT)")  # bonus on was answered for it: UNSAT too
