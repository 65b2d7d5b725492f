"""`zoospec fixtures`: boundary test cases for people implementing a game elsewhere.

For every rule, and every top-level clause of it (the parts of an `and`/`or`), Z3 picks two
states that differ in exactly one thing — one set element, one number, one flag — on which the
rule's verdict differs, and, for a clause, on which that clause flips too: the state where the
rule just holds and the one where it just fails. For every action, the same for its legality,
with the state the legal move leads to. A clause that can never decide the verdict alone gets
no pair, and the index says so (it is redundant where it stands).

Output: one JSON file per rule or action, `index.json`, and `state.schema.json`; the same seed
gives byte-identical files. Every fixture is re-checked with the Python back end.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import z3

from zoospec import files, ir
from zoospec.backends.z3 import zequal
from zoospec.engines import work
from zoospec.ir.types import BoolT, IntT, MapT, RecordT, SetT

from ..symbolic import Query, confirm, py_value, python_invariants_hold
from ..traces import plain
from .shrink import shrink


def _differs_by_one(q) -> z3.BoolRef:
    """The two states differ in exactly one leaf, and a number by exactly one."""
    a, b = q.syms[0].leaves, q.syms[1].leaves
    out = [z3.Sum([z3.If(x == y, 0, 1) for (x, _), (y, _) in zip(a, b)]) == 1]
    out += [z3.Or(x == y, x - y == 1, y - x == 1) for (x, t), (y, _) in zip(a, b) if isinstance(t, IntT)]
    return z3.And(out)


def _clauses(body):
    if isinstance(body, (ir.And, ir.Or)) and len(body.args) > 1:
        return list(body.args)
    return []


def changed(game, s1, s2) -> str:
    """Where two states differ, in words (one leaf)."""
    out = []
    for n, t in game.state_types.items():
        _diff(n, t, s1[n], s2[n], out)
    return "; ".join(out)


def _diff(path, t, a, b, out):
    if a == b:
        return
    if isinstance(t, SetT):
        for x in sorted(a - b, key=repr):
            out.append(f"{path} without {x}")
        for x in sorted(b - a, key=repr):
            out.append(f"{path} with {x}")
    elif isinstance(t, MapT):
        for k in a:
            _diff(f"{path}[{k}]", t.value, a[k], b[k], out)
    elif isinstance(t, RecordT):
        for n, ft in t.fields:
            _diff(f"{path}.{n}", ft, a[n], b[n], out)
    else:
        out.append(f"{path}: {a} -> {b}")


def _rule_pairs(game, rule, timeout, seed):
    out = []
    for ci, clause in [(None, None)] + list(enumerate(_clauses(rule.body))):
        q = Query(game, 2, timeout, seed)
        args, _ = q.args(rule.params)
        v1, d1 = q.term(rule.body, 0, args)
        v2, d2 = q.term(rule.body, 1, args)
        conds = [d1, d2, _differs_by_one(q)]
        is_bool = isinstance(rule.body.type, BoolT)
        conds.append(z3.And(v1, z3.Not(v2)) if is_bool else z3.Not(zequal(v1, v2)))  # sets and maps: by value
        if clause is not None:
            c1, e1 = q.term(clause, 0, args)
            c2, e2 = q.term(clause, 1, args)
            conds += [e1, e2, z3.Not(zequal(c1, c2))]
        r, m = q.solve_invariant((0, 1), *conds)
        if r != "sat":
            out.append((ci, None, "never decides the verdict alone (UNSAT)" if r == "unsat" else f"unknown: {m}"))
            continue
        s1, s2, a = m.states[0], m.states[1], m.args[0]
        diff = _diff_path(game, s1, s2)

        def keeps(s, clause=clause, a=a, diff=diff, is_bool=is_bool):
            t = _apply_diff(s, diff)
            if t is None or not (python_invariants_hold(game, s) and python_invariants_hold(game, t)):
                return False
            x, y = py_value(game, rule.body, s, a), py_value(game, rule.body, t, a)
            if "undefined" in (x, y) or (is_bool and not (x is True and y is False)) or x == y:
                return False
            return clause is None or py_value(game, clause, s, a) != py_value(game, clause, t, a)

        confirm(keeps(s1), f"a boundary pair for {rule.id}")
        s1 = shrink(s1, game.state_types, game.domains, keeps)
        out.append((ci, (s1, _apply_diff(s1, diff), a), None))
    return out


def _diff_path(game, s1, s2):
    """The single leaf where two states differ: (var, path, value in s2) — for a set, the element."""
    for n, t in game.state_types.items():
        hit = _leaf(n, (), t, s1[n], s2[n])
        if hit:
            return hit
    return None


def _leaf(var, path, t, a, b):
    if a == b:
        return None
    if isinstance(t, SetT):
        x = next(iter((a ^ b)))
        return (var, path, ("toggle", x))
    if isinstance(t, MapT):
        for k in a:
            h = _leaf(var, path + (k,), t.value, a[k], b[k])
            if h:
                return h
    if isinstance(t, RecordT):
        for n, ft in t.fields:
            h = _leaf(var, path + (n,), ft, a[n], b[n])
            if h:
                return h
    if isinstance(t, IntT):
        return (var, path, ("add", b - a))
    return (var, path, ("set", b))


def _apply_diff(state, diff):
    if diff is None:
        return None
    var, path, (how, x) = diff
    out = dict(state)

    def go(v, path):
        if not path:
            if how == "toggle":
                return v - {x} if x in v else v | {x}
            return v + x if how == "add" else x
        v = dict(v)
        v[path[0]] = go(v[path[0]], path[1:])
        return v
    out[var] = go(state[var], path)
    return out


def _action_pairs(game, action, timeout, seed):
    """(clause index or None, (legal state, illegal state, args) or None, why) for the action's
    legality as a whole and for each of its requirements."""
    out = []
    reqs = [e for _, e in action.requires]
    for ci, clause in [(None, None)] + (list(enumerate(reqs)) if len(reqs) > 1 else []):
        q = Query(game, 3, timeout, seed)
        args, _ = q.args(action.params)
        legal = game.legal_expr(action.id)
        conds = [q.holds(legal, 0, args), z3.Not(q.holds(legal, 1, args)),
                 _differs_by_one(q), q.transition(action.id, 0, 2, args)]
        if clause is not None:
            conds.append(z3.Not(q.holds(clause, 1, args)))
        r, m = q.solve_invariant((0, 1), *conds)
        if r != "sat":
            out.append((ci, None, "no legal state is one change away from an illegal one (UNSAT)" if r == "unsat"
                        else f"unknown: {m}"))
            continue
        s1, s2, a = m.states[0], m.states[1], m.args[0]
        diff = _diff_path(game, s1, s2)

        def keeps(s, diff=diff, a=a, clause=clause):
            t = _apply_diff(s, diff)
            if t is None or not (python_invariants_hold(game, s) and python_invariants_hold(game, t)):
                return False
            try:
                ok = game.legal(s, action.id, a) and not game.legal(t, action.id, a)
                game.apply(s, action.id, a)
            except Exception:
                return False
            return ok and (clause is None or py_value(game, clause, t, a) is not True)

        confirm(keeps(s1), f"a legal/illegal pair for {action.id}")
        s1 = shrink(s1, game.state_types, game.domains, keeps)
        out.append((ci, (s1, _apply_diff(s1, diff), a), None))
    return out


def _example(game, params, expr, timeout, seed, action=None):
    """One state (and arguments) where the expression is defined — or the action legal."""
    q = Query(game, 2 if action else 1, timeout, seed)
    args, _ = q.args(params)
    conds = []
    if action:
        conds += [q.holds(game.legal_expr(action), 0, args), q.transition(action, 0, 1, args)]
    else:
        conds.append(q.term(expr, 0, args)[1])
    r, m = q.solve_invariant(0, *conds)
    if r != "sat":
        return None
    s, a = m.states[0], m.args[0]
    if action:
        ok = python_invariants_hold(game, s) and game.legal(s, action, a)
    else:
        ok = python_invariants_hold(game, s) and py_value(game, expr, s, a) != "undefined"
    confirm(ok, f"an example for {action or 'a rule'}")
    return s, a


def _head(game, key: str, obj, tag: str, clause, args) -> dict:
    """The fields every fixture starts with: what it tests, where the rulebook says so, under
    which readings, with which arguments."""
    out = {"id": f"{obj.id}#{tag}", key: obj.id}
    if key == "rule":
        out["kind"] = obj.kind
    return {**out, "clause": clause, "says": obj.says, "cite": _cite(obj.cite), "readings": dict(game.chosen),
            "args": plain(args)}


def _cite(c):
    if c is None:
        return None
    out = {"file": c.file, "section": c.section, "sentence": list(c.sentence)}
    return {**out, "also": [_cite(a) for a in c.also]} if c.also else out


def generate(game, out_dir: str | Path, seed: int = 0, timeout: float | None = 60.0, progress=None,
             budget: float | None = None) -> dict:
    """Write the corpus; returns the index (also written as index.json). With a `budget` in
    seconds, no new rule or action is started once it is spent; the index lists what was skipped."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    index = {"game": game.id, "source": str(game.file), "readings": dict(game.chosen), "seed": seed,
             "state_schema": "state.schema.json", "files": [], "no_boundary": [], "skipped": []}
    for subject, fixtures in corpus(game, index, seed, timeout, progress, budget):
        _write(out, subject, fixtures, index)
    files.write_text(out / "state.schema.json", json.dumps(game.state_schema(), indent=2, sort_keys=True) + "\n")
    files.write_text(out / "index.json", json.dumps(index, indent=2, sort_keys=True) + "\n")
    return index


