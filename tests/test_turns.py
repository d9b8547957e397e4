"""Issue 42's turn control and history: extra turns that are not attacks, an attack
made outside an answer moving play, turn_end for a player who went out, a deal to one
seat, and the history and turn queries (each with a case that failed before)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_phases import HOUSE, house, laid_out, value  # a house rule on the Original, a table laid by hand

from kittens import load_edition
from kittens.interpreter.lang import primitives as P
from kittens.interpreter.rules.check import validate_paths

ROOT = Path(__file__).resolve().parent.parent


def take(state, *options):
    for option in options:
        assert option in state.legal_actions(), (option, state.legal_actions())
        state.apply_action(option)


def counters(state, name: str) -> list:
    return list(state.table.counters[name])


# -- the names are new -------------------------------------------------------------
NEW = ("extra_turns", "turn_number", "whose_turn", "last_played", "played_this_turn", "played_last_turn",
       "answered_player", "random_number", "seat_number", "player_in_seat", "out_in_order", "first_of",
       "spend", "round_number", "turn_player", "pass_over", "held_by")


@pytest.mark.parametrize("name", NEW)
def test_each_new_primitive_is_documented_worded_and_known_to_the_editor(name):
    from kittens.interpreter.words.describe import WORDING
    from kittens.lsp.analysis import analyse, completions, hover

    assert name in P.PRIMITIVES and name in WORDING
    docs = ROOT / "docs" / "effects.md"
    assert f"### `{P.PRIMITIVES[name].signature()}`" in docs.read_text(encoding="utf-8")
    rule = ROOT / "examples" / "house-rules" / "last_word.yaml"
    text = rule.read_text(encoding="utf-8").replace("effect: add_counter(", f"effect: {name}() or add_counter(", 1)
    analysis = analyse(str(rule), text)
    line = next(i for i, row in enumerate(text.splitlines()) if f"{name}()" in row)
    column = text.splitlines()[line].index(f"{name}()") + 2
    assert name in [item.label for item in completions(analysis, line, column)]
    assert P.PRIMITIVES[name].signature() in (hover(analysis, line, column) or "")


# -- turn_end runs for a player who went out ------------------------------------------
ENDED = """counters:
  ended: {}
triggers:
  - id: count_ends
    on: turn_end
    text: Every turn that ends counts for its player.
    effect: add_counter("ended", 1)
"""


def test_turn_end_runs_for_a_player_who_went_out_during_the_turn(tmp_path):
    edition = house(tmp_path, ENDED)
    state = laid_out(edition, 3, {0: ["tacocat"], 1: ["defuse"], 2: ["defuse"]},
                     ["exploding_kitten", "beard_cat", "cattermelon"])
    take(state, state.legal_actions()[0])  # seat 0 draws the kitten and explodes
    assert not state.table.alive[0]
    assert counters(state, "ended") == [1, 0, 0]  # before: [0, 0, 0], the trigger skipped


# -- played_by for answers and spent cards ----------------------------------------------
def _counted_for_player_of(title: str, counter: str) -> str:
    return f"""  - id: {counter}_by
    on: card_enters
    zone: discard_pile
    text: A card reaching the discard pile counts for who played or spent it.
    if: title(this) == "{title}"
    effect: add_counter("{counter}", 1, played_by(this))
"""


WHO = "counters:\n  noped: {}\n  spent: {}\ntriggers:\n" + _counted_for_player_of("nope", "noped") + \
    _counted_for_player_of("defuse", "spent")


def test_a_nope_and_a_spent_defuse_have_a_played_by(tmp_path):
    edition = house(tmp_path, WHO)
    state = laid_out(edition, 3, {0: ["shuffle", "defuse"], 2: ["nope"]},
                     ["exploding_kitten", "beard_cat", "cattermelon"])
    take(state, "play shuffle")
    take(state, "play nope")  # seat 2 answers
    assert counters(state, "noped") == [0, 0, 1]  # before: nobody (a Nope had no played_by)
    take(state, "draw")
    take(state, 0)  # the kitten back on top
    assert counters(state, "spent") == [1, 0, 0]
    assert value(state, "played_by(last_played())") == 2  # the Defuse is not a play


# -- an attack outside an answer moves play ---------------------------------------------
def test_an_attack_from_a_trigger_moves_play_to_its_victim(tmp_path):
    edition = load_edition(str(ROOT / "examples" / "house-rules" / "parting_shot.yaml"))
    state = laid_out(edition, 4, {0: ["tacocat"], 1: ["defuse"], 2: ["defuse"], 3: ["defuse"]},
                     ["exploding_kitten", "beard_cat", "cattermelon"])
    take(state, "draw", 3)  # seat 0 explodes and, out, picks seat 3
    assert state.table.current == 3 and state.table.owed[3] == 2  # before: seat 1 to play
    assert state.decision().seat == 3


CHECK_ATTACK = """checks:
  - id: caught
    text: Whoever holds four Tacocats discards them and attacks the player two seats on.
    if: count(find(hand(me), "tacocat")) >= 4
    effect: |
      move(find(hand(me), "tacocat"), discard_pile)
      attack(next_player(next_player()), 2)
