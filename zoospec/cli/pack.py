"""`zoospec pack`: packing questions from the command line (docs/packing.md).

Exit status: 0 a packing found or a count finished, 1 no packing exists (proved), 2 bad input,
3 unknown (the deadline came first), 130 interrupted (what was found so far is printed).
"""
from __future__ import annotations

import contextlib
import sys
import time

from zoospec.solvers.packing import draw as pack_draw, game as pack_game, pieces as pack_format
from zoospec.solvers.packing.solve import PackingError, solve
from zoospec.solvers.results import Count, Sat, Unknown, Unsat

from .. import files
from ..engines import interrupt
from ..errors import SpecError, StateError
from ..front.catalog import game_path
from ..front.loader import load
from ..front.output import emit
from .options import at_least, check_writable, error_as_json, positive


def add_parser(sub):
    p = sub.add_parser("pack", help="fill a board with polyominoes: find one, count, list, prove none")
    src = p.add_argument_group("what to pack")
    src.add_argument("--board", help="RxC (a rectangle of R rows, C columns) or a board file (docs/packing.md)")
    src.add_argument("--pieces", help="a pieces file, or a bundled set: pentominoes, tetrominoes, dominoes")
    src.add_argument("--game", help="a game spec (name or file) with a packing section, instead of --board/--pieces")
    src.add_argument("--players", type=int, help="with --game: the player count")
    src.add_argument("--seat", type=int, help="with --game: the seat")
    src.add_argument("--board-key", help="with --game: a board by its key in the spec")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--one", action="store_true", help="find one packing or prove there is none (default)")
    what.add_argument("--count", action="store_true", help="count every packing exactly")
    what.add_argument("--all", type=at_least(1), metavar="N", help="list up to N packings")
    cover = p.add_mutually_exclusive_group()
    cover.add_argument("--exact-cover", action="store_true", help="every board cell covered (default)")
    cover.add_argument("--allow-gaps", action="store_true", help="cells may stay empty: maximise the covered area")
    p.add_argument("--use-all", action="store_true", help="every copy of every piece must be laid")
    p.add_argument("--no-mirror", action="store_true", help="pieces may be turned but not flipped")
    p.add_argument("--up-to-symmetry", action="store_true", help="count or list packings up to the board's symmetries")
    p.add_argument("--constraints", help="a YAML file of side constraints in the rule language (uses Z3)")
    p.add_argument("--engine", choices=["auto", "dlx", "z3"], default="auto", help="auto: exact cover unless side constraints")
    p.add_argument("--timeout", type=positive, help="seconds; past it the answer is 'unknown'")
    p.add_argument("--svg", help="write the (first) packing as SVG to this file")
    p.add_argument("--color", action="store_true", help="colour the terminal drawing")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(fn=cmd_pack)


def _inputs(args):
    if args.game:
        if args.board or args.pieces:
            raise PackingError("use either --game or --board/--pieces")
        g = load(game_path(args.game))
        return pack_game.board(g, args.players, args.seat, args.board_key), pack_game.pieces(g)
    if not args.board or not args.pieces:
        raise PackingError("give --board and --pieces (or --game)")
    return pack_format.board_arg(args.board), pack_format.pieces_arg(args.pieces)


def _progress(stats):
    if stats["seconds"] >= 1.0:
        end = "\r" if sys.stderr.isatty() else "\n"
        print(f"  … {stats['seconds']:.0f}s  {stats['nodes']:,} nodes  {stats['solutions_seen']:,} solutions seen",
              end=end, file=sys.stderr, flush=True)


