"""A spec's `puzzle` section: the one-player question `zoospec solve` answers exactly.

The state of such a spec is the *record* of a game (what chance dealt, what the player chose and
when each thing was built); its invariants say which records are legal. The puzzle names the
parts of the state a deal file fixes, when a record is finished, the scoring rule and the target,
the effect that cuts a record back to an earlier point (so `replay` can re-check every point),
the goals an unsat core is stated in (ADR 0006), and the invariants asked first on their own — a
bound whose UNSAT settles a deal before the whole record is searched (ADR 0012).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from ..errors import StateError
from ..ir.types import BOOL, INT, MapT
from ..suggest import suggest


@dataclass(frozen=True)
class Goal:
    rule: str
    args: dict
    best: ir.Expr
    says: str

    @property
    def label(self) -> str:
        a = ", ".join(f"{k}={v}" for k, v in self.args.items())
        return f"{self.rule}({a})" if a else self.rule


@dataclass
class Puzzle:
    says: str
    deal: list[str]
    finished: ir.Expr
    score: str
    target: int
    cut: str
    goals: list[Goal]
    interchangeable: list[str] = field(default_factory=list)
    bound: list[str] = field(default_factory=list)
    objectives: str | None = None  # the deal variable `solve --objectives` changes
    layout_vars: list[str] = field(default_factory=list)  # decided first by `solve --layout-first` (ADR 0016)
    layout_rules: list[str] = field(default_factory=list)  # what its proposer keeps
    layout_pin_only: dict = field(default_factory=dict)  # var -> ([(key, type)], where): pinned only where it holds
    layout_generalise: list[str] = field(default_factory=list)  # pins dropped in turn from a refuted layout
    layout_generalise_by: str | None = None  # a domain: then the pins at each of its keys, in turn


def load(loader, raw: dict) -> Puzzle | None:
    """Build the section (errors go to the loader, located in the file)."""
    g, p = loader.g, ("puzzle",)
    ok = True
    raw = {**raw, "deal": _deal(loader, raw, p)}
    for part in ("deal", "interchangeable"):
        for i, name in enumerate(raw.get(part, [])):
            if name not in g.state_types:
                loader.err(p + (part, i), f"'{name}' is not a state variable{suggest(name, g.state_types)}", "puzzle")
                ok = False
    for i, name in enumerate(raw.get("interchangeable", [])):
        if name in g.state_types and not isinstance(g.state_types[name], MapT):
            loader.err(p + ("interchangeable", i), f"'{name}' is not a map", "puzzle")
            ok = False
    objectives = raw.get("objectives")
    if objectives is not None and (objectives not in raw.get("deal", []) or not isinstance(g.state_types.get(objectives), MapT)):
        loader.err(p + ("objectives",), f"'{objectives}' is not a map among the deal's variables", "puzzle")
        ok = False
    finished = loader.expr(raw["finished"], p + ("finished",), loader.scope(), "puzzle", BOOL)
    score = g.rules.get(raw["score"])
    if score is None or score.kind != "scoring" or score.params:
        loader.err(p + ("score",), f"'{raw['score']}' is not a scoring rule without parameters", "puzzle", about=raw["score"])
        ok = False
    cut = g.rules.get(raw["cut"])
    if cut is None or cut.kind != "effect" or len(cut.params) != 1:
        loader.err(p + ("cut",), f"'{raw['cut']}' is not an effect rule with one parameter", "puzzle", about=raw["cut"])
        ok = False
    ok = _invariants(loader, raw.get("bound", []), p + ("bound",)) and ok
    lf = raw.get("layout_first", {})
    for i, name in enumerate(lf.get("vars", [])):
        if name not in g.state_types or name in raw.get("deal", []):
            why = "is part of the deal, fixed before any search" if name in g.state_types else f"is not a state variable{suggest(name, g.state_types)}"
            loader.err(p + ("layout_first", "vars", i), f"'{name}' {why}", "puzzle")
            ok = False
    ok = _invariants(loader, lf.get("rules", []), p + ("layout_first", "rules")) and ok
    for i, name in enumerate(lf.get("generalise", [])):
        if name not in lf.get("vars", []):
            loader.err(p + ("layout_first", "generalise", i), f"'{name}' is not among layout_first's vars", "puzzle")
            ok = False
    by = lf.get("generalise_by")
    if by is not None and not any(isinstance(g.state_types.get(n), MapT) and g.state_types[n].key == by for n in lf.get("vars", [])):
        loader.err(p + ("layout_first", "generalise_by"), f"'{by}' keys none of layout_first's vars", "puzzle")
        ok = False
    pin_only = {}
    for name, po in lf.get("pin_only", {}).items():
        where = p + ("layout_first", "pin_only", name)
        t = g.state_types.get(name)
        if name not in lf.get("vars", []) or not isinstance(t, MapT):
            loader.err(where, f"'{name}' is not a map among layout_first's vars", "puzzle")
            ok = False
            continue
        key = po["key"]
        if loader.taken(key):
            loader.err(where + ("key",), f"key name '{key}' hides a name of the spec; choose another name", "puzzle")
            ok = False
            continue
        params = [(key, g.domains[t.key].value_type)]  # the key ranges over the map's key domain
        cond = loader.expr(po["where"], where + ("where",), loader.scope(dict(params)), "puzzle", BOOL)
        if cond is None:
            ok = False
            continue
        pin_only[name] = (params, cond)
    goals = []
    for i, gr in enumerate(raw["goals"]):
        rule = g.rules.get(gr["rule"])
        if rule is None or rule.kind != "scoring":
            loader.err(p + ("goals", i, "rule"), f"'{gr['rule']}' is not a scoring rule{suggest(gr['rule'], [r for r, v in g.rules.items() if v.kind == 'scoring'])}", "puzzle",
                       about=gr["rule"])
            ok = False
            continue
        args = gr.get("args", {})
        if set(args) != {n for n, _ in rule.params}:
            loader.err(p + ("goals", i, "args"), f"{rule.id} takes {[n for n, _ in rule.params]}", "puzzle")
            ok = False
            continue
        try:
            args = g._args(rule.params, args, rule.id)
        except StateError as e:  # a value outside its domain: reported where it was written
            loader.err(p + ("goals", i, "args"), str(e), "puzzle")
            ok = False
            continue
        best = loader.expr(gr["best"], p + ("goals", i, "best"), loader.scope(), "puzzle", INT)
        if best is None:
            ok = False
            continue
        goals.append(Goal(rule.id, args, best, gr.get("says", "")))
    if not ok or finished is None:
        return None
    return Puzzle(raw["says"], list(raw["deal"]), finished, score.id, raw["target"], cut.id, goals,
                  list(raw.get("interchangeable", [])), list(raw.get("bound", [])), objectives,
                  list(lf.get("vars", [])), list(lf.get("rules", [])), pin_only,
                  list(lf.get("generalise", [])), by)


def _deal(loader, raw: dict, p: tuple) -> list:
    """The deal's variables: `deal`, or those `deal_with` gives for the switches that are on, each
    adding its own (one player's multiplayer zoo is dealt the tiles and animals the draft gave it,
    not a deck; World Exhibits, which needs it, adds the turns the extra plank was open)."""
    table, out = raw.get("deal_with", {}), []
    for switch in table:
        if switch not in loader.g.switches:
            loader.err(p + ("deal_with", switch), f"no switch named '{switch}'{suggest(switch, loader.g.switches)}", "puzzle")
        elif loader.g.switches[switch]:
            out += [v for v in table[switch] if v not in out]
    return out or list(raw["deal"])


def _invariants(loader, ids: list, where: tuple) -> bool:
    """Whether every id names an invariant rule (the others are reported where they are written)."""
    rules, ok = loader.g.rules, True
    for i, rid in enumerate(ids):
        if rid not in rules or rules[rid].kind != "invariant":
            known = [x for x, v in rules.items() if v.kind == "invariant"]
            loader.err(where + (i,), f"'{rid}' is not an invariant rule{suggest(rid, known)}", "puzzle", about=rid)
            ok = False
    return ok
