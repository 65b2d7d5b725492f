"""The hand-writable packing format (docs/packing.md): boards and pieces drawn in ASCII art.

    ; a comment
    board L-room            <- optional header; a file with no header is one board
    ####
    ##..
    piece F x2 tags=big,red <- a piece, its count (default 1) and tags
    .##
    ##.
    .#.

`#` is a cell, `.` no cell. Blocks end at the next header; blank lines are ignored.
Errors name the file and line, and never show a traceback.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from zoospec.builtins.polyomino import Shape
from zoospec.errors import Loc, Problem, SpecError
from zoospec.front.catalog import SPEC_DIR
from zoospec.suggest import suggest

from .model import Board, Piece

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
MAX_TEXT = 1_000_000
MAX_SIDE = 200


@dataclass
class Parsed:
    boards: list[Board]
    pieces: list[Piece]


def _fail(file, line, msg):
    raise SpecError([Problem(Loc(file, line, 1), msg)])


def parse(text: str, file: str = "<string>") -> Parsed:
    if len(text) > MAX_TEXT:
        _fail(file, 1, f"file is larger than {MAX_TEXT} characters")
    blocks: list[tuple[str, list[str], int, list[str]]] = []  # kind, header words, line, rows
    current = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0].rstrip()
        if not line.strip():
            continue
        words = line.split()
        if words[0] in ("board", "piece"):
            current = (words[0], words[1:], n, [], [])
            blocks.append(current)
            continue
        if not re.fullmatch(r"[#.]+", line.strip()):
            _fail(file, n, f"expected a row of '#' (cell) and '.' (no cell), or a 'board'/'piece' header; got {line.strip()!r}")
        if current is None:
            current = ("board", [], n, [], [])
            blocks.append(current)
        current[3].append(line.strip())
        current[4].append(n)
        if len(current[3]) > MAX_SIDE or len(line.strip()) > MAX_SIDE:
            _fail(file, n, f"a drawing may be at most {MAX_SIDE} cells high and wide")
    boards, pieces = [], []
    for kind, words, n, rows, _ in blocks:
        if not rows:
            _fail(file, n, f"{kind} has no rows under its header")
        if not any("#" in row for row in rows):
            _fail(file, n, f"{kind} has no cells: '#' marks a cell, '.' a place without one")
        if kind == "board":
            if len(words) > 1:
                _fail(file, n, "a board header is 'board' or 'board NAME'")
            boards.append(Board.from_rows(rows, words[0] if words else Path(file).stem))
        else:
            pieces.append(_piece(words, rows, file, n))
    names = [p.name for p in pieces]
    for p in pieces:
        if names.count(p.name) > 1:
            _fail(file, 1, f"piece name {p.name!r} is used twice")
    return Parsed(boards, pieces)


def _piece(words, rows, file, n) -> Piece:
    if not words or not NAME.match(words[0]):
        _fail(file, n, "a piece header is 'piece NAME [xCOUNT] [tags=a,b]' with NAME a letter then letters, digits or _")
    count, tags = 1, ()
    for w in words[1:]:
        if re.fullmatch(r"x\d+", w):
            count = int(w[1:])
            if not 1 <= count <= 1000:
                _fail(file, n, f"piece {words[0]}: count must be between 1 and 1000, got {count}")
        elif w.startswith("tags="):
            tags = tuple(t for t in w[5:].split(",") if t)
            bad = [t for t in tags if not NAME.match(t)]
            if bad:
                _fail(file, n, f"piece {words[0]}: tag {bad[0]!r} is not a name")
        else:
            _fail(file, n, f"piece {words[0]}: unexpected {w!r}; expected xCOUNT or tags=a,b")
    shape = Shape.from_rows(rows)
    if not _connected(shape):
        _fail(file, n, f"piece {words[0]} is not connected (cells must touch edge to edge)")
    return Piece(words[0], shape, count, tags)


def _connected(shape: Shape) -> bool:
    cells = set(shape.cells)
    stack, seen = [shape.cells[0]], {shape.cells[0]}
    while stack:
        r, c = stack.pop()
        for d in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if d in cells and d not in seen:
                seen.add(d)
                stack.append(d)
    return len(seen) == len(cells)


def read(path: str) -> Parsed:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError([Problem(Loc(str(path), 1, 1), f"cannot read: {e}")])
    return parse(text, str(path))


RECT = re.compile(r"^(\d+)x(\d+)$")


def board_arg(arg: str) -> Board:
    """--board: 'RxC' for a rectangle of R rows and C columns, else a file holding one board."""
    m = RECT.match(arg)
    if m:
        h, w = int(m.group(1)), int(m.group(2))
        if not (1 <= h <= MAX_SIDE and 1 <= w <= MAX_SIDE):
            _fail(arg, 1, f"a board is 1 to {MAX_SIDE} cells on each side")
        return Board.rectangle(h, w)
    parsed = read(arg)
    if len(parsed.boards) != 1:
        _fail(arg, 1, f"expected exactly one board in the file, found {len(parsed.boards)}")
    return parsed.boards[0]


def pieces_arg(arg: str) -> list[Piece]:
    """--pieces: a file of piece blocks, or the name of a bundled set (spec/packing/NAME.txt)."""
    bundled = SPEC_DIR / "packing" / f"{arg}.txt"
    path = arg if Path(arg).exists() or not NAME.match(arg) else str(bundled)
    if path == str(bundled) and not bundled.exists():
        sets = sorted(p.stem for p in (SPEC_DIR / "packing").glob("*.txt"))
        raise SpecError([Problem(Loc(arg, 0, 0), f"no piece file or bundled piece set '{arg}'{suggest(arg, sets)}; "
                                                 f"bundled sets: {', '.join(sets)}")])
    parsed = read(path)
    if not parsed.pieces:
        _fail(path, 1, "no 'piece' blocks in the file")
    return parsed.pieces
