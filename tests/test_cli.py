"""The command line: validate's one line per file, its exit codes, and --json."""
import json

from conftest import ROOT, game, run_zoospec as run


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
    assert good["ok"] and good["rules"] == 17 and good["readings"] == 1


def test_state_schema_validates_a_state():
    import jsonschema

    from zoospec.solvers.play import playout as play

    r = run("state-schema", "spec/new-york-zoo.yaml")
    assert r.returncode == 0
    schema = json.loads(r.stdout)
    g = game(str(ROOT / "spec" / "new-york-zoo.yaml"))
    ok = g.state_to_json(play.play(g, g.start_state(3), seed=1, max_steps=60).trace.states[-1])   # a 3-player table
    jsonschema.validate(ok, schema)
    for bad in ({"stage": "lunch"}, {"occupied": {**ok["occupied"], "1": ["9,9"]}}, {"players": 6}):
        try:
            jsonschema.validate({**ok, **bad}, schema)
        except jsonschema.ValidationError:
            pass
        else:
            raise AssertionError(f"{bad} must not validate")


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
    example = str(ROOT / "docs" / "examples" / "zooloretto-zoo.json")   # differences from the start state
    r = run("score", "zooloretto", example, "--over-start", "--json")
    assert r.returncode == 0, r.stderr
    lines = json.loads(r.stdout)["lines"]
    totals = {ln["args"]["z"]: ln["points"] for ln in lines if ln["rule"] == "zlr.score.total"}
    assert totals == {1: 11, 2: 10, 3: 0}            # seats 4 and 5 are not in a 3-player game
    assert all(ln["cite"].startswith("zooloretto-fr.txt") for ln in lines)
    strict = json.loads(run("score", "zooloretto", example, "--over-start", "--json",
                            "--reading", "near_full_needs_stall=near_full_too").stdout)
    assert next(ln for ln in strict["lines"] if ln["rule"] == "zlr.score.total" and ln["args"]["z"] == 1)["points"] == 6
    text = run("score", "zooloretto", example, "--over-start").stdout
    assert "z=1:" in text and "zlr.score.full(z=1, p=p4)" in text and "lines scoring 0 not shown" in text
    bad = run("score", "zooloretto", example)         # without --over-start the file is not a whole state
    assert bad.returncode == 2 and "missing state variable" in bad.stderr


def test_a_bug_of_ours_is_an_internal_error_with_exit_4_not_a_traceback(monkeypatch, capsys):
    """The last resort in main: whatever escapes a command is reported, exit 4 (1 means a finding)."""
    from zoospec.cli import main as cli_main
    from zoospec.front import loader

    def broken(*args, **kwargs):
        raise ZeroDivisionError("planted")
    monkeypatch.setattr(loader, "load", broken)
    monkeypatch.setattr(cli_main, "load", broken)
    assert cli_main.main(["validate", "spec/zooloretto.yaml"]) == 4
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError: planted" in err and "Traceback" not in err


def test_a_state_breaking_an_invariant_is_refused_unless_unchecked(tmp_path, capsys):
    """score and play --state check the spec's invariants first: each broken one is named with the
    state variables it reads; --unchecked looks at the broken state on purpose."""
    from zoospec.cli.main import main

    g = game(str(ROOT / "spec" / "zooloretto.yaml"))
    state = g.state_to_json(g.start_state(2))
    state["herd"]["1"]["p4"]["zebra"] = 13  # 13 zebras in a 4-space enclosure
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(state))
    assert main(["score", "zooloretto", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "breaks 1 invariant(s)" in err and "zlr.inv.capacity" in err
    assert "broken for z=1, p=p4; it reads bought, herd, stalls" in err
    assert main(["play", "zooloretto", "--state", str(bad), "--steps", "1"]) == 2
    capsys.readouterr()
    assert main(["score", "zooloretto", str(bad), "--unchecked", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["lines"]
