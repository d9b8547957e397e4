"""What a lab worker does, in whatever process it runs (this one, a pool's, a Dask
worker's): play a chunk of games of a :class:`Job` and sum it up.

A :class:`Job` says what to play: rulesets (arms), players, bots, the seed
base and how many games. Game ``i`` plays seed ``seed + i`` with the bots
turned by ``i`` seats (unless seats are fixed) under every arm, whatever
process plays it, so results do not depend on the number of workers. With
``deal_per_rotation`` a deal is played once from every turn of the line-up
(game ``i`` plays seed ``seed + i // players``): the luck of the deal then
falls alike on every bot, as the arena wants.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field

from .rulesets import load_ruleset
from .tally import Lab

#: fault injection for the tests: "exit:INDEX:MARKER" makes the worker that is about to
#: play game INDEX die at once, the first time only (it creates the file MARKER)
FAULT_ENV = "KITTENS_LAB_FAULT"


@dataclass(frozen=True)
class Job:
    """What a lab run plays: every arm, for ``games`` seeded games."""

    arms: tuple  # Ruleset, ...
    players: int
    bots: tuple
    seed: int = 0
    games: int = 1000
    rotate: bool = True
    teams: tuple = field(default=())  # each arm's team count (0: none), filled by prepare()
    lines: bool = True  # whether workers send each game's record as a JSON line (for --out)
    deal_per_rotation: bool = False  # game i deals seed + i // players (see the module's docstring)

    def identity(self, digests: list) -> dict:
        """What a file's games must have been played with to count toward this job."""
        found = {"arms": [arm.to_dict() for arm in self.arms], "digests": digests,
                 "players": self.players, "bots": list(self.bots), "seed": self.seed,
                 "rotate": self.rotate}
        if self.deal_per_rotation:  # only when set: files written before it existed still resume
            found["deal_per_rotation"] = True
        return found

    def seed_of(self, index: int) -> int:
        """The seed game ``index`` is dealt with."""
        return self.seed + (index // self.players if self.deal_per_rotation else index)

    def new_lab(self) -> Lab:
        return Lab(len(self.arms), self.players, list(self.teams) or [0] * len(self.arms))


_CACHE: dict = {}  # (arms, players) -> compiled games, one per arm, kept by each worker
_STOP = None  # the StopFlag the main process sets on Ctrl-C


class StopFlag:
    """A yes/no the main process sets and workers read, shared without a lock.

    A ``multiprocessing.Event`` takes a lock to be read. When a worker dies, the pool
    terminates the others, and one killed while reading the event leaves its lock held
    for good: the next pool's workers and the main process then wait on it forever
    (CI hung so). A byte of shared memory has no lock to lose, and one writer suffices."""

    def __init__(self, context) -> None:
        self._byte = context.RawValue("b", 0)

    def set(self) -> None:
        self._byte.value = 1

    def is_set(self) -> bool:
        return self._byte.value != 0


def _games_for(job: Job) -> list:
    from ..interpreter.engine.game import Game

    key = (job.arms, job.players)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = [Game(load_ruleset(arm), job.players) for arm in job.arms]
    return found


def play_chunk(job: Job, start: int, stop: int):
    """Play games ``start`` to ``stop - 1`` under every arm: (games done up to, JSON lines
    as bytes (empty unless ``job.lines``), their Lab). Stops early, after a whole game,
    when the run is being stopped."""
    import orjson

    from .play import play_record, seats_for

    games = _games_for(job)
    fault = os.environ.get(FAULT_ENV)
    lab = job.new_lab()
    lines = []
    keep = job.lines
    index = start
    while index < stop:
        if _STOP is not None and _STOP.is_set():
            break
        if fault:
            _maybe_fail(fault, index)
        seats = seats_for(list(job.bots), job.players, index, job.rotate)
        seed = job.seed_of(index)
        record = {"i": index, "r": [play_record(game, seed, seats) for game in games]}
        lab.add(record)
        if keep:  # without an --out file nobody reads them: no time spent writing them
            lines.append(orjson.dumps(record))
        index += 1
    return index, b"".join(line + b"\n" for line in lines), lab


def _maybe_fail(fault: str, index: int) -> None:
    kind, _, rest = fault.partition(":")
    at, _, marker = rest.partition(":")
    if kind == "exit" and str(index) == at and marker and not os.path.exists(marker):
        with open(marker, "w", encoding="utf-8"):
            pass
        os._exit(17)


def _worker_init(stop_flag: StopFlag, parent: int | None = None) -> None:
    """In each worker: Ctrl-C is the main process's business (it tells workers through
    ``stop_flag``), so the terminal's SIGINT does not kill them mid-game; and a worker
    goes when ``parent``, the main process, does (see :func:`_die_with_parent`)."""
    global _STOP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STOP = stop_flag
    if parent is not None:
        _die_with_parent(parent)


#: prctl's option asking the kernel for a signal when the parent dies (linux/prctl.h)
_PR_SET_PDEATHSIG = 1
#: how often a worker looks whether its parent is still there, where the kernel cannot say
PARENT_POLL_SECONDS = 0.5


def _die_with_parent(parent: int) -> None:
    """End this worker when the main process ends without saying so (kill -9, a crash).

    A pool's worker holds both ends of its queues' pipes, so it never reads an end of
    file: left alone it plays on, then blocks for ever on a full pipe, keeping the
    resource tracker alive with it. On Linux the kernel kills it when its parent dies
    (PR_SET_PDEATHSIG; the pool's workers are started from the thread that runs the
    pool, which outlives them); everywhere a thread also looks every half second
    whether the parent is still the same process."""
    import sys
    import threading

    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl here: the thread below still watches
            pass
    if os.getppid() != parent:  # it died before we asked
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="kittens-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)
