"""`zoospec conform`: someone else's Pen Pals (tests/conformance/pen_pals_adapter.py, written from
the rulebook without zoospec) driven through the JSON protocol; a faithful one agrees everywhere,
a planted bug is named with the rule and sentences that decide it, the other reading of an
ambiguous sentence is named as that reading, not as a bug, and fingerprinted as it — also from
the states where the readings differ alone; an adapter that hangs, dies, prints garbage or
answers the wrong shape is named with the request, and the comparison goes on."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest
from conftest import ROOT, game

from zoospec.cli.main import main
from zoospec.solvers.analysis.conform import protocol_problem
from zoospec.solvers.analysis.shrink import size
from zoospec.solvers.symbolic import python_invariants_hold

HERE = Path(__file__).resolve().parent
SPEC = str(HERE / "games" / "pen-pals.yaml")
ADAPTER = HERE / "conformance" / "pen_pals_adapter.py"
WRAPPED = ROOT / "examples" / "adapters" / "zoospec_rules.py"


def conform(capsys, *flags, games=25, more=()):
    code = main(["conform", SPEC, "--adapter", f"{sys.executable} {ADAPTER} {' '.join(flags)}", "--games", str(games), "--json", *more])
    return code, json.loads(capsys.readouterr().out)


def test_a_faithful_implementation_agrees_on_every_answer(capsys):
    code, rep = conform(capsys)
    assert code == 0 and rep["disagreements"] == [] and rep["unsupported"] == []
    assert rep["asked"]["legal"] > 1000 and rep["asked"]["apply"] > 500 and rep["asked"]["score"] == rep["asked"]["end"] > 100
    assert rep["asked"]["moves"] == rep["asked"]["end"] and rep["protocol"] == []


@pytest.mark.parametrize("flag, ops, decided_by", [
    ("--no-otter-penalty", {"score"}, "pp.score.total (pen-pals.txt § Scoring, sentence 1, 2, 3)"),
    ("--deal-twice", {"legal", "moves"}, "pp.setup.deal (pen-pals.txt § Setup, sentence 1, 2)"),
])
def test_a_planted_bug_is_named_with_the_rule_that_decides_it(capsys, flag, ops, decided_by):
    code, rep = conform(capsys, flag)
    assert code == 1 and rep["disagreements"]
    assert {(d["kind"], d["op"], d["why"]) for d in rep["disagreements"]} == {("bug", op, decided_by) for op in ops}
    if "moves" in ops:  # a card dealt twice is listed among its moves, and the spec lists it not
        d = next(d for d in rep["disagreements"] if d["op"] == "moves")
        assert d["spec"] is False and d["other"] is True and d["args"]["c"] in d["state"]["deck"].values()
    shrunk = [d for d in rep["disagreements"] if d["smallest"] is not None]
    assert {d["op"] for d in shrunk} == ops  # one per group, shrunk against the adapter
    g = game(SPEC)
    for d in shrunk:
        small = g.state_from_json(d["smallest"])
        assert python_invariants_hold(g, small) and size(small, g.state_types, g.domains) <= size(
            g.state_from_json(d["state"]), g.state_types, g.domains)
        if flag == "--no-otter-penalty":  # one lonely otter in the first pen is all it takes
            assert d["smallest"]["now"] == 1 and d["smallest"]["deck"]["1"].startswith("otter") and d["smallest"]["spot"]["1"] == "0,0"
        else:  # the card dealt first is the one offered again
            assert d["smallest"]["dealt"] == 1 and d["smallest"]["deck"]["1"] == d["args"]["c"]


def test_the_other_reading_is_named_as_a_reading(capsys):
    code, rep = conform(capsys, "--diagonal-company")
    assert code == 1
    assert rep["groups"] == [{"kind": "reading", "why": "company=diagonals", "count": len(rep["disagreements"])}]
    d = rep["disagreements"][0]  # a lonely otter with an animal diagonally next to it
    assert d["op"] == "score" and d["other"] == d["spec"] + 1
    (f,) = rep["fingerprint"]
    assert f["reading"] == "company" and f["follows"] == "diagonals" and f["questions"] == f["matches"]["diagonals"] > 0


@pytest.mark.parametrize("flags, follows", [((), "sides"), (("--diagonal-company",), "diagonals")])
def test_the_states_where_readings_differ_fingerprint_an_implementation_alone(capsys, flags, follows):
    """With --cases readings, the ambiguity analysis's smallest state for each reading is asked
    about; that alone tells which choice the implementation made."""
    code, rep = conform(capsys, *flags, more=("--cases", "readings"))
    assert rep["cases"].keys() == {"readings"} and rep["cases"]["readings"] > 0
    (f,) = rep["fingerprint"]
    assert f["follows"] == follows and f["spec"] == "sides" and f["neither"] == 0 and f["questions"] > 0
    assert code == (0 if follows == "sides" else 1)


def test_the_boundary_fixtures_alone_find_a_planted_bug(capsys):
    """--cases fixtures: the states on either side of each rule's and action's verdict."""
    code, rep = conform(capsys, "--deal-twice", more=("--cases", "fixtures"))
    assert rep["cases"].keys() == {"fixtures"} and rep["cases"]["fixtures"] > 10 and code == 1
    assert {(d["kind"], d["why"].split(" (")[0]) for d in rep["disagreements"]} == {("bug", "pp.setup.deal")}


def test_random_states_the_rules_allow_are_asked_and_find_a_planted_bug_more_often(capsys):
    """--cases random: states a few random changes away from the seeded games' (solvers/analysis/
    mutants.py). The faithful implementation agrees on all of them; the one without the otter
    penalty is caught on many, where one game's own states show it once."""
    code, rep = conform(capsys, games=1, more=("--cases", "random"))
    assert code == 0 and rep["cases"] == {"random": 100} and rep["disagreements"] == []
    _, alone = conform(capsys, "--no-otter-penalty", games=1)
    code, rep = conform(capsys, "--no-otter-penalty", games=1, more=("--cases", "random"))
    assert code == 1 and {(d["kind"], d["why"].split(" (")[0]) for d in rep["disagreements"]} == {("bug", "pp.score.total")}
    assert len(rep["disagreements"]) > 5 * len(alone["disagreements"]) > 0


