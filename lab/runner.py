"""Running a lab job: games spread over processes, summed as they arrive, streamed to a file.

A :class:`Job` says what to play: rulesets (arms), players, bots, the seed
base and how many games. Game ``i`` plays seed ``seed + i`` with the bots
turned by ``i`` seats (unless seats are fixed) under every arm, whatever
process plays it, so results do not depend on the number of workers (a job
may instead deal once per turn of the line-up: ``Job.deal_per_rotation``).

Work goes out in chunks of consecutive games. A worker plays a chunk, sums
it into a partial :class:`~.tally.Lab` and sends that back with the chunk's
records as JSON lines; the main process writes the lines to the ``--out``
file and merges the sums, so memory holds no record per game (only one bit
per game, saying which are done). A chunk is counted once, when it comes
back whole: a worker that dies loses only its chunk in progress, which is
given to a new worker. On Ctrl-C the workers finish the game they are
playing and send what they have, so every finished game reaches the file;
``--resume`` reads the file back and plays only the games it lacks.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass

from ..about import __version__
from ..interpreter.engine.simulate import _Interrupts
from .rulesets import Ruleset, load_ruleset
from .tally import Lab
from .work import FAULT_ENV, Job, play_chunk  # noqa: F401 (the run's parts, named from here too)

FORMAT = "kittens-lab/1"


class ResumeError(Exception):
    """An --out file that cannot be continued (another job's, or not a lab file)."""


# -- the run ----------------------------------------------------------------------------
@dataclass
class Outcome:
    lab: Lab
    games: int  # games counted (resumed ones included)
    resumed: int = 0  # games read back from the --out file
    seconds: float = 0.0  # time spent playing in this run
    played: int = 0  # games played in this run
    interrupted: bool = False
    reruns: int = 0  # chunks given to a new worker after one died
    workers: int = 1
    scheduler: str | None = None


def prepare(job: Job) -> tuple[Job, list]:
    """Load every arm once here (so bad rules fail before any worker starts); the job
    with each arm's team count, and each arm's digest."""
    teams, digests = [], []
    for arm in job.arms:
        edition = load_ruleset(arm)
        teams.append(getattr(edition, "teams", 0) or 0)
        digests.append(ruleset_digest(edition, arm))
    from dataclasses import replace
    return replace(job, teams=tuple(teams)), digests


def ruleset_digest(edition, arm: Ruleset) -> str:
    """A fingerprint of the rule files an arm plays (their contents) and its changes."""
    paths = {edition.origin.path, *edition.sources} | {c.origin.path for c in edition.cards.values()} | \
        {c.origin.path for c in edition.combos}
    parts = []
    for path in sorted(p for p in paths if p):
        try:
            with open(path, "rb") as handle:
                parts.append(hashlib.sha256(handle.read()).hexdigest())
        except OSError:  # the lab's own generated house rule: its changes are hashed below
            continue
    parts.sort()
    parts.append(json.dumps([arm.variant, list(arm.changes)], default=str))
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]


