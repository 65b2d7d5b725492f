"""What the tour shows while it works. Every answer is one line, as it comes, wherever the output
goes (a file, a CI log, a pipe). On a terminal the lines scroll above a live display (rich): how
many questions are answered of all and the budget left, then each question being asked now with
how long it has run — so a slow question is seen while it is slow, not after."""
from __future__ import annotations

import sys
import time

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn,
                           TimeElapsedColumn)
from rich.text import Text


class _BudgetLeft(ProgressColumn):
    """The tour's budget left, counted down as the display refreshes."""

    def __init__(self, budget: float, t0: float):
        super().__init__()
        self.budget, self.t0 = budget, t0

    def render(self, task) -> Text:
        return Text(f"budget left {max(0.0, self.budget - (time.monotonic() - self.t0)):.0f} s")


class TourDisplay:
    """`with TourDisplay(total, budget) as d:` then `d.started(key, label)` when a question goes to
    a worker and `d.answered(key, line)` when its answer is known (a remembered answer too).
    `live`: draw on the console (default: when its stream is a terminal)."""

    def __init__(self, total: int, budget: float, console: Console | None = None, live: bool | None = None):
        self.console = console or Console(file=sys.stdout, highlight=False, soft_wrap=True)
        if live is None:  # the stream itself, not rich's guess (FORCE_COLOR makes a CI log a "terminal")
            isatty = getattr(self.console.file, "isatty", None)
            live = bool(isatty and isatty()) and not self.console.is_dumb_terminal
        self.running: dict = {}  # key -> its row among the questions being asked
        self.live = None
        if live:
            self.overall = Progress(TextColumn("answered"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                    _BudgetLeft(budget, time.monotonic()), console=self.console)
            self.done = self.overall.add_task("answered", total=total)
            self.asking = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                                   console=self.console)
            self.live = Live(Group(self.overall, self.asking), console=self.console, transient=True,
                             refresh_per_second=4)

    def __enter__(self):
        if self.live is not None:
            self.live.start()
        return self

    def __exit__(self, *exc):
        if self.live is not None:
            self.live.stop()
        return False

    def refresh(self):
        if self.live is not None:
            self.live.refresh()

    def started(self, key, label: str):
        if self.live is not None:
            self.running[key] = self.asking.add_task(label, total=None)

    def answered(self, key, line: str):
        if self.live is None:
            print(line, file=self.console.file, flush=True)
            return
        row = self.running.pop(key, None)
        if row is not None:
            self.asking.remove_task(row)
        self.live.console.print(line, markup=False, highlight=False)
        self.overall.advance(self.done)
