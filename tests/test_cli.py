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
    assert r.stderr.strip() == "spec/bad/unknown-name.yaml:10:76: rule bad.r: unknown name 'ocupied' (did you mean 'occupied'?)"
    assert "Traceback" not in r.stderr and r.stdout == ""


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


def test_version_and_outputs_checked_before_the_work(tmp_path, capsys):
    """--version; an output file that could not be written is refused before the game is played,
    the packing searched or the deal solved — not after, losing the work."""
    from zoospec.cli.main import main

    assert main(["--version"]) == 0 and capsys.readouterr().out.startswith("zoospec ")
    for argv in (["solve", "zoo-ography", "--seed", "1", "--timeout", "0"], ["play", "zooloretto", "--steps", "-5"],
                 ["tour", "--budget", "-1"], ["pack", "--pieces", "pentominoes", "--board", "3x20", "--all", "0"]):
        assert main(argv) == 2, argv  # numbers are checked alike by every command
        assert "must be" in capsys.readouterr().err
    assert main(["pack", "--pieces", "pentomino", "--board", "3x20"]) == 2
    assert "bundled sets: dominoes, pentominoes, tetrominoes" in capsys.readouterr().err
    assert main(["state-schema", "zooloretto"]) == 0 and json.loads(capsys.readouterr().out)["type"] == "object"
    missing = str(tmp_path / "no-such-folder" / "out.svg")
    assert main(["play", "zooloretto", "--seed", "1", "--svg", missing]) == 2
    assert f"--svg {missing}: no folder" in capsys.readouterr().err
    assert main(["pack", "--pieces", "pentominoes", "--board", "3x20", "--svg", str(tmp_path)]) == 2
    assert "is a folder, not a file" in capsys.readouterr().err
    assert main(["solve", "zoo-ography", "--seed", "1", "--plan", missing]) == 2
    assert "--plan" in capsys.readouterr().err


def test_bad_json_inputs_get_a_line_naming_the_file_never_a_traceback(tmp_path, capsys):
    """One JSON reader for score, play --state and replay (front/jsonfile.py): each kind of bad file
    is refused with exit 2 and a message that names it."""
    from zoospec.cli.main import main

    cases = {
        "missing.json": None,
        "folder": "DIR",
        "empty.json": b"",
        "binary.json": bytes(range(256)),
        "latin1.json": '{"players": "caf\xe9"}'.encode("latin-1"),
        "truncated.json": b'{"players": 3, "herd": {',
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "list.json": b"[1, 2, 3]",
        "duplicate.json": b'{"players": 3, "players": 4}',
        "no-source.json": b'{"#meta": {"format": "ITF"}, "states": "lots"}',
    }
    for name, content in cases.items():
        f = tmp_path / name
        if content == "DIR":
            f.mkdir()
        elif content is not None:
            f.write_bytes(content)
        for argv in (["score", "zooloretto", str(f)], ["play", "zooloretto", "--state", str(f)], ["replay", str(f)]):
            code = main(argv)
            err = capsys.readouterr().err
            assert code == 2, (name, argv, err)
            assert str(f) in err and "Traceback" not in err and "internal error" not in err, (name, argv, err)


def test_the_final_picture_carries_the_scores_and_the_winner(tmp_path, capsys):
    from zoospec.cli.main import main

    svg = tmp_path / "end.svg"
    assert main(["play", "zooloretto", "--players", "3", "--seed", "1", "--quiet", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    winner = next(ln.strip() for ln in out.splitlines() if ln.strip().startswith("highest:"))
    title = svg.read_text().split("</text>")[0]
    assert "z=1: " in title and "z=3: " in title and winner in title


def test_a_choice_a_reading_lacks_is_one_error_listing_the_choices(capsys):
    """Not three, two of them wrong (that the reading does not exist, that a rule using it names
    something unknown): the one mistake, where the reading is, and what could be chosen."""
    from zoospec.cli.main import main

    assert main(["check", "zooloretto", "--reading", "buy_what=everything"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.endswith("reading 'buy_what' has no choice 'everything' (its choices: animal_only, any_tile)")
    assert "zooloretto.yaml:" in line


def test_fixtures_replace_their_own_corpus_and_refuse_another(tmp_path, capsys):
    """`fixtures --out DIR` over a corpus of the same game replaces it (files it no longer writes
    go); over another game's corpus, or a folder with some other index.json, it refuses before
    any work and touches nothing."""
    from zoospec.cli.main import main

    clean, planted = str(ROOT / "tests/quality/specs/clean.yaml"), str(ROOT / "tests/quality/specs/planted.yaml")
    out = tmp_path / "corpus"
    assert main(["fixtures", clean, "--out", str(out), "--timeout", "30"]) == 0
    (out / "clean.gone.json").write_text("[]")  # a file of an older corpus, listed in its index
    index = json.loads((out / "index.json").read_text())
    index["files"].append({"file": "clean.gone.json", "subject": "clean.gone", "fixtures": 0})
    (out / "index.json").write_text(json.dumps(index))
    assert main(["fixtures", clean, "--out", str(out), "--timeout", "30"]) == 0
    assert not (out / "clean.gone.json").exists() and (out / "index.json").exists()
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert main(["fixtures", planted, "--out", str(out), "--timeout", "30"]) == 2
    assert "holds the corpus of 'clean'" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_result_file_is_whole_or_absent(tmp_path, monkeypatch):
    """zoospec.files.write_text: the text appears all at once; a write that fails half way leaves
    the old file as it was and no temporary file beside it."""
    import pytest

    from zoospec import files

    target = tmp_path / "plan.json"
    files.write_text(target, "old")
    real_replace = __import__("os").replace

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr("os.replace", disk_full)
    with pytest.raises(OSError):
        files.write_text(target, "new")
    monkeypatch.setattr("os.replace", real_replace)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["plan.json"]
    files.write_text(target, "new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["plan.json"]


def test_interactive_play_with_standard_input_closed_stops_and_keeps_the_game():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "zoospec.cli", "play", "zooloretto", "--players", "2", "--interactive"],
                       cwd=ROOT, input="0\nq\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "ended after 1 moves: the player stopped" in r.stdout and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "zoospec.cli", "play", "zooloretto", "--players", "2", "--interactive"],
                       cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "standard input closed" in r.stdout and "ended after 0 moves" in r.stdout


def test_under_json_an_error_is_an_object_on_standard_output():
    r = run("score", "zooloretto", "/no/such/state.json", "--json")
    assert r.returncode == 2 and "cannot read it" in r.stderr
    err = json.loads(r.stdout)["error"]
    assert err["exit_code"] == 2 and "/no/such/state.json" in err["message"]
    r = run("pack", "--board", "0x3", "--pieces", "pentominoes", "--json")
    err = json.loads(r.stdout)["error"]
    assert r.returncode == 2 and err["problems"] == ["0x3:1:1: a board is 1 to 200 cells on each side"]
