"""Loading a game file: YAML → schema check → domains, constants, state, defines, readings,
rules, actions, claims → a `Game` (runtime/game.py) whose rules evaluate in Python and compile to Z3.

All problems found are collected and raised together as one `SpecError`."""
from __future__ import annotations

import copy
import re
from pathlib import Path

from .. import ir
from ..backends.python import deep_copy
from ..errors import Loc, Problem, SpecError, StateError
from ..ir.domains import EnumDomain, GridDomain, RangeDomain
from ..ir.types import BOOL, INT, AtomT, BoolT, IntT, Type, TypeSyntaxError, parse_type
from ..runtime.game import Action, Cite, Claim, FinalScore, Game, NonNormative, Reading, Rule
from ..runtime.state import from_json, state_type_ok, zero
from ..suggest import suggest
from . import dealing, packing, picture as views, puzzle
from .build import LocMap, LocatedError, Scope, Signature, build_expr, build_stmts
from .catalog import game_path, readings_arg, switches_arg
from .schema import validate
from .yamlload import Document, load_file, load_text

RULE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$")  # e.g. nyz.move.solo


def load(path: str | Path, readings: dict[str, str] | None = None, switches: dict[str, bool] | None = None,
         constants: dict | None = None) -> Game:
    """Load and check a game file; raises SpecError listing every problem found. `constants`:
    component constants given other values than the file's (name -> the whole value, written as
    in the file), e.g. another source's number for a value the rulebook does not print."""
    doc = load_file(path)
    if constants:
        doc = _with_constants(doc, constants)
    g = Loader(doc, readings or {}, switches or {}).run()
    g.varied = dict(constants or {})
    return g


def _with_constants(doc: Document, constants: dict) -> Document:
    """The document with the named constants' values replaced (checked by the loader as any)."""
    data = copy.deepcopy(doc.data)
    table = data.get("components", {}).get("constants", {}) if isinstance(data, dict) else {}
    unknown = [n for n in constants if not isinstance(table, dict) or n not in table]
    if unknown:
        raise SpecError([Problem(doc.loc(("components", "constants")),
                                 f"no constant named {', '.join(unknown)}{suggest(unknown[0], table or {})}")])
    for name, value in constants.items():
        table[name]["value"] = value
    return Document(doc.file, data, doc.marks)


def loads(text: str, file: str = "<string>", readings=None, switches=None) -> Game:
    doc = load_text(text, file)
    return Loader(doc, readings or {}, switches or {}).run()


def load_named(name: str, readings=None, switches=None) -> Game:
    """A game as a user names it: a bundled name or a spec file, with `--reading` and `--with`
    as typed (lists of strings)."""
    return load(game_path(name), readings=readings_arg(readings), switches=switches_arg(switches))


def load_recorded(meta: dict, path: str = "the file") -> Game:
    """The game a trace or plan was made with: its spec under the readings and switches it names
    (`path`: the trace's, for the message when it names none)."""
    if not isinstance(meta, dict) or not isinstance(meta.get("source"), str) or not meta["source"]:
        raise StateError(f"{path}: no #meta.source: the trace does not say which spec it was made with")
    readings, switches = meta.get("readings") or {}, meta.get("switches") or {}
    if not isinstance(readings, dict) or not isinstance(switches, dict):
        raise StateError(f"{path}: #meta.readings and #meta.switches must be objects (a reading's choice, a switch's on/off)")
    return load(meta["source"], readings=readings, switches=switches)


