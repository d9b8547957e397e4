"""The engine's two limits, and how a game stops when rules break one.

Play is bounded in two ways, so that a rule file that checks clean cannot
hang a game or fill the memory (cost.py estimates both statically):

* numbers: every number an effect or a setup count writes or works out lies
  within plus or minus :data:`NUMBER_LIMIT`;
* work: one action of a player (a play or a draw, with everything it sets off:
  answers, drawn cards' effects, state checks) may take at most
  :data:`STEP_BUDGET` steps. A step is a bounded piece of work: a loop's or an
  aggregate's pass, a primitive call, one card or player a primitive walks.

Going over either stops the game with a ``RuleRuntimeError`` naming the card
and its file and line.
"""

from __future__ import annotations

import os

from .errors import RuleRuntimeError

#: the largest magnitude of a number in play: far beyond any count of cards or
#: turns, small enough that arithmetic stays cheap
NUMBER_LIMIT = 1_000_000_000

#: steps one action may take unless KITTENS_STEP_BUDGET says otherwise; the shipped
#: editions take at most about three hundred
DEFAULT_STEP_BUDGET = 100_000


def _step_budget(setting: str | None) -> int:
    """The budget a process runs with: KITTENS_STEP_BUDGET when it is a whole number of at
    least 1,000 (for experiments with huge decks, and for tests of what contains work the
    language cannot see), else the default. It is read once, when kittens is imported, and
    is the same for validation and for play."""
    if setting is not None and setting.strip().isdigit() and int(setting) >= 1_000:
        return int(setting)
    return DEFAULT_STEP_BUDGET


STEP_BUDGET = _step_budget(os.environ.get("KITTENS_STEP_BUDGET"))

# diagnostic codes (see diagnostics.py)
TOO_LARGE = "number-too-large"
MAY_OVERFLOW = "may-overflow"
TOO_MUCH_WORK = "too-much-work"


def label(record, part: str | None = None) -> str:
    """How errors name a card, combo or check: "card 'x' (file:line)". For one ``part``
    (its effect, requires, ...) the line is the one of the patch that rewrote it, if any."""
    origin = getattr(record, "written_at", {}).get(part) or record.origin
    return f"{type(record).__name__.lower()} '{record.id}' ({origin})"


def fail(where: str | None, message: str):
    """Stop the game: rules that cannot be carried out (see errors.RuleRuntimeError)."""
    raise RuleRuntimeError(f"{where or 'an effect'}: {message}")


def over_budget(where: str | None):
    """Stop an action that took more steps than it may (the machine's charge, and the
    compiled code's own count)."""
    fail(where, f"one action took more than {STEP_BUDGET:,} steps (loop iterations, primitive "
                "calls and the cards or players they walk, with everything it set off); an effect "
                "must do less work: walk fewer cards, nest fewer loops, or let drawn cards draw less")


def within_limit(value) -> bool:
    """Whether a number lies within plus or minus NUMBER_LIMIT (booleans always do)."""
    return -NUMBER_LIMIT <= value <= NUMBER_LIMIT


def shown(number: int) -> str:
    """A number, however large, as a person can read it."""
    size = abs(number)
    text = f"{size:,}" if size < 10 ** 18 else f"more than 10^{len(str(size)) - 1}"
    return ("-" if number < 0 else "") + text
