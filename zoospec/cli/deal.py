"""`zoospec deal GAME --seed N`: the start state chance deals from a seed, by the spec's `dealing`
section (a printed domino set, a shuffled solo deck), shown as counts and written as JSON to play,
score or solve from."""
from __future__ import annotations

import json
from collections import Counter

from zoospec.solvers import dealing

from .. import files
from ..front.loader import load_named
from ..front.output import emit
from ..ir.types import MapT, RecordT
from .analysis import guarded
from .options import add_game_choices, add_set, at_least, check_writable, fixed_deal


def add_parser(sub):
    p = sub.add_parser("deal", help="deal a game's start state from a seed (the spec's `dealing` section); write it as JSON")
    p.add_argument("game", help="a bundled game or a spec file")
    p.add_argument("--seed", type=int, default=1, help="the seed chance deals with (default 1)")
    p.add_argument("--players", type=at_least(1), help="how many are seated in the start state (default: the spec's start)")
    add_set(p)
    add_game_choices(p)
    p.add_argument("--out", metavar="FILE", help="write the start state as JSON (for play --state, score, replay)")
    p.add_argument("--json", action="store_true", help="print the start state as JSON")
    p.set_defaults(fn=cmd_deal)


@guarded
def cmd_deal(args) -> int:
    g = load_named(args.game, args.reading, args.switches)
    check_writable(out=args.out)
    state = dealing.dealt_start(g, args.seed, args.players, fixed_deal(args.fixed))
    shown = g.state_to_json(state)
    on = g.switched_on
    if args.out:
        files.write_text(args.out, json.dumps(shown, indent=1, sort_keys=True) + "\n")
    if args.json:
        emit("deal", {"game": g.id, "seed": args.seed, "switches": sorted(on), "state": shown})
        return 0
    seated = f" for {args.players} players" if args.players else ""
    print(f"{g.title} dealt from seed {args.seed}{seated}{' with ' + ', '.join(on) if on else ''}:")
    plain = g.start_state(args.players)
    for name, t in g.state_types.items():
        if state[name] != plain[name]:
            print("\n".join(_summary(name, state[name], t)))
    if args.out:
        again = f" --with {','.join(on)}" if on else ""  # the state holds what the switches bring
        print(f"start state written to {args.out} (zoospec play {args.game} --state {args.out}{again})")
    return 0


def _summary(name: str, value, t) -> list[str]:
    """What one dealt variable holds, as a player reads it: a map over one key in key order (a
    deck), a map of records counted field by field (a domino set's grounds, animals and fences),
    other maps counted by value, anything else as is."""
    leaves, leaf = [value], t
    while isinstance(leaf, MapT):
        leaves, leaf = [v for m in leaves for v in m.values()], leaf.value
    if leaf is t:
        return [f"  {name}: {_plain(value)}"]
    if not isinstance(leaf, RecordT):
        if leaf is t.value and len(leaves) <= 40:  # one key: listed in key order (a deck's order is what was dealt)
            return [f"  {name}: " + ", ".join(f"{k} {_plain(v)}" for k, v in value.items())]
        return [f"  {name}: {len(leaves)} entries — " + _counted(leaves)]
    out = [f"  {name}: {len(leaves)} entries"]
    for field, _ in leaf.fields:
        out.append(f"    {field}: " + _counted([r[field] for r in leaves]))
    return out


def _counted(values) -> str:
    return ", ".join(f"{_plain(v)} {n}" for v, n in Counter(values).most_common())


def _plain(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, v))) + "}"
    return str(v)
