"""Exact answers to a spec's `puzzle` (zoospec/front/puzzle.py): is a finished record reaching the
target score reachable for this deal?

Z3 gets the record as one symbolic state with the deal pinned, every invariant of the spec, the
finished condition and the target. Then:
- sat: the record is decoded and *certified* — every invariant, the finished condition and the
  score are evaluated by the Python back end, and so is every cut of the record (its state after
  each point of the clock), which is what `zoospec replay` repeats from the saved plan;
- unsat: the goals of the puzzle (each objective at its best, each requirement met) are asked
  for together as tracked assumptions and shrunk by deletion (`minimal_core`) to a minimal set that
  cannot all be met;
- before that, cheaper questions, each asking a subset of the rules (so UNSAT there is UNSAT
  here): the scoring rule alone, then the puzzle's `bound` invariants alone, whose core also names
  the rule ids (ADR 0012);
- unknown: the timeout ran out; nothing is claimed.
`--best` climbs: any finished record, then one scoring higher than the last certified one, until
Z3 says no better exists (unsat) or the target is reached.
`--layout-first` (solvers/puzzle/layout_first.py, ADR 0016) asks the whole record one proposed layout
at a time, for the target or for each step of the climb.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import z3

from zoospec import files
from zoospec.backends.z3 import ZCtx
from zoospec.engines import YicesThenZ3, dump, interrupt, yices_on, yices_solver
from zoospec.engines.yices import Translator as YicesTranslator, available as yices_available
from zoospec.errors import InternalError, StateError
from zoospec.front.yamlload import load_file
from zoospec.ir.types import MapT
from zoospec.runtime.state import from_json, to_json
from zoospec.smt.values import leaves
from zoospec.suggest import suggest

from ..symbolic import Query, broken_invariants, py_value, rule_instances
from .layout_first import LayoutSearch

# Z3's default strategy stalls on these records; simplifying first (constants the deal pins,
# equalities solved away, unconstrained terms dropped) lets the SMT core finish (ADR 0006).
TACTIC = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt")


@dataclass
class Verdict:
    status: str  # reachable | unreachable | unknown
    target: int
    score: int | None = None
    record: dict | None = None
    core: list[str] = field(default_factory=list)
    best: bool = False
    proved_below: int | None = None  # --best: no finished record scores at least this (unsat)
    seconds: float = 0.0
    reason: str = ""
    given: list[str] = field(default_factory=list)  # record variables fixed by the user: verdicts are about them too
    layouts: int | None = None  # --layout-first: how many proposed layouts were asked (None: not asked that way)
    interrupted: bool = False  # Ctrl-C stopped the search: what it holds is what was found so far


def read_deal(game, path: str | Path) -> dict:
    """A deal file (YAML or JSON): a value for each of the puzzle's deal variables."""
    return deal_from_data(game, load_file(path).data, path)


def deal_from_data(game, data, path) -> dict:
    """A deal from its JSON form (a deal file's mapping; `path` names where it came from)."""
    pz = _puzzle(game)
    if not isinstance(data, dict):
        raise StateError(f"{path}: a deal is a mapping of {', '.join(pz.deal)}")
    wanted = data.get("with", [])
    if not isinstance(wanted, list) or not all(isinstance(w, str) for w in wanted):
        raise StateError(f"{path}: 'with' lists the switches the deal is for, like [multiplayer]")
    off = [w for w in wanted if not game.switches.get(w)]
    if off:
        raise StateError(f"{path}: this deal is for the game with {', '.join(off)} on (solve it --with {','.join(off)})")
    data = {k: v for k, v in data.items() if k not in ("deal", "says", "expect", "with")}
    missing, extra = set(pz.deal) - set(data), set(data) - set(pz.deal)
    if missing or extra:
        raise StateError(f"{path}: a deal gives exactly {', '.join(pz.deal)}"
                         + (f"; missing {', '.join(sorted(missing))}" if missing else "")
                         + (f"; unknown {', '.join(sorted(extra))}" if extra else ""))
    return {n: from_json(v, game.state_types[n], game.domains, f"{path}: {n}") for n, v in data.items()}


class Entries(dict):
    """Some entries of a map variable, given (`--given` with a map that leaves keys out)."""


