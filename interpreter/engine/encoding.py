"""Fixed-size numbers for learning programs: an action catalogue and an observation vector.

Options are JSON values whose meaning depends on the decision (a card id, a
seat, a place, an order). Tools such as OpenSpiel and PettingZoo want a fixed
set of integer actions and a fixed-size observation per game. Both are worked
out here from the compiled edition alone, so they fit any edition, expansion
or house rule without naming a card:

* :class:`ActionCatalogue` lists every option the edition can produce: the
  fixed words (draw, pass, play blind), ``play <card>`` for every card,
  ``play <wild> as <title>`` for every title a wildcard may stand for,
  ``combo <combo> <card>`` and ``combo <combo>``, ``act <action>`` for every
  free action, every card id (cards and
  titles picked), true and false, the numbers 0..N (seats, places and numbers
  picked; N is the most cards a game of the edition holds, or 100 when an effect
  calls ``choose_number``) and, when an effect rearranges cards,
  every order of two to six cards. An option means what its decision says
  (3 is a seat in ``choose_player``, a place in ``choose_position``).
* :class:`ObservationEncoder` turns a seat's :class:`views.View` (only what the
  seat may know) into a list of numbers whose length depends only on the edition:
  per-title counts of the seat's hand, of the public piles and zones and of the
  cards it has seen in other hands; the draw pile's size, the titles it knows
  in it and at its top places; every seat's hand size, owed turns and whether
  it is still in; whose turn it is, the direction of play, and what the seat is
  being asked. Seats are counted from the observing seat, so the seat itself is
  always first.
"""

from __future__ import annotations

from itertools import permutations

from ..lang.primitives import MAX_CHOSEN_NUMBER, NAMES
from ..rules.model import calls_primitive

#: the decision kinds, in the order of the observation's one-hot field
DECISION_KINDS = ("action", "combo_card", "answer", "choose_player", "choose_card", "choose_title",
                  "choose_position", "ask", "rearrange", "blind_pick", "choose_number")
#: the fixed words of actions and answers
WORDS = ("draw", "play blind", "pass")
#: the top places of the draw pile the observation names card by card
TOP_PLACES = 5
#: the most cards rearrange() may order (lang/primitives.py refuses more)
MAX_ORDER = 6
ON_TURN = ("own_turn", "any_time")


def _key(option):
    """An option as a catalogue key: its type kept, so that true is not 1."""
    kind = type(option)
    if kind is list or kind is tuple:
        return ("order", tuple(option))
    return (kind.__name__, option)


def most_cards(edition) -> int:
    """The most cards a game of ``edition`` holds: the deck of its largest table, dealt."""
    from .game import Game
    return len(Game(edition, edition.players[1]).new_state(0, record=False).table.cards)


class ActionCatalogue:
    """Every option an edition can produce, numbered from 0; see the module's docstring."""

    def __init__(self, edition, cards: int | None = None) -> None:
        self.edition = edition
        self.cards = most_cards(edition) if cards is None else cards
        ids = sorted(edition.cards)
        options: list = list(WORDS)
        options += [f"play {card_id}" for card_id in ids]
        for card_id in ids:
            card = edition.cards[card_id]
            if card.stands_for is not None and card.when in ON_TURN:
                options += [f"play {card_id} as {other}" for other in ids
                            if other != card_id and edition.cards[other].stands_for is None
                            and edition.cards[other].when in ON_TURN
                            and card.may_stand_for(edition.cards[other])]
        for combo in edition.combos:
            if combo.match == "same_title":
                options += [f"combo {combo.id} {card_id}" for card_id in ids
                            if combo.may_include(edition.cards[card_id])]
            else:
                options.append(f"combo {combo.id}")
        options += [f"act {action.id}" for action in getattr(edition, "actions", ())]
        options += ids
        options += [True, False]
        numbers = max(self.cards, edition.players[1] - 1)
        if calls_anywhere(edition, NAMES.choose_number):  # a number picked: 0 to its largest
            numbers = max(numbers, MAX_CHOSEN_NUMBER)
        options += list(range(numbers + 1))
        if rearranges(edition):
            for size in range(2, MAX_ORDER + 1):
                options += [list(order) for order in permutations(range(size))]
        self.options: list = []
        self._index: dict = {}
        for option in options:  # a card id may equal a word: keep the first
            key = _key(option)
            if key not in self._index:
                self._index[key] = len(self.options)
                self.options.append(option)

    @property
    def size(self) -> int:
        return len(self.options)

    def index(self, option) -> int:
        """The number of ``option``; KeyError for one the edition cannot produce."""
        try:
            return self._index[_key(option)]
        except KeyError:
            raise KeyError(f"the option {option!r} is not in {self.edition.name}'s action "
                           "catalogue") from None

    def option(self, index: int):
        """The option numbered ``index`` (a fresh list for an order)."""
        option = self.options[index]
        return list(option) if type(option) is list else option

    def label(self, index: int) -> str:
        """The option as text: words as they are, numbers, true/false, orders as [2, 0, 1]."""
        option = self.options[index]
        if type(option) is bool:
            return "true" if option else "false"
        return option if type(option) is str else str(option)

    def legal(self, decision) -> list[int]:
        """The numbers of a decision's options, in ascending order."""
        return sorted(self.index(option) for option in decision.options)

    def mask(self, decision) -> list[int]:
        """1 for each number that is a legal option of ``decision``, else 0."""
        mask = [0] * len(self.options)
        if decision is not None and hasattr(decision, "options"):
            for option in decision.options:
                mask[self.index(option)] = 1
        return mask


