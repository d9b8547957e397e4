"""Replaying a game log and checking that it comes out the same.

A log is JSON lines: a ``game`` header (edition, variant, players, seed,
bots), then every event of that game; several games may follow each other.
Replaying feeds the logged decisions (and chance outcomes, when the game
was played with explicit chance) to a fresh game with the same seed and
compares every event it produces with the logged one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from .events import dumps, from_json
from .game import Game, GameError
from . import plugins
from .simulate import edition_digest
from .validate import load_edition


class LogError(Exception):
    """A log that cannot be read or replayed; the message says where and why."""


@dataclass
class Replayed:
    header: dict
    events: int
    winner: int | None
    mismatch: str | None = None  # None when the replay matched the log


#: a log line longer than this is not one kittens wrote
MAX_LINE = 1 << 20


def read_log(path: str):
    """(header, events, line number of the header) for each game, read one game at a time."""
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise LogError(f"{path}: cannot read the log: {exc.strerror or exc}") from None
    game = None
    with handle:
        try:
            for number, line in enumerate(handle, 1):
                record = _record(path, number, line)
                if record is None:
                    continue
                if record["type"] == "game":
                    if game is not None:
                        yield game
                    game = (record, [], number)
                elif game is None:
                    raise LogError(f"{path}:{number}:1: the log must start with a 'game' header line")
                else:
                    game[1].append(record)
        except UnicodeDecodeError as exc:
            raise LogError(f"{path}: not UTF-8 text ({exc.reason}); is this a kittens log?") from None
    if game is None:
        raise LogError(f"{path}: the log holds no game")
    yield game


def _record(path: str, number: int, line: str) -> dict | None:
    if len(line) > MAX_LINE:
        raise LogError(f"{path}:{number}:1: a line of {len(line)} characters is not an event; "
                       "is this a kittens log?")
    if not line.strip():
        return None
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}:{number}:{exc.colno}: not valid JSON ({exc.msg}); "
                       "a log has one JSON object per line") from None
    except RecursionError:
        raise LogError(f"{path}:{number}:1: JSON nested too deeply to be an event") from None
    if not isinstance(record, dict) or "type" not in record:
        raise LogError(f"{path}:{number}:1: each line must be a JSON object with a 'type'")
    return record


def replay_log(path: str) -> list[Replayed]:
    results = []
    editions: dict = {}
    for header, events, line in read_log(path):
        results.append(replay_game(header, events, path, line, editions))
    return results


def _edition(header: dict, log_path: str, line: int, cache: dict):
    name = header.get("edition")
    if not isinstance(name, str):
        raise LogError(f"{log_path}:{line}:1: the game header names no edition file")
    candidates = [name, os.path.join(os.path.dirname(log_path), name)]
    found = next((c for c in candidates if os.path.isfile(c)), None)
    if found is None:
        raise LogError(f"{log_path}:{line}:1: the edition file '{name}' was not found "
                       "(run replay from the folder the game was played in)")
    expansions = []
    for extra in header.get("with", []):
        here = next((c for c in (plugins.locate(extra), plugins.locate(extra, os.path.dirname(log_path)))
                     if c is not None), None)
        if here is None:
            raise LogError(f"{log_path}:{line}:1: the expansion file '{extra}' was not found "
                           "(run replay from the folder the game was played in)")
        expansions.append(here)
    key = (os.path.realpath(found), header.get("variant"), *map(os.path.realpath, expansions))
    if key not in cache:
        cache[key] = load_edition(found, header.get("variant"), tuple(expansions))
    return cache[key]


def replay_game(header: dict, logged: list[dict], log_path: str = "<log>", line: int = 1,
                cache: dict | None = None) -> Replayed:
    edition = _edition(header, log_path, line, {} if cache is None else cache)
    digest = edition_digest(edition)
    if header.get("digest") not in (None, digest):
        return Replayed(header, 0, None, "the rule files have changed since this game was "
                                         f"played (digest {header.get('digest')}, now {digest})")
    seed = header.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise LogError(f"{log_path}:{line}:1: bad game header: the seed must be a whole number")
    try:
        game = Game(edition, int(header["players"]))
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise LogError(f"{log_path}:{line}:1: bad game header: {exc}") from None
    answers = [from_json(e) for e in logged if e.get("type") in ("decision", "chance")]
    state = game.new_state(seed, explicit_chance=bool(header.get("explicit_chance")))
    for index, answer in enumerate(answers):
        if state.is_terminal():
            return Replayed(header, len(state.events), state.winner,
                            f"the game ended before logged answer {index + 1} of {len(answers)}")
        try:
            state.apply_action(answer.get("outcome", answer.get("option")))
        except GameError as exc:
            return _compare(header, logged, state, f"logged answer {index + 1} is not legal: {exc}")
    return _compare(header, logged, state, None)


def _compare(header, logged, state, problem) -> Replayed:
    produced = [dumps(e) for e in state.events]
    expected = [json.dumps(e, separators=(",", ":"), sort_keys=True) for e in logged]
    for index, (want, got) in enumerate(zip(expected, produced)):
        if want != got:
            return Replayed(header, index, state.winner,
                            f"event {index + 1} differs:\n  logged:   {want}\n  replayed: {got}")
    if problem is None and len(expected) != len(produced):
        problem = (f"the log has {len(expected)} events but the replay produced {len(produced)}")
    return Replayed(header, len(produced), state.winner, problem)
