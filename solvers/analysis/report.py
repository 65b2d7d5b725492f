"""The tour's report: `zoospec-report/index.html`, one self-contained page (no network, no external
fonts or scripts; it opens from disk), and `report.json` beside it (its schema:
docs/report.schema.json). The summary table links to each game's section; each claim shows its
verdict and, for a counterexample, a step-through viewer of the states drawn with the game's own
picture; each reading difference shows the state where the readings disagree; a puzzle's example
deals show their known verdicts and their shipped plans' zoos, certified and drawn.

A viewer's step can be chosen from the address too (`index.html#GAME/CLAIM/2`), which is how a
browser test without a driver checks that stepping changes the picture.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from zoospec import files
from zoospec.errors import SpecError, StateError
from zoospec.front.loader import load

from .. import traces
from ..play import picture
from .example_deals import example_deals

# findings drawn in a game's section beside the readings: where the spec has no answer or no move
LOOSE_ENDS = ("gap", "dead-end", "dead-action", "switched-off")

FORMAT = 1  # of report.json
FIXTURES = "fixtures"  # beside index.html: each game's fixture corpus in a folder of its own


def write(out_dir: str | Path, rows: list[dict], answers: list[tuple], games: dict[str, str], budget: float) -> Path:
    """Write index.html and report.json; returns the page's path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    loaded = {name: _load(path) for name, path in games.items()}
    deals = {name: example_deals(g, games[name]) if not isinstance(g, str) else [] for name, g in loaded.items()}
    data = {"format": FORMAT, "budget": budget, "games": rows,
            "questions": [{"game": q.game, "kind": q.kind, "item": q.item if q.kind != "coverage" else "",
                           "status": a["status"], "answer": _plain(a)} for q, a in answers],
            "deals": [{"game": name, **d.as_json()} for name, ds in deals.items() for d in ds]}
    where = folders(games)
    for q, a in answers:
        if q.kind == "fixtures" and a.get("corpus"):
            _write_corpus(out / FIXTURES / where[q.game], a["corpus"])
    files.write_text(out / "report.json", json.dumps(data, indent=1))
    page = _page(rows, answers, loaded, budget, deals, where)
    files.write_text(out / "index.html", page)
    return out / "index.html"


def _write_corpus(where: Path, corpus: dict) -> None:
    """A game's fixtures as `zoospec fixtures` writes them: index.json, the state schema, a file
    per rule or action. Only plain file names are written (the cache is a file a user can edit)."""
    where.mkdir(parents=True, exist_ok=True)
    for name, text in corpus.items():
        if isinstance(name, str) and isinstance(text, str) and name == Path(name).name and name.endswith(".json"):
            files.write_text(where / name, text)


