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
from zoospec.ir.types import BOOL, AtomT

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
    assert g.evaluate(body, {"st": 2}) == 3 and "st['st']" in g.py.source(body)


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
