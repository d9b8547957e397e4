"""The lab's games on a Dask distributed cluster (``--scheduler tcp://HOST:PORT``).

Dask was chosen over Ray because it is plain Python packages from PyPI (no
daemon of its own to install), starts a cluster with two commands
(``dask scheduler``, ``dask worker tcp://HOST:8786``), and reschedules the
tasks of a worker that dies on the others by itself, which is the property
the lab needs: each chunk's result arrives once, from whichever worker
finished it. Every worker needs kittens installed (``pip install
'kittens-engine[cluster]'``) and the rule files at the same paths (shipped editions
by name need nothing more).
"""

from __future__ import annotations

from ..interpreter.engine.simulate import _Interrupts
from .work import play_chunk


def _client(scheduler: str):
    try:
        from dask.distributed import Client
    except ImportError as exc:  # pragma: no cover - the extra is not installed
        raise RuntimeError("--scheduler needs Dask: pip install 'kittens-engine[cluster]'") from exc
    return Client(scheduler, timeout="20s")


def run_on_cluster(job, todo: list, scheduler: str, collect, outcome) -> None:
    """Submit every chunk, and count each as it comes back. Ctrl-C cancels the chunks
    still out: the finished ones are already counted (and in the --out file)."""
    from dask.distributed import as_completed

    client = _client(scheduler) if isinstance(scheduler, str) else scheduler
    # Only this dict holds the chunks still out: each is dropped (and its result freed
    # on the worker) as soon as it is counted, so a long run keeps no finished games in
    # the cluster's memory.
    out: dict = {}
    try:
        outcome.workers = len(client.scheduler_info().get("workers", {})) or outcome.workers
        with _Interrupts() as interrupts:
            try:
                for start, stop in todo:
                    out[client.submit(play_chunk, job, start, stop, pure=False, retries=2)] = start
                for future in as_completed(list(out)):
                    until, lines, part = future.result()
                    # a Ctrl-C while a chunk is counted waits until it is whole: in the --out
                    # file and in the report alike, or in neither
                    with interrupts.deferred():
                        collect(out.pop(future), until, lines, part)
                    future.release()
                    del future
            except KeyboardInterrupt:
                outcome.interrupted = True
                client.cancel(list(out))
    finally:
        if isinstance(scheduler, str):
            client.close()
