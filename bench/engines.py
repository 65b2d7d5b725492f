"""Each claim and each game's ambiguity search, asked of Z3 alone and of Z3 raced by Yices (issue 41).

    python bench/engines.py [--timeout 20] [--games zooloretto,zoo-parque] [--json]

Every claim of every bundled game is checked as `zoospec check GAME --claim ID --timeout T` asks
it, and every game's readings as `zoospec ambiguities GAME --timeout T` does, each in a process
of its own (Z3's path depends on what its process built before) and twice: with
ZOOSPEC_ENGINE=z3 (Z3 alone) and with the default engines (Z3 in one thread, Yices joining it
after a second in another: engines/race.py). Prints a row per question with both verdicts and
times; a timeout is unknown, never a verdict. The machine should be otherwise quiet: the race
uses both cores.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zoospec.front.catalog import bundled  # noqa: E402
from zoospec.front.loader import load  # noqa: E402

MODES = {"z3": {"ZOOSPEC_ENGINE": "z3"}, "raced": {"ZOOSPEC_ENGINE": "auto", "ZOOSPEC_RACE": "on"}}


def ask(args: list[str], mode: str) -> tuple[dict | None, float]:
    """`zoospec ARGS --json` in a process of its own under `mode`: its JSON and its wall time."""
    env = {**os.environ, **MODES[mode]}
    t = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "zoospec.cli", *args, "--json"], capture_output=True, text=True,
                         env=env, cwd=ROOT)
    took = time.monotonic() - t
    try:
        return json.loads(out.stdout), took
    except json.JSONDecodeError:
        return None, took


def claim_rows(game: str, timeout: float):
    for claim in load(str(bundled()[game])).claims:
        row = {"game": game, "question": claim}
        for mode in MODES:
            got, took = ask(["check", game, "--claim", claim, "--timeout", str(timeout)], mode)
            verdicts = (got or {}).get("claims") or [{}]
            row[mode] = {"verdict": verdicts[0].get("verdict", "error"), "seconds": round(took, 1)}
        yield row


def ambiguity_row(game: str, timeout: float) -> dict:
    row = {"game": game, "question": "ambiguities"}
    for mode in MODES:
        got, took = ask(["ambiguities", game, "--timeout", str(timeout)], mode)
        kinds = [f["kind"] for f in (got or {}).get("findings", [])]
        unknown = sum(1 for k in kinds if "unknown" in k)
        row[mode] = {"verdict": f"{len(kinds) - unknown} found, {unknown} unknown" if got is not None else "error",
                     "seconds": round(took, 1)}
    return row


def questions(games, timeout):
    """Every claim of every game first (each row as soon as it is asked), then each game's search."""
    for game in games:
        yield from claim_rows(game, timeout)
    for game in games:
        yield ambiguity_row(game, timeout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per search (default 20)")
    ap.add_argument("--games", help="comma-separated bundled games (default: all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    games = args.games.split(",") if args.games else list(bundled())
    rows = []
    for row in questions(games, args.timeout):
        rows.append(row)
        if not args.json:
            z, r = row["z3"], row["raced"]
            print(f"{row['game']:18} {row['question']:36} Z3 {z['verdict']:>18} {z['seconds']:6.1f} s   "
                  f"raced {r['verdict']:>18} {r['seconds']:6.1f} s", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
