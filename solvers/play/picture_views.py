"""Drawing a state by its spec's `picture` section (zoospec/front/picture.py): grids with layers of cells,
lines of items and lines of text, each evaluated by the Python back end on the state. A hole whose
value is undefined on the state is drawn as `?` — a picture never fails."""
from __future__ import annotations

import json
import string

from zoospec.errors import Undefined
from zoospec.ir import state_vars_read

from ..symbolic import param_values
from ..traces import plain

LETTERS = string.ascii_uppercase + string.ascii_lowercase + string.digits


def _show(v) -> str:
    p = plain(v)
    if isinstance(p, bool):
        return "yes" if p else "no"
    if isinstance(p, list):
        return "{" + ", ".join(str(x) for x in p) + "}"
    if isinstance(p, dict):
        return json.dumps(p)
    return str(p)


def _value(game, e, state, env, default=None):
    try:
        return game.evaluate(e, state, dict(env))
    except Undefined:
        return default


def _text(game, text, state, env) -> str | None:
    for when, tpl in text.cases:
        if when is None or _value(game, when, state, env) is True:
            out = []
            for part in tpl.parts:
                if isinstance(part, str):
                    out.append(part)
                else:
                    v = _value(game, part, state, env, Undefined)
                    out.append("?" if v is Undefined else _show(v))
            return "".join(out)
    return None


def _bindings(game, params, given, state, outer):
    for args in param_values(game, list(params)):
        env = {**outer, **args}
        if given is None or _value(game, given, state, env) is True:
            yield env


def grid_marks(game, view, state, env):
    """(marks, legend): the mark of every cell a layer covers (later layers win) and the legend
    lines of the lettered layers, in drawing order."""
    marks, legend, letters = {}, [], iter(LETTERS)
    for layer in view.layers:
        for lenv in _bindings(game, layer.params, layer.given, state, env):
            cells = _value(game, layer.cells, state, lenv, frozenset())
            mark = layer.mark or next(letters, "?")
            for c in cells:
                marks[c] = mark
            if layer.legend is not None and (cells or not layer.params):
                line = _text(game, layer.legend, state, lenv)
                if line is not None:
                    legend.append(f"{mark} {line}")
    return marks, legend


def _exprs(game):
    """Every expression the views evaluate."""
    for view in game.views:
        items = [view.items] if view.items else []
        exprs = [view.given, *(x.given for x in view.layers), *(x.cells for x in view.layers), *(x.given for x in items)]
        texts = [view.title, view.text, *(x.legend for x in view.layers), *(x.text for x in items)]
        yield from (e for e in exprs if e is not None)
        for t in (t for t in texts if t is not None):
            for when, tpl in t.cases:
                if when is not None:
                    yield when
                yield from (p for p in tpl.parts if not isinstance(p, str))


def unseen(game) -> list[str]:
    """The state variables no view reads: drawn after the views, so a picture hides nothing."""
    read: set[str] = set()
    for e in _exprs(game):
        read |= state_vars_read(e, game.defines)
    return [n for n in game.state_types if n not in read]


def parts(game, state):
    """The picture as a list of ('title' | 'line', text) and ('grid', (domain, marks, legend))."""
    out = []
    for view in game.views:
        for env in _bindings(game, view.params, view.given, state, {}):
            title = _text(game, view.title, state, env) if view.title is not None else None
            if title is not None and view.items is None:
                out.append(("title", title))
            if view.grid is not None:
                marks, legend = grid_marks(game, view, state, env)
                out.append(("grid", (game.domains[view.grid], marks, legend)))
            elif view.items is not None:
                items = [t for ienv in _bindings(game, view.items.params, view.items.given, state, env)
                         if (t := _text(game, view.items.text, state, ienv)) is not None]
                k = view.items.per_line
                lines = [view.items.sep.join(items[i:i + k]) for i in range(0, len(items), k)]
                if not lines and title is not None:  # a title stands alone; untitled, nothing is drawn
                    lines = [""]
                if title is not None:  # an items view's title leads its first line
                    lines[0] = f"{title} {lines[0]}".rstrip()
                out.extend(("line", ln) for ln in lines)
            else:
                line = _text(game, view.text, state, env)
                if line is not None:
                    out.append(("line", line))
    return out
