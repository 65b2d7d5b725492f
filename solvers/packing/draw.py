"""Pictures of boards and packings: letters in the terminal, coloured cells in SVG.

Each laid piece gets a letter (A-Z, a-z, 0-9, cycling) and a colour; empty board cells are '.',
cells off the board are blank. A legend maps letters to piece names.
"""
from __future__ import annotations

from html import escape

from .model import Board, Packing

SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _colour(k: int) -> str:
    return f"hsl({(k * 137.508) % 360:.1f}, 65%, {62 + 10 * (k % 2)}%)"


def symbols(packing: Packing) -> list[str]:
    """One symbol per laid piece: the piece's own name when all names are single, distinct
    characters (pentominoes: F, I, L...), else A, B, C... in laying order."""
    names = [packing.problem.pieces[p.piece].name for p in packing.placed]
    if all(len(n) == 1 and n != "." for n in names) and len(set(names)) == len(names):
        return names
    return [SYMBOLS[k % len(SYMBOLS)] for k in range(len(names))]


def text(packing: Packing | None, board: Board, colour: bool = False) -> str:
    owner = packing.owner() if packing else {}
    sym = symbols(packing) if packing else []
    lines = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            if (r, c) not in board.cells:
                row.append(" ")
            elif (r, c) not in owner:
                row.append(".")
            else:
                k = owner[(r, c)]
                ch = sym[k]
                row.append(f"\x1b[48;5;{17 + (k * 37) % 214}m\x1b[97m{ch}\x1b[0m" if colour else ch)
        lines.append("".join(row).rstrip())
    return "\n".join(lines)


def legend(packing: Packing) -> str:
    names = [packing.problem.pieces[p.piece].name for p in packing.placed]
    sym = symbols(packing)
    if sym == names:
        return ""
    return "  ".join(f"{sym[k]}={n}" for k, n in enumerate(names))


def svg(packing: Packing | None, board: Board, cell: int = 28, title: str = "") -> str:
    """An SVG drawing: board cells grey, each laid piece one colour with a thick outline."""
    owner = packing.owner() if packing else {}
    names = [packing.problem.pieces[p.piece].name for p in packing.placed] if packing else []
    pad = 10
    top = pad + (20 if title else 0)
    w, h = board.width * cell + 2 * pad, board.height * cell + top + pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    if title:
        out.append(f'<text x="{pad}" y="{pad + 12}" font-family="sans-serif" font-size="13">{escape(title)}</text>')
    for (r, c) in sorted(board.cells):
        k = owner.get((r, c))
        fill = _colour(k) if k is not None else "#e6e6e6"
        out.append(f'<rect x="{pad + c * cell}" y="{top + r * cell}" width="{cell}" height="{cell}" '
                   f'fill="{fill}" stroke="#999" stroke-width="0.5"/>')
    # thick edges where the owner changes (piece outlines and the board edge)
    for (r, c) in sorted(board.cells):
        k = owner.get((r, c), -1)
        x, y = pad + c * cell, top + r * cell
        for (dr, dc), (x1, y1, x2, y2) in (((-1, 0), (x, y, x + cell, y)), ((1, 0), (x, y + cell, x + cell, y + cell)),
                                           ((0, -1), (x, y, x, y + cell)), ((0, 1), (x + cell, y, x + cell, y + cell))):
            n = (r + dr, c + dc)
            if n not in board.cells or owner.get(n, -1) != k:
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#222" stroke-width="2"/>')
    for k, p in enumerate(packing.placed if packing else ()):
        r, c = min(p.cells)
        out.append(f'<text x="{pad + c * cell + cell / 2}" y="{top + r * cell + cell * 0.62}" font-family="sans-serif" '
                   f'font-size="{cell * 0.38:.0f}" text-anchor="middle">{escape(names[k])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
