"""Pictures of any game state, with no game-specific code. A spec with a `picture` section is drawn
by its views (solvers/play/picture_views.py). Otherwise grids are drawn as grids, everything else as
`name = value` lines.

A state variable (or map entry) whose value is a set of cells of a grid domain is drawn as the
grid, `#` for a member and `.` for a cell not in it; a map from grid cells is drawn with the first
character of each value. SVG: the same grids as coloured squares, the rest as text lines.
"""
from __future__ import annotations

import json
from html import escape

from zoospec.ir.domains import GridDomain
from zoospec.ir.types import AtomT, BoolT, IntT, MapT, RecordT, SetT
from zoospec.runtime.state import zero

from ..traces import plain
from . import picture_views


def _grid(game, t):
    if isinstance(t, SetT) and isinstance(t.elem, AtomT):
        d = game.domains[t.elem.domain]
        return d if isinstance(d, GridDomain) else None
    return None


def _cells_grid(game, t):
    """The grid a map from grid cells to single values is drawn on (a map to records is listed)."""
    if isinstance(t, MapT) and isinstance(t.value, (BoolT, IntT, AtomT)):
        d = game.domains[t.key]
        return d if isinstance(d, GridDomain) else None
    return None


def _rows(d: GridDomain, mark):
    rs = [r for r, _ in d.pos.values()]
    cs = [c for _, c in d.pos.values()]
    by_pos = {p: a for a, p in d.pos.items()}
    out = []
    for r in range(min(rs), max(rs) + 1):
        out.append("".join(mark(by_pos[(r, c)]) if (r, c) in by_pos else " " for c in range(min(cs), max(cs) + 1)))
    return out


def _leaves(v, t, keys=()):
    """(keys, value, type) of every scalar or set inside v: map keys, then record field names."""
    if isinstance(t, MapT):
        for k, x in v.items():
            yield from _leaves(x, t.value, keys + (k,))
    elif isinstance(t, RecordT):
        for name, ft in t.fields:
            yield from _leaves(v[name], ft, keys + (name,))
    else:
        yield keys, v, t


def _sparse(game, n, v, t) -> list[str]:
    """A big or nested map as its entries that differ from the plain value (0, false, empty, a
    domain's first atom), one line per first key: `herd[1]: p4.zebra=4, barn.camel=1`."""
    by_first: dict = {}
    kinds = set()
    for keys, x, leaf_type in _leaves(v, t):
        plain_value = zero(leaf_type, game.domains)
        kinds.add(json.dumps(plain(plain_value)))
        if x != plain_value:
            by_first.setdefault(keys[0], []).append((keys[1:], x))
    shown = kinds.pop() if len(kinds) == 1 else "plain"
    if not by_first:
        return [f"{n}: all {shown}"]
    if not isinstance(t.value, (MapT, RecordT)):  # one level: one line
        return [f"{n}: " + ", ".join(f"{k}={json.dumps(plain(x))}" for k, [(_, x)] in by_first.items()) + f"  (others {shown})"]
    out = []
    for k, entries in by_first.items():
        parts = [(".".join(str(x) for x in rest) + "=" if rest else "") + json.dumps(plain(x)) for rest, x in entries]
        out.append(f"{n}[{k}]: " + ", ".join(parts))
    out.append(f"  ({n}: every other entry {shown})")
    return out


def _drawn_views(game, state: dict) -> list[str]:
    out = []
    for kind, v in picture_views.parts(game, state):
        if kind == "grid":
            d, marks, legend = v
            out.extend("  " + row for row in _rows(d, lambda a: marks.get(a, " ")))
            out.extend("  " + ln for ln in legend)
        else:
            out.append(v if kind == "title" else "  " + v)
    return out


def text(game, state: dict) -> str:
    if game.views:
        rest = picture_views.unseen(game)
        return "\n".join(_drawn_views(game, state) + (["  also:"] + ["    " + ln for ln in _listed(game, state, rest)] if rest else []))
    return "\n".join(_listed(game, state, list(game.state_types)))


def _listed(game, state: dict, names: list[str]) -> list[str]:
    """The named state variables, each drawn by its type: grids, sparse maps, or `name = value`."""
    out = []
    for n in names:
        t = game.state_types[n]
        v = state[n]
        if isinstance(t, MapT) and (isinstance(t.value, MapT) or len(v) > 8) and not _cells_grid(game, t) \
                and not isinstance(t.value, (SetT,)):
            out.extend(_sparse(game, n, v, t))
            continue
        g = _grid(game, t)
        if g is not None:
            out.append(f"{n}: ({len(v)} of {len(g)} cells)")
            out.extend("  " + row for row in _rows(g, lambda a: "#" if a in v else "."))
            continue
        g = _cells_grid(game, t)
        if g is not None:
            out.append(f"{n}:")
            out.extend("  " + row for row in _rows(g, lambda a: str(v[a])[:1] or "."))
            continue
        if isinstance(t, MapT) and isinstance(t.value, SetT) and _grid(game, t.value) is not None:
            for k, sub in v.items():
                if sub:
                    out.append(f"{n}[{k}]:")
                    out.extend("  " + row for row in _rows(_grid(game, t.value), lambda a: "#" if a in sub else "."))
            if not any(v.values()):
                out.append(f"{n}: all empty")
            continue
        out.append(f"{n} = {json.dumps(plain(v))}")
    return out


