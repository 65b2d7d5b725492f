"""Yices 2 as an engine for compiled queries: Z3 terms translated once, asked of Yices.

The compiled rules are Z3 terms (backends/z3.py). A puzzle's record is pure linear integer
arithmetic with `ite`s — no quantifiers, no functions, no non-linear terms — and Yices decides
such questions 10–300× faster than Z3 (measured in docs/performance.md). So nothing is compiled
twice: `Translator` walks a Z3 term's DAG once (shared subterms once) into Yices terms, and
`YicesSolver` answers like the part of `z3.Solver` zoospec uses — add, check with assumptions,
model, unsat_core, reason_unknown, a timeout — so the solvers built on Z3's solver ask Yices
without changing how they ask. A term Yices cannot hold (a quantifier, an uninterpreted function)
raises `Untranslatable`; the caller then asks Z3.

Each check runs in a fresh context (measured: faster than one context pushed and popped); the
timeout stops the search from a timer thread (Yices has no resource limit to count instead), and
an interrupted search is *unknown*, never an answer. Models are read back as Z3 constants, so a
record is decoded and then certified by the Python back end exactly as a Z3 model is.
"""
from __future__ import annotations

import ctypes
import threading
import time

import z3

from ..smt import terms as zt
from . import interrupt, yices_lib as Y


class Untranslatable(Exception):
    """A Z3 term with no Yices counterpart here (a quantifier, an uninterpreted function...)."""


def available() -> bool:
    return Y.lib() is not None


_OPS_N = {z3.Z3_OP_AND: "yices_and", z3.Z3_OP_OR: "yices_or", z3.Z3_OP_XOR: "yices_xor",
          z3.Z3_OP_ADD: "yices_sum", z3.Z3_OP_MUL: "yices_product", z3.Z3_OP_DISTINCT: "yices_distinct"}
_OPS_2 = {z3.Z3_OP_IMPLIES: "yices_implies", z3.Z3_OP_LE: "yices_arith_leq_atom", z3.Z3_OP_LT: "yices_arith_lt_atom",
          z3.Z3_OP_GE: "yices_arith_geq_atom", z3.Z3_OP_GT: "yices_arith_gt_atom", z3.Z3_OP_IDIV: "yices_idiv",
          z3.Z3_OP_MOD: "yices_imod", z3.Z3_OP_EQ: "yices_eq", z3.Z3_OP_IFF: "yices_eq"}


_PB = {z3.Z3_OP_PB_EQ: "yices_eq", z3.Z3_OP_PB_LE: "yices_arith_leq_atom", z3.Z3_OP_PB_GE: "yices_arith_geq_atom",
       z3.Z3_OP_PB_AT_MOST: "yices_arith_leq_atom", z3.Z3_OP_PB_AT_LEAST: "yices_arith_geq_atom"}


