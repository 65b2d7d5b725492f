"""Concrete states: JSON ↔ Python values, validation, and the JSON Schema of a spec's state.

JSON form: bools, ints, atoms as strings (a range's atom as a number), sets as sorted lists, maps
as objects keyed by atom, records as objects. The Python form is the same with sets as
frozensets and map keys as atoms (ints for ranges)."""
from __future__ import annotations

import z3

from ..builtins.polyomino import Shape
from ..errors import StateError
from ..ir.domains import GridDomain
from ..ir.order import ordered
from ..ir.types import AtomT, BoolT, IntT, MapT, RecordT, SetT, ShapeT, Type
from ..smt import terms as zt
from ..smt.values import FALSE, TRUE, ZMap, ZRec, ZSet
from ..suggest import suggest


def _dormant(t: Type, value, domains) -> bool:
    """Whether `value` is an atom that only a switch now off adds to t's domain."""
    return isinstance(t, AtomT) and domains[t.domain].asleep(value)


def from_json(value, t: Type, domains, where: str = "state", constant: bool = False, partial: bool = False):
    """The Python value of JSON/YAML data of type t, or StateError saying where it is wrong.
    With constant=True (component data) two more forms are read: a shape as rows of '#'/'.',
    and a set of grid cells as {rows: [...]}, a mask over the grid. With partial=True a map (at
    the top only) may leave keys out."""
    if constant and isinstance(t, ShapeT):
        if not (isinstance(value, list) and value and all(isinstance(r, str) for r in value)):
            raise StateError(f"{where}: a shape is a list of row strings, '#' for a cell and '.' for none")
        try:
            return Shape.from_rows(value)
        except ValueError as e:
            raise StateError(f"{where}: {e}") from None
    if constant and isinstance(t, SetT) and isinstance(value, dict) and set(value) == {"rows"}:
        return _mask(value["rows"], t, domains, where)
    if isinstance(t, BoolT):
        if not isinstance(value, bool):
            raise StateError(f"{where}: expected true or false, got {value!r}")
        return value
    if isinstance(t, IntT):
        if not isinstance(value, int) or isinstance(value, bool):
            raise StateError(f"{where}: expected an integer, got {value!r}")
        if t.bounded and not t.lo <= value <= t.hi:
            raise StateError(f"{where}: {value} is outside {t.lo}..{t.hi}")
        return value
    if isinstance(t, AtomT):
        d = domains[t.domain]
        try:
            return d.from_json(value)
        except KeyError:
            raise StateError(f"{where}: {value!r} is not a value of {d.name}{suggest(str(value), map(str, d.atoms))}") from None
    if isinstance(t, SetT):
        if not isinstance(value, (list, tuple, set, frozenset)):
            raise StateError(f"{where}: expected a list (a set), got {value!r}")
        keep = [v for v in value if not (constant and _dormant(t.elem, v, domains))]
        return frozenset(from_json(v, t.elem, domains, f"{where}[]", constant) for v in keep)
    if isinstance(t, MapT):
        d = domains[t.key]
        if not isinstance(value, dict):
            raise StateError(f"{where}: expected an object keyed by {d.name}, got {value!r}")
        out = {}
        for k, v in value.items():
            if constant and d.asleep(k):
                continue
            try:
                atom = d.from_json(k)
            except KeyError:
                raise StateError(f"{where}: key {k!r} is not a value of {d.name}") from None
            out[atom] = from_json(v, t.value, domains, f"{where}[{k}]", constant)
        missing = [a for a in d.atoms if a not in out]
        if missing and not partial:
            raise StateError(f"{where}: missing key(s) {', '.join(map(str, missing[:5]))}")
        return out
    if isinstance(t, RecordT):
        if not isinstance(value, dict):
            raise StateError(f"{where}: expected an object with fields {', '.join(n for n, _ in t.fields)}")
        extra = set(value) - {n for n, _ in t.fields}
        if extra:
            raise StateError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
        out = {}
        for n, ft in t.fields:
            if n not in value:
                raise StateError(f"{where}: missing field {n}")
            out[n] = from_json(value[n], ft, domains, f"{where}.{n}", constant)
        return out
    raise StateError(f"{where}: type {t} cannot be part of a state")


