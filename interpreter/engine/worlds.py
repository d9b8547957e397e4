"""Worlds the rules allow: where a card a seat cannot see may be, and dealing by it.

A seat that searches deals *worlds*: the real game with every card it cannot
see dealt afresh (:meth:`game.State.resample_from_view`). Dealing those cards
uniformly over every unknown place makes worlds the rules could never
produce: at the opening of the Original, an Exploding Kitten in an opponent's
hand, where a drawn kitten is always shown and then defused back into the pile
or ends its drawer. Rollouts from such worlds run on with kittens that never
come out, and a search over them measures noise.

Two kinds of knowledge narrow the deal, both generic:

* **What the rules allow** (:class:`PlaceRules`), learnt once per compiled
  game by running the compiled edition itself: random games are played and, at
  every decision, each card lying face down where some seat cannot place it is
  noted with the kind of place it lies in (a hand, the draw pile, a hidden
  zone by name). A title is dealt only into kinds of places where a card of it
  was once found hidden. The method is sound in the direction that matters:
  a title the rules never leave hidden in a hand is never found there, so no
  dealt world ever puts it in one, whatever edition or house rule makes it so;
  the facts come from the effects as compiled, not from card names. A title
  whose cards only rarely rest in a hand (a kitten kept under a Streaking
  Kitten) is found there within the games played, and then allowed.
* **What the seat saw** is already on the table, card by card: a card carries
  the bit mask of the seats that know its face and place (table.py: the cards
  it holds, gave away by Favor, saw with See the Future and that have not
  moved since, every public card). Those keep their faces; only the others
  are dealt.

:func:`deal` puts the unknown cards into the unknown places with each title
only where the rules allow it, uniformly among such deals when the
constraints are nested (the usual case: a few titles that never rest in a
hand, the rest allowed anywhere).
"""

from __future__ import annotations

import random
import weakref

from ..lang.machine import below, shuffle
from .table import HAND, PUBLIC

#: random games played to learn where titles may lie hidden (per compiled game)
LEARNING_GAMES = 40
#: a learning game stops after this many decisions (a game of random players ends far sooner)
LEARNING_DECISIONS = 4000
#: a kind of place a title was found hidden in less than this share of the times it was
#: found hidden at all is one the rules practically never leave it in (see PlaceRules)
RARE = 0.01


def place_kind(zone) -> str:
    """The kind of place a zone is, as the rules see it: any hand is ``hand``, any
    copy of a per-player zone its name, a shared zone its name."""
    if zone.owner is None:
        return zone.name
    return "hand" if zone.kind == HAND else zone.name.rsplit(" ", 1)[0]


class PlaceRules:
    """Title -> the kinds of places (see :func:`place_kind`) where a card of that
    title was found lying hidden from some seat, learnt by playing the compiled
    game (see the module's docstring). A title never found hidden anywhere may go
    anywhere (nothing is known of it)."""

    def __init__(self, allowed: dict, counts: dict | None = None) -> None:
        self.allowed = allowed
        self.counts = counts or {}  # title -> kind -> times found hidden there, when learnt

    @classmethod
    def learn(cls, game, games: int = LEARNING_GAMES, seed: int = 0) -> "PlaceRules":
        found: dict = {}
        rng = random.Random(f"kittens-worlds/{seed}")
        everyone = (1 << game.players) - 1
        for index in range(games):
            state = game.new_state(seed + index, record=False)
            table = state.table
            steps = 0
            while not state.is_terminal() and steps < LEARNING_DECISIONS:
                steps += 1
                for zone in table.zones():
                    if zone.kind == PUBLIC or not zone.cards:
                        continue
                    kind = None
                    for inst in zone.cards:
                        if inst.known != everyone and not inst.face_up:
                            if kind is None:
                                kind = place_kind(zone)
                            kinds = found.get(inst.id)
                            if kinds is None:
                                kinds = found[inst.id] = {}
                            kinds[kind] = kinds.get(kind, 0) + 1
                options = state.legal_actions()
                state.apply_action(options[below(rng, len(options))])
        return cls({title: frozenset(kind for kind, count in kinds.items()
                                     if count >= RARE * sum(kinds.values()))
                    for title, kinds in found.items()}, found)

    def may_lie(self, title: str, kind: str) -> bool:
        """Whether a hidden card of ``title`` may lie in a place of ``kind``."""
        kinds = self.allowed.get(title)
        return kinds is None or kind in kinds

    def never_in_hands(self) -> frozenset:
        """The titles no hidden card of which is ever left in a hand."""
        return frozenset(title for title, kinds in self.allowed.items() if "hand" not in kinds)


