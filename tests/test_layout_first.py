"""The layout-first loop's refutations (solvers/puzzle/layout_first.py, ADR 0016) on a puzzle small
enough to count: tests/specs/layouts.yaml, two slots each holding a piece worth 0–3 turned 0–3
times, a total of 3 wanted, and a rule the proposer does not keep that refutes every layout
unless the deal has the escape. The counts are the layouts each setting must propose before the
proposer has none left. These counts are Z3's widening (`z3_alone`); with Yices a refutation
blocks the pins of its unsat core instead (ADR 0026), tested at the end."""
import re
import time

import pytest
import z3
from conftest import ROOT

from zoospec import load
from zoospec.engines import yices
from zoospec.solvers.puzzle import search as puzzle
from zoospec.solvers.puzzle.layout_first import LayoutSearch

SPEC = str(ROOT / "tests" / "specs" / "layouts.yaml")


def _game(pin_only: bool, generalise: bool, by_slot: bool = False):
    g = load(SPEC)
    if not pin_only:
        g.puzzle.layout_pin_only = {}
    if not generalise:
        g.puzzle.layout_generalise = []
    if by_slot:
        g.puzzle.layout_generalise_by = "slot"
    return g


@pytest.fixture
def z3_alone(monkeypatch):
    """ZOOSPEC_ENGINE=z3: the layouts are asked of Z3 and refutations widened, as without Yices."""
    monkeypatch.setenv("ZOOSPEC_ENGINE", "z3")


# Piece values with a total of 3 or more: 10 of the 16 pairs. Every turning of each pinned:
# 10 × 16 = 160. Turns pinned only where a piece lies (pin_only): 2 pairs with one piece (4
# turnings each) and 8 with two (16 each), 136. Turns dropped from each refutation (generalise):
# one refutation per pair of values, 10. Slot by slot (generalise_by): without the escape no
# record reaches 3 whatever either slot holds, so the first refutation drops both slots' pins and
# rules out every layout at once, 1.
@pytest.mark.parametrize("pin_only, generalise, by_slot, layouts",
                         [(False, False, False, 160), (True, False, False, 136), (False, True, False, 10),
                          (True, True, False, 10), (True, False, True, 1), (False, False, True, 1)])
def test_a_refutation_rules_out_what_it_was_asked_without(pin_only, generalise, by_slot, layouts, z3_alone):
    said = []
    v = puzzle.solve(_game(pin_only, generalise, by_slot), {"escape": False}, layout_first=True, timeout=300, progress=said.append)
    assert v.status == "unreachable" and v.layouts == layouts
    if by_slot:
        assert "widened in" in said[-1] and said[-1].endswith("on slot (1) (2)")


@pytest.mark.parametrize("generalise, by_slot", [(True, False), (False, True)])
def test_a_widened_question_that_is_sat_is_the_answer(generalise, by_slot, z3_alone):
    """With the escape, a layout is completed only with every piece laid turned three times. A
    proposal with other turns is refuted as proposed but, asked again without its turns (or
    without one slot's pins, then the other's), Z3 finds the turning that works: reachable at the
    first layout, certified."""
    g = _game(True, generalise, by_slot)
    v = puzzle.solve(g, {"escape": True}, layout_first=True, timeout=300)
    assert v.status == "reachable" and v.layouts == 1
    laid = [k for k, x in v.record["at"].items() if x > 0]
    assert sum(v.record["at"].values()) >= 3 and all(v.record["turned"][k] == 3 for k in laid)
    assert puzzle.certify(g, v.record) == []


