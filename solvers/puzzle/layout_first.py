"""The whole-record question asked one layout at a time (ADR 0016): `solve --layout-first`.

A proposer keeping only the puzzle's layout rules (and the score wanted) offers values for its
layout variables; the whole record is asked with them fixed. sat is a record, which the caller
certifies; UNSAT rules that layout out of the proposer (sound: no record with it reaches the
score) — with Yices, every layout agreeing with the pins in its unsat core (ADR 0026); with Z3
alone, widened where the puzzle allows (`generalise`, `generalise_by`); no answer within its
budget sets it aside, to be asked again later with a growing budget. Only when the proposer has
nothing left and every layout set aside has been refuted is the score out of reach.

A refutation at one score is a refutation at every higher one, so `--best` climbs with one search:
what it ruled out while asking for a score stays ruled out while it asks for more (ADR 0016,
session 27).
"""
from __future__ import annotations

import heapq
import time

import z3

from zoospec.engines import interrupt, yices_on
from zoospec.ir.types import MapT
from zoospec.smt.values import leaves

# How long a layout is asked: a new one FIRST_BUDGET seconds; one without an answer is set aside
# and asked again later with GROWTH times its last budget. The time a pinned layout takes is
# heavy-tailed — the same question asked again later has come back UNSAT in 2.8 s after 20 s
# without an answer — so short first asks and growing re-asks waste less than one long ask.
FIRST_BUDGET = 20.0
GROWTH = 3.0
# How long each widening of a refutation is asked (`widen`): as long as the refutation took, at
# least WIDEN_MIN and at most WIDEN_MAX seconds. Quick refutations widen quickly; on first-game a
# refutation that took 34 s spent twice as long again on two widenings that ran out of time.
WIDEN_MIN, WIDEN_MAX = 1.0, 5.0


