"""And, Or, Not, Implies, If and == built through Z3's C API, for terms that are already Z3 terms;
numerals made once and constants read without z3py's wrappers.

z3py's constructors coerce every argument: a sort object per argument, a cast, a context merge.
Compiling a whole-map rule builds hundreds of thousands of these terms, and that wrapper work —
not Z3 — was most of the time (profiled replaying a Zoo Parque game through Z3: about 8 million
temporary sort objects for 1.3 million And/Implies). These build the same terms from arguments
that are Z3 Bool terms (or, for If, two Bool or two Int terms) of the main context; anything
else goes to z3py unchanged, so the meaning never differs, only the cost.
"""
from __future__ import annotations

import re

import z3
from z3 import z3core

_CTX = z3.main_ctx()
_REF = _CTX.ref()
TRUE = z3.BoolVal(True)
FALSE = z3.BoolVal(False)
_BOOL = z3.BoolRef
_NUM = z3.IntNumRef
_INT = (z3.ArithRef, _NUM)  # this project builds no reals: an arithmetic term is an Int


def _bools(args) -> bool:
    for a in args:
        if type(a) is not _BOOL or a.ctx is not _CTX:
            return False
    return True


def _array(args):
    arr = (z3.Ast * len(args))()
    for i, a in enumerate(args):
        arr[i] = a.ast
    return arr


def _int(x):
    return num(x) if type(x) is int else x


def _flat(args):
    return list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)


def And(*args):
    terms = _flat(args)
    if not terms or not _bools(terms):
        return z3.And(*args)
    return _BOOL(z3core.Z3_mk_and(_REF, len(terms), _array(terms)), _CTX)


def Or(*args):
    terms = _flat(args)
    if not terms or not _bools(terms):
        return z3.Or(*args)
    return _BOOL(z3core.Z3_mk_or(_REF, len(terms), _array(terms)), _CTX)


def Not(a):
    if type(a) is not _BOOL or a.ctx is not _CTX:
        return z3.Not(a)
    return _BOOL(z3core.Z3_mk_not(_REF, a.ast), _CTX)


def Implies(a, b):
    if not _bools((a, b)):
        return z3.Implies(a, b)
    return _BOOL(z3core.Z3_mk_implies(_REF, a.ast, b.ast), _CTX)


def If(c, a, b):
    if type(c) is not _BOOL or c.ctx is not _CTX:
        return z3.If(c, a, b)
    a, b = _int(a), _int(b)
    if type(a) is _BOOL and type(b) is _BOOL:
        kind = _BOOL
    elif isinstance(a, _INT) and isinstance(b, _INT):
        kind = z3.ArithRef
    else:
        return z3.If(c, a, b)
    if a.ctx is not _CTX or b.ctx is not _CTX:
        return z3.If(c, a, b)
    return kind(z3core.Z3_mk_ite(_REF, c.ast, a.ast, b.ast), _CTX)


def Eq(a, b):
    """a == b for two Bool or two Int terms, or an Int term and a Python int (z3py's == coerces
    both sides first)."""
    b = _int(b)
    if type(a) is _BOOL and type(b) is _BOOL or isinstance(a, _INT) and isinstance(b, _INT):
        if a.ctx is _CTX and b.ctx is _CTX:
            return _BOOL(z3core.Z3_mk_eq(_REF, a.ast, b.ast), _CTX)
    return a == b


def is_int_value(a) -> bool:
    """Whether a is an Int numeral, without z3.is_int_value's sort object: z3py wraps every Int
    numeral it returns (IntVal, simplify, a model's value) as an IntNumRef, the one class with
    as_long; a numeral wrapped otherwise only misses a shortcut."""
    return type(a) is _NUM


_NUMS: dict[int, z3.IntNumRef] = {}
_INTS: dict[int, int] = {}  # id of a numeral num() made (kept alive in _NUMS) -> its value


def num(k: int) -> z3.IntNumRef:
    """The Int numeral k, made once: keys and atom codes are compared against thousands of times."""
    hit = _NUMS.get(k)
    if hit is None:
        hit = _NUMS[k] = z3.IntVal(k)
        _INTS[id(hit)] = k
    return hit


def int_of(a) -> int:
    """The value of an Int numeral (is_int_value(a) holds), without z3py's as_long, which makes
    a sort object to check the sort first: folding constants while compiling reads millions."""
    k = _INTS.get(id(a))
    if k is not None:
        return k
    return int(z3core.Z3_get_numeral_string(_REF, a.as_ast()))


def constant(raw):
    """The value of a raw Z3 AST if it is a constant — TRUE, FALSE or an Int numeral (shared
    objects) — else None. Reading thousands of simplified terms per state, z3py's wrapping of each
    one cost more than the simplification."""
    kind = z3core.Z3_get_ast_kind(_REF, raw)
    if kind == z3.Z3_NUMERAL_AST:
        return num(int(z3core.Z3_get_numeral_string(_REF, raw)))
    if kind == z3.Z3_APP_AST:
        b = z3core.Z3_get_bool_value(_REF, raw)
        if b == z3.Z3_L_TRUE:
            return TRUE
        if b == z3.Z3_L_FALSE:
            return FALSE
    return None


