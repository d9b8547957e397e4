"""Playing whole games with players, and many games for statistics.

``play_game`` drives one State to its end, asking each seat's player; a
decision with a single legal option is taken without asking (it reveals
nothing: the player would have had no choice). ``run_games`` plays a series
of seeded games and sums them up; game ``i`` uses seed ``seed + i``, so any
one of them can be replayed alone.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import signal
import stat
import threading
import time
from dataclasses import dataclass, field

from ...about import __version__
from ..lang.machine import below
from .bots import RandomBot
from .game import Game, GameError, RuleRuntimeError, State
from .logwriter import dumps, encode, write_lines
from .players import make_bots
from .views import decision_for, view_maker


@dataclass
class Summary:
    games: int = 0
    wins: dict = field(default_factory=dict)  # seat -> wins
    no_winner: int = 0
    ends: dict = field(default_factory=dict)  # why games ended (table.end_reason) -> games
    turns: int = 0
    decisions: int = 0
    seconds: float = 0.0
    results: list = field(default_factory=list)  # (seed, winner, turns) per game, when kept
    interrupted: bool = False  # stopped by Ctrl-C; the figures are those of the finished games

    def add(self, seed: int, state: State, keep: bool) -> None:
        """Count one finished game."""
        self.games += 1
        self.turns += state.table.turn
        self.decisions += state.decisions
        reason = state.table.end_reason
        self.ends[reason] = self.ends.get(reason, 0) + 1
        if state.winner is None:
            self.no_winner += 1
        else:  # in a team game every member of the winning team wins
            for seat in state.winners:
                self.wins[seat] = self.wins.get(seat, 0) + 1
        if keep:
            self.results.append((seed, state.winner, state.table.turn))

    def wins_by_bot(self, bots: list[str]) -> dict:
        """Wins summed over the seats each kind of bot played."""
        totals = {name: 0 for name in bots}
        for seat, wins in self.wins.items():
            totals[bots[seat]] += wins
        return totals

    def to_dict(self, players: int, bots: list[str], seed: int) -> dict:
        return {
            "games": self.games,
            "wins": {str(seat): self.wins.get(seat, 0) for seat in range(players)},
            "wins_by_bot": self.wins_by_bot(bots),
            "no_winner": self.no_winner,
            "ends": dict(sorted(self.ends.items())),
            "players": players,
            "bots": bots,
            "seed": seed,
            "mean_turns": round(self.turns / self.games, 2) if self.games else 0,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            **({"interrupted": True} if self.interrupted else {}),
        }


def play_game(game: Game, seed: int, players: list, *, record: bool = True) -> State:
    """Play one game to its end; ``players[seat]`` answers that seat's decisions."""
    for seat, player in enumerate(players):
        start = getattr(player, "start", None)
        if start is not None:
            start(game, seat)
    state = game.new_state(seed, record=record)
    shows = [view_maker(player) for player in players]  # what each seat's player is handed
    apply = state.apply_action
    take = state._take  # an option by its place: apply_action without looking the option up
    while True:
        decision = state.decision()
        if decision is None:
            return state
        count = len(decision.options)
        if count == 1:
            take(0)
            continue
        seat = decision.seat
        player = players[seat]
        if type(player) is RandomBot:  # the engine's own random bot (not a subclass): its pick,
            # made here as its choose makes it, without the copy of the decision it never reads
            take(below(player.rng, count))
        else:
            apply(player.choose(shows[seat](state, seat), decision_for(decision)))


