"""Invariants over many seeded random games of the Original at 2 to 5 players.

* cards are conserved: every card is in exactly one zone at every step;
* every game ends, with a winner, well inside the turn limit;
* no view holds a card its seat may not know: an observer rebuilt from that
  seat's own event stream (nothing else) must support every card the view
  shows, in the pile and in other hands;
* the same seed and decisions give the same log.

``KITTENS_FUZZ_SCALE`` multiplies the number of games (default 1).
"""

import os
import random
from collections import Counter

import pytest

from kittens.interpreter.bots import HeuristicBot, RandomBot
from kittens.interpreter.events import dumps, for_seat
from kittens.interpreter.game import TURN_LIMIT, Game
from kittens.interpreter.simulate import play_game
from kittens.interpreter.validate import load_edition

from conftest import ROOT

SCALE = float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))
EDITION = load_edition(str(ROOT / "editions" / "original.yaml"))
GAMES = {players: Game(EDITION, players) for players in range(2, 6)}


def _random_game(game, seed, each_step):
    state = game.new_state(seed)
    rng = random.Random(seed)
    each_step(state)
    while not state.is_terminal():
        options = state.legal_actions()
        state.apply_action(options[rng.randrange(len(options))])
        each_step(state)
    return state


# -- cards are conserved, every game ends ---------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_cards_conserved_and_every_game_ends(players):
    game = GAMES[players]
    total = sum(game.deck.values())

    def conserved(state):
        zones = state.table.zones()
        seen = Counter()
        for zone in zones:
            for inst in zone.cards:
                assert inst.zone is zone, f"{inst} is listed in {zone.name} but thinks it is in {inst.zone.name}"
                seen[inst.uid] += 1
        assert sum(seen.values()) == total
        assert max(seen.values()) == 1
        assert sum(state.table.alive) >= 1

    for seed in range(int(300 * SCALE)):
        state = _random_game(game, seed, conserved)
        assert state.is_terminal()
        assert state.winner is not None and state.table.alive[state.winner]
        assert sum(state.table.alive) == 1
        assert state.table.turn < TURN_LIMIT


@pytest.mark.parametrize("variant", sorted(EDITION.variants))
def test_variants_conserve_cards_and_end(variant):
    game = Game(EDITION.variants[variant], 4)
    total = sum(game.deck.values())
    for seed in range(int(100 * SCALE)):
        state = _random_game(game, seed, lambda st: None)
        assert sum(len(z.cards) for z in state.table.zones()) == total
        assert state.winner is not None


