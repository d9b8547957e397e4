"""The engine's fast paths (issue 12) write and play exactly what the plain code would.

Moves, event records and the log writer take shortcuts for speed: shared ``secret``
dicts written from a cache, a game's log encoded in one call and handed to the file
as bytes. Each test here rebuilds the result the slow, obvious way and compares.
"""

import json

import pytest

from kittens.about import EDITIONS_DIR
from kittens.interpreter.engine import simulate
from kittens.interpreter.engine.events import seats_of
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.logwriter import dumps, dumps_lines, encode_lines, write_lines, write_rows
from kittens.interpreter.engine.players import make_bots
from kittens.interpreter.rules.load import load_edition

EDITIONS = sorted(path.stem for path in EDITIONS_DIR.glob("*.yaml"))


def _game(name: str) -> Game:
    edition = load_edition(str(EDITIONS_DIR / f"{name}.yaml"))
    return Game(edition, max(edition.players[0], min(4, edition.players[1])))


def _written_plainly(event: dict) -> str:
    """An event as a log line, converted by hand: every mask a fresh list of seats."""
    out = dict(event)
    if "secret" in out:
        out["secret"] = {field: seats_of(mask) for field, mask in out["secret"].items()}
    if "only" in out:
        out["only"] = seats_of(out["only"])
    return json.dumps(out, separators=(",", ":"), sort_keys=True)


@pytest.mark.parametrize("name", EDITIONS)
def test_a_logged_game_is_written_as_plain_json_writes_it(name):
    """Shared secrets (written from a cache) and the one-call encoder give, line for
    line, what json.dumps gives for each event converted on its own."""
    game = _game(name)
    secrets = 0
    for seed in range(4):
        bots = make_bots(["heuristic", "random"], game.players, seed)
        state = simulate.play_game(game, seed, bots, record=True)
        expected = "\n".join(_written_plainly(event) for event in state.events)
        assert dumps_lines(state.events) == expected
        assert encode_lines(state.events) == expected.encode()
        assert write_rows(state.table.log.rows) == expected.encode()  # written from the rows
        pieces = ["head\n"]
        write_lines(state.table.log.rows, pieces)
        assert "".join(pieces) == "head\n" + expected + "\n"
        secrets += sum("secret" in event for event in state.events)
    assert secrets  # the cached conversion was used


def test_moves_with_the_same_masks_share_one_secret_that_nothing_changes():
    """A move's ``secret`` is shared with every move of the same masks: a game's log
    holds a handful of them, and writing it out leaves them as they were."""
    game = _game("original")
    state = simulate.play_game(game, 3, make_bots(["random"], game.players, 3), record=True)
    secrets = [event["secret"] for event in state.events if event["type"] == "move" and "secret" in event]
    shared = {id(secret) for secret in secrets}
    assert len(secrets) > 2 * len(shared)
    before = [dict(secret) for secret in secrets]
    dumps_lines(state.events)
    assert [dict(secret) for secret in secrets] == before
    assert all(isinstance(mask, int) for secret in secrets for mask in secret.values())


def test_a_log_file_gets_the_same_bytes_as_a_text_log(tmp_path):
    """run_games hands a LogFile the encoded game (write_bytes) and any other log the
    text (write): both hold the same games, byte for byte."""
    game = _game("original")
    texts = []

    class TextLog:
        def write(self, text):
            assert isinstance(text, str)
            texts.append(text)

    path = tmp_path / "games.jsonl"
    with simulate.LogFile(str(path)) as log:
        simulate.run_games(game, games=3, seed=5, bots=["random"], log=log)
        assert log.games == 3
    simulate.run_games(game, games=3, seed=5, bots=["random"], log=TextLog())
    assert len(texts) == 3 and path.read_bytes() == "".join(texts).encode()
    lines = path.read_text().splitlines()
    assert sum(json.loads(line)["type"] == "game" for line in lines) == 3


