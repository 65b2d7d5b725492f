"""Exact cover with capacities: the compiled dancing-links search, or its pure-Python twin.

`Search(n_primary, caps, rows)` is the one interface. Items 0..n_primary-1 must be covered exactly
once; every other item i may be covered at most caps[i] times. `run(budget, keep, stop_at)`
explores at most `budget` more nodes and returns (done, solutions), so callers can show progress
and stop at a deadline without losing the search.

The C extension (`_xcover.c`) is built at install time when a compiler is present; `PySearch`
below is the same algorithm line for line, used otherwise and cross-checked against it in tests.
"""
from __future__ import annotations

try:
    from ._xcover import Search as CSearch
except ImportError:  # no compiler at install time: fall back to the twin below
    CSearch = None


class PySearch:
    """Dancing links in pure Python — the same data layout and moves as _xcover.c."""

    def __init__(self, n_primary: int, caps, rows):
        caps = list(caps)
        n = len(caps)
        if not 0 <= n_primary <= n:
            raise ValueError("n_primary out of range")
        for i, c in enumerate(caps):
            if (c != 1) if i < n_primary else (c < 1):
                raise ValueError("each primary item needs cap 1, each secondary cap >= 1")
        self.n_primary = n_primary
        self.cap = [0] + caps
        self.llink = [0] * (n + 1)
        self.rlink = [0] * (n + 1)
        self.rlink[0], self.llink[0] = (1 if n_primary else 0), n_primary
        for i in range(1, n_primary + 1):
            self.llink[i], self.rlink[i] = i - 1, (0 if i == n_primary else i + 1)
        self.len = [0] * (n + 1)
        top, up, down, row_of = [0] * (n + 1), list(range(n + 1)), list(range(n + 1)), [0] * (n + 1)
        self.row_start, self.row_end = [], []
        for r, row in enumerate(rows):
            row = list(row)
            if len(set(row)) != len(row):
                raise ValueError("row names an item twice")
            self.row_start.append(len(top))
            for it in row:
                if not 0 <= it < n:
                    raise ValueError("row names an item out of range")
                i = it + 1
                node = len(top)
                top.append(i), row_of.append(r), up.append(up[i]), down.append(i)
                down[up[i]] = node
                up[i] = node
                self.len[i] += 1
            self.row_end.append(len(top))
        self.top, self.up, self.down, self.row_of = top, up, down, row_of
        self.choice: list[int] = []
        self.branch: list[int] = []
        self.nodes = self.solutions = 0
        self._state = "fresh"

    @property
    def done(self) -> bool:
        return self._state == "done"

    def _hide(self, p):
        up, down, top, ln = self.up, self.down, self.top, self.len
        r = self.row_of[p]
        for q in range(self.row_start[r], self.row_end[r]):
            if q != p:
                down[up[q]] = down[q]
                up[down[q]] = up[q]
                ln[top[q]] -= 1

    def _unhide(self, p):
        up, down, top, ln = self.up, self.down, self.top, self.len
        r = self.row_of[p]
        for q in range(self.row_end[r] - 1, self.row_start[r] - 1, -1):
            if q != p:
                down[up[q]] = q
                up[down[q]] = q
                ln[top[q]] += 1

    def _cover(self, i):
        if i <= self.n_primary:
            self.rlink[self.llink[i]] = self.rlink[i]
            self.llink[self.rlink[i]] = self.llink[i]
        p = self.down[i]
        while p != i:
            self._hide(p)
            p = self.down[p]

    def _uncover(self, i):
        p = self.up[i]
        while p != i:
            self._unhide(p)
            p = self.up[p]
        if i <= self.n_primary:
            self.rlink[self.llink[i]] = i
            self.llink[self.rlink[i]] = i

    def _select(self, x):
        r = self.row_of[x]
        for q in range(self.row_start[r], self.row_end[r]):
            if q != x:
                j = self.top[q]
                if j <= self.n_primary:
                    self._cover(j)
                else:
                    self.cap[j] -= 1
                    if self.cap[j] == 0:
                        self._cover(j)

    def _unselect(self, x):
        r = self.row_of[x]
        for q in range(self.row_end[r] - 1, self.row_start[r] - 1, -1):
            if q != x:
                j = self.top[q]
                if j <= self.n_primary:
                    self._uncover(j)
                else:
                    if self.cap[j] == 0:
                        self._uncover(j)
                    self.cap[j] += 1

    def run(self, budget: int, keep: int = 0, stop_at: int = 0):
        if budget < 1:
            raise ValueError("budget must be positive")
        out: list[tuple[int, ...]] = []
        if self._state == "done":
            return True, out
        stop = self.nodes + budget
        at = "backtrack" if self._state == "backtrack" else "top"
        choice, branch = self.choice, self.branch
        while True:
            if at == "top":
                if self.rlink[0] == 0:
                    self.solutions += 1
                    if len(out) < keep:
                        out.append(tuple(self.row_of[x] for x in choice))
                    if stop_at > 0 and self.solutions >= stop_at:
                        self._state = "backtrack"
                        return False, out
                    at = "backtrack"
                    continue
                best, bl = 0, None
                i = self.rlink[0]
                while i != 0:
                    if bl is None or self.len[i] < bl:
                        best, bl = i, self.len[i]
                        if bl <= 1:
                            break
                    i = self.rlink[i]
                if bl == 0:
                    at = "backtrack"
                    continue
                self._cover(best)
                branch.append(best)
                choice.append(best)  # placeholder: the first row is down[best]
                x = self.down[best]
            else:  # backtrack
                if not choice:
                    self._state = "done"
                    return True, out
                x = choice[-1]
                self._unselect(x)
                x = self.down[x]
            i = branch[-1]
            if x == i:
                self._uncover(i)
                choice.pop(), branch.pop()
                at = "backtrack"
                continue
            choice[-1] = x
            self._select(x)
            self.nodes += 1
            at = "top"
            if self.nodes >= stop:
                self._state = "top"
                return False, out


Search = CSearch or PySearch
COMPILED = CSearch is not None
