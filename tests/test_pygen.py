"""The generated Python back end (backends/pygen.py): what it writes is safe to run whatever the
spec holds, readable (`rules --show-python`), and the same predicate as the closures — here on
hand-made states with undefined corners; on Hypothesis states of every spec in test_agreement's
forward checks; and a planted defect in the generator is caught (tests/quality)."""
import json
import os

import pytest
from conftest import ROOT, game

import zoospec
from zoospec import ir
from zoospec.backends.pygen import GenCompiler
from zoospec.backends.python import MEMO, PyCompiler
from zoospec.cli.main import main
from zoospec.errors import SpecError, Undefined
from zoospec.ir.types import BOOL, INT, AtomT, SetT

OPS = str(ROOT / "tests" / "specs" / "ops.yaml")
CANARY = "/tmp/zoospec-pygen-canary"
CODE = "__import__('os').system('touch " + CANARY + "')"

# atoms a generator that wrote spec text into its source would run, or break on
NASTY = ["a'b", 'q"q', "back\\slash", "new\nline", "x'); " + CODE + "; ('", "__import__", "ｅｖａｌ",
         "')\n" + CODE + "\n#", '"""', "\\'"]

@pytest.mark.parametrize("atom", NASTY, ids=range(len(NASTY)))
def test_hostile_atoms_are_refused_at_load(atom, tmp_path):
    """An atom holding quotes, newlines, backslashes, code or look-alike letters is no identifier:
    refused where the spec is read, with its place in the file."""
    path = tmp_path / "h.yaml"
    path.write_text("game: {id: h, title: H, rulebook: none.txt}\n"
                    f"components:\n  domains:\n    thing: {{enum: [ok, {json.dumps(atom)}]}}\n"
                    "state: {who: thing}\n"
                    "rules:\n  - {id: h.r, cite: {section: S}, says: s, kind: legality, body: \"who == ok\"}\n")
    with pytest.raises(SpecError) as err:
        zoospec.load(path)
    assert str(err.value).startswith(f"{path}:4:")


def test_the_generator_writes_hostile_text_only_as_data():
    """Beside the load checks: IR built by hand with hostile text in every place a name or a
    value can sit (state variable, field, atom, define and parameter names) compiles to code
    that reads them as data — right values, and the canary file the text would create is absent."""
    if os.path.exists(CANARY):
        os.remove(CANARY)
    thing = AtomT("thing")
    var, field, atom, define, param = NASTY[4], NASTY[7], NASTY[1], NASTY[0], NASTY[3]
    rec = ir.StateVar(var, BOOL)
    is_atom = ir.Compare("==", ir.Field(rec, field, thing), ir.Lit(atom, thing), BOOL)
    call = ir.Call(define, (ir.Field(rec, field, thing),), BOOL)
    body = ir.And((is_atom, call), BOOL)
    defines = {define: ([param], ir.Compare("!=", ir.Local(param, thing), ir.Lit(NASTY[2], thing), BOOL))}
    gen = GenCompiler(None, defines, {})
    f = gen.compile(body)
    assert f({var: {field: atom}}, {MEMO: {}}) is True
    assert f({var: {field: NASTY[5]}}, {MEMO: {}}) is False
    src = gen.source(body)
    assert "system" not in src.replace(repr(var), "").replace(repr(field), "").replace(repr(define), "")
    assert not os.path.exists(CANARY)


@pytest.mark.parametrize("name", ["bad'name", "new\nline", "__import__", "ｅｖａｌ", "a b", "st"])
def test_hostile_names_never_become_identifiers(name, tmp_path, monkeypatch):
    """A state variable named with code, look-alikes or a name the generator uses itself: refused
    where the spec is read, or carried as a dictionary key — never an identifier in the code."""
    monkeypatch.delenv("ZOOSPEC_PYTHON", raising=False)
    path = tmp_path / "h.yaml"
    path.write_text("game: {id: h, title: H, rulebook: none.txt}\n"
                    f"state: {{{json.dumps(name)}: \"int[0..3]\"}}\n"
                    "rules:\n  - {id: h.r, cite: {section: S}, says: s, kind: scoring, body: \"1\"}\n")
    try:
        g = zoospec.load(path)
    except SpecError:
        return
    assert name == "st"  # the only one of these the language allows as a name
    g = zoospec.loads(path.read_text().replace('body: "1"', 'body: "st + 1"'), str(path))
    body = g.rule("h.r").body
    assert g.evaluate(body, {"st": 2}) == 3 and "st['st']" in g.python_backend.source(body)


def _both(g, e, state):
    """(generated, closures): each the value, or ('undefined', reason, where)."""
    out = []
    for comp in (GenCompiler(g.domains, g.defines, g.state_types), PyCompiler(g.domains, g.defines, g.state_types)):
        try:
            out.append(comp.compile(e)(state, {MEMO: {}}))
        except Undefined as u:
            out.append(("undefined", u.reason, str(u.loc)))
    return out


def _ops_state(**changes):
    st = {"n": 1, "m": 2, "flag": True, "who": "owl", "count": {"fox": 1, "owl": 2, "elk": 0},
          "seen": frozenset({"owl"}), "slots": {0: "fox", 1: "owl", 2: "elk", 3: "fox"},
          "rec": {"a": 1, "b": True}, "grid2": {(a, s): s % 2 == 0 for a in ("fox", "owl", "elk") for s in range(4)}}
    return {**st, **changes}


