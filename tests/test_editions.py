"""Invariants for every shipped edition, expansion and variant, at every allowed player count.

* cards are conserved at every step, and every game ends with one winner;
* the heuristic bots finish games too;
* no view and no event tells a seat what it may not know: an observer rebuilt
  from that seat's own events must support every card its view shows, in the
  draw pile, in hidden zones (stashes, cards face down in front of players) and
  in other hands.

The Original alone is covered more deeply by test_invariants.py; this file is
about breadth. ``KITTENS_FUZZ_SCALE`` multiplies the number of games.
"""

import os
import random
from collections import Counter

import pytest
from conftest import ROOT

from kittens.interpreter.engine.bots import HeuristicBot, RandomBot
from kittens.interpreter.engine.events import for_seat
from kittens.interpreter.engine.game import TURN_LIMIT, Game
from kittens.interpreter.engine.table import HAND, PILE
from kittens.interpreter.rules.catalog import catalog
from kittens.interpreter.rules.load import load_edition

SCALE = float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))
#: the shipped editions, and the example house rules (rules-as-data written by designers)
FOLDERS = {"editions": ROOT / "editions", "examples": ROOT / "examples" / "house-rules",
           "package": ROOT / "examples" / "expansion-package" / "space_cats"}
ENTRIES = [dict(e, folder=name) for name, folder in FOLDERS.items() for e in catalog([str(folder)])
           if e["kind"] in ("edition", "expansion", "variant")]
_COMPILED: dict = {}


def _edition(entry):
    key = (entry["path"], entry.get("variant"))
    if key not in _COMPILED:
        _COMPILED[key] = load_edition(str(FOLDERS[entry["folder"]] / os.path.basename(entry["path"])),
                                      entry.get("variant"))
    return _COMPILED[key]


CASES = [pytest.param(entry, players, id=f"{entry['folder'] + '/' if entry['folder'] != 'editions' else ''}"
                      f"{os.path.basename(entry['path'])[:-5]}"
                      f"{':' + entry['variant'] if entry.get('variant') else ''}-{players}p")
         for entry in ENTRIES for players in range(entry["players"][0], entry["players"][1] + 1)]


def test_every_shipped_edition_is_listed():
    kinds = Counter(entry["kind"] for entry in ENTRIES)
    assert kinds["edition"] >= 1 and not any(entry.get("errors") for entry in ENTRIES)


def _random_game(game, seed, each_step):
    state = game.new_state(seed)
    rng = random.Random(seed)
    each_step(state)
    while not state.is_terminal():
        options = state.legal_actions()
        state.apply_action(options[rng.randrange(len(options))])
        each_step(state)
    return state


@pytest.mark.parametrize("entry, players", CASES)
def test_cards_conserved_and_games_end_with_a_winner(entry, players):
    game = Game(_edition(entry), players)
    total = sum(game.deck.values())

    def conserved(state):
        seen = Counter()
        for zone in state.table.zones():
            for inst in zone.cards:
                assert inst.zone is zone
                seen[inst.uid] += 1
        assert sum(seen.values()) == total and max(seen.values()) == 1

    for seed in range(int(12 * SCALE)):
        state = _random_game(game, seed, conserved)
        alive = {seat for seat, playing in enumerate(state.table.alive) if playing}
        reason = state.events[-1]["reason"]
        assert state.winner in alive and state.winner in state.winners, state.events[-3:]
        if reason == "last_standing":
            assert alive == {state.winner}, state.events[-3:]
        elif reason == "last_team_standing":  # nobody of another team is left
            assert alive <= set(state.winners), state.events[-3:]
        else:  # a card or a check said who wins
            assert reason == "won" and state.winners == (state.winner,), state.events[-3:]
        assert state.table.turn < TURN_LIMIT


@pytest.mark.parametrize("entry, players", CASES)
def test_heuristic_bots_finish_games(entry, players):
    game = Game(_edition(entry), players)
    for seed in range(int(6 * SCALE)):
        bots = [HeuristicBot(seed, s) if s % 2 == 0 else RandomBot(seed, s) for s in range(players)]
        for seat, bot in enumerate(bots):
            getattr(bot, "start", lambda g, s: None)(game, seat)
        state = game.new_state(seed, record=False)
        while not state.is_terminal():
            decision = state.decision()
            state.apply_action(bots[decision.seat].choose(state.view(decision.seat), decision))
        assert state.winner is not None