def _mask(rows, t: SetT, domains, where):
    grid = domains[t.elem.domain] if isinstance(t.elem, AtomT) else None
    if not isinstance(grid, GridDomain):
        raise StateError(f"{where}: a {{rows: [...]}} mask needs a set of grid cells, not {t}")
    cells = set()
    for r, row in enumerate(rows):
        for c, ch in enumerate(str(row)):
            if ch == "#":
                if (r, c) not in grid.at:
                    raise StateError(f"{where}: cell ({r},{c}) is not on grid {grid.name}")
                cells.add(grid.at[(r, c)])
            elif ch != ".":
                raise StateError(f"{where}: unexpected {ch!r} in a cell mask (use # and .)")
    return frozenset(cells)


def merged(base, over):
    """JSON `over` laid on JSON `base`: objects merge key by key, anything else replaces — a
    state given as its differences from another."""
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: merged(base[k], v) if k in base else v for k, v in over.items()}}
    return over


def zero(t: Type, domains):
    """The plainest value of a type: false, the int nearest 0 in range, a domain's first atom, the
    empty set, a map of zeros. What a spec's `start` section leaves out starts as this."""
    if isinstance(t, BoolT):
        return False
    if isinstance(t, IntT):
        return max(t.lo if t.lo is not None else 0, min(0, t.hi if t.hi is not None else 0))
    if isinstance(t, AtomT):
        d = domains[t.domain]
        return d.atom(next(iter(d.codes())))
    if isinstance(t, SetT):
        return frozenset()
    if isinstance(t, MapT):
        return {k: zero(t.value, domains) for k in domains[t.key].atoms}
    if isinstance(t, RecordT):
        return {n: zero(ft, domains) for n, ft in t.fields}
    raise StateError(f"no plain value for type {t}")


def to_json(value, t: Type, domains):
    if isinstance(t, (BoolT, IntT, AtomT)):
        return value
    if isinstance(t, SetT):
        return [to_json(v, t.elem, domains) for v in ordered(value, t.elem, domains)]
    if isinstance(t, MapT):
        d = domains[t.key]
        return {d.json_key(a): to_json(value[a], t.value, domains) for a in d.atoms}
    if isinstance(t, RecordT):
        return {n: to_json(value[n], ft, domains) for n, ft in t.fields}
    raise StateError(f"type {t} cannot be part of a state")


def json_schema(t: Type, domains) -> dict:
    if isinstance(t, BoolT):
        return {"type": "boolean"}
    if isinstance(t, IntT):
        s = {"type": "integer"}
        if t.bounded:
            s.update(minimum=t.lo, maximum=t.hi)
        return s
    if isinstance(t, AtomT):
        return {"enum": list(domains[t.domain].atoms)}
    if isinstance(t, SetT):
        return {"type": "array", "items": json_schema(t.elem, domains), "uniqueItems": True}
    if isinstance(t, MapT):
        d = domains[t.key]
        keys = [d.json_key(a) for a in d.atoms]
        return {"type": "object", "properties": {k: json_schema(t.value, domains) for k in keys},
                "required": keys, "additionalProperties": False}
    if isinstance(t, RecordT):
        return {"type": "object", "properties": {n: json_schema(ft, domains) for n, ft in t.fields},
                "required": [n for n, _ in t.fields], "additionalProperties": False}
    raise StateError(f"type {t} cannot be part of a state")


def state_type_ok(t: Type) -> bool:
    """State variables must be finite: bounded ints, atoms, bools, and sets/maps/records of them."""
    if isinstance(t, IntT):
        return t.bounded
    if isinstance(t, (BoolT, AtomT)):
        return True
    if isinstance(t, SetT):
        return isinstance(t.elem, AtomT) or (isinstance(t.elem, IntT) and t.elem.bounded)
    if isinstance(t, MapT):
        return state_type_ok(t.value)
    if isinstance(t, RecordT):
        return all(state_type_ok(ft) for _, ft in t.fields)
    return False