def cmd_pack(args) -> int:
    try:
        board, pieces = _inputs(args)
        mode = "count" if args.count else "all" if args.all is not None else "one"
        check_writable(svg=args.svg)  # before the search, not after it
        started = time.monotonic()
        with (interrupt.ctrl_c_stops() if args.engine != "z3" and not args.constraints else contextlib.nullcontext()):
            # exact cover: Ctrl-C ends the search between chunks of nodes, as its deadline would, and
            # what it found is printed (Z3's search stays the plain interrupt: `zoospec: interrupted`)
            res = solve(board, pieces, mode=mode, limit=args.all or 10, exact=not args.allow_gaps, use_all=args.use_all,
                        mirror=not args.no_mirror, up_to_symmetry=args.up_to_symmetry, constraints=args.constraints,
                        engine=args.engine, timeout=args.timeout, progress=None if args.json else _progress,
                        stop=interrupt.STOP)
    except SpecError as e:
        print(str(e), file=sys.stderr)
        return error_as_json(args, "the board, pieces or constraints file has problems", 2, [str(p) for p in e.problems])
    except (PackingError, StateError) as e:
        print(f"zoospec pack: {e}", file=sys.stderr)
        return error_as_json(args, str(e), 2)
    if sys.stderr.isatty() and not args.json and time.monotonic() - started >= 1.0:
        print(" " * 70, end="\r", file=sys.stderr)
    packings = [res.witness] if isinstance(res, Sat) else res.witnesses if isinstance(res, Count) else []
    if args.svg and packings:
        files.write_text(args.svg, pack_draw.svg(packings[0], board, title=board.name))
    if args.json:
        emit("pack", _json(res, board, pieces, mode, args))
    else:
        _human(res, board, pieces, mode, args, packings)
    if res.stats.get("interrupted"):
        print("interrupted: what was found so far is above", file=sys.stderr)
        return 130
    if isinstance(res, Sat) or (isinstance(res, Count) and res.exact):
        return 0
    return 1 if isinstance(res, Unsat) else 3


def _describe(board, pieces, args) -> str:
    supply = sum(p.size * p.count for p in pieces)
    copies = sum(p.count for p in pieces)
    rules = ["gaps allowed" if args.allow_gaps else "exact cover"]
    rules += ["all pieces used"] if args.use_all else []
    rules += ["no mirroring"] if args.no_mirror else []
    return (f"{board.name}: {board.area} cells; {len(pieces)} pieces ({copies} copies, {supply} cells); "
            f"{', '.join(rules)}")


def _human(res, board, pieces, mode, args, packings):
    print(_describe(board, pieces, args))
    st = res.stats
    why = "interrupted" if st.get("interrupted") else "deadline reached"
    if isinstance(res, Unsat):
        print(f"unsat — no packing exists: {res.reason}")
    elif isinstance(res, Unknown):
        print(f"unknown — {res.reason}")
    elif isinstance(res, Sat):
        gaps = st.get("empty_cells")
        extra = "" if gaps is None else f", {board.area - gaps} of {board.area} cells covered" + \
            ("" if res.optimal else " (best found; not proved the most)")
        print(f"sat — a packing{extra} (re-checked against spec/packing/rules.yaml)")
    elif mode == "count":
        sym = f" up to the board's {st['symmetries']} symmetries" if st.get("symmetries") else ""
        print(f"count: {res.count:,} packings{sym}" if res.exact else
              f"unknown — {why}; at least {res.count:,} packings{sym} found")
    else:
        tail = {True: "more exist", False: "that is all of them", None: f"{why}; there may be more"}[res.more]
        print(f"listed {res.count} packings ({tail})")
    for k, pk in enumerate(packings):
        if len(packings) > 1:
            print(f"\n#{k + 1}")
        print(pack_draw.text(pk, board, args.color))
        if pack_draw.legend(pk):
            print(pack_draw.legend(pk))
    engine = st.get("engine", "?")
    print(f"[{engine}: {st.get('nodes', 0):,} nodes, {st.get('seconds', 0):.2f} s"
          f"{', proof: ' + st['proof'] if 'proof' in st else ''}]")
    if args.svg and packings:
        print(f"SVG written to {args.svg}")


def _json(res, board, pieces, mode, args) -> dict:
    out = {"board": {"name": board.name, "rows": board.rows(), "cells": board.area},
           "pieces": [{"name": p.name, "count": p.count, "rows": p.shape.rows(), "tags": list(p.tags)} for p in pieces],
           "question": {"mode": mode, "exact_cover": not args.allow_gaps, "use_all": args.use_all,
                        "mirror": not args.no_mirror, "up_to_symmetry": args.up_to_symmetry},
           "verdict": res.verdict, "stats": res.stats}
    if isinstance(res, (Unsat, Unknown)):
        out["reason"] = res.reason
    if isinstance(res, Sat):
        out["packings"] = [res.witness.to_json()]
        out["optimal"] = res.optimal
    if isinstance(res, Count):
        out["count"], out["exact"] = res.count, res.exact
        if mode == "all":
            out["more"] = res.more
            out["packings"] = [w.to_json() for w in res.witnesses]
    return out