def read_given(game, spec: str) -> dict:
    """`solve --given FILE[:VAR,VAR]`: parts of the record fixed in advance (a layout to complete,
    say). FILE is a mapping of state variables, or a plan (its record is read); VARs pick which
    (default: all it gives but the deal's). A map that leaves keys out fixes the entries it gives
    (`Entries`). The deal's variables belong in the deal and are refused here."""
    path, _, names = spec.partition(":") if not Path(spec).exists() else (spec, "", "")
    data = load_file(path).data
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]
    if not isinstance(data, dict):
        raise StateError(f"{path}: --given reads a mapping of the record's variables, or a plan")
    data = {k: v for k, v in data.items() if not str(k).startswith("#")}
    deal = set(_puzzle(game).deal)
    picked = [n.strip() for n in names.split(",") if n.strip()] or [n for n in data if n not in deal]
    for n in picked:
        if n not in game.state_types:
            raise StateError(f"--given: the record has no variable '{n}'{suggest(n, game.state_types)}")
        if n in deal:
            raise StateError(f"--given: '{n}' is part of the deal; give it in the deal file")
        if n not in data:
            raise StateError(f"--given: {path} gives no '{n}'")
    return {n: _given_value(game, n, data[n], f"{path}: {n}") for n in picked}


def _given_value(game, name, value, where):
    t = game.state_types[name]
    v = from_json(value, t, game.domains, where, partial=True)
    return Entries(v) if isinstance(t, MapT) and len(v) < len(game.domains[t.key]) else v


def given_names(given: dict | None) -> list[str]:
    """What a verdict was asked with: each given variable, and how many entries of a partial one."""
    return [n if not isinstance(v, Entries) else f"{n} ({len(v)} entries)" for n, v in sorted((given or {}).items())]


def with_objectives(game, deal: dict, given: list[str]) -> dict:
    """The deal with objectives changed (`solve --objectives gold3=autumn,gold2=forest`): each
    SLOT=NAME puts NAME in that slot of the puzzle's `objectives` deal variable."""
    pz = _puzzle(game)
    if pz.objectives is None:
        raise StateError(f"{game.id}'s puzzle names no objectives to change")
    t = game.state_types[pz.objectives]
    slots = to_json(deal[pz.objectives], t, game.domains)
    for part in (p.strip() for text in given for p in text.split(",") if p.strip()):
        slot, eq, name = (x.strip() for x in part.partition("="))
        if not eq or not name:
            raise StateError(f"--objectives: expected SLOT=NAME, got {part!r}")
        if slot not in slots:
            raise StateError(f"--objectives: no slot '{slot}'{suggest(slot, slots)} (slots: {', '.join(slots)})")
        slots[slot] = name
    return {**deal, pz.objectives: from_json(slots, t, game.domains, "--objectives")}


def deal_json(game, deal: dict) -> dict:
    """A deal as JSON, variable by variable (what `solve` and `sweep` report with an answer)."""
    return {n: to_json(v, game.state_types[n], game.domains) for n, v in deal.items()}


def deal_problems(game, deal: dict) -> list[str]:
    """The deal rules (invariants named `<game>.deal.`) a deal breaks, each with what it says:
    a deal no setup could produce is refused, not answered 'unreachable'."""
    state = {**(game.start_state() if game.start is not None else {}), **deal}
    return [f"{rid} ({game.rule(rid).says})" for rid in broken_invariants(game, state, f"{game.id}.deal.")]


def _puzzle(game):
    if game.puzzle is None:
        raise StateError(f"{game.id} has no puzzle section: nothing to solve")
    return game.puzzle


