"""Designers write effects we never thought of: generated, well-typed effects must play.

Hypothesis writes card effects from the primitive table (any primitive, any
nesting, choices and chance included). Every generated effect must pass the
checker, and games of the Original with those cards added must run (up to
3,000 decisions each) with cards conserved: no crash, whatever the effect does.

Hostile effects (large and negative numbers, products, loops nested over
piles, `eliminate` and `win` on any player, `end_turn` and `attack` with any
number) must keep the engine's invariants at every step of random-bot games
on a small edition: cards conserved, nobody owes fewer than zero turns, the
winners are still in the game (or on the last team standing), a finished game
stops, and every game ends, at worst with a ``RuleRuntimeError`` (a limit of
interpreter/cost.py reached); any other exception is a failure.
``KITTENS_FUZZ_SCALE`` multiplies the number of examples.
"""

import os
import tempfile
from collections import Counter
from unittest.mock import patch

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_editions import Observer, _check_views

from kittens.interpreter.engine import game as game_module
from kittens.interpreter.engine.game import Game, GameError, RuleRuntimeError
from kittens.interpreter.engine.players import make_bots
from kittens.interpreter.rules.load import RuleError, load_edition

SCALE = float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))
CARD_IDS = ["tacocat", "defuse", "nope", "exploding_kitten", "skip"]
TAGS = ["cat", "kitten", "action"]


