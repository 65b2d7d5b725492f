"""The static types of the rule language, and the parser for type strings such as `map[seat, cell] int[0..7]`.

Types hold domain *names*; the domains themselves live in the game's domain table (`domains.py`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field


class Type:
    kind = "?"

    def __str__(self) -> str:  # pragma: no cover - overridden
        return self.kind


@dataclass(frozen=True)
class BoolT(Type):
    kind = "bool"

    def __str__(self):
        return "bool"


@dataclass(frozen=True)
class IntT(Type):
    """An integer; `lo`/`hi` are known bounds (from a range domain or declaration), or None."""

    lo: int | None = field(default=None, compare=False)
    hi: int | None = field(default=None, compare=False)
    kind = "int"

    @property
    def bounded(self) -> bool:
        return self.lo is not None and self.hi is not None

    def __str__(self):
        return f"int[{self.lo}..{self.hi}]" if self.bounded else "int"


@dataclass(frozen=True)
class AtomT(Type):
    """A value of an enumerated or grid domain."""

    domain: str
    kind = "atom"

    def __str__(self):
        return self.domain


@dataclass(frozen=True)
class SetT(Type):
    elem: Type
    kind = "set"

    def __str__(self):
        return f"set[{self.elem}]"


@dataclass(frozen=True)
class MapT(Type):
    key: str  # a domain name (enum, grid or range)
    value: Type
    kind = "map"

    def __str__(self):
        return f"map[{self.key}] {self.value}"


@dataclass(frozen=True)
class RecordT(Type):
    fields: tuple[tuple[str, Type], ...]
    kind = "record"

    def field_type(self, name: str) -> Type | None:
        return dict(self.fields).get(name)

    def __str__(self):
        return "record{" + ", ".join(f"{n}: {t}" for n, t in self.fields) + "}"


@dataclass(frozen=True)
class ShapeT(Type):
    """A polyomino: a finite set of (row, col) cells, normalised to the origin."""

    kind = "shape"

    def __str__(self):
        return "shape"


BOOL = BoolT()
INT = IntT()
SHAPE = ShapeT()


def scalar(t: Type) -> bool:
    return isinstance(t, (BoolT, IntT, AtomT))


def compatible(a: Type, b: Type) -> bool:
    """Same type, ignoring integer bounds."""
    if isinstance(a, IntT) and isinstance(b, IntT):
        return True
    if isinstance(a, SetT) and isinstance(b, SetT):
        return compatible(a.elem, b.elem)
    if isinstance(a, MapT) and isinstance(b, MapT):
        return a.key == b.key and compatible(a.value, b.value)
    return a == b


def check_range(value, t: Type, domains) -> str | None:
    """Why a Python value does not fit t (a written value out of bounds), or None."""
    if isinstance(t, IntT) and t.bounded:
        return None if t.lo <= value <= t.hi else f"{value} is outside {t.lo}..{t.hi}"
    if isinstance(t, SetT) and isinstance(t.elem, IntT) and t.elem.bounded:
        bad = [v for v in value if not t.elem.lo <= v <= t.elem.hi]
        return f"{bad[0]} is outside {t.elem.lo}..{t.elem.hi}" if bad else None
    if isinstance(t, MapT):
        for v in value.values():
            r = check_range(v, t.value, domains)
            if r:
                return r
    if isinstance(t, RecordT):
        for n, ft in t.fields:
            r = check_range(value[n], ft, domains)
            if r:
                return r
    return None


class TypeSyntaxError(ValueError):
    pass


_TOKEN = re.compile(r"\s*(?:(\d+|-\d+)|([A-Za-z_][A-Za-z0-9_]*)|(\.\.|[\[\]{},:]))")


def parse_type(text: str, range_domain) -> Type:
    """Parse a type string. `range_domain(lo, hi)` registers an anonymous int range domain and
    returns its name (ranges used as map keys need a domain)."""
    if not isinstance(text, str) or len(text) > 500:
        raise TypeSyntaxError("a type is a short string such as 'bool', 'int[0..7]', 'set[cell]' or 'map[seat] int[0..9]'")
    toks = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise TypeSyntaxError(f"unexpected {text[pos:pos + 10]!r} in type {text!r}")
        toks.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    p = _TypeParser(toks, text, range_domain)
    t = p.type()
    if p.i != len(toks):
        raise TypeSyntaxError(f"unexpected {toks[p.i]!r} in type {text!r}")
    return t


class _TypeParser:
    def __init__(self, toks, text, range_domain):
        self.toks, self.i, self.text, self.range_domain = toks, 0, text, range_domain

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise TypeSyntaxError(f"expected {want or 'more'} in type {self.text!r}")
        self.i += 1
        return t

    def int_lit(self):
        t = self.take()
        try:
            return int(t)
        except ValueError:
            raise TypeSyntaxError(f"expected a number, found {t!r} in type {self.text!r}") from None

    def bounds(self):
        self.take("[")
        lo = self.int_lit()
        self.take("..")
        hi = self.int_lit()
        self.take("]")
        if lo > hi:
            raise TypeSyntaxError(f"empty range {lo}..{hi} in type {self.text!r}")
        return lo, hi

    def key(self):
        """A map key: a domain name or an int range."""
        t = self.take()
        if t == "int":
            if self.peek() != "[":
                raise TypeSyntaxError(f"a map key of type int needs bounds, e.g. int[0..4], in {self.text!r}")
            return self.range_domain(*self.bounds())
        if not re.match(r"[A-Za-z_]", t):
            raise TypeSyntaxError(f"expected a domain name as map key, found {t!r} in {self.text!r}")
        return t

    def type(self) -> Type:
        t = self.take()
        if t == "bool":
            return BOOL
        if t == "shape":
            return SHAPE
        if t == "int":
            if self.peek() == "[":
                lo, hi = self.bounds()
                return IntT(lo, hi)
            return INT
        if t == "set":
            self.take("[")
            k = self.key()
            self.take("]")
            return SetT(_Named(k))
        if t == "map":
            self.take("[")
            keys = [self.key()]
            while self.peek() == ",":
                self.take(",")
                keys.append(self.key())
            self.take("]")
            v = self.type()
            for k in reversed(keys):
                v = MapT(k, v)
            return v
        if t == "record":
            self.take("{")
            fields = []
            while True:
                name = self.take()
                self.take(":")
                fields.append((name, self.type()))
                if self.peek() == ",":
                    self.take(",")
                    continue
                break
            self.take("}")
            names = [n for n, _ in fields]
            if len(set(names)) != len(names):
                raise TypeSyntaxError(f"duplicate record field in {self.text!r}")
            return RecordT(tuple(fields))
        if re.match(r"[A-Za-z_]", t):
            return _Named(t)
        raise TypeSyntaxError(f"unexpected {t!r} in type {self.text!r}")


@dataclass(frozen=True)
class _Named(Type):
    """A domain name not yet resolved to AtomT or a bounded IntT (resolved by `Domains.resolve`)."""

    name: str
    kind = "named"

    def __str__(self):
        return self.name
