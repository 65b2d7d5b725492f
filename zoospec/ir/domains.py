"""Finite domains: the sets that keys, parameters and quantifiers range over.

Every atom has an integer code (its index; a range's code is the number itself) — the Z3 back end
works on codes, the Python back end on atoms (names, "row,col" cells, or ints).
"""
from __future__ import annotations

from .types import AtomT, IntT, MapT, RecordT, SetT, Type, _Named


class Domain:
    name: str
    atoms: list
    dormant: frozenset = frozenset()

    def __init__(self):
        self._index = {a: i for i, a in enumerate(self.atoms)}

    def code(self, atom) -> int:
        return self._index[atom]

    def atom(self, code: int):
        return self.atoms[code]

    def codes(self) -> range:
        return range(len(self.atoms))

    def __contains__(self, atom) -> bool:
        try:
            return atom in self._index
        except TypeError:
            return False

    def __len__(self):
        return len(self.atoms)

    @property
    def value_type(self) -> Type:
        return AtomT(self.name)

    def json_key(self, atom) -> str:
        return str(atom)

    def from_json(self, value):
        """The atom a JSON value (or JSON object key) names, or KeyError."""
        if isinstance(value, str) and value in self._index:
            return value
        raise KeyError(value)

    def asleep(self, value) -> bool:
        """Whether a JSON value (or key) names an atom only a switch now off adds (`dormant`)."""
        return isinstance(value, str) and value in self.dormant


class EnumDomain(Domain):
    """Named atoms. `dormant` are the atoms a switch that is off would add (`with`): component
    data may name them (they are dropped), so one table serves the spec with and without it."""

    def __init__(self, name: str, atoms: list[str], dormant=()):
        self.name = name
        self.atoms = list(atoms)
        self.dormant = frozenset(dormant)
        super().__init__()


class GridDomain(Domain):
    """The cells of a grid, row-major; atoms are "row,col" strings; `pos` gives (row, col)."""

    def __init__(self, name: str, cells: list[tuple[int, int]]):
        self.name = name
        self.cells = sorted(cells)
        self.atoms = [f"{r},{c}" for r, c in self.cells]
        self.pos = dict(zip(self.atoms, self.cells))
        self.at = {rc: a for a, rc in self.pos.items()}
        super().__init__()
        self._neighbours = {
            a: [self.at[(r + dr, c + dc)] for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)) if (r + dr, c + dc) in self.at]
            for a, (r, c) in self.pos.items()
        }

    def neighbours(self, atom) -> list[str]:
        return self._neighbours[atom]


class RangeDomain(Domain):
    """The integers lo..hi. `dormant` are those a switch that is off would add (a named range's
    `with`), so component data keyed by them is dropped, as for an enum's."""

    def __init__(self, lo: int, hi: int, name: str | None = None, dormant=()):
        self.name = name or f"int[{lo}..{hi}]"
        self.lo, self.hi = lo, hi
        self.atoms = list(range(lo, hi + 1))
        self.dormant = frozenset(dormant)
        super().__init__()

    def asleep(self, value) -> bool:
        try:
            return not isinstance(value, bool) and int(value) in self.dormant
        except (TypeError, ValueError):
            return False

    def code(self, atom) -> int:
        return atom

    def atom(self, code: int):
        return code

    def codes(self):
        return range(self.lo, self.hi + 1)

    def __contains__(self, atom) -> bool:
        return isinstance(atom, int) and not isinstance(atom, bool) and self.lo <= atom <= self.hi

    @property
    def value_type(self) -> Type:
        return IntT(self.lo, self.hi)

    def from_json(self, value):
        if isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise KeyError(value) from None
        if value in self:
            return value
        raise KeyError(value)


class Domains:
    """The game's domain table; named domains plus anonymous int ranges created by types."""

    def __init__(self):
        self.by_name: dict[str, Domain] = {}

    def add(self, d: Domain) -> Domain:
        self.by_name[d.name] = d
        return d

    def range(self, lo: int, hi: int) -> str:
        d = RangeDomain(lo, hi)
        self.by_name.setdefault(d.name, d)
        return d.name

    def __getitem__(self, name: str) -> Domain:
        return self.by_name[name]

    def __contains__(self, name) -> bool:
        return name in self.by_name

    def of_type(self, t: Type) -> Domain | None:
        """The finite domain whose atoms are exactly the values of scalar type t, if any."""
        if isinstance(t, AtomT):
            return self.by_name[t.domain]
        if isinstance(t, IntT) and t.bounded:
            return self.by_name[self.range(t.lo, t.hi)]
        return None

    def resolve(self, t: Type) -> Type:
        """Replace domain names inside t by their value types; KeyError(name) if unknown."""
        if isinstance(t, _Named):
            return self.by_name[t.name].value_type
        if isinstance(t, SetT):
            return SetT(self.resolve(t.elem))
        if isinstance(t, MapT):
            if t.key not in self.by_name:
                raise KeyError(t.key)
            return MapT(t.key, self.resolve(t.value))
        if isinstance(t, RecordT):
            return RecordT(tuple((n, self.resolve(ft)) for n, ft in t.fields))
        return t