def test_the_report_page_shows_each_group_with_its_states_drawn_and_every_question_counted(capsys, tmp_path):
    """--report DIR: index.html (self-contained, as the tour's) with the bug's group, its question
    and both answers, the state asked on and the smallest one drawn; the reading followed; a row
    per request kind and rule or action whose counts add up to what was asked; conform.json is
    what --json prints."""
    from test_report import Elements

    code, rep = conform(capsys, "--deal-twice", "--diagonal-company", more=("--cases", "games,readings", "--report", str(tmp_path)))
    assert code == 1 and json.loads((tmp_path / "conform.json").read_text()) == {
        k: v for k, v in rep.items() if k not in ("format", "output")}
    text = (tmp_path / "index.html").read_text()
    page = Elements()
    page.feed(text)
    assert page.external == [] and "<script" not in text
    groups = [a for t, a in page.found if t == "section" and a.get("class") == "group"]
    assert [(a["data-kind"], a["data-why"], int(a["data-count"])) for a in groups] == [
        (g["kind"], g["why"], g["count"]) for g in rep["groups"]]
    bug = text[text.index("data-why='pp.setup.deal"):]
    assert bug[:bug.index("</section>")].count("<svg") == 2  # the state asked on, and the smallest
    follows = {a["data-reading"]: a["data-follows"] for t, a in page.found if t == "tr" and "data-reading" in a}
    assert follows == {"company": "diagonals"}
    rows = [a for t, a in page.found if t == "tr" and a.get("class", "").startswith("question")]
    for op, n in rep["asked"].items():
        if op != "moves":  # a moves request is one question per move any side lists
            assert sum(int(a["data-asked"]) for a in rows if a["data-op"] == op) == n
    assert {(a["data-op"], a["data-subject"]) for a in rows if "differs" in a["class"]} == {
        (d["op"], d["subject"]) for d in rep["disagreements"]}


def _assumed_pair_points(tmp_path) -> str:
    """Pen Pals with the points a pair scores made a constant the spec marks assumed."""
    text = (HERE / "games" / "pen-pals.yaml").read_text()
    text = text.replace("  constants:\n", "  constants:\n    pair_points: {type: int, value: 2, assumed: true}\n", 1)
    assert 'pairs: "2 * count(' in text
    (tmp_path / "pp.yaml").write_text(text.replace('pairs: "2 * count(', 'pairs: "pair_points * count(', 1))
    return str(tmp_path / "pp.yaml")