class Observer:
    """What one seat can know, rebuilt only from the events that seat observed.

    Hidden ordered zones (the draw pile, stashes, cards face down before a
    player) are lists of places holding a card id or None; other hands are
    multisets of the card ids seen going in and not seen going out.
    """

    def __init__(self, seat, table):
        self.seat = seat
        # cards whose backs give them away stay in sight in any hand
        self.marked = {inst.id for inst in table.cards if inst.card.back_distinct}
        self.own = f"hand {seat}"
        self.piles = {zone.name: [] for zone in table.zones() if zone.kind == PILE}
        self.hands = {zone.name: Counter() for zone in table.zones() if zone.kind == HAND}
        self.face_up = {name: Counter() for name in self.hands}  # cards turned face up in a hand

    def feed(self, event):
        kind = event["type"]
        if kind == "zone" and event["zone"] in self.piles:
            assert "cards" not in event, f"seat {self.seat} was shown the cards of {event['zone']}"
            self.piles[event["zone"]] = [None] * event["count"]
        elif kind == "zone" and event["zone"] in self.hands:
            assert "cards" not in event or event["zone"] == self.own, \
                f"seat {self.seat} was shown the starting cards of {event['zone']}"
            self.hands[event["zone"]] = Counter(event.get("cards", []))
        elif kind == "move":
            self._move(event)
        elif kind == "shuffled" and event["zone"] in self.piles:
            self.piles[event["zone"]] = [None] * len(self.piles[event["zone"]])
            self._face_up(event["zone"], event)
        elif kind == "shuffled" and event["zone"] in self.hands:  # only face-up cards stay in sight
            shown = Counter(event.get("face_up_places", {}).values())
            self.face_up[event["zone"]] = shown
            if event["zone"] != self.own:
                kept = Counter({c: n for c, n in self.hands[event["zone"]].items() if c in self.marked})
                self.hands[event["zone"]] = shown + kept
        elif kind == "show" and "cards" in event:
            self._saw(event["cards"], [event["zone"]] * len(event["cards"]), event["at"])
        elif kind == "reveal":
            self._saw(event["cards"], event["zones"], event["at"])
        elif kind == "rearranged" and event["zone"] in self.piles:
            pile = self.piles[event["zone"]]
            for index, place in enumerate(event["at"]):
                pile[place] = event["cards"][index] if "cards" in event else None
            self._face_up(event["zone"], event)

    def _saw(self, cards, zones, places):
        for card, zone, place in zip(cards, zones, places):
            if zone in self.piles and place is not None:
                self.piles[zone][place] = card
            elif zone in self.hands:
                self.hands[zone][card] += 1  # may count a copy twice: only ever supports more

    def _face_up(self, zone, event):
        for place, card in event.get("face_up_places", {}).items():
            self.piles[zone][int(place)] = card

    def _move(self, event):
        card, source, target = event.get("card"), event["from"], event["to"]
        if card is not None:
            self._check_may_see(event, card, source, target)
        if source in self.piles:
            assert "from_at" in event, "the place a card leaves a pile from is public"
            self.piles[source].pop(event["from_at"])
        elif source in self.hands:
            hand, shown = self.hands[source], self.face_up[source]
            if card is not None and event.get("from_face_up"):
                hand[card] -= 1
                shown[card] -= 1
            elif card is not None and hand[card] > 0:
                hand[card] = max(hand[card] - 1, shown[card])  # face-up copies stay
            elif card is None:
                for card_id in list(hand):
                    if card_id not in self.marked:
                        hand[card_id] = shown[card_id]  # only face-up cards stay in sight
        if target in self.piles:
            if "at" in event:
                self.piles[target].insert(event["at"], card)
            else:
                self.piles[target] = [None] * (len(self.piles[target]) + 1)
                self._face_up(target, event)
        elif target in self.hands and card is not None:
            self.hands[target][card] += 1
            if event.get("face_up"):
                self.face_up[target][card] += 1

    def _check_may_see(self, event, card, source, target):
        if self.own in (source, target) or event.get("face_up"):
            return
        if source not in self.piles and source not in self.hands:
            return  # out of a public zone
        if target not in self.piles and target not in self.hands:
            return  # into a public zone: everyone sees it land
        if source in self.piles:
            assert self.piles[source][event["from_at"]] == card, (
                f"seat {self.seat} was told the card at place {event['from_at']} of {source} "
                f"is {card}, which it never saw")
        else:
            assert self.hands[source][card] > 0, (
                f"seat {self.seat} was told {source} gave away {card}, which it never saw there")


def _check_views(state, observers, cursor):
    events = state.events
    for index in range(cursor[0], len(events)):
        for observer in observers:
            seen = for_seat(events[index], observer.seat)
            if seen is not None:
                observer.feed(seen)
    cursor[0] = len(events)
    table = state.table
    for observer in observers:
        view = state.view(observer.seat)
        piles = {"draw_pile": view.draw_pile_known()}
        piles.update({name: view.zone(name)["known"] for name, zone in table.extra.items()
                      if zone.kind == PILE})
        piles.update({zones[seat].name: view.zone(name, seat)["known"]
                      for name, zones in table.areas.items() for seat in range(table.players)
                      if zones[seat].kind == PILE})
        for name, known in piles.items():
            assert len(observer.piles[name]) == sum(len(z.cards) for z in table.zones() if z.name == name)
            zone = next(z for z in table.zones() if z.name == name)
            for place, card in known.items():
                assert observer.piles[name][place] == card, (
                    f"seat {observer.seat}'s view knows {card} at place {place} of {name}, "
                    f"but its events only support {observer.piles[name][place]}")
                assert zone.cards[place].id == card  # and it is true
        for other in range(table.players):
            actual = Counter(c.id for c in table.hands[other].cards)
            if other == observer.seat:
                assert Counter(view.hand) == actual
                continue
            shown = Counter(view.known_in_hand(other))
            assert not shown - observer.hands[f"hand {other}"], (
                f"seat {observer.seat}'s view shows {dict(shown)} in hand {other}, "
                f"but its events only support {dict(observer.hands[f'hand {other}'])}")
            assert not shown - actual


@pytest.mark.parametrize("entry, players", CASES)
def test_no_view_or_event_tells_a_seat_what_it_may_not_know(entry, players):
    game = Game(_edition(entry), players)
    for seed in range(int(4 * SCALE)):
        state = game.new_state(500 + seed)
        assert state.table.cards, "the observer reads the cards' kinds from the table"
        observers = [Observer(seat, state.table) for seat in range(players)]
        cursor = [0]
        rng = random.Random(seed)
        _check_views(state, observers, cursor)
        while not state.is_terminal():
            options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])
            _check_views(state, observers, cursor)
