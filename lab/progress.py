"""How far a long run has got, on standard error, when the output is text.

On a terminal a bar (rich): games done, games per second, time left. Anywhere
else (a pipe, a log file, CI) a plain line now and then, which a log keeps
readable: ``kittens arena: 120/400 games (30%), 0.9 games/s, 2:13 so far,
about 5:07 left``. A line comes once a tenth more of the games is done or a
minute has passed, never sooner than :data:`QUIET_SECONDS` after the last (or
after the start: a run of a few seconds prints none); ``KITTENS_PROGRESS_SECONDS``
sets that gap (0: a line each time games come back). Under ``--format json``
nothing is printed.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time

#: the least time between two plain lines, and before the first
QUIET_SECONDS = 5.0
#: the most time between two plain lines while games come back
LONGEST_SECONDS = 60.0
#: the share of the games after which a plain line comes sooner than LONGEST_SECONDS
STEP = 0.1
#: the environment variable that sets QUIET_SECONDS
SECONDS_ENV = "KITTENS_PROGRESS_SECONDS"


@contextlib.contextmanager
def progress_bar(enabled: bool, description: str):
    """A context giving ``on_progress(done, total)`` (None when there is nothing to show)."""
    if not enabled:
        yield None
    elif sys.stderr.isatty():
        with _bar(description) as on_progress:
            yield on_progress
    else:
        lines = PlainProgress(f"kittens {description}", sys.stderr, _quiet_seconds())
        try:
            yield lines
        finally:
            lines.close()


def _quiet_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get(SECONDS_ENV, QUIET_SECONDS)))
    except ValueError:
        return QUIET_SECONDS


class PlainProgress:
    """``on_progress(done, total)`` writing a plain line now and then to ``stream``."""

    def __init__(self, description: str, stream, quiet: float = QUIET_SECONDS, clock=time.monotonic) -> None:
        self.description, self.stream, self.quiet, self.clock = description, stream, quiet, clock
        self.started = self.last_time = self.last_update = clock()
        self.first_done = self.last_done = self.total = None
        self.shown = None  # the games done at the last line written

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.total != total or (self.last_done is not None and done < self.last_done):
            # a new series (compare --skill plays a second one): its own start and pace
            self.started = self.last_time = now
            self.first_done, self.total, self.shown = done, total, None
        self.last_done, self.last_update = done, now
        since = now - self.last_time
        stepped = self.shown is None or done - self.shown >= STEP * total or done == total
        if done > self.first_done and since >= self.quiet and (stepped or since >= LONGEST_SECONDS):
            self._write(now)

    def close(self) -> None:
        """The last line, when lines were written and the run went on since."""
        if self.shown is not None and self.last_done != self.shown:
            self._write(self.last_update)  # as it stood when the last games came back

    def _write(self, now: float) -> None:
        done, total = self.last_done, self.total
        elapsed = now - self.started
        rate = (done - self.first_done) / elapsed if elapsed > 0 else None
        line = f"{self.description}: {done:,}/{total:,} games ({100 * done / total:.0f}%)" if total else \
            f"{self.description}: {done:,} games"
        if rate:
            line += f", {rate:,.0f} games/s" if rate >= 10 else f", {rate:.2g} games/s"
        line += f", {_clock(elapsed)} so far"
        if rate and total and done < total:
            line += f", about {_clock((total - done) / rate)} left"
        self.stream.write(line + "\n")
        self.stream.flush()
        self.shown, self.last_time = done, now


def _clock(seconds: float) -> str:
    """A duration as H:MM:SS or M:SS."""
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@contextlib.contextmanager
def _bar(description: str):
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