# -- events and views leak nothing ---------------------------------------------------------
class Observer:
    """What one seat can know, rebuilt only from the events that seat observed.

    The pile is a list of places, each a card id or None (unknown). Other hands
    are multisets of card ids the seat has seen go in and not seen go out.
    """

    def __init__(self, seat, players):
        self.seat = seat
        self.own = f"hand {seat}"
        self.pile = []
        self.hands = {s: Counter() for s in range(players)}

    def feed(self, event):
        kind = event["type"]
        if kind == "zone":
            assert "cards" not in event or event["zone"] not in ("draw_pile",) and (
                not event["zone"].startswith("hand ") or event["zone"] == self.own), (
                f"seat {self.seat} was shown the starting cards of {event['zone']}")
        if kind == "zone" and event["zone"] == "draw_pile":
            self.pile = [None] * event["count"]
        elif kind == "zone" and event["zone"].startswith("hand "):
            self.hands[int(event["zone"][5:])] = Counter(event.get("cards", []))
        elif kind == "move":
            self._move(event)
        elif kind == "shuffled" and event["zone"] == "draw_pile":
            self.pile = [None] * len(self.pile)
            self._face_up(event)
        elif kind == "show" and "cards" in event:
            if event["zone"] == "draw_pile":
                for place, card in zip(event["at"], event["cards"]):
                    self.pile[place] = card
            elif event["zone"].startswith("hand "):
                self._saw_in_hand(event["zone"], event["cards"])
        elif kind == "reveal":
            for card, zone, place in zip(event["cards"], event["zones"], event["at"]):
                if zone == "draw_pile":
                    self.pile[place] = card
            for zone in set(event["zones"]):
                if zone.startswith("hand "):
                    self._saw_in_hand(zone, [c for c, z in zip(event["cards"], event["zones"]) if z == zone])

    def _face_up(self, event):
        """Face-up cards of the pile: anyone can count where they are."""
        for place, card in event.get("face_up_places", {}).items():
            self.pile[int(place)] = card

    def _saw_in_hand(self, zone, cards):
        """Cards shown in a hand. Events name titles, not copies, so the observer cannot
        tell a copy it already counted from a new one: it counts them again. That can
        only make it support more, never less, so the check stays sound."""
        self.hands[int(zone[5:])].update(cards)

    def _move(self, event):
        card = event.get("card")
        source, target = event["from"], event["to"]
        if card is not None:
            self._check_may_see(event, card, source, target)
        if source == "draw_pile":
            assert "from_at" in event, "the place a card leaves the pile from is public"
            self.pile.pop(event["from_at"])
        elif source.startswith("hand "):
            hand = self.hands[int(source[5:])]
            if card is not None and hand[card] > 0:
                hand[card] -= 1
            elif card is None:
                hand.clear()  # a card we could not see left: we lose track of that hand
        if target == "draw_pile":
            if "at" in event:
                self.pile.insert(event["at"], card)
            else:  # put back at a place we do not know: every place is uncertain now
                self.pile = [None] * (len(self.pile) + 1)
                self._face_up(event)
        elif target.startswith("hand ") and card is not None:
            self.hands[int(target[5:])][card] += 1

    def _check_may_see(self, event, card, source, target):
        """A card named in a move must be one this seat could already tell apart."""
        if self.own in (source, target) or event.get("face_up"):
            return
        if not source.startswith("hand ") and source != "draw_pile":
            return  # it came out of a public zone
        if target in ("discard_pile", "removed", "set_aside"):
            return  # it lands face up for all to see
        if source == "draw_pile":
            assert self.pile[event["from_at"]] == card, (
                f"seat {self.seat} was told a card from place {event['from_at']} of the pile "
                f"is {card}, which it never saw")
        else:
            assert self.hands[int(source[5:])][card] > 0, (
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
        assert len(observer.pile) == len(table.draw_pile.cards)
        for place, card in view.draw_pile_known().items():
            assert observer.pile[place] == card, (
                f"seat {observer.seat}'s view knows {card} at place {place} of the pile, "
                f"but its events only support {observer.pile[place]}")
            assert table.draw_pile.cards[place].id == card  # and it is true
        for other in range(table.players):
            if other == observer.seat:
                assert Counter(view.hand) == Counter(c.id for c in table.hands[other].cards)
                continue
            shown = Counter(view.known_in_hand(other))
            assert not shown - observer.hands[other], (
                f"seat {observer.seat}'s view shows {dict(shown)} in hand {other}, "
                f"but its events only support {dict(observer.hands[other])}")
            assert not shown - Counter(c.id for c in table.hands[other].cards)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_view_holds_what_its_seat_may_not_know(players):
    game = GAMES[players]
    for seed in range(int(120 * SCALE)):
        observers = [Observer(seat, players) for seat in range(players)]
        cursor = [0]
        _random_game(game, 1000 + seed, lambda state: _check_views(state, observers, cursor))


def test_heuristic_bots_games_leak_nothing_either():
    game = GAMES[4]
    for seed in range(int(40 * SCALE)):
        observers = [Observer(seat, 4) for seat in range(4)]
        cursor = [0]
        bots = [HeuristicBot(seed, s) if s % 2 else RandomBot(seed, s) for s in range(4)]
        state = game.new_state(seed)
        for seat, bot in enumerate(bots):
            getattr(bot, "start", lambda g, s: None)(game, seat)
        while not state.is_terminal():
            _check_views(state, observers, cursor)
            decision = state.decision()
            state.apply_action(bots[decision.seat].choose(state.view(decision.seat), decision))
        assert state.winner is not None


def test_observer_catches_a_leaking_event():
    """An event that told everyone which card another seat drew would be caught."""
    game = GAMES[3]
    state = game.new_state(4)
    state.apply_action("draw")  # seat 0 draws
    drawn = next(e for e in reversed(state.events) if e["type"] == "move")
    del drawn["secret"]
    with pytest.raises(AssertionError, match="never saw"):
        _check_views(state, [Observer(1, 3)], [0])


def test_observer_catches_a_leak():
    """The checker above can fail: a view that knew the whole pile would be caught."""
    game = GAMES[3]
    state = game.new_state(4)
    observers = [Observer(seat, 3) for seat in range(3)]
    for inst in state.table.draw_pile.cards:
        inst.known |= 1  # seat 0 suddenly "knows" every place
    with pytest.raises(AssertionError, match="only support"):
        _check_views(state, observers, [0])


# -- reproducibility ------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 5])
def test_same_seed_same_log(players):
    game = GAMES[players]
    for seed in range(int(100 * SCALE)):
        logs = []
        for _ in range(2):
            state = play_game(game, seed, [RandomBot(seed, s) for s in range(players)])
            logs.append([dumps(e) for e in state.events])
        assert logs[0] == logs[1]
    first = play_game(game, 1, [RandomBot(1, s) for s in range(players)])
    second = play_game(game, 2, [RandomBot(2, s) for s in range(players)])
    assert [dumps(e) for e in first.events] != [dumps(e) for e in second.events]


# -- any sequence of decisions keeps the game sound (hypothesis shrinks failures) --
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=int(80 * SCALE), deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32),
       picks=st.lists(st.integers(0, 10_000), max_size=300))
def test_any_decisions_keep_cards_conserved_and_the_game_ending(players, seed, picks):
    """Decisions come from a list hypothesis writes (then always the first option,
    which is `draw` on a turn and `pass` in a window), so a failure shrinks to the
    shortest list of choices that breaks the game."""
    game = GAMES[players]
    total = sum(game.deck.values())
    state = game.new_state(seed)
    choices = iter(picks)
    while not state.is_terminal():
        options = state.legal_actions()
        state.apply_action(options[next(choices, 0) % len(options)])
        assert sum(len(z.cards) for z in state.table.zones()) == total
    assert state.winner is not None and sum(state.table.alive) == 1
