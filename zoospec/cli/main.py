"""The `zoospec` command. Human output by default, `--json` for machines; exit 0 ok, 1 a finding
(e.g. a failed check), 2 bad input (a spec with problems, a bad argument)."""
from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from pathlib import Path

from zoospec.solvers import games
from zoospec.solvers.play import picture
from zoospec.solvers.play.playout import applying_final_scores
from zoospec.solvers.symbolic import param_values, py_value

from .. import collector, stack_room
from ..engines import interrupt
from ..errors import SpecError, Undefined
from ..front.loader import load, load_named
from ..front.output import emit
from ..suggest import suggest
from . import analysis as cli_analysis, conform as cli_conform, deal as cli_deal, pack as cli_pack, solve as cli_solve, tour as cli_tour
from .options import add_game_choices


def _spec_files(paths: list[str]) -> list[Path]:
    out = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(x for x in path.glob("*.yaml")))
        else:
            out.append(path)
    return out


def cmd_validate(args) -> int:
    files = _spec_files(args.paths)
    if not files:
        print(f"zoospec: no .yaml spec files in {' '.join(args.paths)}", file=sys.stderr)
        return 2
    results, status = [], 0
    for f in files:
        try:
            g = load(f)
        except SpecError as e:
            status = 2
            results.append({"file": str(f), "ok": False, "problems": [
                {"file": p.loc.file, "line": p.loc.line, "col": p.loc.col, "rule": p.loc.rule, "message": p.message} for p in e.problems]})
            if not args.json:  # problems on stderr, as every command's errors; the ok lines on stdout
                for p in e.problems:
                    print(str(p), file=sys.stderr)
            continue
        results.append({"file": str(f), "ok": True, "game": g.id, "rules": len(g.rules), "actions": len(g.actions),
                        "readings": len(g.readings), "claims": len(g.claims)})
        if not args.json:
            print(f"{f}: ok — {g.title}: {g.summary()}")
    if args.json:
        emit("validate", {"files": results})
    return status


def cmd_state_schema(args) -> int:
    try:
        g = load_named(args.spec)
    except SpecError as e:
        print(str(e), file=sys.stderr)
        return 2
    print(json.dumps(g.state_schema(), indent=2))
    return 0


@cli_analysis.guarded
def cmd_rules(args) -> int:
    """Every rule, action and reading of a game: id, citation, our paraphrase, kind."""
    g = load_named(args.game)
    if args.show_python:
        return _show_python(g, args.show_python, args.json)
    items = [{"id": r.id, "kind": r.kind, "cite": str(r.cite) if r.cite else None, "says": r.says,
              "params": [n for n, _ in r.params], "at": f"{r.loc.file}:{r.loc.line}",
              **({"assumption": r.assumption} if r.assumption else {})} for r in g.rules.values()]
    items += [{"id": a.id, "kind": "action", "cite": str(a.cite) if a.cite else None, "says": a.says,
               "params": [n for n, _ in a.params], "at": f"{a.loc.file}:{a.loc.line}"} for a in g.actions.values()]
    items += [{"id": r.id, "kind": "reading", "cite": str(r.cite), "says": r.question,
               "choices": {c: says + (" (default)" if c == r.default else "") for c, says in r.choices.items()},
               "chosen": g.chosen[r.id], "at": f"{r.loc.file}:{r.loc.line}"} for r in g.readings.values()]
    if args.json:
        emit("rules", {"game": g.id, "title": g.title, "rulebook": g.rulebook, "rules": items})
        return 0
    print(f"{g.title} ({g.rulebook}): {g.summary()}")
    for it in items:
        params = f"({', '.join(it.get('params', []))})" if it.get("params") else ""
        print(f"\n{it['id']}{params}  [{it['kind']}]  {it['cite'] or ''}\n    {it['says']}")
        for c, says in it.get("choices", {}).items():
            print(f"    - {c}: {says}")
        if it.get("assumption"):
            print(f"    assumption: {it['assumption']}")
    return 0


def _show_python(g, name: str, as_json: bool) -> int:
    """The Python the generated back end runs for a rule, an action's legality or a define."""
    if name in g.rules and g.rules[name].body is not None:
        expr = g.rules[name].body
    elif name in g.actions:
        expr = g.legal_expr(name)
    elif name in g.defines:
        expr = g.defines[name][1]
    else:
        known = [*g.rules, *g.actions, *g.defines]
        print(f"zoospec: no rule {name!r} with a body, action or define in {g.id}{suggest(name, known)}", file=sys.stderr)
        return 2
    src = g.python_backend.source(expr) if hasattr(g.python_backend, "source") else "(the closure back end is in use: ZOOSPEC_PYTHON=closures)\n"
    if as_json:
        emit("show-python", {"game": g.id, "id": name, "python": src})
    else:
        print(src, end="")
    return 0


