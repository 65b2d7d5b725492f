"""What a command prints under --json: one object whose layout is published as a JSON Schema,
spec/schema/output-NAME.schema.json (shipped in the package), and says which one it follows:
`output` names it, `format` is its version — a change that would break a reader raises it.
(`state-schema` prints a schema itself, and `dominoes --json` a game state, which the game's own
state schema describes: neither is wrapped.) With ZOOSPEC_CHECK_OUTPUT=1 (the test suite sets
it) every object is checked against its schema before it is printed."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import jsonschema

from ..errors import InternalError
from .catalog import SPEC_DIR

FORMAT = 1


def schema_path(name: str) -> Path:
    return SPEC_DIR / "schema" / f"output-{name}.schema.json"


@lru_cache(maxsize=None)
def _validator(name: str):
    return jsonschema.Draft202012Validator(json.loads(schema_path(name).read_text(encoding="utf-8")))


def emit(name: str, payload: dict, **dumps) -> None:
    """Print `payload` as the `name` output (see the module)."""
    out = {"format": FORMAT, "output": name, **payload}
    if os.environ.get("ZOOSPEC_CHECK_OUTPUT") == "1":
        wrong = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in _validator(name).iter_errors(out)]
        if wrong:
            raise InternalError(f"the {name} output does not follow its published schema: " + "; ".join(wrong[:3]))
    print(json.dumps(out, indent=2, **dumps))
