"""`zoospec dominoes` — a fresh Zoo Parque domino set from a seed, as a start state to play from
(`dominoes.py` draws it; `zoospec play zoo-parque --state FILE` plays it)."""
from __future__ import annotations

import json
from collections import Counter

from zoospec import files
from zoospec.errors import StateError
from zoospec.front.loader import load_named

from . import dominoes


def commands() -> list:
    return [("dominoes", "draw a domino set for Zoo Parque from a seed; write it as a start state", _arguments, run_dominoes)]


def _arguments(p):
    p.add_argument("game", nargs="?", default="zoo-parque", help="the game (default zoo-parque)")
    p.add_argument("--seed", type=int, default=1, help="the set's seed (default 1)")
    p.add_argument("--players", type=int, default=2, help="players seated in the start state (default 2)")
    p.add_argument("--with", dest="switches", action="append", metavar="SWITCH,...",
                   help="draw with these expansions' terrains and animals too (e.g. strong_species)")
    p.add_argument("--out", metavar="FILE", help="write the start state as JSON (for play --state, score, replay)")
    p.add_argument("--json", action="store_true", help="print the start state as JSON")


def summary(dom: dict) -> dict:
    """What a set holds, counted: TOP and BOTTOM dominoes, grounds, animals, food, fences, stalls."""
    halves = [h for d in dom.values() for h in d.values()]
    tops = sum(1 for d in dom.values() if any(h["ground"] == "empty" for h in d.values()))
    return {"dominoes": len(dom), "top": tops, "bottom": len(dom) - tops,
            "grounds": dict(Counter(h["ground"] for h in halves if h["ground"] != "empty")),
            "animals": dict(Counter(h["animal"] for h in halves if h["animal"] != "no_animal")),
            "food": sum(1 for h in halves if h["food"]),
            "fences": dict(Counter(h[s] for h in halves for s in "nesw" if h[s] != "no_fence")),
            "stalls": dict(Counter(h["stall"] for h in halves if h["stall"] != "no_stall"))}


def run_dominoes(args) -> int:
    g = load_named(args.game, switches=args.switches)
    if g.id != "zp":
        raise StateError(f"{args.game}: domino sets are drawn for Zoo Parque only")
    state = dominoes.start_with(g, args.seed, args.players)
    shown = g.state_to_json(state)
    if args.out:
        files.write_text(args.out, json.dumps(shown, indent=1, sort_keys=True) + "\n")
    if args.json:
        print(json.dumps(shown, sort_keys=True))
        return 0
    s = summary(state["dom"])
    print(f"domino set {args.seed}: {s['dominoes']} dominoes, {s['top']} TOP and {s['bottom']} BOTTOM")
    for what in ("grounds", "animals", "fences", "stalls"):
        if s[what] or what != "stalls":   # stalls come only with an expansion: no line without
            print(f"  {what}: " + ", ".join(f"{k} {v}" for k, v in sorted(s[what].items())))
    print(f"  food icons: {s['food']}")
    if args.out:
        print(f"start state for {args.players} players written to {args.out} (zoospec play {args.game} --state {args.out})")
    return 0
