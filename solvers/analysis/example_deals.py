"""The example deals shipped beside a puzzle's spec, for the tour's report: each deal file under
`spec/<spec name>/deals/` (folders too) with what it says and the verdict it is known to have
(its `says` and `expect`), and, where a plan is shipped beside it (`NAME.plan.json`), the plan's
record certified by the rules in Python, scored and drawn with the game's picture.

Nothing is solved here — the verdicts are the deal files' own, each checked elsewhere (a
reachable one by its certified plan, here and in the tests; an unreachable one by
bench/proofs.py or the tests) — so the report shows them in milliseconds whatever the budget.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from zoospec.errors import SpecError, StateError
from zoospec.front.jsonfile import read_object
from zoospec.front.yamlload import load_file

from ..play import picture
from ..puzzle import search as puzzle


@dataclass
class ExampleDeal:
    name: str                       # the file, from the deals folder
    says: str
    expect: str                     # reachable | unreachable | "" (the file does not say)
    switches: list[str]             # the switches the deal is for (its `with`)
    score: int | None = None        # the shipped plan's record: its score
    target: int | None = None
    problems: list[str] = field(default_factory=list)  # why the deal or its plan does not stand up
    svg: str | None = None          # the plan's zoo, drawn

    @property
    def certified(self) -> bool:
        return self.score is not None and not self.problems

    def as_json(self) -> dict:
        return {"name": self.name, "says": self.says, "expect": self.expect, "with": self.switches,
                "plan": None if self.score is None and not self.problems else
                {"score": self.score, "target": self.target, "certified": self.certified, "problems": self.problems}}


def deals_folder(spec_path: str | Path) -> Path:
    p = Path(spec_path)
    return p.with_suffix("") / "deals"


def example_deals(game, spec_path: str | Path) -> list[ExampleDeal]:
    """Every example deal of `game` (loaded from `spec_path`), in file-name order; none for a
    game without a puzzle or without a deals folder."""
    folder = deals_folder(spec_path)
    if game.puzzle is None or not folder.is_dir():
        return []
    return [_one(game, folder, f) for f in sorted(folder.rglob("*.yaml"))]


def _one(game, folder: Path, path: Path) -> ExampleDeal:
    name = str(path.relative_to(folder))
    try:
        data = load_file(path).data
    except SpecError as e:
        return ExampleDeal(name, "", "", [], problems=[str(e)])
    if not isinstance(data, dict):
        return ExampleDeal(name, "", "", [], problems=["not a deal: a deal file is a mapping"])
    switches = [w for w in data.get("with", []) if isinstance(w, str)] if isinstance(data.get("with"), list) else []
    out = ExampleDeal(name, str(data.get("says", "")), str(data.get("expect", "")), switches)
    try:
        g = game.with_readings({}, {w: True for w in switches}) if switches else game
        deal = puzzle.deal_from_data(g, data, path)
        plan_path = path.with_name(path.stem + ".plan.json")
        if plan_path.exists():
            _plan(g, deal, read_object(str(plan_path), "a plan (zoospec solve --plan)"), out)
    except (SpecError, StateError) as e:
        out.problems.append(str(e))
    return out


def _plan(g, deal: dict, plan: dict, out: ExampleDeal):
    if not isinstance(plan.get("record"), dict):
        out.problems.append("the plan has no record")
        return
    record = puzzle.load_plan(g, plan)
    out.target = plan.get("target") if isinstance(plan.get("target"), int) else g.puzzle.target
    out.problems += [f"the plan's {n} is not the deal's" for n in deal if record.get(n) != deal[n]]
    out.problems += puzzle.certify(g, record)
    out.score = puzzle.score_of(g, record)
    out.svg = picture.svg(g, record, f"{out.name}: the shipped plan's zoo, {out.score} of {out.target}")