class Translator:
    """Z3 terms to Yices terms, each Z3 node translated once. The Z3 roots are kept alive, so the
    ids the memo is keyed on are never reused for another term."""

    def __init__(self):
        self.lib = Y.lib()
        self.memo: dict[int, int] = {}
        self.consts: dict[int, tuple[int, bool]] = {}  # Yices term of a Z3 constant -> (its z3 id, is bool)
        self._roots: list = []
        self._bool, self._int = self.lib.yices_bool_type(), self.lib.yices_int_type()

    def __call__(self, t) -> int:
        a = t.as_ast()
        hit = self.memo.get(zt.raw_id(a))
        if hit is not None:
            return hit
        self._roots.append(t)
        return self._walk(a)

    def _walk(self, root) -> int:
        memo, lib = self.memo, self.lib
        stack = [(root, False)]
        while stack:
            a, ready = stack.pop()
            i = zt.raw_id(a)
            if i in memo:
                continue
            kind = zt.raw_kind(a)
            if kind == z3.Z3_NUMERAL_AST:
                memo[i] = self._number(zt.raw_numeral(a))
                continue
            if kind != z3.Z3_APP_AST:
                raise Untranslatable("a quantifier (Yices is asked quantifier-free questions only)")
            n = zt.raw_nargs(a)
            if n and not ready:
                stack.append((a, True))
                stack.extend((zt.raw_arg(a, j), False) for j in range(n))
                continue
            memo[i] = self._app(a, i, [memo[zt.raw_id(zt.raw_arg(a, j))] for j in range(n)])
        return memo[zt.raw_id(root)]

    def _number(self, text: str) -> int:
        v = int(text)
        if -2**63 <= v < 2**63:
            return Y.check(self.lib.yices_int64(v))
        return Y.check(self.lib.yices_parse_rational(text.encode()))

    def _app(self, a, i, args) -> int:
        lib, op = self.lib, zt.raw_op(a)
        if op == z3.Z3_OP_TRUE:
            return lib.yices_true()
        if op == z3.Z3_OP_FALSE:
            return lib.yices_false()
        if op == z3.Z3_OP_UNINTERPRETED:
            if args:
                raise Untranslatable("an uninterpreted function")
            is_bool = zt.raw_sort_kind(a) == z3.Z3_BOOL_SORT
            if not is_bool and zt.raw_sort_kind(a) != z3.Z3_INT_SORT:
                raise Untranslatable("a constant that is neither Bool nor Int")
            t = Y.check(lib.yices_new_uninterpreted_term(self._bool if is_bool else self._int))
            self.consts[t] = (i, is_bool)
            return t
        if op in _OPS_N:
            return Y.check(getattr(lib, _OPS_N[op])(len(args), Y.array(args)))
        if op in _OPS_2 and len(args) == 2:
            return Y.check(getattr(lib, _OPS_2[op])(*args))
        if op == z3.Z3_OP_NOT:
            return Y.check(lib.yices_not(args[0]))
        if op == z3.Z3_OP_ITE:
            return Y.check(lib.yices_ite(*args))
        if op == z3.Z3_OP_SUB:
            out = args[0]
            for b in args[1:]:
                out = Y.check(lib.yices_sub(out, b))
            return out
        if op == z3.Z3_OP_UMINUS:
            return Y.check(lib.yices_neg(args[0]))
        if op in _PB:  # pseudo-Boolean (a `the` needs exactly one candidate): a sum of 0/1 terms
            k, coeffs = zt.raw_pb_params(a, op in (z3.Z3_OP_PB_AT_MOST, z3.Z3_OP_PB_AT_LEAST))
            one, zero = self._number("1"), self._number("0")
            parts = [Y.check(lib.yices_ite(x, self._number(str(c)) if c != 1 else one, zero)) for x, c in zip(args, coeffs)]
            total = Y.check(lib.yices_sum(len(parts), Y.array(parts))) if parts else zero
            return Y.check(getattr(lib, _PB[op])(total, self._number(str(k))))
        if op == z3.Z3_OP_REM:  # Z3's rem: mod with the divisor's sign
            m = Y.check(lib.yices_imod(*args))
            return Y.check(lib.yices_ite(Y.check(lib.yices_arith_geq_atom(args[1], self._number("0"))), m, Y.check(lib.yices_neg(m))))
        raise Untranslatable(f"the Z3 operator {zt.raw_op_name(a)}")


_TRANSLATOR: Translator | None = None


def translator() -> Translator:
    """The process's translator: a term built once is translated once for every question."""
    global _TRANSLATOR
    if _TRANSLATOR is None:
        _TRANSLATOR = Translator()
    return _TRANSLATOR


class YicesModel:
    """A Yices model read as Z3 constants (what `SymState.decode` and `eval` callers expect)."""

    def __init__(self, tr: Translator, mdl):
        self.tr, self.mdl = tr, mdl

    def __del__(self):
        if self.mdl and Y.lib() is not None:
            Y.lib().yices_free_model(self.mdl)
            self.mdl = None

    def eval(self, t, model_completion: bool = True):
        y = self.tr(t)
        lib = self.tr.lib
        if z3.is_bool(t):
            out = ctypes.c_int32()
            if lib.yices_get_bool_value(self.mdl, y, ctypes.byref(out)) == 0:
                return zt.TRUE if out.value else zt.FALSE
        else:
            out = ctypes.c_int64()
            if lib.yices_get_int64_value(self.mdl, y, ctypes.byref(out)) == 0:
                return zt.num(out.value)
        lib.yices_clear_error()
        if z3.is_const(t):  # a variable the question never mentioned: any value, as Z3 completes it
            return zt.FALSE if z3.is_bool(t) else zt.num(0)
        raise Y.YicesError(f"Yices cannot evaluate {str(t)[:80]} in its model")


_SEED = 0


def set_seed(seed: int):
    """The random seed of every Yices search in this process from now on (0: Yices' default) —
    what `solve --workers` gives each worker, as it gives Z3 `smt.random_seed`, so the workers
    search different paths."""
    global _SEED
    _SEED = int(seed)