class Loader:
    def __init__(self, doc: Document, readings: dict, switches: dict):
        self.doc = doc
        self.g = Game()
        self.g._reload = load
        self.g.file = doc.file
        self.problems: list[Problem] = []
        self.want_readings = readings
        self.want_switches = switches
        self.raw_defines: dict[str, tuple] = {}
        self.building: list[str] = []
        self.failed: set[str] = set()
        # rules written but not built (their parameters, body or effect had errors, reported there):
        # a reference to one is not reported again, so a spec's first problem is its cause
        self.unbuilt_rules: set[str] = set()
        # every action id in the file, for `can(...)` in defines built before the actions are
        self.action_refs: dict[str, ir.ActionRef] = {
            a["id"]: ir.ActionRef(a["id"]) for a in (doc.data.get("actions") or []) if isinstance(a, dict) and isinstance(a.get("id"), str)
        } if isinstance(doc.data, dict) and isinstance(doc.data.get("actions"), list) else {}

    def err(self, path, message, rule=None, loc: Loc | None = None, about: str | None = None):
        """Report a problem at path. `about`: the rule id a reference problem names — dropped when
        that rule was written but failed to build, whose own problem says why."""
        if about is not None and about in self.unbuilt_rules:
            return
        self.problems.append(Problem(loc or self.doc.loc(path, rule), message))

    def run(self) -> Game:
        data = self.doc.data
        if not isinstance(data, dict):
            raise SpecError([Problem(self.doc.loc(()), "a game file is a mapping with game, state and rules sections")])
        self.problems.extend(validate(self.doc))
        if self.problems:
            raise SpecError(self.problems)
        g = self.g
        g.id = data["game"]["id"]
        g.title = data["game"]["title"]
        g.rulebook = data["game"]["rulebook"]
        self.switches(data["game"].get("switches", {}))
        if self.problems:  # a combination of switches the spec does not define: the rest would only echo it
            raise SpecError(self.problems)
        self.domains(data.get("components", {}).get("domains", {}))
        self.constants(data.get("components", {}).get("constants", {}))
        self.state(data.get("state", {}))
        self.atoms = self._atom_table()
        self.collect_defines(data.get("define", {}), data.get("readings", {}))
        for name in list(self.raw_defines):
            try:
                self.define_sig(name)
            except _Failed:
                pass
        self.rules(data.get("rules", []))
        self.actions(data.get("actions", []))
        self.claims(data.get("claims", []))
        if "final_score" in data["game"]:
            self.final_score(data["game"]["final_score"])
        if "start" in data:
            self.start(data["start"])
        g.non_normative = [NonNormative(e["section"], tuple(e["sentence"]) if isinstance(e["sentence"], list) else (e["sentence"],),
                                        e["why"]) for e in data.get("coverage", {}).get("non_normative", [])]
        if "packing" in data:
            g.packing = packing.load(self, data["packing"])
        if "picture" in data:
            g.views = views.load(self, data["picture"])
        if "dealing" in data:
            g.dealing = dealing.load(self, data["dealing"])
        if "puzzle" in data:
            g.puzzle = puzzle.load(self, data["puzzle"])
        for name in self.want_readings:
            if name not in g.readings:
                self.err(("readings",), f"no reading named '{name}'{suggest(name, g.readings)}")
        if self.problems:
            raise SpecError(self.problems)
        return g

    def final_score(self, raw):
        entries = raw if isinstance(raw, list) else [raw]
        for i, e in enumerate(entries):
            p = ("game", "final_score") + ((i,) if isinstance(raw, list) else ())
            rule = self.g.rules.get(e["rule"])
            if rule is None or rule.kind != "scoring":
                self.err(p + ("rule",), f"'{e['rule']}' is not a scoring rule{suggest(e['rule'], [r for r, v in self.g.rules.items() if v.kind == 'scoring'])}",
                         about=e["rule"])
                continue
            got = {k: self.expr(e[k], p + (k,), self.scope(dict(rule.params) if k == "given" else {}), rule.id, BOOL)
                   for k in ("given", "when") if k in e}
            if None not in got.values():
                self.g.final_scores.append(FinalScore(rule.id, got.get("given"), got.get("when")))

    def start(self, raw):
        """The start state: each listed variable from its JSON value, or from the constant it
        names (a string naming a constant of the same type); every other variable plain (zero)."""
        out = {}
        for n, t in self.g.state_types.items():
            if n not in raw:
                out[n] = zero(t, self.g.domains)
                continue
            v = raw[n]
            if isinstance(v, str) and v in self.g.consts:
                ct, cv = self.g.consts[v]
                if str(ct) != str(t):
                    self.err(("start", n), f"constant '{v}' is {ct}, but state variable '{n}' is {t}")
                    continue
                out[n] = deep_copy(cv)
                continue
            try:
                out[n] = from_json(v, t, self.g.domains, f"start.{n}")
            except StateError as e:
                self.err(("start", n), str(e))
        for n in raw:
            if n not in self.g.state_types:
                self.err(("start", n), f"'{n}' is not a state variable{suggest(n, self.g.state_types)}")
        self.g.start = out

    # ------------------------------------------------------------------ helpers
    def typ(self, text, path, rule=None) -> Type | None:
        try:
            t = parse_type(text, self.g.domains.range)
            return self.g.domains.resolve(t)
        except TypeSyntaxError as e:
            self.err(path, f"bad type: {e}", rule)
        except KeyError as e:
            name = e.args[0]
            self.err(path, f"unknown domain '{name}' in type {text!r}{suggest(str(name), self.g.domains.by_name)}", rule)
        return None

    def cite(self, raw, path) -> Cite | None:
        if raw is None:
            return None
        if isinstance(raw, list):  # several sections: the first, and the rest as `also`
            first, *rest = (self.cite(r, path) for r in raw)
            return Cite(first.file, first.section, first.sentence, tuple(rest))
        s = raw.get("sentence", ())
        return Cite(raw.get("file", self.g.rulebook), raw["section"], tuple(s) if isinstance(s, list) else (s,))

    def scope(self, locals_: dict | None = None, allow_state=True) -> Scope:
        return Scope(self.g.domains, self.g.state_types, self.g.consts, self.define_sig, self.atoms, dict(locals_ or {}), allow_state,
                     self.action_refs)

    def locmap(self, path, rule=None) -> LocMap:
        m = self.doc.mark(path)
        if m is None:
            return LocMap(self.doc.file, 1, 1, None, rule)
        return LocMap(self.doc.file, m.line, m.col, m.style, rule)

    def expr(self, text, path, scope, rule=None, expect=None) -> ir.Expr | None:
        try:
            return build_expr(text, scope, self.locmap(path, rule), expect)
        except LocatedError as e:
            self.problems.append(Problem(e.loc, e.message))
        except _Failed:
            pass
        return None

    def stmts(self, text, path, scope, rule=None):
        try:
            return build_stmts(text, scope, self.locmap(path, rule))
        except LocatedError as e:
            self.problems.append(Problem(e.loc, e.message))
        except _Failed:
            pass
        return None

    def params(self, raw, path, rule=None, finite=True) -> list[tuple[str, Type]] | None:
        out = []
        ok = True
        for name, text in (raw or {}).items():
            t = self.typ(text, path + (name,), rule)
            if t is None:
                ok = False
                continue
            if finite and not (isinstance(t, (BoolT, AtomT)) or (isinstance(t, IntT) and t.bounded)):
                self.err(path + (name,), f"parameter '{name}' must range over a finite domain (a domain, bool or int[lo..hi]), not {t}", rule)
                ok = False
                continue
            if self.taken(name):
                self.err(path + (name,), f"parameter '{name}' hides a name of the spec; choose another name", rule)
                ok = False
                continue
            out.append((name, t))
        return out if ok else None

    def taken(self, name):
        """Whether a local name would hide a state variable, constant, domain or define."""
        g = self.g
        return name in g.state_types or name in g.consts or name in g.domains or name in self.raw_defines

    # ------------------------------------------------------------------ sections
    def domains(self, raw):
        for name, d in raw.items():
            p = ("components", "domains", name)
            if "cite" in d:
                self.g.component_cites[name] = self.cite(d["cite"], p + ("cite",))
            if "enum" in d:
                self.enum_domain(name, d, p)
            elif "range" in d:
                lo, hi = self.switched_range(name, d, p)
                if lo > hi + 1 or hi - lo > 100_000:  # lo == hi + 1: empty, e.g. a domain only a switch fills
                    self.err(p, f"range {lo}..{hi} must have lo <= hi + 1 (hi + 1: empty) and at most 100000 values")
                    continue
                wider = {n for a, b in [d["range"], *d.get("with", {}).values()] if b - a <= 100_000 for n in range(a, b + 1)}
                self.g.domains.add(RangeDomain(lo, hi, name, wider - set(range(lo, hi + 1))))
            else:
                grid = d["grid"]
                if "rows" in grid:
                    cells = [(r, c) for r, row in enumerate(grid["rows"]) for c, ch in enumerate(row) if ch == "#"]
                else:
                    cells = [(r, c) for r in range(grid["height"]) for c in range(grid["width"])]
                if not cells:
                    self.err(p, "a grid needs at least one cell")
                    continue
                self.g.domains.add(GridDomain(name, cells))

    def enum_domain(self, name, d, p):
        """An enum's atoms: its own, then those `with` adds for a switch that is on (appended, so
        every atom keeps its code: Zoo-ography's kinds grow with World Exhibits' sponsors)."""
        extra = self.switched(d.get("with", {}), p + ("with",),
                              f"add values to domain '{name}'; a spec gives each combination at most one list")
        clash = sorted(set(d["enum"]) & {a for more in d.get("with", {}).values() for a in more})
        if clash:
            self.err(p + ("with",), f"domain '{name}': {', '.join(clash)} already among its values; a switch adds new ones")
            return
        atoms = list(d["enum"]) + list(extra or [])
        dormant = {a for more in d.get("with", {}).values() for a in more} - set(atoms)
        self.g.domains.add(EnumDomain(name, atoms, dormant))

    def switched_range(self, name, d, p):
        """A range domain's bounds: its own, or those `with` gives for a switch that is on (one
        spec, two sizes: Zoo-ography's record has 9 turns solo and 10 in a multiplayer game)."""
        on = self.switched(d.get("with", {}), p + ("with",),
                           f"resize domain '{name}'; a spec gives each combination at most one size")
        return tuple(on if on is not None else d["range"])

    def switched(self, table: dict, where: tuple, clash: str, rule=None):
        """The value `table` (switch -> value) gives for the switch that is on, or None. An unknown
        switch is an error, and so are two that are on at once (`clash`: what they both do)."""
        on = []
        for switch, value in table.items():
            if switch not in self.g.switches:
                self.err(where + (switch,), f"no switch named '{switch}'{suggest(switch, self.g.switches)}", rule)
            elif self.g.switches[switch]:
                on.append((switch, value))
        if len(on) > 1:
            self.err(where, f"switches {' and '.join(s for s, _ in on)} both {clash}", rule)
        return on[0][1] if on else None

    def switches(self, raw):
        for name, s in raw.items():
            if "cite" in s:
                self.g.switch_cites[name] = self.cite(s["cite"], ("game", "switches", name, "cite"))
            v = self.want_switches.get(name, s["default"])
            self.g.switches[name] = v
            self.g.consts[name] = (BOOL, v)
        for name in self.want_switches:
            if name not in raw:
                self.err(("game", "switches"), f"no switch named '{name}'{suggest(name, raw)}")
        for name, s in raw.items():
            self.g.switch_needs[name] = list(s.get("needs", []))
            for other in s.get("needs", []):
                if other not in raw:
                    self.err(("game", "switches", name, "needs"), f"no switch named '{other}'{suggest(other, raw)}")
                elif self.g.switches[name] and not self.g.switches[other]:
                    self.err(("game", "switches", name), f"switch {name} needs switch {other} on as well (its `needs`)")

    def constants(self, raw):
        for name, c in raw.items():
            p = ("components", "constants", name)
            if "cite" in c:
                self.g.component_cites[name] = self.cite(c["cite"], p + ("cite",))
            t = self.typ(c["type"], p + ("type",))
            if t is None:
                continue
            try:
                self.g.consts[name] = (t, from_json(c["value"], t, self.g.domains, name, constant=True))
            except StateError as e:
                self.err(p + ("value",), f"constant {e}")
                continue
            keys = c.get("assumed") if isinstance(c.get("assumed"), list) else []   # which entries are ours
            unknown = [str(k) for k in keys if not isinstance(c["value"], dict) or str(k) not in map(str, c["value"])]
            if unknown:
                self.err(p + ("assumed",), f"constant {name}: assumed names {', '.join(unknown)}, which is not a key of its value")

    def state(self, raw):
        for name, s in raw.items():
            p = ("state", name)
            text = s if isinstance(s, str) else s["type"]
            tp = p if isinstance(s, str) else p + ("type",)
            t = self.typ(text, tp)
            if t is None:
                continue
            if not state_type_ok(t):
                self.err(tp, f"state variable '{name}' must be finite: ints need bounds int[lo..hi], sets need a domain; {t} is not")
                continue
            if name in self.g.consts or name in self.g.domains:
                self.err(p, f"state variable '{name}' has the name of a constant or domain")
                continue
            self.g.state_types[name] = t

    def _atom_table(self):
        out: dict[str, list[str]] = {}
        for d in self.g.domains.by_name.values():
            if isinstance(d, EnumDomain):
                for a in d.atoms:
                    out.setdefault(a, []).append(d.name)
        return out

    # ------------------------------------------------------------------ defines and readings
    def collect_defines(self, defines, readings):
        for name, d in defines.items():
            p = ("define", name)
            if isinstance(d, str):
                self.raw_defines[name] = ("define", {}, d, p, p)
            else:
                self.raw_defines[name] = ("define", d.get("params", {}), d["body"], p, p + ("body",))
        for name, r in readings.items():
            p = ("readings", name)
            if name in self.raw_defines:
                self.err(p, f"reading '{name}' has the name of a define")
                continue
            choice = self.want_readings.get(name, r["default"])
            if r["default"] not in r["choices"]:
                self.err(p + ("default",), f"default '{r['default']}' is not one of the choices {', '.join(r['choices'])}")
                continue
            if choice not in r["choices"]:  # reported once; the default stands in, so nothing else is blamed
                self.err(p, f"reading '{name}' has no choice '{choice}'{suggest(choice, r['choices'])} "
                            f"(its choices: {', '.join(r['choices'])})")
                choice = r["default"]
            self.g.chosen[name] = choice
            self.raw_defines[name] = ("reading", r.get("params", {}), r["choices"][choice]["body"], p, p + ("choices", choice, "body"))
            self.g.readings[name] = Reading(name, self.cite(r["cite"], p), r["question"], r["default"],
                                            {c: v["says"] for c, v in r["choices"].items()}, [], self.doc.loc(p))
        for name in self.raw_defines:
            if name in self.g.state_types or name in self.g.consts or name in self.g.domains:
                self.err(self.raw_defines[name][3], f"'{name}' is already the name of a state variable, constant or domain")

    def define_sig(self, name):
        """The signature of a define, building it (and, through it, its dependencies) on first use."""
        if name in self.g.define_sigs:
            return self.g.define_sigs[name]
        if name not in self.raw_defines:
            return None
        if name in self.failed:
            raise _Failed()
        kind, raw_params, body, p, bp = self.raw_defines[name]
        if name in self.building:
            cycle = self.building[self.building.index(name):] + [name]
            self.err(bp, f"cyclic definition: {' -> '.join(cycle)}")
            raise _Cycle()
        params = self.params(raw_params, p + ("params",), finite=False)
        if params is None:
            self.failed.add(name)
            return None
        self.building.append(name)
        try:
            e = self.expr(body, bp, self.scope(dict(params)))
        except _Cycle:
            # unwind to the outermost define being built; the cycle was reported once
            self.building.pop()
            if self.building:
                raise
            self.failed.add(name)
            return None
        self.building.pop()
        if e is None:
            self.failed.add(name)
            return None
        sig = Signature(params, e.type)
        self.g.define_sigs[name] = sig
        self.g.defines[name] = ([n for n, _ in params], e)
        if kind == "reading":
            self.g.readings[name].params = params
        return sig

    # ------------------------------------------------------------------ rules, actions, claims
    def rules(self, raw, section: str = "rules"):
        for i, r in enumerate(raw):
            p = (section, i)
            rid = r["id"]
            if rid in self.g.rules:
                self.err(p + ("id",), f"duplicate rule id '{rid}'", rid)
                continue
            params = self.params(r.get("params", {}), p + ("params",), rid)
            if params is None:
                self.unbuilt_rules.add(rid)
                continue
            rule = Rule(rid, r["kind"], self.cite(r["cite"], p), r["says"], params, self.doc.loc(p, rid),
                        assumption=r.get("assumption"), game=self.g)
            sc = self.scope(dict(params))
            if r["kind"] == "effect":
                stmts = self._effect_list(r["effect"], p + ("effect",), sc, rid)
                if stmts is None:
                    self.unbuilt_rules.add(rid)
                    continue
                rule.effect = stmts
            else:
                expect = INT if r["kind"] == "scoring" else BOOL if r["kind"] in ("legality", "end", "invariant") else None
                body = self.expr(r["body"], p + ("body",), sc, rid, expect)
                if body is None:
                    self.unbuilt_rules.add(rid)
                    continue
                rule.body = body
            self.g.rules[rid] = rule

    def _effect_list(self, raw, path, sc, rid):
        items = raw if isinstance(raw, list) else [raw]
        out = []
        for j, text in enumerate(items):
            pp = path + (j,) if isinstance(raw, list) else path
            s = self.stmts(text, pp, sc, rid)
            if s is None:
                return None
            out.extend(s)
        return tuple(out)

    def actions(self, raw):
        for i, a in enumerate(raw):
            p = ("actions", i)
            aid = a["id"]
            if aid in self.g.actions or aid in self.g.rules:
                self.err(p + ("id",), f"duplicate id '{aid}'", aid)
                continue
            params = self.params(a.get("params", {}), p + ("params",), aid)
            if params is None:
                continue
            sc = self.scope(dict(params))
            requires, ok = self._conditions(a.get("require", []), p, "require", params, sc, aid)
            ensures, ok2 = self._conditions(a.get("ensure", []), p, "ensure", params, sc, aid)
            weight = self.expr(a["weight"], p + ("weight",), sc, aid, INT) if "weight" in a else None
            effect, ok = [], ok and ok2 and ("weight" not in a or weight is not None)
            for j, text in enumerate(a.get("effect", [])):
                pj = p + ("effect", j)
                if RULE_ID.match(text.strip()):
                    rule = self.g.rules.get(text.strip())
                    if rule is None or rule.kind != "effect":
                        self.err(pj, f"'{text.strip()}' is not an effect rule{suggest(text.strip(), [r for r, v in self.g.rules.items() if v.kind == 'effect'])}", aid,
                                 about=text.strip())
                        ok = False
                        continue
                    if not self._params_fit(rule, params, pj, aid):
                        ok = False
                        continue
                    effect.extend(rule.effect)
                else:
                    s = self.stmts(text, pj, sc, aid)
                    if s is None:
                        ok = False
                        continue
                    effect.extend(s)
            if ok:
                self.g.actions[aid] = Action(aid, a["says"], self.cite(a.get("cite"), p), params, requires, tuple(effect),
                                             self.doc.loc(p, aid), ensures, weight)
        self.resolve_cans()

    def _conditions(self, raw, p, field, params, sc, aid):
        """An action's `require` or `ensure` list: rule ids (legality rules whose parameters the
        action has) or expressions over its parameters; (conditions, all built)."""
        out, ok, path = [], True, p + (field,)
        for j, text in enumerate(raw):
            if RULE_ID.match(text.strip()):
                e = self._rule_ref(text.strip(), params, path + (j,), aid, field)
                if e is None:
                    ok = False
                    continue
                out.append((text.strip(), e))
            else:
                e = self.expr(text, path + (j,), sc, aid, BOOL)
                if e is None:
                    ok = False
                    continue
                out.append((None, e))
        return out, ok

    def resolve_cans(self):
        """Fill in every action a `can(...)` names, then refuse a `can` its own action's legality
        reaches (its Python side would never end)."""
        for aid, ref in self.action_refs.items():
            if aid in self.g.actions:
                ref.params = self.g.actions[aid].params
                ref.legal = self.g.legal_expr(aid)
        for aid, ref in self.action_refs.items():
            if ref.legal is not None and self._reaches_can(ref.legal, aid, set()):
                a = self.g.actions[aid]
                self.err((), f"action {aid}'s legality asks can({aid}) of itself", aid, a.loc)

    def _reaches_can(self, e, aid, seen) -> bool:
        for n in ir.walk(e):
            if isinstance(n, ir.Can) and n.ref.legal is not None:
                if n.ref.action == aid:
                    return True
                if n.ref.action not in seen:
                    seen.add(n.ref.action)
                    if self._reaches_can(n.ref.legal, aid, seen):
                        return True
            elif isinstance(n, ir.Call) and ("define", n.name) not in seen and n.name in self.g.defines:
                seen.add(("define", n.name))
                if self._reaches_can(self.g.defines[n.name][1], aid, seen):
                    return True
        return False

    def _params_fit(self, rule, params, path, aid):
        have = dict(params)
        for n, t in rule.params:
            if n not in have:
                self.err(path, f"rule {rule.id} needs parameter '{n}', which this action does not have", aid)
                return False
            if str(have[n]) != str(t):
                self.err(path, f"rule {rule.id} takes '{n}' as {t}, but this action's '{n}' is {have[n]}", aid)
                return False
        return True

    def _rule_ref(self, rid, params, path, aid, field):
        rule = self.g.rules.get(rid)
        if rule is None:
            self.err(path, f"no rule '{rid}'{suggest(rid, self.g.rules)}", aid, about=rid)
            return None
        if rule.kind not in ("legality", "invariant", "end"):
            self.err(path, f"rule {rid} is a {rule.kind} rule; {field} takes legality rules", aid)
            return None
        if not self._params_fit(rule, params, path, aid):
            return None
        return rule.body

    def claims(self, raw):
        for i, c in enumerate(raw):
            p = ("claims", i)
            cid = c["id"]
            if cid in self.g.claims or cid in self.g.rules or cid in self.g.actions:
                self.err(p + ("id",), f"duplicate id '{cid}'", cid)
                continue
            params = self.params(c.get("params", {}), p + ("params",), cid)
            if params is None:
                continue
            sc = self.scope(dict(params))
            given = self.expr(c["given"], p + ("given",), sc, cid, BOOL) if "given" in c else None
            body = self.expr(c["body"], p + ("body",), sc, cid, BOOL) if "body" in c else ir.Lit(True, BOOL)
            if ("body" in c) == (c.get("over") == "independence") or ("of" in c) != (c.get("over") == "independence"):
                self.err(p + ("over",), "an independence claim names `of` and has no body (it is checked on every rule and "
                                        "action); other claims have a body and no `of`", cid)
                continue
            for j, name in enumerate(c.get("of", [])):
                if name not in self.g.state_types:
                    self.err(p + ("of", j), f"'{name}' is not a state variable{suggest(name, self.g.state_types)}", cid)
            decreases = self.expr(c["decreases"], p + ("decreases",), sc, cid, INT) if "decreases" in c else None
            if body is None or ("given" in c and given is None) or ("decreases" in c and decreases is None):
                continue
            if decreases is not None and c.get("over") != "move":
                self.err(p + ("decreases",), "decreases is for claims over: move", cid)
                continue
            for aid in c.get("actions", []):
                if aid not in self.g.actions:
                    self.err(p + ("actions",), f"claim names action '{aid}', which the spec does not define{suggest(aid, self.g.actions)}", cid)
            self.g.claims[cid] = Claim(cid, c["says"], self.cite(c.get("cite"), p), c.get("over", "state"), params, given, body,
                                       c.get("expect", "holds"), c.get("bound", {}), self.doc.loc(p, cid),
                                       tuple(c.get("actions", ())), decreases, tuple(c.get("of", ())))


class _Failed(Exception):
    """A use of a define that already failed to build (its problem is reported once, at the define)."""


class _Cycle(Exception):
    pass


