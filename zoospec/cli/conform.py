"""`zoospec conform GAME --adapter CMD` — another implementation compared with the spec, every
disagreement named a reading or a bug with the rules that decide it (solvers/analysis/conform.py)."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap

from zoospec.solvers.analysis import conform
from zoospec.solvers.play import picture

from ..front.loader import load_named
from ..front.output import emit
from .analysis import guarded
from .options import add_game_choices, at_least, positive


def case_sources(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    bad = [n for n in names if n not in conform.CASES]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"{', '.join(bad) or 'nothing'}: the case sources are {', '.join(conform.CASES)}")
    return names


def add_parser(sub):
    p = sub.add_parser("conform", help="test another implementation against the spec through a JSON adapter; name each disagreement")
    p.add_argument("game", help="a bundled game name or a spec file")
    p.add_argument("--adapter", required=True, metavar="CMD", help="the command that starts the implementation's adapter (docs/conformance.md)")
    p.add_argument("--games", type=at_least(1), default=3, help="seeded games whose every state is asked about (default 3)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    p.add_argument("--steps", type=at_least(1), default=200, help="at most this many moves per game (default 200)")
    p.add_argument("--timeout", type=positive, default=30.0, help="seconds the adapter has for one answer (default 30)")
    p.add_argument("--cases", type=case_sources, default=("games",), metavar="SOURCE,...",
                   help="where the states asked about come from: games (every state of seeded games) and "
                        "readings (for each reading, a smallest state where its choices disagree); default games")
    add_game_choices(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(fn=cmd_conform)


@guarded
def cmd_conform(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    adapter = conform.Adapter(args.adapter, args.timeout)
    try:
        progress = None if args.json or not sys.stderr.isatty() else (
            lambda m: print(f"  … {m}".ljust(70)[:70], end="\r", file=sys.stderr, flush=True))
        rep = conform.conform(g, adapter, games=args.games, seed=args.seed, max_steps=args.steps, progress=progress,
                              cases=args.cases)
    finally:
        adapter.close()
    if args.json:
        emit("conform", {"game": rep.game, "implementation": rep.implementation, "asked": rep.asked,
                          "unsupported": rep.unsupported, "cases": rep.cases, "protocol": rep.protocol,
                          "fingerprint": rep.fingerprint,
                          "groups": [{"kind": k, "why": w, "count": n} for (k, w), n in rep.summary().items()],
                          "disagreements": [d.__dict__ for d in rep.disagreements]})
    else:
        asked = ", ".join(f"{n} {op}" for op, n in rep.asked.items())
        cases = ", ".join(f"{n} from {src}" for src, n in rep.cases.items())
        print(f"{rep.implementation} against {g.title}: asked {asked} about states ({cases})"
              + (f"; it does not answer {', '.join(rep.unsupported)}" if rep.unsupported else ""))
        if not rep.disagreements and not rep.protocol:
            print("every answer agrees with the spec")
        for (kind, why), n in rep.summary().items():
            first = next((d for d in rep.disagreements if (d.kind, d.why) == (kind, why) and d.smallest is not None),
                         next(d for d in rep.disagreements if (d.kind, d.why) == (kind, why)))
            head = f"follows the reading {why}" if kind == "reading" else f"disagrees with {why}"
            print(f"\n{n} answer(s): {head}")
            print(f"  e.g. {first.op} {first.subject} {json.dumps(first.args)}: the spec says {json.dumps(first.spec)}, "
                  f"the implementation {json.dumps(first.other)}")
            print(f"  on the state {json.dumps(first.state)}")
            if first.smallest is not None:
                print("  the smallest state where it still happens (shrunk against the implementation):")
                print(textwrap.indent(picture.text(g, g.state_from_json(first.smallest)).rstrip(), "    "))
        if rep.protocol:
            print(f"\n{len(rep.protocol)} request(s) not answered as the protocol says, e.g.:")
            for p in rep.protocol[:5]:
                print(f"  request {p['request']} ({p['op']} {p['subject']}): {p['problem']}")
        if rep.fingerprint:
            print("\nReadings (on the questions a reading's choices answer differently):")
            for f in rep.fingerprint:
                shown = ", ".join(f"{c} {n}" for c, n in f["matches"].items()) + (f", neither {f['neither']}" if f["neither"] else "")
                verdict = (f"follows {f['follows']}" + (" (the spec's)" if f["follows"] == f["spec"] else "")) if f["follows"] \
                    else ("no question told them apart" if not f["questions"] else "follows no one choice")
                print(f"  {f['reading']}: {verdict} — {f['questions']} question(s): {shown}")
    return 1 if rep.disagreements or rep.protocol else 0
