"""The Z3 back end folds aggregates over known elements (`any`, `all`, `count`, `sum`) into
constants. Folding must not change a term's meaning — each folded form is equivalent to the plain
one, which Z3 proves — and it must happen where it matters: on Zoo Parque's map, whether a known
space has a neighbour is TRUE or FALSE, never a term, so nothing off the frame gets compiled.
A define on an unknown atom is compiled by cases where that asks less (ADR 0011)."""
from pathlib import Path

import z3
from hypothesis import given, strategies as st

from zoospec import ir
from zoospec.backends.z3 import ZCtx, _fold_all, _fold_any, _fold_sum
from zoospec.front.loader import load
from zoospec.ir.types import AtomT
from zoospec.smt import terms as zt
from zoospec.solvers.symbolic import Query

SPEC = Path(__file__).parent.parent / "spec" / "zoo-parque.yaml"
B = [z3.Bool(f"fold.b{i}") for i in range(3)]
X = [z3.Int(f"fold.x{i}") for i in range(2)]

bools = st.one_of(st.sampled_from(B), st.sampled_from([zt.TRUE, zt.FALSE, z3.BoolVal(True), z3.BoolVal(False)]))
ints = st.one_of(st.sampled_from(X), st.integers(-3, 3).map(zt.num))


def equivalent(p, q) -> bool:
    s = z3.Solver()
    s.add(p != q)
    return s.check() == z3.unsat


@given(st.lists(st.tuples(bools, bools), max_size=4))
def test_folded_all_and_any_mean_what_they_did(pairs):
    assert equivalent(_fold_all(pairs), z3.And([z3.Implies(g, v) for g, v in pairs] + [z3.BoolVal(True)]))
    assert equivalent(_fold_any(pairs), z3.Or([z3.And(g, v) for g, v in pairs] + [z3.BoolVal(False)]))


@given(st.lists(st.tuples(bools, ints), max_size=4))
def test_folded_sum_means_what_it_did(pairs):
    assert equivalent(_fold_sum(pairs), z3.Sum([z3.If(g, v, 0) for g, v in pairs] + [z3.IntVal(0)]))


@given(st.lists(st.tuples(st.sampled_from([zt.TRUE, zt.FALSE, z3.BoolVal(True)]), st.sampled_from([zt.TRUE, zt.FALSE])), max_size=4))
def test_known_elements_give_constants(pairs):
    assert _fold_all(pairs) is (zt.TRUE if all(zt.is_true(v) or not zt.is_true(g) for g, v in pairs) else zt.FALSE)
    assert _fold_any(pairs) is (zt.TRUE if any(zt.is_true(v) and zt.is_true(g) for g, v in pairs) else zt.FALSE)
    assert zt.is_int_value(_fold_sum([(g, zt.num(2)) for g, _ in pairs]))


def test_a_known_space_knows_its_neighbours_and_nothing_off_the_frame_is_compiled():
    game = load(SPEC)
    sym, state = game.sym_state("fold."), game.start_state()
    grid = game.domains["cell"]
    (_, has_next), (_, closed) = game.defines["has_next"], game.defines["closed"]
    for cell in grid.atoms:
        for r in range(4):
            v = game.z3_eval(has_next, sym, ZCtx(), {"c": zt.num(grid.code(cell)), "r": zt.num(r)})
            assert v is (zt.TRUE if game.evaluate(has_next, state, {"c": cell, "r": r}) else zt.FALSE)
        ctx = ZCtx()
        game.z3_eval(closed, sym, ctx, {"c": zt.num(grid.code(cell))})
        assert ctx.obligations == [], f"closed({cell}) asks for a space off the frame"


def test_a_define_on_an_unknown_space_is_compiled_by_cases_and_means_the_same():
    """`fine_of(c)` — `at(2 * row(c) + 1, ...)` on the fine grid — for an unknown space: by
    cases no obligation is recorded, and for each space it may be, Z3's value is Python's."""
    game = load(SPEC)
    sym, state = game.sym_state("fold."), game.start_state()
    cell, fine = game.domains["cell"], game.domains["fine"]
    c = z3.Int("fold.c")
    call = ir.Call("fine_of", (ir.Local("c", AtomT("cell")),), AtomT("fine"))
    ctx = ZCtx()
    value = game.z3_eval(call, sym, ctx, {"c": c})
    assert ctx.obligations == []
    _, body = game.defines["fine_of"]
    for x in cell.atoms:
        got = z3.simplify(z3.substitute(value, (c, zt.num(cell.code(x)))))
        assert fine.atom(got.as_long()) == game.evaluate(body, state, {"c": x})


def test_a_map_over_an_empty_domain_indexed_by_an_unknown_key_is_never_defined(tmp_path):
    """Zoo-ography's `mturn` is `range: [1, 0]` until `multiplayer` widens it; a body indexing a
    map over it with a key Z3 does not know (`flag[now]`) crashed the compiler (no entry to fall
    back on: `zoospec ambiguities zoo-ography` ended in an internal error). It is an index outside
    the domain, as Python's back end finds it: an obligation that never holds."""
    spec = tmp_path / "empty.yaml"
    spec.write_text("game: {id: emp, title: Empty domain, rulebook: none.txt}\n"
                    "components: {domains: {turn: {range: [1, 0]}}}\n"
                    "state: {now: 'int[0..3]', flag: 'map[turn] bool'}\n"
                    "rules:\n  - {id: emp.flag, cite: {section: T}, says: this turn's flag, kind: invariant, body: 'flag[now]'}\n")
    g = load(str(spec))
    _, ctx = Query(g).term_ctx(g.rule("emp.flag").body)
    (ob,) = ctx.obligations
    assert "outside domain turn (it is empty)" in ob.reason and z3.is_false(z3.simplify(ob.cond))
