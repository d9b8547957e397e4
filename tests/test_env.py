"""kittens as a PettingZoo environment: PettingZoo's own api_test on every shipped edition,
expansion and variant, action masks that match the engine, observations of a fixed size."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")  # kittens-engine[rl]; the test extra installs it

from pettingzoo.test import api_test  # noqa: E402

from kittens.adapters.pettingzoo import aec_env, raw_env  # noqa: E402
from kittens.interpreter.rules.catalog import catalog, shipped_editions  # noqa: E402
from kittens.interpreter.rules.load import load_edition  # noqa: E402

PLAYABLES = [(entry["id"] + (f"-{entry['variant']}" if entry.get("variant") else ""), entry)
             for entry in catalog([shipped_editions()])]


def _players(entry, pick=None):
    lo, hi = load_edition(entry["path"], entry.get("variant")).players
    return pick(lo, hi) if pick else min(max(4, lo), hi)


@pytest.mark.parametrize("label, entry", PLAYABLES, ids=[p[0] for p in PLAYABLES])
def test_pettingzoos_api_test_passes(label, entry):
    env = aec_env(entry["path"], _players(entry), variant=entry.get("variant"), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about Dict observations, as for PettingZoo's own card games
        api_test(env, num_cycles=150)


def test_observations_have_one_size_per_edition_whatever_the_table():
    entry = next(entry for label, entry in PLAYABLES if label == "party")
    sizes = set()
    for players in (2, 5, 10):
        env = raw_env(entry["path"], players)
        env.reset(seed=1)
        observation = env.observe(env.agent_selection)["observation"]
        sizes.add(observation.shape)
        assert env.observation_space(env.agent_selection)["observation"].shape == observation.shape
    assert len(sizes) == 1


def test_the_mask_marks_exactly_the_engines_options_and_illegal_actions_are_refused():
    env = raw_env("imploding", 4)
    env.reset(seed=3)
    rng = random.Random(0)
    steps = 0
    while env.agents and not all(env.terminations.values()) and steps < 400:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        decision = env.state.decision()
        legal = sorted(env.catalogue.index(option) for option in decision.options)
        assert list(np.flatnonzero(mask)) == legal and decision.seat == int(agent.split("_")[1])
        illegal = next(index for index in range(env.catalogue.size) if not mask[index])
        with pytest.raises(ValueError, match="not legal"):
            env.step(illegal)
        env.step(rng.choice(legal))
        steps += 1
    assert steps > 10


def test_the_game_is_paid_at_the_end_and_seeded():
    def play(seed):
        env = aec_env("original", 3)
        env.reset(seed=seed)
        trace, paid = [], {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            paid[agent] = paid.get(agent, 0.0) + reward
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            trace.append(int(legal[0]))
            env.step(int(legal[0]))
        return trace, paid

    first, paid = play(5)
    assert play(5)[0] == first and play(6)[0] != first
    assert sorted(paid.values()) == [0.0, 0.0, 1.0]


def test_render_shows_the_acting_seats_view_only():
    env = raw_env("original", 4, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    seat = env.state.decision().seat
    assert f"player_{seat} decides" in text and "draw pile" in text
    for other in range(4):
        if other != seat:  # other hands appear only as counts
            assert f"seat {other}: {env.state.view(seat).hand_count(other)} cards" in text


def _leaks(env, observe, games: int = 3) -> int:
    """How often ``observe(env, agent)`` told a seat apart from a world its seat cannot tell
    from the real game (the hidden cards dealt afresh: other hands, the unseen order of the
    pile, so also who holds a Nope), over a few random games; 0 means it leaked nothing."""
    rng, leaks, compared = random.Random(4), 0, 0
    for game in range(games):
        env.reset(seed=game)
        while env.agents and not any(env.terminations.values()) and not any(env.truncations.values()):
            real = env.state
            for agent in env.possible_agents:
                seat = int(agent.split("_")[1])
                seen = observe(env, agent)
                env.state = real.resample_from_view(seat, random.Random(rng.random()))
                other = observe(env, agent)
                env.state = real
                leaks += any(not np.array_equal(seen[key], other[key]) for key in seen)
                compared += 1
            env.step(rng.choice(list(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert compared > 100
    return leaks


@pytest.mark.parametrize("name", ["original", "imploding", "streaking", "barking"])
def test_an_observation_tells_a_seat_nothing_it_may_not_know(name):
    env = raw_env(name, 4, render_mode="ansi")

    def observe(env, agent):
        seen = env.observe(agent)
        if env.agent_selection == agent:  # the acting seat's text is its to see
            seen["text"] = np.array([env.render()])
        return seen

    assert _leaks(env, observe) == 0


def test_that_check_catches_an_observation_that_leaks():
    """The check above can fail: an observation that counts the next seat's cards of one
    title (a Nope, say) differs between worlds the seat cannot tell apart."""
    env = raw_env("original", 4)
    column = env.encoder.column["nope"]

    def leaky(env, agent):
        seen = env.observe(agent)
        nxt = (int(agent.split("_")[1]) + 1) % 4
        seen["observation"][column] += 10 * sum(inst.id == "nope" for inst in env.state.table.hands[nxt].cards)
        return seen

    assert _leaks(env, leaky, games=1) > 0