class _Problem:
    """The symbolic record for one deal, compiled once; solvers are made from its facts."""

    def __init__(self, game, deal: dict, given: dict | None = None):
        self.game, self.pz = game, _puzzle(game)
        self.q = Query(game)
        for n, v in {**deal, **(given or {})}.items():
            if isinstance(v, Entries):  # some entries: facts, as the rest of the map stays free
                self.q.facts.extend(a == b for a, b in self.q.sym.bind_entries(n, v))
            else:
                self.q.sym.pin(n, v)
        self.rules = self.q.invariants()
        self.bound = {rid: self._rule(rid) for rid in self.pz.bound}
        # a map given in advance keeps its entries where they were given: its sorted twin may have
        # moved them, so ordering it could rule out the very records asked about
        free = [n for n in self.pz.interchangeable if n not in (given or {})]
        self.hard = [self.q.holds(self.pz.finished)] + self._order(free)
        v, d = self.q.term(game.rule(self.pz.score).body)
        self.score, self.hard = v, self.hard + [d]
        self.rounds = 0
        self._translators = {}  # this problem's own Yices translators, one per purpose (`translator`)
        self.goals = []
        for gl in self.pz.goals:
            r = game.rule(gl.rule)
            val, dv = self.q.term(r.body, args=game._zargs(r.params, gl.args))
            best, db = self.q.term(gl.best)
            self.goals.append((gl.label, z3.And(dv, db, val == best)))

    def _rule(self, rid):
        """Every instance of one invariant, as one Z3 term."""
        r = self.game.rule(rid)
        return z3.And([self.q.holds(r.body, 0, self.game._zargs(r.params, a))
                       for rr, a in rule_instances(self.game, "invariant") if rr.id == rid])

    def _order(self, names):
        """Entries of an interchangeable map in lexicographic order of their leaves: every record
        has a sorted twin, so no answer is lost, and Z3 skips the permutations."""
        out = []
        for n in names:
            m = self.q.sym[n]
            keys = list(m.codes)
            for a, b in zip(keys, keys[1:]):
                out.append(_lex_le(leaves(m.entries[a]), leaves(m.entries[b])))
        return out

    def at_cut(self, rule, args, point):
        """Z3: the rule holds on the record cut back to `point` (the cut is the spec's effect,
        compiled on the symbolic record) — what a record must also keep to be a real game."""
        cut = self.game.rule(self.pz.cut)
        (pname, ptype), = cut.params
        ctx = ZCtx(f"cut{len(self.q.facts)}")
        ctx.memo = {}
        post = self.game.z3_run_effect(cut.effect, self.q.sym, self.game._zargs(cut.params, {pname: point}), ctx)
        v = self.game.z3_eval(rule.body, post, ctx, self.game._zargs(rule.params, args))
        self.q.facts.extend(ctx.sides)
        return z3.And(ctx.defined(), v)

    def refine(self, s, record) -> bool:
        """Add to s every (rule, point) a record's cuts break, as Z3 terms over the record; False
        if its cuts all hold. The final record's rules hold at the last point but an earlier cut
        can still break one (a habitat that only joins up later): such a model is no game."""
        broken = [(point, r, a) for point, cut in cuts(self.game, record)
                  for r, a in rule_instances(self.game, "invariant") if py_value(self.game, r.body, cut, a) is not True]
        for point, r, a in broken:
            s.add(self.at_cut(r, a, point))
        self.rounds += bool(broken)
        return bool(broken)

    def solver(self, deadline: float, rules: bool = True, yices: bool = False, **first):
        """A solver holding the deal, the finished condition and (unless rules=False) every
        invariant: without them, only what the scoring formula itself allows is left (and what
        a caller adds, such as the bound's rules). yices=True: each check asks Yices first
        (engines.YicesThenZ3, `first` its options: share, most, purpose — whose translator)."""
        s = z3.Then(*TACTIC).solver()
        if yices:
            purpose = first.pop("purpose", "record")
            s = YicesThenZ3(s, translator=self.translator(purpose), **first)
        s.add(self.q.facts)
        s.add(self.hard)
        if rules:
            s.add(self.rules)
        s.set("timeout", max(1, int((deadline - time.monotonic()) * 1000)))
        return s

    def yices_solver(self, *extra):
        """A Yices solver holding the whole record (deal, finished, every invariant) and `extra`,
        for questions asked with assumptions whose unsat core the caller reads (the layout-first
        loop); None where Yices is not installed, turned off, or cannot hold the record."""
        if not yices_on():
            return None
        return yices_solver([self.q.facts, self.hard, self.rules, list(extra)], self.translator())

    def translator(self, purpose: str = "record"):
        """This problem's own Yices translator for `purpose`, made on first use (None without
        Yices): see engines.YicesThenZ3 for why a problem does not share the process's. The
        bound's questions have one of their own: translating their terms first would change the
        order the record's are made in, and with it Yices' search on the layouts (first-game's
        20 s became 87 s)."""
        if purpose not in self._translators and yices_available():
            self._translators[purpose] = YicesTranslator()
        return self._translators.get(purpose)

    def ask(self, deadline, conds) -> z3.CheckSatResult:
        """The deal, the finished condition and `conds` — no rule but those among them — asked of
        Yices for up to BOUND_YICES_SECONDS, then of Z3 alone, for the bound's questions: their
        sats are Yices' (a tenth of a second where Z3 takes 2-4 s), their UNSATs mostly Z3's
        (Yices found none of the bound's own in 600 s). One after the other, not raced: Z3's
        path on these UNSATs is heavy-tailed, and a race changes it from run to run (what Z3 had
        built when Yices won) and slows it while Yices runs beside it (snake-short-of-seats'
        failing goal: 33-42 s alone, 30-79 s raced). Without Yices, Z3 alone, as before."""
        if deadline - time.monotonic() <= 0 or interrupt.stopped():
            return z3.unknown
        s = self.solver(deadline, rules=False, yices=True, share=1.0, most=BOUND_YICES_SECONDS, purpose="bound")
        s.add(list(conds))
        answered = dump.query("solve", s.assertions())
        r = s.check()
        answered(r)
        return r

    def check(self, s, deadline, *extra, refine=True):
        """sat only with a model whose every cut keeps every rule (broken cuts are added to s
        and Z3 asked again: sound, as a real game keeps them all), else unsat or unknown."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or interrupt.stopped():  # Ctrl-C (engines/interrupt.py): as if the deadline came
                return z3.unknown
            s.set("timeout", max(1, int(left * 1000)))
            answered = dump.query("solve", s.assertions(), extra)
            r = s.check(*extra)
            answered(r)
            if r != z3.sat or not refine or not self.refine(s, self.q.sym.decode(s.model())):
                return r


def _lex_le(xs, ys):
    out = z3.BoolVal(True)
    for x, y in reversed(list(zip(xs, ys))):
        out = z3.Or(x < y, z3.And(x == y, out))
    return out


def certify(game, record: dict) -> list[str]:
    """Every problem Python finds with a record: invariants, finished, and each cut of it."""
    pz = _puzzle(game)
    bad = [f"{r.id}({', '.join(f'{k}={v}' for k, v in a.items())}) fails"
           for r, a in rule_instances(game, "invariant") if py_value(game, r.body, record, a) is not True]
    if py_value(game, pz.finished, record) is not True:
        bad.append("the record is not finished")
    for point, cut in cuts(game, record):
        bad += [f"at {point}: {r.id}({', '.join(f'{k}={v}' for k, v in a.items())}) fails"
                for r, a in rule_instances(game, "invariant") if py_value(game, r.body, cut, a) is not True]
    return bad


def cuts(game, record: dict):
    """(point, the record cut back to it) for every point of the clock, first to last."""
    pz = _puzzle(game)
    rule = game.rule(pz.cut)
    (pname, ptype), = rule.params
    for point in game.domains.of_type(ptype).atoms:
        yield point, game.run_effect(rule.effect, record, {pname: point})


def score_of(game, record: dict) -> int:
    return py_value(game, game.rule(_puzzle(game).score).body, record)


def solve(game, deal: dict, target: int | None = None, best: bool = False, timeout: float = 600.0,
          progress=None, given: dict | None = None, layout_first: bool = False) -> Verdict:
    """`given`: record variables fixed in advance (read_given); every verdict is then about
    records with those values — 'unreachable' says no such record reaches the target.
    `layout_first`: the whole-record question is asked layout by layout (solvers/puzzle/layout_first.py,
    ADR 0016)."""
    pz = _puzzle(game)
    if layout_first:
        can_ask_layout_first(game)
    target = pz.target if target is None else target
    start = time.monotonic()
    deadline = start + timeout
    say = progress or (lambda msg: None)
    say("compiling the record's rules")
    prob = _Problem(game, deal, given)
    say(f"compiled in {time.monotonic() - start:.1f}s; asking "
        + ("layout by layout (--whole-record: one question)" if layout_first else "the whole record as one question"))
    if time.monotonic() >= deadline:
        return Verdict("unknown", target, reason="the timeout ran out while compiling", seconds=time.monotonic() - start,
                       given=given_names(given))
    v = (_climb(game, prob, target, deadline, say, layout_first) if best
         else _reach(game, prob, target, deadline, say, layout_first))
    v.seconds, v.given = time.monotonic() - start, given_names(given)
    return v


def can_ask_layout_first(game):
    """StateError unless --layout-first can be asked: the puzzle names its layout."""
    if not _puzzle(game).layout_vars:
        raise StateError(f"{game.id}'s puzzle has no layout_first section")


def asks_layout_first(game, given: dict | None = None, choice: bool | None = None) -> bool:
    """Whether a deal is asked layout by layout (ADR 0020). `choice` True or False is the caller's
    (--layout-first, --whole-record); by default it is layout by layout when the puzzle names a
    layout and no given part fixes any of it: on every deal measured that way was the faster or
    the only one to answer, while a layout given already is completed best as one question."""
    if choice is not None:
        if choice:
            can_ask_layout_first(game)
        return choice
    layout = _puzzle(game).layout_vars
    return bool(layout) and not set(layout) & set(given or {})


def _found(game, prob, s) -> tuple[dict, int]:
    record = prob.q.sym.decode(s.model())
    bad = certify(game, record)
    if bad:
        raise InternalError("Z3's record does not stand up in Python (a back-end disagreement): " + "; ".join(bad[:5]))
    return record, score_of(game, record)


def _reach(game, prob, target, deadline, say, layout_first: bool = False) -> Verdict:
    """Three questions, cheapest first; each UNSAT is UNSAT for the game, as each asks a subset
    of what the next one asks: the scoring rule alone, the bound's rules, every rule."""
    bare = prob.solver(deadline, rules=False)
    if prob.check(bare, deadline, prob.score >= target, refine=False) == z3.unsat:
        return Verdict("unreachable", target, reason="the scoring rule cannot reach the target on any record, legal or not")
    if prob.bound:
        say(f"asking the bound first: {', '.join(prob.bound)} alone")
        failing = failing_goal(prob, target, deadline, say)
        if failing is not None or ask_bound(prob, target, deadline) == z3.unsat:
            say("unsat on the bound alone; naming the goals and rules that cannot all hold")
            core, why = _core(prob, deadline, say, bound=True, failing=failing)
            return Verdict("unreachable", target, core=core, reason=why or (
                f"UNSAT with only {', '.join(prob.bound)} of the game's rules, so with all of them too"))
        say("the bound allows the target; asking with every rule")
    ask, layouts = _asker(game, prob, deadline, say, layout_first)
    r, s, why = ask(target)
    if r == z3.sat:
        record, score = _found(game, prob, s)
        say(f"found a record scoring {score} ({prob.rounds} refinement round(s)); certified by the Python back end, every cut included")
        return Verdict("reachable", target, score, record, layouts=layouts())
    if r == z3.unknown or layout_first:  # layout by layout, an unreachable answer comes without a core
        return Verdict("unreachable" if r == z3.unsat else "unknown", target, layouts=layouts(), reason=why)
    say("unsat: no finished record reaches the target; naming the goals that cannot all be met")
    core, why = _core(prob, deadline, say)
    return Verdict("unreachable", target, core=core, reason=why)


