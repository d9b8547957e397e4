"""Decisions and chance: the points where a game waits for someone.

A :class:`Decision` is asked of one seat and lists every legal option as a
plain JSON value, so options can be written in logs and scenario files and
compared exactly:

* ``action`` (on your turn): ``"draw"``, ``"play <card>"`` or
  ``"combo <combo> [<card>]"``;
* ``combo_card``: the next card title of a combo of different titles;
* ``answer`` (in a reaction window): ``"pass"`` or ``"play <card>"``;
* ``choose_player``: a seat number; ``choose_card``: a card id when the
  chooser can see the cards, else a place (0 = top/first);
* ``choose_title``: a card id; ``choose_position``: a place, 0 is the top;
  ``choose_number``: a whole number of its range; ``ask``: true or false.

``values`` holds what each option means to the engine, in the same order.
A :class:`Chance` is an outcome nobody chooses; the game resolves it from its
seeded random generator unless the caller asked to resolve chance itself. Both
are defined with the effect machine (lang/machine.py), which effects share.
"""

from __future__ import annotations

from ..lang.machine import Chance, Decision  # noqa: F401 (the engine's names for them)

#: what ``current_player()`` returns while a chance outcome is pending
CHANCE = -1
#: what ``current_player()`` returns once the game is over
TERMINAL = -4
