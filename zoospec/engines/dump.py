"""Every query written as a standalone SMT-LIB file: `--dump-smt2 DIR` (issue 41).

So anyone can give exactly what zoospec asks to another solver. The directory comes from the
environment (ZOOSPEC_DUMP_SMT2, which the command-line option sets), so worker processes spawned
for a question write theirs too; each file is named by its kind, the process and a counter.

A file is written before its question is asked, with `:status unknown`; once the engine has
answered sat or unsat, the status is filled in, so a file can be checked against another solver
(tests/test_dump_smt2.py runs `z3` and `yices-smt2` on them). What is asserted is the question
as asked, assumptions included as assertions: the same sat or unsat. Z3's own pseudo-Boolean
atoms (which `the` compiles to) are written as sums of `ite`s, so the file is plain SMT-LIB.
"""
from __future__ import annotations

import itertools
import os
from pathlib import Path

import z3

from .. import files
from ..smt import terms as zt

ENV = "ZOOSPEC_DUMP_SMT2"
_count = itertools.count(1)

_PB = {z3.Z3_OP_PB_EQ: "==", z3.Z3_OP_PB_LE: "<=", z3.Z3_OP_PB_GE: ">=", z3.Z3_OP_PB_AT_MOST: "<=",
       z3.Z3_OP_PB_AT_LEAST: ">="}


def into(directory: str | Path | None):
    """Write every query from now on (in this process and the ones it starts) into `directory`."""
    if directory is None:
        os.environ.pop(ENV, None)
    else:
        Path(directory).mkdir(parents=True, exist_ok=True)
        os.environ[ENV] = str(Path(directory).resolve())


def query(kind: str, assertions, assumptions=()):
    """Write one query if dumping is on; returns answered(result) to record the engine's answer."""
    folder = os.environ.get(ENV)
    if not folder:
        return _ignore
    terms = [t for x in (list(assertions) + list(assumptions)) for t in (x if isinstance(x, (list, tuple)) else [x])]
    path = Path(folder) / f"{kind}-{os.getpid()}-{next(_count):05d}.smt2"
    files.write_text(path, smt2(terms, f"zoospec {kind} query"))

    def answered(result):
        if result in (z3.sat, z3.unsat):
            text = path.read_text(encoding="utf-8")
            files.write_text(path, text.replace("(set-info :status unknown)", f"(set-info :status {result})", 1))
    return answered


def _ignore(result):
    return None


def smt2(terms: list, source: str) -> str:
    """The conjunction of `terms` as an SMT-LIB 2 script ending in (check-sat)."""
    terms = [portable(t) for t in terms]
    s = z3.Solver()
    s.add(terms)
    body = s.to_smt2()
    body = body.replace("; benchmark generated from python API\n", "")
    return f"; {source}\n(set-logic {logic(terms)})\n(set-info :source |{source}|)\n{body}"


def portable(t):
    """t with Z3's pseudo-Boolean atoms rewritten as linear sums of `ite`s (standard SMT-LIB)."""
    while True:
        pairs = [(a, _sum_form(a)) for a in _nodes(t) if z3.is_app(a) and a.decl().kind() in _PB]
        if not pairs:
            return t
        t = z3.substitute(t, *pairs)


def _sum_form(a):
    op = a.decl().kind()
    k, coeffs = zt.raw_pb_params(a.as_ast(), op in (z3.Z3_OP_PB_AT_MOST, z3.Z3_OP_PB_AT_LEAST))
    total = z3.Sum([z3.If(x, z3.IntVal(c), z3.IntVal(0)) for x, c in zip(a.children(), coeffs)] or [z3.IntVal(0)])
    return {"==": total == k, "<=": total <= k, ">=": total >= k}[_PB[op]]


def logic(terms: list) -> str:
    """The narrowest of QF_LIA, QF_NIA, LIA, NIA that holds the terms."""
    quantified = nonlinear = False
    for t in terms:
        for a in _nodes(t):
            if z3.is_quantifier(a):
                quantified = True
            elif z3.is_app(a) and a.decl().kind() == z3.Z3_OP_MUL and sum(not z3.is_int_value(c) for c in a.children()) > 1:
                nonlinear = True
    return ("" if quantified else "QF_") + ("NIA" if nonlinear else "LIA")


def _nodes(t):
    """Every distinct node of t's DAG, each once."""
    seen, stack = set(), [t]
    while stack:
        a = stack.pop()
        i = a.get_id()
        if i in seen:
            continue
        seen.add(i)
        yield a
        if z3.is_quantifier(a):
            stack.append(a.body())
        elif z3.is_app(a):
            stack.extend(a.children())
