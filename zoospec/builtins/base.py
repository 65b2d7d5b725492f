"""What every built-in is: a definition with a type check, a Python meaning and a Z3 encoding,
and the registry the builder looks names up in."""
from __future__ import annotations

from ..ir.domains import GridDomain
from ..ir.types import AtomT, Type


class BuiltinError(Exception):
    """A call of a built-in with the wrong arguments (reported by the builder with its location)."""


class BuiltinDef:
    name: str = ""
    signature: str = ""
    options: dict[str, object] = {}
    # a few table lookups in Python (no search, no walk over a domain): a define made only of such
    # steps is called directly by generated code, not through its memo (backends/pygen.py)
    cheap: bool = False

    def check(self, args: list[Type], options: dict, domains) -> Type:
        raise NotImplementedError

    def py(self, args: list, options: dict, ctx):
        raise NotImplementedError

    def py_positional(self, options: dict, ctx):
        """The Python side as a function of the argument values, for generated code: what does
        not depend on the values (a grid's table) is looked up once. By default, `py` itself;
        the generated back end is compared with the closures, which call `py`, on every spec."""
        return lambda *args: self.py(list(args), options, ctx)

    def z3(self, args: list, options: dict, ctx):
        raise NotImplementedError


REGISTRY: dict[str, BuiltinDef] = {}


def register(cls):
    REGISTRY[cls.name] = cls()
    return cls


def grid_of(t: Type, domains, what: str):
    if isinstance(t, AtomT) and isinstance(domains[t.domain], GridDomain):
        return domains[t.domain]
    raise BuiltinError(f"{what} must be a cell of a grid domain, not {t}")

