"""A spec's `picture` section: how to draw a state of its game, as data.

A view is drawn once per binding of its parameters (`for`) that satisfies `given`: a grid of a
grid domain with layers of cells (a fixed mark, or one letter per binding with a legend), a line
of items (its title leads the line), or a line of text. Text is a template with `{EXPR}` holes in the rule language, or a
list of cases whose first true `when` picks the template. Everything is parsed and type-checked
at load time like any rule; solvers/play/picture.py draws it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..ir.domains import GridDomain
from ..ir.types import BOOL, AtomT, SetT


@dataclass(frozen=True)
class Template:
    parts: tuple  # str (literal text) or ir.Expr (a hole)


@dataclass(frozen=True)
class Text:
    cases: tuple  # ((when: ir.Expr | None, Template), ...); None is "always"


@dataclass(frozen=True)
class Layer:
    params: tuple  # ((name, Type), ...): with params, one letter per binding
    given: ir.Expr | None
    cells: ir.Expr
    mark: str | None
    legend: Text | None


@dataclass(frozen=True)
class Items:
    params: tuple
    given: ir.Expr | None
    text: Text
    per_line: int
    sep: str = " "


@dataclass(frozen=True)
class View:
    params: tuple
    given: ir.Expr | None
    title: Text | None
    grid: str | None = None
    layers: tuple = ()
    items: Items | None = None
    text: Text | None = None


def split_template(text: str) -> list:
    """Literal text and `{EXPR}` holes: a list of str and (offset, source) pairs. Braces nest
    inside a hole (set literals); `{{` and `}}` outside holes stand for one brace."""
    out: list = []
    lit, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "{}" and text[i:i + 2] in ("{{", "}}"):
            lit.append(ch)
            i += 2
            continue
        if ch == "}":
            raise ValueError(f"unmatched '}}' at column {i + 1} of the template")
        if ch != "{":
            lit.append(ch)
            i += 1
            continue
        depth, j = 1, i + 1
        while j < n and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        if depth:
            raise ValueError(f"unclosed '{{' at column {i + 1} of the template")
        if lit:
            out.append("".join(lit))
            lit = []
        source = text[i + 1:j - 1].strip()
        if not source:
            raise ValueError(f"empty hole at column {i + 1} of the template")
        out.append((i + 1, source))
        i = j
    if lit:
        out.append("".join(lit))
    return out


def load(loader, raw: dict) -> tuple:
    """The views of a `picture` section, built with the spec loader's expression and parameter
    helpers (so an error is located at its file, line and view like any other)."""
    domains = loader.g.domains
    views = []

    def scope_of(params):
        return loader.scope(dict(params))

    def expr(text, path, params, expect=None):
        return loader.expr(text, path, scope_of(params), "picture", expect)

    def template(text, path, params):
        try:
            pieces = split_template(text)
        except ValueError as e:
            loader.err(path, str(e), "picture")
            return None
        parts = []
        for p in pieces:
            if isinstance(p, str):
                parts.append(p)
                continue
            e = expr(p[1], path, params)
            if e is None:
                return None
            parts.append(e)
        return Template(tuple(parts))

    def text_of(raw_text, path, params):
        if isinstance(raw_text, str):
            t = template(raw_text, path, params)
            return None if t is None else Text(((None, t),))
        cases = []
        for i, case in enumerate(raw_text):
            when = expr(case["when"], path + (i, "when"), params, BOOL)
            t = template(case["text"], path + (i, "text"), params)
            if when is None or t is None:
                return None
            cases.append((when, t))
        return Text(tuple(cases))

    def bound(raw_part, path, outer):
        params = loader.params(raw_part.get("for"), path + ("for",), "picture")
        if params is None:
            return None, None
        params = list(outer) + params
        given = expr(raw_part["given"], path + ("given",), params, BOOL) if "given" in raw_part else None
        return params, given

    for i, rv in enumerate(raw.get("views", [])):
        path = ("picture", "views", i)
        params, given = bound(rv, path, [])
        if params is None:
            continue
        title = text_of(rv["title"], path + ("title",), params) if "title" in rv else None
        if "grid" in rv:
            grid = rv["grid"]
            if not isinstance(domains.by_name.get(grid), GridDomain):
                loader.err(path + ("grid",), f"'{grid}' is not a grid domain", "picture")
                continue
            layers = []
            for j, rl in enumerate(rv["layers"]):
                lpath = path + ("layers", j)
                lparams, lgiven = bound(rl, lpath, params)
                if lparams is None:
                    continue
                cells = expr(rl["cells"], lpath + ("cells",), lparams, SetT(AtomT(grid)))
                legend = text_of(rl["legend"], lpath + ("legend",), lparams) if "legend" in rl else None
                if cells is not None:
                    mark = rl.get("mark")
                    if mark is None and "for" not in rl:
                        loader.err(lpath, "a layer without `for` needs a `mark`", "picture")
                        continue
                    layers.append(Layer(tuple(lparams[len(params):]), lgiven, cells, mark, legend))
            views.append(View(tuple(params), given, title, grid=grid, layers=tuple(layers)))
        elif "items" in rv:
            ri = rv["items"]
            iparams, igiven = bound(ri, path + ("items",), params)
            if iparams is None:
                continue
            t = text_of(ri["text"], path + ("items", "text"), iparams)
            if t is not None:
                views.append(View(tuple(params), given, title,
                                  items=Items(tuple(iparams[len(params):]), igiven, t, ri.get("per_line", 100), ri.get("sep", " "))))
        else:
            t = text_of(rv["text"], path + ("text",), params)
            if t is not None:
                views.append(View(tuple(params), given, title, text=t))
    return tuple(views)