def test_the_lighter_view_accessors_say_what_the_full_ones_say():
    """View.known_at and View.holds (what the heuristic bot asks) agree with
    draw_pile_known and hand at every decision of a few games, for every seat."""
    game = _game("original")
    checked = 0
    for seed in range(3):
        state = game.new_state(seed, record=False)
        bots = make_bots(["heuristic"], game.players, seed)
        for seat, bot in enumerate(bots):
            bot.start(game, seat)
        while not state.is_terminal():
            for seat in range(game.players):
                view = state.view(seat)
                known = view.draw_pile_known()
                for place in (-1, 0, 1, len(state.table.draw_pile.cards)):
                    assert view.known_at(place) == known.get(place)
                for titles in ({"defuse"}, {"nope", "skip"}, set()):
                    assert view.holds(titles) == any(card in titles for card in view.hand)
                checked += 1
            decision = state.decision()
            state.apply_action(bots[decision.seat].choose(state.view(decision.seat), decision))
    assert checked > 100


def test_recorded_masks_are_plain_ints_and_dicts_to_everything_but_the_writer():
    """An EventLog records masks as Seats and secrets as Secret: equal to the plain int
    and dict, written by json.dumps as before, and by the log writer as lists of seats,
    mixed freely with events whose masks are plain (a log read back, say)."""
    from kittens.interpreter.engine.events import EventLog, Seats, Secret, from_json, to_json

    log = EventLog(True, 0b111)
    log.emit("decision", only=0b10, seat=1, kind="action", option="draw")
    log.emit("zone", zone="draw_pile", count=2, cards=["a", "b"], secret={"cards": 0})
    decision, zone = log.events
    assert type(decision["only"]) is Seats and decision["only"] == 2
    assert type(zone["secret"]) is Secret and zone["secret"] == {"cards": 0}
    assert json.dumps(decision, sort_keys=True) == json.dumps({**decision, "only": 2}, sort_keys=True)
    plain = [from_json(to_json(event)) for event in log.events]  # the same events, plain masks
    assert type(plain[0]["only"]) is int and type(plain[1]["secret"]) is dict
    events = [decision, plain[1], zone, plain[0]]
    expected = "\n".join(_written_plainly(event) for event in events)
    assert dumps_lines(events) == expected
    assert '"only":[1]' in expected and '"secret":{"cards":[]}' in expected


class _Name(str):
    """A str subclass (orjson writes it as a str unless told to hand it over)."""

    def __str__(self):
        return "not what is written"


class _Number(int):
    """An int subclass, as a secret place (lang.values.PrivateInt) is."""


@pytest.mark.parametrize("value", [_Name("odd"), _Number(7), {"k": _Number(2)}, [_Name("a"), _Number(1)]],
                         ids=["str", "int", "in-a-dict", "in-a-list"])
def test_subclasses_of_json_types_are_written_as_their_type(value):
    """The writer hands subclasses to its own ``default`` (to write Seats and Secret):
    any other is written as its base type, as orjson writes it unasked."""
    events = [{"type": "x", "value": value, "only": 1}, {"type": "y", "secret": {"card": 3}}]
    assert dumps_lines(events) == "\n".join(_written_plainly(e) for e in events)


def test_the_engines_shuffle_is_pythons_shuffle():
    """lang.machine.shuffle draws the same order as random.Random.shuffle from the same
    generator, for every size a zone can have, and leaves the generator where it would be;
    a generator of another kind shuffles itself."""
    import random

    from kittens.interpreter.lang.machine import shuffle

    for seed in range(30):
        for size in (0, 1, 2, 3, 7, 31, 32, 33, 56, 64, 65, 120):
            mine, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            shuffle(mine, a)
            theirs.shuffle(b)
            assert a == b and mine.getstate() == theirs.getstate(), (seed, size)

    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):
            Counting.calls += 1
            super().shuffle(x)

    items = list(range(10))
    shuffle(Counting(3), items)
    assert Counting.calls == 1 and sorted(items) == list(range(10))


