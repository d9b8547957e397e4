"""Designers write effects we never thought of: generated, well-typed effects must play.

Hypothesis writes card effects from the primitive table (any primitive, any
nesting, choices and chance included). Every generated effect must pass the
checker, and games of the Original with those cards added must run (up to
3,000 decisions each) with cards conserved: no crash, whatever the effect does.
``KITTENS_FUZZ_SCALE`` multiplies the number of examples.
"""

import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kittens.interpreter.game import Game
from kittens.interpreter.validate import RuleError, load_edition

from conftest import ROOT
from test_editions import Observer, _check_views

SCALE = float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))
CARD_IDS = ["tacocat", "defuse", "nope", "exploding_kitten", "skip"]
TAGS = ["cat", "kitten", "action"]


def expr(draw, wanted: str, depth: int) -> str:
    """An expression of type ``wanted``; deeper levels prefer leaves."""
    leaf = depth <= 0 or draw(st.integers(0, 3)) == 0
    if wanted == "int":
        if leaf:
            return draw(st.sampled_from(["0", "1", "2", "4", "0 - 1"]))  # no unary minus
        return draw(st.sampled_from([
            lambda: f"count({expr(draw, 'cards', depth - 1)})",
            lambda: f"count({expr(draw, 'players', depth - 1)})",
            lambda: f"owed({expr(draw, 'player', depth - 1)})",
            lambda: f"min({expr(draw, 'int', depth - 1)}, {expr(draw, 'int', depth - 1)})",
            lambda: f"{expr(draw, 'int', depth - 1)} + {expr(draw, 'int', depth - 1)}",
            lambda: f"choose_position({expr(draw, 'zone', depth - 1)})",
        ]))()
    if wanted == "bool":
        if leaf:
            return draw(st.sampled_from(["true", "false"]))
        return draw(st.sampled_from([
            lambda: f"{expr(draw, 'int', depth - 1)} > {expr(draw, 'int', depth - 1)}",
            lambda: f"has({expr(draw, 'player', depth - 1)}, \"{draw(st.sampled_from(CARD_IDS))}\")",
            lambda: f"not {expr(draw, 'bool', depth - 1)}",
            lambda: f"ask(\"well?\", by={expr(draw, 'player', depth - 1)})",
        ]))()
    if wanted == "player":
        if leaf:
            return "me"
        return draw(st.sampled_from([
            lambda: f"next_player({expr(draw, 'player', depth - 1)})",
            lambda: f"choose_player({expr(draw, 'players', depth - 1)})",
        ]))()
    if wanted == "players":
        if leaf:
            return draw(st.sampled_from(["players()", "others()"]))
        return f"with_cards({expr(draw, 'players', depth - 1)})"
    if wanted == "zone":
        if leaf:
            return draw(st.sampled_from(["draw_pile", "discard_pile", "removed", "hand(me)"]))
        return f"hand({expr(draw, 'player', depth - 1)})"
    if wanted == "card":
        if leaf:
            return "this"
        return draw(st.sampled_from([
            lambda: f"random_card({expr(draw, 'cards', depth - 1)})",
            lambda: f"choose_card({expr(draw, 'cards', depth - 1)})",
        ]))()
    # cards
    if leaf:
        return expr(draw, "zone", 0)
    return draw(st.sampled_from([
        lambda: f"top({expr(draw, 'cards', depth - 1)}, {expr(draw, 'int', depth - 1)})",
        lambda: f"bottom({expr(draw, 'cards', depth - 1)})",
        lambda: f"find({expr(draw, 'cards', depth - 1)}, \"{draw(st.sampled_from(CARD_IDS))}\")",
        lambda: f"tagged({expr(draw, 'cards', depth - 1)}, \"{draw(st.sampled_from(TAGS))}\")",
        lambda: expr(draw, "card", depth - 1),
    ]))()