def _plain(a: dict) -> dict:
    """An answer without its traces (they are drawn in the page; the cache keeps them) and, for
    fixtures, without the corpus (written beside the page, FIXTURES/GAME/) but with its index."""
    out = {k: v for k, v in a.items() if k not in ("trace", "corpus")}
    if "corpus" in a:
        out["index"] = _index(a)
    if "findings" in out:
        out["findings"] = [{k: v for k, v in f.items() if k != "trace"} for f in out["findings"]]
    return out


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; } td, th { border: 1px solid #bbb; padding: 4px 8px; text-align: left; }
.holds { color: #176117; } .fails { color: #9a1c1c; } .unknown { color: #7a5a00; }
tr.uncovered td { background: #fbe3e3; } tr.non-normative td { color: #666; }
.viewer { border: 1px solid #ccc; padding: 8px; margin: 8px 0; } .step { display: none; } .step.shown { display: block; }
pre { background: #f6f6f6; padding: 6px; } section { margin-top: 2em; }
"""

SCRIPT = """
function show(viewer, i) {
  const steps = viewer.querySelectorAll('.step');
  i = Math.max(0, Math.min(steps.length - 1, i));
  steps.forEach((s, k) => s.classList.toggle('shown', k === i));
  viewer.dataset.at = i;
  viewer.querySelector('.where').textContent = 'state ' + i + ' of ' + (steps.length - 1);
}
document.querySelectorAll('.viewer').forEach(v => {
  v.querySelector('.prev').onclick = () => show(v, +v.dataset.at - 1);
  v.querySelector('.next').onclick = () => show(v, +v.dataset.at + 1);
  show(v, 0);
});
function fromHash() {
  const h = decodeURIComponent(location.hash.slice(1)); const cut = h.lastIndexOf('/');
  const v = document.getElementById(h.slice(0, cut));
  if (v && v.classList.contains('viewer')) show(v, parseInt(h.slice(cut + 1)) || 0);
}
window.addEventListener('hashchange', fromHash); fromHash();
"""


def _load(path):
    """The game, or what is wrong with its spec (its section says so)."""
    try:
        return load(path)
    except (SpecError, StateError) as err:
        return str(err)


def _page(rows, answers, games, budget, deals, where) -> str:
    e = html.escape
    head = ["game", "rules", "claims held/failed/unknown", "not as expected", "readings differ/agree", "gaps",
            "dead ends (switched off)", "fixtures", "coverage"]
    body = [f"<h1>zoospec tour</h1><p>{len(rows)} game(s), budget {budget:.0f} s.</p>",
            "<table id='summary'><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for r in rows:
        c, f = r["claims"], r["findings"]
        cov = "n/a" if r["coverage"] is None else f"{r['coverage']['percent']}%"
        dead = f"{f['dead-end'] + f['dead-action']} ({f['switched-off']})" if "dead-ends" in r["asked"] else "—"
        body.append(f"<tr class='game-row' data-game='{e(r['game'])}'><td><a href='#{_id(r['game'])}'>{e(r['game'])}</a></td>"
                    + (f"<td colspan='{len(head) - 1}'>INVALID</td>" if not r["valid"] else
                       f"<td>{r['rules']}</td><td>{c['holds']}/{c['fails']}/{c['unknown']}</td><td>{len(r['unexpected'])}</td>"
                       f"<td>{f['readings-differ']}/{f['readings-agree']}</td>"
                       f"<td>{_asked(r, 'gaps', str(f['gap']))}</td><td>{_asked(r, 'dead-ends', dead)}</td>"
                       f"<td>{'unknown (budget)' if r['fixtures'] is None else _link(r['game'], 'fixtures', r['fixtures'])}</td>"
                       f"<td>{cov}</td>") + "</tr>")
    body.append("</table>")
    for name in games:
        body.append(_game_section(name, games[name], [(q, a) for q, a in answers if q.game == name], deals[name],
                                  f"{FIXTURES}/{where[name]}"))
    return ("<!doctype html><html><head><meta charset='utf-8'><title>zoospec tour</title>"
            f"<style>{STYLE}</style></head><body>" + "\n".join(body) + f"<script>{SCRIPT}</script></body></html>")


def _link(game: str, part: str, value) -> str:
    """A summary cell's value, linking to its evidence in the game's section."""
    return f"<a href='#{_id(game)}-{part}'>{value}</a>"


def _asked(row, question: str, value: str) -> str:
    return "unknown (budget)" if question in row["unknown_budget"] else value


def _game_section(name, g, answers, deals, fixtures_at) -> str:
    e = html.escape
    if isinstance(g, str):
        return f"<section id='{_id(name)}' class='game'><h2>{e(name)}</h2><pre>{e(g)}</pre></section>"
    out = [f"<section id='{_id(name)}' class='game' data-game='{e(name)}'><h2>{e(g.title)} <small>({e(name)})</small></h2>"]
    claims = [(q, a) for q, a in answers if q.kind == "claim"]
    if claims:
        out.append("<h3>Claims</h3>")
    for q, a in claims:
        c = g.claims.get(q.item)
        verdict = a.get("verdict", "unknown")
        label = verdict if a.get("why") != "budget" else "unknown (budget)"
        if verdict != "unknown":
            label += " (as expected)" if a.get("as_expected") else f" — expected to {a.get('expect', '?')[:-1]}"
        cite = f" — {e(str(c.cite))}" if c is not None and c.cite else ""
        out.append(f"<div class='claim' data-claim='{e(q.item)}' data-verdict='{e(verdict)}'>"
                   f"<p><b class='{e(verdict)}'>{e(label)}</b> {e(q.item)}: {e(c.says if c else '')}{cite}</p>")
        if a.get("trace"):
            out.append(_viewer(g, f"{name}/{q.item}", a["trace"]))
        out.append("</div>")
    findings = [(q, f) for q, a in answers for f in a.get("findings", []) if q.kind == "reading" and f["kind"] == "readings-differ"]
    if findings:
        out.append("<h3>Readings that disagree</h3>")
    for i, (q, f) in enumerate(findings):
        r = g.readings.get(q.item)
        out.append(f"<div class='reading' data-reading='{e(q.item)}'><p>{e(f['message'])}</p>"
                   + (f"<p><i>{e(r.question)}</i> — {e(str(r.cite))}</p>" if r else ""))
        if f.get("trace"):
            out.append(_viewer(g, f"{name}/reading-{q.item}-{i}", f["trace"]))
        out.append("</div>")
    out.extend(_deals(deals))
    out.extend(_fixtures(g, answers, fixtures_at, f"{_id(name)}-fixtures"))
    out.extend(_sentences(answers))
    found = [(q, f) for q, a in answers for f in a.get("findings", []) if f["kind"] in LOOSE_ENDS]
    if found:
        out.append("<h3>Gaps, dead ends and switched-off actions</h3>")
    for i, (q, f) in enumerate(found):
        cite = f" — {e(str(f['cite']))}" if f.get("cite") else ""
        out.append(f"<div class='finding' data-kind='{e(f['kind'])}' data-subject='{e(f['subject'])}'>"
                   f"<p><b>{e(f['kind'])}</b> {e(f['subject'])}: {e(f['message'])}{cite}</p>")
        if f.get("trace"):
            out.append(_viewer(g, f"{name}/{f['kind']}-{f['subject']}-{i}", f["trace"]))
        out.append("</div>")
    return "\n".join(out) + "</section>"


def _index(a: dict) -> dict | None:
    """The fixtures' index.json from an answer's corpus, or None where it has none."""
    try:
        return json.loads(a.get("corpus", {}).get("index.json", ""))
    except (ValueError, AttributeError):
        return None


def _fixtures(g, answers, where, anchor) -> list[str]:
    """The fixtures written for the game: where they are, and per rule or action its file, what
    it says and how many cases; what has no boundary, and what the budget left out."""
    e = html.escape
    got = [a for q, a in answers if q.kind == "fixtures"]
    index = _index(got[0]) if got else None
    if index is None:
        return []
    out = [f"<h3 id='{e(anchor)}'>Fixtures</h3><p class='fixtures' data-count='{got[0]['fixtures']}'>{got[0]['fixtures']} test cases "
           f"for other implementations in <a href='{e(where)}/index.json'>{e(where)}/</a> (seed {index['seed']}; "
           f"states as <a href='{e(where)}/state.schema.json'>state.schema.json</a> describes them)</p>",
           "<table class='fixture-files'><tr><th>rule or action</th><th>what it says</th><th>cases</th></tr>"]
    for f in index["files"]:
        subject = g.rules.get(f["subject"]) or g.actions.get(f["subject"])
        out.append(f"<tr data-subject='{e(f['subject'])}'><td><a href='{e(where)}/{e(f['file'])}'>{e(f['subject'])}</a></td>"
                   f"<td>{e(getattr(subject, 'says', '') or '')}</td><td>{f['fixtures']}</td></tr>")
    out.append("</table>")
    if index["no_boundary"]:
        out.append("<p>No boundary (the verdict never changes with one change of state): "
                   + e(", ".join(dict.fromkeys(nb.get("rule") or nb.get("action") for nb in index["no_boundary"]))) + "</p>")
    if index["skipped"]:
        out.append(f"<p class='unknown'>Not reached within the budget: {e(', '.join(index['skipped']))}</p>")
    return out


def _deals(deals) -> list[str]:
    """The example deals shipped with the game: each one's known verdict and, where a plan is
    shipped, its zoo drawn with its score — certified by the rules here, or the problems found."""
    e = html.escape
    if not deals:
        return []
    out = ["<h3>Example deals</h3>"]
    for d in deals:
        under = f" (with {', '.join(d.switches)})" if d.switches else ""
        if d.problems:
            plan = f"<p class='fails'>does not stand up: {e('; '.join(d.problems[:5]))}</p>"
        elif d.score is not None:
            best = "a perfect zoo" if d.score >= d.target else f"the best shipped, {d.target} out of reach"
            plan = f"<p>the shipped plan: certified, scores {d.score} of {d.target} ({best})</p>{d.svg}"
        else:
            plan = "<p>no plan shipped</p>"
        out.append(f"<div class='deal' data-deal='{e(d.name)}' data-expect='{e(d.expect)}'>"
                   f"<p><b>{e(d.name)}</b>{e(under)}: {e(d.says)} — known: <b>{e(d.expect or 'not said')}</b></p>{plan}</div>")
    return out


def _sentences(answers) -> list[str]:
    """The rulebook sentence by sentence: the rules, switches, components and cases that cite
    each one, why one is judged non-normative, and which are uncovered (shown open when any is)."""
    e = html.escape
    cov = next((a for q, a in answers if q.kind == "coverage" and a.get("sentences")), None)
    if cov is None:
        return []
    lines = cov["sentences"]
    judged = sum(ln["status"] == "non-normative" for ln in lines)
    head = (f"The rulebook, sentence by sentence: {cov['covered']} of {cov['normative']} normative sentences "
            f"covered ({cov['percent']}%), {judged} judged non-normative, {cov['uncovered']} uncovered"
            + (f" — counted with {', '.join(cov['with'])}" if cov.get("with") else ""))
    rows = "".join(f"<tr class='sentence {e(ln['status'])}' data-status='{e(ln['status'])}'><td>{e(ln['section'])}</td>"
                   f"<td>{ln['n']}</td><td>{e(ln['text'])}</td>"
                   f"<td>{e(', '.join(ln['by']) if ln['status'] == 'covered' else ln['why'] or 'uncovered')}</td></tr>"
                   for ln in lines)
    return [f"<details class='coverage'{' open' if cov['uncovered'] else ''}><summary><b>{e(head)}</b></summary>"
            f"<table><tr><th>section</th><th>#</th><th>sentence</th><th>cited by, or why it states no rule</th></tr>"
            f"{rows}</table></details>"]


def _viewer(g, vid: str, itf: dict) -> str:
    """A state-by-state viewer of a trace, each state drawn with the game's picture (SVG)."""
    e = html.escape
    meta = itf.get("#meta") or {}
    try:
        if meta.get("switches", g.switches) != g.switches or meta.get("readings", g.chosen) != g.chosen:
            g = g.with_readings(meta.get("readings") or {}, meta.get("switches") or {})  # as the witness was made
        trace = traces.load_itf(g, itf)
    except (SpecError, StateError, KeyError, TypeError, ValueError):
        return "<p>(the witness could not be read back)</p>"
    steps = []
    for i, s in enumerate(trace.states):
        move = f"after {e(trace.steps[i - 1].action)} {e(json.dumps(traces.plain(trace.steps[i - 1].args)))}" if i else "the first state"
        steps.append(f"<div class='step' data-step='{i}'><p>{move}</p>{picture.svg(g, s, f'state {i}')}</div>")
    return (f"<div class='viewer' id='{e(vid)}' data-at='0'><button class='prev'>previous</button> "
            f"<span class='where'></span> <button class='next'>next</button>{''.join(steps)}</div>")


def folders(games) -> dict[str, str]:
    """Each game's folder of fixtures: its bundled name, or its spec file's name without `.yaml`
    (numbered where two games of one tour share a name)."""
    out: dict[str, str] = {}
    for name in games:
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in Path(name).name.removesuffix(".yaml")) or "game"
        out[name] = next(f for f in (stem, *(f"{stem}-{i}" for i in range(2, len(games) + 2))) if f not in out.values())
    return out


def _id(name: str) -> str:
    return "game-" + "".join(ch if ch.isalnum() else "-" for ch in name)