def chunk_size(games: int, workers: int, arms: int) -> int:
    """Games per chunk: small enough to share the work out evenly and lose little to a
    crash, large enough that sending results costs nothing next to playing them."""
    return max(1, min(games // (workers * 16) or 1, max(1, 200 // arms)))


def run_job(job: Job, digests: list, *, workers: int = 1, out: str | None = None,
            resume: bool = False, on_progress=None, scheduler: str | None = None,
            in_process: bool | None = None, on_lines=None) -> Outcome:
    """Play ``job`` and sum it up. ``on_progress(done, total)`` is called as chunks come
    back. ``out`` streams every game's record; with ``resume`` the games already in it
    are counted and not played again. One worker plays in this process unless
    ``in_process`` is False (a pool of one, as the benchmark compares).
    ``on_lines(lines)`` is handed the records of the games as they are counted, read
    back or played (bytes, one JSON line a game, in whatever order chunks come back),
    for a caller that needs more of each game than the sums (the arena's ranks)."""
    from dataclasses import replace

    job = replace(job, lines=out is not None or on_lines is not None)
    lab = job.new_lab()
    done = bytearray(job.games)  # one byte per game: memory far below a record each
    resumed = 0
    stream = None
    if out is not None:
        stream, resumed = open_out(out, job, digests, lab, done, resume, on_lines)
    todo = [(start, stop) for start, stop in _pending(done, chunk_size(job.games, workers, len(job.arms)))]
    outcome = Outcome(lab, resumed, resumed=resumed, workers=workers, scheduler=scheduler)
    if on_progress is not None:
        on_progress(resumed, job.games)

    def collect(start: int, until: int, lines: bytes, part: Lab) -> None:
        if any(done[start:until]):  # never counted twice, whatever happened on the way
            raise RuntimeError(f"games {start}-{until - 1} came back twice")
        if stream is not None and lines:
            _write_all(stream, lines)
        if on_lines is not None and lines:
            on_lines(lines)
        done[start:until] = b"\x01" * (until - start)
        lab.merge(part)
        outcome.games += until - start
        outcome.played += until - start
        if on_progress is not None:
            on_progress(outcome.games, job.games)

    started = time.perf_counter()
    try:
        if scheduler is not None:
            from .cluster import run_on_cluster
            run_on_cluster(job, todo, scheduler, collect, outcome)
        elif in_process if in_process is not None else workers <= 1:
            _run_here(job, todo, collect, outcome)
        else:
            from .pool import run_on_pool
            run_on_pool(job, todo, workers, collect, outcome)
    finally:
        outcome.seconds = time.perf_counter() - started
        if stream is not None:
            os.close(stream)
    return outcome


#: in one process, the time a piece of a chunk should take: slow games (a search player)
#: are counted a game or two at a time, so progress and Ctrl-C come soon; fast ones in
#: pieces as large as the chunk, so counting them costs nothing
PIECE_SECONDS = (0.25, 1.0)


def _run_here(job: Job, todo: list, collect, outcome: Outcome) -> None:
    """One process: the chunks in order, each in pieces sized to take about a second,
    Ctrl-C after a whole piece is counted (one that lands while a piece is counted
    waits until it is: in the --out file and the report alike, or in neither)."""
    size = 1
    with _Interrupts() as interrupts:
        try:
            for start, stop in todo:
                at = start
                while at < stop:
                    began = time.perf_counter()
                    until, lines, part = play_chunk(job, at, min(stop, at + size))
                    with interrupts.deferred():
                        collect(at, until, lines, part)
                    took = time.perf_counter() - began
                    if took < PIECE_SECONDS[0]:
                        size *= 2
                    elif took > PIECE_SECONDS[1]:
                        size = max(1, size // 2)
                    if until <= at:  # stopped before a game (never in this process)
                        return
                    at = until
        except KeyboardInterrupt:
            outcome.interrupted = True


def _pending(done: bytearray, size: int):
    """Chunks (start, stop) of consecutive games not yet done."""
    index, total = 0, len(done)
    while index < total:
        if done[index]:
            index += 1
            continue
        start = index
        while index < total and not done[index] and index - start < size:
            index += 1
        yield start, index


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


# -- the --out file ---------------------------------------------------------------------
def open_out(path: str, job: Job, digests: list, lab: Lab, done: bytearray, resume: bool,
             on_lines=None):
    """Open the --out file for appending records (a file descriptor), after reading the
    games it holds into ``lab`` and ``done`` when resuming; (fd, games read). The file is
    locked first, so two runs never write to it at once."""
    import orjson

    header = {"type": FORMAT, "kittens": __version__, **job.identity(digests)}
    if os.path.isdir(path):
        raise OSError(21, "it is a folder; name a file", path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    _lock(fd, path)
    if not (resume and os.path.getsize(path)):
        os.ftruncate(fd, 0)
        _write_all(fd, orjson.dumps(header) + b"\n")
        return fd, 0
    try:
        keep, read = _read_back(path, header, job, lab, done, on_lines)
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, keep)  # a line cut short by a crash is dropped
    os.lseek(fd, keep, os.SEEK_SET)
    return fd, read


def _read_back(path: str, header: dict, job: Job, lab: Lab, done: bytearray, on_lines=None):
    """Count the games of an --out file into ``lab``: (bytes of whole lines, games read)."""
    import orjson

    read = 0
    with open(path, "rb") as handle:
        first = handle.readline()
        try:
            found = orjson.loads(first) if first.endswith(b"\n") else None
        except orjson.JSONDecodeError:
            found = None
        if not isinstance(found, dict) or found.get("type") != FORMAT:
            raise ResumeError(f"{path} is not a results file of kittens' lab")
        mismatch = [key for key in ("arms", "digests", "players", "bots", "seed", "rotate",
                                    "deal_per_rotation")
                    if found.get(key) != header.get(key)]
        if mismatch:
            raise ResumeError(f"{path} holds games of another run (its {', '.join(mismatch)} "
                              "differ): give the same rules, players, bots and seed, or another file")
        keep = len(first)
        for line in handle:
            if not line.endswith(b"\n"):
                break
            try:
                record = orjson.loads(line)
                index = record["i"]
            except (orjson.JSONDecodeError, KeyError, TypeError):
                break
            keep += len(line)
            if 0 <= index < job.games and not done[index]:
                done[index] = 1
                lab.add(record)
                read += 1
                if on_lines is not None:
                    on_lines(line)
    return keep, read


def _lock(fd: int, path: str) -> None:
    """Hold the file for this run alone: two runs appending to one file would mix their games."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ResumeError(f"another run is writing to {path}; wait for it or name another file") from None