class SymState:
    """A symbolic state: one Z3 variable per leaf (map entries and record fields flattened)."""

    def __init__(self, types: dict[str, Type], domains, prefix: str = ""):
        self.types, self.domains, self.prefix = types, domains, prefix
        self.constraints: list = []
        self.leaves: list[tuple[z3.ExprRef, Type]] = []
        self.vars = {n: self._make(f"{prefix}{n}", t) for n, t in types.items()}

    def _make(self, name, t):
        if isinstance(t, BoolT):
            v = z3.Bool(name)
            self.leaves.append((v, t))
            return v
        if isinstance(t, (IntT, AtomT)):
            v = z3.Int(name)
            lo, hi = (t.lo, t.hi) if isinstance(t, IntT) else (0, len(self.domains[t.domain]) - 1)
            self.constraints.extend([v >= lo] if lo is not None else [])  # a define's plain `int` parameter has no bounds
            self.constraints.extend([v <= hi] if hi is not None else [])
            self.leaves.append((v, t))
            return v
        if isinstance(t, SetT):
            d = self.domains.of_type(t.elem)
            bits = {}
            for k in d.codes():
                bits[k] = z3.Bool(f"{name}{{{d.atom(k)}}}")
                self.leaves.append((bits[k], t))
            return ZSet(list(d.codes()), bits)
        if isinstance(t, MapT):
            d = self.domains[t.key]
            return ZMap(list(d.codes()), {k: self._make(f"{name}[{d.atom(k)}]", t.value) for k in d.codes()})
        if isinstance(t, RecordT):
            return ZRec({n: self._make(f"{name}.{n}", ft) for n, ft in t.fields})
        raise StateError(f"type {t} cannot be part of a state")

    def __getitem__(self, name):
        return self.vars[name]

    def decode(self, model: z3.ModelRef) -> dict:
        """The concrete Python state a model assigns (unassigned leaves take their smallest value)."""
        return {n: self._decode(self.vars[n], t, model) for n, t in self.types.items()}

    def _decode(self, v, t, model):
        if isinstance(t, BoolT):
            return z3.is_true(model.eval(v, model_completion=True))
        if isinstance(t, IntT):
            return model.eval(v, model_completion=True).as_long()
        if isinstance(t, AtomT):
            return self.domains[t.domain].atom(model.eval(v, model_completion=True).as_long())
        if isinstance(t, SetT):
            d = self.domains.of_type(t.elem)
            return frozenset(d.atom(k) for k, b in v.bits.items() if z3.is_true(model.eval(b, model_completion=True)))
        if isinstance(t, MapT):
            d = self.domains[t.key]
            return {d.atom(k): self._decode(v.entries[k], t.value, model) for k in d.codes()}
        if isinstance(t, RecordT):
            return {n: self._decode(v.fields[n], ft, model) for n, ft in t.fields}
        raise StateError(f"type {t} cannot be part of a state")

    def bind(self, state: dict) -> list[tuple]:
        """Substitution pairs (variable, constant) fixing this symbolic state to a concrete one."""
        return [p for n in self.types for p in self.bind_one(n, state[n])]

    def bind_one(self, name: str, value) -> list[tuple]:
        """The pairs of `bind` for state variable `name` alone."""
        pairs: list[tuple] = []
        self._bind(self.vars[name], self.types[name], value, pairs)
        return pairs

    def bind_entries(self, name: str, entries: dict) -> list[tuple]:
        """The pairs of `bind` for some entries (key -> value) of map variable `name`."""
        t = self.types[name]
        d = self.domains[t.key]
        pairs: list[tuple] = []
        for k, value in entries.items():
            self._bind(self.vars[name].entries[d.code(k)], t.value, value, pairs)
        return pairs

    def _bind(self, v, t, value, pairs):
        if isinstance(t, BoolT):
            pairs.append((v, TRUE if value else FALSE))
        elif isinstance(t, IntT):
            pairs.append((v, zt.num(value)))
        elif isinstance(t, AtomT):
            pairs.append((v, zt.num(self.domains[t.domain].code(value))))
        elif isinstance(t, SetT):
            d = self.domains.of_type(t.elem)
            for k, b in v.bits.items():
                pairs.append((b, TRUE if d.atom(k) in value else FALSE))
        elif isinstance(t, MapT):
            d = self.domains[t.key]
            for k in d.codes():
                self._bind(v.entries[k], t.value, value[d.atom(k)], pairs)
        elif isinstance(t, RecordT):
            for n, ft in t.fields:
                self._bind(v.fields[n], ft, value[n], pairs)

    def pin(self, name: str, value) -> None:
        """Make state variable `name` the concrete value (a Python state value) instead of a free
        variable: terms over it are then built concretely (a deal fixed before compiling keeps
        every table lookup it drives small). Its leaves leave `leaves`; decoding still works."""
        pairs = self.bind_one(name, value)
        fixed = {p[0].get_id() for p in pairs}
        self.leaves = [(v, lt) for v, lt in self.leaves if v.get_id() not in fixed]
        self.vars[name] = _substituted(self.vars[name], {a.get_id(): _shared(b) for a, b in pairs})

    def terms(self, name: str) -> list:
        """The Z3 leaves of state variable `name`, in a fixed order (two states' lists line up)."""
        return list(_terms(self.vars[name]))

    def share(self, other: "SymState", names) -> None:
        """Make state variables `names` the very terms of `other`'s: the two states can then
        differ only in the rest, and whatever reads none of the rest compiles to one term."""
        gone = {v.get_id() for n in names for v in _terms(self.vars[n])}
        self.leaves = [(v, lt) for v, lt in self.leaves if v.get_id() not in gone]
        for n in names:
            self.vars[n] = other.vars[n]

    def equal(self, other: "SymState | dict") -> z3.BoolRef:
        """This state equals another symbolic state (or a dict of back-end values), leaf by leaf."""
        others = other.vars if isinstance(other, SymState) else other
        return z3.And([leaf_eq(self.vars[n], others[n]) for n in self.types] or [z3.BoolVal(True)])


