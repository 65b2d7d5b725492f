"""The layout-first loop's refutations (solvers/puzzle.py `_layouts`, ADR 0016) on a puzzle small
enough to count: tests/specs/layouts.yaml, two slots each holding a piece worth 0–3 turned 0–3
times, a total of 3 wanted, and a rule the proposer does not keep that refutes every layout
unless the deal has the escape. The counts are the layouts each setting must propose before the
proposer has none left."""
import pytest

from conftest import ROOT
from zoospec import load
from zoospec.solvers import puzzle

SPEC = str(ROOT / "tests" / "specs" / "layouts.yaml")


def _game(pin_only: bool, generalise: bool):
    g = load(SPEC)
    if not pin_only:
        g.puzzle.layout_pin_only = {}
    if not generalise:
        g.puzzle.layout_generalise = []
    return g


# Piece values with a total of 3 or more: 10 of the 16 pairs. Every turning of each pinned:
# 10 × 16 = 160. Turns pinned only where a piece lies (pin_only): 2 pairs with one piece (4
# turnings each) and 8 with two (16 each), 136. Turns dropped from each refutation (generalise):
# one refutation per pair of values, 10.
@pytest.mark.parametrize("pin_only, generalise, layouts",
                         [(False, False, 160), (True, False, 136), (False, True, 10), (True, True, 10)])
def test_a_refutation_rules_out_what_it_was_asked_without(pin_only, generalise, layouts):
    v = puzzle.solve(_game(pin_only, generalise), {"escape": False}, layout_first=True, timeout=300)
    assert v.status == "unreachable" and v.layouts == layouts


def test_a_widened_question_that_is_sat_is_the_answer():
    """With the escape, a layout is completed only with every piece laid turned three times. A
    proposal with other turns is refuted as proposed but, asked again without its turns, Z3 finds
    the turning that works: reachable at the first layout, certified."""
    g = _game(True, True)
    v = puzzle.solve(g, {"escape": True}, layout_first=True, timeout=300)
    assert v.status == "reachable" and v.layouts == 1
    laid = [k for k, x in v.record["at"].items() if x > 0]
    assert sum(v.record["at"].values()) >= 3 and all(v.record["turned"][k] == 3 for k in laid)
    assert puzzle.certify(g, v.record) == []
