"""Validation of a raw game file against `spec/schema/zoospec.schema.json`, every error with its line."""
from __future__ import annotations

import json
from functools import lru_cache

import jsonschema
from jsonschema.exceptions import best_match

from ..errors import Problem
from .catalog import SPEC_DIR
from .yamlload import Document

SCHEMA_PATH = SPEC_DIR / "schema" / "zoospec.schema.json"


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator():
    return jsonschema.Draft202012Validator(schema())


def validate(doc: Document) -> list[Problem]:
    problems = []
    for err in sorted(_validator().iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path))):
        if err.context:
            err = best_match(err.context)
        path = tuple(err.absolute_path)
        problems.append(Problem(doc.loc(path, _rule_id(doc.data, path)), _message(err, path)))
    return problems


def _rule_id(data, path):
    if len(path) >= 2 and path[0] in ("rules", "actions", "claims") and isinstance(path[1], int):
        try:
            rid = data[path[0]][path[1]].get("id")
            return rid if isinstance(rid, str) else None
        except (AttributeError, IndexError, KeyError, TypeError):
            return None
    return None


def _message(err, path) -> str:
    where = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in path).replace(".[", "[") or "top level"
    msg = err.message
    if len(msg) > 200:
        msg = msg[:200] + "..."
    return f"at {where}: {msg}"
