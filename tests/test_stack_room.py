"""zoospec/stack_room.py: calls made on a roomy frame stack do not make CPython map a frame chunk
each time. Seen through the page faults a process takes: a fresh 16 KiB chunk per call costs at
least one; a call inside an existing chunk costs none."""
from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from zoospec import stack_room

CALLS = 2_000


def _wide():  # a frame wider than one step of _down, so some depth leaves too little room for it
    return None


_wide = type(_wide)(_wide.__code__.replace(co_stacksize=64), globals(), "_wide")


def _down(depth: int, then):
    return then() if depth == 0 else _down(depth - 1, then)


def _faults_of_calls() -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(CALLS):
        _wide()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def _worst_depth(wrap) -> int:
    """The most page faults CALLS calls took at any call depth from 0 to 400."""
    return max(wrap(lambda d=d: _down(d, _faults_of_calls)) for d in range(0, 400))


def test_calls_at_every_depth_stay_inside_one_chunk():
    """In a process of its own (this one runs its tests inside a room: tests/conftest.py)."""
    out = subprocess.run([sys.executable, __file__], capture_output=True, text=True, timeout=60, check=True).stdout
    plain, roomy = json.loads(out)
    if plain < CALLS // 2:
        pytest.skip(f"this Python ({sys.version.split()[0]}) keeps a spare frame chunk (CPython gh-142183): "
                    f"nothing to avoid ({plain} faults at the worst depth)")
    assert roomy < CALLS // 10, (plain, roomy)


def test_run_returns_raises_and_nests():
    assert stack_room.run(lambda: 7) == 7
    with pytest.raises(ZeroDivisionError):
        stack_room.run(lambda: 1 / 0)
    assert stack_room.run(lambda: stack_room.run(lambda: "inner")) == "inner"
    assert stack_room.run(lambda: 8) == 8  # the flag was reset after the raise and the nesting


if __name__ == "__main__":
    print(json.dumps([_worst_depth(lambda fn: fn()), _worst_depth(stack_room.run)]))
