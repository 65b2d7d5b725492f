"""Safe YAML loading that remembers where every value was written.

Only plain data is built (mappings, sequences, strings, numbers, booleans, null); any other tag,
any alias, a duplicate key, a file over the size limit or nesting deeper than the depth limit is a
`SpecError` with its line — never a Python object, never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ..errors import Loc, Problem, SpecError

MAX_BYTES = 2_000_000
MAX_DEPTH = 64

# LibYAML's parser where PyYAML was built with it (its wheels are): the same events and nodes,
# five times faster than the pure-Python one — a test worker loads every spec under every reading
# and switch (docs/performance.md). Scalars are still constructed by the safe constructor below.
_PARSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:float",
}


@dataclass(frozen=True)
class Mark:
    line: int
    col: int
    style: str | None  # None plain, "'" or '"' quoted, "|" or ">" block


class Document:
    """A loaded YAML file: its data and the position of each value, by path of keys and indexes."""

    def __init__(self, file: str, data, marks: dict[tuple, Mark]):
        self.file = file
        self.data = data
        self.marks = marks

    def loc(self, path: tuple, rule: str | None = None) -> Loc:
        path = tuple(path)
        while path and path not in self.marks:
            path = path[:-1]
        m = self.marks.get(path, Mark(1, 1, None))
        return Loc(self.file, m.line, m.col, rule)

    def mark(self, path: tuple) -> Mark | None:
        return self.marks.get(tuple(path))


def load_file(path: str | Path) -> Document:
    p = Path(path)
    name = str(path)
    try:
        size = p.stat().st_size
    except OSError as e:
        raise SpecError([Problem(Loc(name, 0, 0), f"cannot read file: {e.strerror}")]) from None
    if size > MAX_BYTES:
        raise SpecError([Problem(Loc(name, 1, 1), f"file is {size} bytes; a spec may be at most {MAX_BYTES}")])
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError([Problem(Loc(name, 1, 1), f"cannot read file as UTF-8 text: {e}")]) from None
    return load_text(text, name)


def load_text(text: str, file: str = "<string>") -> Document:
    if len(text) > MAX_BYTES:
        raise SpecError([Problem(Loc(file, 1, 1), f"text is {len(text)} characters; a spec may be at most {MAX_BYTES}")])
    _check_depth(text, file)
    try:
        node = yaml.compose(text, Loader=_PARSER)
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark or e.context_mark
        line, col = (m.line + 1, m.column + 1) if m else (1, 1)
        raise SpecError([Problem(Loc(file, line, col), f"YAML syntax error: {e.problem or e.context}")]) from None
    except yaml.YAMLError as e:
        raise SpecError([Problem(Loc(file, 1, 1), f"YAML error: {e}")]) from None
    marks: dict[tuple, Mark] = {}
    problems: list[Problem] = []
    data = _build(node, (), marks, problems, file) if node is not None else None
    if problems:
        raise SpecError(problems)
    return Document(file, data, marks)


def _check_depth(text: str, file: str) -> None:
    """Walk the event stream (no recursion) and refuse aliases and deep nesting before composing."""
    depth = 0
    try:
        for ev in yaml.parse(text, Loader=_PARSER):
            if isinstance(ev, yaml.AliasEvent):
                m = ev.start_mark
                raise SpecError([Problem(Loc(file, m.line + 1, m.column + 1), "YAML aliases (*name) are not allowed in specs; write the value out")])
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    m = ev.start_mark
                    raise SpecError([Problem(Loc(file, m.line + 1, m.column + 1), f"nesting deeper than {MAX_DEPTH} levels")])
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark or e.context_mark
        line, col = (m.line + 1, m.column + 1) if m else (1, 1)
        raise SpecError([Problem(Loc(file, line, col), f"YAML syntax error: {e.problem or e.context}")]) from None
    except yaml.YAMLError as e:
        raise SpecError([Problem(Loc(file, 1, 1), f"YAML error: {str(e).splitlines()[0][:200]}")]) from None


_constructor = yaml.SafeLoader("")


def _build(node, path, marks, problems, file):
    m = node.start_mark
    marks[path] = Mark(m.line + 1, m.column + 1, getattr(node, "style", None) or None)  # libyaml: "" for plain
    loc = Loc(file, m.line + 1, m.column + 1)
    if isinstance(node, yaml.MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            problems.append(Problem(loc, f"YAML tag {node.tag!r} is not allowed; only plain data"))
            return None
        out = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                problems.append(Problem(Loc(file, knode.start_mark.line + 1, knode.start_mark.column + 1), "mapping keys must be plain scalars"))
                continue
            key = _build(knode, path + ("<key>",), {}, problems, file)
            if isinstance(key, (int, bool)) or key is None:
                key = knode.value
            if key in out:
                problems.append(Problem(Loc(file, knode.start_mark.line + 1, knode.start_mark.column + 1), f"duplicate key {key!r}"))
                continue
            out[key] = _build(vnode, path + (key,), marks, problems, file)
        return out
    if isinstance(node, yaml.SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            problems.append(Problem(loc, f"YAML tag {node.tag!r} is not allowed; only plain data"))
            return None
        return [_build(v, path + (i,), marks, problems, file) for i, v in enumerate(node.value)]
    if node.tag not in _SCALAR_TAGS:
        problems.append(Problem(loc, f"YAML tag {node.tag!r} is not allowed; only plain data"))
        return None
    if node.tag == "tag:yaml.org,2002:str":
        return node.value
    try:
        value = _constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError) as e:
        problems.append(Problem(loc, f"bad scalar {node.value[:40]!r}: {e}"))
        return None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        problems.append(Problem(loc, f"number {node.value[:40]} is too large (limit 10^12)"))
        return None
    return value
