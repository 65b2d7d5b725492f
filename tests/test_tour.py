"""The tour (bare `zoospec`): every question of every game within one budget, on a pool of
processes, one line per answer as it comes, a table with a cell for every game — and answers
remembered, so a second run asks nothing again (solvers/analysis/tour.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from zoospec.cli.main import main
from zoospec.cli.tour import row, table
from zoospec.solvers.analysis.answer_cache import AnswerCache
from zoospec.solvers.analysis.questions import Question, questions_of

ROOT = Path(__file__).resolve().parent.parent
GAMES = [str(ROOT / "tests" / "games" / "pen-pals.yaml"), str(ROOT / "tests" / "specs" / "layers.yaml")]
QUESTIONS = 15  # each: validate, coverage, its claims (2 and 1), its reading, gaps, dead ends, fixtures


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ZOOSPEC_CACHE", str(tmp_path / "cache"))
    return AnswerCache()


def tour(capsys, *extra) -> tuple[int, list[str], dict]:
    code = main(["tour", "--games", *GAMES, "--budget", "120", "--workers", "2", "--no-report", *extra])
    lines = capsys.readouterr().out.splitlines()
    main(["tour", "--games", *GAMES, "--budget", "120", "--json", "--no-report", *extra])  # the same answers, remembered, as JSON
    return code, lines, {r["game"]: r for r in json.loads(capsys.readouterr().out)["games"]}


def test_one_line_per_answer_then_a_row_per_game(cache, capsys):
    code, lines, rows = tour(capsys)
    assert code == 0
    answers = [ln for ln in lines if "s  /" in ln and ": " in ln]
    assert len(answers) == QUESTIONS  # printed as they came, off a terminal too
    assert any("claim pp.claim.6-is-reached: fails (as expected)" in ln for ln in answers)
    assert any("reading lift: readings-differ" in ln for ln in answers)
    pp, layers = rows[GAMES[0]], rows[GAMES[1]]
    assert pp["valid"] and pp["claims"] == {"holds": 1, "fails": 1, "unknown": 0} and not pp["unexpected"]
    assert pp["coverage"]["percent"] == 100.0 and pp["fixtures"] > 0
    assert layers["findings"]["readings-differ"] >= 1
    table = lines[-3:]
    assert table[0].startswith("game") and [ln.split()[0] for ln in table[1:]] == GAMES


def test_a_second_run_asks_nothing_again_and_says_the_same(cache, capsys):
    _, _, first = tour(capsys)
    code, lines, again = tour(capsys)
    assert code == 0
    answers = [ln for ln in lines if "s  /" in ln and ": " in ln]
    assert len(answers) == QUESTIONS and all(ln.endswith("(remembered)") for ln in answers)
    strip = lambda r: {k: v for k, v in r.items() if k != "seconds"}  # noqa: E731
    assert {g: strip(r) for g, r in again.items()} == {g: strip(r) for g, r in first.items()}
    _, lines, _ = tour(capsys, "--no-cache")
    assert not any(ln.endswith("(remembered)") for ln in lines)


def test_a_remembered_counterexample_that_no_longer_refutes_is_asked_again(cache, capsys):
    tour(capsys)
    for f in cache.root.glob("*.json"):  # tamper with the witness: its zoo no longer scores 6
        a = json.loads(f.read_text())
        if a.get("verdict") == "fails":
            state = a["trace"]["states"][0]
            state["now"] = 0
            f.write_text(json.dumps(a))
    _, lines, _ = tour(capsys)
    claim = next(ln for ln in lines if "pp.claim.6-is-reached" in ln)
    assert "fails (as expected)" in claim and not claim.endswith("(remembered)")


def _keys(path) -> dict:
    from zoospec.solvers.analysis.questions import questions_of
    fresh = AnswerCache(Path(path).parent / "cache")  # keys are made anew: nothing remembered between edits
    return {q.name: fresh.key(q) for q in questions_of(str(path), str(path))}


def test_editing_one_rule_asks_again_only_the_questions_that_read_it(tmp_path):
    """A claim or a reading is remembered by the parts of the game it reads (dependencies.py), not
    the file's bytes: a comment, a moved line or a claim's wording asks none of them again; a
    claim's own body asks that claim; a rule only the moves read asks no claim over states; a
    define the reading's rules read asks the reading and both claims (they read the score too)."""
    spec = tmp_path / "pen-pals.yaml"
    text = (ROOT / "tests" / "games" / "pen-pals.yaml").read_text()
    spec.write_text(text)
    base = _keys(spec)
    claims = ["claim pp.claim.at-most-6", "claim pp.claim.6-is-reached"]
    reading, whole_file = "reading company", ["validate", "coverage", "gaps", "dead-ends", "fixtures"]

    def after(old, new) -> set:
        assert old in text
        spec.write_text(text.replace(old, new, 1))
        return {name for name, k in _keys(spec).items() if k != base[name]}

    assert after("game:\n", "# moved a line down\ngame:\n") == set(whole_file)
    assert after("says: No zoo scores more than 6", "says: Never more than 6 points") == set(whole_file)
    assert after('body: "total <= 6"', 'body: "total <= 7"') == set(whole_file) | {claims[0]}
    assert after('body: "dealt == 4 and now < 4 and vacant(p)"', 'body: "dealt == 4 and now < 4"') == set(whole_file)
    assert after('pandas: "count(', 'pandas: "1 + count(') == set(whole_file) | set(claims) | {reading}