@cli_analysis.guarded
def cmd_score(args) -> int:
    """Every scoring rule of a game on one state, line by line, with the rule behind each. Lines
    for seats the spec's final score leaves out (players not in the game) are skipped."""
    g = load_named(args.game, args.reading, args.switches)
    state = cli_analysis.read_state(g, args.state, args.over_start, args.unchecked)
    finals = applying_final_scores(g, state)
    # which players are in the game: the first entry that says so, whichever entry decides
    seats = next((fs for fs in g.final_scores if fs.given is not None), None)
    needs = {n for n, _ in g.rules[seats.rule].params} if seats else set()
    lines = []
    for r in g.rules.values():
        if r.kind != "scoring":
            continue
        for a in param_values(g, r.params):
            if seats and needs <= set(a) and py_value(g, seats.given, state, a) is not True:
                continue
            try:
                v = r.holds(state, **a)
            except Undefined as e:
                v = f"undefined ({e.reason})"
            lines.append({"rule": r.id, "args": a, "points": v, "says": r.says, "cite": str(r.cite),
                          **({"final": True} if any(fs.rule == r.id for fs in finals) else {})})
    if args.json:
        emit("score", {"game": g.id, "readings": g.chosen, "lines": lines})
        return 0
    hidden, group = 0, None
    if args.draw:
        print(picture.text(g, state) + "\n")

    def who(ln):  # the final score's arguments (a player), when this line has them
        return tuple((n, ln["args"][n]) for n in sorted(needs)) if needs and needs <= set(ln["args"]) else ()
    for ln in sorted(lines, key=lambda ln: who(ln)):  # stable: rule order within each player
        if who(ln) != group:
            group = who(ln)
            print(f"{', '.join(f'{n}={v}' for n, v in group) or 'the game'}:")
        if ln["points"] == 0 and ln["args"] and not ln.get("final") and not args.all:
            hidden += 1
            continue
        args_txt = "(" + ", ".join(f"{k}={v}" for k, v in ln["args"].items()) + ")" if ln["args"] else ""
        print(f"{str(ln['points']):>6}  {ln['rule']}{args_txt}  — {ln['says']}")
    if hidden:
        print(f"({hidden} lines scoring 0 not shown; --all shows them)")
    return 0


def _version() -> str:
    try:
        return metadata.version("zoospec")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="zoospec", description="Executable, machine-checked rules for zoo board games.")
    ap.add_argument("--version", action="version", version=f"zoospec {_version()}")
    sub = ap.add_subparsers(dest="cmd")
    v = sub.add_parser("validate", help="check game spec files (schema, names, types) and summarise each")
    v.add_argument("paths", nargs="+", help="spec files or folders of them")
    v.add_argument("--json", action="store_true", help="machine-readable output")
    v.set_defaults(fn=cmd_validate)
    s = sub.add_parser("state-schema", help="print the JSON Schema of a spec's state")
    s.add_argument("spec", help="a bundled game name (e.g. zooloretto) or a spec file")
    s.set_defaults(fn=cmd_state_schema)
    r = sub.add_parser("rules", help="list a game's rules, actions and readings with their citations")
    r.add_argument("game")
    r.add_argument("--json", action="store_true")
    r.add_argument("--show-python", metavar="ID", help="print the Python generated for one rule, action (its legality) or define")
    r.set_defaults(fn=cmd_rules)
    sc = sub.add_parser("score", help="every scoring rule of a game on a state (JSON), line by line")
    sc.add_argument("game")
    sc.add_argument("state", help="a state in the game's JSON format (zoospec state-schema GAME)")
    add_game_choices(sc)
    sc.add_argument("--over-start", action="store_true", help="the state file gives only what differs from the spec's start state")
    sc.add_argument("--unchecked", action="store_true", help="score a state that breaks the spec's invariants (refused by default)")
    sc.add_argument("--all", action="store_true", help="also the lines that score 0")
    sc.add_argument("--draw", action="store_true", help="draw the state first (the spec's picture: boards, maps, each Exhibit)")
    sc.add_argument("--json", action="store_true")
    sc.set_defaults(fn=cmd_score)
    cli_pack.add_parser(sub)
    cli_analysis.add_parsers(sub)
    cli_deal.add_parser(sub)
    cli_solve.add_parser(sub)
    cli_tour.add_parsers(sub)
    cli_conform.add_parser(sub)
    for game in games.all_games():  # commands of one game's own (solvers/games/)
        for name, help_, add_arguments, run in game.commands() if hasattr(game, "commands") else []:
            p = sub.add_parser(name, help=help_)
            add_arguments(p)
            p.set_defaults(fn=cli_analysis.guarded(run))
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # --help, --version, or a bad argument (argparse has said which): a code, not an exit
        return e.code if isinstance(e.code, int) else 2
    collector.tune()
    if not getattr(args, "fn", None):
        args = ap.parse_args(["tour"])  # the main job: every bundled game, every analysis
    try:
        with interrupt.ctrl_c_stops(first_raises=True):  # Ctrl-C reaches a solver inside C at once
            return stack_room.run(lambda: args.fn(args))  # no frame-chunk thrash under load (stack_room.py)
    except KeyboardInterrupt:
        print("zoospec: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except Exception as e:  # the last resort: a bug of ours, never a traceback and never 1 (a finding)
        print(f"zoospec: internal error: {type(e).__name__}: {e}\n"
              f"please report it with the command that led here (exit 4)", file=sys.stderr)
        return 4

