"""Every rule of a whole-game spec has a known-answer case where it holds and one where it does not,
and every action a case for its effect (the cases themselves run in test_cases.py, through both
back ends)."""
import pytest

from conftest import ROOT, game
from zoospec.yamlload import load_file

GAMES = ["zooloretto", "new-york-zoo"]


def _expectations(name):
    out = {}
    for f in sorted((ROOT / "spec" / "cases" / name).glob("*.yaml")):
        for case in load_file(f).data["cases"]:
            key = case.get("rule") or case.get("action")
            out.setdefault(key, set()).add(case["expect"] if isinstance(case["expect"], bool) else repr(case["expect"]))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_has_a_case_where_it_holds_and_one_where_it_does_not(name):
    g = game(str(ROOT / "spec" / f"{name}.yaml"))
    cases = _expectations(name)
    missing = [r.id for r in g.rules.values() if r.id not in cases]
    assert not missing, f"rules without a case: {missing}"
    one_sided = [r.id for r in g.rules.values() if r.kind in ("legality", "invariant", "end") and not {True, False} <= cases[r.id]]
    assert not one_sided, f"rules that need a legal and an illegal case: {one_sided}"
    no_effect = [a for a in g.actions if a not in cases]
    assert not no_effect, f"actions without an effect case: {no_effect}"
