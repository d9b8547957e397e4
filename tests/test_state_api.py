"""The state as OpenSpiel would use it, tried on every shipped edition, expansion and variant.

In the manner of OpenSpiel's ``random_sim_test``: random games played with
chance resolved by the caller, and at every step the calls a search or a
learning library makes (current player, legal actions, chance outcomes,
returns, observations) must agree with each other; a clone must go on exactly
as the original, and a serialised state must play back to the same one.
``resample_from_view`` must deal worlds the seat cannot tell from the real
one, and only from what the seat knows.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from kittens.interpreter.engine.decisions import CHANCE, TERMINAL
from kittens.interpreter.engine.game import Game, GameError, deserialize_state
from kittens.interpreter.rules.catalog import catalog, shipped_editions
from kittens.interpreter.rules.load import load_edition


def _playables():
    """(label, edition) for every shipped edition, expansion on its base, and variant."""
    for entry in catalog([shipped_editions()]):
        edition = load_edition(entry["path"], entry.get("variant"))
        yield f"{entry['id']}" + (f"-{entry['variant']}" if entry.get("variant") else ""), edition


PLAYABLES = list(_playables())


def layout(state) -> list:
    """Every zone's cards, top first: the whole physical state of the table."""
    return [(zone.name, [inst.id for inst in zone.cards]) for zone in state.table.zones()]


def step_randomly(state, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes and abs(sum(p for _o, p in outcomes) - 1.0) < 1e-9
        outcome = outcomes[rng.randrange(len(outcomes))][0]
        state.apply_action(outcome)
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def check_state(state) -> None:
    players = state.game.players
    if state.is_terminal():
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == players and set(returns) <= {0.0, 1.0}
        assert [seat for seat in range(players) if returns[seat]] == sorted(state.winners)
        return
    assert state.legal_actions(), "a game that is not over always has something to do"
    if state.is_chance_node():
        assert state.current_player() == CHANCE
    else:
        seat = state.current_player()
        assert 0 <= seat < players and state.table.alive[seat] or state.decision().kind == "answer"
        assert state.legal_actions(seat) == state.legal_actions()
        assert state.legal_actions((seat + 1) % players) == [] or players == 1
    assert state.returns() == [0.0] * players  # nothing is paid before the end


@pytest.mark.parametrize("label, edition", PLAYABLES, ids=[p[0] for p in PLAYABLES])
def test_random_simulation(label, edition):
    players = min(max(3, edition.players[0]), edition.players[1])
    game = Game(edition, players)
    rng = random.Random(label)
    for game_index in range(2):
        state = game.new_state(game_index, explicit_chance=True)
        steps = 0
        while not state.is_terminal():
            check_state(state)
            if steps % 7 == 0:  # a clone goes on exactly as the original does
                twin = state.clone()
                assert layout(twin) == layout(state) and twin.legal_actions() == state.legal_actions()
                seat = state.current_player()
                if seat >= 0:
                    assert twin.observation_string(seat) == state.observation_string(seat)
                    assert twin.information_state_string(seat) == state.information_state_string(seat)
                choice = random.Random(steps)
                step_randomly(state, choice)
                step_randomly(twin, random.Random(steps))
                assert layout(twin) == layout(state)
                assert twin.events == state.events
            else:
                step_randomly(state, rng)
            steps += 1
            assert steps < 20_000
        check_state(state)
        # the serialised game plays back to the same state
        again = deserialize_state(game, state.serialize())
        assert layout(again) == layout(state) and again.returns() == state.returns()
        assert again.events == state.events


def test_a_clone_copies_the_generator_too():
    """With chance resolved by the caller, the copy samples what the original samples
    (it used to be replayed from the seed, with its generator out of step)."""
    game = Game(load_edition("original"), 4)
    state = game.new_state(3, explicit_chance=True)
    for _ in range(5):
        state.apply_action(state.sample_chance() if state.is_chance_node() else state.legal_actions()[-1])
    twin = state.clone()
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            ours, theirs = state.sample_chance(), twin.sample_chance()
            assert ours == theirs
            state.apply_action(ours)
            twin.apply_action(theirs)
        else:
            state.apply_action(state.legal_actions()[0])
            twin.apply_action(twin.legal_actions()[0])
    assert layout(twin) == layout(state)


def test_a_copied_generator_is_in_the_same_state_and_its_own():
    """Compiled, the generator's words are copied in C (table.copy_rng): the copy has the
    original's whole state (a pending gauss too), draws the same, and draws apart from it."""
    from kittens.interpreter.engine.table import copy_rng

    rng = random.Random(11)
    rng.random()
    rng.gauss(0.0, 1.0)  # leaves its second number pending in gauss_next
    twin = copy_rng(rng)
    assert type(twin) is random.Random and twin.getstate() == rng.getstate()
    assert [twin.random() for _ in range(700)] == [rng.random() for _ in range(700)]
    twin.random()
    assert twin.getstate() != rng.getstate()
    assert copy_rng(random.Random(5)).getstate() == random.Random(5).getstate()


def test_the_pure_core_copies_a_generator_as_bytes_on_cpython_and_falls_back_otherwise(monkeypatch):
    """In pure Python on CPython the generator's words are copied as memory (table's
    _state_copier, checked once at import); a generator of another class, or no copier,
    goes through getstate and setstate. Each way the copy draws as the original."""
    import sys

    from kittens.interpreter.engine import table

    if table._COMPILED:
        pytest.skip("the compiled core copies in C (the test above)")
    assert (table._COPY_STATE is not None) == (sys.implementation.name == "cpython")

    class Own(random.Random):
        pass

    for rng in (random.Random(4), Own(4)):
        rng.random()
        twin = table.copy_rng(rng)
        assert type(twin) is random.Random and twin.getstate() == rng.getstate()
        assert [twin.random() for _ in range(5)] == [rng.random() for _ in range(5)]
    rng = random.Random(9)
    rng.gauss(0.0, 1.0)
    for copier in (table._COPY_STATE, None):
        monkeypatch.setattr(table, "_COPY_STATE", copier)
        twin, expected = table.copy_rng(rng), random.Random()
        expected.setstate(rng.getstate())
        assert twin.getstate() == rng.getstate()
        assert [twin.random() for _ in range(5)] == [expected.random() for _ in range(5)]


def test_a_clone_does_not_touch_the_original():
    game = Game(load_edition("original"), 3)
    state = game.new_state(8)
    before = (layout(state), list(state.history), state.legal_actions())
    twin = state.clone()
    while not twin.is_terminal():
        twin.apply_action(twin.legal_actions()[-1])
    assert (layout(state), list(state.history), state.legal_actions()) == before


def test_shuffle_chance_nodes_offer_one_sampled_order():
    state = Game(load_edition("original"), 2).new_state(0, explicit_chance=True)
    (outcome, probability), = state.chance_outcomes()
    assert probability == 1.0 and sorted(outcome) == list(range(len(outcome)))
    assert state.legal_actions() == [outcome]


def test_information_state_needs_a_recorded_game():
    state = Game(load_edition("original"), 2).new_state(0, record=False)
    with pytest.raises(GameError, match="records its events"):
        state.information_state_string(0)
    assert json.loads(state.observation_string(0))["seat"] == 0


def test_returns_in_a_team_game_pay_the_whole_team():
    edition = load_edition("barking", "two_teams")
    state = Game(edition, 4).new_state(2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    returns = state.returns()
    winners = [seat for seat in range(4) if returns[seat] == 1.0]
    assert winners == sorted(state.winners) and len(winners) in (0, 2)
    if winners:
        assert winners[1] - winners[0] == 2  # partners sit alternately


# -- resampling from a seat's view -------------------------------------------------
def _mid_game(edition_name: str, players: int, seed: int, actions: int):
    game = Game(load_edition(edition_name), players)
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name, players, seed, actions", [
    ("original", 4, 1, 25), ("original", 3, 2, 60), ("imploding", 5, 3, 40),
    ("good_vs_evil", 4, 4, 35), ("party", 7, 5, 50), ("streaking", 4, 6, 30), ("barking", 4, 7, 45),
])
def test_a_resample_keeps_everything_the_seat_knows(name, players, seed, actions):
    state = _mid_game(name, players, seed, actions)
    if state.is_terminal():
        pytest.skip("the game ended early")
    for seat in range(players):
        world = state.resample_from_view(seat, random.Random(seat))
        assert world.view(seat).to_dict() == state.view(seat).to_dict()  # every known fact
        assert Counter(c for _z, ids in layout(world) for c in ids) == \
            Counter(c for _z, ids in layout(state) for c in ids)  # cards conserved
        assert [len(ids) for _z, ids in layout(world)] == [len(ids) for _z, ids in layout(state)]
        assert world.legal_actions() == state.legal_actions()
        while not world.is_terminal():  # the world plays on to an end
            world.apply_action(world.legal_actions()[0])


