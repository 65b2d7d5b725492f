"""Hypothesis profiles: a fast default for development, `ci` (HYPOTHESIS_PROFILE=ci) with at least
100 examples per rule (10 on states of more than 500 leaves: tests/test_agreement.py); no deadlines — speed is measured in bench/, not asserted in tests."""
import os
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from zoospec import collector, stack_room

ROOT = Path(__file__).resolve().parent.parent

# A whole table's state is big by nature (Zoo Parque's: a domino set, a 49-space map, hands), so
# even its smallest draw is large: that health check says nothing about the strategy here.
SUPPRESS = [HealthCheck.too_slow, HealthCheck.large_base_example]
settings.register_profile("default", max_examples=25, deadline=None, suppress_health_check=SUPPRESS)
settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=SUPPRESS)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# the collector as the CLI runs it (zoospec/collector.py): 3-14% of a test process's time went to it
collector.tune()

# the tour's remembered answers: one fresh place per test process, never the user's own cache
os.environ.setdefault("ZOOSPEC_CACHE", tempfile.mkdtemp(prefix="zoospec-cache-"))
# The suite runs one xdist worker per core already: a second engine racing in each would only
# compete for the same cores (the claim-heavy files: 244 s alone, 254 s raced). The race's own tests turn it on.
os.environ.setdefault("ZOOSPEC_RACE", "off")
# every --json output the tests make is checked against its published schema (zoospec/front/output.py)
os.environ.setdefault("ZOOSPEC_CHECK_OUTPUT", "1")

GAME_SPECS = sorted((ROOT / "spec").glob("*.yaml"))
TEST_SPECS = sorted((ROOT / "tests" / "specs").glob("*.yaml"))
ALL_SPECS = GAME_SPECS + TEST_SPECS


def game(path, readings: dict | None = None, switches: dict | None = None):
    """The spec loaded once per process — under other readings or switches, once per choice —
    so every test of a game in a worker compiles its Z3 bodies on one shared state and memo
    (zoospec.runtime.agreement.compiled)."""
    return _game(str(path), *_departures(path, readings, switches))


def _departures(path, readings: dict | None, switches: dict | None) -> tuple[tuple, tuple]:
    """The readings and switches that differ from the spec's defaults, sorted: one key per game."""
    base = _game(str(path), (), ())
    r = tuple(sorted((k, v) for k, v in (readings or {}).items() if base.chosen.get(k) != v))
    s = tuple(sorted((k, v) for k, v in (switches or {}).items() if base.switches.get(k) != v))
    return r, s


def same_game(path, readings: dict | None = None, switches: dict | None = None):
    """An xdist group for the tests of one game under one choice of readings and switches (as
    `game` tells choices apart): they run in one worker, which compiles the game's bodies once on
    its shared state and memo. Per item instead, the define calls that items share (a region's
    labels, a flood fill) were built again in each worker (test_agreement and test_cases on two
    workers: 600 s per item, 580 s per game variant; docs/performance.md)."""
    r, s = _departures(path, readings, switches)
    where = Path(path).resolve().relative_to(ROOT)
    return pytest.mark.xdist_group(f"{where}|{list(r)}|{list(s)}")


@lru_cache(maxsize=None)
def _game(path: str, readings: tuple, switches: tuple):
    import zoospec

    if readings or switches:
        return _game(path, (), ()).with_readings(dict(readings), dict(switches))
    return zoospec.load(path)


def run_zoospec(*args, timeout=120):
    """`zoospec ARGS` in a process of its own, as a user runs it: the finished process."""
    return subprocess.run([sys.executable, "-m", "zoospec.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


# Longest first: pytest-xdist hands tests out in collection order, so a long test collected last
# keeps one worker busy while the other idles (measured: the 3-player Zoo Parque replay, ~650 s
# under load, ran last). Whole-game replays, the Exhibit flood fills (~390 s together with Strong
# Species) and transition relations go out first; the rest keep their order.
HEAVY = (("seeded_game", "game_with_feeding", "pays_its_food_icons"), ("flood_fill",), ("test_transition_relation",))


def pytest_collection_modifyitems(items):
    def rank(item):
        return next((i for i, names in enumerate(HEAVY) if any(n in item.nodeid for n in names)), len(HEAVY))
    items.sort(key=rank)


_looping = []


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """Every test of this process runs on a frame stack with room (zoospec/stack_room.py): in an
    xdist worker, Python 3.11 otherwise mapped and unmapped a frame chunk per Z3 call in some tests
    (half the CPU in the kernel, 3x slower). The loop itself is pytest's or xdist's, called inside."""
    if _looping:
        return None  # the inner call: let the real loop run
    _looping.append(1)
    try:
        return stack_room.run(lambda: session.ihook.pytest_runtestloop(session=session))
    finally:
        _looping.clear()