"""


def test_an_attack_by_another_player_ends_the_turn_under_way_keeping_its_owed_turns(tmp_path):
    edition = house(tmp_path, CHECK_ATTACK)
    state = laid_out(edition, 4, {0: ["shuffle"], 1: ["tacocat"] * 4, 2: ["defuse"], 3: ["defuse"]},
                     ["beard_cat", "cattermelon"], owed=2)  # seat 0 under attack, two turns
    table = state.table
    take(state, "play shuffle")  # the checks run after the play: seat 1's attacks seat 3
    assert table.current == 3 and table.owed[3] == 2  # before: seat 0's turn went on
    assert table.owed[0] == 1  # seat 0's turn under way ended; it keeps the other one
    assert state.decision().seat == 3


# -- extra turns ---------------------------------------------------------------------------
EXTRA_AT_END = """triggers:
  - id: again
    on: turn_end
    text: A player whose turn ends holding a Tacocat takes one more turn.
    if: has(me, "tacocat") and turn_number() < 3
    effect: extra_turns(me)
"""


def test_extra_turns_at_a_turn_end_bring_play_back(tmp_path):
    edition = house(tmp_path, EXTRA_AT_END)
    state = laid_out(edition, 3, {0: ["tacocat"]}, ["beard_cat", "cattermelon", "tacocat", "beard_cat"])
    take(state, "draw")  # seat 0's turn ends: play had passed to seat 1, and comes back
    assert state.table.current == 0 and state.table.turn == 2 and state.table.owed[0] == 1
    take(state, "draw")
    take(state, "draw")  # turn 3: no more extra turns, play passes on
    assert state.table.current == 1


@pytest.mark.parametrize("body, owed", [
    ("extra_turns(next_player(), 2)", [1, 3, 0]),  # on its own next turn: that turn and two more
    ("extra_turns(me, 0)", [1, 0, 0]),  # none below 1
    ("extra_turns(me, 2)", [3, 0, 0]),
])
def test_extra_turns_for_the_player_on_turn_and_for_another(tmp_path, body, owed):
    edition = house(tmp_path, f"""define_cards:
  - {{id: more, title: More, text: Extra turns., when: own_turn, effect: '{body}'}}
add_cards: {{more: 1}}
""")
    state = laid_out(edition, 3, {0: ["more"]}, ["beard_cat"])
    take(state, "play more")
    assert state.table.owed == owed


def test_extra_turns_given_to_a_player_who_is_out_do_nothing(tmp_path):
    edition = house(tmp_path, """triggers:
  - {id: consolation, on: player_out, text: One more turn when out., effect: 'extra_turns(me, 1)'}