def svg(game, state: dict, title: str = "", cell: int = 16) -> str:
    pad, y = 10, 10
    parts = []
    width = 300
    if title:
        parts.append(f'<text x="{pad}" y="{y + 12}" font-family="sans-serif" font-size="13">{escape(title)}</text>')
        y += 22
    if game.views:
        return _svg_views(game, state, parts, pad, y, width, cell)
    for n, t in game.state_types.items():
        v = state[n]
        g = _grid(game, t)
        if g is not None:
            parts.append(f'<text x="{pad}" y="{y + 12}" font-family="monospace" font-size="12">{escape(n)}</text>')
            y += 18
            rows = _rows(g, lambda a: "#" if a in v else ".")
            for r, row in enumerate(rows):
                for c, ch in enumerate(row):
                    if ch != " ":
                        fill = "#4a7" if ch == "#" else "#eee"
                        parts.append(f'<rect x="{pad + c * cell}" y="{y + r * cell}" width="{cell}" height="{cell}" '
                                     f'fill="{fill}" stroke="#999" stroke-width="0.5"/>')
            width = max(width, 2 * pad + cell * max((len(r) for r in rows), default=0))
            y += cell * len(rows) + 8
        else:
            line = f"{n} = {json.dumps(plain(v))}"
            for k in range(0, len(line), 90):
                parts.append(f'<text x="{pad}" y="{y + 12}" font-family="monospace" font-size="12">{escape(line[k:k + 90])}</text>')
                y += 16
            width = max(width, 2 * pad + 8 * min(len(line), 90))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + pad}" viewBox="0 0 {width} {y + pad}">\n'
            f'<rect width="{width}" height="{y + pad}" fill="white"/>\n' + "\n".join(parts) + "\n</svg>\n")


PALETTE = ["#e6a157", "#7fb3d5", "#82c785", "#d98cb3", "#c9b458", "#9a8fd1", "#e07b6a", "#6cc2b9", "#b5b5b5"]


def _svg_views(game, state, parts, pad, y, width, cell):
    """The spec's views as SVG: grid cells as squares coloured by mark ('.' pale, a letter a colour
    of its own), titles, legends and lines as text."""
    def line(txt, size=12, family="monospace"):
        nonlocal y, width
        parts.append(f'<text x="{pad}" y="{y + size}" font-family="{family}" font-size="{size}">{escape(txt)}</text>')
        y += size + 5
        width = max(width, 2 * pad + int(size * 0.62 * len(txt)))

    colours: dict = {}
    for kind, v in picture_views.parts(game, state):
        if kind == "title":
            line(v, 13, "sans-serif")
        elif kind == "line":
            line(v)
        else:
            d, marks, legend = v
            rows = _rows(d, lambda a: marks.get(a, " "))
            for r, row in enumerate(rows):
                for c, ch in enumerate(row):
                    if ch == " ":
                        continue
                    fill = "#f4f4f4" if ch == "." else colours.setdefault(ch, PALETTE[len(colours) % len(PALETTE)])
                    parts.append(f'<rect x="{pad + c * cell}" y="{y + r * cell}" width="{cell}" height="{cell}" '
                                 f'fill="{fill}" stroke="#888" stroke-width="0.5"/>')
                    if ch != ".":
                        parts.append(f'<text x="{pad + c * cell + cell // 2}" y="{y + r * cell + cell - 4}" font-family="monospace" '
                                     f'font-size="{cell - 6}" text-anchor="middle">{escape(ch)}</text>')
            width = max(width, 2 * pad + cell * max((len(r) for r in rows), default=0))
            y += cell * len(rows) + 6
            for ln in legend:
                line(ln)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + pad}" viewBox="0 0 {width} {y + pad}">\n'
            f'<rect width="{width}" height="{y + pad}" fill="white"/>\n' + "\n".join(parts) + "\n</svg>\n")


def trace_text(trace) -> str:
    """Every state of a trace, with the move between each two."""
    out = []
    if trace.params:
        out.append(f"parameters: {json.dumps(plain(trace.params))}")
    for i, s in enumerate(trace.states):
        if i > 0 and trace.pair is not None:
            out.append(f"--- the same {trace.pair['item']} {json.dumps(trace.pair['args'])}, on a state that differs "
                       f"only in {', '.join(trace.pair['of'])}")
        elif i > 0:
            st = trace.steps[i - 1]
            a = trace.game.actions.get(st.action)
            where = f" ({a.loc.file}:{a.loc.line})" if a is not None else ""
            out.append(f"--- move {i}: {st.action} {json.dumps(plain(st.args))}{where}")
            rules = [trace.game.rules[r] for r, _ in (a.requires + a.ensures if a else []) if r in trace.game.rules]
            if rules:
                out.append("    by " + ", ".join(f"{r.id} ({r.loc.file}:{r.loc.line})" for r in rules))
        out.append(f"state {i}:")
        out.extend("  " + ln for ln in text(trace.game, s).splitlines())
    return "\n".join(out)
