"""Specs that must fail: each file in spec/bad/ names its expected message on its first line
(`# expect: ...`); loading must raise SpecError with that text and no other exception."""
from pathlib import Path

import pytest

import zoospec
from conftest import ROOT

BAD = sorted((ROOT / "spec" / "bad").glob("*.yaml"))


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_spec_fails_with_its_message(path: Path, monkeypatch):
    monkeypatch.chdir(ROOT)
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name} must name its expected message"
    expected = first[len("# expect: "):]
    rel = str(path.relative_to(ROOT))
    with pytest.raises(zoospec.SpecError) as err:
        zoospec.load(rel)
    text = str(err.value)
    assert expected in text, f"expected {expected!r} in:\n{text}"
    for p in err.value.problems:
        assert p.loc.file == rel and p.loc.line >= 1, f"problem without a position: {p}"


def test_there_are_bad_specs():
    assert len(BAD) >= 15


RESIZED = """
game:
  id: two
  title: Two
  rulebook: none.txt
  switches:
    longer: {default: false, says: ten turns, cite: {section: S}}
    longest: {default: false, says: twelve turns, cite: {section: S}}
components:
  domains:
    turn:
      range: [1, 9]
      with: {longer: [1, 10], longest: [1, 12]}
state:
  n: turn
rules:
  - {id: two.n, cite: {section: S}, says: s, kind: invariant, body: "n >= 1"}
"""


@pytest.mark.parametrize("switches,last", [({}, 9), ({"longer": True}, 10), ({"longest": True}, 12)])
def test_a_switch_resizes_a_range_domain(switches, last):
    g = zoospec.loads(RESIZED, switches=switches)
    assert g.domains["turn"].atoms == list(range(1, last + 1))


def test_component_data_keyed_by_numbers_a_switch_adds_is_read_without_them():
    """A constant keyed by a range the switch widens (Zoo-ography's region markers, one per
    region World Exhibits adds): without the switch its extra entries are left out, as an enum's
    are; a number no switch adds is still an error."""
    spec = RESIZED.replace("state:", "  constants:\n    late: {type: \"map[turn] int\", value: {%s}}\nstate:")
    keys = ", ".join(f"{n}: {n * 10}" for n in range(1, 13))
    assert zoospec.loads(spec % keys).consts["late"][1] == {n: n * 10 for n in range(1, 10)}
    assert zoospec.loads(spec % keys, switches={"longest": True}).consts["late"][1][12] == 120
    with pytest.raises(zoospec.SpecError) as err:
        zoospec.loads(spec % (keys + ", 13: 130"))
    assert "key '13' is not a value of turn" in err.value.problems[0].message


def test_two_switches_resizing_one_domain_are_refused_with_their_line():
    with pytest.raises(zoospec.SpecError) as err:
        zoospec.loads(RESIZED, switches={"longer": True, "longest": True})
    (p,) = err.value.problems
    assert "switches longer and longest both resize domain 'turn'" in p.message and p.loc.line == 13


GROWN = """
game:
  id: grown
  title: Grown
  rulebook: none.txt
  switches:
    multi: {default: false, says: several players, cite: {section: S}}
    expo: {default: false, needs: [multi], says: sponsors, cite: {section: S}}
components:
  domains:
    kind:
      enum: [zebra, secluded]
      with: {expo: [lion, secluded_large]}
  constants:
    big: {type: "set[kind]", value: [lion, secluded_large]}
    worth: {type: "map[kind] int", value: {zebra: 1, secluded: 1, lion: 2, secluded_large: 2}}
state:
  k: kind
rules:
  - {id: grown.k, cite: {section: S}, says: s, kind: invariant, body: "k not in big or worth[k] == 2"}
"""


def test_a_switch_adds_enum_values_after_the_others():
    """With the switch the new values come last (every other value keeps its code); without it,
    component data naming them is read with those entries left out."""
    g = zoospec.loads(GROWN, switches={"multi": True, "expo": True})
    assert g.domains["kind"].atoms == ["zebra", "secluded", "lion", "secluded_large"]
    assert g.consts["big"][1] == {"lion", "secluded_large"} and g.consts["worth"][1]["lion"] == 2
    plain = zoospec.loads(GROWN)
    assert plain.domains["kind"].atoms == ["zebra", "secluded"]
    assert plain.consts["big"][1] == frozenset() and plain.consts["worth"][1] == {"zebra": 1, "secluded": 1}


def test_a_switch_without_the_one_it_needs_is_refused_with_its_line():
    with pytest.raises(zoospec.SpecError) as err:
        zoospec.loads(GROWN, switches={"expo": True})
    (p,) = err.value.problems
    assert "switch expo needs switch multi on as well" in p.message and p.loc.line == 8


def test_a_value_a_switch_adds_named_in_a_rule_while_it_is_off_says_so():
    text = GROWN.replace('body: "k not in big or worth[k] == 2"', 'body: "k != lion"')
    with pytest.raises(zoospec.SpecError) as err:
        zoospec.loads(text)
    assert "'lion' is a value of kind only while the switch that adds it is on" in str(err.value)
    assert zoospec.loads(text, switches={"multi": True, "expo": True}).rules["grown.k"]


def test_a_rule_that_fails_to_build_is_not_reported_again_where_it_is_named(monkeypatch):
    """spec/bad/unbuilt-rule.yaml: a scoring rule with an ambiguous value in its body, named by
    final_score, and an effect rule with a syntax error, named by an action. Only the two rules'
    own problems are reported: "'bad.points' is not a scoring rule" came first (line 8) before,
    sorted ahead of its cause."""
    monkeypatch.chdir(ROOT)
    with pytest.raises(zoospec.SpecError) as err:
        zoospec.load("spec/bad/unbuilt-rule.yaml")
    assert [(p.loc.line, p.loc.rule) for p in err.value.problems] == [(17, "bad.points"), (18, "bad.score")]
