"""Work budgets (zoospec/engines/work.py): under them a check's seconds become Z3's deterministic
work count, so a verdict does not move with the machine's load (issue 42). Asked of the pigeonhole
formula with 10 pigeons, which Z3 proves UNSAT after roughly 0.8 M units of work."""
from __future__ import annotations

import time

import z3

from zoospec.engines import race, work


def _pigeons(n: int):
    holes = n - 1
    x = [[z3.Bool(f"p{i}_{j}") for j in range(holes)] for i in range(n)]
    s = z3.Solver()
    s.add([z3.Or(row) for row in x])
    s.add([z3.Or(z3.Not(x[i][j]), z3.Not(x[k][j])) for j in range(holes) for i in range(n) for k in range(i + 1, n)])
    return s


def test_a_spent_work_budget_is_unknown_every_time_and_says_so(monkeypatch):
    """100,000 units a second: 1 s of budget is too little work, every time, however long the
    wall clock would allow; 30 s of budget is enough."""
    monkeypatch.setenv("ZOOSPEC_WORK_BUDGET", "on")
    monkeypatch.setenv("ZOOSPEC_WORK_RATE", "100000")
    for _ in range(2):
        got = race.check(_pigeons(10), 1.0)
        assert got.result == z3.unknown and got.reason == "its work budget ran out (100,000 units of Z3's rlimit)"
    assert race.check(_pigeons(10), 30.0).result == z3.unsat


def test_seconds_bound_a_check_when_work_budgets_are_off(monkeypatch):
    monkeypatch.delenv("ZOOSPEC_WORK_BUDGET", raising=False)
    s = _pigeons(10)
    assert work.limit(s, 1.0) is None and race.check(s, 30.0).result == z3.unsat


def test_the_clock_of_a_question_is_the_work_done_under_work_budgets(monkeypatch):
    """Deadlines inside a question (a share per action, the rounds of a bounded play) are read on
    work.now(): the work Z3 reports, in seconds at the rate — not the wall clock."""
    monkeypatch.setenv("ZOOSPEC_WORK_BUDGET", "on")
    monkeypatch.setenv("ZOOSPEC_WORK_RATE", "100000")
    s = _pigeons(9)
    race.check(s, 30.0)
    stats = s.statistics()
    done = {k: stats.get_key_value(k) for k in stats.keys()}["rlimit count"]  # Z3's, over every check so far
    assert work.now() == done / 100_000 and done > 0
    monkeypatch.delenv("ZOOSPEC_WORK_BUDGET")
    assert work.rate() is None and abs(work.now() - time.monotonic()) < 1.0  # the wall clock again


def test_the_fixture_corpus_is_asked_under_work_budgets(monkeypatch, tmp_path):
    """A race of two engines gave whichever engine's model came first, so a seed's corpus moved
    from run to run (Zooloretto's did, measured: two runs of `zoospec fixtures zooloretto` now give
    the same files); fixtures are asked under work budgets — Z3 alone, its work counted — unless
    the caller chose, and the setting is put back afterwards."""
    from conftest import ROOT, game

    from zoospec.solvers.analysis import fixtures
    monkeypatch.delenv("ZOOSPEC_WORK_BUDGET", raising=False)
    seen, check = [], race.check
    monkeypatch.setattr(race, "check", lambda *a, **k: (seen.append(work.rate()), check(*a, **k))[1])
    fixtures.generate(game(ROOT / "tests" / "games" / "pen-pals.yaml"), tmp_path, seed=1)
    assert seen and all(r == work.RATE for r in seen) and work.rate() is None
    monkeypatch.setenv("ZOOSPEC_WORK_BUDGET", "off")  # a caller's own choice stands
    seen.clear()
    fixtures.generate(game(ROOT / "tests" / "games" / "pen-pals.yaml"), tmp_path, seed=1)
    assert seen and all(r is None for r in seen)


def test_a_questions_checks_share_its_time_and_each_gets_at_most_its_own(monkeypatch):
    """work.Shares on a clock moved by hand: an equal part of what is left per check, what one
    check does not use going to those after it, never more than `each`; spent at the end."""
    clock = [100.0]
    monkeypatch.setattr(work, "now", lambda: clock[0])
    shares = work.Shares(12.0, 3, each=5.0)
    assert shares.deadline() == 104.0  # 12 / 3
    clock[0] = 101.0  # the first check took 1 s of its 4
    assert shares.deadline() == 106.0  # (112 - 101) / 2 = 5.5, but at most 5
    clock[0] = 102.0
    assert not shares.spent() and shares.deadline() == 107.0  # all of the 10 left, at most 5
    clock[0] = 112.0
    assert shares.spent()
    unbounded = work.Shares(None, 3, each=5.0)
    assert unbounded.deadline() is None and not unbounded.spent()


def test_a_question_ends_within_its_time_and_names_the_checks_it_did_not_ask(monkeypatch):
    """The tour's reading, gaps and dead-end questions share their own time among their checks
    (the tour's questions pass it as `budget`): at one unit of Z3's work a second, the first check
    spends the whole second, and every later one is an unknown finding saying it was not asked —
    the same on every run. Without a budget each check has its own timeout, as by hand."""
    from conftest import ROOT, game

    from zoospec.solvers.analysis import ambiguity
    monkeypatch.setenv("ZOOSPEC_WORK_BUDGET", "on")
    monkeypatch.setenv("ZOOSPEC_WORK_RATE", "1")
    layers, pals = game(ROOT / "tests" / "specs" / "layers.yaml"), game(ROOT / "tests" / "games" / "pen-pals.yaml")
    for _ in range(2):
        first, *rest = ambiguity.readings(layers, "lift", 30, budget=1)
        assert first.kind == "unknown" and "not asked" not in first.message
        assert rest and all(f.kind == "unknown" and "not asked, the question's 1 s were spent" in f.message for f in rest)
    stuck, *actions = ambiguity.dead_ends(pals, 30, budget=1)
    assert stuck.subject == pals.id and [f.subject for f in actions] == list(pals.actions)
    assert all("not asked" in f.message for f in actions)
    monkeypatch.setenv("ZOOSPEC_WORK_BUDGET", "off")
    assert [f.kind for f in ambiguity.readings(layers, "lift", 30, budget=None)] == ["readings-differ"] * 2