def run_games(game: Game, *, games: int, seed: int, bots: list[str], log=None,
              header: dict | None = None, keep_results: bool = True, on_game=None) -> Summary:
    """Play ``games`` bot games and sum them up.

    ``log`` (anything with ``write``) gets each game whole, header and events in
    one ``write`` (or one ``write_bytes``, if it has that: :class:`LogFile` does), as
    soon as the game ends, then ``flush`` if it has one: a run
    that is killed loses only the game in progress. ``on_game(seed, state)`` is
    called after each game; ``keep_results=False`` keeps no record per game in
    ``Summary.results``, so a long series runs in flat memory.

    Ctrl-C (KeyboardInterrupt) stops the series: the game in progress is dropped,
    a game being counted and written is finished first, and the summary of the
    finished games comes back with ``interrupted`` set.
    """
    summary = Summary()
    # a log that takes bytes (LogFile) is handed the game as it was encoded: ASCII
    # throughout, so decoding it here and encoding it again in the file would change nothing
    write_bytes = getattr(log, "write_bytes", None)
    names = [bots[seat % len(bots)] for seat in range(game.players)]
    head_text = _HeaderText(game, names, header or {})
    pieces = data = None
    started = time.perf_counter()
    with _Interrupts() as interrupts:
        try:
            for index in range(games):
                game_seed = seed + index
                players = make_bots(bots, game.players, game_seed)
                try:
                    state = play_game(game, game_seed, players, record=log is not None)
                except RuleRuntimeError as exc:
                    exc.seed = game_seed  # so the error can say which game broke
                    raise
                with interrupts.deferred():  # a game is counted and written whole, or not at all
                    if log is not None:
                        pieces = [head_text(game_seed, index + 1), "\n"]
                        write_lines(state.table.log.rows, pieces)  # each line ended: the game's last too
                        data = "".join(pieces)  # ASCII: json.dumps escapes the rest
                        if write_bytes is not None:
                            write_bytes(data.encode())
                        else:
                            log.write(data)
                        flush = getattr(log, "flush", None)
                        if flush is not None:
                            flush()
                    summary.add(game_seed, state, keep_results)
                    if on_game is not None:
                        on_game(game_seed, state)
                # let go of the game and its text before the next one is played, not after
                state = pieces = data = None
        except KeyboardInterrupt:
            summary.interrupted = True
    summary.seconds = time.perf_counter() - started
    return summary


class _Interrupts:
    """Ctrl-C held back while a game is counted and written, then raised.

    Only where Python's own SIGINT handler is in place, in the main thread;
    anywhere else this changes nothing.
    """

    def __init__(self) -> None:
        self.holding = False
        self.pending = False
        self.previous = None

    def __enter__(self) -> "_Interrupts":
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handle(self, signum, frame) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def deferred(self):
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            raise KeyboardInterrupt