""")
    state = laid_out(edition, 3, {0: ["tacocat"]}, ["exploding_kitten", "beard_cat"])
    take(state, "draw")
    assert state.table.owed[0] == 0 and state.table.current == 1 and state.table.bonus == [0, 0, 0]


# -- history and turn queries ----------------------------------------------------------------
def test_turn_number_and_whose_turn(tmp_path):
    edition = load_edition("original")
    state = laid_out(edition, 3, {0: ["skip"]}, ["beard_cat", "cattermelon"])
    assert value(state, "turn_number()") == 1 and value(state, "whose_turn()", me=2) == 0
    take(state, "play skip")
    assert value(state, "turn_number()") == 2 and value(state, "whose_turn()") == 1


def test_played_this_turn_and_last_played(tmp_path):
    edition = load_edition("original")
    state = laid_out(edition, 3, {0: ["shuffle", "see_the_future"], 2: ["nope"]}, ["beard_cat"] * 4)
    assert value(state, "count(last_played())") == 0 and value(state, "count(played_this_turn())") == 0
    take(state, "play shuffle", "play nope", "play see_the_future")
    assert [c.id for c in value(state, "played_this_turn()")] == ["shuffle", "nope", "see_the_future"]
    assert [c.id for c in value(state, "played_this_turn(2)")] == ["nope"]
    assert [c.id for c in value(state, "played_this_turn(by=others())")] == ["nope"]
    assert value(state, "title(last_played())") == "see_the_future"
    take(state, "draw")  # a new turn: nothing played in it yet, the last play stays
    assert value(state, "count(played_this_turn())") == 0
    assert value(state, "title(last_played())") == "see_the_future"


def test_a_card_laid_face_down_and_played_as_a_claim_is_never_the_last_played():
    """Hidden information: Bluff lays a card face down and carries out a claimed title
    with play_as; the history queries must not name that card (its title would leak)."""
    edition = load_edition(str(ROOT / "examples" / "house-rules" / "bluff.yaml"))
    state = laid_out(edition, 2, {0: ["tacocat", "skip"], 1: ["beard_cat"]}, ["cattermelon"] * 3)
    take(state, "play skip")  # seat 1's turn: a real play, the last
    take(state, "act claim", "favor", "beard_cat", False)  # face down, claimed Favor; not called
    assert value(state, "title(last_played())") == "skip"
    assert value(state, "count(played_this_turn())") == 0


# -- the order of players() and others() ---------------------------------------------------------
@pytest.mark.parametrize("text, me, direction, expected", [
    ("players()", 2, 1, [2, 3, 0, 1]),
    ("others()", 2, 1, [3, 0, 1]),
    ("others(of=0)", 2, 1, [1, 2, 3]),
    ("players()", 2, -1, [2, 1, 0, 3]),
    ("others()", 1, -1, [0, 3, 2]),
])
def test_players_and_others_go_in_turn_order_from_the_acting_player(text, me, direction, expected):
    state = laid_out(load_edition("original"), 4, {}, ["beard_cat"])
    state.table.direction = direction
    assert value(state, text, me=me) == expected


def test_players_and_others_leave_out_players_who_are_out():
    state = laid_out(load_edition("original"), 4, {}, ["beard_cat"])
    state.table.alive[3] = False
    assert value(state, "players()", me=2) == [2, 0, 1] and value(state, "others()", me=2) == [0, 1]


# -- a deal to one seat -----------------------------------------------------------------------------
def test_a_deal_to_a_seat_beyond_the_table_is_reported_at_its_step(tmp_path):
    path = tmp_path / "far.yaml"
    path.write_text(HOUSE + """add_steps:
  - after: defuses
    steps:
      - deal: {card: defuse, count: 1, to: players}