def test_two_states_that_look_alike_to_a_seat_resample_alike():
    state = _mid_game("original", 4, 11, 30)
    seat = 2
    other = state.resample_from_view(seat, random.Random(99))  # same view, other hidden cards
    assert other.view(seat).to_dict() == state.view(seat).to_dict()
    assert layout(other) != layout(state)
    ours, theirs = state.resample_from_view(seat, random.Random(5)), other.resample_from_view(seat, random.Random(5))
    assert layout(ours) == layout(theirs)
    for _ in range(60):  # and the same actions play out the same way from there
        if ours.is_terminal():
            break
        assert ours.legal_actions() == theirs.legal_actions()
        ours.apply_action(ours.legal_actions()[0])
        theirs.apply_action(theirs.legal_actions()[0])
    assert layout(ours) == layout(theirs)


def test_a_resample_does_not_touch_the_original():
    state = _mid_game("imploding", 4, 3, 20)
    before = layout(state)
    state.resample_from_view(0, random.Random(1))
    assert layout(state) == before


def test_the_engine_gives_effects_exactly_the_world_the_language_declares():
    """Primitives reach the game only through lang/world.py's protocols: the engine's
    table and state provide every name there, and primitives use no other."""
    import ast
    from pathlib import Path

    from kittens.interpreter.lang import primitives, world

    state = Game(load_edition("original"), 3).new_state(0)
    assert world.missing(state.table, world.Table) == []
    assert world.missing(state, world.Services) == []
    def public(kind):
        return set(kind.__annotations__) | {n for n in vars(kind) if not n.startswith("_")}

    declared = {"table": public(world.Table), "state": public(world.Services)}
    used = {"table": set(), "state": set()}
    # the source file, not inspect.getsource: an installed kittens runs a compiled primitives
    source = (Path(primitives.__file__).parent / "primitives.py").read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "ctx" \
                and node.value.attr in used:
            used[node.value.attr].add(node.attr)
    assert used["table"] <= declared["table"], used["table"] - declared["table"]
    assert used["state"] <= declared["state"], used["state"] - declared["state"]