@pytest.mark.parametrize("escape, target, best, proved_below", [(False, 3, 2, 3), (True, 6, 6, None)])
def test_best_climbs_layout_by_layout_keeping_its_refutations(escape, target, best, proved_below, z3_alone):
    """--best --layout-first climbs with one search. Without the escape no total above 2 is
    possible: the best is 2, and 3 is out of reach only after every layout was refuted by UNSAT.
    With it every total up to 6 is. What one score refuted stays refuted for the next, and a
    layout is proposed once: at most one proposal for each of the 16 pairs of piece values
    (widening drops the turns), where starting each score afresh proposes the low ones again."""
    g = _game(True, True)
    v = puzzle.solve(g, {"escape": escape}, target=target, best=True, layout_first=True, timeout=300)
    assert (v.status, v.score, v.proved_below) == ("reachable" if proved_below is None else "unreachable", best, proved_below)
    assert puzzle.certify(g, v.record) == [] and puzzle.score_of(g, v.record) == best
    assert v.layouts <= 16


def test_a_search_keeps_its_refutations_and_asks_a_completed_layout_first(z3_alone):
    """One LayoutSearch across scores. Without the escape every layout totalling 3 or more is
    refuted when 3 is asked; 4 is then out of reach without a single new proposal. With it, a
    layout completed for one score is the first asked for the next (its own pins were ruled out
    of the proposer when it was proposed, so this is the only way it is asked again)."""
    g = _game(True, True)
    prob = puzzle._Problem(g, {"escape": False})
    search = LayoutSearch(g, prob, time.monotonic() + 300, lambda msg: None)
    assert search.at(3)[0] == z3.unsat and search.asked == 10  # one per pair of values, as above
    assert search.at(4)[0] == z3.unsat and search.asked == 10
    prob = puzzle._Problem(g, {"escape": True})
    said = []
    search = LayoutSearch(g, prob, time.monotonic() + 300, said.append)
    r, s = search.at(None)
    first = puzzle.score_of(g, prob.q.sym.decode(s.model()))
    said.clear()
    search.at(first + 1)
    assert said[0].startswith("layout 1 completed for a lower score, asked for more")


def test_slot_by_slot_the_bare_slots_are_dropped_together_then_each_other_alone():
    """`generalise_by` drops the pins of the keys where no `pin_only` entry was pinned (an empty
    spot) at once, then every other key alone; with nothing bare, every key alone; `generalise`'s
    variables come first."""
    from zoospec.solvers.puzzle.layout_first import _batches

    g = _game(True, True, True)
    prob = puzzle._Problem(g, {"escape": False})
    one_laid = [("at", 1), ("at", 2), ("turned", 1)]  # slot 2 empty: its turns not pinned
    assert _batches(prob, one_laid) == [{("turned", 1)}, {("at", 2)}, {("at", 1), ("turned", 1)}]
    both = [("at", 1), ("at", 2), ("turned", 1), ("turned", 2)]
    assert _batches(prob, both)[1:] == [{("at", 1), ("turned", 1)}, {("at", 2), ("turned", 2)}]
    g.puzzle.layout_pin_only = {}  # nothing conditional: no key is bare, each alone
    assert _batches(prob, [("at", 1), ("at", 2)]) == [set(), {("at", 1)}, {("at", 2)}]


def test_the_command_line_asks_layout_by_layout_unless_told_or_given_a_layout(tmp_path, capsys, z3_alone):
    """ADR 0020: `solve` asks layout by layout by default when the puzzle names a layout (the JSON
    counts the layouts proposed: 10, as above); --whole-record asks one question (no count, and the
    goals' core); a given layout variable is completed as one question; a puzzle without a layout
    is asked as one question, and --layout-first is refused for it, saying why."""
    import json

    from zoospec.cli.main import main
    deal, given, bare = tmp_path / "deal.yaml", tmp_path / "given.yaml", tmp_path / "bare.yaml"
    deal.write_text("escape: false\n")
    given.write_text("at: {1: 3, 2: 0}\n")
    text = open(SPEC, encoding="utf-8").read()
    bare.write_text(text[:text.index("  layout_first:")] + text[text.index("  goals:"):])

    def ask(*extra, spec=SPEC):
        code = main(["solve", spec, "--deal", str(deal), "--json", *extra])
        return code, json.loads(capsys.readouterr().out)

    code, out = ask()
    assert code == 1 and out["layouts"] == 10 and "every layout" in out["reason"]
    code, out = ask("--whole-record")
    assert code == 1 and out["layouts"] is None and out["core"] == ["lay.score"]
    code, out = ask("--given", str(given))
    assert code == 1 and out["layouts"] is None and out["given"] == ["at"]
    code, out = ask(spec=str(bare))
    assert code == 1 and out["layouts"] is None and out["core"] == ["lay.score"]
    assert main(["solve", str(bare), "--deal", str(deal), "--layout-first"]) == 2
    assert "puzzle has no layout_first section" in capsys.readouterr().err


