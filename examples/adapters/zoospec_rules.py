"""A conformance adapter that answers with zoospec's own compiled rules — for any game, under
other readings or switches, and with a defect planted on purpose. It is the template for an
adapter written in Python (docs/conformance.md has the protocol), and the way to see what
`zoospec conform` says about an implementation that differs from the spec in a known way:

    zoospec conform zooloretto --adapter "python examples/adapters/zoospec_rules.py zooloretto --forget zlr.money.buy"
    zoospec conform pen-pals.yaml --adapter "python examples/adapters/zoospec_rules.py pen-pals.yaml --reading company=diagonals"

GAME is a bundled game's name or a spec file. `--reading ID=CHOICE` and `--with SWITCH` load the
spec as `zoospec` does (the other choice of an ambiguous sentence: conform should name it as a
reading). `--forget RULE` is the planted defect: the implementation never checks the requirement
RULE of any action (conform should name it as a bug decided by RULE, and shrink it).
`--constant NAME=JSON` gives a component constant another value (the whole value, as the spec
file writes it), as an implementation that took another number for a value the spec marks
`assumed` would (conform should name it as that assumption).
"""
from __future__ import annotations

import argparse
import json
import sys

from zoospec.errors import StateError, Undefined
from zoospec.front.loader import load_named
from zoospec.solvers.moves import legal_moves
from zoospec.solvers.symbolic import param_values, py_ended, py_value
from zoospec.solvers.traces import plain

OPS = ["legal", "moves", "apply", "score", "end"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--reading", action="append", default=[], metavar="ID=CHOICE")
    ap.add_argument("--with", dest="switches", action="append", default=[], metavar="SWITCH")
    ap.add_argument("--forget", metavar="RULE", help="never check this requirement (a planted defect)")
    ap.add_argument("--constant", action="append", default=[], metavar="NAME=JSON",
                    help="a component constant's whole value, otherwise than the spec file gives it")
    args = ap.parse_args()
    g = load_named(args.game, args.reading, args.switches)
    if args.constant:
        g = g.with_constants({c.partition("=")[0]: json.loads(c.partition("=")[2]) for c in args.constant})
    name = " ".join(["zoospec's own rules", *(f"--reading {r}" for r in args.reading),
                     *(f"--with {s}" for s in args.switches), *(f"--constant {c}" for c in args.constant),
                     *([f"--forget {args.forget}"] if args.forget else [])])

    def legal(s, action, a) -> bool:
        try:
            failing = g.failing_requirements(s, action, a)
        except Undefined:
            return False
        return all(f == args.forget for f in failing)

    def moves(s) -> list[dict]:
        if not args.forget:
            return [{"action": m.action, "args": plain(m.args)} for m in legal_moves(g, s)]
        return [{"action": x.id, "args": plain(a)} for x in g.actions.values() for a in param_values(g, x.params) if legal(s, x.id, a)]

    for line in sys.stdin:
        req = json.loads(line)
        op, out = req.get("op"), None
        try:
            if op == "hello":
                out = {"protocol": 1, "name": name, "ops": OPS}
            else:
                s = g.state_from_json(req["state"])
                if op == "legal":
                    out = {"legal": legal(s, req["action"], req["args"])}
                elif op == "moves":
                    out = {"moves": moves(s)}
                elif op == "apply":
                    out = {"state": g.state_to_json(g.apply(s, req["action"], req["args"]))}
                elif op == "score":
                    out = {"points": py_value(g, g.rules[req["rule"]].body, s, req["args"])}
                elif op == "end":
                    out = {"over": bool(py_ended(g, s))}
                else:
                    out = {"error": f"unknown op {op!r}"}
        except (StateError, Undefined, KeyError) as e:
            out = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps({"id": req.get("id"), **out}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
