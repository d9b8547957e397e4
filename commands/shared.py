"""What several commands do alike: load an edition for play (errors become exit
statuses), check a player count and bot names, write a file whole or not at all."""

from __future__ import annotations

import contextlib
import os

from .kit import (
    echo,
    fail,
    fail_rules,
)


def _load_edition(path: str, variant: str | None, command: str, expansions=None):
    """Compile an edition for play; rule errors print as diagnostics and exit 1, a name
    or path that names nothing exits 2. ``path`` takes every form a ruleset has on the
    command line, as `compare` takes them: a file, a shipped name, RULES+EXPANSION,
    RULES@VARIANT."""
    from ..interpreter.rules.load import RuleError, UsageError, load_edition
    from ..lab.rulesets import parse_ruleset

    try:
        ruleset = parse_ruleset(path, variant, expansions)
        return load_edition(ruleset.rules, ruleset.variant, ruleset.expansions)
    except UsageError as exc:
        fail(str(exc))
    except RuleError as exc:  # an unknown variant is a UsageError too, caught above
        fail_rules(exc)


def _players_for(edition, players: int | None, command: str) -> int:
    lo, hi = edition.players
    if players is None:
        return min(max(4, lo), hi)
    if not lo <= players <= hi:
        fail(f"{edition.name} is for {lo} to {hi} players, not {players}")
    _warn_dead_cards(edition, players, command)
    return players


def _warn_dead_cards(edition, players: int, command: str) -> None:
    """Say so when a card is dealt but useless at this player count, and name the variant
    made for it (Imploding Kittens with two players and no kitten left to defuse)."""
    from ..interpreter.rules.edition import variant_for
    from ..interpreter.rules.setup import dead_cards

    dead = dead_cards(edition, players)
    if not dead:
        return
    card_id, users = next(iter(dead.items()))
    better = variant_for(edition, edition.variants, players)
    hint = f": play it with --variant {better}" if better else ""
    echo(f"kittens {command}: warning: with {players} players '{card_id}' does nothing, since "
               f"no card that uses it ({', '.join(users)}) reaches the game{hint}", err=True)


def _parsed_bots(bots: str, *more: str) -> list[str]:
    """Bot specs by seat (engine/players.py: ``heuristic``, ``ismcts:iterations=800``,
    ``package.module:Class``), and ``more`` specs, each made once now so that a name or a
    setting that names no bot is refused before any game: UsageError (exit 2)."""
    from ..interpreter.engine.players import BotSpecError, make_player, parse_spec
    from ..interpreter.rules.load import UsageError

    names = [name.strip() for name in bots.split(",") if name.strip()]
    for name in (names or [""]) + list(more):
        try:
            make_player(parse_spec(name), 0, 0)  # settings out of range are said now, too
        except BotSpecError as exc:
            raise UsageError(str(exc)) from None
    return names


def _bot_names(bots: str, command: str) -> list[str]:
    """:func:`_parsed_bots` for a command that plays them: a bad one exits 2."""
    from ..interpreter.rules.load import UsageError

    try:
        return _parsed_bots(bots)
    except UsageError as exc:
        fail(str(exc))


def _usage(message: str):
    """A usage error to raise inside a lab run (:func:`_lab` makes it exit 2)."""
    from ..interpreter.rules.load import UsageError
    return UsageError(message)


@contextlib.contextmanager
def _atomic_text(path: str, command: str, binary: bool = False):
    """Write a text file (bytes with ``binary``) whole or not at all, with the mode any
    other tool gives it (lang/files.py); a file that cannot be written exits 2."""
    from ..interpreter.lang.files import written_whole

    if os.path.isdir(path) or (os.path.exists(path) and not os.path.isfile(path)):
        fail(f"cannot write {path}: it is a folder or a device, not a file; name a file")
    try:
        with written_whole(path, binary) as handle:
            yield handle
    except OSError as exc:  # no such folder, no room on the disk, no permission
        fail(f"cannot write {path}: {exc.strerror or exc}")