def _given(g, text, tmp_path):
    path = tmp_path / "given.yaml"
    path.write_text(text)
    return puzzle.read_given(g, str(path))


def _answers_only_from(least, monkeypatch, budgets):
    """Layouts asked with a budget below `least` seconds get no answer (as a slow engine's);
    the others are asked for real. Every budget asked with is noted in `budgets`."""
    real = LayoutSearch._ask

    def ask(self, pins, budget, want):
        budgets.append(budget)
        if budget < least:
            time.sleep(min(budget, 0.01))
            return None, z3.unknown, budget
        return real(self, pins, budget, want)
    monkeypatch.setattr(LayoutSearch, "_ask", ask)


def test_a_layout_without_an_answer_is_set_aside_and_asked_again_with_more_time(monkeypatch, tmp_path):
    """The whole layout given, so the proposer has one to offer: asked with the first budget it
    has no answer and is set aside; with nothing new to propose it is asked again, each time with
    GROWTH times the budget before, until it is completed and certified."""
    import zoospec.solvers.puzzle.layout_first as layout_first
    monkeypatch.setattr(layout_first, "FIRST_BUDGET", 0.01)
    monkeypatch.setattr(layout_first, "GROWTH", 10.0)
    budgets, said = [], []
    _answers_only_from(1.0, monkeypatch, budgets)
    g = _game(True, True)
    given = _given(g, "at: {1: 3, 2: 0}\nturned: {1: 3, 2: 0}\n", tmp_path)
    v = puzzle.solve(g, {"escape": True}, layout_first=True, timeout=120, progress=said.append, given=given)
    assert (v.status, v.layouts) == ("reachable", 1)
    assert puzzle.certify(g, v.record) == [] and puzzle.score_of(g, v.record) == 3
    assert budgets == pytest.approx([0.01, 0.1, 1.0])
    steps = [s for s in said if s.startswith("layout 1")]
    assert [s.split(":")[1].split(" in ")[0].strip() for s in steps] == [
        "no answer yet, set aside", "no answer yet, set aside", "completed"]
    assert "asked again" in steps[-1]


def test_a_layout_that_never_gets_an_answer_leaves_the_verdict_unknown(monkeypatch, tmp_path):
    """A layout never answered (its budget never grows) is not refuted: when the timeout runs out
    the verdict is unknown, never unreachable, and says how many layouts are unanswered."""
    import zoospec.solvers.puzzle.layout_first as layout_first
    monkeypatch.setattr(layout_first, "FIRST_BUDGET", 0.01)
    monkeypatch.setattr(layout_first, "GROWTH", 1.0)
    _answers_only_from(1.0, monkeypatch, [])
    g = _game(True, True)
    given = _given(g, "at: {1: 3, 2: 0}\nturned: {1: 3, 2: 0}\n", tmp_path)
    v = puzzle.solve(g, {"escape": True}, layout_first=True, timeout=1.5, given=given)
    assert v.status == "unknown" and v.reason.startswith("the timeout ran out") and "1 unanswered" in v.reason