@pytest.mark.parametrize("n,m", [(3, 0), (3, 2), (-3, 2), (0, -3)])
def test_division_agrees_with_the_closures_undefined_included(n, m):
    g = game(OPS)
    gen, ref = _both(g, g.rule("ops.div").body, _ops_state(n=n, m=m))
    assert gen == ref
    assert isinstance(gen, tuple) == (m == 0)


@pytest.mark.parametrize("count,unique", [({"fox": 1, "owl": 1, "elk": 1}, False), ({"fox": 3, "owl": 1, "elk": 1}, True)])
def test_the_without_one_candidate_is_undefined_in_both_with_one_message(count, unique):
    g = game(OPS)
    gen, ref = _both(g, g.defines["heaviest"][1], _ops_state(count=count))
    assert gen == ref and (gen == "fox") == unique
    if not unique:
        assert gen[1] == "the(...) needs exactly one candidate, found 0"


def test_show_python_prints_the_generated_source_of_a_rule(capsys, monkeypatch):
    monkeypatch.delenv("ZOOSPEC_PYTHON", raising=False)
    assert main(["rules", OPS, "--show-python", "ops.cmp"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("def f") and "st['n']" in out and "return" in out
    assert main(["rules", OPS, "--show-python", "no.such.rule"]) == 2
    assert "no rule 'no.such.rule' with a body, action or define" in capsys.readouterr().err


# -- a value met twice is worked out once, and only where its first working is sure to have run
_X, _FLAG = ir.Local("x", INT), ir.StateVar("flag", BOOL)
_HALF = {"half": (["n"], ir.Arith("//", ir.Lit(10, INT), ir.Local("n", INT), INT))}  # undefined at 0


def _half(arg=_X):
    return ir.Call("half", (arg,), INT)


def _plus(a, b):
    return ir.Arith("+", a, b, INT)


def _sum_over(var, items, elt):
    clause = ir.Clause(var, ir.Lit(frozenset(items), SetT(INT)), ())
    return ir.Agg("sum", elt, (clause,), INT)


SHARING = {
    # half(x) + half(x) * 2: one call, its value read again
    "twice": (_plus(_half(), ir.Arith("*", _half(), ir.Lit(2, INT), INT)), {"x": 5}, True, 6),
    "twice, undefined": (_plus(_half(), _half()), {"x": 0}, True, ("undefined", "division by zero")),
    # half(x) + sum(half(x) for x in {1, 2}): the inner x is another x
    "shadowed": (_plus(_half(), _sum_over("x", {1, 2}, _half())), {"x": 5}, True, 17),
    # (flag and half(x) > 1) or half(x) == 5: the first call does not run when flag is false
    "after an and": (ir.Or((ir.And((_FLAG, ir.Compare("<", ir.Lit(1, INT), _half(), BOOL)), BOOL),
                            ir.Compare("==", _half(), ir.Lit(5, INT), BOOL)), BOOL), {"x": 2}, False, True),
    # (half(x) if flag else 0) + half(x): nor in the branch not taken
    "after an if": (_plus(ir.Ite(_FLAG, _half(), ir.Lit(0, INT), INT), _half()), {"x": 5}, False, 2),
    # not flag -> half(x) == 2, then half(x) again
    "after an implies": (ir.And((ir.Implies(ir.Not(_FLAG, BOOL), ir.Compare("==", _half(), ir.Lit(2, INT), BOOL), BOOL),
                                 ir.Compare("==", _half(), ir.Lit(2, INT), BOOL)), BOOL), {"x": 5}, True, True),
    # sum(half(x) for y in {}) + half(x): worked inside a comprehension (here never), not bound outside it
    "after a comprehension": (_plus(_sum_over("y", set(), _half()), _half()), {"x": 5}, True, 2),
    # half(x) + sum(half(x) + y for y in {1, 2}): read inside the comprehension, bound before it
    "read in a comprehension": (_plus(_half(), _sum_over("y", {1, 2}, _plus(_half(), ir.Local("y", INT)))), {"x": 5}, True, 9),
}


@pytest.mark.parametrize("case", list(SHARING))
def test_a_shared_value_is_the_closures_value_on_every_path(case):
    """Each body, generated and as closures, on a state where a wrongly shared value would be
    unbound (NameError), stale (the outer x for the inner one) or undefined where it is not."""
    body, env, flag, expected = SHARING[case]
    out = []
    for comp in (GenCompiler(None, _HALF, {}), PyCompiler(None, _HALF, {})):
        try:
            out.append(comp.compile(body)({"flag": flag}, {**env, MEMO: {}}))
        except Undefined as u:
            out.append(("undefined", u.reason))
    assert out == [expected, expected]


def test_a_repeated_call_is_written_once_and_read_from_a_local():
    gen = GenCompiler(None, _HALF, {})
    body = SHARING["twice"][0]
    top = gen.source(body).split("\n\n")[0]
    fn = gen._defs["half"]
    assert top.count(f"{fn}(") == 1 and f":= {fn}(" in top
    # a branch's call is not read after the branch: two calls
    top = gen.source(SHARING["after an if"][0]).split("\n\n")[0]
    assert top.count(f"{fn}(") == 2 and ":=" not in top
