"""`zoospec conform --report DIR`: a conformance run as a page to look at — `DIR/index.html`,
self-contained like the tour's report (no network, opens from disk), and `DIR/conform.json`
beside it (what `--json` prints).

The page says what was asked and how much of it agreed, per request kind and per rule or action;
which choice of each reading the implementation follows; and each group of disagreements with its
verdict (a reading, or a bug with the rules and rulebook sentences that decide it), one question
and both answers, and the state it was asked on drawn with the game's own picture beside the
smallest state where the implementation still answers otherwise.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from zoospec import files
from zoospec.errors import StateError

from ..play import picture
from .conform import headline
from .report import STYLE

LOOK = ".pictures { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; } tr.differs td { background: #fbe3e3; }"


def write(out_dir: str | Path, game, rep) -> Path:
    """Write index.html and conform.json; returns the page's path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files.write_text(out / "conform.json", json.dumps(rep.as_json(), indent=1))
    files.write_text(out / "index.html", page(game, rep))
    return out / "index.html"


def page(game, rep) -> str:
    e = html.escape
    asked = ", ".join(f"{n} {op}" for op, n in rep.asked.items())
    cases = ", ".join(f"{n} from {src}" for src, n in rep.cases.items())
    groups = _groups(rep)
    verdict = ("every answer agrees with the spec" if not rep.disagreements and not rep.protocol else
               f"{len(rep.disagreements)} answer(s) differ, in {len(groups)} group(s)"
               + (f"; {len(rep.protocol)} request(s) not answered as the protocol says" if rep.protocol else ""))
    body = [f"<h1>{e(rep.implementation)} against {e(game.title)}</h1>",
            f"<p>Asked {e(asked)} about states ({e(cases)})"
            + (f"; it does not answer {e(', '.join(rep.unsupported))}" if rep.unsupported else "")
            + (f"; {rep.unasked} states not asked about: the budget was spent" if rep.unasked else "") + ".</p>",
            f"<p id='verdict' class='{'holds' if not rep.disagreements and not rep.protocol else 'fails'}'><b>{e(verdict)}</b></p>"]
    if rep.robustness is not None:
        r = rep.robustness
        body.append(f"<p id='robustness' data-answered='{r['answered']}' data-refused='{r['refused']}'>On {r['states']} states "
                    f"that break an invariant (asked only whether it survives them): {r['requests']} requests, "
                    f"{r['answered']} answered, {r['refused']} refused with an error.</p>")
    body += _fingerprint(rep)
    for i, ((kind, why), ds) in enumerate(groups.items()):
        body.append(_group(game, i, kind, why, ds))
    body += _questions(rep, groups)
    body += _protocol(rep)
    return ("<!doctype html><html><head><meta charset='utf-8'>"
            f"<title>{e(rep.implementation)} against {e(game.title)}</title><style>{STYLE}{LOOK}</style></head><body>"
            + "\n".join(body) + "</body></html>")


def _groups(rep) -> dict:
    out: dict = {}
    for d in rep.disagreements:
        out.setdefault((d.kind, d.why), []).append(d)
    return out


def _fingerprint(rep) -> list[str]:
    e = html.escape
    if not rep.fingerprint:
        return []
    rows = []
    for f in rep.fingerprint:
        follows = (f["follows"] + (" (the spec's)" if f["follows"] == f["spec"] else "")) if f["follows"] else \
            ("no question told them apart" if not f["questions"] else "no one choice")
        shown = ", ".join(f"{c} {n}" for c, n in f["matches"].items()) + (f", neither {f['neither']}" if f["neither"] else "")
        rows.append(f"<tr data-reading='{e(f['reading'])}' data-follows='{e(f['follows'] or '')}'><td>{e(f['reading'])}</td>"
                    f"<td>{e(f['spec'])}</td><td><b>{e(follows)}</b></td><td>{f['questions']}</td><td>{e(shown)}</td></tr>")
    return ["<h2>Readings</h2><p>For each reading of the spec, on the questions its choices answer differently: "
            "which choice the implementation's answers match.</p>",
            "<table id='fingerprint'><tr><th>reading</th><th>the spec's choice</th><th>the implementation follows</th>"
            "<th>questions</th><th>answers matching each choice</th></tr>" + "".join(rows) + "</table>"]


def _group(game, i, kind, why, ds) -> str:
    e = html.escape
    first = next((d for d in ds if d.smallest is not None), ds[0])
    head = headline(kind, why)
    pictures = [_drawn(game, first.state, "the state asked about")]
    if first.smallest is not None:
        pictures.append(_drawn(game, first.smallest, "the smallest state where it still answers otherwise"))
    return (f"<section class='group' id='group-{i}' data-kind='{e(kind)}' data-why='{e(why)}' data-count='{len(ds)}'>"
            f"<h2>{len(ds)} answer(s): {e(head)}</h2>"
            f"<p>e.g. <code>{e(first.op)} {e(first.subject)} {e(json.dumps(first.args))}</code>: the spec says "
            f"<b>{e(json.dumps(first.spec))}</b>, the implementation <b>{e(json.dumps(first.other))}</b></p>"
            f"<div class='pictures'>{''.join(pictures)}</div></section>")


def _drawn(game, state_json: dict, title: str) -> str:
    try:
        s = game.state_from_json(state_json)
    except (StateError, KeyError, TypeError, ValueError):
        return f"<p>({html.escape(title)}: not a state of the game)</p>"
    return f"<div class='state'>{picture.svg(game, s, title)}</div>"


def _questions(rep, groups) -> list[str]:
    e = html.escape
    if not rep.questions:
        return []
    group_of = {(d.op, d.subject): i for i, ds in enumerate(groups.values()) for d in ds}
    rows = []
    for q in rep.questions:
        differ = q["asked"] - q["agreed"]
        link = f"<a href='#group-{group_of[(q['op'], q['subject'])]}'>{differ}</a>" if differ and (q["op"], q["subject"]) in group_of else str(differ)
        rows.append(f"<tr class='question{' differs' if differ else ''}' data-op='{e(q['op'])}' data-subject='{e(q['subject'])}' "
                    f"data-asked='{q['asked']}' data-agreed='{q['agreed']}'><td>{e(q['op'])}</td><td>{e(q['subject'] or '—')}</td>"
                    f"<td>{q['asked']}</td><td>{q['agreed']}</td><td>{link}</td></tr>")
    return ["<h2>Every question, by request and rule or action</h2>",
            "<table id='questions'><tr><th>request</th><th>rule or action</th><th>asked</th><th>agreed</th><th>differed</th></tr>"
            + "".join(rows) + "</table>"]


def _protocol(rep) -> list[str]:
    e = html.escape
    if not rep.protocol:
        return []
    rows = "".join(f"<tr><td>{p['request']}</td><td>{e(p['op'])} {e(p['subject'])}</td><td>{e(p['problem'])}</td></tr>"
                   for p in rep.protocol)
    return ["<h2>Requests not answered as the protocol says</h2>",
            f"<table id='protocol'><tr><th>request</th><th>question</th><th>problem</th></tr>{rows}</table>"]