def ask_bound(prob, target, deadline):
    """The answer to: does a finished record keeping only the bound's rules reach the target?"""
    return prob.ask(deadline, list(prob.bound.values()) + [prob.score >= target])


# How long a goal is asked alone before the bound's question (`failing_goal`). On the deals
# measured a goal that fails alone took Z3 30-42 s to refute (the two short-of-seats deals), and
# Yices answered every goal that holds in under half a second.
GOAL_SECONDS = 90.0
# How long Yices is asked a bound's question before Z3 is. It answered every sat one in under half
# a second, and one UNSAT in 8.5 s (the multiplayer short-of-seats' failing goal, Z3: 30 s).
BOUND_YICES_SECONDS = 10.0


def failing_goal(prob, target, deadline, say) -> int | None:
    """The first goal (its index) that cannot hold with the bound's rules alone, asked before the
    bound's own question — where the target needs every goal at its best (the scoring rule alone
    says so: then such a goal rules the target out by itself, and the bound's question, as hard
    again for Z3, is not asked) and where Yices is asked first (it answers the goals that hold at
    once; without it the pass would cost every winnable deal a Z3 check per goal). The core is sought
    from the same first failing goal as after the bound's question, so it comes out the same.
    None: no goal fails alone, or the pass does not apply, or a goal got no answer in time."""
    if not prob.goals or not yices_on():
        return None
    if prob.ask(deadline, [prob.score >= target, z3.Not(z3.And([c for _, c in prob.goals]))]) != z3.unsat:
        return None
    rules = list(prob.bound.values())
    i = _fails_alone([c for _, c in prob.goals], lambda c: prob.ask(min(deadline, time.monotonic() + GOAL_SECONDS), rules + [c]),
                     unknown_ends=True)
    if i is not None:
        say(f"the target needs {prob.goals[i][0]}, which the bound's rules alone rule out")
    return i