def test_a_given_layout_the_proposer_cannot_keep_refutes_every_layout(tmp_path, capsys):
    """A given layout whose pieces cannot reach 3 (both slots empty): the proposer, which keeps
    the total and the score wanted, has nothing to offer, so the target is unreachable by UNSAT
    alone, no layout asked. A given total the slots do not add up to breaks a rule the proposer
    keeps: with --best, the climb's first question (any finished record) has no layout either."""
    import json

    from zoospec.cli.main import main
    deal, empty, broken = tmp_path / "deal.yaml", tmp_path / "empty.yaml", tmp_path / "broken.yaml"
    deal.write_text("escape: true\n")
    empty.write_text("at: {1: 0, 2: 0}\n")
    broken.write_text("at: {1: 0, 2: 0}\ntotal: 5\n")
    assert main(["solve", SPEC, "--deal", str(deal), "--given", str(empty), "--layout-first", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unreachable" and "every layout the layout rules allow" in out["reason"] and out["layouts"] == 0
    assert main(["solve", SPEC, "--deal", str(deal), "--given", str(broken), "--layout-first", "--best", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unreachable" and out["best"] and out["score"] is None and out["reason"] == "no finished record at all"


needs_yices = pytest.mark.skipif(not yices.available(), reason="Yices is not installed (the [yices] extra)")


@needs_yices
def test_with_yices_a_refutation_blocks_the_pins_of_its_unsat_core():
    """With the escape, a total of 3 or more needs every laid piece turned three times. The layout
    (3, 0) with slot 1 turned once is refuted, and the core of that refutation names slot 1's
    pins, not slot 2's: no record with them reaches 3, whatever slot 2 holds. The core alone is
    UNSAT again (it is a refutation in its own right), and the block it leaves in the proposer
    rules out (3, 1) with slot 1 turned once too, which was never asked."""
    g = _game(True, False)
    prob = puzzle._Problem(g, {"escape": True})
    said = []
    search = LayoutSearch(g, prob, time.monotonic() + 120, said.append)
    assert search.cores and "asked of Yices" in said[0]
    at, turned = prob.q.sym["at"].entries, prob.q.sym["turned"].entries
    pins = [(("at", None), at[1] == 3), (("at", None), at[2] == 0), (("turned", None), turned[1] == 1)]
    s, r, _ = search._ask(pins, 60, 3)
    assert r == z3.unsat
    core = search._core(s, pins)
    assert core and {str(p) for _, p in core} <= {str(at[1] == 3), str(turned[1] == 1)}
    assert search._ask(core, 60, 3)[1] == z3.unsat
    search.proposer = search._proposer(3)
    search._block(core)
    assert search.proposer.check(at[1] == 3, at[2] == 1, turned[1] == 1) == z3.unsat
    assert search.proposer.check(at[1] == 3, at[2] == 1, turned[1] == 3) == z3.sat


@needs_yices
@pytest.mark.parametrize("escape, status, layouts", [(False, "unreachable", 1), (True, "reachable", 1)])
def test_with_yices_an_empty_core_refutes_every_layout_at_once(escape, status, layouts):
    """Without the escape no layout reaches 3: the first refutation's core is empty, so it blocks
    every layout (160 proposals without pin_only or widening, with Z3 above). With it, the
    record is certified."""
    g = _game(False, False)
    said = []
    v = puzzle.solve(g, {"escape": escape}, layout_first=True, timeout=120, progress=said.append)
    assert (v.status, v.layouts) == (status, layouts)
    if escape:
        assert puzzle.certify(g, v.record) == [] and puzzle.score_of(g, v.record) >= 3
    else:
        assert re.fullmatch(r"layout 1 proposed in [\d.]+s: refuted \(UNSAT\) in [\d.]+s; its unsat core keeps 0 of its 4 pins", said[-1])


@needs_yices
def test_with_yices_best_climbs_and_proves_the_ceiling():
    """--best with Yices' cores: 2 is the best without the escape and 3 is proved out of reach."""
    g = _game(True, True)
    v = puzzle.solve(g, {"escape": False}, target=3, best=True, layout_first=True, timeout=120)
    assert (v.status, v.score, v.proved_below) == ("unreachable", 2, 3)
    assert puzzle.certify(g, v.record) == [] and v.layouts <= 16
