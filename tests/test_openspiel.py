"""kittens as an OpenSpiel game: OpenSpiel's own random simulation test on every shipped
edition, expansion and variant, and OpenSpiel's own ISMCTS bot playing whole games
against ours, searching worlds dealt through resample_from_infostate."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # kittens-engine[rl]; the test extra installs it

import kittens.openspiel as kos  # noqa: E402  (registers python_kittens)
from kittens.interpreter.rules.catalog import catalog, shipped_editions  # noqa: E402
from kittens.interpreter.rules.load import load_edition  # noqa: E402

PLAYABLES = [(entry["id"] + (f"-{entry['variant']}" if entry.get("variant") else ""), entry)
             for entry in catalog([shipped_editions()])]


def _load(entry, players=None, **extra):
    lo, hi = load_edition(entry["path"], entry.get("variant")).players
    params = {"rules": entry["path"], "players": players or min(max(4, lo), hi),
              "variant": entry.get("variant") or "", **extra}
    return pyspiel.load_game(kos.SHORT_NAME, params)


@pytest.mark.parametrize("label, entry", PLAYABLES, ids=[p[0] for p in PLAYABLES])
def test_openspiels_random_simulation_test_passes(label, entry):
    pyspiel.random_sim_test(_load(entry), num_sims=2, serialize=False, verbose=False)


def test_random_simulation_with_serialization_and_at_the_largest_tables():
    original = next(entry for label, entry in PLAYABLES if label == "original")
    pyspiel.random_sim_test(_load(original), num_sims=2, serialize=True, verbose=False)
    party = next(entry for label, entry in PLAYABLES if label == "party")
    pyspiel.random_sim_test(_load(party, players=10), num_sims=1, serialize=False, verbose=False)


def test_loading_by_name_with_parameters():
    game = pyspiel.load_game("python_kittens", {"rules": "original", "players": 3, "with": "imploding"})
    assert game.num_players() == 3
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(17)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0
    assert "imploding_kitten" in game.rules.edition.cards


def test_a_resampled_world_looks_the_same_to_the_player():
    game = pyspiel.load_game("python_kittens", {"rules": "original", "players": 4})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(60):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.observation_tensor(player) == state.observation_tensor(player)
    assert world.legal_actions() == state.legal_actions()
    assert str(world) != str(state)  # other hidden cards
    for other in range(4):  # and the observer shows no other seat's hand
        if other != player:
            assert world.observation_string(other) != state.observation_string(other) or \
                not state.engine.state.table.hands[player].cards


def test_openspiels_ismcts_bot_plays_whole_games_against_ours():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_kittens", {"rules": "original", "players": 3})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    theirs = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rng,
                              use_observation_string=True)
    for number in range(2):
        theirs_at = (2 * number) % 3  # their bot sits elsewhere each game
        ours = iter(["heuristic", "ismcts:iterations=3"])
        order = [theirs if seat == theirs_at else kos.KittensBot(game, seat, next(ours), number)
                 for seat in range(3)]
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            bot = order[state.current_player()]
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        assert moves > 5 and sorted(state.returns()) == [0.0, 0.0, 1.0]


def test_a_kittens_bot_refuses_another_seats_decision():
    game = pyspiel.load_game("python_kittens", {"rules": "original", "players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    other = (state.current_player() + 1) % 3
    with pytest.raises(ValueError, match="one bot per seat"):
        kos.KittensBot(game, other, "heuristic").step(state)


def _random_playout(state, rng, limit: int = 20_000) -> int:
    """Play an OpenSpiel state on with uniform actions and chance; the engine's turns."""
    steps = 0
    while not state.is_terminal() and steps < limit:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    return state.engine.state.table.turn


def test_rollouts_from_resampled_infostates_end_like_real_games():
    """What OpenSpiel's ISMCTS rolls out: worlds from resample_from_infostate, played on
    at random, last as long as random games from real deals (they ran to the turn limit
    when kittens were dealt into hands)."""
    game = pyspiel.load_game("python_kittens", {"rules": "original", "players": 4})
    rng = np.random.RandomState(1)
    real = [_random_playout(game.new_initial_state(), rng) for _ in range(60)]
    opening = game.new_initial_state()
    opening.apply_action(7)  # the deal
    while opening.is_chance_node():
        opening.apply_action(opening.chance_outcomes()[0][0])
    player = opening.current_player()
    dealt = [_random_playout(opening.resample_from_infostate(player, rng.random_sample), rng)
             for _ in range(60)]
    assert all(state_turns < 400 for state_turns in dealt)
    assert abs(np.mean(dealt) - np.mean(real)) <= 0.1 * np.mean(real), (np.mean(real), np.mean(dealt))


def test_openspiels_ismcts_beats_random_players():
    """OpenSpiel's own ISMCTS, on worlds the rules allow, wins more than half of 40
    two-player games against a uniformly random player (seats alternated)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_kittens", {"rules": "two_player", "players": 2})
    rng = np.random.RandomState(0)
    wins = 0
    for number in range(40):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        theirs = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng,
                                  use_observation_string=True)
        # worlds dealt from the test's generator (OpenSpiel's own sampler is seeded afresh)
        theirs.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random_sample))
        seat = number % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == seat:
                state.apply_action(theirs.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[seat]
    assert wins >= 24, wins  # a random player wins half