""", encoding="utf-8")
    found = [d.render() for d in validate_paths([str(path)]).diagnostics]
    assert any("deals to seat 2, but the seats are 0 to 1" in line and "deal-impossible" in line
               and "far.yaml:9:9" in line for line in found), found


# -- in words -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("rule, sentences", [
    ("head_start", ["Deal 1 Defuse from those set aside to the first player only.",
                    "Deal 1 Nope from those set aside to the last player only.",
                    "Each player starts with 8 cards in hand (1 Defuse and 7 from the draw pile). "
                    "The first player also starts with 1 Defuse. The last player also starts with 1 Nope."]),
    ("encore", ["**In rules terms:** Take 1 extra turn after this one."]),
    ("last_word", ["if there are cards played this turn:",
                   "if the number of the turn (the game's first is turn 1) is more than 1 and the number of "
                   "cards you played this turn is at least 3: add 1 to your “last word” count."]),
])
def test_the_rulesheet_words_turn_control_and_history(rule, sentences):
    from kittens.interpreter.words.rulesheet import render_rulesheet

    text = render_rulesheet(load_edition(str(ROOT / "examples" / "house-rules" / f"{rule}.yaml")), 4)
    for sentence in sentences:
        assert sentence in text, sentence


def test_extra_turns_are_told_at_the_web_table():
    from kittens.web.words import Words

    edition = load_edition(str(ROOT / "examples" / "house-rules" / "encore.yaml"))
    state = laid_out(edition, 3, {0: ["encore"]}, ["beard_cat", "cattermelon"])
    take(state, "play encore")
    told = [Words(edition, ["person"] * 3).event(e, 1) for e in state.events if e["type"] == "extra_turns"]
    assert told == ["Seat 0 takes 1 extra turn (2 owed in all)."], told


def test_played_last_turn_holds_the_turn_before_and_only_it(tmp_path):
    """The second probe's Payback (an Attack after an Attack gives three turns) had to
    mark the next player from a turn_end trigger: the turn before had no query."""
    from test_phases import value
    edition = load_edition("original")
    state = laid_out(edition, 3, {0: ["skip", "see_the_future"], 1: ["tacocat"]}, ["beard_cat"] * 6)
    assert value(state, "count(played_last_turn())") == 0  # the first turn: none before it
    take(state, "play see_the_future", "play skip")
    assert value(state, "count(played_last_turn())") == 2
    assert value(state, 'count(find(played_last_turn(), "skip"))') == 1
    assert value(state, "count(played_last_turn(by=others()))", me=0) == 0
    copy = state.clone()  # a copy keeps the turn before's cards, as its own
    take(state, "draw")  # seat 1 plays nothing: seat 2's turn before it is empty
    assert value(state, "count(played_last_turn())") == 0
    assert [inst.id for _seat, inst in copy.table.last_turn_plays] == ["see_the_future", "skip"]
    assert all(inst in copy.table.discard_pile.cards for _seat, inst in copy.table.last_turn_plays)


# -- a deal into per-player zones (the second probe's Runts were dealt by a trigger) ----------
RUNTS = """zones:
  runts: {per_player: true, public: false}
add_steps:
  - after: deal
    steps: [{deal: {count: 1, zone: runts}}, {deal: {count: 1, zone: runts, to: 0}}]
"""


def test_setup_deals_into_each_players_own_zone(tmp_path):
    from test_phases import house

    from kittens import Game
    edition = house(tmp_path, RUNTS)
    state = Game(edition, 3).new_state(5)
    runts = [len(zone.cards) for zone in state.table.areas["runts"]]
    assert runts == [2, 1, 1]
    assert [len(hand.cards) for hand in state.table.hands] == [8, 8, 8]  # seven and a Defuse, as before
    total = sum(len(zone.cards) for zone in state.table.zones())
    assert total == sum(n for _lo, _hi, n in (r[0] for r in edition.deck.values()))
    from kittens.interpreter.words.rulesheet import render_rulesheet
    assert "to each player, into their own runts zone, in front of them" in render_rulesheet(edition, 3)


def test_a_deal_into_a_shared_zone_is_refused_at_its_name(tmp_path):
    path = tmp_path / "house.yaml"
    from test_phases import HOUSE
    path.write_text(HOUSE + RUNTS.replace("per_player: true, ", ""), encoding="utf-8")
    diagnostics = validate_paths([str(path)]).diagnostics
    found = [d for d in diagnostics if d.code == "unknown-zone"]
    assert found and "per-player zone" in found[0].message, [d.render() for d in diagnostics]


def test_out_in_order_keeps_the_order_players_went_out(tmp_path):
    """Probes 2 and 3 (Ghost Whisper, Spectator Pick) wanted the first or last player out."""
    from test_phases import value
    state = laid_out(load_edition("original"), 4, {0: ["skip"]}, ["beard_cat"] * 6)
    for seat in (2, 0, 3):
        state.table.eliminate(seat)
        if seat == 0:
            state.table.revive(2)
    assert value(state, "count(out_in_order())", me=1) == 2
    assert state.table.gone_out == [0, 3]
    assert value(state, "first_of(out_in_order())", me=1) == 0
    assert value(state, "first_of(out_players())", me=1) == 3  # turn order from seat 1, as before
    assert state.clone().table.gone_out == [0, 3]


def test_players_laid_out_as_out_count_as_the_first_to_go_out_and_may_come_back():
    from test_phases import value
    state = laid_out(load_edition("original"), 4, {0: ["skip"]}, ["beard_cat"] * 6)
    state.table.alive[1] = False  # as a scenario's `start: {out: [1]}` lays it
    state.table.eliminate(3)
    assert value(state, "first_of(out_in_order())") == 1 and value(state, "count(out_in_order())") == 2
    state.table.revive(1)  # no error: it was never seen going out
    assert value(state, "first_of(out_in_order())") == 3