def rearranges(edition) -> bool:
    """Whether any effect of the edition can ask a player to rearrange cards."""
    return calls_anywhere(edition, NAMES.rearrange)


def calls_anywhere(edition, name: str) -> bool:
    """Whether any effect of the edition calls the primitive ``name``."""
    programs = [edition.turn_draw]
    for card in edition.cards.values():
        programs += [card.effect, card.on_draw, card.instead_of_draw]
    programs += [combo.effect for combo in edition.combos]
    programs += [check.effect for check in edition.checks]
    programs += [record.effect for record in (*getattr(edition, "triggers", ()), *getattr(edition, "actions", ()))]
    return any(program is not None and calls_primitive(program, name) for program in programs)


class ObservationEncoder:
    """A seat's view as a fixed-length list of numbers; see the module's docstring."""

    def __init__(self, edition) -> None:
        self.edition = edition
        self.titles = sorted(edition.cards)
        self.column = {title: index for index, title in enumerate(self.titles)}
        self.seats = edition.players[1]  # the largest table: smaller ones leave zeros
        self.zones = sorted(name for name, spec in edition.zones.items() if not spec.get("per_player"))
        self.areas = sorted(name for name, spec in edition.zones.items() if spec.get("per_player"))
        t, n = len(self.titles), self.seats
        self.fields = [  # (name, length): the vector is these, in this order
            ("hand", t), ("discard_pile", t), ("removed", t),
            *[(f"zone {name}", t + 1) for name in self.zones],
            *[(f"area {name}", n * (t + 1)) for name in self.areas],
            ("seen_in_hands", (n - 1) * t),
            ("draw_pile_count", 1), ("draw_pile_known", t), ("draw_pile_top", TOP_PLACES * t),
            ("hand_sizes", n), ("owed", n), ("alive", n), ("seated", n),
            ("current", n), ("reversed", 1), ("deciding", 1), ("decision_kind", len(DECISION_KINDS)),
        ]
        self.size = sum(length for _name, length in self.fields)

    def encode(self, view) -> list[float]:
        """The numbers for ``view`` (a views.View): only what its seat may know."""
        t, n, column = len(self.titles), self.seats, self.column
        players, me = view.players, view.seat
        order = [(me + step) % players for step in range(players)]  # seats from mine on
        out: list[float] = []

        def counts(ids) -> list[float]:
            row = [0.0] * t
            for card_id in ids:
                if card_id is not None:
                    row[column[card_id]] += 1
            return row

        out += counts(view.hand)
        out += counts(view.discard_pile)
        out += counts(view.removed)
        for name in self.zones:
            zone = view.zone(name)
            cards = zone.get("cards", list(zone.get("known", {}).values()))
            out += counts(cards) + [float(len(zone["cards"]) if "cards" in zone else zone["count"])]
        for name in self.areas:
            for step in range(n):
                if step < players:
                    zone = view.zone(name, order[step])
                    cards = zone.get("cards", list(zone.get("known", {}).values()))
                    out += counts(cards) + [float(len(zone["cards"]) if "cards" in zone else zone["count"])]
                else:
                    out += [0.0] * (t + 1)
        for step in range(1, n):
            out += counts(view.known_in_hand(order[step])) if step < players else [0.0] * t
        known = view.draw_pile_known()
        out.append(float(view.draw_pile_count))
        out += counts(known.values())
        for place in range(TOP_PLACES):
            row = [0.0] * t
            if place in known:
                row[column[known[place]]] = 1.0
            out += row
        alive, owed = view.alive, view.owed
        for values in ([view.hand_count(seat) for seat in order], [owed[seat] for seat in order],
                       [1.0 if alive[seat] else 0.0 for seat in order], [1.0] * players,
                       [1.0 if seat == view.current else 0.0 for seat in order]):
            out += [float(value) for value in values] + [0.0] * (n - players)
        out.append(1.0 if view.direction < 0 else 0.0)
        decision = view.decision
        out.append(1.0 if decision is not None else 0.0)
        out += [1.0 if decision is not None and decision.kind == kind else 0.0 for kind in DECISION_KINDS]
        return out

    def describe(self) -> list[dict]:
        """The fields with their offsets, for whoever reads the vector."""
        found, offset = [], 0
        for name, length in self.fields:
            found.append({"name": name, "offset": offset, "length": length})
            offset += length
        return found
