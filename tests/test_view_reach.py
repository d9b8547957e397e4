"""A player handed a view cannot reach the real game through it: not by attribute,
not through ``__dict__`` or ``__slots__``, not through the objects the view refers to
(``gc.get_referents``), for plain and search views alike."""

from __future__ import annotations

import gc
import types

import pytest

from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.views import LiveView, SearchView, View
from kittens.interpreter.rules.load import load_edition

GAME = Game(load_edition("original"), 4)


def _state():
    state = GAME.new_state(5)
    for _ in range(12):  # a few decisions in, with cards moved and seen
        state.apply_action(state.legal_actions()[-1])
    return state


def _reachable(root) -> dict:
    """id -> object of everything reachable from ``root`` by references, without passing
    through classes, modules and code (shared by every object of the process)."""
    seen, todo = {}, [root]
    while todo:
        value = todo.pop()
        if id(value) in seen or isinstance(value, (type, types.ModuleType, types.FunctionType,
                                                   types.BuiltinFunctionType, types.CodeType)):
            continue
        seen[id(value)] = value
        todo.extend(gc.get_referents(value))
    return seen


def _real_objects(state) -> set:
    table = state.table
    return {id(state), id(table), *map(id, table.cards), *map(id, table.zones()), id(table.log),
            *map(id, state.stack)}


@pytest.mark.parametrize("kind", [View, SearchView])
def test_nothing_reachable_from_a_view_is_the_real_game(kind):
    state = _state()
    seat = state.decision().seat
    view = kind(state, seat)
    reached = _reachable(view)
    assert not _real_objects(state) & set(reached)
    assert not hasattr(view, "__dict__")
    for cls in type(view).__mro__:  # every slot, read by name
        for name in getattr(cls, "__slots__", ()):
            value = getattr(view, name, None)
            assert id(value) not in _real_objects(state)
    for name in dir(view):  # every attribute and method, bound or not
        value = getattr(view, name)
        closure = getattr(getattr(value, "__func__", value), "__closure__", None) or ()
        assert not {id(cell.cell_contents) for cell in closure} & _real_objects(state)
    # and the view still says what the seat may know
    assert view.to_dict() == LiveView(state, seat).to_dict()


def test_the_check_finds_a_live_view_reaching_the_game():
    """The engine's own live view does hold the state: the check above would catch it."""
    state = _state()
    assert _real_objects(state) & set(_reachable(LiveView(state, 0)))


def test_worlds_dealt_from_a_search_view_are_not_the_real_game():
    import random
    state = _state()
    seat = state.decision().seat
    view = SearchView(state, seat)
    world = view.resample(random.Random(1))
    assert not _real_objects(state) & set(_reachable(world))
    assert world.view(seat).to_dict() == state.view(seat).to_dict()


def test_play_game_hands_a_players_class_a_snapshot_and_only_the_engines_own_bot_a_live_view():
    from kittens.interpreter.engine.bots import HeuristicBot
    from kittens.interpreter.engine.simulate import play_game

    handed = []

    class Greedy(HeuristicBot):  # a user's bot, built on ours
        def choose(self, view, decision):
            handed.append(type(view))
            return super().choose(view, decision)

    play_game(GAME, 3, [Greedy(3, 0), HeuristicBot(3, 1), HeuristicBot(3, 2), HeuristicBot(3, 3)],
              record=False)
    assert handed and set(handed) == {View}
