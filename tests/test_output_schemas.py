"""The published layouts of every command's --json output (spec/schema/output-*.schema.json):
each is a JSON Schema, each names its output and format version, each output the code emits has
one — and every --json output the suite makes is checked against its schema as it is printed
(ZOOSPEC_CHECK_OUTPUT, tests/conftest.py), so a layout that drifts fails the test that made it."""
from __future__ import annotations

import json
import re

import jsonschema
import pytest
from conftest import ROOT

from zoospec.cli.main import main
from zoospec.front.output import FORMAT, schema_path

SCHEMAS = sorted((ROOT / "spec" / "schema").glob("output-*.schema.json"))
EMITTED = sorted({m for p in [*(ROOT / "zoospec").rglob("*.py"), *(ROOT / "solvers").rglob("*.py")]
                  for m in re.findall(r'emit\("([a-z-]+)"', p.read_text())})


def test_every_output_the_code_prints_has_a_schema_and_every_schema_an_output():
    assert EMITTED and sorted(schema_path(n).name for n in EMITTED) == [p.name for p in SCHEMAS]


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_each_schema_is_a_schema_that_names_its_output_and_format(path):
    doc = json.loads(path.read_text())
    jsonschema.Draft202012Validator.check_schema(doc)
    name = path.name[len("output-"):-len(".schema.json")]
    assert doc["properties"]["output"] == {"const": name} and doc["properties"]["format"]["const"] == FORMAT
    assert {"format", "output"} <= set(doc["required"])


def test_an_output_that_leaves_its_schema_is_an_internal_error_not_printed(monkeypatch, capsys):
    """The check the suite runs on every output catches a drift: a pack result missing its stats."""
    from zoospec.cli import pack

    real = pack._json
    monkeypatch.setattr(pack, "_json", lambda *a: {k: v for k, v in real(*a).items() if k != "stats"})
    assert main(["pack", "--board", "3x5", "--pieces", "pentominoes", "--json"]) == 4
    captured = capsys.readouterr()
    assert "does not follow its published schema" in captured.err and "'stats' is a required property" in captured.err
