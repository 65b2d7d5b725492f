"""The analysis commands (docs/analysis.md): check, ambiguities, fixtures, coverage, replay, tour.

Exit status: 0 nothing to report; 1 a finding (a claim contrary to its expectation, an
ambiguity, an uncovered sentence, a trace that does not replay); 2 bad input; 3 some answer is
unknown (deadline); 4 an internal error (the back ends disagree — nothing was reported as found).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from zoospec.solvers import dealing, traces
from zoospec.solvers.analysis import ambiguity, claims, coverage, fixtures
from zoospec.solvers.play import picture, playout as playing
from zoospec.solvers.puzzle import search as puzzle
from zoospec.solvers.symbolic import broken_invariant_instances, py_value, rule_instances

from .. import files, ir
from ..errors import InternalError, SpecError, StateError
from ..front.jsonfile import read_object
from ..front.loader import load_named, load_recorded
from ..front.output import emit
from ..runtime.state import merged
from ..suggest import suggest
from .options import add_dump_smt2, add_game_choices, at_least, check_writable, error_as_json, positive, start_dump


def _progress(msg: str):
    if sys.stderr.isatty():
        print(f"  … {msg}".ljust(70)[:70], end="\r", file=sys.stderr, flush=True)


def _clear():
    if sys.stderr.isatty():
        print(" " * 70, end="\r", file=sys.stderr)


def read_state(game, path: str, over_start: bool = False, unchecked: bool = False) -> dict:
    """A state from a JSON file; errors name the file. With over_start the file gives only what
    differs from the spec's start state (objects merge entry by entry). A state that breaks the
    spec's invariants is refused, each broken one named with the state variables it reads,
    unless `unchecked` (to look at a broken state on purpose)."""
    data = read_object(path, f"a state of {game.title} (zoospec state-schema)")
    try:
        if over_start:
            players = data.get("players") if isinstance(data, dict) else None
            data = merged(game.state_to_json(game.start_state(players if isinstance(players, int) else None)), data)
        state = game.state_from_json(data)
    except (StateError, OSError, ValueError) as e:
        raise StateError(f"{path}: {e}") from None
    broken: dict = {}  # rule id -> the arguments it is broken for
    for r, a in ([] if unchecked else broken_invariant_instances(game, state)):
        broken.setdefault(r.id, []).append(a)
    if broken:
        lines = []
        for rid, cases in broken.items():
            r = game.rules[rid]
            shown = "; ".join(", ".join(f"{k}={v}" for k, v in a.items()) for a in cases[:3]) or "—"
            more = f" and {len(cases) - 3} more" if len(cases) > 3 else ""
            lines.append(f"  {r.id} ({r.loc.file}:{r.loc.line}): {r.says}\n    broken for {shown}{more}; "
                         f"it reads {', '.join(sorted(ir.state_vars_read(r.body, game.defines)))}")
        raise StateError(f"{path}: the state breaks {len(broken)} invariant(s) of {game.title} "
                         f"(--unchecked to use it anyway):\n" + "\n".join(lines))
    return state


def add_parsers(sub):
    def common(p):
        p.add_argument("game", help="a bundled game name (e.g. new-york-zoo) or a spec file")
        add_game_choices(p)
        p.add_argument("--timeout", type=positive, default=60.0, help="seconds per search (default 60); past it: unknown")
        p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("check", help="a verdict for every claim: holds, fails (with a counterexample) or unknown")
    common(p)
    p.add_argument("--svg", metavar="DIR", help="draw each counterexample's states as SVG files in DIR")
    p.add_argument("--traces", metavar="DIR", help="save each counterexample as an ITF trace in DIR")
    p.add_argument("--claim", action="append", metavar="ID", help="check only this claim (repeatable)")
    add_dump_smt2(p)
    p.set_defaults(fn=cmd_check)
    p = sub.add_parser("ambiguities", help="readings that disagree, gaps (the(...) ties, undefined cases), dead ends")
    common(p)
    p.add_argument("--svg", metavar="DIR")
    p.add_argument("--traces", metavar="DIR")
    add_dump_smt2(p)
    p.set_defaults(fn=cmd_ambiguities)
    p = sub.add_parser("fixtures", help="boundary test cases for every rule and action, as JSON")
    common(p)
    p.add_argument("--out", required=True, help="directory for the corpus")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--budget", type=positive, metavar="SECONDS", help="start no new rule or action after this long (the index lists the skipped)")
    p.set_defaults(fn=cmd_fixtures)
    p = sub.add_parser("coverage", help="rulebook sentences: formalised, non-normative or uncovered")
    p.add_argument("game", nargs="+", help="one spec, or several that formalise one rulebook together (e.g. zoo-ography zoo-ography-draft): a sentence counts as covered when any of them cites it")
    p.add_argument("--rulebook", help="the rulebook text (default: found beside the project)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_coverage)
    p = sub.add_parser("replay", help="re-check a saved trace step by step with the Python back end")
    p.add_argument("trace")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_replay)
    p = sub.add_parser("play", help="play a game from a start state with legal moves only (random with a seed, or chosen)")
    p.add_argument("game")
    p.add_argument("--state", help="the start state, in the game's JSON format (default: the spec's start section)")
    p.add_argument("--over-start", action="store_true", help="the --state file gives only what differs from the spec's start state")
    p.add_argument("--unchecked", action="store_true", help="play from a --state that breaks the spec's invariants (refused by default)")
    p.add_argument("--players", type=at_least(1), help="with the spec's start state: how many play")
    add_game_choices(p)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--steps", type=at_least(0), default=2000, help="stop after this many moves")
    p.add_argument("--json", action="store_true", help="the moves, the end and the scores as JSON")
    p.add_argument("--interactive", action="store_true", help="choose each move from the listed legal moves")
    p.add_argument("--trace", metavar="FILE", help="save the game as an ITF trace (zoospec replay re-checks it)")
    p.add_argument("--svg", metavar="FILE", help="draw the final state as SVG")
    p.add_argument("--quiet", action="store_true", help="only the moves and the end, not every state")
    p.set_defaults(fn=cmd_play)


def guarded(fn):
    """Bad input -> 2, internal error -> 4, never a traceback. Under --json the error is also
    printed as JSON on standard output ({"error": {"message", "problems", "exit_code"}}), so a
    program reading the output gets an object either way."""
    def run(args):
        try:
            return fn(args)
        except SpecError as e:
            print(str(e), file=sys.stderr)
            return error_as_json(args, "the spec or input file has problems", 2, [str(p) for p in e.problems])
        except (StateError, OSError, json.JSONDecodeError) as e:
            print(f"zoospec: {e}", file=sys.stderr)
            return error_as_json(args, str(e), 2)
        except InternalError as e:
            _clear()
            print(f"zoospec: internal error: {e}", file=sys.stderr)
            return error_as_json(args, f"internal error: {e}", 4)
    return run


def _save(trace, name, args):
    safe = name.replace("/", "_").replace(" ", "_")
    if getattr(args, "traces", None):
        Path(args.traces).mkdir(parents=True, exist_ok=True)
        traces.save(trace, Path(args.traces) / f"{safe}.itf.json")
    if getattr(args, "svg", None):
        Path(args.svg).mkdir(parents=True, exist_ok=True)
        for i, s in enumerate(trace.states):
            files.write_text(Path(args.svg) / f"{safe}.state{i}.svg", picture.svg(trace.game, s, f"{name} — state {i}"))


def _loc(x):
    return f"{x.loc.file}:{x.loc.line}" if getattr(x, "loc", None) else ""


# ------------------------------------------------------------------ check

@guarded
def cmd_check(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    for cid in args.claim or ():
        if cid not in g.claims:
            raise StateError(f"{g.id} has no claim '{cid}'{suggest(cid, g.claims)}")
    start_dump(args)
    verdicts = claims.check_all(g, args.timeout, _progress, only=args.claim)
    _clear()
    for v in verdicts:
        if v.trace:
            _save(v.trace, v.claim, args)
    if args.json:
        emit("check", {"game": g.id, "readings": g.chosen, "claims": [_verdict_json(v) for v in verdicts]})
    else:
        print(f"{g.title}: {len(verdicts)} claims")
        for v in verdicts:
            c = g.claims[v.claim]
            mark = "" if v.as_expected else f"   <-- expected to {c.expect[:-1]}"
            print(f"\n{v.verdict.upper():8s} {v.claim} ({c.over}) — {c.says}{mark}\n         {v.detail} [{v.method}; {v.seconds} s] {_loc(c)}")
            if v.trace:
                print("\n".join("         " + ln for ln in picture.trace_text(v.trace).splitlines()))
    if any(not v.as_expected for v in verdicts):
        return 1
    return 3 if any(v.verdict == "unknown" for v in verdicts) else 0


def _verdict_json(v) -> dict:
    return {"claim": v.claim, "verdict": v.verdict, "expect": v.expect, "as_expected": v.as_expected, "method": v.method,
            "detail": v.detail, "seconds": v.seconds, "covered": v.covered,
            "trace": v.trace.to_itf() if v.trace else None}


# ------------------------------------------------------------------ ambiguities

@guarded
def cmd_ambiguities(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    start_dump(args)
    found = ambiguity.find_all(g, args.timeout, _progress)
    _clear()
    for i, f in enumerate(found):
        if f.trace:
            _save(f.trace, f"{f.kind}-{f.subject}-{i}", args)
    if args.json:
        emit("ambiguities", {"game": g.id, "findings": [_finding_json(f) for f in found]})
    else:
        print(f"{g.title}: {sum(f.is_problem for f in found)} findings, {len(found)} results")
        for f in found:
            cite = f" [cites {f.cite}]" if f.cite else ""
            print(f"\n{f.kind.upper()} {f.subject}{cite}\n  {f.message}")
            if f.trace:
                print("\n".join("  " + ln for ln in picture.trace_text(f.trace).splitlines()))
    if any(f.is_problem for f in found):
        return 1
    return 3 if any(f.kind == "unknown" for f in found) else 0


def _finding_json(f) -> dict:
    c = f.cite
    return {"kind": f.kind, "subject": f.subject, "message": f.message, "seconds": f.seconds,
            "cite": None if c is None else {"file": c.file, "section": c.section, "sentence": list(c.sentence)},
            "trace": f.trace.to_itf() if f.trace else None}


# ------------------------------------------------------------------ fixtures, coverage, replay

@guarded
def cmd_fixtures(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    before = _corpus_there(Path(args.out), g)  # refused before the work, not found after it
    index = fixtures.generate(g, args.out, args.seed, args.timeout, _progress, args.budget)
    for name in before - {f["file"] for f in index["files"]}:  # the old corpus's files this one has not rewritten
        (Path(args.out) / name).unlink(missing_ok=True)
    _clear()
    if args.json:
        emit("fixtures", index, sort_keys=True)
    else:
        print(f"{fixtures.count(index)} fixtures in {len(index['files'])} files written to {args.out} "
              f"(+ index.json, state.schema.json)")
        for nb in index["no_boundary"]:
            what = nb.get("rule") or nb.get("action")
            clause = f" clause {nb['clause']}" if nb.get("clause") else ""
            print(f"  no boundary pair for {what}{clause}: {nb['why']}")
    return 0


def _corpus_there(out: Path, g) -> set[str]:
    """The files of a corpus of `g` already in `out` (replaced by the new one); a folder holding
    anything else's index.json is refused rather than overwritten."""
    try:
        old = json.loads((out / "index.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return set()
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise StateError(f"{out}/index.json is there and is not a fixtures index ({type(e).__name__}); "
                         f"give another --out") from None
    if not isinstance(old, dict) or old.get("game") != g.id or not isinstance(old.get("files"), list):
        what = f"the corpus of {old.get('game')!r}" if isinstance(old, dict) and old.get("game") else "another index.json"
        raise StateError(f"{out} holds {what}; give another --out (a corpus of {g.id} there would be replaced)")
    return {f["file"] for f in old["files"] if isinstance(f, dict) and isinstance(f.get("file"), str)
            and "/" not in f["file"] and "\\" not in f["file"] and f["file"].endswith(".json")}


@guarded
def cmd_coverage(args) -> int:
    games = [load_named(name) for name in args.game]
    g = games[0]
    if any(other.rulebook != g.rulebook for other in games):
        raise StateError("these specs formalise different rulebooks: " + ", ".join(f"{x.id} ({x.rulebook})" for x in games))
    path = coverage.find_rulebook(g, args.rulebook)
    if path is None:
        print(f"zoospec coverage: rulebook {g.rulebook} not found; give --rulebook FILE", file=sys.stderr)
        return 2
    rep = coverage.report(games, path)
    if args.json:
        emit("coverage", rep.to_json())
    else:
        section = None
        for ln in rep.lines:
            if ln.sentence.section != section:
                section = ln.sentence.section
                print(f"\n{section}")
            mark = {"covered": "✓", "non-normative": "–", "uncovered": "✗"}[ln.status]
            extra = ", ".join(ln.by) if ln.by else ln.why
            print(f"  {mark} {ln.sentence.number:2d}  {ln.sentence.text[:60]:60s}  {extra}")
        for d in rep.dangling:
            print(f"dangling citation: {d}")
        print(f"\n{rep.game}: {rep.covered} of {rep.normative} normative sentences covered ({rep.percent:.1f}%); "
              f"{len(rep.lines) - rep.normative} judged non-normative; {len(rep.uncovered)} uncovered")
    return 1 if rep.uncovered or rep.dangling else 0


@guarded
def cmd_replay(args) -> int:
    data = read_object(args.trace, "an ITF trace or a plan (zoospec play --trace, solve --plan)")
    meta = data.get("#meta")
    g = load_recorded(meta, args.trace)
    if meta.get("kind") == "plan":
        return _replay_plan(g, data, args)
    try:
        tr = traces.load_itf(g, data)
    except (TypeError, KeyError, AttributeError, IndexError, ValueError) as e:  # the file's shape, not ours
        raise StateError(f"{args.trace}: not an ITF trace of {g.title} ({type(e).__name__}: {e})") from None
    checks = traces.replay(tr)
    if args.json:
        emit("replay", {"trace": args.trace, "steps": [{"index": c.index, "ok": c.ok, "message": c.message} for c in checks]})
    else:
        print(f"{args.trace}: {len(tr.states)} states, {len(tr.steps)} moves ({meta.get('finding', '')})")
        for c in checks:
            print(f"  step {c.index}: {'ok' if c.ok else 'MISMATCH'} — {c.message}")
        print("replays" if all(c.ok for c in checks) else "does not replay")
    return 0 if all(c.ok for c in checks) else 1


def _replay_plan(g, data, args) -> int:
    """A plan saved by `zoospec solve`: every cut of its record re-checked by the Python back end."""
    record = puzzle.load_plan(g, data)
    steps = []
    for point, cut in puzzle.cuts(g, record):
        bad = [f"{r.id}({', '.join(f'{k}={v}' for k, v in a.items())})"
               for r, a in rule_instances(g, "invariant") if py_value(g, r.body, cut, a) is not True]
        steps.append({"point": point, "ok": not bad, "broken": bad})
    finished = py_value(g, g.puzzle.finished, record) is True
    score = puzzle.score_of(g, record)
    ok = all(s["ok"] for s in steps) and finished and score == data.get("score", score)
    if args.json:
        emit("replay-plan", {"plan": args.trace, "steps": steps, "finished": finished, "score": score, "ok": ok})
    else:
        print(f"{args.trace}: a plan for {g.title}, {len(steps)} points of its clock")
        for s in steps:
            print(f"  at {s['point']}: {'ok' if s['ok'] else 'BROKEN — ' + ', '.join(s['broken'][:5])}")
        print(f"  finished: {'yes' if finished else 'NO'}; score {score} (saved: {data.get('score')})")
        print("replays" if ok else "does not replay")
    return 0 if ok else 1


# ------------------------------------------------------------------ play

@guarded
def cmd_play(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    check_writable(trace=args.trace, svg=args.svg)  # before the game is played, not after
    if args.state and args.players is not None:
        raise StateError("give either --state or --players (the spec's start state for that many players), not both")
    start = read_state(g, args.state, args.over_start, args.unchecked) if args.state else g.start_state(args.players)
    if not args.state and dealing.deals_play(g):  # the spec's start holds none of what these switches bring
        start = dealing.dealt_start(g, args.seed, args.players)
        if not args.json:
            on = ",".join(g.switched_on)
            print(f"(with {on} the start is dealt from seed {args.seed} by the spec's dealing: "
                  f"zoospec deal {args.game} --seed {args.seed} --with {on} shows it)")
    if args.interactive and args.json:
        raise StateError("--interactive asks on the terminal; it cannot be combined with --json")

    def show(i, st, state):
        if args.json:
            return
        print(f"--- move {i}: {st.action} {json.dumps(traces.plain(st.args))}")
        if not args.quiet:
            print("\n".join("  " + ln for ln in picture.text(g, state).splitlines()))

    def ask(state, moves):
        for k, m in enumerate(moves):
            print(f"  [{k}] {m.action} {json.dumps(traces.plain(m.args))}")
        while True:
            try:
                answer = input(f"move (0-{len(moves) - 1}, q to stop): ").strip()
            except EOFError:  # standard input closed (or Ctrl-D): the game so far stands
                print("\n  standard input closed: stopping here")
                return None
            if answer.lower() in ("q", "quit"):
                return None
            if answer.isdigit() and int(answer) < len(moves):
                return int(answer)
            print("  not one of the listed moves (or q to stop)")

    if not args.json:
        print("start:")
        print("\n".join("  " + ln for ln in picture.text(g, start).splitlines()))
    result = playing.play(g, start, args.seed, args.steps, ask if args.interactive else None, show)
    if args.trace:
        traces.save(result.trace, args.trace)
    final = result.trace.states[-1]
    scores = playing.final_scores(g, final)
    if args.svg:  # the scores and the winner on the picture, as a player would write them down
        shown = "; ".join(f"{', '.join(f'{k}={v}' for k, v in r['args'].items()) or r['rule']}: {r['points']}" for r in scores)
        files.write_text(args.svg, picture.svg(g, final, f"{g.title} — after {len(result.trace.steps)} moves ({result.ended_by}); "
                                                 f"{shown}" + "".join(f"; {line}" for line in _standing(scores))))
    if args.json:
        emit("play", {"game": g.id, "readings": g.chosen, "seed": args.seed, "ended_by": result.ended_by,
                          "moves": [{"action": st.action, "args": traces.plain(st.args)} for st in result.trace.steps],
                          "end_rules": result.end_rules, "scores": scores, "final": g.state_to_json(final)})
        return 0
    print(f"\nended after {len(result.trace.steps)} moves: {result.ended_by}")
    for rid in result.end_rules:  # why, in the spec's words
        print(f"  {rid}: {g.rules[rid].says}")
    for rid in dict.fromkeys(r["rule"] for r in scores if r["args"]):  # what a per-player number means
        print(f"  {rid}: {g.rules[rid].says}")
    for row in scores:
        who = ", ".join(f"{k}={v}" for k, v in row["args"].items())
        print(f"  {row['rule']}({who}) = {row['points']}" + ("" if who else f"  — {g.rules[row['rule']].says}"))
    for line in _standing(scores):
        print(f"  {line}")
    return 0


def _standing(scores) -> list[str]:
    """Who is ahead, per scoring rule scored per player: the winner, or a tie."""
    out = []
    for rid in dict.fromkeys(r["rule"] for r in scores if r["args"]):
        points = [r["points"] for r in scores if r["rule"] == rid and isinstance(r["points"], int)]
        if points:
            best = [", ".join(f"{k}={v}" for k, v in r["args"].items()) for r in scores
                    if r["rule"] == rid and r["points"] == max(points)]
            out.append(f"highest: {' and '.join(best)} with {max(points)}" + (" — a tie" if len(best) > 1 else " — the winner"))
    return out
