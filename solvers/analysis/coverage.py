"""`zoospec coverage`: which rulebook sentences the spec formalises, sentence by sentence.

Sentences are numbered as zoospec/front/rulebook.py says. A sentence is *covered* when a rule, action,
reading, claim, switch or component (a domain or constant whose size the rulebook prints) cites
it (a cite naming a section but no sentence covers the whole section, and is marked so), or when
a known-answer case beside the spec (cases/<spec name>/*.yaml) cites it — that is how a worked
example the rulebook prints is covered: it is not a rule, it is a test of one. A sentence is
*non-normative* when the spec's `coverage.non_normative` list says so and why, and otherwise
*uncovered*. Citations that point at no sentence are reported as errors.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from zoospec.errors import SpecError
from zoospec.front import rulebook
from zoospec.front.catalog import PROJECT_DIR
from zoospec.front.yamlload import load_file
from zoospec.runtime.game import Cite


@dataclass
class Line:
    sentence: rulebook.Sentence
    status: str                     # covered | non-normative | uncovered
    by: list[str] = field(default_factory=list)
    why: str = ""


@dataclass
class Report:
    game: str
    rulebook: str
    lines: list[Line]
    dangling: list[str]

    @property
    def normative(self) -> int:
        return sum(1 for ln in self.lines if ln.status != "non-normative")

    @property
    def covered(self) -> int:
        return sum(1 for ln in self.lines if ln.status == "covered")

    @property
    def uncovered(self) -> list[Line]:
        return [ln for ln in self.lines if ln.status == "uncovered"]

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.normative if self.normative else 100.0

    def to_json(self) -> dict:
        return {"game": self.game, "rulebook": self.rulebook, "percent": round(self.percent, 1),
                "normative": self.normative, "covered": self.covered, "dangling": self.dangling,
                "sentences": [{"section": ln.sentence.section, "sentence": ln.sentence.number, "line": ln.sentence.line,
                               "status": ln.status, "by": ln.by, "why": ln.why} for ln in self.lines]}


def _cites(game):
    """(who, one section's Cite) for everything the spec and its cases cite."""
    def each():
        for r in game.rules.values():
            yield r.id, r.cite
        for a in game.actions.values():
            yield a.id, a.cite
        for r in game.readings.values():
            yield f"reading {r.id}", r.cite
        for c in game.claims.values():
            yield c.id, c.cite
        for name, c in game.switch_cites.items():
            yield f"switch {name}", c
        for name, c in game.component_cites.items():
            yield f"component {name}", c
        yield from _case_cites(game)
    for who, c in each():
        for part in (c.parts() if c is not None else ()):
            yield who, part


def case_files(game) -> list[Path]:
    """The known-answer cases written for a spec: cases/<spec file's name>/*.yaml beside it."""
    spec = Path(game.file)
    return sorted((spec.parent / "cases" / spec.stem).glob("*.yaml"))


def _case_cites(game):
    for f in case_files(game):
        try:
            doc = load_file(f).data
        except SpecError:
            continue  # a broken case file is the case test's to report; here it covers nothing
        for i, case in enumerate(doc.get("cases", []) if isinstance(doc, dict) else []):
            raw = case.get("cite") if isinstance(case, dict) else None
            for c in raw if isinstance(raw, list) else [raw] if raw else []:
                s = c.get("sentence", ())
                what = next((case[k] for k in ("rule", "action", "define", "legal") if k in case), "?")
                yield (f"{what} (case {f.name}[{i}])",
                       Cite(c.get("file", game.rulebook), c["section"], tuple(s) if isinstance(s, list) else (s,)))


def report(games, rulebook_path: str | Path) -> Report:
    """The coverage of one rulebook by one spec, or by several that formalise it together (a
    solo record and a multiplayer draft): a sentence is covered when any of them cites it and
    non-normative when any judges it so; `by` names each spec's rules (the spec id first when
    there are several)."""
    games = list(games) if isinstance(games, (list, tuple)) else [games]
    book = rulebook.load(rulebook_path)
    name = Path(rulebook_path).name
    lines = {s.key: Line(s, "uncovered") for s in book.sentences}
    sections = set(book.sections())
    dangling = []
    for game in games:
        _cover(game, lines, sections, book, name, dangling, prefix=f"{game.id}: " if len(games) > 1 else "")
    return Report("+".join(g.id for g in games), name, list(lines.values()), dangling)


def _cover(game, lines, sections, book, name, dangling, prefix):
    for who, c in _cites(game):
        who = prefix + who
        if c is None or Path(c.file).name != name:
            continue
        if c.section not in sections:
            dangling.append(f"{who}: no section '{c.section}' in {name}")
            continue
        nums = c.sentence or [s.number for s in book.sentences if s.section == c.section]
        for n in nums:
            ln = lines.get((c.section, n))
            if ln is None:
                dangling.append(f"{who}: section '{c.section}' has no sentence {n}")
                continue
            ln.status = "covered"
            ln.by.append(who if c.sentence else f"{who} (whole section)")
    for entry in game.non_normative:
        for n in entry.sentence:
            ln = lines.get((entry.section, n))
            if ln is None:
                dangling.append(f"{prefix}coverage.non_normative: no sentence {n} in section '{entry.section}'")
            elif ln.status == "uncovered":
                ln.status, ln.why = "non-normative", prefix + entry.why


def find_rulebook(game, given: str | None = None) -> Path | None:
    """--rulebook, else the spec's rulebook in a folder of ZOOSPEC_RULEBOOKS (`tour --rulebooks`),
    beside the project (rulebooks/ or ../shared/rulebooks/) or beside the spec."""
    if given:
        return Path(given)
    root = PROJECT_DIR
    named = [Path(d) for d in os.environ.get("ZOOSPEC_RULEBOOKS", "").split(os.pathsep) if d]
    for d in (*named, root / "rulebooks", root.parent / "shared" / "rulebooks", Path(game.file).resolve().parent):
        p = d / game.rulebook
        if p.exists():
            return p
    return None
