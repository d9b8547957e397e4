"""A progress bar on the terminal (rich): games done, games per second, time left.

Shown on standard error only when it is a terminal and the output is text;
under ``--format json``, in a pipe or in CI nothing is drawn.
"""

from __future__ import annotations

import contextlib
import sys


@contextlib.contextmanager
def progress_bar(enabled: bool, description: str):
    """A context giving ``on_progress(done, total)`` (None when there is nothing to show)."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Speed(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} games/s" if speed else "", style="progress.data.speed")

    bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                   Speed(), TimeElapsedColumn(), "left", TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = None

    def on_progress(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            task = bar.add_task(description, total=total, completed=done)
        else:
            bar.update(task, completed=done, total=total)

    with bar:
        yield on_progress