class LogFile:
    """A log file on disk, written a game at a time (see :func:`run_games`).

    Opening it checks the place at once, so a folder, a missing folder or a
    device is refused before any game is played (OSError). An existing file is
    left as it was until the first game is written; closing a log no game was
    written to removes the file if it was new, so a run that fails before its
    first game ends changes nothing. Each ``write`` goes straight to the file
    (one system call for a whole game), so nothing waits in a buffer.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        existed = os.path.lexists(path)
        if existed and os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "it is a folder; give a file name")
        if existed and os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
            raise OSError(errno.EINVAL, "it is not a regular file")
        flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0)
        self._fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
        if not stat.S_ISREG(os.fstat(self._fd).st_mode):  # it changed since the check
            os.close(self._fd)
            raise OSError(errno.EINVAL, "it is not a regular file")
        self._new = not existed
        self._started = False  # whether the old content is gone
        self.games = 0  # whole writes done: games, for run_games

    def write(self, text: str) -> None:
        self.write_bytes(text.encode("utf-8"))

    def write_bytes(self, data: bytes) -> None:
        """Write text already encoded (UTF-8), at once, as :meth:`write` does."""
        if not self._started:
            os.ftruncate(self._fd, 0)
            self._started = True
        while data:
            data = data[os.write(self._fd, data):]
        self.games += 1

    def close(self) -> None:
        if self._fd is None:
            return
        os.close(self._fd)
        self._fd = None
        if not self._started and self._new:
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def __enter__(self) -> "LogFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _HeaderText:
    """The header line of each game of a run, as ``dumps(game_header(...))`` writes it."""

    def __init__(self, game: Game, names: list, header: dict) -> None:
        self.game, self.names, self.header = game, names, header

    def __call__(self, seed: int, number: int = 1) -> str:
        return dumps(game_header(self.game, seed, self.names, number=number, **self.header))


def game_header(game: Game, seed: int, bots: list[str], number: int = 1, **extra) -> dict:
    """The first line of a logged game: enough to replay it. ``number`` is the game's
    place in its run (1 for the first), and ``check`` a fingerprint of the rest, so a
    replay can say when a header was changed, or games left out or moved."""
    edition = game.edition
    digest = getattr(game, "digest", None)
    if digest is None:  # the rule files are read once per game compiled, not once per game played
        digest = game.digest = edition_digest(edition)
    header = {"type": "game", "kittens": __version__, "edition": extra.pop("edition", None),
              "edition_id": edition.id, "variant": edition.variant, "digest": digest,
              "players": game.players, "seed": seed, "bots": bots, "number": number, **extra}
    header["check"] = header_check(header)
    return header


def header_check(header: dict) -> str:
    """The fingerprint of a game header: every field but ``check`` itself, as a log writes them."""
    return hashlib.sha256(dumps({k: v for k, v in header.items() if k != "check"}).encode()).hexdigest()[:16]


def edition_digest(edition) -> str:
    """A fingerprint of the rule files an edition was compiled from."""
    paths = {edition.origin.path, *edition.sources} | {c.origin.path for c in edition.cards.values()} | \
        {c.origin.path for c in edition.combos}  # every layered file: a house rule's own too
    parts = []
    for path in paths:  # by content, so the same files match however they are reached
        try:
            with open(path, "rb") as handle:
                parts.append(hashlib.sha256(handle.read()).hexdigest())
        except OSError:
            parts.append(path)
    return hashlib.sha256("".join(sorted(parts)).encode()).hexdigest()[:16]


def benchmark(edition, *, players: int = 4, games: int = 2000, seed: int = 0,
              record: bool = False, rounds: int = 3) -> dict:
    """Time random-bot games on this process's one core; the best of ``rounds`` runs.

    Reports games and decisions per second. The engine is single-threaded, so
    this is the speed of one core; ``record`` turns on the event log (what
    ``kittens run --log`` pays for).
    """
    game = Game(edition, players)
    best = None
    for _ in range(rounds):
        decisions = 0
        started = time.perf_counter()
        for index in range(games):
            bots = make_bots(["random"], players, seed + index)
            state = play_game(game, seed + index, bots, record=record)
            decisions += state.decisions
        elapsed = time.perf_counter() - started
        if best is None or elapsed < best[0]:
            best = (elapsed, decisions)
    elapsed, decisions = best
    return {"games": games, "players": players, "record_events": record, "seconds": round(elapsed, 3),
            "games_per_second": round(games / elapsed, 1),
            "decisions_per_second": round(decisions / elapsed),
            "decisions_per_game": round(decisions / games, 1)}


#: the kinds of logged event that answer a decision or a chance (a replay applies them)
_ANSWERS = ("decision", "chance")


def replay_event(state, record: dict, index: int, line: int) -> str | None:
    """Replay one event of a log (``record``, at ``line`` of the file): compare it with
    the replayed game's event at ``index``, answering a logged decision (or chance
    outcome) first when the game waits for one. The mismatch in words, or None."""
    if index == len(state.events) and record["type"] in _ANSWERS and not state.is_terminal():
        answer = record.get("outcome") if record["type"] == "chance" else record.get("option")
        try:
            state.apply_action(answer)
        except RuleRuntimeError as exc:
            return f"line {line}: the rules broke down at this answer: {exc}"
        except (GameError, TypeError, ValueError) as exc:
            return f"line {line}: the logged answer is not legal: {exc}"
    produced = state.events  # read after the answer: what an action adds shows at the next reading
    want = encode(record)
    if index >= len(produced):
        return (f"event {index + 1} (line {line}) is not in the replay, which "
                f"{'had ended' if state.is_terminal() else 'waits for a decision'}:\n"
                f"  logged:   {want}")
    got = dumps(produced[index])
    if want != got:
        return f"event {index + 1} (line {line}) differs:\n  logged:   {want}\n  replayed: {got}"
    return None
