"""Issue 27's examples under every kind of player: PettingZoo's api_test and OpenSpiel's
random_sim_test on the scoring, free-action, end-of-turn and comeback examples, and the
search player playing them to the end."""

from __future__ import annotations

import warnings

import pytest

from kittens import Game, load_edition, make_players, play_game

EXAMPLES = {**{name: f"examples/house-rules/{name}.yaml"
               for name in ("most_cats", "partner_gifts", "hand_limit", "under_pressure", "bluff",
                            "ghosts", "pickpockets", "bodyguard", "nine_lives", "inheritance")},
            "zombie_kittens": "examples/expansions/zombie_kittens.yaml"}


@pytest.mark.parametrize("name", EXAMPLES)
def test_pettingzoos_api_test_passes_on_the_example(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from kittens.adapters.pettingzoo import aec_env
    env = aec_env(EXAMPLES[name], 4, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=150)


@pytest.mark.parametrize("name", EXAMPLES)
def test_openspiels_random_simulation_passes_on_the_example(name):
    pyspiel = pytest.importorskip("pyspiel")
    import kittens.openspiel as kos
    game = pyspiel.load_game(kos.SHORT_NAME, {"rules": EXAMPLES[name], "players": 4, "variant": ""})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_search_player_plays_the_example_to_the_end(name):
    game = Game(load_edition(EXAMPLES[name]), 4)
    specs = ["ismcts:iterations=4", "heuristic", "random", "ismcts:iterations=2:rollout=random"]
    state = play_game(game, 5, make_players(specs, 4, 5), record=True)
    assert state.is_terminal() and state.winners


def test_the_free_action_is_in_the_action_catalogue_and_the_mask():
    from kittens.interpreter.engine.encoding import ActionCatalogue
    edition = load_edition(EXAMPLES["partner_gifts"])
    catalogue = ActionCatalogue(edition)
    state = Game(edition, 4).new_state(3)
    while state.current_player() != 0 or "act gift" not in state.legal_actions():
        state.apply_action(state.legal_actions()[0])
    mask = catalogue.mask(state.decision())
    assert mask[catalogue.index("act gift")] == 1
    state.apply_action("act gift")  # the partner is the only teammate: nobody is asked who
    state.apply_action(state.legal_actions()[0])  # the card given
    assert "act gift" not in state.legal_actions()  # once per turn