def _fails_alone(goals: list, ask, unknown_ends: bool) -> int | None:
    """The index of the first of `goals` that `ask(goal)` finds UNSAT, or None. A goal without
    an answer ends the search where `unknown_ends` (failing_goal: the bound's question is then
    asked as before), else it is passed over (_core: the goals are then asked together)."""
    for i, g in enumerate(goals):
        r = ask(g)
        if r == z3.unsat:
            return i
        if r == z3.unknown and unknown_ends:
            return None
    return None


def _core(prob, deadline, say, bound: bool = False, failing: int | None = None) -> tuple[list[str], str]:
    """A minimal set of goals that cannot all hold (deletion-based), or why there is none. With
    bound=True it is asked with the bound's rules only, each a member of the core too: the answer
    names the rules, not only the goals, that rule the target out; `failing`: a goal already
    known to fail alone with them (failing_goal), where the search starts."""
    named = list(prob.goals) + (list(prob.bound.items()) if bound else [])
    flags = {z3.Bool(f"core!{i}"): (label, cond) for i, (label, cond) in enumerate(named)}
    if bound:  # each trial a question of its own (`ask`): a model of the bound alone is no game, only its UNSAT counts
        def ask(trial):
            return prob.ask(deadline, [flags[f][1] for f in trial])
    else:
        s = prob.solver(deadline)
        for f, (_, cond) in flags.items():
            s.add(z3.Implies(f, cond))

        def ask(trial):
            return prob.check(s, deadline, *trial)
    unsure = []

    def still_unsat(trial):  # minimal_core's checks: one that runs out of time keeps its member
        r = ask(trial)
        if r == z3.unknown:
            unsure.append(1)
        return r == z3.unsat

    # Most unwinnable deals fail on one objective: each goal is tried alone (with the rules that
    # are members) first — answers that come quickly when sat. One that is UNSAT alone is where the
    # core is sought, and asking every goal at once (as long as that UNSAT: 34 s of the 130 s the
    # snake deal took) is not needed; only when no goal fails alone are they asked together.
    goals, rules = list(flags)[:len(prob.goals)], list(flags)[len(prob.goals):]
    if failing is None and len(goals) > 1:
        failing = _fails_alone(goals, lambda g: ask([g] + rules), unknown_ends=False)
    start = None if failing is None else [goals[failing]] + rules
    if start is None:
        r = ask(list(flags))
        if r == z3.sat:
            return [], "every goal can be met at once, yet the target cannot: the goals' best total is below it"
        if r == z3.unknown:
            return [], "the core was not found in time"
        # The tactic solver answers unsat but returns an empty core, so the core is found by asking
        # again without members: first in halves, then one at a time (what is left is minimal).
        start = list(flags)

    core = minimal_core(start, still_unsat, lambda gone: say(f"  not needed in the core: {', '.join(flags[f][0] for f in gone)}"))
    if not core:  # with a --given part that breaks a rule: the score is not what fails
        return [], "no finished record at all: UNSAT with no goal, whatever it scores"
    return [flags[f][0] for f in core], ("" if not unsure else "the core is not shown minimal: a check ran out of time")


