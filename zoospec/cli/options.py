"""Options several commands share, declared once, and the checks on what they name."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

import yaml

from ..engines import dump
from ..errors import StateError
from ..front.output import emit


def add_game_choices(p):
    """`--reading ID=CHOICE` and `--with SWITCH,...`: which meaning of an ambiguous sentence, and
    which variants or expansions, the game is loaded under (front/catalog.py reads them)."""
    p.add_argument("--reading", action="append", metavar="ID=CHOICE", help="choose a reading (repeatable)")
    p.add_argument("--with", dest="switches", action="append", metavar="SWITCH,...",
                   help="turn on variants or expansions (the spec's switches)")


def add_set(p):
    """`--set VAR=VALUE`: a variable the player chooses, set before chance deals the rest."""
    p.add_argument("--set", dest="fixed", action="append", metavar="VAR=VALUE",
                   help="with --seed: a deal variable the player chooses, set before chance deals the rest; repeatable "
                        "(Zoo-ography: advanced=true for the advanced game, advanced_layout=true for the layout card's advanced side)")


def fixed_deal(given: list[str] | None) -> dict:
    """`--set advanced=true --set card=l2`: deal variables and their values (YAML, read safely, so
    a map can be given whole); whether each is a deal variable of the game, of its type, is the
    dealing's to say."""
    out = {}
    for part in (text.strip() for text in given or []):
        name, eq, value = (s.strip() for s in part.partition("="))
        if not eq or not name or not value:
            raise StateError(f"--set: expected VAR=VALUE, got {part!r}")
        try:
            out[name] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise StateError(f"--set {name}: {value!r} is not a value") from None
    return out


def check_writable(**paths):
    """Refuse, before any work is done, an output file that could not be written afterwards: its
    folder missing or not writable, or the path a folder (`--svg=...` names the option)."""
    for option, path in paths.items():
        if path is None:
            continue
        p = Path(path)
        folder = p.parent if str(p.parent) else Path(".")
        if p.is_dir():
            raise StateError(f"--{option.replace('_', '-')} {path}: is a folder, not a file")
        if not folder.is_dir():
            raise StateError(f"--{option.replace('_', '-')} {path}: no folder {folder}")
        if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
            raise StateError(f"--{option.replace('_', '-')} {path}: cannot be written here")


def positive(text: str) -> float:
    """An argparse type: seconds (or any amount) above zero — every command checks numbers alike."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def at_least(lowest: int):
    """An argparse type: a whole number no smaller than `lowest`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < lowest:
            raise argparse.ArgumentTypeError(f"must be at least {lowest}, got {value}")
        return value
    return parse


def add_dump_smt2(p):
    p.add_argument("--dump-smt2", metavar="DIR",
                   help="write every query asked as a standalone SMT-LIB file in DIR, its answer in :status once known "
                        "(to try another solver on exactly what zoospec asks)")


def start_dump(args):
    """Turn on --dump-smt2 before any query is asked; refuse a folder that cannot be written."""
    folder = getattr(args, "dump_smt2", None)
    if folder is None:
        return
    p = Path(folder)
    if p.exists() and not p.is_dir():
        raise StateError(f"--dump-smt2 {folder}: is a file, not a folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StateError(f"--dump-smt2 {folder}: cannot be made ({e.strerror})")
    if not os.access(p, os.W_OK):
        raise StateError(f"--dump-smt2 {folder}: cannot be written here")
    dump.into(p)


def error_as_json(args, message: str, code: int, problems: list[str] | None = None) -> int:
    """Under --json, an error is also an object on standard output (the human line went to
    standard error): {"error": {"message", "problems", "exit_code"}}. Returns the code."""
    if getattr(args, "json", False):
        emit("error", {"error": {"message": message, "problems": problems or [message], "exit_code": code}})
    return code
