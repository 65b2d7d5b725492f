"""`zoospec conform`: someone else's Pen Pals (tests/conformance/pen_pals_adapter.py, written from
the rulebook without zoospec) driven through the JSON protocol; a faithful one agrees everywhere,
a planted bug is named with the rule and sentences that decide it, and the other reading of an
ambiguous sentence is named as that reading, not as a bug."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from zoospec.cli.main import main

HERE = Path(__file__).resolve().parent
SPEC = str(HERE / "games" / "pen-pals.yaml")
ADAPTER = HERE / "conformance" / "pen_pals_adapter.py"


def conform(capsys, *flags, games=25):
    code = main(["conform", SPEC, "--adapter", f"{sys.executable} {ADAPTER} {' '.join(flags)}", "--games", str(games), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_faithful_implementation_agrees_on_every_answer(capsys):
    code, rep = conform(capsys)
    assert code == 0 and rep["disagreements"] == [] and rep["unsupported"] == []
    assert rep["asked"]["legal"] > 1000 and rep["asked"]["apply"] > 500 and rep["asked"]["score"] == rep["asked"]["end"] > 100


@pytest.mark.parametrize("flag, op, decided_by", [
    ("--no-otter-penalty", "score", "pp.score.total (pen-pals.txt § Scoring, sentence 1, 2, 3)"),
    ("--deal-twice", "legal", "pp.setup.deal (pen-pals.txt § Setup, sentence 1, 2)"),
])
def test_a_planted_bug_is_named_with_the_rule_that_decides_it(capsys, flag, op, decided_by):
    code, rep = conform(capsys, flag)
    assert code == 1 and rep["disagreements"]
    assert {(d["kind"], d["op"], d["why"]) for d in rep["disagreements"]} == {("bug", op, decided_by)}


def test_the_other_reading_is_named_as_a_reading(capsys):
    code, rep = conform(capsys, "--diagonal-company")
    assert code == 1
    assert rep["groups"] == [{"kind": "reading", "why": "company=diagonals", "count": len(rep["disagreements"])}]
    d = rep["disagreements"][0]  # a lonely otter with an animal diagonally next to it
    assert d["op"] == "score" and d["other"] == d["spec"] + 1


def test_an_adapter_that_is_not_one_is_refused(capsys, tmp_path):
    assert main(["conform", SPEC, "--adapter", f"{sys.executable} -c pass"]) == 2
    assert "stopped answering" in capsys.readouterr().err
    assert main(["conform", SPEC, "--adapter", str(tmp_path / "no-such-program")]) == 2
    assert "cannot start it" in capsys.readouterr().err