class LayoutSearch:
    """One deal's layout-first search. `at(want)` answers one score (None: any finished record)
    and may be called again with a higher one: refutations, and layouts set aside, carry over."""

    def __init__(self, game, prob, deadline: float, say):
        self.prob, self.deadline, self.say = prob, deadline, say
        self.groups = pin_groups(game, prob)  # before any proposer: their side facts join it
        self.blocks = []  # what rules refuted (and proposed) layouts out of every proposer
        self.aside = []  # heap of (re-asks so far, layout number, pins): the least-asked first
        self.again = None  # a completed layout, asked first when a higher score is wanted
        self.refuted = self.asked = 0
        # With Yices, each layout is asked with its pins as assumptions and a refutation blocks
        # only the pins in its unsat core (ADR 0026); with Z3 alone (no core from its tactic
        # solver) a refutation is widened by asking again without parts of it.
        self.cores = yices_on()
        say("each layout asked of " + ("Yices; a refutation blocks the pins in its unsat core" if self.cores
                                       else "Z3; a refutation is widened where the puzzle allows"))

    def _proposer(self, want):
        p = self.prob.solver(self.deadline, rules=False, yices=self.cores)
        p.add([self.prob._rule(rid) for rid in self.prob.pz.layout_rules] + self._wanted(want))
        p.add(self.blocks)
        return p

    def _wanted(self, want):
        return [] if want is None else [self.prob.score >= want]

    def _ask(self, pins, budget, want):
        start = time.monotonic()
        s = self.prob.yices_solver(*self._wanted(want)) if self.cores else None
        if s is not None:
            r = self.prob.check(s, min(self.deadline, start + budget), *[p for _, p in pins])
            return s, r, time.monotonic() - start
        self.cores = False  # the record holds a term Yices cannot: Z3 from now on
        s = self.prob.solver(self.deadline)
        s.add([p for _, p in pins])
        r = self.prob.check(s, min(self.deadline, start + budget), *self._wanted(want))
        return s, r, time.monotonic() - start

    def _core(self, s, pins) -> list:
        """The pins in a refutation's unsat core: no record reaches the score with them all, so
        every layout that agrees with them is refuted too (Yices' core need not be minimal)."""
        named = {c.get_id() for c in s.unsat_core()}
        return [(part, p) for part, p in pins if p.get_id() in named]

    def _block(self, pins):
        self.blocks.append(z3.Or([z3.Not(p) for _, p in pins]))
        self.proposer.add(self.blocks[-1])

    def at(self, want) -> tuple:
        """(sat, the solver holding the record) | (unsat, why) | (unknown, why) for records with
        score >= want. unsat only when every layout proposed was refuted by UNSAT."""
        self.proposer, exhausted = self._proposer(want), False
        spent = {"new": 0.0, "again": 0.0}
        first, self.again = self.again, None
        while True:
            if interrupt.stopped():
                return z3.unknown, self._unknown("interrupted")
            if time.monotonic() >= self.deadline:
                return z3.unknown, self._unknown("the timeout ran out")
            if first is not None:  # completed for a lower score: a fresh question for this one
                (n, pins), first = first, None
                times, bucket, verb = 0, "again", "completed for a lower score, asked for more"
            elif self.aside and (exhausted or spent["again"] < spent["new"]):
                times, n, pins = heapq.heappop(self.aside)
                times, bucket, verb = times + 1, "again", "asked again"
            elif not exhausted:
                start = time.monotonic()
                r = self.prob.check(self.proposer, self.deadline, refine=False)
                proposing = time.monotonic() - start
                spent["new"] += proposing
                if r == z3.unsat:
                    exhausted = True
                    continue
                if r == z3.unknown:
                    return z3.unknown, self._unknown("interrupted" if interrupt.stopped() else "the proposer ran out of time")
                m = self.proposer.model()
                pins = [(part, x == m.eval(x, model_completion=True)) for part, when, xs in self.groups
                        if when is None or z3.is_true(m.eval(when, model_completion=True)) for x in xs]
                self._block(pins)
                self.asked += 1
                times, n, bucket, verb = 0, self.asked, "new", f"proposed in {proposing:.1f}s"
            else:
                return z3.unsat, (f"every layout the layout rules allow with the score is refuted by UNSAT "
                                  f"({self.refuted}); the core is not sought (it would ask the whole record again)")
            t0 = time.monotonic()
            s, r, took = self._ask(pins, FIRST_BUDGET * GROWTH ** times, want)
            wider, core = [], None
            if r == z3.unsat:
                self.refuted += 1
                if self.cores:
                    core = self._core(s, pins)
                else:
                    s, r, wider = widen(self.prob, pins, lambda trial: self._ask(trial, min(WIDEN_MAX, max(WIDEN_MIN, took)), want))
            spent[bucket] += time.monotonic() - t0
            if r == z3.sat:
                self.again = (n, pins)  # a higher score may have the same layout
                self.say(f"layout {n} {verb}: completed in {took:.1f}s")
                return z3.sat, s
            if r == z3.unsat:
                if core is not None and len(core) < len(pins):
                    self._block(core)
                elif wider:
                    self._block([(part, p) for part, p in pins if part not in wider])
            else:
                heapq.heappush(self.aside, (times, n, pins))
            said = "refuted (UNSAT)" if r == z3.unsat else "no answer yet, set aside"
            widened = (f"; widened in {time.monotonic() - t0 - took:.1f}s to every layout differing only in {self._named(wider)}"
                       if wider else "")
            if core is not None:
                widened = f"; its unsat core keeps {len(core)} of its {len(pins)} pins"
            self.say(f"layout {n} {verb}: {said} in {took:.1f}s{widened}")

    def _named(self, parts) -> str:
        """The parts a widening dropped, for a progress line: `turned`, or `at, side on spot (1,0) (2,1)`."""
        names = sorted({n for n, _ in parts}, key=self.prob.pz.layout_vars.index)
        keys = sorted({k for _, k in parts if k is not None})
        if not keys:
            return ", ".join(names)
        dom = self.prob.game.domains[self.prob.pz.layout_generalise_by]
        return f"{', '.join(names)} on {self.prob.pz.layout_generalise_by} {' '.join(f'({dom.json_key(dom.atom(k))})' for k in keys)}"

    def _unknown(self, why):
        return f"{why}: {self.refuted} layouts refuted, {len(self.aside)} unanswered"


