"""Loops in effects run in domain order in both back ends, whatever order the set iterates in:
the later write to one place wins, so the order is part of the meaning (docs/language.md)."""
from conftest import ROOT, game

from zoospec import ir
from zoospec.ir.types import SetT


def test_python_loop_runs_in_domain_order_not_iteration_order():
    g = game(str(ROOT / "tests" / "specs" / "ops.yaml"))
    (loop,) = g.action("ops.last").effect
    animal = loop.clause.source.type.elem
    # the same loop over a source that iterates in reverse domain order
    reversed_source = ir.Lit(["elk", "owl", "fox"], SetT(animal))
    stmt = ir.For(ir.Clause(loop.clause.var, reversed_source, ()), loop.body)
    state = {"who": "owl"}
    writes = []
    g.python_backend.stmt(stmt)(state, {}, writes)
    assert [w[2] for w in writes] == ["fox", "owl", "elk"]