_LEARNT: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def place_rules(game) -> PlaceRules:
    """The :class:`PlaceRules` of a compiled game, learnt on first use and kept."""
    rules = _LEARNT.get(game)
    if rules is None:
        rules = _LEARNT[game] = PlaceRules.learn(game)
    return rules


def deal(table, seat: int, rng, held=frozenset(), rules: PlaceRules | None = None) -> None:
    """Deal afresh every card of ``table`` that ``seat`` cannot see (not known to it,
    face down, not among the uids in ``held``) over the places of such cards, each
    title only into kinds of places ``rules`` allow (uniformly when ``rules`` is None).

    What the seat may know of those cards is only their counts: the cards are sorted
    before they are dealt, so two tables the seat cannot tell apart deal alike from
    the same ``rng``. A card's serial number goes with its face (numbers are given in
    deck order, so one left at its place would name the real card there)."""
    bit = 1 << seat
    places, kinds, cards = [], [], []
    for zone in table.zones():
        kind = None
        for inst in zone.cards:
            if not inst.known & bit and not inst.face_up and inst.uid not in held:
                if kind is None:
                    kind = place_kind(zone)
                places.append(inst)
                kinds.append(kind)
                cards.append((inst.id, inst.uid, inst.card))
    cards.sort()
    if rules is not None:
        dealt = _constrained(cards, kinds, rules, rng)
        if dealt is not None:
            cards = dealt
        else:  # no deal fits every constraint (a house rule's rare corner): deal freely
            shuffle(rng, cards)
    else:
        shuffle(rng, cards)
    for inst, (card_id, uid, card) in zip(places, cards):
        inst.card, inst.id, inst.uid = card, card_id, uid
    if table.hidden_counters:
        _forget_counters(table, seat)
    if table.secret_teams:
        _redeal_teams(table, seat, rng)
    table.count_reactive()  # the hands now hold other cards: how many of them can answer


def _redeal_teams(table, seat: int, rng) -> None:
    """Secret teams dealt afresh for ``seat``: it keeps its own team, the other seats' teams
    (which it cannot know) are shuffled among them, from their sorted list, so twins that
    differ only there deal alike."""
    mine = table.team_list[seat]
    others = sorted(team for other, team in enumerate(table.team_list) if other != seat)
    shuffle(rng, others)
    dealt = iter(others)
    table.team_list = [mine if other == seat else next(dealt) for other in range(len(table.team_list))]


def _forget_counters(table, seat: int) -> None:
    """The values of hidden counters (`visible: owner` or `nobody`) that ``seat`` may not
    know, put back to where they start: a world dealt for the seat holds no one else's
    secret number (a sealed bid), and twins that differ only there deal alike."""
    starts = table.edition.counters
    for name in table.hidden_counters:
        values = table.counters[name]
        start = starts[name].get("start", 0)
        for other in range(len(values)):
            if not table.counter_seers(name, other) & (1 << seat):
                values[other] = start


def _constrained(cards: list, kinds: list, rules: PlaceRules, rng) -> list | None:
    """``cards`` in the order they go into the places of ``kinds``, each where the
    rules allow it; None when no such deal is found. Without a constraint that bites,
    a plain shuffle (the same draws from ``rng`` as an unconstrained deal)."""
    kind_set = sorted(set(kinds))
    barred = {kind: [index for index, card in enumerate(cards) if not rules.may_lie(card[0], kind)]
              for kind in kind_set}
    if not any(barred.values()):
        shuffle(rng, cards)
        return cards
    # the most constrained kinds of place are filled first, each uniformly from the
    # cards still left that may lie there; the least constrained (the draw pile, that
    # takes anything) last, so it takes what is left in a uniform order
    order = sorted(kind_set, key=lambda kind: (-len(barred[kind]), kind))
    slots: dict = {kind: [] for kind in kind_set}
    for place, kind in enumerate(kinds):
        slots[kind].append(place)
    left = list(range(len(cards)))
    dealt: list = [None] * len(cards)
    for kind in order:
        allowed = [index for index in left if rules.may_lie(cards[index][0], kind)]
        wanted = slots[kind]
        if len(allowed) < len(wanted):
            return None
        shuffle(rng, allowed)
        taken = allowed[:len(wanted)]
        for place, index in zip(wanted, taken):
            dealt[place] = cards[index]
        chosen = set(taken)
        left = [index for index in left if index not in chosen]
    return dealt
