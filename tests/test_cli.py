"""The command line: validate's one line per file, its exit codes, and --json."""
import json
import subprocess
import sys

from conftest import ROOT


def run(*args):
    return subprocess.run([sys.executable, "-m", "zoospec.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_validate_bundled_specs():
    r = run("validate", "spec/")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == len(list((ROOT / "spec").glob("*.yaml")))
    assert all(": ok — " in line and " rules, " in line and " claims" in line for line in lines)


def test_validate_bad_spec_reports_location_and_exit_2():
    r = run("validate", "spec/bad/unknown-name.yaml")
    assert r.returncode == 2
    assert r.stdout.strip() == "spec/bad/unknown-name.yaml:10:76: rule bad.r: unknown name 'ocupied' (did you mean 'occupied'?)"
    assert "Traceback" not in r.stderr


def test_validate_json():
    r = run("validate", "--json", "spec/bad/type-error.yaml", "tests/specs/ops.yaml")
    assert r.returncode == 2
    data = json.loads(r.stdout)
    bad, good = data["files"]
    assert not bad["ok"] and bad["problems"][0]["rule"] == "bad.r" and bad["problems"][0]["line"] == 10
    assert good["ok"] and good["rules"] == 16 and good["readings"] == 1


def test_state_schema_validates_a_state():
    import jsonschema

    r = run("state-schema", "spec/new-york-zoo.yaml")
    assert r.returncode == 0
    schema = json.loads(r.stdout)
    strip = {str(i): 0 for i in range(30)}
    encs = schema["properties"]["species"]["required"]
    ok = {"seat": "p2s1", "occupied": ["0,13"], "players": 2, "elephant": 11, "stack_left": strip, "placed": [],
          "species": {e: "fox" for e in encs}, "animals_in": {e: 0 for e in encs}, "house": {str(h): "fox" for h in range(4)},
          "house_used": [], "occupying": False, "pending": "enc1", "added": 0, "gain": [],
          "att_used": {k: 0 for k in schema["properties"]["att_used"]["required"]}, "breeding": [], "bred": [],
          "bonus_used": False, "kept": []}
    jsonschema.validate(ok, schema)
    try:
        jsonschema.validate({**ok, "seat": "p9s9"}, schema)
    except jsonschema.ValidationError:
        pass
    else:
        raise AssertionError("an unknown board must not validate")


def test_rules_lists_rules_actions_and_readings():
    r = run("rules", "new-york-zoo", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    kinds = {x["kind"] for x in out["rules"]}
    assert {"legality", "invariant", "end", "action", "reading"} <= kinds
    assert all(x["cite"] and x["says"] for x in out["rules"])
    bad = run("rules", "no-such-game")
    assert bad.returncode == 2 and "no bundled game" in bad.stderr


def test_score_prints_every_scoring_line(tmp_path):
    state = {"extension_bought": False,
             "kind": {"pen4": "camel", "pen5": "zebra", "pen6": "panda", "extension": "camel"},
             "animals": {"pen4": 4, "pen5": 4, "pen6": 3, "extension": 0},
             "stalls": {"pen4": [], "pen5": [], "pen6": ["food"], "extension": []},
             "barn_species": ["leopard", "flamingo"], "barn_stalls": ["drinks"]}
    f = tmp_path / "zoo.json"
    f.write_text(json.dumps(state))
    r = run("score", "zooloretto", str(f), "--json")
    assert r.returncode == 0, r.stderr
    lines = json.loads(r.stdout)["lines"]
    total = next(ln for ln in lines if ln["rule"] == "zlr.score.total")
    assert total["points"] == 9 and total["cite"].startswith("zooloretto-fr.txt")
    strict = json.loads(run("score", "zooloretto", str(f), "--json", "--reading", "near_full_needs_stall=near_full_too").stdout)
    assert next(ln for ln in strict["lines"] if ln["rule"] == "zlr.score.total")["points"] == 4
    f.write_text("{}")
    bad = run("score", "zooloretto", str(f))
    assert bad.returncode == 2 and "missing state variable" in bad.stderr
