"""Players named on the command line: built-in bots with settings, or a class of your own.

A bot spec is one of

* a built-in bot's name: ``random``, ``heuristic``, ``ismcts``;
* a name with settings, each ``:key=value``: ``ismcts:iterations=800``,
  ``ismcts:seconds=0.5:rollout=random``;
* a class in an importable module, ``package.module:Class``, with settings the
  same way (``mypkg.bots:Greedy:depth=2``). The folder the command runs in is
  searched first, as for ``python -m``.

Each seat gets its own player, made as ``cls(seed=..., seat=..., **settings)``
(``seed`` and ``seat`` only when the class takes them); settings are passed as
numbers when they read as numbers, as booleans for true/false, else as text.
Whatever the class, it follows the player protocol of bots.py.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import sys


class BotSpecError(ValueError):
    """A bot spec that names no bot, or settings the bot does not take."""


def builtin_bots() -> dict:
    """Built-in bot name -> class."""
    from .bots import HeuristicBot, RandomBot
    from .search import ISMCTSBot
    return {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}


@functools.lru_cache(maxsize=256)
def parse_spec(spec: str) -> tuple:
    """``spec`` -> (class, settings, label); BotSpecError when it names no bot.

    Remembered by spec: a series of games makes the same players for every game, and
    looking a class and its signature up each time cost a third of a short game."""
    text = spec.strip()
    if not text:
        raise BotSpecError(f"an empty bot name; the bots are: {', '.join(builtin_bots())}")
    parts = text.split(":")
    bots = builtin_bots()
    if parts[0] in bots:
        cls, rest = bots[parts[0]], parts[1:]
    elif len(parts) >= 2 and parts[1].isidentifier() and \
            all(name.isidentifier() for name in parts[0].split(".")):
        cls, rest = _load_class(parts[0], parts[1], text), parts[2:]
    else:
        raise BotSpecError(f"unknown bot '{text}'; the bots are: {', '.join(bots)}, or "
                           "package.module:Class for a bot of your own")
    settings = {}
    for item in rest:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise BotSpecError(f"bot '{text}': a setting is written key=value, not '{item}'")
        settings[key] = _value(value)
    _check_settings(cls, settings, text)
    return cls, settings, text


def _value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _load_class(module_name: str, class_name: str, spec: str):
    if os.getcwd() not in sys.path and "" not in sys.path:  # the user's own folder, as python -m does
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotSpecError(f"bot '{spec}': cannot import the module '{module_name}': {exc}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise BotSpecError(f"bot '{spec}': the module '{module_name}' has no '{class_name}'")
    if not callable(getattr(cls, "choose", None)):
        raise BotSpecError(f"bot '{spec}': '{class_name}' has no choose(view, decision) method, "
                           "so it is not a player (see docs/engine.md, Players and bots)")
    return cls


@functools.lru_cache(maxsize=256)
def _parameters(cls) -> tuple:
    """(names the constructor takes, whether it takes any keyword)."""
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return (), True
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names, any(p.kind is p.VAR_KEYWORD for p in params)


def _check_settings(cls, settings: dict, spec: str) -> None:
    names, anything = _parameters(cls)
    unknown = [key for key in settings if key not in names and not anything or key in ("seed", "seat")]
    if unknown:
        takes = sorted(names - {"seed", "seat"})
        raise BotSpecError(f"bot '{spec}' takes no setting '{unknown[0]}'"
                           + (f"; its settings are: {', '.join(takes)}" if takes else "; it takes none"))


def make_player(spec, seed: int, seat: int):
    """One player for ``seat`` from a spec (text, or the tuple parse_spec gives)."""
    cls, settings, label = parse_spec(spec) if isinstance(spec, str) else spec
    names, anything = _parameters(cls)
    extra = {key: value for key, value in (("seed", seed), ("seat", seat)) if key in names or anything}
    try:
        player = cls(**extra, **settings)
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bot '{label}': {exc}") from None
    if getattr(player, "name", None) is None:  # what logs and tables call it
        try:
            player.name = label
        except AttributeError:
            pass
    return player


def make_players(specs: list[str], players: int, seed: int) -> list:
    """A player for every seat; ``specs`` repeats to fill the table."""
    parsed = [parse_spec(spec) for spec in specs]
    if not parsed:
        raise BotSpecError(f"no bot named; the bots are: {', '.join(builtin_bots())}")
    return [make_player(parsed[seat % len(parsed)], seed, seat) for seat in range(players)]


def make_bots(names: list[str], players: int, seed: int) -> list:
    """Bots for every seat; ``names`` (bot specs) repeats to fill the table. ValueError
    (BotSpecError) for a spec that names no bot."""
    return make_players(list(names), players, seed)
