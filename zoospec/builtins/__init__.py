"""Built-in functions that need real algorithms. Each is one class with three methods side by side:
`check` (argument types → result type), `py` (the concrete meaning) and `z3` (the encoding).
`tests/test_builtins.py` proves the two meanings agree. The registry and the base class are in
`base.py`; importing this package registers every built-in."""
from __future__ import annotations

from . import connectivity, grid, shapes  # noqa: F401  (registration)
