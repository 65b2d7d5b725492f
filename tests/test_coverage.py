"""`zoospec coverage` over one rulebook that two specs formalise together (issue 44: Zoo-ography's
solo record and its multiplayer draft): a sentence is covered when either spec cites it, judged
when either judges it, and each citation says which spec it comes from."""
from __future__ import annotations

import json

from zoospec.cli.main import main

BOOK = """Rules
Each player has a token. The token moves one space. The box art is nice.
"""
SPEC = """game: {{id: {id}, title: {id}, rulebook: book.txt}}
state:
  pos: "int[0..3]"
rules:
  - {{id: {id}.r, cite: {{section: Rules, sentence: {n}}}, says: a rule, kind: invariant, body: "pos <= 3"}}
{extra}"""


def test_two_specs_cover_one_rulebook_together(tmp_path, capsys):
    (tmp_path / "book.txt").write_text(BOOK)
    (tmp_path / "a.yaml").write_text(SPEC.format(id="aa", n=1, extra=""))
    (tmp_path / "b.yaml").write_text(SPEC.format(id="bb", n=2, extra="coverage:\n  non_normative:\n"
                                                 "    - {section: Rules, sentence: 3, why: the box}\n"))
    book = str(tmp_path / "book.txt")
    assert main(["coverage", str(tmp_path / "a.yaml"), "--rulebook", book, "--json"]) == 1  # alone: two uncovered
    alone = json.loads(capsys.readouterr().out)
    assert (alone["covered"], alone["normative"]) == (1, 3)
    assert main(["coverage", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"), "--rulebook", book, "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert both["game"] == "aa+bb" and (both["covered"], both["normative"]) == (2, 2)
    assert [(s["status"], s["by"] or s["why"]) for s in both["sentences"]] == [
        ("covered", ["aa: aa.r"]), ("covered", ["bb: bb.r"]), ("non-normative", "bb: the box")]


def test_specs_of_different_rulebooks_are_not_counted_together(tmp_path, capsys):
    (tmp_path / "a.yaml").write_text(SPEC.format(id="aa", n=1, extra=""))
    (tmp_path / "c.yaml").write_text(SPEC.format(id="cc", n=1, extra="").replace("book.txt", "other.txt"))
    assert main(["coverage", str(tmp_path / "a.yaml"), str(tmp_path / "c.yaml")]) == 2
    assert "different rulebooks" in capsys.readouterr().err
