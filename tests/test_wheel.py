"""Installed from a wheel, zoospec carries what it reads: the bundled games, the schema, the piece
sets (issue 43). The wheel is built from a copy of the source and installed into a folder of its
own; the commands then run from elsewhere, on that copy alone."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIP = shutil.ignore_patterns(".git", ".ci-venv", ".ci-wheel", ".ci-wheel-venv", ".venv", ".hypothesis", "build", "dist", "*.egg-info",
                              "__pycache__", "*.so", ".pytest_cache")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the folder the wheel was installed into, the wheel file)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=SKIP)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q",
                    "-w", str(tmp / "dist")], check=True, capture_output=True, timeout=300)
    wheel = next((tmp / "dist").glob("zoospec-*.whl"))
    site = tmp / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    return site, wheel


def _run(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, *args], cwd=site.parent, env=env, capture_output=True, text=True, timeout=300)


def test_the_wheel_holds_the_games_schema_and_piece_sets(installed):
    _, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("zoospec/spec/zooloretto.yaml", "zoospec/spec/new-york-zoo.yaml", "zoospec/spec/schema/zoospec.schema.json",
              "zoospec/spec/packing/pentominoes.txt", "zoospec/spec/packing/rules.yaml", "zoospec/solvers/games/zoo_ography/draft_deals.py"):
        assert f in names
    assert not any(n.startswith("zoospec/spec/bad/") for n in names)  # the refused specs are the tests' own


def test_the_installed_package_is_the_one_that_runs(installed):
    site, _ = installed
    r = _run(site, "-c", "import zoospec; print(zoospec.__file__)")
    assert Path(r.stdout.strip()).is_relative_to(site)


def test_commands_find_their_data_in_the_installed_package(installed):
    """From the wheel alone: validate every bundled spec, list every game's rules, pack, play."""
    site, _ = installed
    specs = sorted((site / "zoospec" / "spec").glob("*.yaml"))
    assert len(specs) == len(list((ROOT / "spec").glob("*.yaml")))
    r = _run(site, "-m", "zoospec.cli", "validate", "--json", *map(str, specs))
    assert r.returncode == 0, r.stderr
    assert all(f["ok"] for f in json.loads(r.stdout)["files"])
    for spec in specs:
        r = _run(site, "-m", "zoospec.cli", "rules", spec.stem, "--json")  # by its bundled name
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["rules"]
    r = _run(site, "-m", "zoospec.cli", "pack", "--pieces", "pentominoes", "--board", "3x20", "--count", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["count"] == 8  # the 2 tilings of 3×20 and their mirror images
    r = _run(site, "-m", "zoospec.cli", "play", "zooloretto", "--seed", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["scores"]
