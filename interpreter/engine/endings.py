"""Why a game ended, in the words every product prints.

A game that reaches one of the engine's limits (``flow.TURN_LIMIT`` turns in
all, or ``flow.PLAY_LIMIT`` plays in one turn) is stopped without a winner:
rules whose pile can run dry, or whose cards come back to the hand that played
them, could otherwise go on for ever. Whoever reads the outcome (of `kittens
run`, `simulate`, `play`, `replay`, the web table) should learn that the limit
ended it, and which, not read "nobody wins" as if the rules had said so. The
reason is the table's ``end_reason`` or a ``game_over`` event's ``reason``.
"""

from __future__ import annotations

from .flow import PLAY_LIMIT, TURN_LIMIT

#: the reasons a limit stopped a game for -> the limit, as a reader names it
LIMITS = {
    "turn_limit": f"the limit of {TURN_LIMIT:,} turns",
    "play_limit": f"the limit of {PLAY_LIMIT:,} plays in one turn",
}


def is_limit(reason: str | None) -> bool:
    """Whether the game was stopped at a limit rather than decided by its rules."""
    return bool(reason) and (reason in LIMITS or str(reason).endswith("_limit"))


def limit_name(reason: str) -> str:
    """The limit a reason names, e.g. "the limit of 5,000 turns" (a limit this module
    does not know by its reason: "a limit (step_limit)")."""
    return LIMITS.get(reason) or f"a limit ({reason})"


def no_winner(reason: str | None, turns: int | None = None) -> str:
    """A game without a winner, and why when a limit stopped it: "no winner: the game
    hit the limit of 5,000 turns" (with ``turns``: "no winner after 37 turns: ...")."""
    said = "no winner" if turns is None else f"no winner after {turns} turns"
    return f"{said}: the game hit {limit_name(str(reason))}" if is_limit(reason) else said


def outcome(reason: str | None, winners, name=str) -> str:
    """Who won, or why nobody did: "seat 2 wins", "seats 0, 2 win together", or
    :func:`no_winner`'s words. ``name(seat)`` says a seat as the reader knows it."""
    winners = list(winners)
    if not winners:
        return no_winner(reason)
    if len(winners) > 1:
        return f"seats {', '.join(name(seat) for seat in winners)} win together"
    return f"seat {name(winners[0])} wins"


def stopped_lines(ends: dict, no_winner_games: int) -> list[str]:
    """Lines for a series' summary: how many games had no winner, and which limit
    stopped how many of them. ``ends`` maps each reason games ended for to its count."""
    if not no_winner_games:
        return []
    limited = sorted((count, reason) for reason, count in ends.items() if is_limit(reason) and count)
    if not limited:
        return [f"no winner: {no_winner_games}"]
    if len(limited) == 1 and limited[0][0] == no_winner_games:
        return [f"no winner: {no_winner_games}, each game stopped at {limit_name(limited[0][1])}"]
    return [f"no winner: {no_winner_games}"] + [
        f"  {count} stopped at {limit_name(reason)}" for count, reason in reversed(limited)]
