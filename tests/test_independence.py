"""Claims over: independence (solvers/analysis/independence.py) on tests/specs/layers.yaml: a pile of cards
whose covered card is kept in the state. Taking a card away either leaves the space empty (the
claim holds: nothing reads what lies below) or shows the card below (it fails, with a pair of
states that `zoospec replay` re-checks)."""
import json

from conftest import ROOT, game

from zoospec.cli.main import main
from zoospec.solvers import traces
from zoospec.solvers.analysis import claims

LAYERS = str(ROOT / "tests" / "specs" / "layers.yaml")


def _verdict(g):
    (c,) = g.claims.values()
    return claims.check(g, c, timeout=60)


def test_nothing_depends_on_the_covered_card_when_a_taken_card_leaves_the_space_empty():
    """The take's `if lift:` reads a reading that is false: only its else-branch counts, so the
    take never reads `below`; the invariant does, and Z3 proves it the same on both states."""
    v = _verdict(game(LAYERS))
    assert v.verdict == "holds"
    assert v.detail == "none of 5 rules and actions depends on below: 4 never read them, 1 proved independent (UNSAT)"


def test_showing_the_card_below_breaks_it_and_the_pair_replays(tmp_path, capsys):
    g = game(LAYERS).with_readings({"lift": "reveal"})
    v = _verdict(g)
    assert v.verdict == "fails" and "layers.take leaves top different" in v.detail
    s1, s2 = v.trace.states
    assert s1["top"] == s2["top"] and s1["taken"] == s2["taken"] and s1["below"] != s2["below"]
    assert v.trace.pair["item"] == "layers.take"
    f = tmp_path / "pair.json"
    f.write_text(json.dumps(v.trace.to_itf()))
    assert main(["replay", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["steps"][0]["ok"]
    data = json.loads(f.read_text())
    data["states"][1]["below"] = data["states"][0]["below"]  # the same state twice: nothing told apart
    f.write_text(json.dumps(data))
    assert main(["replay", str(f), "--json"]) == 1
    loaded = traces.load_itf(g, data)
    assert loaded.pair is not None and not traces.replay(loaded)[0].ok


def test_a_rule_that_reads_the_covered_card_is_found_too(tmp_path, capsys):
    """A scoring rule counting covered cards depends on them: Z3 finds two states it scores
    differently, and the check command exits 1 with the pair."""
    text = open(LAYERS, encoding="utf-8").read().replace(
        'body: "sum(top[s] for s in space)"', 'body: "sum(top[s] + below[s] for s in space)"')
    spec = tmp_path / "layers.yaml"
    spec.write_text(text, encoding="utf-8")
    assert main(["check", str(spec), "--json"]) == 1
    (c,) = json.loads(capsys.readouterr().out)["claims"]
    assert c["verdict"] == "fails" and "layers.score is" in c["detail"]
