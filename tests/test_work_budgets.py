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
