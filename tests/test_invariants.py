"""Invariants over many seeded random games of the Original at 2 to 5 players.

* cards are conserved: every card is in exactly one zone at every step;
* every game ends, with a winner, well inside the turn limit;
* no view holds a card its seat may not know: an observer rebuilt from that
  seat's own event stream (nothing else; the observer lives in
  test_editions.py) must support every card the view shows, in the pile and
  in other hands;
* the same seed and decisions give the same log.

``KITTENS_FUZZ_SCALE`` multiplies the number of games (default 1).
"""

import os
import random
from collections import Counter

import pytest
from conftest import ROOT
from test_editions import Observer, _check_views

from kittens.interpreter.engine.bots import HeuristicBot, RandomBot
from kittens.interpreter.engine.game import TURN_LIMIT, Game
from kittens.interpreter.engine.logwriter import dumps
from kittens.interpreter.engine.simulate import play_game
from kittens.interpreter.rules.load import load_edition

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
# The observer (rebuilt only from a seat's own events) is the one every edition uses.


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_view_holds_what_its_seat_may_not_know(players):
    game = GAMES[players]
    for seed in range(int(120 * SCALE)):
        observers, cursor = [], [0]

        def check(state):
            if not observers:  # the observers read the cards' kinds from the table
                observers.extend(Observer(seat, state.table) for seat in range(players))
            _check_views(state, observers, cursor)
        _random_game(game, 1000 + seed, check)


def test_heuristic_bots_games_leak_nothing_either():
    game = GAMES[4]
    for seed in range(int(40 * SCALE)):
        cursor = [0]
        bots = [HeuristicBot(seed, s) if s % 2 else RandomBot(seed, s) for s in range(4)]
        state = game.new_state(seed)
        observers = [Observer(seat, state.table) for seat in range(4)]
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
        _check_views(state, [Observer(1, state.table)], [0])


def test_observer_catches_a_leak():
    """The checker above can fail: a view that knew the whole pile would be caught."""
    game = GAMES[3]
    state = game.new_state(4)
    observers = [Observer(seat, state.table) for seat in range(3)]
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
