"""Prompts and log lines in plain words from each reader's side (issue 43): the player
reads "you", the other seats and watchers read the name; a rule that speaks to "you" is
not read to the others as if it spoke to them; a gift reads as one to the giver; a card
kept from a reader never reaches their words."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import ROOT

from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import load_edition
from kittens.web.render import decision_prompt, log_entries
from kittens.web.room import Room, seat_bots
from kittens.web.words import Words

HAND_LIMIT = str(ROOT / "examples" / "house-rules" / "hand_limit.yaml")
GHOSTS = str(ROOT / "examples" / "house-rules" / "ghosts.yaml")
WATCHER = None


def words(path="original") -> Words:
    found = Words(load_edition(path), ["person", "person", "heuristic"])
    found.chosen = {0: "Ana", 1: "Ben"}
    return found


# (rules, event, reader, the line they read)
LINES = [
    # a rule that speaks to its player: "your turn" for Ana only
    (HAND_LIMIT, {"type": "trigger", "seat": 0, "id": "discard_down"}, 0,
     "You: At the end of your turn, discard cards of your choice until you hold no more than the hand limit."),
    (HAND_LIMIT, {"type": "trigger", "seat": 0, "id": "discard_down"}, 1, "A rule applies to Ana: discard down."),
    (HAND_LIMIT, {"type": "trigger", "seat": 0, "id": "discard_down"}, WATCHER, "A rule applies to Ana: discard down."),
    # a rule written about "a player" reads the same to everyone
    (GHOSTS, {"type": "trigger", "seat": 1, "id": "haunting"}, 0,
     "Ben: A player who goes out takes a Boo! from the crypt, if one is left."),
    (GHOSTS, {"type": "trigger", "seat": 1, "id": "haunting"}, 1,
     "You: A player who goes out takes a Boo! from the crypt, if one is left."),
    # one card is "1 card"
    ("original", {"type": "show", "zone": "draw_pile", "count": 1, "seats": [0]}, 1,
     "Ana looked at 1 card of the draw pile."),
    ("original", {"type": "show", "zone": "draw_pile", "count": 3, "seats": [2]}, WATCHER,
     "Seat 2 (heuristic bot) looked at 3 cards of the draw pile."),
    # a bot's hand is "Seat 2's hand", not "Seat 2 (heuristic bot)'s hand"
    ("original", {"type": "move", "from": "hand 2", "to": "playmat 2", "card": "nope", "at": 0}, 0,
     "Nope went from Seat 2's hand to the playmat of Seat 2."),
    ("original", {"type": "move", "from": "discard_pile", "to": "hand 2", "card": "nope", "at": 0}, 2,
     "You took Nope from the discard pile."),
    # a gift reads as one to the giver
    ("original", {"type": "move", "from": "hand 1", "to": "hand 0", "card": "nope", "at": 0, "given": True}, 1,
     "You gave Nope to Ana."),
    ("original", {"type": "move", "from": "hand 1", "to": "hand 0", "card": "nope", "at": 0}, 0,
     "You took Nope from Ben."),
]


@pytest.mark.parametrize("rules, event, reader, line", LINES)
def test_log_lines_from_each_side(rules, event, reader, line):
    assert words(rules).event(event, reader) == line


# (rules, decision, hand counts, the question its chooser reads)
QUESTIONS = [
    # a Favor asks Ben for a card for Ana: whose card asks, and what the card is for
    ("original", SimpleNamespace(kind="choose_card", seat=1, options=["nope"], info={"source": "favor", "actor": 0}),
     {1: 4}, "Ana's Favor: give Ana a card of your choice."),
    # Ana's own Favor asks her to pick a player
    ("original", SimpleNamespace(kind="choose_player", seat=0, options=[1], info={"source": "favor", "actor": 0}),
     {}, "Favor: pick a player"),
    # the hand limit's discards: what for, and how many cards are held
    (HAND_LIMIT, SimpleNamespace(kind="choose_card", seat=0, options=["nope"],
                                 info={"source": "discard_down", "actor": 0}),
     {0: 9}, "Discard down: discard a card of your choice, down to 7 (2 more to go)."),
    (HAND_LIMIT, SimpleNamespace(kind="choose_card", seat=0, options=["nope"],
                                 info={"source": "discard_down", "actor": 0}),
     {0: 8}, "Discard down: discard a card of your choice, down to 7 (1 more to go)."),
]


@pytest.mark.parametrize("rules, decision, counts, question", QUESTIONS)
def test_questions_say_whose_and_what_for(rules, decision, counts, question):
    assert words(rules).question(decision, decision.seat, counts) == question


def test_a_bluff_asked_of_another_seat_names_the_claim():
    """Ana claims a title in public; Ben, asked to call it, reads whose play and what she
    claimed; the card she put face down is named to nobody."""
    edition = load_edition(str(ROOT / "examples" / "house-rules" / "bluff.yaml"))
    game = Game(edition, 3)
    seed = next(seed for seed in range(100) if game.new_state(seed).table.current == 0
                and "act claim" in game.new_state(seed).decision().options)
    state = game.new_state(seed)
    state.apply_action("act claim")
    w = Words(edition, ["person"] * 3)
    w.chosen = {0: "Ana", 1: "Ben"}
    while state.decision().kind != "ask":
        decision = state.decision()
        state.apply_action("attack" if decision.kind == "choose_title" else decision.options[0])
    asked = state.decision()
    prompt = decision_prompt(w, asked, "p", state)
    assert asked.seat != 0
    assert prompt["question"] == "Ana's Play a card face down (claimed: Attack): Call the bluff?"
    hidden = next(e for e in state.events if e["type"] == "move" and e["to"] == "face_down 0")["card"]
    if hidden != "attack":
        assert edition.cards[hidden].title not in prompt["question"]


def test_a_favor_played_out_reads_right_to_each_seat_and_a_watcher_and_hides_the_card():
    edition = load_edition("original")
    game = Game(edition, 3)
    seed = next(seed for seed in range(200) if "play favor" in game.new_state(seed).decision().options
                and game.new_state(seed).table.current == 0)
    state = game.new_state(seed)
    start = len(state.events)
    state.apply_action("play favor")
    w = words()
    asked = []
    while state.decision().kind != "action":
        decision = state.decision()
        asked.append((decision.seat, decision_prompt(w, decision, "p", state)["question"]))
        state.apply_action(1 if decision.kind == "choose_player" else decision.options[0])  # Ana asks Ben
    assert (1, "Ana's Favor: give Ana a card of your choice.") in asked
    given = next(e for e in state.events[start:] if e["type"] == "move" and e["from"] == "hand 1")
    title = edition.cards[given["card"]].title
    said = {reader: [e["text"] for e in log_entries(w, state.events, start, len(state.events), reader)]
            for reader in (0, 1, 2, WATCHER)}
    assert said[1][-1] == f"You gave {title} to Ana."
    assert said[0][-1] == f"You took {title} from Ben."
    assert said[2][-1] == said[WATCHER][-1] == "Ana took a card from Ben."
    for reader in (2, WATCHER):  # the card went between two hands they cannot see
        assert title not in " ".join(said[reader][-1:])


def test_the_table_says_whom_it_waits_for_to_everyone_but_that_person():
    from webtable import TestClock

    game = Game(load_edition("original"), 3)
    seats = ["person", "person", "person"]
    room = Room("w1", {"rules": "original", "players": 3, "seats": seats}, game, 4, {}, clock=TestClock(),
                bots=seat_bots(game, seats, 4), answer_seconds=5, bot_delay=0)
    room.words.chosen = {0: "Ana", 1: "Ben"}
    room.step()
    current = room.state.decision().seat
    name = room.words.seat_name(current)
    assert "waiting_for" not in room.update(current, 0)
    for reader in [seat for seat in range(3) if seat != current] + [WATCHER]:
        assert room.update(reader, 0)["waiting_for"] == name


def test_a_name_chosen_later_replaces_seat_0_in_the_lines_before():
    from webtable import TestClock

    from kittens.web.room import Listener
    from kittens.web.social import Social

    game = Game(load_edition("original"), 2)
    seats = ["person", "person"]
    room = Room("n1", {"rules": "original", "players": 2, "seats": seats}, game, 4, {}, clock=TestClock(),
                bots=seat_bots(game, seats, 4), answer_seconds=5, bot_delay=0)
    Social(room).attach()
    first = room.state.table.current
    got = {seat: [] for seat in (first, 1 - first, WATCHER)}
    for seat, inbox in got.items():
        room.attach(Listener(seat, inbox.append))
    room.step()
    told = lambda seat: [line["text"] for m in got[seat] if m["type"] == "update" for line in m["log"]]  # noqa: E731
    assert f"Turn 1: Seat {first}." in told(1 - first)
    for inbox in got.values():
        inbox.clear()
    room.social.rename(first, "Ana")
    for seat in (1 - first, WATCHER):  # the log is sent again from its start, the name in every line
        updates = [m for m in got[seat] if m["type"] == "update"]
        assert updates and updates[-1]["log"][0]["n"] == 0
        assert "Turn 1: Ana." in [line["text"] for line in updates[-1]["log"]]
        assert not any(f"Seat {first}" in line["text"] for line in updates[-1]["log"])
    assert "Turn 1: you." in [line["text"] for line in got[first][-1]["log"]]


def test_a_choice_nobody_was_told_of_is_not_announced_as_awaited():
    """A seat asked in secret (not its turn, not named by a play) is not named to the
    others as the one the table waits for."""
    from webtable import TestClock

    game = Game(load_edition("original"), 3)
    seats = ["person", "person", "person"]
    room = Room("w2", {"rules": "original", "players": 3, "seats": seats}, game, 4, {}, clock=TestClock(),
                bots=seat_bots(game, seats, 4), answer_seconds=5, bot_delay=0)
    room.step()
    other = (room.state.table.current + 1) % 3
    assert room._seen_deciding(room.state.table.current)
    assert not room._seen_deciding(other)  # nothing public names it
    room.state.table.log.emit("chose", name="victim", seat=room.state.table.current, value=other)
    assert room._seen_deciding(other)  # a play picked it in public