def widen(prob, pins, ask) -> tuple:
    """A refuted layout widened: parts of its pins dropped in turn, each kept dropped while the
    whole record stays UNSAT without them — first the puzzle's `generalise` variables one by one,
    then, with `generalise_by`, the keys of that domain: the keys the proposal left bare (no
    `pin_only` entry pinned there: an empty spot) together, then every other key alone. Each is
    asked briefly (WIDEN_MIN..WIDEN_MAX): a widening saves a proposal or two, so a slow one is
    not worth its price. Returns the last answer with its solver — sat is a record reaching the
    score whose layout differs from the refuted one only in what was dropped — and the parts
    (variable, key) dropped."""
    s, r, dropped = None, z3.unsat, set()
    for batch in _batches(prob, [part for part, _ in pins]):
        kept = [(part, p) for part, p in pins if part not in dropped]
        trial = [(part, p) for part, p in kept if part not in batch]
        if len(trial) == len(kept):
            continue  # none of it is pinned
        s2, r2, _ = ask(trial)
        if r2 == z3.sat:
            return s2, r2, dropped
        if r2 == z3.unsat:
            dropped |= batch
    return s, r, dropped


def _batches(prob, parts) -> list[set]:
    """What `widen` drops in turn, as sets of (variable, key) parts of a layout's pins."""
    pz = prob.pz
    out = [{pt for pt in parts if pt[0] == name} for name in pz.layout_generalise]
    if pz.layout_generalise_by is not None:
        keys = list(dict.fromkeys(k for _, k in parts if k is not None))
        pinned_only = {k for n, k in parts if n in pz.layout_pin_only}  # keys where a pin_only entry was pinned
        held = [k for k in keys if k in pinned_only]
        bare = [k for k in keys if k not in held]
        together = [bare] if bare and held else []  # the bare keys at once, if anything else is held
        alone = [[k] for k in (held if together else keys)]
        out += [{pt for pt in parts if pt[1] in ks} for ks in together + alone]
    return out


def pin_groups(game, prob) -> list[tuple]:
    """The layout's leaves in groups pinned together, each with its part — (variable, key), the
    key None unless the variable is a map keyed by `generalise_by` — and the Z3 condition under
    which it is pinned (None: always). A map in the puzzle's `pin_only` has a group per key,
    pinned only where its `where` holds in the proposal; elsewhere the entry is left free in the
    whole-record question, so a refutation rules out every layout that differs from it only there
    (sound: it was asked with those entries free)."""
    pz, out = prob.pz, []
    for n in pz.layout_vars:
        v, t = prob.q.sym[n], game.state_types[n]
        per_key = n in pz.layout_pin_only or (isinstance(t, MapT) and t.key == pz.layout_generalise_by)
        if not per_key:
            out.append(((n, None), None, _free(leaves(v))))
            continue
        keyed = t.key == pz.layout_generalise_by
        params, where = pz.layout_pin_only.get(n, (None, None))
        keys = game.domains[t.key]
        for k in v.codes:
            when = None if where is None else prob.q.holds(where, 0, game._zargs(params, {params[0][0]: keys.atom(k)}))
            out.append(((n, k if keyed else None), when, _free(leaves(v.entries[k]))))
    return out


def _free(xs) -> list:
    """The leaves that are not constants (the deal fixes some)."""
    return [x for x in xs if z3.is_expr(x) and not (z3.is_int_value(x) or z3.is_true(x) or z3.is_false(x))]
