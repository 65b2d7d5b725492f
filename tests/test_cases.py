"""Known-answer cases (spec/cases/<game>/*.yaml, tests/specs/cases/*.yaml): each names a rule,
define, action or action's whole legality (`legal:`), a state, arguments and the expected value ("undefined" where the rules give
none; for an action, the expected values of the state variables it lists after its effect), and
is run through both back ends (under the `readings` and `switches` a case names, else its file's). A file's `base_state` gives the state variables its cases leave out;
a file with `start: {players: N}` builds on the spec's start state for N players instead, and
then `base_state` and each case's `state` are merged into it entry by entry (a map given in part
changes only the entries it names); an action's expected variables are likewise the changes to
the state before it, and each listed variable is compared whole."""
from functools import lru_cache

import pytest
from conftest import ROOT, game, same_game

from zoospec.front.yamlload import load_file
from zoospec.ir.types import MapT, SetT
from zoospec.runtime.agreement import Item, compiled, forward
from zoospec.runtime.state import merged, to_json

FILES = sorted((ROOT / "spec" / "cases").rglob("*.yaml")) + sorted((ROOT / "tests" / "specs" / "cases").glob("*.yaml"))


def _cases():
    out = []
    for f in FILES:
        doc = load_file(f).data
        for i, case in enumerate(doc["cases"]):
            case = {**{k: doc[k] for k in ("readings", "switches") if k in doc}, **case}  # a file's own, a case's own wins
            if "start" in doc:
                case = {**case, "start": doc["start"], "state": merged(doc.get("base_state", {}), case["state"])}
            else:
                case = {**case, "state": {**doc.get("base_state", {}), **case["state"]}}
            group = same_game(ROOT / doc["spec"], case.get("readings"), case.get("switches"))  # with its agreement items
            out.append(pytest.param(doc["spec"], case, id=f"{f.stem}[{i}] {case['description'][:50]}", marks=group))
    return out


@lru_cache(maxsize=None)
def _compiled(spec, kind, name, readings=(), switches=()):
    """One compilation per rule, action or define (and choice of readings and switches): a whole
    table's rules take seconds each to compile symbolically, and many cases share one. Labelled
    as the agreement items are, so a worker that compiled the item for those has it here too."""
    g = game(ROOT / spec, dict(readings), dict(switches))
    if kind == "rule":
        r = g.rule(name)
        item = Item(f"rule {name}", r.params, r.body)
    elif kind == "action":
        item = Item(f"action {name} effect", g.action(name).params, None, name)
    elif kind == "legal":  # the action's whole legality: its requirements and what it ensures
        item = Item(f"legal {name}", g.action(name).params, g.legal_expr(name))
    else:
        item = Item(f"define {name}", g.define_sigs[name].params, g.defines[name][1])
    return compiled(g, item)


@pytest.mark.parametrize("spec,case", _cases())
def test_case(spec, case):
    kind = next(k for k in ("rule", "action", "define", "legal") if k in case)
    c = _compiled(spec, kind, case[kind], tuple(sorted(case.get("readings", {}).items())),
                  tuple(sorted(case.get("switches", {}).items())))
    g = c.game
    if "start" in case:
        base = g.state_to_json(g.start_state(case["start"].get("players")))
        state = g.state_from_json(merged(base, case["state"]))
    else:
        state = g.state_from_json(case["state"])
    py, zv = forward(c, state, case.get("args", {}))
    if "action" in case and case["expect"] != "undefined":
        py, zv = ({n: g.state_to_json(v)[n] for n in case["expect"]} for v in (py, zv))
        if "start" in case:  # the expected variables are given as changes to the state before
            before = g.state_to_json(state)
            case = {**case, "expect": {n: merged(before[n], v) for n, v in case["expect"].items()}}
    elif case["expect"] != "undefined" and isinstance(c.type, (SetT, MapT)):  # compare in the JSON format
        py, zv = (to_json(v, c.type, g.domains) for v in (py, zv))
    assert py == case["expect"], f"Python back end: {py!r}"
    assert zv == case["expect"], f"Z3 back end: {zv!r}"


def test_every_game_has_cases():
    for spec in (ROOT / "spec").glob("*.yaml"):
        assert list((ROOT / "spec" / "cases" / spec.stem).glob("*.yaml")), f"no cases for {spec.name}"