def expr(draw, wanted: str, depth: int, hostile: bool = False) -> str:
    """An expression of type ``wanted``; deeper levels prefer leaves. ``hostile`` adds
    large and negative numbers, products and quotients, and players who may be out."""
    leaf = depth <= 0 or draw(st.integers(0, 3)) == 0
    sub = lambda kind: expr(draw, kind, depth - 1, hostile)  # noqa: E731
    if wanted == "int":
        if leaf and hostile:
            number = draw(st.sampled_from([0, 1, 2, 3, 7, 1000, 1_000_000, 1_000_000_000]))
            return draw(st.sampled_from([f"0 - {number}", f"-{number}", str(number)]))
        if leaf:
            return draw(st.sampled_from(["0", "1", "2", "4", "0 - 1", "-1"]))
        return draw(st.sampled_from([
            lambda: f"count({sub('cards')})",
            lambda: f"count({sub('players')})",
            lambda: f"owed({sub('player')})",
            lambda: f"min({sub('int')}, {sub('int')})",
            lambda: f"{sub('int')} + {sub('int')}",
            lambda: f"choose_position({sub('zone')})",
        ] + ([lambda: f"{sub('int')} {draw(st.sampled_from('*/-'))} {sub('int')}",
              lambda: f"max({sub('int')}, {sub('int')})"] if hostile else [])))()
    if wanted == "bool":
        if leaf:
            return draw(st.sampled_from(["true", "false"]))
        return draw(st.sampled_from([
            lambda: f"{sub('int')} > {sub('int')}",
            lambda: f"has({sub('player')}, \"{draw(st.sampled_from(CARD_IDS))}\")",
            lambda: f"not {sub('bool')}",
            lambda: f"ask(\"well?\", by={sub('player')})",
        ]))()
    if wanted == "player":
        if leaf:
            return draw(st.sampled_from(["me", "me", "played_by(this)"])) if hostile else "me"
        return draw(st.sampled_from([
            lambda: f"next_player({sub('player')})",
            lambda: f"choose_player({sub('players')})",
        ]))()
    if wanted == "players":
        if leaf:
            return draw(st.sampled_from(["players()", "others()"]))
        return f"with_cards({sub('players')})"
    if wanted == "zone":
        if leaf:
            return draw(st.sampled_from(["draw_pile", "discard_pile", "removed", "hand(me)"]))
        return f"hand({sub('player')})"
    if wanted == "card":
        if leaf:
            return "this"
        return draw(st.sampled_from([
            lambda: f"random_card({sub('cards')})",
            lambda: f"choose_card({sub('cards')})",
        ]))()
    # cards
    if leaf:
        return expr(draw, "zone", 0, hostile)
    return draw(st.sampled_from([
        lambda: f"top({sub('cards')}, {sub('int')})",
        lambda: f"bottom({sub('cards')}, {sub('int')})" if hostile else f"bottom({sub('cards')})",
        lambda: f"find({sub('cards')}, \"{draw(st.sampled_from(CARD_IDS))}\")",
        lambda: f"tagged({sub('cards')}, \"{draw(st.sampled_from(TAGS))}\")",
        lambda: sub("card"),
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
@example(programs=["attack(me, count(draw_pile) + owed(me))\nshuffle(draw_pile)",  # found by CI
                   "move(draw_pile, discard_pile, at=0)", "move(discard_pile, draw_pile, at=0)"],
         seed=0, players=2)
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
        try:
            while not state.is_terminal() and steps < 3000:
                options = state.legal_actions()
                state.apply_action(options[(steps * 7 + game_seed) % len(options)])
                steps += 1
        except RuleRuntimeError as exc:  # a runaway number (an attack owing itself twice over, say)
            # stops the game with the engine's own error naming the card's file and line: fine
            assert "odd.yaml:" in str(exc) and "beyond the largest number" in str(exc), exc
            continue
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


# -- hostile effects: the engine's invariants hold, every game ends ----------------
def hostile_statement(draw, depth: int, names: dict, fresh) -> str:
    """A statement of a hostile effect; ``names`` maps the names in scope to their types,
    ``fresh(kind)`` gives a name never used before in the effect."""
    def pick(kind: str) -> str:
        bound = [name for name, type_ in names.items() if type_ == kind]
        if bound and draw(st.booleans()):
            return draw(st.sampled_from(bound))
        return expr(draw, kind, 2, hostile=True)

    def let(kind: str, value: str) -> str:
        name = fresh()
        names[name] = kind
        return f"let {name} = {value}"

    # game-ending statements are rare, loops common: long games and heavy effects get tried
    weights = [3, 3, 1, 1, 2, 3, 1, 1, 2, 1] + ([5, 2] if depth > 0 else [])  # 10: for, 11: if
    choice = draw(st.sampled_from([c for c, w in enumerate(weights) for _ in range(w)]))
    if choice == 0:
        return f"end_turn({pick('int')})"
    if choice == 1:
        return f"attack({pick('player')}, {pick('int')})"
    if choice == 2:
        return f"eliminate({pick('player')})"
    if choice == 3:
        return f"win({pick('player')})"
    if choice == 4:
        return f"move({pick('cards')}, {expr(draw, 'zone', 2, hostile=True)}, at={pick('int')})"
    if choice == 5:
        return f"draw({pick('player')}, from_bottom={expr(draw, 'bool', 1, hostile=True)})"
    if choice == 6:
        cards = pick("cards")
        return f"show({cards}, players())\nrearrange({cards})"
    if choice == 7:
        return f"reveal({pick('cards')})\nshuffle({expr(draw, 'zone', 1, hostile=True)})"
    if choice == 8:
        kind = draw(st.sampled_from(["int", "player", "cards"]))
        return let(kind, pick(kind))
    if choice == 9:  # a chain of squares: `let b = a * a`, a few times over
        lines = [let("int", pick("int"))]
        for _ in range(draw(st.integers(1, 5))):
            before = lines[-1].split()[1]
            lines.append(let("int", f"{before} * {before}"))
        return "\n".join(lines)
    inner = dict(names)  # a block's names stay inside it
    if choice == 10:
        kind = draw(st.sampled_from(["players", "cards", "cards"]))
        over = pick(kind) if kind == "cards" else expr(draw, "players", 1, hostile=True)
        var = fresh()
        inner[var] = "player" if kind == "players" else "card"
        body = "\n".join(hostile_statement(draw, depth - 1, inner, fresh)
                         for _ in range(draw(st.integers(1, 2))))
        return f"for {var} in {over} {{\n{body}\n}}"
    condition = expr(draw, "bool", 2, hostile=True)
    then = hostile_statement(draw, depth - 1, inner, fresh)
    otherwise = hostile_statement(draw, depth - 1, dict(names), fresh)
    return f"if {condition} {{\n{then}\n}} else {{\n{otherwise}\n}}"


@st.composite
def hostile_effects(draw):
    programs = []
    for _ in range(3):
        names: dict = {}
        numbers = iter(range(10_000))
        fresh = lambda: f"v{next(numbers)}"  # noqa: E731 - a name is never bound twice
        count = draw(st.integers(1, 4))
        programs.append("\n".join(hostile_statement(draw, 4, names, fresh) for _ in range(count)))
    return programs


def _small_edition(folder: str, programs: list, teams: bool) -> str:
    """A 30-card edition of the Original's cards and three hostile ones, alone or in teams;
    the third hostile effect also runs when its card is drawn (draws inside draws)."""
    path = _edition(folder, programs)
    library = os.path.join(folder, "odd.yaml")
    with open(library, encoding="utf-8") as handle:
        cards = handle.read()
    with open(library, "w", encoding="utf-8") as handle:
        handle.write(cards.replace("    title: Odd 2\n", f"    title: Odd 2\n    on_draw: |\n{_indent(programs[2])}\n"))
    text = open(path, encoding="utf-8").read()
    text = text.replace("deck: {exploding_kitten: 3, defuse: 6, nope: 4, skip: 4, tacocat: 8, "
                        "odd_0: 4, odd_1: 4, odd_2: 4}",
                        "deck: {exploding_kitten: 3, defuse: 6, nope: 3, skip: 3, tacocat: 6, "
                        "odd_0: 3, odd_1: 3, odd_2: 3}")
    text = text.replace("  - deal: {count: 5}", "  - deal: {count: 2}")
    if teams:
        text = text.replace("players: {min: 2, max: 4}", "players: {min: 4, max: 4}\nteams: {count: 2}")
        text = text.replace("win: last_standing", "win: last_team_standing")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def _sound(state, total: int) -> None:
    """The invariants that hold after every step, whatever the effects did."""
    table = state.table
    seen = Counter()
    for zone in table.zones():
        for inst in zone.cards:
            assert inst.zone is zone, f"{inst} is listed in {zone.name} but thinks it is in {inst.zone.name}"
            seen[inst.uid] += 1
    assert sum(seen.values()) == total and max(seen.values()) == 1, "cards are not conserved"
    assert min(table.owed) >= 0, f"owed turns below zero: {table.owed}"
    assert all(table.owed[seat] == 0 for seat in range(table.players) if not table.alive[seat]), \
        f"a player who is out owes turns: {table.owed} {table.alive}"
    assert state.is_terminal() == table.finished
    if not state.is_terminal():
        assert table.alive[table.current], f"seat {table.current} plays but is out"
        return
    assert state.legal_actions() == []
    with pytest.raises(GameError):  # a finished game stops
        state.apply_action("draw")
    if state.winner is None:
        assert state.winners == ()
        return
    assert table.alive[state.winner], f"seat {state.winner} won but is out"
    assert state.winners == table.team(state.winner)
    if table.teams:
        assert all(table.team_of(seat) == table.team_of(state.winner)
                   for seat in range(table.players) if table.alive[seat]) or \
            state.events[-1]["reason"] == "won"


#: decisions after which a game counts as hung (the turn limit is lowered to 200 below)
HUNG = 60_000


#: cases every run tries: loops that reach the step budget, numbers past the limit, negative
#: turns, a win for a player who is out, and a game with no kittens left that only the turn
#: limit ends
LOOPS = "for v0 in draw_pile { for v1 in draw_pile { for v2 in draw_pile { for v3 in draw_pile { reveal(v3) } } } }"
NO_KITTENS = 'move(find(draw_pile, "exploding_kitten"), removed)\nattack(me, 1000000000)'


@settings(max_examples=int(40 * SCALE), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs=hostile_effects(), seed=st.integers(0, 10_000), players=st.integers(2, 4),
       teams=st.booleans())
@example(programs=[LOOPS, "end_turn(0 - 5)", "attack(next_player(), 0 - 1000000000)"], seed=1, players=3,
         teams=False)
@example(programs=["eliminate(me)\nwin(me)", "let v0 = 1000000000 - 1\nlet v1 = v0 * v0", NO_KITTENS],
         seed=2, players=2, teams=False)
@example(programs=["let v0 = next_player()\neliminate(v0)\nwin(v0)", "attack(me, 0 - 3)\nend_turn(0)",
                   NO_KITTENS], seed=3, players=4, teams=True)
def test_hostile_effects_keep_the_engine_sound_and_every_game_ends(programs, seed, players, teams):
    with tempfile.TemporaryDirectory() as folder:
        try:
            edition = load_edition(_small_edition(folder, programs, teams))
        except RuleError as exc:
            raise AssertionError(f"a well-typed effect was refused:\n{exc}") from None
    game = Game(edition, 4 if teams else players)
    total = sum(game.deck.values())
    with patch.object(game_module, "TURN_LIMIT", 200):  # keeps CI fast; ending is the point
        for game_seed in (seed, seed + 1):
            state = game.new_state(game_seed)
            bots = make_bots(["random"], game.players, game_seed)
            decisions = 0
            try:
                _sound(state, total)
                while not state.is_terminal():
                    decision = state.decision()
                    state.apply_action(bots[decision.seat].choose(None, decision))
                    decisions += 1
                    assert decisions < HUNG, "the game did not end"
                    _sound(state, total)
            except RuleRuntimeError as exc:  # a limit reached: the game ends with a clear error
                assert "(" in str(exc) and ":" in str(exc), f"the error does not say where: {exc}"
                _sound(state, total) if state.is_terminal() else None
