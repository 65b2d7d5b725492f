"""A pool of processes that can stop one task: each worker runs one task at a time, and a task past
its own time limit is stopped by stopping its process, which is then replaced.

`multiprocessing.Pool` cannot do that (a task runs until it returns), and the analyses' timeouts
bound each Z3 query, not a whole question that asks many: a tour's budget is only kept when a
question can be cut off.
"""
from __future__ import annotations

import multiprocessing
import signal
import time
from multiprocessing.connection import wait

from zoospec import collector, stack_room


def _serve(conn, fn):
    """In the worker: call fn on each task sent, send back its result (or the error it raised).
    Ctrl-C is the parent's to handle: it stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    collector.tune()
    while True:
        task = conn.recv()
        if task is None:
            return
        try:
            conn.send(("ok", stack_room.run(lambda: fn(*task))))
        except Exception as e:  # noqa: BLE001 — reported to the parent as the task's answer
            conn.send(("error", f"{type(e).__name__}: {e}"))


class _Worker:
    def __init__(self, ctx, fn):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, fn), daemon=True)
        self.proc.start()
        self.key = None
        self.started = 0.0
        self.limit = 0.0


class Workers:
    """`run(tasks, on_result)`: tasks are (key, args, limit) — fn(*args) in some worker, stopped
    after `limit` seconds (a number, or a function of the time it starts); on_result(key, status,
    value, seconds) with status ok | error | stopped."""

    def __init__(self, n: int, fn):
        self.ctx = multiprocessing.get_context("spawn")
        self.fn = fn
        self.workers = [_Worker(self.ctx, fn) for _ in range(max(1, n))]

    def run(self, tasks, on_result, stop_starting_at: float | None = None, on_start=None) -> list:
        """Runs the tasks in order, taking each from `tasks` (any iterable: a sweep's billion seeds
        are never listed) only when a worker is free; none is started after `stop_starting_at`
        (time.time()); `on_start(key)` as each is handed to a worker. Returns the keys of the
        tasks never started."""
        todo = iter(tasks)
        waiting = None  # the next task, taken from `todo` but not yet started
        while True:
            now = time.time()
            for w in self.workers:
                if w.key is None and (stop_starting_at is None or now < stop_starting_at):
                    waiting = next(todo, None) if waiting is None else waiting
                    if waiting is None:
                        break
                    (key, args, limit), waiting = waiting, None
                    w.conn.send(args)
                    w.key, w.started, w.limit = key, now, limit(now) if callable(limit) else limit
                    if on_start is not None:
                        on_start(key)
            busy = [w for w in self.workers if w.key is not None]
            if not busy:
                break
            for conn in wait([w.conn for w in busy], timeout=0.2):
                w = next(x for x in busy if x.conn is conn)
                key = w.key
                try:
                    status, value = conn.recv()
                except EOFError:  # the worker died (out of memory, a crash in a solver)
                    status, value = "error", "the worker process died"
                    self._replace(w)
                w.key = None
                on_result(key, status, value, time.time() - w.started)
            for w in self.workers:
                if w.key is not None and time.time() - w.started > w.limit:
                    key, seconds = w.key, time.time() - w.started
                    self._replace(w)
                    on_result(key, "stopped", None, seconds)
        return [key for key, _, _ in ([waiting] if waiting is not None else []) + list(todo)]

    def _replace(self, w):
        w.proc.kill()
        w.proc.join()
        fresh = _Worker(self.ctx, self.fn)
        w.conn, w.proc, w.key = fresh.conn, fresh.proc, None

    def close(self):
        for w in self.workers:
            if w.key is None and w.proc.is_alive():
                try:
                    w.conn.send(None)
                except OSError:
                    pass
            else:
                w.proc.kill()
        for w in self.workers:
            w.proc.join(timeout=5)
            if w.proc.is_alive():
                w.proc.kill()
