"""Where a chain of answers leaves the play they answer, in words.

A reaction window collects answers (Nopes), each answering the one before;
when it closes they resolve from the last, and an answer that cancels
cancels the one below it unless it was cancelled itself. So a Nope cancels
the play, a Nope of that Nope lets it stand again, and so on. Who plays at a
table should read that at every answer, not count Nopes in their head.
"""

from __future__ import annotations

from ..lang import primitives as P
from ..lang import syntax as s
from ..rules.model import Edition


def cancels(edition: Edition, card_id: str) -> bool | None:
    """Whether answering with this card cancels what it answers: True when its effect
    cancels outright, False when it never cancels, None when only under a condition."""
    card = edition.cards.get(card_id)
    effect = getattr(card, "effect", None)
    if effect is None:
        return False
    calls = [node for node in s.walk(effect) if isinstance(node, s.Call) and node.name == P.NAMES.cancel]
    if not calls:
        return False
    body = effect.body if isinstance(effect, s.Program) else (effect,)
    outright = any(isinstance(stmt, s.CallStmt) and stmt.call.name == P.NAMES.cancel for stmt in body)
    return True if outright else None


def play_stands(edition: Edition, answers: list[str]) -> bool | None:
    """Whether a play would stand if its window closed now, ``answers`` being the cards
    that answered it, in order (each answering the one before); None when an answer
    cancels only under a condition, so that it cannot be told."""
    cancelled = [False] * (len(answers) + 1)  # the play, then each answer
    for place in range(len(answers), 0, -1):  # the last answer resolves first
        if cancelled[place]:
            continue
        verdict = cancels(edition, answers[place - 1])
        if verdict is None:
            return None
        if verdict:
            cancelled[place - 1] = True
    return not cancelled[0]


def standing(edition: Edition, answers: list[str], title: str, *, open_: bool = True) -> str:
    """The play's standing after ``answers``, as a clause: "the Attack is cancelled,
    unless someone answers again" (without the proviso when not ``open_``), "the Attack
    stands again", "the Attack stands"."""
    stands = play_stands(edition, answers)
    if stands is None:
        return f"whether the {title} stands depends on its answers' conditions"
    if not stands:
        return f"the {title} is cancelled" + (", unless someone answers again" if open_ else "")
    cancelled_once = any(play_stands(edition, answers[:count]) is False for count in range(1, len(answers)))
    return f"the {title} stands again" if cancelled_once else f"the {title} stands"
