"""zoospec/smt/terms.py builds terms through Z3's C API: each one must be the very term z3py
builds (Z3 hash-conses, so `eq` is identity of the AST), for every mix of arguments the back end
passes — Z3 terms, Python ints, Python bools — and a constant must read back as itself. (One
exception, by Python's rules: `x == IntVal(k)` is built by the numeral's class, as `k == x`;
there the two must be equivalent, which Z3 proves.)"""
import z3
from hypothesis import given, strategies as st

from zoospec.smt import terms as zt

B = [z3.Bool(f"zt.b{i}") for i in range(4)]
X = [z3.Int(f"zt.x{i}") for i in range(3)]

bools = st.one_of(st.sampled_from(B), st.sampled_from([zt.TRUE, zt.FALSE]), st.sampled_from(B).map(z3.Not))
ints = st.one_of(st.sampled_from(X), st.integers(-5, 5).map(z3.IntVal), st.sampled_from(X).map(lambda x: x + 1))
python_ints = st.integers(-5, 5)


def equivalent(p, q) -> bool:
    s = z3.Solver()
    s.add(p != q)
    return p.eq(q) or s.check() == z3.unsat


@given(st.lists(bools, min_size=1, max_size=5))
def test_and_or_are_z3pys_terms(xs):
    assert zt.And(xs).eq(z3.And(xs)) and zt.And(*xs).eq(z3.And(*xs))
    assert zt.Or(xs).eq(z3.Or(xs))


@given(bools, bools)
def test_not_and_implies_are_z3pys_terms(a, b):
    assert zt.Not(a).eq(z3.Not(a))
    assert zt.Implies(a, b).eq(z3.Implies(a, b))


@given(bools, st.one_of(ints, python_ints), st.one_of(ints, python_ints))
def test_if_and_eq_on_ints_are_z3pys_terms(c, a, b):
    assert zt.If(c, a, b).eq(z3.If(c, a, b))
    if not isinstance(a, int):
        assert equivalent(zt.Eq(a, b), a == b)


@given(bools, bools, bools)
def test_if_and_eq_on_bools_are_z3pys_terms(c, a, b):
    assert zt.If(c, a, b).eq(z3.If(c, a, b))
    assert zt.Eq(a, b).eq(a == b)


def test_what_is_not_a_term_goes_to_z3py():
    assert zt.And(True, B[0]).eq(z3.And(True, B[0]))  # a Python bool: z3py coerces it
    assert zt.And([]).eq(z3.And([]))


@given(st.integers(-10**6, 10**6))
def test_a_constant_reads_back_as_itself(k):
    v = zt.constant(z3.simplify(z3.IntVal(k) + 0).as_ast())
    assert zt.is_int_value(v) and v.as_long() == k
    assert zt.constant(z3.simplify(z3.And(zt.TRUE, zt.TRUE)).as_ast()) is zt.TRUE
    assert zt.constant(z3.simplify(z3.Or(zt.FALSE, zt.FALSE)).as_ast()) is zt.FALSE
    assert zt.constant(X[0].as_ast()) is None and zt.constant(B[0].as_ast()) is None
    assert not zt.is_int_value(X[0]) and zt.is_int_value(zt.num(k))


@given(st.lists(st.one_of(st.integers(-10**15, 10**15), st.booleans()), min_size=1, max_size=40),
       st.sampled_from(["pack.legal zp.place", "pack.rule nyz.end.rank", "pack", "pack.a|b"]))
def test_the_constant_arguments_of_an_application_read_in_one_print_as_one_by_one(values, label):
    """constant_args (the replays' and forward checks' reader) gives what `constant` gives for each
    argument — whatever the head's name (quoted when it has spaces) — and None as soon as one
    argument is not a constant."""
    terms = [z3.Int(f"zt.p{i}") if isinstance(v, int) and not isinstance(v, bool) else z3.Bool(f"zt.p{i}")
             for i, v in enumerate(values)]
    pack = z3.Function(label, *[t.sort() for t in terms], z3.BoolSort())
    pairs = [(t, z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)) for t, v in zip(terms, values)]
    got = z3.simplify(z3.substitute(pack(*terms), *pairs))
    one_by_one = [zt.constant(got.arg(i).as_ast()) for i in range(len(values))]
    assert all(x is not None for x in one_by_one)
    assert zt.constant_args(got, len(values)) == one_by_one
    assert [zt.int_of(x) if zt.is_int_value(x) else zt.is_true(x) for x in zt.constant_args(got, len(values))] == values
    assert zt.constant_args(got, len(values) + 1) is None and zt.constant_args(got, len(values) - 1) is None
    open_one = z3.simplify(z3.substitute(pack(*terms), *pairs[1:]))  # the first argument left free
    assert zt.constant_args(open_one, len(values)) is None