@pytest.mark.parametrize("name", EDITIONS)
def test_a_game_that_does_not_record_keeps_no_event(name):
    """``record=False`` (kittens bench, the lab, a search's worlds) keeps nothing: a
    Show once slipped past the switch, so unlogged games grew a list of events."""
    game = _game(name)
    for seed in range(12):
        state = simulate.play_game(game, seed, make_bots(["random"], game.players, seed), record=False)
        assert state.table.log.events == [], (seed, state.table.log.events[:2])


def test_events_kept_as_rows_read_as_the_dicts_they_stand_for():
    """The busiest events are kept as rows; ``events`` gives each as its dict, a row made
    into a dict once; events added later show at the next reading; a copy goes on
    from the events so far; events handed in (a seat's filtered log) are kept as given."""
    from kittens.interpreter.engine.events import DECISION, EventLog

    log = EventLog(True, 0b11)
    log.turn(0, 1, 1)
    log.decision(0, "action", "draw")
    first = log.events
    assert first == [{"type": "turn", "seat": 0, "owed": 1, "number": 1},
                     {"type": "decision", "kind": "action", "only": 1, "option": "draw", "seat": 0}]
    assert log.rows[1][0] is DECISION and log.events[1] is first[1]  # made once
    log.move("nope", "draw_pile", 0, "hand 1", 2, False, False, 0b10, 0b11)
    assert log.events[-1] == {"type": "move", "card": "nope", "from": "draw_pile", "from_at": 0,
                              "to": "hand 1", "at": 2, "secret": {"card": 0b10}}
    other = log.copy()
    other.end_turn(0, 0)
    assert len(log.events) == 3 and len(other.events) == 4
    kept = [{"type": "turn", "seat": 1, "owed": 1, "number": 2}]
    other.events = list(kept)
    other.window(1, "attack")
    assert other.events == kept + [{"type": "window", "seat": 1, "id": "attack"}]


def test_a_shape_names_its_fields_in_the_order_they_are_written():
    from kittens.interpreter.engine.events import Shape

    for fields, optional in [(("b", "a"), ()), (("a", "type"), ()), (("a", "b"), ("a",)), (("a", "b"), ("b",)),
                             (("a", "value", "zone"), ("value",)), (("a", "a"), ()), (("a", "b", "c"), ("x",))]:
        with pytest.raises(ValueError, match="sorted"):
            Shape("x", fields, optional)
    shape = Shape("x", ("a", "b", "value", "zone"), ("b",))  # the type is written where it sorts
    assert shape.heads[2] == ',"type":"x","value":' and shape.tail == "}\n"


def _json_values():
    from hypothesis import strategies as st

    # no floats: the effect language has whole numbers only (its "/" divides whole), and
    # orjson, which writes the few events not kept as rows, writes some floats unlike json
    atoms = st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=8)
    return st.recursive(atoms, lambda inner: st.lists(inner, max_size=4) |
                        st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=12)


def test_the_row_writer_writes_any_value_as_json_dumps_does():
    """Whatever an event holds (effects choose values: strings of any text, numbers past
    64 bits, true beside 1 in the same field) is written as json.dumps writes it, also
    when its text was remembered from an earlier row."""
    from hypothesis import given, settings

    from kittens.interpreter.engine.events import CHOSE, DECISION, EventLog

    @settings(max_examples=300, deadline=None)
    @given(value=_json_values())
    def check(value):
        for option in (value, True, 1, "1", 1.0, False, 0, [value]):
            log = EventLog(True, 0b1)
            log.decision(0, "ask", option)
            log.chose(0, "value", option)  # a field after the type
            log.emit("fizzled", seat=0, reason=option)  # an event kept as its dict
            expected = "\n".join(_written_plainly(event) for event in log.events).encode()
            assert write_rows(log.rows) == expected, option
            assert log.rows[0][0] is DECISION and log.rows[1][0] is CHOSE

    check()


# values that are equal in Python but written apart, in the order a writer might meet them
_LOOK_ALIKES = [1, True, 1.0, 1, "1", ["a"], ("a",), ["a", 1], ["a", True], ("a", True), [1], [True],
                0, False, [], (), {}, None, "a", ["a"]]