_ARG = re.compile(r"\s*(?:\(- (\d+)\)|(\d+)|(true)|(false))(?=[\s)])")  # a whole token only
_CLOSE = re.compile(r"\s*\)\s*")
_HEAD = re.compile(r"\((?:\|(?:[^|\\]|\\.)*\||[^\s()|]+)")  # "(" and the head's name, |quoted| or plain


def constant_args(app, n: int) -> list | None:
    """The n arguments of an application, each a constant (as `constant` gives them), read from
    one print of it — or None if any is not a constant, or the print is not one application of n
    constants. Reading thousands of arguments one by one, three C calls each and their ctypes
    wrapping cost more than the simplification that made them (a whole-game replay's states)."""
    text = z3core.Z3_ast_to_string(_REF, app.as_ast())
    head = _HEAD.match(text)
    if head is None:
        return None
    at, out = head.end(), []
    for _ in range(n):
        m = _ARG.match(text, at)
        if m is None:
            return None
        neg, pos, true, _false = m.groups()
        out.append(num(-int(neg)) if neg else num(int(pos)) if pos else TRUE if true else FALSE)
        at = m.end()
    return out if _CLOSE.fullmatch(text, at) else None


def known(b):
    """b itself, or the shared TRUE/FALSE when b is the literal true or false built elsewhere
    (z3.BoolVal in a built-in's answer): the compiler folds on identity with TRUE and FALSE."""
    if b is TRUE or b is FALSE or type(b) is not _BOOL or b.ctx is not _CTX:
        return b
    c = constant(b.ast)
    return b if c is None else c


def is_true(v) -> bool:
    return v is TRUE or (v is not FALSE and z3.is_true(v))


def has_quantifier(t) -> bool:
    """Whether the term t has a quantifier anywhere inside it (a `can` over a post-state). Walked
    once per compiled value, through the C API: substituting constants and simplifying never adds
    one, so a value without any needs no quantifier settled on any concrete state."""
    seen, todo = set(), [t.as_ast()]
    while todo:
        a = todo.pop()
        i = raw_id(a)
        if i in seen:
            continue
        seen.add(i)
        k = raw_kind(a)
        if k == z3.Z3_QUANTIFIER_AST:
            return True
        if k == z3.Z3_APP_AST:
            todo.extend(raw_arg(a, j) for j in range(raw_nargs(a)))
    return False


# ------------------------------------------------------------------ reading terms by the C API

def _unchecked(fn):
    """The ctypes function behind a z3core accessor, without the error check z3py adds to every
    call (a second foreign call): walking a whole map's terms makes millions of these reads, and
    they cannot fail on a live term. z3core keeps the function as its default argument; if it
    ever stops doing so, the checked accessor is used."""
    d = getattr(fn, "__defaults__", None)
    return d[0].f if d and hasattr(d[0], "f") else fn


_kind = _unchecked(z3core.Z3_get_ast_kind)
_nargs = _unchecked(z3core.Z3_get_app_num_args)
_arg = _unchecked(z3core.Z3_get_app_arg)
_id = _unchecked(z3core.Z3_get_ast_id)
_decl = _unchecked(z3core.Z3_get_app_decl)
_decl_kind = _unchecked(z3core.Z3_get_decl_kind)
_sort = _unchecked(z3core.Z3_get_sort)
_sort_kind = _unchecked(z3core.Z3_get_sort_kind)


def raw_id(a) -> int:
    return _id(_REF, a)


def raw_kind(a) -> int:
    return _kind(_REF, a)


def raw_nargs(a) -> int:
    return _nargs(_REF, a)


def raw_arg(a, j: int):
    return _arg(_REF, a, j)


def raw_op(a) -> int:
    return _decl_kind(_REF, _decl(_REF, a))


def raw_sort_kind(a) -> int:
    return _sort_kind(_REF, _sort(_REF, a))


def raw_numeral(a) -> str:
    return z3core.Z3_get_numeral_string(_REF, a)


def raw_op_name(a) -> str:
    return z3core.Z3_get_symbol_string(_REF, z3core.Z3_get_decl_name(_REF, _decl(_REF, a)))


def raw_pb_params(a, unit: bool) -> tuple[int, list[int]]:
    """A pseudo-Boolean term's bound and coefficients (at-most/at-least: `unit`, every one 1)."""
    d = _decl(_REF, a)
    k = z3core.Z3_get_decl_int_parameter(_REF, d, 0)
    if unit:
        return k, [1] * _nargs(_REF, a)
    return k, [z3core.Z3_get_decl_int_parameter(_REF, d, i + 1) for i in range(_nargs(_REF, a))]