def statement(draw, depth: int, names: list) -> str:
    e = lambda t: expr(draw, t, 2)  # noqa: E731
    choice = draw(st.integers(0, 11 if depth > 0 else 8))
    if choice == 0:
        return f"move({e('cards')}, {e('zone')}, at={e('int')})"
    if choice == 1:
        return f"move({e('cards')}, {e('zone')}, face_up={e('bool')})"
    if choice == 2:
        return f"shuffle({e('zone')})"
    if choice == 3:
        return f"show({e('cards')}, {e('players')})"
    if choice == 4:
        return f"reveal({e('cards')})"
    if choice == 5:
        return f"draw({e('player')}, from_bottom={e('bool')})"
    if choice == 6:
        return f"end_turn({e('int')})"
    if choice == 7:
        return f"attack({e('player')}, {e('int')})"
    if choice == 8:
        return f"eliminate({e('player')})" if draw(st.integers(0, 4)) == 0 else f"end_turn({e('int')})"
    body = "\n".join(statement(draw, depth - 1, names) for _ in range(draw(st.integers(1, 2))))
    if choice == 9:
        name = f"v{len(names)}"
        names.append(name)
        kind = draw(st.sampled_from(["player", "cards", "int"]))
        return f"let {name} = {e(kind)}\n{body}"
    if choice == 10:
        return f"if {e('bool')} {{\n{body}\n}} else {{\n{statement(draw, depth - 1, names)}\n}}"
    name = f"v{len(names)}"
    names.append(name)
    kind = draw(st.sampled_from(["players", "cards"]))
    inner = statement(draw, depth - 1, names).replace("me)", f"{name})") if kind == "players" else \
        f"move({name}, {e('zone')})"
    return f"for {name} in {e(kind)} {{\n{inner}\n}}"


@st.composite
def effects(draw):
    programs = []
    for _ in range(3):
        names: list = []  # one program's local names: `let` may not reuse one
        programs.append("\n".join(statement(draw, 2, names) for _ in range(draw(st.integers(1, 3)))))
    return programs


def _indent(text: str) -> str:
    return "\n".join("      " + line for line in text.splitlines())


def _edition(folder: str, programs: list) -> str:
    original = ROOT / "rulebook" / "original.yaml"
    cards = "\n".join(f"""  - id: odd_{i}
    title: Odd {i}
    text: Something a designer dreamt up.
    when: own_turn
    effect: |
{_indent(program)}""" for i, program in enumerate(programs))
    with open(os.path.join(folder, "odd.yaml"), "w") as handle:
        handle.write(f"format: 1\nkind: cards\nuses: [{original}]\ncards:\n{cards}\n")
    path = os.path.join(folder, "edition.yaml")
    with open(path, "w") as handle:
        handle.write(f"""format: 1
kind: edition
id: odd
name: Odd cards
players: {{min: 2, max: 4}}
include: [{original}, odd.yaml]
deck: {{exploding_kitten: 3, defuse: 6, nope: 4, skip: 4, tacocat: 8, odd_0: 4, odd_1: 4, odd_2: 4}}
setup:
  - set_aside: [exploding_kitten, defuse]
  - deal: {{card: defuse, count: 1}}
  - put_back: {{card: defuse, count: 2, or_fewer: true}}
  - shuffle: draw_pile
  - deal: {{count: 5}}
  - put_back: {{card: exploding_kitten, count: players - 1}}
  - remove: set_aside
  - shuffle: draw_pile
turn: {{draw: "draw(me) end_turn()"}}
win: last_standing
""")
    return path


@settings(max_examples=int(30 * SCALE), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs=effects(), seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_generated_effects_check_clean_and_play_to_the_end(programs, seed, players):
    with tempfile.TemporaryDirectory() as folder:
        try:
            edition = load_edition(_edition(folder, programs))
        except RuleError as exc:
            raise AssertionError(f"a well-typed effect was refused:\n{exc}") from None
    game = Game(edition, players)
    total = sum(game.deck.values())
    for game_seed in (seed, seed + 1):
        state = game.new_state(game_seed)
        steps = 0
        # crashes are what this looks for; that odd games end is the turn and play
        # limits' business (tested on their own), so a long game is cut short here
        while not state.is_terminal() and steps < 3000:
            options = state.legal_actions()
            state.apply_action(options[(steps * 7 + game_seed) % len(options)])
            steps += 1
        assert sum(len(z.cards) for z in state.table.zones()) == total


@settings(max_examples=int(30 * SCALE), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs=effects(), seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_generated_effects_leak_nothing(programs, seed, players):
    """Whatever the cards do, no view shows more than its seat's own events support."""
    with tempfile.TemporaryDirectory() as folder:
        edition = load_edition(_edition(folder, programs))
    state = Game(edition, players).new_state(seed)
    observers = [Observer(seat, state.table) for seat in range(players)]
    cursor, steps = [0], 0
    while not state.is_terminal() and steps < 600:
        _check_views(state, observers, cursor)
        options = state.legal_actions()
        state.apply_action(options[(steps * 7 + seed) % len(options)])
        steps += 1
    _check_views(state, observers, cursor)
