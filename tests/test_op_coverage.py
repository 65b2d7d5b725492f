"""Every IR op has a handler in both back ends, and some test spec uses it."""
import pytest
from conftest import ALL_SPECS, game

from zoospec import ir
from zoospec.backends.python import PyCompiler
from zoospec.backends.z3 import ZCompiler
from zoospec.builtins.base import REGISTRY


@pytest.mark.parametrize("op", ir.EXPR_OPS, ids=lambda o: o.__name__)
def test_expression_op_has_both_handlers(op):
    assert callable(getattr(PyCompiler, "c_" + op.__name__, None)), f"Python back end lacks {op.__name__}"
    assert callable(getattr(ZCompiler, "z_" + op.__name__, None)), f"Z3 back end lacks {op.__name__}"


@pytest.mark.parametrize("op", ir.STMT_OPS, ids=lambda o: o.__name__)
def test_statement_op_has_both_handlers(op):
    assert callable(getattr(PyCompiler, "s_" + op.__name__, None))
    assert callable(getattr(ZCompiler, "s_" + op.__name__, None))


def _used():
    exprs, stmts, builtins, aggs = set(), set(), set(), set()

    def visit_stmt(s):
        stmts.add(type(s))
        if isinstance(s, ir.Assign):
            for n in ir.walk(s.value):
                note(n)
            for k, v in s.path:
                if k == "index":
                    for n in ir.walk(v):
                        note(n)
        elif isinstance(s, ir.For):
            for n in ir.walk(s.clause.source):
                note(n)
            for b in s.body:
                visit_stmt(b)
        elif isinstance(s, ir.If):
            for n in ir.walk(s.cond):
                note(n)
            for b in s.body + s.orelse:
                visit_stmt(b)

    def note(n):
        exprs.add(type(n))
        if isinstance(n, ir.Builtin):
            builtins.add(n.name)
        if isinstance(n, ir.Agg):
            aggs.add(n.op)
            for sub in ir.walk(n.elt):
                note(sub)

    for p in ALL_SPECS:
        g = game(str(p))
        bodies = [r.body for r in g.rules.values() if r.body is not None]
        bodies += [b for _, b in g.defines.values()] + [c.body for c in g.claims.values()]
        bodies += [g.legal_expr(a.id) for a in g.actions.values()]  # requirements, and an `after` for what an action ensures
        for b in bodies:
            for n in ir.walk(b):
                note(n)
        for a in g.actions.values():
            for s in a.effect:
                visit_stmt(s)
    return exprs, stmts, builtins, aggs


def test_every_op_is_used_by_a_spec():
    exprs, stmts, builtins, aggs = _used()
    assert set(ir.EXPR_OPS) - exprs == set(), "ops no spec uses"
    assert set(ir.STMT_OPS) - stmts == set()
    assert set(REGISTRY) - builtins == set(), "built-ins no spec uses"
    assert {"all", "any", "count", "sum", "min", "max", "set"} - aggs == set()
