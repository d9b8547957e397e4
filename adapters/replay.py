"""Replaying a game log and checking that it comes out the same.

A log is JSON lines: a ``game`` header (rule files, variant, digest, players,
seed, bots), then every event of that game, the last one ``game_over``;
several games may follow each other. Replaying feeds the logged decisions (and
chance outcomes, when the game was played with explicit chance) to a fresh
game with the same seed and compares every event it produces with the logged
one, as the lines are read: a log is never held whole, and no line is read
beyond :data:`MAX_LINE` bytes.

Each game gets a verdict: verified, a mismatch (with the first event that
differs and its line), or *incomplete*, when the log stops before the game's
end (a run that was killed, a file cut short). Only a verified game counts as
replayed.

The header names its rule files twice: as given on the command line (a shipped
edition's name, a path, an expansion's name) and as the absolute path they were
found at (``edition_path``, ``with_paths``), so a log replays from any folder;
the digest of the rule files says when they changed since. A header is
untrusted: its names are looked up only as shipped or installed names or as
regular ``.yaml``/``.yml`` files, never opened as arbitrary paths.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass

from ..interpreter.engine.game import Game, GameError
from ..interpreter.engine.simulate import edition_digest, header_check, replay_event
from ..interpreter.rules import plugins
from ..interpreter.rules.load import load_edition


class LogError(Exception):
    """A file that is not a log kittens can replay; the message says where and why."""


@dataclass
class Replayed:
    """The verdict on one logged game."""

    header: dict
    events: int  # events that matched
    winner: int | None
    mismatch: str | None = None  # the first difference, if any
    reason: str | None = None  # why the game ended ("turn_limit": a limit stopped it), once replayed
    incomplete: str | None = None  # why the log stops before the game's end, if it does
    game: int = 1  # its number in the log
    line: int = 1  # the line of its header

    @property
    def verified(self) -> bool:
        return self.mismatch is None and self.incomplete is None


#: a log line longer than this (in bytes, with its line end) is not one kittens wrote
MAX_LINE = 1 << 20
#: more events than this in one game: not a game kittens played
MAX_EVENTS = 1_000_000
#: JSON nested deeper than this is not an event
MAX_DEPTH = 32
#: compiled editions kept while replaying one log
EDITIONS_KEPT = 8

_CUT = object()  # a last line without its line end: the file was cut there
_SKIMMED = {"type": ""}  # a line of a game that already has its verdict, not parsed


def header_fields(edition: str, expansions=()) -> dict:
    """What a game header records of its rule files: each as given (``edition``,
    ``with``) and where it was found, as an absolute path (``edition_path``,
    ``with_paths``). Call it once the files have loaded, as the command that
    plays found them."""
    found = edition if os.path.isfile(edition) else plugins.shipped(edition) or edition
    fields = {"edition": edition, "edition_path": os.path.abspath(found)}
    if expansions:
        fields["with"] = list(expansions)
        fields["with_paths"] = [os.path.abspath(plugins.locate(name) or name)
                                for name in expansions]
    return fields


def replay_log(path: str, *, rules: str | None = None, expansions=None,
               editions: dict | None = None):
    """Replay every game of the log at ``path``; yield a :class:`Replayed` per game as it is
    checked. ``rules`` (an edition file or a shipped edition's name) and ``expansions``
    (references as ``--with`` takes them) stand in for the rule files the headers name.
    ``editions``, a dict, keeps compiled editions across calls (for many logs played
    with the same rule files; the digest is taken afresh in each call).
    Raise :class:`LogError` for a file that is not a log, or a game that cannot be set up.
    """
    lines = _Lines(path)
    setup = _Setup(path, rules, expansions, {} if editions is None else editions)
    number = 0
    order = _Order()
    try:
        while (item := lines.peek()) is not None:
            line, record = item
            lines.take()
            number += 1
            if record is _CUT:  # the next game's header, cut short
                yield Replayed({}, 0, None, game=number, line=line, incomplete=(
                    f"{path}:{line}: the log ends in the middle of line {line}, a game's header"))
                return
            if record["type"] != "game":
                raise LogError(f"{path}:{line}:1: the log must start with a 'game' header line")
            changed = order.changed(record)
            if changed is not None:
                lines.skip_game(number)
                yield Replayed(record, 0, None, changed, game=number, line=line)
                continue
            yield _replay_game(record, line, number, lines, setup)
    finally:
        lines.close()
    if number == 0:
        raise LogError(f"{path}: the log holds no game")


class _Order:
    """Whether each game is in its place: numbered one after the other in its run (a run
    starts again at 1, so logs may be joined)."""

    def __init__(self) -> None:
        self.last = None  # the number of the game before, when it had one

    def changed(self, header: dict) -> str | None:
        """Why this game is not where it was written; None when it is."""
        number, last = header.get("number"), self.last
        self.last = number if isinstance(number, int) and not isinstance(number, bool) else None
        if number is None or number == 1:
            return None
        if self.last is None or number < 1:
            return "bad game header: 'number' must be a whole number from 1 up"
        if last != number - 1:
            before = "the log's start" if last is None else f"game {last}"
            return (f"this is game {number} of its run, but it follows {before}: games were left "
                    "out, repeated or moved in this log")
        return None


def _replay_game(header: dict, line: int, number: int, lines: "_Lines",
                 setup: "_Setup") -> Replayed:
    result = Replayed(header, 0, None, game=number, line=line)
    state = _new_state(header, line, lines.path, setup, result)
    if state is None:
        lines.skip_game(number)
        return result
    last = line
    while (item := lines.next_event(number)) is not None:
        if item[1] is _CUT:
            if result.mismatch is None and _finished(state, result.events):
                break  # this game is whole: the cut line starts the next one
            lines.take()
            last = item[0]
            result.incomplete = (f"{lines.path}:{last}: the log ends in the middle of line {last}, "
                                 "before the game's end; the file was cut short")
            break
        last, record = item
        if result.mismatch is None:
            result.mismatch = replay_event(state, record, result.events, last)
            if result.mismatch is None:
                result.events += 1
            else:
                lines.skim = True  # the verdict is in: the game's other lines are only counted
    result.winner, result.reason = state.winner, state.table.end_reason
    if result.verified and not _finished(state, result.events):
        result.incomplete = (f"{lines.path}:{last}: the log stops after line {last}, before the "
                             "game's end (no game_over event): the run that wrote it was stopped, "
                             "or the file was cut short")
    return result


def _new_state(header: dict, line: int, path: str, setup: "_Setup", result: Replayed):
    """The game a header describes, set up from its seed; None (with ``result.mismatch``
    saying why) when it cannot be replayed with these rule files."""
    edition, used, digest = setup.edition(header, line)
    check = header.get("check")
    if check is not None and check != header_check(header):
        result.mismatch = ("the game's header was changed after it was logged (it records what was "
                           "played: rule files, players, seed, bots, its number in the run), so the "
                           "game is not replayed: use the log as it was written")
        return None
    if header.get("digest") not in (None, digest):
        result.mismatch = (f"the rule files have changed since this game was played (digest "
                           f"{_shown(str(header.get('digest')))}, now {digest} with "
                           f"{', '.join(used)}); give the files it was played with with --rules "
                           "and --with")
        return None
    players, seed = header.get("players"), header.get("seed", 0)
    for name, value in (("players", players), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise LogError(f"{path}:{line}:1: bad game header: '{name}' must be a whole number")
    if not 0 < players < 1000:
        raise LogError(f"{path}:{line}:1: bad game header: no game has {str(players)[:20]} players")
    try:
        game = Game(edition, players)
    except GameError as exc:
        raise LogError(f"{path}:{line}:1: bad game header: {exc}") from None
    try:
        return game.new_state(seed, explicit_chance=header.get("explicit_chance") is True)
    except GameError as exc:
        result.mismatch = f"the rules broke down in setup: {exc}"
        return None


def _finished(state, matched: int) -> bool:
    """Whether the replay has ended and every event it produced was logged."""
    return state.is_terminal() and matched == len(state.events)


class _Setup:
    """The compiled edition for each game header, from the files it names (or the
    files the user gave instead), kept for the next games."""

    def __init__(self, log_path: str, rules: str | None, expansions, kept: dict) -> None:
        self.path = log_path
        self.folder = os.path.dirname(os.path.abspath(log_path))
        self.rules = rules
        self.expansions = None if expansions is None else list(expansions)
        self.kept = kept
        self.digests: dict = {}

    def edition(self, header: dict, line: int):
        """(compiled edition, the files it was compiled from, their digest now) for a game
        header."""
        where = f"{self.path}:{line}:1"
        variant = header.get("variant")
        if variant is not None and (not isinstance(variant, str) or not variant.isprintable()
                                    or len(variant) > 200):
            raise LogError(f"{where}: bad game header: 'variant' must be a name")
        edition = self._edition_file(header, where)
        extras = self._expansion_files(header, where)
        key = (os.path.realpath(edition), variant, *map(os.path.realpath, extras))
        if key not in self.kept:
            if len(self.kept) >= EDITIONS_KEPT:
                self.kept.pop(next(iter(self.kept)))
            self.kept[key] = load_edition(edition, variant, tuple(extras))
        if key not in self.digests:  # once per replay: the files are read to compute it
            self.digests[key] = edition_digest(self.kept[key])
        return self.kept[key], [edition, *extras], self.digests[key]

    def _confine(self, path: str, where: str, option: str) -> None:
        """Refuse a file a header names outside the rule folders: the log's project, the
        project the command runs in, the kittens package and installed expansions (the
        jail references have, see workspace.py); the user may name it with ``option``."""
        from ..interpreter.rules.workspace import ALLOW_OUTSIDE_ENV, allow_outside_default

        roots = [plugins.project_root(self.path), *plugins.trusted_folders()]
        if allow_outside_default() or plugins.confined(path, roots):
            return
        raise LogError(f"{where}: the game header names {_shown(path)}, outside the rule folders "
                       "(the log's project, this project, the kittens package and installed "
                       "expansions), and kittens reads no file there: if you trust it, give it "
                       f"with {option} (or set {ALLOW_OUTSIDE_ENV}=1)")

    def _edition_file(self, header: dict, where: str) -> str:
        if self.rules is not None:
            found = _rule_file(self.rules) or plugins.shipped(self.rules)
            if found is None:
                raise LogError(f"--rules {self.rules}: not found: give a .yaml rule file or the "
                               "name of a shipped edition")
            return found
        given, recorded = header.get("edition"), header.get("edition_path")
        if not isinstance(given, str) or not given:
            raise LogError(f"{where}: the game header names no edition")
        found = _recorded(recorded) or _rule_file(given) or _shipped(given) or \
            _rule_file(os.path.join(self.folder, given))
        if found is not None:
            self._confine(found, where, "--rules FILE")
        if found is None:
            moved = isinstance(recorded, str) and recorded != given
            was = f" (it was at {_shown(recorded)})" if moved else ""
            raise LogError(f"{where}: the edition {_shown(given)}{was} was not found: no shipped "
                           "edition of that name and no regular .yaml/.yml file there; if its rule "
                           "file has moved, give it with --rules FILE")
        return found

    def _expansion_files(self, header: dict, where: str) -> list[str]:
        if self.expansions is not None:
            found = []
            for name in self.expansions:
                located = _safe_locate(name, ".")
                if located is None:
                    raise LogError(f"--with {name}: {plugins.not_found(name)}")
                found.append(located)
            return found
        names, recorded = header.get("with", []), header.get("with_paths")
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise LogError(f"{where}: bad game header: 'with' must be a list of expansions")
        if not isinstance(recorded, list) or len(recorded) != len(names):
            recorded = [None] * len(names)
        found = []
        for name, path in zip(names, recorded):
            located = _recorded(path) or _safe_locate(name, ".") or _safe_locate(name, self.folder)
            if located is None:
                moved = isinstance(path, str) and path != name
                was = f" (it was at {_shown(path)})" if moved else ""
                raise LogError(f"{where}: the expansion {_shown(name)}{was} was not found: no "
                               "shipped or installed expansion of that name and no regular "
                               ".yaml/.yml file there; if it has moved, give the expansions "
                               "with --with")
            self._confine(located, where, "--with")
            found.append(located)
        return found


def _shown(text: str) -> str:
    """A name from a log, fit to print: quoted, control characters escaped, shortened."""
    text = text if len(text) <= 200 else text[:200] + "..."
    return repr(text)


def _rule_file(path) -> str | None:
    """``path`` if it names a regular .yaml/.yml file (after any symbolic links too)."""
    if not isinstance(path, str) or not path.endswith(plugins.RULE_FILE):
        return None
    try:
        real = os.path.realpath(path)
        return path if real.endswith(plugins.RULE_FILE) and stat.S_ISREG(os.stat(real).st_mode) \
            else None
    except (OSError, ValueError):
        return None


def _recorded(path) -> str | None:
    """An absolute path a header recorded, if it still names a rule file."""
    return _rule_file(path) if isinstance(path, str) and os.path.isabs(path) else None


def _shipped(name: str) -> str | None:
    try:
        return plugins.shipped(name)
    except (OSError, ValueError):
        return None


def _safe_locate(name: str, folder: str) -> str | None:
    """An expansion as `--with` finds it, if what it finds is a regular rule file."""
    try:
        return _rule_file(plugins.locate(name, folder))
    except (OSError, ValueError):
        return None


class _Lines:
    """The records of a log, read one bounded line at a time, with one line of look-ahead."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.number = 0
        self._ahead = None
        self._handle = _open(path)

    def close(self) -> None:
        self._handle.close()

    def peek(self):
        """(line number, record) of the next record (``_CUT`` for a line cut short); None at
        the end."""
        if self._ahead is None:
            self._ahead = self._read()
        return self._ahead or None

    def take(self) -> None:
        self._ahead = None

    def next_event(self, game: int):
        """The next record of the current game: None at the next header or the end. A line
        cut short is left in place (``take`` it): it may be the start of the next game."""
        item = self.peek()
        if item is None or item[1] is _CUT:
            return item
        if item[1]["type"] == "game":
            return None
        self.take()
        if item[0] - self._game_line > MAX_EVENTS:
            raise LogError(f"{self.path}:{item[0]}:1: game {game} has more than {MAX_EVENTS} "
                           "events; kittens plays no game that long")
        return item

    def skip_game(self, game: int) -> None:
        self.skim = True
        while (item := self.next_event(game)) is not None:
            if item[1] is _CUT:
                self.take()
                return

    def _read(self):
        while True:
            try:
                raw = self._handle.readline(MAX_LINE + 1)
            except OSError as exc:
                raise LogError(f"{self.path}: cannot read the log: {exc.strerror or exc}") from None
            if not raw:
                return False
            self.number += 1
            if len(raw) > MAX_LINE:
                raise LogError(f"{self.path}:{self.number}:1: line {self.number} is longer than "
                               f"{MAX_LINE} bytes, so it is not an event; is this a kittens log?")
            if not raw.strip():
                continue
            # a last line cut short; as the first line, only if it starts as a log does
            if not raw.endswith(b"\n") and (self.number > 1 or b'{"'.startswith(raw[:2])):
                return self.number, _CUT
            if self.skim and b'"game"' not in raw:  # cannot be a header: no need to parse it
                return self.number, _SKIMMED
            record = _record(self.path, self.number, raw)
            if record["type"] == "game":
                self._game_line = self.number
                self.skim = False
            return self.number, record

    _game_line = 0
    #: set once the current game has its verdict: its other lines are only counted
    skim = False


def _open(path: str):
    """The log opened for reading, refused unless it is a regular file (without waiting
    on a FIFO or a device to open)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        reason = "it is a folder" if os.path.isdir(path) else getattr(exc, "strerror", None) or exc
        raise LogError(f"{path}: cannot read the log: {reason}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "it is a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise LogError(f"{path}: {what}; a log is a file written by kittens run --log")
    return os.fdopen(fd, "rb")


def _record(path: str, number: int, raw: bytes) -> dict:
    where = f"{path}:{number}"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"{where}:{exc.start + 1}: not UTF-8 text ({exc.reason}); "
                       "is this a kittens log?") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{where}:{exc.colno}: not valid JSON ({exc.msg}); "
                       "a log has one JSON object per line") from None
    except RecursionError:
        raise LogError(f"{where}:1: JSON nested too deeply to be an event") from None
    except ValueError as exc:  # e.g. a number of more digits than Python converts
        raise LogError(f"{where}:1: not a kittens event: {exc}") from None
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise LogError(f"{where}:1: each line must be a JSON object with a 'type'")
    if _depth(record) > MAX_DEPTH:
        raise LogError(f"{where}:1: JSON nested too deeply to be an event")
    return record


def _depth(value) -> int:
    """How deeply lists and objects nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return depth
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))
    return deepest
