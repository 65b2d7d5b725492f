"""`--dump-smt2 DIR` (zoospec/engines/dump.py, issue 41): every query zoospec asks, written as a
standalone SMT-LIB file, re-solves to the answer zoospec got with the `z3` and `yices-smt2`
command-line tools."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import z3
from conftest import ROOT

from zoospec.cli.main import main
from zoospec.engines import dump

BIN = Path(sys.executable).parent


def _tool(name):
    return shutil.which(name, path=str(BIN)) or shutil.which(name)


def _answers(folder: Path) -> list[tuple[str, str, str, str]]:
    """(file, the answer zoospec recorded, z3's, yices-smt2's) for every file dumped."""
    out = []
    for f in sorted(folder.glob("*.smt2")):
        status = f.read_text(encoding="utf-8").split("(set-info :status ", 1)[1].split(")", 1)[0]
        got = [subprocess.run([tool, str(f)], capture_output=True, text=True, timeout=60).stdout.strip().splitlines()[0]
               for tool in (_tool("z3"), _tool("yices-smt2"))]
        out.append((f.name, status, *got))
    return out


needs_tools = pytest.mark.skipif(not (_tool("z3") and _tool("yices-smt2")),
                                 reason="the z3 and yices-smt2 command-line tools are not installed")


@pytest.fixture(autouse=True)
def _no_dump_after():
    yield
    dump.into(None)


def test_pseudo_boolean_atoms_are_written_as_plain_smt_lib():
    """`the` compiles to Z3's pseudo-Boolean atoms, which no other solver reads: they are written
    as sums of ites, and the logic is the narrowest that holds the terms."""
    x, y, b = z3.Int("x"), z3.Int("y"), z3.Bool("b")
    terms = [z3.PbEq([(b, 1), (x > 0, 2)], 2), z3.AtMost(b, x > 0, y > 0, 1), x <= 5]
    text = dump.smt2(terms, "test")
    assert "pb" not in text.replace("(set-info :source |test|)", "") and "(set-logic QF_LIA)" in text
    assert dump.logic([x * y > 2]) == "QF_NIA" and dump.logic([z3.ForAll([x], x + y >= y)]) == "LIA"
    s = z3.Solver()
    s.add([dump.portable(t) for t in terms])
    s.add(z3.Not(z3.And(terms)))
    assert s.check() == z3.unsat  # the rewritten atoms mean what Z3's did


@needs_tools
@pytest.mark.parametrize("command", [
    ["solve", str(ROOT / "tests" / "specs" / "layouts.yaml"), "--deal", "DEAL", "--target", "3"],
    ["check", str(ROOT / "tests" / "specs" / "ops.yaml")],
])
def test_every_dumped_query_re_solves_to_the_same_answer(command, tmp_path, capsys):
    deal = tmp_path / "deal.yaml"
    deal.write_text("escape: true\n")
    folder = tmp_path / "smt2"
    main([str(deal) if a == "DEAL" else a for a in command] + ["--dump-smt2", str(folder)])
    capsys.readouterr()
    answers = _answers(folder)
    assert answers and any(status in ("sat", "unsat") for _, status, _, _ in answers)
    for name, status, by_z3, by_yices in answers:
        if status in ("sat", "unsat"):
            assert by_z3 == status and by_yices == status, name


def test_a_dump_folder_that_cannot_be_made_is_refused_before_any_question(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = main(["check", str(ROOT / "tests" / "specs" / "ops.yaml"), "--dump-smt2", str(blocker)])
    assert code == 2 and "--dump-smt2" in capsys.readouterr().err and dump.ENV not in os.environ
