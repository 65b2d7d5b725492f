"""`zoospec coverage`: every sentence of the four bundled rulebooks formalised or judged, and over
one rulebook that two specs formalise together (issue 44: Zoo-ography's solo record and its
multiplayer draft) a sentence is covered when either spec cites it, judged when either judges
it, and each citation says which spec it comes from. A cite may name several sections, and the
known-answer cases beside a spec cover the worked examples they cite."""
from __future__ import annotations

import json

import pytest
from conftest import ROOT, game

from zoospec.cli.main import main
from zoospec.front.yamlload import load_file
from zoospec.solvers.analysis import coverage

BUNDLED = sorted((ROOT / "spec").glob("*.yaml"))
RULEBOOKS = sorted({load_file(p).data["game"]["rulebook"] for p in BUNDLED})


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_sentence_of_a_bundled_rulebook_is_formalised_or_judged(rulebook):
    """Needs the rulebooks beside the project (../shared/rulebooks, as CI has them); the specs of
    one rulebook are counted together."""
    games = [game(p) for p in BUNDLED if load_file(p).data["game"]["rulebook"] == rulebook]
    book = coverage.find_rulebook(games[0])
    if book is None:
        pytest.skip(f"{rulebook} is not beside this checkout")
    rep = coverage.report(games, book)
    missing = [f"{ln.sentence.section} {ln.sentence.number}: {ln.sentence.text[:60]}" for ln in rep.uncovered]
    assert not missing and not rep.dangling, (missing, rep.dangling)
    assert all(ln.why for ln in rep.lines if ln.status == "non-normative")

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


def test_a_cite_of_several_sections_and_a_case_cover_their_sentences(tmp_path, capsys):
    """One rule citing two sections covers both; a known-answer case beside the spec
    (cases/<spec>/*.yaml) covers the example it cites, named by its rule and file."""
    (tmp_path / "book.txt").write_text(BOOK + "\nExample\n\nA token on 4 would break it.\n")
    spec = SPEC.format(id="aa", n=1, extra="").replace(
        "cite: {section: Rules, sentence: 1}", "cite: [{section: Rules, sentence: [1, 2]}, {section: Rules, sentence: 3}]")
    (tmp_path / "a.yaml").write_text(spec)
    cases = tmp_path / "cases" / "a"
    cases.mkdir(parents=True)
    (cases / "pos.yaml").write_text("spec: a.yaml\ncases:\n- {description: four, cite: {section: Example, sentence: 1}, "
                                    "rule: aa.r, state: {pos: 3}, expect: true}\n")
    assert main(["coverage", str(tmp_path / "a.yaml"), "--rulebook", str(tmp_path / "book.txt"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(s["section"], s["status"], s["by"]) for s in out["sentences"]] == [
        ("Rules", "covered", ["aa.r"]), ("Rules", "covered", ["aa.r"]), ("Rules", "covered", ["aa.r"]),
        ("Example", "covered", ["aa.r (case pos.yaml[0])"])]