@pytest.mark.parametrize("value, group", [
    (3, ("assumption", "pair_points = 3 (the spec assumes 2)")),
    (1, ("assumption", "pair_points = 1 (the spec assumes 2)")),
    (7, ("bug", "pp.score.total (pen-pals.txt § Scoring, sentence 1, 2, 3)")),  # not a value near the spec's
])
def test_another_value_for_an_assumed_one_is_named_as_that_assumption(capsys, tmp_path, value, group):
    """An implementation that took another number where the spec marks its own `assumed` is
    named with that number, not as a bug (solvers/analysis/assumed.py); one far from the spec's
    is still a bug, decided by the rule. The adapter plays the implementation (--constant)."""
    spec = _assumed_pair_points(tmp_path)
    code = main(["conform", spec, "--adapter", f"{sys.executable} {WRAPPED} {spec} --constant pair_points={value}",
                 "--games", "10", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert code == 1 and [(g["kind"], g["why"]) for g in rep["groups"]] == [group]
    assert {(d["op"], d["subject"]) for d in rep["disagreements"]} == {("score", "pp.score.total")}


def test_a_constant_is_given_another_value_as_the_file_writes_it_and_keeps_it_under_readings(tmp_path):
    """Game.with_constants (front/loader.load's `constants`): the value replaces the file's and is
    checked like it, at its line; a name the spec has not is refused with the one it may mean."""
    from zoospec.errors import SpecError
    from zoospec.front.loader import load

    g = load(_assumed_pair_points(tmp_path))
    three = g.with_constants({"pair_points": 3})
    assert three.consts["pair_points"][1] == 3 and three.with_readings({"company": "diagonals"}).consts["pair_points"][1] == 3
    assert g.consts["pair_points"][1] == 2 and three.varied == {"pair_points": 3}
    with pytest.raises(SpecError, match="no constant named pair_point .did you mean 'pair_points'"):
        g.with_constants({"pair_point": 3})
    with pytest.raises(SpecError, match=r"pp.yaml:\d+:\d+: .*pair_points.*expected an integer"):
        g.with_constants({"pair_points": "many"})


def test_random_states_satisfy_the_invariants_are_new_and_a_seed_gives_the_same():
    """Each is one to three leaves away from the game state it was made from, satisfies every
    invariant, is none of the game's states and none of the others; on Zooloretto's thousand-leaf
    tables too, and a seed gives the same ones."""
    from zoospec.solvers.analysis.mutants import random_states
    from zoospec.solvers.analysis.shrink import leaves, value_at
    from zoospec.solvers.play.playout import play

    for spec in (SPEC, str(ROOT / "spec" / "zooloretto.yaml")):
        g = game(spec)
        bases = play(g, g.start_state(), seed=0, max_steps=40).trace.states
        made = random_states(g, bases, 30, seed=7)
        key = lambda s: json.dumps(g.state_to_json(s), sort_keys=True)  # noqa: E731
        assert len(made) == 30 and made == random_states(g, bases, 30, seed=7) != random_states(g, bases, 30, seed=8)
        assert len({key(s) for s in made}) == 30 and not {key(s) for s in made} & {key(s) for s in bases}
        for s in made:
            assert python_invariants_hold(g, s)
            changed = min(sum(value_at(s[n], p) != value_at(b[n], p) for n, t in g.state_types.items()
                              for p, _ in leaves(b[n], t)) for b in bases)
            assert 1 <= changed <= 3


@pytest.mark.parametrize("flag, problem", [
    ("--hang-at=5", "no answer within 1 s"),
    ("--crash-at=5", "it stopped answering (its process ended)"),
    ("--garbage-at=5", "not JSON: 'Traceback (most recent call last): oops'"),
    ("--wrong-shape-at=5", "the answer breaks the protocol ((the answer): 'legal' is a required property)"),
    ("--wrong-type-at=5", "the answer breaks the protocol (legal: 'yes' is not of type 'boolean')"),
])
def test_an_adapter_breaking_the_protocol_is_named_and_the_comparison_goes_on(capsys, tmp_path, flag, problem):
    code, rep = conform(capsys, flag, f"--once={tmp_path / 'once'}", games=2, more=("--timeout", "1"))
    assert code == 1 and rep["disagreements"] == []
    (p,) = rep["protocol"]
    assert p["request"] == 5 and p["op"] == "legal" and p["subject"] == "pp.deal" and p["problem"].startswith(problem)
    assert rep["asked"]["legal"] > 100  # asked on after it, a hung or dead adapter started again


def test_an_adapter_that_keeps_failing_is_given_up(capsys):
    assert main(["conform", SPEC, "--adapter", f"{sys.executable} {ADAPTER} --crash-at=2", "--games", "1"]) == 2
    assert "it failed 4 requests in a row" in capsys.readouterr().err


def test_an_adapter_that_is_not_one_is_refused(capsys, tmp_path):
    assert main(["conform", SPEC, "--adapter", f"{sys.executable} -c pass"]) == 2
    assert "stopped answering" in capsys.readouterr().err
    assert main(["conform", SPEC, "--adapter", str(tmp_path / "no-such-program")]) == 2
    assert "cannot start it" in capsys.readouterr().err


NODE = shutil.which("node")
ZOOLORETTO_JS = HERE.parent / "examples" / "adapters" / "zooloretto-score.js"


@pytest.mark.skipif(NODE is None, reason="Node.js is not on this machine (examples/adapters/zooloretto-score.js needs it)")
def test_an_independent_javascript_scoring_agrees_with_the_spec_and_a_changed_one_is_caught(capsys, tmp_path):
    """examples/adapters/zooloretto-score.js scores Zooloretto from the French rulebook, in
    JavaScript: on every state of a seeded game every score agrees; the same file with
    stall kinds worth 3 instead of 2 is named a bug of zlr.score.total, with its sentences."""
    args = ["conform", "zooloretto", "--games", "1", "--json"]
    assert main([*args, "--adapter", f"{NODE} {ZOOLORETTO_JS}"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["disagreements"] == [] and rep["asked"]["score"] > 1000 and rep["unsupported"] == ["legal", "moves", "apply"]
    changed = tmp_path / "changed.js"
    changed.write_text(ZOOLORETTO_JS.read_text().replace("points += 2 * kinds.size", "points += 3 * kinds.size"))
    assert main([*args, "--adapter", f"{NODE} {changed}"]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert {(d["kind"], d["op"], d["why"].split(" (")[0]) for d in rep["disagreements"]} == {("bug", "score", "zlr.score.total")}
    assert all(d["other"] > d["spec"] for d in rep["disagreements"])


def _log(tmp_path, lines) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return str(path)


@pytest.fixture
def pen_pals_log():
    """A whole Pen Pals game as another implementation would log it: the start, every move with
    the state it led to, and that the game is over."""
    from zoospec.solvers.play import playout
    g = game(SPEC)
    res = playout.play(g, g.start_state(), seed=3, max_steps=50)
    lines = [{"start": g.state_to_json(res.trace.states[0])}]
    for st, after in zip(res.trace.steps, res.trace.states[1:]):
        lines.append({"action": st.action, "args": dict(st.args), "state": g.state_to_json(after)})
    return lines + [{"over": True}]


def trace(capsys, path):
    code = main(["conform", SPEC, "--trace", path, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_faithful_game_log_passes_move_by_move(capsys, tmp_path, pen_pals_log):
    code, rep = trace(capsys, _log(tmp_path, pen_pals_log))
    assert code == 0 and rep["problem"] is None and rep["moves"] == rep["states"] == len(pen_pals_log) - 2 == 8


def test_a_game_log_is_stopped_at_its_first_illegal_move_or_wrong_state(capsys, tmp_path, pen_pals_log):
    twice = [*pen_pals_log[:2], {"action": "pp.deal", "args": pen_pals_log[1]["args"]}]  # the first card dealt again
    code, rep = trace(capsys, _log(tmp_path, twice))
    p = rep["problem"]
    assert code == 1 and rep["moves"] == 1 and p["kind"] == "illegal" and p["line"] == 3
    assert p["rules"] == ["pp.setup.deal (pen-pals.txt § Setup, sentence 1, 2)"] and p["state"]["dealt"] == 1
    wrong = json.loads(json.dumps(pen_pals_log))
    wrong[5]["state"]["now"] += 1  # the log's fifth move claims a state one placement ahead
    code, rep = trace(capsys, _log(tmp_path, wrong))
    p = rep["problem"]
    assert code == 1 and rep["moves"] == 5 and rep["states"] == 4 and p["kind"] == "state" and p["line"] == 6
    assert p["message"].startswith("after move 5") and "now: the spec has" in p["message"]
    code, rep = trace(capsys, _log(tmp_path, [*pen_pals_log[:-1], {"over": False}]))
    assert code == 1 and rep["problem"]["kind"] == "over" and rep["moves"] == 8


def test_a_game_log_that_starts_wrong_or_is_not_one_is_refused(capsys, tmp_path, pen_pals_log):
    start = json.loads(json.dumps(pen_pals_log[0]))
    start["start"]["now"] = 4  # four cards placed, none dealt
    code, rep = trace(capsys, _log(tmp_path, [start]))
    assert code == 1 and rep["problem"]["kind"] == "start" and "breaks" in rep["problem"]["message"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(pen_pals_log[0]) + "\n{\"action\": \n")
    assert main(["conform", SPEC, "--trace", str(bad)]) == 2
    assert f"{bad}:2:" in capsys.readouterr().err


def test_the_protocol_schema_says_what_a_request_and_each_answer_must_be():
    """spec/schema/protocol.schema.json: zoospec checks every answer against it (and, in the
    suite, every request it sends); these are its verdicts on hand-made messages."""
    doc = json.loads((ROOT / "spec" / "schema" / "protocol.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(doc)
    ok = {"id": 3, "op": "legal", "state": {}, "action": "pp.place", "args": {"p": "0,1"}}
    assert protocol_problem("request", ok) is None
    assert protocol_problem("request", {"id": 1, "op": "hello", "protocol": 1}) is None
    assert protocol_problem("request", {k: v for k, v in ok.items() if k != "args"}) is not None
    assert protocol_problem("request", {**ok, "op": "undo"}) is not None
    assert protocol_problem("answer-moves", {"id": 2, "moves": [{"action": "pp.place", "args": {}}]}) is None
    assert protocol_problem("answer-moves", {"moves": [{"args": {}}]}) == "moves/0: 'action' is a required property"
    assert protocol_problem("answer-score", {"points": True}) == "points: True is not of type 'integer'"
    assert protocol_problem("answer-hello", {"protocol": 2, "ops": []}) == "protocol: 1 was expected"
    assert protocol_problem("answer-end", {"over": False, "why": "not yet"}) is None  # more fields are allowed


@pytest.mark.parametrize("flags, groups", [
    ("", []),
    ("--forget pp.setup.deal", [("bug", "pp.setup.deal (pen-pals.txt § Setup, sentence 1, 2)")]),
    ("--reading company=diagonals", [("reading", "company=diagonals")]),
])
def test_zoospecs_own_rules_behind_the_protocol_with_a_defect_or_another_reading(capsys, flags, groups):
    """examples/adapters/zoospec_rules.py answers with the compiled rules: as they are it agrees
    everywhere; with a requirement forgotten (a planted defect) that rule is named as a bug and
    shrunk; under the other reading it is fingerprinted as that reading, with no bug."""
    code = main(["conform", SPEC, "--adapter", f"{sys.executable} {WRAPPED} {SPEC} {flags}", "--games", "10",
                 "--cases", "games,readings", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert [(k, w) for k, w, _ in ((g["kind"], g["why"], g["count"]) for g in rep["groups"])] == groups
    assert code == (1 if groups else 0) and rep["protocol"] == [] and rep["unsupported"] == []
    (f,) = rep["fingerprint"]
    assert f["follows"] == ("diagonals" if "company" in flags else "sides") and f["neither"] == 0
    if "--forget" in flags:
        small = next(d["smallest"] for d in rep["disagreements"] if d["smallest"] is not None)
        assert small["dealt"] == 1  # one card dealt, offered again: the least state where it shows


@pytest.mark.parametrize("flag", ["", "--refuse-invalid", "--crash-on-invalid"])
def test_states_that_break_an_invariant_ask_only_whether_the_implementation_survives_them(capsys, flag):
    """--cases invalid (the robustness check): states a few random changes from the games' that
    break an invariant, every request kind once each; nothing is compared. Answering, or refusing
    with an error, passes; dying on such a state is a protocol problem that names the invariant,
    and the run goes on with the next state."""
    code, rep = conform(capsys, flag, games=3, more=("--cases", "invalid", "--random", "40"))
    r = rep["robustness"]
    assert rep["cases"] == {"invalid": 40} and r["states"] == 40
    assert rep["disagreements"] == [] and rep["asked"] == {op: 0 for op in rep["asked"]}
    problems = rep["protocol"]
    assert r["answered"] + r["refused"] + len(problems) == r["requests"] > 40
    if flag == "--crash-on-invalid":
        assert code == 1 and problems and r["refused"] == 0
        assert all(p["problem"].startswith("it stopped answering (its process ended), on a state that breaks ")
                   and "pp.place.one-per-pen" in p["problem"] for p in problems)
    else:
        assert code == 0 and problems == [] and (r["refused"] > 0) == (flag == "--refuse-invalid")


def test_a_budget_stops_the_asking_and_counts_what_was_not_asked(capsys):
    """--budget SECONDS bounds finding the cases and asking about them: the states left over are
    counted, never silently dropped, and what was asked is compared as ever."""
    code, rep = conform(capsys, games=200, more=("--budget", "0.5"))
    assert code == 0 and rep["disagreements"] == [] and rep["unasked"] > 0
    assert rep["asked"]["end"] + rep["unasked"] == rep["cases"]["games"]  # one end question a state asked
