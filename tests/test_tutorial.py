"""docs/tutorial.md cannot rot: every `$ zoospec …` line in its console blocks is run (in a fresh
folder, with the tutorial's paths pointing into this checkout), and every line shown under it must
appear in what it printed."""
from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from zoospec.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"


def steps() -> list[tuple[str, list[str]]]:
    """(command, the lines shown under it) for each `$ zoospec` line of the console blocks."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", TUTORIAL.read_text(), flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif line.strip() and out:
                out[-1][1].append(line.rstrip())
    return out


def test_the_tutorial_has_its_steps():
    assert [cmd.split()[1] for cmd, _ in steps()] == ["validate", "check", "ambiguities", "deal", "play", "play", "solve",
                                                      "fixtures", "conform", "tour"]


def test_every_command_of_the_tutorial_prints_what_it_shows(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZOOSPEC_CACHE", str(tmp_path / "cache"))
    for cmd, shown in steps():
        argv = [a.replace("tests/", f"{ROOT}/tests/").replace("python3 ", f"{sys.executable} ")
                for a in shlex.split(cmd)][1:]
        code = main(argv)
        out = capsys.readouterr().out.replace(f"{ROOT}/", "")
        assert code in (0, 1), (cmd, code)  # 1: a finding (the planted claim, the ambiguity, the reading)
        for line in shown:
            assert line in out, (cmd, line)
    assert (tmp_path / "pen-pals-report" / "index.html").exists() and (tmp_path / "pen-pals-fixtures" / "index.json").exists()
