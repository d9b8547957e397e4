"""The lab's games on a Dask distributed cluster (``--scheduler tcp://HOST:PORT``).

Dask was chosen over Ray because it is plain Python packages from PyPI (no
daemon of its own to install), starts a cluster with two commands
(``dask scheduler``, ``dask worker tcp://HOST:8786``), and reschedules the
tasks of a worker that dies on the others by itself, which is the property
the lab needs: each chunk's result arrives once, from whichever worker
finished it. Every worker needs kittens installed (``pip install
'kittens[cluster]'``) and the rule files at the same paths (shipped editions
by name need nothing more).
"""

from __future__ import annotations

from .work import play_chunk


def _client(scheduler: str):
    try:
        from dask.distributed import Client
    except ImportError as exc:  # pragma: no cover - the extra is not installed
        raise RuntimeError("--scheduler needs Dask: pip install 'kittens[cluster]'") from exc
    return Client(scheduler, timeout="20s")


def run_on_cluster(job, todo: list, scheduler: str, collect, outcome) -> None:
    """Submit every chunk, and count each as it comes back. Ctrl-C cancels the chunks
    still out: the finished ones are already counted (and in the --out file)."""
    from dask.distributed import as_completed

    client = _client(scheduler) if isinstance(scheduler, str) else scheduler
    try:
        outcome.workers = len(client.scheduler_info().get("workers", {})) or outcome.workers
        futures = [client.submit(play_chunk, job, start, stop, pure=False, retries=2)
                   for start, stop in todo]
        starts = {future.key: start for future, (start, _stop) in zip(futures, todo)}
        try:
            for future in as_completed(futures):
                until, lines, part = future.result()
                collect(starts[future.key], until, lines, part)
        except KeyboardInterrupt:
            outcome.interrupted = True
            client.cancel(futures)
    finally:
        if isinstance(scheduler, str):
            client.close()
