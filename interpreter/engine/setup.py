"""Dealing a real table: an edition's setup steps carried out at the start of a game.

The counts come from the rules package (the same ones the validator's dry run
uses); shuffles are chance nodes.
"""

from __future__ import annotations

from dataclasses import replace

from ..lang import syntax as s
from ..lang.counts import NumberTooLarge, count_on
from ..lang.limits import fail
from ..lang.machine import Chance, Frame


class SetupFrame(Frame):
    """Put the deck in the draw pile and carry out the setup steps; shuffles are chance
    nodes. Seat 0 plays first."""

    __slots__ = ("index", "waiting")

    def __init__(self) -> None:
        self.index = -1  # -1: the deck is not in the pile yet
        self.waiting = None  # the step a chance outcome is for: (kind, zone name, count)
        self.result = None

    def step(self, state, value):
        table, game = state.table, state.game
        edition = game.edition
        if self.index < 0:
            table.fill(game.deck_cards, table.draw_pile)
            table.announce()
            self.index = 0
        zones = {"draw_pile": table.draw_pile, "discard_pile": table.discard_pile,
                 "removed": table.removed, "set_aside": table.set_aside, **table.extra}
        if self.waiting is not None:  # the order a shuffle came out in
            kind, zone, count = self.waiting
            self.waiting = None
            table.shuffle(zones[zone], value)
            if kind == _REMOVE_RANDOM:
                table.move(table.draw_pile.cards[:count], table.removed)
        steps = edition.setup
        while self.index < len(steps):
            step = steps[self.index]
            self.index += 1
            count = known = game.setup_counts.get(self.index)
            if known is None or known < 0:
                try:
                    count = max(count_on(step, game.players, state.rules, table.draw_pile.cards), 0) \
                        if step.count is not None else 0
                except NumberTooLarge as exc:  # the dry run reports this in validation
                    fail(f"setup step {self.index} ({step.origin or edition.origin})", str(exc))
                if known is None:  # the same in every game, or -1: worked out at each deal
                    game.setup_counts[self.index] = -1 if reads_pile(step.count) else count
            if step.kind in _SHUFFLES:
                zone = zones["draw_pile" if step.kind == _REMOVE_RANDOM else step.zone]
                self.waiting = (step.kind, zone.name if zone.name in zones else step.zone, count)
                return Chance("order", len(zone.cards), {"zone": zone.name, "cards": [c.id for c in zone.cards]}
                              if state.explicit_chance else None)
            if step.to is not None:  # a deal to one seat only
                _deal_to(table, step, count, self._seat(state, step))
                continue
            _STEPS[step.kind](table, zones, step, count)
        table.current = 0
        return None


    def _seat(self, state, step) -> int:
        """The seat a `deal` to one seat names (`to:`), checked: the dry run reports a seat
        beyond the table in validation, and so does this in play."""
        where = f"setup step {self.index} ({step.origin or state.game.edition.origin})"
        try:
            seat = count_on(replace(step, count=step.to), state.game.players, state.rules,
                            state.table.draw_pile.cards)
        except NumberTooLarge as exc:
            fail(where, str(exc))
        if not 0 <= seat < state.game.players:
            fail(where, f"this deals to seat {seat}, but the seats are 0 to {state.game.players - 1}")
        return seat


def _dealt_into(table, step, seat: int):
    """Where a deal puts ``seat``'s cards: their hand, or their copy of the per-player zone
    the step names (`zone:`)."""
    return table.areas[step.zone][seat] if step.zone is not None else table.hands[seat]


def _deal_to(table, step, count, seat):
    """Deal ``count`` cards to ``seat`` alone: from the top of the pile, or set-aside copies."""
    source = table.set_aside if step.cards else table.draw_pile
    pool = [c for c in source.cards if c.id == step.cards[0]] if step.cards else source.cards
    hand = _dealt_into(table, step, seat)
    table.move(pool[:count], hand, len(hand.cards))


def _set_aside(table, zones, step, count):
    wanted = set(step.cards)
    table.move([c for c in table.draw_pile.cards if c.id in wanted], table.set_aside)
    return ()


def _deal(table, zones, step, count):
    """Deal ``count`` rounds, one card per seat per round, in seat order."""
    source = table.set_aside if step.cards else table.draw_pile
    pool = [c for c in source.cards if c.id == step.cards[0]] if step.cards else source.cards
    players = len(table.hands)
    dealt = pool[:count * players]  # the order a round-by-round deal takes them in
    for seat in range(players):
        into = _dealt_into(table, step, seat)
        table.move(dealt[seat::players], into, len(into.cards))
    return ()


def _put_back(table, zones, step, count):
    cards = [c for c in table.set_aside.cards if c.id == step.cards[0]]
    table.move(cards[:count], table.draw_pile)
    return ()


def _remove(table, zones, step, count):
    table.move(list(zones[step.zone].cards), table.removed)
    return ()


def _place(table, zones, step, count):
    pile = table.draw_pile.cards
    wanted = set(step.cards)
    table.move([c for c in pile if c.id in wanted] if step.cards else pile[:count], zones[step.zone])
    return ()


#: setup step kind -> how to carry it out (keywords: a step may share a word with a card)
_STEPS = dict(set_aside=_set_aside, deal=_deal, put_back=_put_back, remove=_remove, place=_place)
#: steps that shuffle (a chance node): a whole zone, or the pile before cards leave it
#: (keywords again: the Shuffle card shares a word with the step)
_SHUFFLES = frozenset(dict(shuffle=True, remove_random=True))
_REMOVE_RANDOM = "remove_random"


def reads_pile(count) -> bool:
    """Whether a step's count may look at the draw pile: it names anything but
    ``players`` (``pile``, ``draw_pile``) or calls a primitive. Other counts (numbers,
    ``players``, ``rules.NAME``) come out the same in every game of one Game."""
    if count is None or isinstance(count, (int, tuple)):
        return False
    return any(isinstance(node, s.Call) or (isinstance(node, s.Name) and node.id != "players")
               for node in s.walk(count))