def states(game, seed: int = 0, timeout: float | None = 60.0, progress=None, budget: float | None = None):
    """Every state of the corpus, as (what it is a fixture of, Python state) — the states
    `zoospec conform --cases fixtures` asks an implementation about."""
    index = {"no_boundary": [], "skipped": []}
    for subject, fixtures in corpus(game, index, seed, timeout, progress, budget):
        for f in fixtures:
            for part in ("holds", "fails", "first", "second", "legal", "illegal", "example"):
                if part in f:
                    yield f"{f['id']} ({part})", game.state_from_json(f[part]["state"])


def corpus(game, index: dict, seed: int, timeout, progress, budget):
    """(subject, fixtures) for every rule and action, in spec order; what has no boundary or was
    not started within `budget` seconds is noted in `index`. Under work budgets (engines/work.py):
    Z3 alone, bounded by its work count, so a seed gives the same corpus on every run — a race
    with Yices gave whichever engine's model came first."""
    with work.budgets():
        yield from _corpus(game, index, seed, timeout, progress, budget)


def _corpus(game, index: dict, seed: int, timeout, progress, budget):
    stop = None if budget is None else time.monotonic() + budget

    def spent(subject):
        if stop is not None and time.monotonic() >= stop:
            index["skipped"].append(subject)
            return True
        return False
    j = lambda s: game.state_to_json(s)  # noqa: E731
    for rule in game.rules.values():
        if rule.body is None or spent(rule.id):
            continue
        if progress:
            progress(f"fixtures for {rule.id}")
        fixtures = []
        for ci, pair, why in _rule_pairs(game, rule, timeout, seed):
            if pair is None:
                index["no_boundary"].append({"rule": rule.id, "clause": None if ci is None else ci + 1, "why": why})
                ex = _example(game, rule.params, rule.body, timeout, seed) if ci is None else None
                if ex:
                    fixtures.append({**_head(game, "rule", rule, "example", None, ex[1]),
                                     "note": "the verdict never changes with one change of state",
                                     "example": {"state": j(ex[0]), "expected": plain(py_value(game, rule.body, *ex))}})
                continue
            s1, s2, a = pair
            v1, v2 = plain(py_value(game, rule.body, s1, a)), plain(py_value(game, rule.body, s2, a))  # sets as lists
            clause = None if ci is None else ci + 1
            fixtures.append({**_head(game, "rule", rule, "all" if ci is None else f"clause{clause}", clause, a),
                             "changed": changed(game, s1, s2),
                             "holds" if rule.kind != "scoring" else "first": {"state": j(s1), "expected": v1},
                             "fails" if rule.kind != "scoring" else "second": {"state": j(s2), "expected": v2}})
        yield rule.id, fixtures
    for action in game.actions.values():
        if spent(action.id) or not game.has_instances(action.params):  # no move at all under these switches
            continue
        if progress:
            progress(f"fixtures for {action.id}")
        found = []
        for ci, pair, why in _action_pairs(game, action, timeout, seed):
            if pair is None:
                index["no_boundary"].append({"action": action.id, "clause": None if ci is None else ci + 1, "why": why})
                ex = _example(game, action.params, None, timeout, seed, action.id) if ci is None else None
                if ex:
                    found.append({**_head(game, "action", action, "example", None, ex[1]),
                                  "legal": {"state": j(ex[0]), "expected_legal": True,
                                            "expected_after": j(game.apply(ex[0], action.id, ex[1]))}})
                continue
            s1, s2, a = pair
            clause = None if ci is None else ci + 1
            found.append({**_head(game, "action", action, "legality" if ci is None else f"require{clause}", clause, a),
                          "changed": changed(game, s1, s2),
                          "legal": {"state": j(s1), "expected_legal": True, "expected_after": j(game.apply(s1, action.id, a))},
                          "illegal": {"state": j(s2), "expected_legal": False}})
        yield action.id, found


def _write(out: Path, subject: str, fixtures: list, index: dict):
    if not fixtures:
        return
    name = f"{subject}.json"
    files.write_text(out / name, json.dumps(fixtures, indent=2, sort_keys=True) + "\n")
    index["files"].append({"file": name, "subject": subject, "fixtures": len(fixtures)})


def count(index: dict) -> int:
    return sum(f["fixtures"] for f in index["files"])
