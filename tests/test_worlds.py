"""Worlds the rules allow (engine/worlds.py): a resampled world keeps the seat's
information state, never puts a card where the rules never leave it, plays out like
a real game, and depends only on what the seat can see."""

from __future__ import annotations

import random
import statistics

import pytest

from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.views import SearchView
from kittens.interpreter.engine.worlds import place_rules
from kittens.interpreter.lang.machine import below
from kittens.interpreter.rules.catalog import catalog, shipped_editions
from kittens.interpreter.rules.load import load_edition


def _editions():
    """Every shipped edition (no variants), at four players or as close as it allows."""
    for entry in catalog([shipped_editions()]):
        if entry.get("variant"):
            continue
        edition = load_edition(entry["path"])
        lo, hi = edition.players
        yield entry["id"], Game(edition, min(max(4, lo), hi))


EDITIONS = list(_editions())
IDS = [name for name, _game in EDITIONS]


def _random_game(state, rng, limit: int = 3000) -> int:
    """Play ``state`` on with uniform options; the turns it lasted."""
    steps = 0
    while not state.is_terminal() and steps < limit:
        options = state.legal_actions()
        state.apply_action(options[below(rng, len(options))])
        steps += 1
    return state.table.turn


def _positions(game, seed: int, count: int, record: bool = True):
    """States of a random game at decisions with several options, with the deciding seat."""
    rng = random.Random(seed)
    state = game.new_state(seed, record=record)
    found = []
    while not state.is_terminal() and len(found) < count:
        decision = state.decision()
        if len(decision.options) > 1 and rng.random() < 0.25:
            found.append((state.clone(), decision.seat))
        state.apply_action(rng.choice(decision.options))
    return found


def _faces(state) -> list:
    return [(zone.name, [(inst.id, inst.uid) for inst in zone.cards]) for zone in state.table.zones()]


def test_the_original_never_deals_a_kitten_into_a_hand_at_the_opening():
    game = Game(load_edition("original"), 4)
    assert "exploding_kitten" in place_rules(game).never_in_hands()  # learnt by playing, named nowhere
    state = game.new_state(3, record=False)
    kittens = uniform = 0
    for index in range(1000):
        world = state.resample_from_view(0, random.Random(index), record=False)
        kittens += any(inst.id == "exploding_kitten" for hand in world.table.hands for inst in hand.cards)
        if index < 100:
            free = state.resample_from_view(0, random.Random(index), record=False, uniform=True)
            uniform += any(inst.id == "exploding_kitten" for hand in free.table.hands for inst in hand.cards)
    assert kittens == 0
    assert uniform > 50  # the uniform deal does put them there: the check can fail


@pytest.mark.parametrize("name, game", EDITIONS, ids=IDS)
def test_no_world_puts_a_title_where_the_rules_never_leave_it(name, game):
    rules = place_rules(game)
    never = rules.never_in_hands()
    for state, seat in _positions(game, 5, 6, record=False):
        for index in range(20):
            world = state.resample_from_view(seat, random.Random(index), record=False)
            bit = 1 << seat
            for zone in world.table.zones():
                for inst in zone.cards:
                    if not inst.known & bit and not inst.face_up:
                        assert inst.id not in never or zone.kind != "hand" or \
                            state.table.cards[inst.uid].zone.kind == "hand", (name, inst, zone)


@pytest.mark.parametrize("name, game", EDITIONS, ids=IDS)
def test_a_worlds_hands_count_the_cards_that_can_answer_as_they_hold_them(name, game):
    # a window asks only the hands that count a Nope: a stale count after a deal asks the
    # wrong seats (the search then plays worlds whose answers cannot happen)
    for state, seat in _positions(game, 5, 6, record=False):
        for index in range(10):
            world = state.resample_from_view(seat, random.Random(index), record=False)
            for zone in world.table.zones():
                assert zone.reactive == sum(inst.id in game.reactive for inst in zone.cards), (name, zone)


@pytest.mark.parametrize("name, game", EDITIONS, ids=IDS)
def test_every_world_gives_the_seat_the_same_information_state(name, game):
    for state, seat in _positions(game, 9, 4):
        seen = state.information_state_string(seat)
        for index in range(3):
            world = state.resample_from_view(seat, random.Random(index))
            assert world.information_state_string(seat) == seen
        # a search view deals from a world of its own: its worlds keep the same information state
        world = SearchView(state, seat).resample(random.Random(7))
        assert world.information_state_string(seat) == seen


@pytest.mark.parametrize("name, game", EDITIONS, ids=IDS)
def test_equal_views_resample_alike(name, game):
    for state, seat in _positions(game, 13, 4, record=False):
        other = state.resample_from_view(seat, random.Random(99))  # same view, other hidden cards
        assert other.view(seat).to_dict() == state.view(seat).to_dict()
        for index in range(3):
            assert _faces(state.resample_from_view(seat, random.Random(index))) == \
                _faces(other.resample_from_view(seat, random.Random(index)))


@pytest.mark.parametrize("name, game", EDITIONS, ids=IDS)
def test_games_played_on_from_worlds_last_as_long_as_real_games(name, game):
    """Random games from worlds dealt at the opening last as long, on average, as random
    games from real deals (within 10%); uniformly dealt worlds in the editions with
    titles kept out of hands last far longer (kittens stuck in hands never come out)."""
    games = 120
    real = statistics.fmean(_random_game(game.new_state(seed, record=False), random.Random(seed))
                            for seed in range(games))
    opening = game.new_state(10_000, record=False)
    seat = opening.decision().seat
    dealt = statistics.fmean(_random_game(opening.resample_from_view(seat, random.Random(i), record=False),
                                          random.Random(i)) for i in range(games))
    assert abs(dealt - real) <= 0.1 * real, (real, dealt)
    if place_rules(game).never_in_hands():
        free = statistics.fmean(_random_game(opening.resample_from_view(seat, random.Random(i), record=False,
                                                                        uniform=True), random.Random(i))
                                for i in range(20))
        assert free > 1.5 * real, (real, free)
