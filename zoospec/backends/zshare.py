"""Many bodies of one game compiled to Z3 on one symbolic state, each shared part built once.

A test process compiles hundreds of bodies of one game — agreement items, known-answer cases,
every action of a replayed game — and most of that cost is the same define calls again: Zoo
Parque's Areas and Exhibits over the whole map, rebuilt for every rule that reads them. A
`SharedCompile` gives each body's `ZCtx` one memo and one symbolic state, so a define call (or a
built-in's structure, such as a region's labels) is built once per process and game.

What a memo hit does not carry over is made good afterwards. While compiling, side constraints
and auxiliary variables go into one shared list; then each body keeps its cone: the sides that
mention an auxiliary variable its terms reach, closed under the auxiliaries those sides mention.
Each side helps define its auxiliaries from the state, so a body gets exactly the sides it would
have built alone (in another order, with other tag numbers). Tags continue one counter, so no two
bodies' auxiliaries share a name by accident.
"""
from __future__ import annotations

import z3

from ..smt import terms as zt
from .z3 import ZCtx

_APP = z3.Z3_APP_AST
_EMPTY: frozenset = frozenset()


def constants_in(terms) -> set[int]:
    """The ids of the constants (nullary applications: state leaves, auxiliaries, true, false)
    the terms reach, each shared subterm visited once. Quantifiers are not entered: what they
    bind is theirs, and a `can` builds its auxiliaries apart (backends/z3.py)."""
    seen, out = set(), set()
    todo = [t.as_ast() for t in terms]
    while todo:
        a = todo.pop()
        i = zt.raw_id(a)
        if i in seen:
            continue
        seen.add(i)
        if zt.raw_kind(a) != _APP:
            continue
        n = zt.raw_nargs(a)
        if n == 0:
            out.add(i)
        else:
            todo.extend(zt.raw_arg(a, j) for j in range(n))
    return out


def aux_in_each(roots, aux: set[int], below: dict[int, frozenset] | None = None) -> list[set[int]]:
    """For each root, the auxiliaries (ids in `aux`) it reaches. Subterms shared between roots
    (the member bits of one set, in every side of its labels) are walked once: each node's
    answer is kept in `below` (node id -> auxiliaries under it), which a caller may keep for
    later roots — only while every node in it stays alive (Z3 reuses the ids of freed nodes),
    and only while `aux` does not gain a node already walked."""
    below = {} if below is None else below
    out = []
    for r in roots:
        stack = [(r.as_ast(), False)]
        while stack:
            a, done = stack.pop()
            i = zt.raw_id(a)
            if i in below:
                continue
            if zt.raw_kind(a) != _APP:
                below[i] = _EMPTY
                continue
            n = zt.raw_nargs(a)
            if n == 0:
                below[i] = frozenset((i,)) if i in aux else _EMPTY
            elif not done:
                stack.append((a, True))
                stack.extend((zt.raw_arg(a, j), False) for j in range(n))
            else:
                found = _EMPTY
                for j in range(n):
                    b = below[zt.raw_id(zt.raw_arg(a, j))]
                    if b:
                        found = found | b
                below[i] = found
        out.append(set(below[zt.raw_id(r.as_ast())]))
    return out


class SharedCompile:
    """One symbolic state, one memo, one list of side constraints for many compilations."""

    def __init__(self, sym):
        self.sym = sym
        self.memo: dict = {}
        self.sides: list = []
        self.aux: list = []
        self._n = 0
        self._aux_ids: dict[int, object] = {}
        self._aux_seen = 0  # auxiliaries of self.aux noted in _aux_ids
        self._mentions: list[set[int]] = []  # per side (by index): the auxiliaries it mentions
        self._by_aux: dict[int, list[int]] = {}  # auxiliary id -> the sides (indexes) that mention it
        self._free: list[int] = []  # sides that mention no auxiliary (kept by every body)
        self._below: dict[int, frozenset] = {}  # aux_in_each's answers on subterms of self.sides (kept alive there)

    def context(self) -> ZCtx:
        """A fresh context for one body, sharing the memo, the sides and the tag counter."""
        ctx = ZCtx()
        ctx.memo, ctx.sides, ctx.aux, ctx._n = self.memo, self.sides, self.aux, self._n
        return ctx

    def finish(self, ctx: ZCtx, terms) -> None:
        """After one body is compiled in `ctx`: the counter moves on, and ctx keeps only the
        sides and auxiliaries of the body's cone (`terms`: every term of its value and its
        definedness)."""
        self._n = max(self._n, ctx._n)
        if not self.sides:
            ctx.sides, ctx.aux = [], []
            return
        self._index()
        need = constants_in(terms) & self._aux_ids.keys()
        keep, todo = set(self._free), list(need)
        while todo:
            for i in self._by_aux.get(todo.pop(), ()):
                if i not in keep:
                    keep.add(i)
                    for c in self._mentions[i]:
                        if c not in need:
                            need.add(c)
                            todo.append(c)
        ctx.sides = [self.sides[i] for i in sorted(keep)]
        ctx.aux = [self._aux_ids[i] for i in need]

    def _index(self) -> None:
        """Note which auxiliaries each side added since the last call mentions."""
        for a in self.aux[self._aux_seen:]:
            self._aux_ids.setdefault(a.get_id(), a)
        self._aux_seen = len(self.aux)
        start = len(self._mentions)
        for k, mentioned in enumerate(aux_in_each(self.sides[start:], self._aux_ids.keys(), self._below), start):
            self._mentions.append(mentioned)
            if not mentioned:
                self._free.append(k)
            for c in mentioned:
                self._by_aux.setdefault(c, []).append(k)
