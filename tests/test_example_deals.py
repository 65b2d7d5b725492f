"""The example deals shipped beside a puzzle spec, as the tour's report shows them
(solvers/analysis/example_deals.py): each one's known verdict, and its shipped plan certified by
the rules in Python and drawn — or, for a plan that does not stand up, what is wrong with it."""
from __future__ import annotations

import json
import shutil

import jsonschema
from conftest import ROOT, game

from zoospec.solvers.analysis import report
from zoospec.solvers.analysis.example_deals import example_deals

SPEC = ROOT / "spec" / "zoo-ography.yaml"


def test_every_shipped_deal_with_its_verdict_and_its_plan_certified():
    got = {d.name: d for d in example_deals(game(SPEC), SPEC)}
    assert set(got) == {"first-game.yaml", "seed-1.yaml", "cliff-savanna-prairie.yaml", "snake-short-of-seats.yaml",
                        "multiplayer/first-game-tiles.yaml", "multiplayer/short-of-seats.yaml", "multiplayer/world-exhibits.yaml"}
    for d in got.values():
        assert d.problems == [], d.name
        if d.expect == "reachable":  # a perfect zoo, certified
            assert d.certified and d.score == d.target == 20 and "<svg" in d.svg
    assert got["multiplayer/world-exhibits.yaml"].switches == ["multiplayer", "world_exhibits"]
    assert got["multiplayer/world-exhibits.yaml"].expect == "unreachable" and got["multiplayer/world-exhibits.yaml"].score == 16
    assert got["snake-short-of-seats.yaml"].score is None and got["snake-short-of-seats.yaml"].as_json()["plan"] is None


def test_a_plan_that_does_not_stand_up_is_shown_with_what_breaks(tmp_path):
    spec = tmp_path / "zoo-ography.yaml"
    shutil.copy(SPEC, spec)
    shutil.copytree(ROOT / "spec" / "zoo-ography" / "deals", tmp_path / "zoo-ography" / "deals")
    plan = tmp_path / "zoo-ography" / "deals" / "first-game.plan.json"
    data = json.loads(plan.read_text())
    data["record"]["now"] = 3  # three turns played, the record says
    plan.write_text(json.dumps(data))
    (d,) = [d for d in example_deals(game(SPEC), spec) if d.name == "first-game.yaml"]
    assert not d.certified and any("zg.record.now" in p for p in d.problems)


def test_the_report_draws_them_and_its_json_follows_the_schema(tmp_path):
    page = report.write(tmp_path, [], [], {"zoo-ography": str(SPEC)}, 60)
    data = json.loads((tmp_path / "report.json").read_text())
    jsonschema.validate(data, json.loads((ROOT / "docs" / "report.schema.json").read_text()))
    assert len(data["deals"]) == 7 and all(d["game"] == "zoo-ography" for d in data["deals"])
    html = page.read_text()
    assert html.count("class='deal'") == 7 and "scores 20 of 20 (a perfect zoo)" in html
    assert "scores 16 of 20 (the best shipped, 20 out of reach)" in html