def _shared(c):
    """Bool constants as the back end's own TRUE/FALSE, which its shortcuts test by identity."""
    return TRUE if z3.is_true(c) else FALSE if z3.is_false(c) else c


def _terms(v):
    """The Z3 leaves of a structured back-end value."""
    if isinstance(v, ZSet):
        yield from v.bits.values()
    elif isinstance(v, ZMap):
        for e in v.entries.values():
            yield from _terms(e)
    elif isinstance(v, ZRec):
        for f in v.fields.values():
            yield from _terms(f)
    else:
        yield v


def _substituted(v, by_id):
    if isinstance(v, ZSet):
        return ZSet(v.codes, {k: by_id.get(b.get_id(), b) for k, b in v.bits.items()})
    if isinstance(v, ZMap):
        return ZMap(v.codes, {k: _substituted(e, by_id) for k, e in v.entries.items()})
    if isinstance(v, ZRec):
        return ZRec({n: _substituted(f, by_id) for n, f in v.fields.items()})
    return by_id.get(v.get_id(), v)


def leaf_eq(a, b):
    """Two back-end values of one type are equal, leaf by leaf (a Z3 Bool)."""
    if isinstance(a, ZSet):
        return z3.And([a.bits[k] == b.bits.get(k, z3.BoolVal(False)) for k in a.codes] or [z3.BoolVal(True)])
    if isinstance(a, ZMap):
        return z3.And([leaf_eq(a.entries[k], b.entries[k]) for k in a.codes] or [z3.BoolVal(True)])
    if isinstance(a, ZRec):
        return z3.And([leaf_eq(a.fields[n], b.fields[n]) for n in a.fields] or [z3.BoolVal(True)])
    eq = a == b
    return z3.BoolVal(eq) if isinstance(eq, bool) else eq
