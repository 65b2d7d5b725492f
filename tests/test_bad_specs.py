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