def test_a_questions_key_is_the_same_in_every_process(tmp_path):
    """What a question reads holds sets (a whole domain as a literal, a switch's actions), whose
    text follows Python's string hashing, different in every process unless written in order:
    two processes with different hash seeds give every claim and reading of Zooloretto one key."""
    import os
    import subprocess
    import sys
    code = ("import json, sys; from pathlib import Path; sys.path.insert(0, 'tests'); from test_tour import _keys; "
            "print(json.dumps(_keys(Path(sys.argv[1]))))")
    spec = tmp_path / "zooloretto.yaml"
    spec.write_text((ROOT / "spec" / "zooloretto.yaml").read_text())
    keys = [json.loads(subprocess.run([sys.executable, "-c", code, str(spec)], cwd=ROOT, capture_output=True, text=True,
                                      check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout) for seed in ("1", "2")]
    assert keys[0] == keys[1] and sum(k.startswith(("claim", "reading")) for k in keys[0]) > 10


def test_a_spent_budget_leaves_unknown_cells_not_missing_rows(cache, capsys):
    code = main(["tour", "--no-report", "--games", *GAMES, "--budget", "1", "--json"])
    rows = {r["game"]: r for r in json.loads(capsys.readouterr().out)["games"]}
    assert code == 0 and set(rows) == set(GAMES)
    pp = rows[GAMES[0]]
    assert pp["valid"] and pp["claims"]["unknown"] == 2  # validity is always asked; the rest had no time
    assert {"fixtures", "gaps", "claim pp.claim.at-most-6"} <= set(pp["unknown_budget"])
    main(["tour", "--no-report", "--games", *GAMES, "--budget", "1"])
    assert "unknown (budget)" in capsys.readouterr().out


def test_a_remembered_unknown_is_asked_again_only_with_more_budget_or_deep(cache, capsys):
    main(["tour", "--no-report", "--games", *GAMES, "--budget", "1"])
    capsys.readouterr()
    main(["tour", "--no-report", "--games", *GAMES, "--budget", "1"])  # the same budget: the same table, nothing asked
    again = [ln for ln in capsys.readouterr().out.splitlines() if "claim pp.claim.at-most-6" in ln]
    assert again == [again[0]] and again[0].endswith("unknown (budget)")
    main(["tour", "--no-report", "--games", *GAMES, "--budget", "1", "--deep"])  # --deep asks again (still no time)
    assert "claim pp.claim.at-most-6: unknown (budget)" in capsys.readouterr().out
    main(["tour", "--no-report", "--games", *GAMES, "--budget", "120"])  # more budget: what was unknown is asked
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "claim pp.claim.at-most-6" in ln)
    assert "holds (as expected)" in line and not line.endswith("(remembered)")


def test_the_cache_command_shows_and_forgets(cache, capsys):
    tour(capsys)
    assert main(["cache"]) == 0 and f"{cache.root}: {QUESTIONS} answer(s)" in capsys.readouterr().out
    assert main(["cache", "--clear"]) == 0 and cache.size() == (0, 0)


def test_a_question_past_its_time_is_stopped_and_its_worker_replaced():
    """The pool behind the tour can cut one task off (an analysis's timeouts bound each Z3 query,
    not a question that asks many), and starts nothing once told to stop starting."""
    import time

    from zoospec.solvers.workers import Workers

    got = []
    pool = Workers(1, time.sleep)
    try:
        never = pool.run([("long", (60,), 1.0), ("short", (0.01,), 30.0)], lambda k, s, v, t: got.append((k, s)))
        late = pool.run([("later", (0.01,), 30.0)], lambda k, s, v, t: got.append((k, s)), stop_starting_at=time.time() - 1)
    finally:
        pool.close()
    assert got == [("long", "stopped"), ("short", "ok")] and never == [] and late == ["later"]


