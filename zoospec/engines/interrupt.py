"""Ctrl-C that stops a search inside a solver, so the caller can say what it found so far.

Python runs its SIGINT handler only between bytecodes of the main thread, and a Z3 or Yices
check is one long call into C: the handler would wait for the check's own timeout, and a
KeyboardInterrupt raised inside Z3's callbacks surfaces as a ctypes error or an 'unknown' that
looks like a timeout (issue 43). Within `ctrl_c_stops()`, the C-level signal handler's wakeup
byte wakes a thread of ours at once: it sets STOP, interrupts Z3 (its main context: every check
of ours runs there) and every Yices check running (`running`); the searches return unknown, the
loops that look at `stopped()` end, and the caller reports its best so far as interrupted. A
second Ctrl-C raises KeyboardInterrupt as usual. Z3's own Ctrl-C handling is turned off within
(its `ctrl_c` parameter): it would take the signal itself, end the check as 'unknown' and leave
Python none the wiser. The CLI runs every command inside `ctrl_c_stops(first_raises=True)`: there
the first Ctrl-C stops the solvers and raises KeyboardInterrupt at once (`zoospec: interrupted`);
a command that reports what it found so far opens its own `ctrl_c_stops()` inside.
"""
from __future__ import annotations

import contextlib
import signal
import socket
import threading

import z3

STOP = threading.Event()
_running: set = set()  # how to stop each Yices check under way
_lock = threading.Lock()
_open = []  # the ctrl_c_stops() blocks open now (they nest: the CLI's around a command's own)


def stopped() -> bool:
    return STOP.is_set()


@contextlib.contextmanager
def running(stop):
    """Around a blocking check that `stop()` (from another thread) ends: a Ctrl-C meanwhile calls it."""
    with _lock:
        _running.add(stop)
    if STOP.is_set():
        stop()
    try:
        yield
    finally:
        with _lock:
            _running.discard(stop)


def _stop_everything():
    STOP.set()
    z3.main_ctx().interrupt()
    with _lock:
        for stop in list(_running):
            stop()


class Interrupted:
    """What `ctrl_c_stops()` yields: whether Ctrl-C came (readable after the block too)."""

    def __init__(self):
        self.came = False


@contextlib.contextmanager
def ctrl_c_stops(first_raises: bool = False):
    """Within it, Ctrl-C stops the searches under way (see the module) and — unless `first_raises`
    — does not raise; the yielded object says whether it came. Outside the main thread it changes
    nothing."""
    seen = Interrupted()
    outer_stop = STOP.is_set()
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return
    wake_r, wake_w = socket.socketpair()
    wake_w.setblocking(False)
    presses = []

    def on_sigint(signum, frame):  # runs once the main thread is back in Python
        presses.append(1)
        seen.came = True
        STOP.set()
        if first_raises or len(presses) > 1:
            raise KeyboardInterrupt

    def watch():  # woken by the C handler's byte, while the main thread may still be inside C
        while True:
            data = wake_r.recv(64)
            if not data or closing.is_set():
                return
            if signal.SIGINT in data:
                seen.came = True
                _stop_everything()

    closing = threading.Event()
    _open.append(seen)
    z3.set_param("ctrl_c", False)
    before = signal.signal(signal.SIGINT, on_sigint)
    old_fd = signal.set_wakeup_fd(wake_w.fileno(), warn_on_full_buffer=False)
    watcher = threading.Thread(target=watch, name="zoospec-ctrl-c", daemon=True)
    watcher.start()
    try:
        yield seen
    finally:
        signal.set_wakeup_fd(old_fd)
        signal.signal(signal.SIGINT, before)
        _open.remove(seen)
        if not _open:
            z3.set_param("ctrl_c", True)
        closing.set()
        wake_w.send(b"\0")
        watcher.join(timeout=1)
        wake_r.close()
        wake_w.close()
        if not outer_stop:
            STOP.clear()
