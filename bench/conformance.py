"""How fast `zoospec conform` talks to an implementation, and how long fingerprinting every reading
of a game takes.

    python bench/conformance.py

1. Requests per second through the protocol: a null adapter (it answers every request at once,
   always the same) asked `legal` for every move of the states of seeded Pen Pals games — the
   protocol's own cost (a JSON line each way, the pipe, the spec's answer under each reading).
2. Fingerprinting: `--cases readings` against the Pen Pals adapter (tests/conformance/) and the
   independent Zooloretto scoring in JavaScript (examples/adapters/, when Node is on the
   machine) — the time to find each reading's telling states and ask about them.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zoospec.front.loader import load, load_named  # noqa: E402
from zoospec.solvers.analysis import conform  # noqa: E402

NULL_ADAPTER = """import json, sys
for line in sys.stdin:
    r = json.loads(line)
    a = {"protocol": 1, "name": "null", "ops": ["legal"]} if r["op"] == "hello" else {"legal": True}
    print(json.dumps({"id": r["id"], **a}), flush=True)
"""


def timed(game, command, **kw):
    adapter = conform.Adapter(command)
    try:
        t0 = time.perf_counter()
        rep = conform.conform(game, adapter, **kw)
        return rep, time.perf_counter() - t0
    finally:
        adapter.close()


def main():
    pen_pals = load(ROOT / "tests" / "games" / "pen-pals.yaml")
    with tempfile.TemporaryDirectory() as d:
        null = Path(d) / "null.py"
        null.write_text(NULL_ADAPTER)
        shrink, conform._shrink_bugs = conform._shrink_bugs, lambda *a: None  # its every illegal move is a bug: not shrunk here
        try:
            rep, s = timed(pen_pals, f"{sys.executable} {null}", games=40)
        finally:
            conform._shrink_bugs = shrink
        n = sum(rep.asked.values())
        print(f"protocol: {n} legal requests to a null adapter in {s:.2f} s — {n / s:,.0f} requests/s "
              f"(each with the spec's answer under {len(pen_pals.readings)} reading(s) beside it)")
    adapter = ROOT / "tests" / "conformance" / "pen_pals_adapter.py"
    rep, s = timed(pen_pals, f"{sys.executable} {adapter} --diagonal-company", cases=("readings",))
    print(f"fingerprint Pen Pals ({len(rep.fingerprint)} reading, {rep.cases['readings']} states): {s:.1f} s — "
          + "; ".join(f"{f['reading']} follows {f['follows']}" for f in rep.fingerprint))
    node = shutil.which("node")
    if node is None:
        print("fingerprint Zooloretto: skipped (no Node.js for examples/adapters/zooloretto-score.js)")
        return
    zlr = load_named("zooloretto")
    rep, s = timed(zlr, f"{node} {ROOT / 'examples' / 'adapters' / 'zooloretto-score.js'}", cases=("readings",))
    told = [f for f in rep.fingerprint if f["questions"]]
    print(f"fingerprint Zooloretto ({len(rep.fingerprint)} readings, {rep.cases['readings']} states, "
          f"{sum(rep.asked.values())} requests): {s:.1f} s — "
          + "; ".join(f"{f['reading']} follows {f['follows']}" for f in told)
          + f"; {len(rep.fingerprint) - len(told)} reading(s) not told apart by scoring")


if __name__ == "__main__":
    main()