def test_ctrl_c_prints_the_table_so_far_and_exits_130(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    def as_a_terminal_starts_it():
        # Ctrl-C at its default and not blocked, whatever the test process inherited: within the
        # full suite the tour once ignored it, with no answer why (a disposition or mask from the
        # harness survives exec), while alone and under load it always stopped
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    env = {**os.environ, "ZOOSPEC_CACHE": str(tmp_path / "cache")}
    p = subprocess.Popen([sys.executable, "-m", "zoospec.cli", "tour", "--games", "zoo-ography", "--budget", "120", "--no-report"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                         preexec_fn=as_a_terminal_starts_it)
    seen = []
    for line in p.stdout:  # the first answers come at once; then the long questions start
        seen.append(line)
        if "validate" in line:
            break
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    table = out.splitlines()
    assert any(ln.startswith("game") for ln in table) and any(ln.startswith("zoo-ography ") for ln in table)


def test_specs_of_one_rulebook_have_their_coverage_counted_together(tmp_path, capsys, cache):
    """The tour's coverage of a rulebook two specs formalise (Zoo-ography's record and draft)."""
    from test_coverage import BOOK, SPEC

    (tmp_path / "book.txt").write_text(BOOK)
    (tmp_path / "a.yaml").write_text(SPEC.format(id="aa", n=1, extra=""))
    (tmp_path / "b.yaml").write_text(SPEC.format(id="bb", n=2, extra=""))
    games = [str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")]
    assert main(["tour", "--no-report", "--games", *games, "--budget", "60", "--json"]) == 0
    rows = {r["game"]: r for r in json.loads(capsys.readouterr().out)["games"]}
    a = rows[games[0]]["coverage"]
    assert (a["percent"], a["alone"], a["with"]) == (66.7, 33.3, ["bb"])


def test_rulebooks_are_found_where_the_user_says(tmp_path, capsys, cache):
    spec = tmp_path / "pen-pals.yaml"  # a spec without its rulebook beside it
    spec.write_text((ROOT / "tests" / "games" / "pen-pals.yaml").read_text())
    main(["tour", "--no-report", "--games", str(spec), "--budget", "30", "--json"])
    assert json.loads(capsys.readouterr().out)["games"][0]["coverage"] is None
    main(["tour", "--no-report", "--games", str(spec), "--budget", "30", "--json", "--rulebooks", str(ROOT / "tests" / "games")])
    assert json.loads(capsys.readouterr().out)["games"][0]["coverage"]["percent"] == 100.0


def test_on_a_terminal_the_questions_being_asked_show_live_and_the_answers_scroll_above():
    """The live display (rich): answered of all, the budget left, a row per question being asked;
    each answer printed as the same line a log gets; the rows gone when the tour is done."""
    import io

    from rich.console import Console

    from zoospec.cli.live import TourDisplay

    screen = io.StringIO()
    with TourDisplay(3, 60, Console(file=screen, force_terminal=True, width=120, color_system=None), live=True) as shown:
        shown.started("q1", "pen-pals  claim pp.claim.slow")
        shown.started("q2", "pen-pals  gaps")
        shown.refresh()
        during = screen.getvalue()
        shown.answered("q1", "    3s  pen-pals  claim pp.claim.slow: holds (as expected)")
        shown.refresh()
        after_one = screen.getvalue()[len(during):]
    assert "pen-pals  claim pp.claim.slow" in during and "pen-pals  gaps" in during
    assert "0/3" in during and "budget left" in during
    assert "claim pp.claim.slow: holds (as expected)" in after_one and "1/3" in after_one
    assert "pen-pals  gaps" in after_one.split("holds (as expected)")[1]  # still being asked, below the line

    log = io.StringIO()  # off a terminal: the lines alone, nothing drawn
    with TourDisplay(3, 60, Console(file=log)) as shown:
        shown.started("q1", "pen-pals  gaps")
        shown.answered("q1", "    3s  pen-pals  gaps: none")
    assert log.getvalue() == "    3s  pen-pals  gaps: none\n"


def test_dead_ends_a_spec_does_not_pose_show_as_a_dash_not_as_none_found():
    """A spec whose every action deals (Zoo-ography's record) is not asked for dead ends: its
    dealing ends exactly when no move is legal. Its cell says so, where 0 would claim a search."""
    def kinds(path):
        return {q.kind for q in questions_of(path, str(path))}
    assert "dead-ends" not in kinds(ROOT / "spec" / "zoo-ography.yaml") and "dead-ends" in kinds(GAMES[0])
    valid = {"status": "answered", "rules": 1, "actions": 1, "readings": 0}
    asked = [(Question("a", "a.yaml", "validate"), valid), (Question("a", "a.yaml", "dead-ends"), {"status": "answered", "findings": []})]
    not_asked = [(Question("b", "b.yaml", "validate"), valid)]
    lines = table([row("a", asked), row("b", not_asked)]).splitlines()
    dead_at = lines[0].index("dead ends")
    assert [ln[dead_at] for ln in lines[1:]] == ["0", "—"]
