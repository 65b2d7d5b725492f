"""A spec's `packing` section: which constants are a packing question's boards and pieces.

The section names constants, never code: the boards (a map[K] set[cell]) with a key pattern that
picks one from `--players` and `--seat`, and piece sets (a map[K] shape, optionally a map[K] int
of counts, plus tags). The names and their types are checked here, at load, so `zoospec
validate` reports a wrong one where it is written; solvers/packing/game.py builds the boards and
pieces from the constants.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import Loc
from ..ir.types import IntT, MapT, SetT, ShapeT
from ..suggest import suggest


@dataclass(frozen=True)
class PieceSet:
    shapes: str                 # a constant map[K] shape
    counts: str | None          # a constant map[K] int (None: one of each)
    tags: tuple[str, ...]


@dataclass(frozen=True)
class Packing:
    boards: str                 # a constant map[K] set[cell]
    key: str                    # the board for --players N --seat K: {players} and {seat} filled in
    pieces: tuple[PieceSet, ...]
    loc: Loc                    # where the section is, for the errors of `pack --game`


_WANT = {
    "boards": (lambda t: isinstance(t, MapT) and isinstance(t.value, SetT), "map[K] set[cell]"),
    "shapes": (lambda t: isinstance(t, MapT) and isinstance(t.value, ShapeT), "map[K] shape"),
    "counts": (lambda t: isinstance(t, MapT) and isinstance(t.value, IntT), "map[K] int"),
}


def load(loader, raw: dict) -> Packing | None:
    """Build the section (errors go to the loader, located in the file); None if it is broken."""
    p = ("packing",)
    ok = _constant(loader, raw["boards"]["constant"], "boards", p + ("boards", "constant"))
    sets = []
    for i, entry in enumerate(raw["pieces"]):
        ok = _constant(loader, entry["shapes"], "shapes", p + ("pieces", i, "shapes")) and ok
        if "counts" in entry:
            ok = _constant(loader, entry["counts"], "counts", p + ("pieces", i, "counts")) and ok
        sets.append(PieceSet(entry["shapes"], entry.get("counts"), tuple(entry.get("tags", ()))))
    if not ok:
        return None
    return Packing(raw["boards"]["constant"], raw["boards"]["key"], tuple(sets), loader.doc.loc(p))


def _constant(loader, name: str, role: str, path) -> bool:
    consts = loader.g.consts
    if name not in consts:
        loader.err(path, f"packing names constant '{name}', which the spec does not define{suggest(name, consts)}")
        return False
    ok, want = _WANT[role]
    if not ok(consts[name][0]):
        loader.err(path, f"packing constant '{name}' has type {consts[name][0]}; expected {want}")
        return False
    return True
