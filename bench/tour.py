"""The main job, timed: bare `zoospec` (the tour) as a user runs it, cold and then warm.

    python bench/tour.py [--budget 240] [--games NAME ...] [--json]

Runs the real console command twice with a fresh answer cache: cold (everything asked), then
warm (everything remembered). Reports the wall time of each, the time to the first answer line,
and how many of the table's questions were answered, unknown (budget) or unknown within their own
time. Targets (issue 42): first finding within 30 s, the whole table within 5 minutes cold, and a
warm run at least 10× faster than the cold one.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def run(argv: list[str], env: dict) -> dict:
    t0 = time.perf_counter()
    first = None
    lines = []
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env) as p:
        for line in p.stdout:
            if first is None and "s  " in line and ": " in line and not line.startswith("zoospec tour"):
                first = time.perf_counter() - t0
            lines.append(line.rstrip("\n"))
    answers = [ln for ln in lines if ln[:6].strip().endswith("s") and "  " in ln and ": " in ln]
    return {"seconds": round(time.perf_counter() - t0, 1), "first_answer": None if first is None else round(first, 1),
            "answers": len(answers), "unknown_budget": sum("unknown (budget)" in ln for ln in answers),
            "unknown": sum(": unknown (" in ln and "unknown (budget)" not in ln for ln in answers),
            "remembered": sum(ln.endswith("(remembered)") for ln in answers), "exit": p.returncode,
            "table": [ln for ln in lines if ln and not ln[:6].strip().endswith("s")][-8:]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=None, help="the tour's --budget (default: its own)")
    ap.add_argument("--games", nargs="*", help="only these games")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    argv = [sys.executable, "-m", "zoospec.cli"]
    if args.budget is not None or args.games:
        argv += ["tour"] + (["--budget", str(args.budget)] if args.budget is not None else []) \
            + (["--games", *args.games] if args.games else [])
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ZOOSPEC_CACHE": cache}
        cold = run(argv, env)
        warm = run(argv, env)
    rows = {"cold": cold, "warm": warm, "speedup": round(cold["seconds"] / max(warm["seconds"], 0.01), 1)}
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for name in ("cold", "warm"):
        r = rows[name]
        print(f"{name}: {r['seconds']} s, first answer at {r['first_answer']} s; {r['answers']} answers "
              f"({r['remembered']} remembered, {r['unknown_budget']} unknown (budget), {r['unknown']} unknown in their own time); exit {r['exit']}")
    print(f"warm is {rows['speedup']}x faster")
    print("\n".join(cold["table"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
