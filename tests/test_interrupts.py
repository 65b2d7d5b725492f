"""Ctrl-C during `zoospec solve`, pressed as a user would (a subprocess, SIGINT at its default):
the search stops inside the solver at once — not at its timeout, not as a ctypes error, not as a
timeout's 'unknown' — the answer so far is printed as interrupted, and the exit code is 130
(zoospec/engines/interrupt.py). sweep's and pack's Ctrl-C: tests/test_sweep.py, test_pack_inputs.py."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRST_GAME = str(ROOT / "spec" / "zoo-ography" / "deals" / "first-game.yaml")


def _as_a_terminal_starts_it():  # Ctrl-C at its default, whatever the test process inherited
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.parametrize("how, searching, within", [
    ("--layout-first", "layout 1 proposed", 3.0),
    ("--whole-record", "asking the whole record", 3.0),
    # the portfolio: Ctrl-C reaches the parent alone (the workers have a process group of their own)
    # and is passed on to each worker, which stops its search and reports
    ("--workers=2", "[worker 1] layout 1 proposed", 10.0)])
def test_ctrl_c_stops_solve_inside_the_solver_and_says_so(how, searching, within):
    """first-game's record takes minutes either way; Ctrl-C a second into the search (inside a Yices
    or Z3 check, in C): out within 3 s (10 s for two workers to report), exit 130, the reason says
    interrupted, no traceback."""
    p = subprocess.Popen([sys.executable, "-m", "zoospec.cli", "solve", "zoo-ography", "--deal", FIRST_GAME, how,
                          "--timeout", "600"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=_as_a_terminal_starts_it)
    seen = []
    for line in p.stderr:  # the progress lines
        seen.append(line)
        if searching in line:
            break
    assert p.poll() is None, "".join(seen)
    time.sleep(1.0)
    pressed = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert time.monotonic() - pressed < within, "".join(seen) + err
    assert p.returncode == 130 and "Traceback" not in err and "interrupted" in err
    assert out.startswith("INTERRUPTED — interrupted"), out
