"""The tour's report, looked at as a person would: index.html opens from disk and holds every game,
claim and reading of report.json; in a real browser (Debian's Chromium, headless, no driver) a
counterexample's viewer steps to another state when asked, and the page is not blank."""
from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from zoospec.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
GAMES = [str(ROOT / "tests" / "games" / "pen-pals.yaml"), str(ROOT / "tests" / "quality" / "specs" / "planted.yaml")]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Elements(HTMLParser):
    """Every element's attributes, by tag."""
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict]] = []
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.found.append((tag, a))
        for key in ("src", "href"):
            if a.get(key, "").startswith(("http:", "https:", "//")):
                self.external.append(a[key])


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    mp = pytest.MonkeyPatch()
    mp.setenv("ZOOSPEC_CACHE", str(out / "cache"))
    try:
        assert main(["tour", "--games", *GAMES, "--budget", "120", "--report", str(out / "r"), "--json"]) in (0, 1)
    finally:
        mp.undo()
    return out / "r"


def test_the_page_holds_every_game_claim_and_reading_of_the_json(report):
    import jsonschema

    data = json.loads((report / "report.json").read_text())
    jsonschema.validate(data, json.loads((ROOT / "docs" / "report.schema.json").read_text()))  # the published schema
    assert data["format"] == 1 and [g["game"] for g in data["games"]] == GAMES
    page = Elements()
    page.feed((report / "index.html").read_text())
    assert page.external == []  # self-contained: nothing fetched from the network
    sections = {a["data-game"] for t, a in page.found if t == "section" and "data-game" in a}
    assert sections == set(GAMES)
    claims = {(a["data-claim"], a["data-verdict"]) for t, a in page.found if t == "div" and "data-claim" in a}
    asked = {(q["item"], q["answer"].get("verdict", "unknown")) for q in data["questions"] if q["kind"] == "claim"}
    assert claims == asked and ("planted.claim.slow-start", "fails") in claims
    readings = {a["data-reading"] for t, a in page.found if t == "div" and "data-reading" in a}
    differing = {q["item"] for q in data["questions"] if q["kind"] == "reading"
                 and any(f["kind"] == "readings-differ" for f in q["answer"].get("findings", []))}
    assert readings == differing == {"company", "ahead"}
    rows = [a["data-game"] for t, a in page.found if t == "tr" and a.get("class") == "game-row"]
    assert rows == GAMES


def test_each_rulebook_sentence_is_shown_with_what_cites_it(report):
    """The coverage of each game's rulebook, sentence by sentence: as many rows as sentences, each
    with its status; the planted spec's uncovered sentence is marked, and its table shown open."""
    data = json.loads((report / "report.json").read_text())
    html_text = (report / "index.html").read_text()
    page = Elements()
    page.feed(html_text)
    rows = [a["data-status"] for t, a in page.found if t == "tr" and "data-status" in a]
    answers = [q["answer"] for g in GAMES for q in data["questions"] if q["kind"] == "coverage" and q["game"] == g]  # page order
    assert rows == [ln["status"] for a in answers for ln in a["sentences"]] and len(rows) > 10
    assert rows.count("uncovered") == sum(a["uncovered"] for a in answers) == 1
    assert "Nobody may skip a turn." in html_text and html_text.count("<details class='coverage' open>") == 1
    assert any(ln["by"] == ["planted.score"] for a in answers for ln in a["sentences"])


def test_gaps_dead_ends_and_switched_off_actions_are_shown_with_their_states(report):
    """Each gap, dead end, dead action and switched-off action of report.json has its place on the
    page, and those with a witness state have it drawn (the switched-off one under its switch)."""
    data = json.loads((report / "report.json").read_text())
    loose = {(f["kind"], f["subject"]) for q in data["questions"] for f in q["answer"].get("findings", [])
             if f["kind"] in ("gap", "dead-end", "dead-action", "switched-off")}
    assert {("gap", "planted.crown"), ("dead-end", "planted"), ("dead-action", "planted.never"),
            ("switched-off", "planted.bonus")} <= loose
    text = (report / "index.html").read_text()
    page = Elements()
    page.feed(text)
    shown = {(a["data-kind"], a["data-subject"]) for t, a in page.found if t == "div" and "data-kind" in a}
    assert shown == loose
    switched = text[text.index("data-subject='planted.bonus'"):]
    assert "<svg" in switched[:switched.index("</div></div>") + 1] and "could not be read back" not in text


def test_each_games_fixtures_are_written_beside_the_page_and_listed_with_their_index(report):
    """The fixtures the tour made are there for another implementation to take: FIXTURES/GAME/
    holds the corpus as `zoospec fixtures` writes it (index.json, the state schema, a file per
    rule or action, each case's state readable by the game), and the page lists every file of the
    index with its case count and a link that leads to it."""
    from zoospec.front.loader import load
    from zoospec.solvers.analysis.report import FIXTURES, folders

    data = json.loads((report / "report.json").read_text())
    page = Elements()
    page.feed((report / "index.html").read_text())
    links = {a["href"] for t, a in page.found if t == "a" and a.get("href", "").startswith(FIXTURES + "/")}
    for path in GAMES:
        (answer,) = [q["answer"] for q in data["questions"] if q["kind"] == "fixtures" and q["game"] == path]
        index, where = answer["index"], report / FIXTURES / folders(GAMES)[path]
        assert json.loads((where / "index.json").read_text()) == index and "corpus" not in answer
        assert index["files"] and sum(f["fixtures"] for f in index["files"]) == answer["fixtures"] > 0
        g = load(path)
        for f in index["files"]:
            assert f"{FIXTURES}/{folders(GAMES)[path]}/{f['file']}" in links
            cases = json.loads((where / f["file"]).read_text())
            assert len(cases) == f["fixtures"] and all(c.get("rule", c.get("action")) == f["subject"] for c in cases)
            for c in cases:
                for part in ("holds", "fails", "first", "second", "legal", "illegal", "example"):
                    if part in c:
                        g.state_from_json(c[part]["state"])  # a state of the game, or it raises
        counts = [int(a["data-count"]) for t, a in page.found if t == "p" and a.get("class") == "fixtures"]
        assert answer["fixtures"] in counts
    # two games of one tour with one file name get a folder each
    assert folders(["a/pen-pals.yaml", "b/pen-pals.yaml", "new-york-zoo"]) == {
        "a/pen-pals.yaml": "pen-pals", "b/pen-pals.yaml": "pen-pals-2", "new-york-zoo": "new-york-zoo"}


def _dom(url: str) -> str:
    r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url],
                       capture_output=True, text=True, timeout=60)
    return r.stdout


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_in_a_browser_a_counterexample_steps_to_another_drawn_state(report, tmp_path):
    page = (report / "index.html").as_uri()
    viewer = f"{GAMES[1]}/planted.claim.slow-start"
    first, third = _dom(f"{page}#{viewer}/0"), _dom(f"{page}#{viewer}/2")

    def shown(dom):  # the step the viewer of that claim shows, as the browser left the DOM
        part = dom[dom.index(f'id="{viewer}"'):]
        part = part[:part.index("</div></div>") + 12] if "</div></div>" in part else part
        return [s for s in part.split('class="step') if s.startswith(' shown"')]
    assert len(shown(first)) == len(shown(third)) == 1
    assert 'data-step="0"' in shown(first)[0] and 'data-step="2"' in shown(third)[0]
    assert shown(first)[0] != shown(third)[0]  # another state, drawn
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}",
                    "--window-size=1000,800", page], capture_output=True, timeout=60)
    assert shot.exists() and shot.stat().st_size > 10_000  # a blank page compresses to a few kB
