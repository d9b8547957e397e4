"""The errors rules can cause in play, shared by every layer that runs effects."""

from __future__ import annotations


class GameError(Exception):
    """A call the state machine cannot take (an illegal option, a finished game)."""


class RuleRuntimeError(GameError):
    """Rules that cannot be carried out, found only in play (cards drawing cards
    without end, a number beyond the limit); the message names the card and
    where it is defined."""
