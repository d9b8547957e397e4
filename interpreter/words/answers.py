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


# -- what the cards say about answers -------------------------------------------------
def _in_deck(edition: Edition) -> list[str]:
    """The cards the deck holds at some player count."""
    return [card_id for card_id, ranges in edition.deck.items() if any(n for _lo, _hi, n in ranges)]


def _list(titles: list[str], word: str) -> str:
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + f" {word} " + titles[-1]


def cancellers(edition: Edition) -> list:
    """The deck's cards that cancel what they answer (Nope), outright or on a condition."""
    return [edition.cards[c] for c in _in_deck(edition) if c in edition.cards and cancels(edition, c) is not False]


def unanswerable(edition: Edition) -> list:
    """The deck's cards a player plays that no canceller may answer (`nopeable: false`)."""
    return [edition.cards[c] for c in _in_deck(edition)
            if c in edition.cards and edition.cards[c].when != "never" and not edition.cards[c].nopeable]


def printed_text(edition: Edition, record) -> str:
    """The text a player reads on a card or combo: its own, plus what the rules say of
    answering it that the text leaves out. A card or combo a house rule made
    unanswerable (`nopeable: false`) says that no Nope can cancel it, and a Nope names
    the cards it cannot cancel, so that neither reads as it does in the box."""
    text = " ".join(record.text.split())
    stoppers = cancellers(edition)
    if not stoppers:
        return text
    said = text.lower()
    if not record.nopeable and getattr(record, "when", "own_turn") != "never":
        if "cancel" not in said and not any(c.title.lower() in said for c in stoppers):
            return f"{text} No {_list([c.title for c in stoppers], 'or')} can cancel it."
        return text
    if any(c.id == getattr(record, "id", None) for c in stoppers):
        closed = [c.title for c in unanswerable(edition) if c.title.lower() not in said]
        closed += [c.title for c in edition.combos if not c.nopeable and c.title.lower() not in said]
        if closed:
            return f"{text} In these rules it cannot cancel {_list(closed, 'or')}."
    return text


#: what a moment a card answers says, after its player's name ("Ana is about to go out")
_MOMENTS = {
    ("player_out", "before"): ("is about to go out", "are about to go out"),
    ("player_out", "after"): ("went out", "went out"),
    ("player_back", "after"): ("came back into the game", "came back into the game"),
    ("card_drawn", "before"): ("drew a card, which has not taken effect yet",) * 2,
    ("card_drawn", "after"): ("drew a card", "drew a card"),
    ("turn_start", "after"): ("starts a turn", "start a turn"),
    ("round_start", "after"): ("starts a new round", "start a new round"),
    ("turn_end", "after"): ("ended a turn", "ended a turn"),
    ("card_spent", "after"): ("spent a card", "spent a card"),
    ("pile_empty", "after"): ("drew the last card of the pile", "drew the last card of the pile"),
}


def moment_words(moment: str, at: str, zone: str | None = None, *, you: bool = False) -> str:
    """A moment being answered, as the words after its player's name: "is about to go
    out", "drew a card" (``you``: the form after "you")."""
    if moment in ("card_enters", "card_leaves"):
        where = "a hand" if zone in (None, "hand") else zone.replace("_", " ")
        return f"{'saw a card enter' if moment == 'card_enters' else 'saw a card leave'} {where}"
    said = _MOMENTS.get((moment, at))
    if said is None:
        return moment.replace("_", " ")
    return said[1] if you else said[0]