@pytest.mark.parametrize("order", ["forward", "backward"])
def test_remembered_texts_never_mix_up_look_alike_values(order):
    """The writer remembers the text of a mixed field's value (strings, ints, lists of
    strings): 1 and True, a list and a tuple of the same strings, are
    equal in Python, and only values written alike may share a text. Each row is written
    as json.dumps writes it, whichever of its look-alikes came first."""
    from kittens.interpreter.engine.events import EventLog

    values = _LOOK_ALIKES if order == "forward" else _LOOK_ALIKES[::-1]
    for _ in range(2):  # the second time round, every text is remembered
        log = EventLog(True, 0b11)
        for value in values:
            log.decision(1, "ask", value)
            log.chose(0, "value", value)
            log.play(1, "combo", "pair", value)
            log.move("nope", "draw_pile", 0, "hand 1", 2, False, False, 0b10, 0b11,
                     value if isinstance(value, dict) else None)
        expected = "\n".join(_written_plainly(event) for event in log.events).encode()
        assert write_rows(log.rows) == expected


def test_a_secret_is_a_dict_equal_by_content_that_copies_and_pickles():
    """Secret (compiled, a C class) behaves as the dict it is: equal to any dict or Secret
    of the same masks, hashed by them, copied and pickled as a Secret with its content."""
    import copy
    import pickle

    from kittens.interpreter.engine.events import Secret

    one, same, other = Secret({"card": 1}), Secret({"card": 1}), Secret({"card": 2, "at": 3})
    assert one == same and not one != same and one != other and not one == other
    assert one == {"card": 1} and {"card": 1} == one and one != {"card": 2} and one != 1
    assert hash(one) == hash(same) and len({one: 0, same: 1, other: 2}) == 2
    for twin in (copy.copy(other), copy.deepcopy(other), pickle.loads(pickle.dumps(other))):
        assert type(twin) is Secret and twin == other and twin.written == {"card": [1], "at": [0, 1]}
        assert hash(twin) == hash(other)


@pytest.mark.parametrize("seed", [0, 41, 2**70])
def test_each_games_header_line_is_the_game_header_as_dumps_writes_it(seed):
    """Each game's first line is dumps(game_header(...)) exactly, with the game's seed and
    its number in the run (the header's check covers both)."""

    class Kept:
        def __init__(self):
            self.data = b""

        def write_bytes(self, data):
            self.data += data

    game, log = _game("original"), Kept()
    simulate.run_games(game, games=3, seed=seed, bots=["random"], log=log, header={"edition": "a \x00 path"})
    heads = [line for line in log.data.split(b"\n") if line.startswith(b'{"bots"')]
    names = ["random"] * game.players
    assert heads == [dumps(simulate.game_header(game, seed + i, names, number=i + 1,
                                                edition="a \x00 path")).encode() for i in range(3)]


@pytest.mark.parametrize("text", ["\x7f", "a\x7fb", "\x7f\u00e9", "~"])
def test_del_is_escaped_as_json_dumps_escapes_it(text):
    """orjson writes DEL (0x7f) as it is, json.dumps as \\u007f: every writer of a log
    writes it as json.dumps does (hypothesis found an event kept as a dict that did not)."""
    from kittens.interpreter.engine.events import EventLog
    from kittens.interpreter.engine.logwriter import encode

    assert encode({"reason": text}) == json.dumps({"reason": text}, separators=(",", ":"))
    events = [{"type": "fizzled", "reason": text, "seat": 0}, {"type": "out", "seat": 1}]
    assert encode_lines(events).decode() == "\n".join(_written_plainly(event) for event in events)
    log = EventLog(True, 0b1)
    log.emit("fizzled", seat=0, reason=text)
    log.chose(0, "value", text)
    assert write_rows(log.rows).decode() == "\n".join(_written_plainly(event) for event in log.events)


