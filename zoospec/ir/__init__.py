"""The typed IR every spec is built into and both back ends compile: the nodes (`nodes.py`), the
types and domains they carry, the order values are gone through in, and the analyses the back ends
share (`plan.py`). `ir.Lit`, `ir.walk`, … name the nodes."""
from .nodes import *  # noqa: F401,F403  (the face of the package)
