"""`zoospec conform GAME --adapter CMD` — another implementation compared with the spec, every
disagreement named a reading or a bug with the rules that decide it (solvers/analysis/conform.py)."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap

from zoospec.solvers.analysis import conform, conform_page, game_log
from zoospec.solvers.play import picture

from ..front.jsonfile import read_json_lines
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
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--adapter", metavar="CMD", help="the command that starts the implementation's adapter (docs/conformance.md)")
    how.add_argument("--trace", metavar="LOG", help="a game log the implementation wrote (JSON lines: a start, then moves, "
                     "optionally with the states it claims): the first illegal move or wrong state")
    p.add_argument("--games", type=at_least(1), default=3, help="seeded games whose every state is asked about (default 3)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    p.add_argument("--steps", type=at_least(1), default=200, help="at most this many moves per game (default 200)")
    p.add_argument("--timeout", type=positive, default=30.0, help="seconds the adapter has for one answer (default 30)")
    p.add_argument("--cases", type=case_sources, default=("games",), metavar="SOURCE,...",
                   help="where the states asked about come from: games (every state of seeded games), "
                        "readings (for each reading, a smallest state where its choices disagree) and fixtures (the states on either "
                        "side of each rule's and action's verdict, as `zoospec fixtures` makes them) and random (states the "
                        "invariants allow, a few random changes from the games' states: see --random); invalid: as many "
                        "that break an invariant, asked only whether the implementation survives them; default games")
    p.add_argument("--random", type=at_least(1), default=100, metavar="N",
                   help="with --cases random or invalid: this many states each (default 100), from the --games seeded games' states")
    p.add_argument("--budget", type=positive, metavar="SECONDS",
                   help="finding the cases and asking about them stops after this long; what is left is counted as not asked")
    p.add_argument("--report", metavar="DIR", help="also write the run as a page to look at: DIR/index.html (opens from "
                   "disk: each group of disagreements with its states drawn) and DIR/conform.json")
    add_game_choices(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(fn=cmd_conform)


@guarded
def cmd_conform(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    if args.trace:
        return _check_log(g, args)
    adapter = conform.Adapter(args.adapter, args.timeout)
    try:
        progress = None if args.json or not sys.stderr.isatty() else (
            lambda m: print(f"  … {m}".ljust(70)[:70], end="\r", file=sys.stderr, flush=True))
        rep = conform.conform(g, adapter, games=args.games, seed=args.seed, max_steps=args.steps, progress=progress,
                              cases=args.cases, randoms=args.random, budget=args.budget)
    finally:
        adapter.close()
    page = conform_page.write(args.report, g, rep) if args.report else None
    if args.json:
        emit("conform", rep.as_json())
    else:
        asked = ", ".join(f"{n} {op}" for op, n in rep.asked.items())
        cases = ", ".join(f"{n} from {src}" for src, n in rep.cases.items())
        print(f"{rep.implementation} against {g.title}: asked {asked} about states ({cases})"
              + (f"; it does not answer {', '.join(rep.unsupported)}" if rep.unsupported else "")
              + (f"; {rep.unasked} states not asked about: the --budget was spent" if rep.unasked else ""))
        if not rep.disagreements and not rep.protocol:
            print("every answer agrees with the spec")
        if rep.robustness is not None:
            r = rep.robustness
            print(f"on {r['states']} states that break an invariant: {r['requests']} requests, {r['answered']} answered, "
                  f"{r['refused']} refused with an error" + (", the rest not as the protocol says (below)" if
                                                            r['answered'] + r['refused'] < r['requests'] else ""))
        for (kind, why), n in rep.summary().items():
            first = next((d for d in rep.disagreements if (d.kind, d.why) == (kind, why) and d.smallest is not None),
                         next(d for d in rep.disagreements if (d.kind, d.why) == (kind, why)))
            head = conform.headline(kind, why)
            print(f"\n{n} answer(s): {head}")
            print(f"  e.g. {first.op} {first.subject} {json.dumps(first.args)}: the spec says {json.dumps(first.spec)}, "
                  f"the implementation {json.dumps(first.other)}")
            shown = json.dumps(first.state)  # a whole table's state is pages long: --json has every one
            print(f"  on the state {shown}" if len(shown) <= 240 else "  on a state too big to print here (--json gives it whole)")
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
        if page is not None:
            print(f"\nreport: {page} (and conform.json beside it)")
    return 1 if rep.disagreements or rep.protocol else 0


def _check_log(g, args) -> int:
    """`--trace LOG`: the log checked move by move (solvers/analysis/game_log.py)."""
    res = game_log.check(g, read_json_lines(args.trace, "a game log"))
    p = res.problem
    if args.json:
        emit("conform-trace", {"game": res.game, "log": args.trace, "moves": res.moves, "states": res.states,
                                "problem": None if p is None else p.__dict__})
        return 0 if p is None else 1
    print(f"{args.trace} against {g.title}: {res.moves} legal move(s), {res.states} claimed state(s) as the spec has them")
    if p is None:
        print("every move is legal and every state the log claims is the spec's")
        return 0
    print(f"\n{args.trace}:{p.line}: {p.message}")
    for r in p.rules:
        print(f"  decided by {r}")
    if p.state is not None:
        print("  the state before it:")
        print(textwrap.indent(picture.text(g, g.state_from_json(p.state)).rstrip(), "    "))
    return 1