def minimal_core(items: list, still_unsat, dropped=lambda gone: None) -> list:
    """A minimal sublist keeping still_unsat true (given it holds for items): chunks are dropped
    while that holds, halving the chunk down to single items. Minimal because a single item kept
    was needed by a larger list, so by every smaller one too (fewer constraints are easier)."""
    core, chunk = list(items), max(1, len(items) // 2)
    while True:
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + chunk:]
            if still_unsat(trial):
                dropped(core[i:i + chunk])
                core = trial
            else:
                i += chunk
        if chunk == 1:
            return core
        chunk = max(1, chunk // 2)


def _ceiling(prob, target, deadline, say) -> int | None:
    """The lowest score the bound's rules alone prove out of reach (UNSAT), counting down from the
    target until they allow one; None if they allow the target. Every score at or above it is
    out of reach for the game too, so a record one below it is the best there is."""
    if not prob.bound:
        return None
    below = None
    while ask_bound(prob, target if below is None else below - 1, deadline) == z3.unsat:
        below = target if below is None else below - 1
        say(f"the bound's rules alone rule out a score of {below} or more")
    return below


def _climb(game, prob, target, deadline, say, layout_first: bool = False) -> Verdict:
    """--best: any finished record, then one scoring more than the last certified one, until UNSAT,
    the target, or the bound's ceiling. Layout first, one search serves every score: a layout
    refuted for a score is refuted for every higher one."""
    ceiling = _ceiling(prob, target, deadline, say)
    ask, layouts = _asker(game, prob, deadline, say, layout_first)
    best_record, best_score, floor = None, None, None
    while True:
        if floor is not None and ceiling is not None and floor >= ceiling:
            return Verdict("unreachable", target, best_score, best_record, best=True, proved_below=ceiling, layouts=layouts(),
                           reason=f"UNSAT for {ceiling} or more with only {', '.join(prob.bound)} of the game's rules")
        r, s, why = ask(floor)
        if r == z3.sat:
            best_record, best_score = _found(game, prob, s)
            say(f"certified a record scoring {best_score}")
            if best_score >= target:
                return Verdict("reachable", target, best_score, best_record, best=True, layouts=layouts())
            floor = best_score + 1
            continue
        if r == z3.unknown:
            # what the bound proved stands even when the climb runs out of time
            return Verdict("unknown", target, best_score, best_record, best=True, proved_below=ceiling, layouts=layouts(),
                           reason=why)
        if best_record is None:
            return Verdict("unreachable", target, best=True, layouts=layouts(), reason="no finished record at all")
        return Verdict("unreachable", target, best_score, best_record, best=True, proved_below=floor, layouts=layouts(),
                       reason=why)


def _asker(game, prob, deadline, say, layout_first):
    """ask(want) -> (answer, solver, why) for records scoring want or more (None: any finished
    record), asked as one question or layout by layout; and how many layouts were proposed."""
    if layout_first:
        search = LayoutSearch(game, prob, deadline, say)

        def ask(want):
            r, s = search.at(want)
            return (r, s, "") if r == z3.sat else (r, None, s)
        return ask, lambda: search.asked
    s = prob.solver(deadline, yices=True)

    def ask(want):
        r = prob.check(s, deadline, *([prob.score >= want] if want is not None else []))
        return r, s, "" if r != z3.unknown else s.reason_unknown()
    return ask, lambda: None


def plan_text(game, record: dict) -> list[str]:
    """What changed between consecutive cuts of a record: the plan, point by point."""
    lines, prev = [], None
    for point, cut in cuts(game, record):
        if prev is not None:
            changes = list(_diff(game, prev, cut))
            lines.append(f"{point}: " + ("; ".join(changes) if changes else "(nothing)"))
        prev = cut
    return lines


def _diff(game, a: dict, b: dict):
    for n, t in game.state_types.items():
        ja, jb = to_json(a[n], t, game.domains), to_json(b[n], t, game.domains)
        if ja != jb:
            yield from _leaf_diff(n, ja, jb)


def _leaf_diff(path, x, y):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in y:
            if x.get(k) != y.get(k):
                yield from _leaf_diff(f"{path}[{k}]", x.get(k), y[k])
        return
    yield f"{path} = {json.dumps(y)}"


def save_plan(game, source: str, deal: dict, v: Verdict, path: str | Path, readings: dict | None = None,
              switches: dict | None = None):
    data = {"#meta": {"source": source, "kind": "plan", "readings": readings or {}, "switches": switches or {}},
            "deal": {n: to_json(deal[n], game.state_types[n], game.domains) for n in deal},
            "score": v.score, "target": v.target,
            "record": {n: to_json(v.record[n], t, game.domains) for n, t in game.state_types.items()}}
    files.write_text(path, json.dumps(data, indent=1) + "\n")


def load_plan(game, data: dict) -> dict:
    return game.state_from_json(data["record"])
