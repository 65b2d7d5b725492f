"""Bad input, fed to the real console script as a user's (or their program's) files would be:
every command that reads a file gets it missing, a folder, empty, binary, not UTF-8, cut short,
nested 100,000 deep, the wrong shape and the wrong types; every command that writes gets a place
it cannot write. Each must exit 2 (docs/exit-codes.md), name the file, print no traceback,
answer within 5 s and leave no output behind. The JSON and spec readers are shared, so the whole
range of kinds is fed to the first user of the JSON reader and the classes a reader could miss to
the others (the spec loader's whole range: tests/test_hostile.py and test_bad_specs.py).
(Invariant-breaking states: tests/test_zooloretto.py and test_new_york_zoo.py; Ctrl-C:
test_interrupts.py, test_sweep.py, test_pack_inputs.py, test_tour.py; closed standard input:
test_cli.py.)"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PEN_PALS = str(ROOT / "tests" / "games" / "pen-pals.yaml")

READS = {  # command line, FILE where the bad file goes
    "score": ["score", "zooloretto", "FILE"],
    "validate": ["validate", "FILE"],
    "play --state": ["play", "zooloretto", "--state", "FILE", "--steps", "1"],
    "replay": ["replay", "FILE"],
    "solve --deal": ["solve", "zoo-ography", "--deal", "FILE", "--timeout", "5"],
    "draft-result": ["draft-result", "FILE", "--zoo", "1=plan.json"],
    "pack --board": ["pack", "--board", "FILE", "--pieces", "pentominoes"],
    "pack --pieces": ["pack", "--board", "6x10", "--pieces", "FILE"],
    "pack --constraints": ["pack", "--board", "6x10", "--pieces", "pentominoes", "--constraints", "FILE"],
    "coverage --rulebook": ["coverage", "zooloretto", "--rulebook", "FILE"],
}
KINDS = {
    "missing": None,
    "directory": "DIR",
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "bad UTF-8": b'\xff\xfe{"a": 1}',
    "truncated": b'{"a": [1, 2',
    "deep": b"[" * 100_000,
    "wrong shape": b"[1, 2, 3]",
    "wrong types": b'{"states": "lots", "zoos": 7, "deal": []}',
}
EVERY_KIND = ("score",)  # the JSON reader's first user (the spec loader's kinds: test_hostile.py, test_bad_specs.py)
SOME_KINDS = ("missing", "binary", "wrong shape")

CASES = [(c, k) for c in READS for k in KINDS if c in EVERY_KIND or k in SOME_KINDS]


def _run(argv, cwd) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "zoospec.cli", *argv], cwd=cwd, capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    return r, time.monotonic() - start


@pytest.mark.parametrize("command, kind", CASES, ids=[f"{c}-{k}" for c, k in CASES])
def test_a_bad_file_is_refused_by_name(command, kind, tmp_path):
    bad = tmp_path / "input.json"
    if KINDS[kind] == "DIR":
        bad.mkdir()
    elif KINDS[kind] is not None:
        bad.write_bytes(KINDS[kind])
    before = sorted(p.name for p in tmp_path.iterdir())
    r, seconds = _run([str(bad) if a == "FILE" else a for a in READS[command]], tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and str(bad) in r.stderr, r.stderr
    assert seconds < 5.0
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


WRITES = {  # a command that writes, and the place it cannot write
    "play --trace": ["play", "zooloretto", "--players", "2", "--trace", "OUT/t.json"],
    "solve --plan": ["solve", "zoo-ography", "--seed", "1", "--plan", "OUT/p.json"],
    "pack --svg": ["pack", "--board", "6x10", "--pieces", "pentominoes", "--svg", "OUT/x.svg"],
    "sweep --out": ["sweep", PEN_PALS, "--deals", "1", "--out", "OUT/r.jsonl"],
    "fixtures --out": ["fixtures", PEN_PALS, "--out", "OUT/corpus"],
}


# (`fixtures --out` makes the folders it is given: only a file in the way stops it)
WRITE_CASES = [(c, w) for c in WRITES for w in ("a folder that does not exist", "under a file")
               if not (c == "fixtures --out" and w == "a folder that does not exist")]


@pytest.mark.parametrize("command, where", WRITE_CASES, ids=[f"{c}-{w}" for c, w in WRITE_CASES])
def test_an_output_that_cannot_be_written_is_refused_before_the_work(command, where, tmp_path):
    """Refused at once, naming the path — not after a game is played or a record certified."""
    blocker = tmp_path / "blocker"
    blocker.write_text("keep me")
    out = tmp_path / "no" / "such" / "folder" if where == "a folder that does not exist" else blocker
    r, seconds = _run([a.replace("OUT", str(out)) for a in WRITES[command]], tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and str(out) in r.stderr, r.stderr
    assert seconds < 5.0 and not (tmp_path / "no").exists() and blocker.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker"]
