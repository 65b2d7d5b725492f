"""`zoospec solve --workers N` (solvers/puzzle/portfolio.py): the same question in spawned processes on
different Z3 random seeds. Checked on the counting puzzle of tests/specs/layouts.yaml, where every
answer is known: the portfolio's verdicts are the single solver's, a record is certified in the
caller's process, no worker is left running, and a worker that fails is named."""
import multiprocessing

import pytest
from conftest import ROOT

from zoospec import load
from zoospec.errors import InternalError
from zoospec.solvers.puzzle import portfolio, search as puzzle

SPEC = str(ROOT / "tests" / "specs" / "layouts.yaml")


def _solve(escape, **how):
    g = load(SPEC)
    how = {"target": None, "best": False, "timeout": 120, "layout_first": True, **how}
    return g, portfolio.solve(SPEC, {}, {}, g, {"escape": escape}, 2, **how)


def test_the_portfolio_answers_what_one_solver_answers_and_stops_the_others():
    g, v = _solve(False)
    assert v.status == "unreachable" and v.record is None and "every layout" in v.reason
    g, v = _solve(True, best=True, target=6)
    assert (v.status, v.score) == ("reachable", 6) and puzzle.certify(g, v.record) == []
    assert puzzle.score_of(g, v.record) == 6
    assert multiprocessing.active_children() == []


def test_every_worker_unknown_is_unknown_with_each_reason():
    g, v = _solve(True, timeout=0)
    assert v.status == "unknown" and v.record is None
    assert "worker 0: the timeout ran out" in v.reason and "worker 1: the timeout ran out" in v.reason


def test_a_worker_that_fails_is_named():
    g = load(SPEC)
    with pytest.raises(InternalError, match="worker [01] failed: .*no-such-spec"):
        portfolio.solve(str(ROOT / "tests" / "specs" / "no-such-spec.yaml"), {}, {}, g, {"escape": True}, 2,
                        target=None, best=False, timeout=60, layout_first=False)
    assert multiprocessing.active_children() == []


def test_a_record_from_a_worker_is_certified_here():
    """A worker's record is read back and certified in the caller's process: one that breaks a
    rule (its total not the sum of its pieces) is refused, naming the worker, never printed."""
    g, v = _solve(True, best=True, target=6)
    answer = {"status": "reachable", "target": 6, "score": 6, "core": [], "best": True, "proved_below": None,
              "reason": "", "layouts": 1, "given": [], "record": g.state_to_json(v.record)}
    assert portfolio._from_json(g, answer, "worker 1").score == 6
    answer["record"]["total"] = 5
    with pytest.raises(InternalError, match="worker 1's record does not stand up in Python: lay.total"):
        portfolio._from_json(g, answer, "worker 1")


def test_after_ctrl_c_the_best_certified_record_of_any_worker_is_kept():
    """Interrupted, the workers' unknown answers still carry what they found: the best record
    among them is certified here and kept, under a target as under --best, and the verdict says
    interrupted; a record that does not stand up is refused as ever."""
    g, v = _solve(True, best=True, target=6)
    record = g.state_to_json(v.record)
    answers = {0: {"status": "unknown", "target": 6, "score": None, "core": [], "best": False, "proved_below": None,
                   "reason": "canceled", "layouts": 3, "given": [], "record": None},
               1: {"status": "unknown", "target": 6, "score": 6, "core": [], "best": False, "proved_below": None,
                   "reason": "canceled", "layouts": 2, "given": [], "record": record}}
    got = portfolio._verdict(g, answers, 2, {"target": 6, "best": False}, interrupted=True)
    assert got.interrupted and got.status == "unknown" and got.score == 6 and puzzle.certify(g, got.record) == []
    assert got.reason == "interrupted (worker 0: canceled; worker 1: canceled)"
    plain = portfolio._verdict(g, answers, 2, {"target": 6, "best": False})
    assert not plain.interrupted and plain.record is None  # not interrupted, a target's unknown has no record
    assert got.layouts == plain.layouts == 5  # the layouts every worker asked, told with an unknown too
    answers[1]["record"] = {**record, "total": 5}
    with pytest.raises(InternalError, match="does not stand up in Python"):
        portfolio._verdict(g, answers, 2, {"target": 6, "best": False}, interrupted=True)


def test_solve_workers_on_the_command_line(tmp_path, capsys):
    import json

    from zoospec.cli.main import main
    deal = tmp_path / "deal.yaml"
    deal.write_text("escape: true\n")
    assert main(["solve", SPEC, "--deal", str(deal), "--layout-first", "--workers", "2", "--target", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "reachable" and out["score"] == 6 and out["record"]["total"] == 6
    assert main(["solve", SPEC, "--deal", str(deal), "--workers", "0"]) == 2
    assert "argument --workers: must be at least 1, got 0" in capsys.readouterr().err