class YicesSolver:
    """The part of z3.Solver zoospec's solvers use, answered by Yices."""

    def __init__(self, logic: str = "QF_LIA", tr: Translator | None = None):
        self.tr = tr or translator()
        self.logic = logic.encode()
        self._asserted: list[int] = []  # Yices terms
        self._terms: list = []  # the same, as the Z3 terms they were translated from
        self.timeout: float | None = None
        self._model = None
        self._core: list = []
        self._reason = ""
        self._halt = threading.Event()  # stop(): this solver's checks, now and later, end unknown
        self._stop_lock = threading.Lock()

    def stop(self):
        """Stop the check under way, and any later one, from another thread (a race lost)."""
        self._halt.set()

    def set(self, key, value=None):
        if key == "timeout":
            self.timeout = None if value is None else value / 1000.0
        # other Z3 settings (rlimit, random seeds) have no Yices counterpart: the timeout bounds it

    def add(self, *terms):
        for t in terms:
            if isinstance(t, (list, tuple)):
                self.add(*t)
            else:
                self._asserted.append(self.tr(t))
                self._terms.append(t)

    def check(self, *assumptions):
        lib = self.tr.lib
        flat = [a for x in assumptions for a in (x if isinstance(x, (list, tuple)) else [x])]
        ys = [self.tr(a) for a in flat]
        self._model, self._core, self._reason = None, [], ""
        if self._halt.is_set():
            self._reason = "stopped"
            return z3.unknown
        cfg = lib.yices_new_config()
        lib.yices_default_config_for_logic(cfg, self.logic)
        lib.yices_set_config(cfg, b"mode", b"one-shot")  # one check per context: every simplification on
        ctx = lib.yices_new_context(cfg)
        lib.yices_free_config(cfg)
        if not ctx:
            self._reason = "Yices could not make a context"
            return z3.unknown
        try:
            if self._asserted and lib.yices_assert_formulas(ctx, len(self._asserted), Y.array(self._asserted)) < 0:
                Y.check(Y.NULL_TERM)
            # assertions found contradictory while asserted leave the context unsat, where Yices
            # refuses a check with assumptions: unsat whatever is assumed, with an empty core
            if lib.yices_context_status(ctx) == Y.STATUS_UNSAT:
                status = Y.STATUS_UNSAT
            else:
                with interrupt.running(self.stop):  # Ctrl-C stops it (engines/interrupt.py)
                    status = self._search(ctx, ys)
            if status == Y.STATUS_SAT:
                self._model = YicesModel(self.tr, lib.yices_get_model(ctx, 1))
                return z3.sat
            if status == Y.STATUS_UNSAT:
                self._core = self._read_core(ctx, ys, flat)
                return z3.unsat
            self._reason = "timeout" if status == Y.STATUS_INTERRUPTED else "Yices gave no answer"
            return z3.unknown
        finally:
            lib.yices_free_context(ctx)

    def _search(self, ctx, ys) -> int:
        """One check, stopped when the timeout runs out or stop() is called from another thread."""
        lib, finished = self.tr.lib, threading.Event()
        if self.timeout is not None and self.timeout <= 0:
            return Y.STATUS_INTERRUPTED
        end = None if self.timeout is None else time.monotonic() + self.timeout

        def watch():
            while not (self._halt.is_set() or (end is not None and time.monotonic() >= end)):
                if finished.wait(0.05):
                    return
            # a stop that comes while Yices still simplifies (before its search) is ignored by
            # Yices, so it is sent again until the check returns
            while True:
                self._stop_now(ctx, finished)
                if finished.wait(0.05):
                    return
        watcher = threading.Thread(target=watch, daemon=True, name="yices-stop")
        watcher.start()
        params = None
        if _SEED:  # the context's own defaults, with another seed
            params = lib.yices_new_param_record()
            lib.yices_default_params_for_context(ctx, params)
            lib.yices_set_param(params, b"random-seed", str(_SEED).encode())
        try:
            if ys:
                return lib.yices_check_context_with_assumptions(ctx, params, len(ys), Y.array(ys))
            return lib.yices_check_context(ctx, params)
        finally:
            with self._stop_lock:
                finished.set()
            watcher.join()
            if params:
                lib.yices_free_param_record(params)

    def _stop_now(self, ctx, finished):
        with self._stop_lock:  # never on a context the check has finished with (it is freed next)
            if not finished.is_set():
                self.tr.lib.yices_stop_search(ctx)

    def _read_core(self, ctx, ys, flat) -> list:
        if not ys:
            return []
        lib = self.tr.lib
        vec = Y._TermVector()
        lib.yices_init_term_vector(ctypes.byref(vec))
        try:
            if lib.yices_get_unsat_core(ctx, ctypes.byref(vec)) < 0:
                return []
            core = {vec.data[k] for k in range(vec.size)}
        finally:
            lib.yices_delete_term_vector(ctypes.byref(vec))
        return [a for a, y in zip(flat, ys) if y in core]

    def model(self):
        if self._model is None:
            raise z3.Z3Exception("no model: the last check was not sat")
        return self._model

    def assertions(self) -> list:
        """What was added, as Z3 terms (as z3.Solver answers)."""
        return list(self._terms)

    def unsat_core(self) -> list:
        return list(self._core)

    def reason_unknown(self) -> str:
        return self._reason
