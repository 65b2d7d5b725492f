"""`zoospec sweep` as a user leans on it (solvers/puzzle/sweep.py), on Pen Pals (tests/games/, a
deal solves in well under a second) and on the layout-first test puzzle (tests/specs/layouts.yaml,
a switch changes its deals): workers, local or on a dask cluster, answer as one alone does; the
switches and layout-by-layout asking reach them; a results file answers one question and another
is refused, not mixed in; unknowns are asked again on request; a range of a billion seeds starts
at once; Ctrl-C keeps what was found, says so, and the same command goes on where it stopped."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zoospec.cli.main import main
from zoospec.solvers.puzzle import deals, sweep

ROOT = Path(__file__).resolve().parent.parent
SPEC = str(ROOT / "tests" / "games" / "pen-pals.yaml")
# a puzzle asked layout by layout, whose escape chance deals only under a switch (seed 5 has it)
LAYOUTS = str(ROOT / "tests" / "specs" / "layouts.yaml")


def lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_two_workers_write_every_answer_once_and_a_second_run_asks_nothing(tmp_path):
    """Two local workers answer four deals, each line as one worker alone answers it; run again,
    every seed is in the file and nothing is asked."""
    alone, two = tmp_path / "alone.jsonl", tmp_path / "two.jsonl"
    sweep.run(SPEC, [1, 2, 3, 4], alone, workers=1)
    s = sweep.run(SPEC, [1, 2, 3, 4], two, workers=2)
    assert s["deals"] == 4 and s["unknown"] == 0
    by_seed = {x["seed"]: (x["status"], x["score"], x["deal"]) for x in lines(alone)}
    assert {x["seed"]: (x["status"], x["score"], x["deal"]) for x in lines(two)} == by_seed
    assert len({d["status"] for d in lines(two)}) == 2  # both verdicts among them: a real check
    before = two.read_text()
    s = sweep.run(SPEC, [1, 2, 3, 4], two, workers=2)
    assert two.read_text() == before and s["deals"] == 4


def test_the_switches_and_layout_first_reach_the_workers(tmp_path, capsys):
    """`zoospec sweep` asks layout by layout by default (ADR 0020) in its workers, each line
    counting the layouts asked; `--with` deals and solves under the switch there: chance deals
    seed 5 the escape, which alone makes 3 reachable. Without the switch no deal has it."""
    out, off = tmp_path / "with.jsonl", tmp_path / "without.jsonl"
    assert main(["sweep", LAYOUTS, "--with", "escapes", "--deals", "1-6", "--out", str(out), "--workers", "2",
                 "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert (s["reachable"], s["unreachable"]) == (1, 5)
    status = {x["seed"]: (x["status"], x["deal"]["escape"]) for x in lines(out)}
    assert status == {5: ("reachable", True), **{n: ("unreachable", False) for n in (1, 2, 3, 4, 6)}}
    assert all(x["layouts"] >= 1 for x in lines(out)) and lines(out)[0]["question"]["switches"] == {"escapes": True}
    assert main(["sweep", LAYOUTS, "--deals", "1-6", "--out", str(off), "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unreachable"] == 6


def test_sweep_runs_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "r.jsonl"
    out.write_text('{"seed": 1, "status": "unknown", "tar')  # a line cut short by a crash is ignored
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        s = sweep.run(SPEC, [1, 2], out, scheduler=client)
    cut_short, *answers = out.read_text().splitlines()
    assert s["deals"] == 2 and s["unknown"] == 0 and cut_short.endswith('"tar')
    assert sorted(json.loads(x)["seed"] for x in answers) == [1, 2]
    assert all(len(json.loads(x)["deal"]["deck"]) == 4 for x in answers)


def test_a_file_answering_another_question_is_refused_saying_what_differs(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["sweep", SPEC, "--deals", "1-3", "--out", str(out), "--workers", "1", "--json"]) == 0
    before = out.read_text()
    assert all(x["question"]["target"] is None and x["timeout"] == 600.0 for x in lines(out))
    assert main(["sweep", SPEC, "--deals", "1-3", "--out", str(out), "--workers", "1", "--target", "2"]) == 2
    err = capsys.readouterr().err
    assert "another question" in err and "target null there, 2 here" in err and str(out) in err
    assert out.read_text() == before  # nothing asked, nothing written
    # another timeout asks the same question: the answers stand, nothing is asked again
    assert main(["sweep", SPEC, "--deals", "1-3", "--out", str(out), "--workers", "1", "--timeout", "60", "--json"]) == 0
    assert out.read_text() == before
    old = tmp_path / "old.jsonl"  # written before lines said their question
    old.write_text(json.dumps({"seed": 1, "status": "reachable"}) + "\n")
    assert main(["sweep", SPEC, "--deals", "1", "--out", str(old)]) == 2
    assert "do not say which question" in capsys.readouterr().err
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)))
    assert main(["sweep", SPEC, "--deals", "1", "--out", str(binary)]) == 2
    assert f"{binary}: not a sweep's results file" in capsys.readouterr().err


def test_unknowns_are_asked_again_only_when_asked_to(tmp_path):
    out = tmp_path / "r.jsonl"
    sweep.run(SPEC, [1, 2], out, workers=1)
    first = lines(out)
    stale = {**first[0], "status": "unknown", "score": None, "reason": "timeout"}  # as a short timeout leaves it
    out.write_text("".join(json.dumps(x) + "\n" for x in [stale, first[1]]))
    s = sweep.run(SPEC, [1, 2], out, workers=1)
    assert s["unknown"] == 1 and len(lines(out)) == 2  # remembered: not asked again
    s = sweep.run(SPEC, [1, 2], out, workers=1, retry_unknown=True)
    again = lines(out)
    assert len(again) == 3 and again[-1]["seed"] == stale["seed"] and again[-1]["status"] == first[0]["status"]
    assert s["unknown"] == 0 and s["deals"] == 2  # a seed's latest line counts


def test_seeds_are_ranges_never_listed():
    many = deals.parse_range("1-1000000000")
    assert len(many) == 1_000_000_000 and 999_999_999 in many and 0 not in many
    start = time.monotonic()
    assert next(iter(many)) == 1 and time.monotonic() - start < 0.1
    some = deals.parse_range("1-5,3,9-10")
    assert list(some) == [1, 2, 3, 4, 5, 9, 10] and len(some) == 7


def test_ctrl_c_keeps_the_answers_so_far_and_the_same_command_goes_on(tmp_path):
    """A billion seeds (they start at once), Ctrl-C after the first answers: exit 130, the summary
    of what is done, no traceback, whole lines only; run again, it skips what is there."""
    out = tmp_path / "r.jsonl"
    cmd = [sys.executable, "-m", "zoospec.cli", "sweep", SPEC, "--deals", "1-1000000000", "--out", str(out), "--workers", "1"]

    def as_a_terminal_starts_it():  # Ctrl-C at its default, whatever the test process inherited
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def run_until_answers(n):
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=as_a_terminal_starts_it)
        deadline = time.monotonic() + 50
        while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < n):
            time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        return p, *p.communicate(timeout=30)

    p, stdout, stderr = run_until_answers(2)
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr and "same command goes on" in stderr
    done = lines(out)  # every line whole
    assert len(done) >= 2 and f"{len(done)} of 1000000000 deals in {out}" in stdout
    p, stdout, stderr = run_until_answers(len(done) + 1)
    assert p.returncode == 130, stderr
    seeds = [x["seed"] for x in lines(out)]
    assert seeds[:len(done)] == [x["seed"] for x in done] and len(set(seeds)) == len(seeds)  # none asked twice
