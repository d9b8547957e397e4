"""The lab's games on every core of this machine: worker processes (started with
``spawn``, so nothing of the main process's state leaks into them) playing chunks.

A worker that dies breaks the pool (``BrokenProcessPool``): the chunks that
had come back are counted, the others go to a fresh pool. Ctrl-C sets a flag
(:class:`~.work.StopFlag`) the workers watch between games: each sends the games it has finished, and
chunks no worker had started are dropped. A worker whose main process dies
without a word (kill -9) goes with it (``work._die_with_parent``).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from ..interpreter.engine.simulate import _Interrupts
from .work import StopFlag, _worker_init, play_chunk

#: how many times a run starts fresh workers after some died before it gives up
MAX_RESTARTS = 8


def run_on_pool(job, todo: list, workers: int, collect, outcome) -> None:
    context = multiprocessing.get_context("spawn")
    stop = StopFlag(context)
    pending = list(todo)
    restarts = 0
    while pending:
        lost = _one_pool(job, pending, workers, collect, outcome, context, stop)
        if outcome.interrupted or not lost:
            return
        restarts += 1
        if restarts > MAX_RESTARTS:
            raise RuntimeError(f"workers kept dying ({restarts} times); the last chunk lost was "
                               f"games {lost[0][0]}-{lost[0][1] - 1}")
        outcome.reruns += len(lost)
        pending = lost


def _one_pool(job, todo: list, workers: int, collect, outcome, context, stop) -> list:
    """Run ``todo`` on one pool; the chunks lost to a worker that died (to run again)."""
    lost = []
    # Chunks are handed out a few at a time, so a Ctrl-C drops few that were queued.
    queue = list(reversed(todo))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_init,
                             initargs=(stop, os.getpid())) as pool, _Interrupts() as interrupts:
        running = {}

        def feed() -> None:
            try:
                while queue and len(running) < workers * 3 and not stop.is_set():
                    start, stop_at = queue.pop()
                    try:
                        future = pool.submit(play_chunk, job, start, stop_at)
                    except BrokenProcessPool:  # a worker died since the last wait: no more here
                        queue.append((start, stop_at))
                        return
                    running[future] = (start, stop_at)
            except KeyboardInterrupt:  # a Ctrl-C while handing out chunks: stop as one during the
                _stop(stop, queue, outcome)  # wait does (the chunks running still come back)

        feed()
        try:
            while running:
                try:
                    finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                    # a Ctrl-C while the games that came back are counted waits until they
                    # are (landing inside collect, it lost the report), then stops the run
                    # as one during the wait does
                    with interrupts.deferred():
                        broken = _count_finished(finished, running, queue, lost, collect, stop)
                except KeyboardInterrupt:
                    _stop(stop, queue, outcome)
                    continue
                if broken:
                    break
                feed()
            if queue and not stop.is_set():  # the pool broke before these were handed out
                lost.extend(reversed(queue))
                queue.clear()
        except KeyboardInterrupt:  # a Ctrl-C between the waits: the chunks still running are
            _stop(stop, queue, outcome)  # dropped, the report keeps the games counted so far
            pool.shutdown(wait=False, cancel_futures=True)
    return sorted(lost)


def _count_finished(finished, running: dict, queue: list, lost: list, collect, stop) -> bool:
    """Count the chunks that came back; True when the pool broke (the chunks still
    running are then counted or lost, and those not handed out are lost too)."""
    for future in finished:
        chunk = running.pop(future)
        try:
            until, lines, part = future.result()
        except BrokenProcessPool:
            lost.append(chunk)
            continue
        collect(chunk[0], until, lines, part)
        if until < chunk[1] and not stop.is_set():  # should not happen: play it again
            queue.append((until, chunk[1]))
    if not lost:
        return False
    for future, chunk in running.items():  # the pool is broken: everything still running is lost too
        try:
            until, lines, part = future.result()
        except BrokenProcessPool:
            lost.append(chunk)
        else:
            collect(chunk[0], until, lines, part)
    running.clear()
    lost.extend(reversed(queue))
    queue.clear()
    return True


def _stop(stop, queue: list, outcome) -> None:
    stop.set()
    queue.clear()
    outcome.interrupted = True