def _table_as_data(table) -> list:
    """Every zone's cards with what each seat knows of them, and each zone's count of
    cards that can answer: what a move may change."""
    return [(zone.name, zone.reactive, [(inst.uid, inst.id, inst.known, inst.face_up, inst.was_face_up)
                                        for inst in zone.cards])
            for zone in table.zones()]


@pytest.mark.parametrize("name", EDITIONS)
def test_moves_on_their_short_paths_leave_what_the_general_loop_leaves(name, monkeypatch):
    """Table.move's paths for a card drawn into a hand or played to a public zone: every
    move of seeded games is made twice, on the table and on a copy whose table watches a
    moment that never comes (which keeps the copy on the general loop), and the two must
    agree on every card's place and knowledge and on every event recorded."""
    from kittens.about import engine_core
    from kittens.interpreter.engine.table import Table
    if engine_core() == "compiled":
        pytest.skip("Table.move is a C method on the compiled core: it cannot be wrapped")
    plain = Table.move
    checked = []

    def move(table, cards, to, at=0, face_up=False, in_sight=None):
        memo: dict = {}
        twin = table.copy(memo)
        twin.watch = frozenset({("card_enters", "no such zone")})  # never queues a moment
        plain(twin, [memo[id(inst)] for inst in cards], memo[id(to)], at, face_up, in_sight)
        plain(table, cards, to, at, face_up, in_sight)
        assert _table_as_data(table) == _table_as_data(twin)
        assert table.log.events == twin.log.events
        checked.append(len(cards))

    monkeypatch.setattr(Table, "move", move)
    game = _game(name)
    for seed in range(3):
        simulate.play_game(game, seed, make_bots(["heuristic", "random"], game.players, seed), record=True)
    assert checked.count(1) > 20  # the short paths had moves to take


def _played(game, seed: int, general: bool, specs=("heuristic", "random")):
    """A seeded game of these bots, each pick given to apply_action; ``general``: with the
    table watching a moment that never comes before every step, which keeps every move
    (but the deal's) on Table.move's general loop."""
    from kittens.interpreter.engine.views import decision_for, view_maker
    never = ("card_enters", "no such zone")
    bots = make_bots(list(specs), game.players, seed)
    for seat, bot in enumerate(bots):
        if hasattr(bot, "start"):
            bot.start(game, seat)
    state = game.new_state(seed, record=True)
    shows = [view_maker(bot) for bot in bots]
    while not state.is_terminal():
        if general and never not in state.table.watch:  # a phased game sets its own after the deal
            state.table.watch = state.table.watch | {never}
        decision = state.decision()
        if len(decision.options) == 1:
            state.apply_action(decision.options[0])
        else:
            state.apply_action(bots[decision.seat].choose(shows[decision.seat](state, decision.seat),
                                                          decision_for(decision)))
    return state


@pytest.mark.parametrize("name", EDITIONS)
def test_a_game_kept_on_the_general_loop_is_the_same_game_on_either_core(name):
    """The check above wraps Table.move, which the compiled core cannot: here whole seeded
    games are played as they are and again kept on the general loop, and must agree on
    events, history and every card's place and knowledge (CI installs the compiled core)."""
    game = _game(name)
    for seed in range(3):
        plain, general = _played(game, seed, False), _played(game, seed, True)
        assert general.events == plain.events
        assert general.history == plain.history
        assert _table_as_data(general.table) == _table_as_data(plain.table)


@pytest.mark.parametrize("name", EDITIONS)
def test_play_game_taking_options_by_place_plays_what_apply_action_plays(name):
    """play_game takes an option by its place (State._take); the same bots' picks given to
    apply_action as options make the same game: events, history and counts."""
    game = _game(name)
    for seed in range(3):
        taken = simulate.play_game(game, seed, make_bots(["random", "heuristic"], game.players, seed), record=True)
        state = _played(game, seed, False, ("random", "heuristic"))
        assert state.events == taken.events
        assert state.history == taken.history and state.decisions == taken.decisions
