"""The end-of-game summary (web/summary.py): plain sentences from each reader's side,
built from the public events only, and each person's results across a table's games."""

from __future__ import annotations

import random

import pytest

from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import load_edition
from kittens.web.summary import series_lines, summary
from kittens.web.words import Words

SEAT1 = 1 << 1  # the secret mask of events only seat 1 sees


def words() -> Words:
    found = Words(load_edition("original"), ["person", "person", "heuristic"])
    found.chosen = {0: "Ana", 1: "Ben"}
    return found


#: a short game: Ana plays, Seat 2 Nopes it, Ben draws a card in secret (a Defuse, seen by
#: him alone), then draws the Exploding Kitten (shown to all) and goes out on turn 3; the
#: game is won on points
EVENTS = [
    {"type": "turn", "number": 1, "seat": 0, "owed": 1},
    {"type": "play", "seat": 0, "card": "attack", "cards": ["attack"]},
    {"type": "answer", "seat": 2, "card": "nope", "depth": 1},
    {"type": "cancelled", "seat": 0, "card": "attack"},
    {"type": "play", "seat": 0, "card": "skip", "cards": ["skip"]},
    {"type": "turn", "number": 2, "seat": 1, "owed": 1},
    {"type": "move", "from": "draw_pile", "to": "hand 1", "card": "defuse", "at": None, "only": SEAT1},
    {"type": "turn", "number": 3, "seat": 1, "owed": 1},
    {"type": "move", "from": "draw_pile", "to": "hand 1", "secret": {"card": SEAT1}, "card": "exploding_kitten",
     "at": None},
    {"type": "reveal", "cards": ["exploding_kitten"], "zones": ["hand 1"], "at": [0]},
    {"type": "out", "seat": 1},
    {"type": "scores", "scores": [4, 0, 2]},
    {"type": "game_over", "winner": 0, "reason": "score"},
]

CASES = [  # reader, the lines they read
    (0, ["Ben went out on turn 3, to the Exploding Kitten.",
         "You win with 4 points.",
         "Scores: you 4, Seat 2 (heuristic bot) 2, Ben 0 (out).",
         "You made 2 plays (Attack and Skip).",
         "Seat 2 (heuristic bot) answered 1 time (Nope).",
         "Ben made no play.",
         "1 play was cancelled.",
         "The game lasted 3 turns."]),
    (1, ["You went out on turn 3, to the Exploding Kitten.",
         "Ana wins with 4 points.",
         "Scores: Ana 4, Seat 2 (heuristic bot) 2, you 0 (out).",
         "Ana made 2 plays (Attack and Skip).",
         "Seat 2 (heuristic bot) answered 1 time (Nope).",
         "You made no play.",
         "1 play was cancelled.",
         "The game lasted 3 turns."]),
    (None, ["Ben went out on turn 3, to the Exploding Kitten.",
            "Ana wins with 4 points.",
            "Scores: Ana 4, Seat 2 (heuristic bot) 2, Ben 0 (out).",
            "Ana made 2 plays (Attack and Skip).",
            "Seat 2 (heuristic bot) answered 1 time (Nope).",
            "Ben made no play.",
            "1 play was cancelled.",
            "The game lasted 3 turns."]),
]


@pytest.mark.parametrize("reader, lines", CASES, ids=["Ana", "Ben", "watcher"])
def test_the_summary_reads_right_from_every_side(reader, lines):
    said = summary(words(), EVENTS, 3, reader)
    assert said["lines"] == lines
    assert said["results"] == [{"won": True, "score": 4, "out": None}, {"won": False, "score": 0, "out": 3},
                               {"won": False, "score": 2, "out": None}]


def test_a_card_only_one_seat_saw_is_never_in_the_summary():
    # Ben's secret Defuse is in nobody's summary, his own neither: it says what the table saw
    for reader in (0, 1, None):
        assert "Defuse" not in " ".join(summary(words(), EVENTS, 3, reader)["lines"])
    # a seat put out with no card shown: no card is named as the cause
    quiet = [e for e in EVENTS if e["type"] != "reveal"]
    assert summary(words(), quiet, 3, 0)["lines"][0] == "Ben went out on turn 3."


def test_ties_and_a_shared_win_are_said():
    shared = EVENTS[:-2] + [{"type": "scores", "scores": [4, 0, 4]},
                            {"type": "game_over", "winner": 0, "winners": [0, 2], "reason": "score"}]
    lines = summary(words(), shared, 3, None)["lines"]
    assert "Ana and Seat 2 (heuristic bot) win with 4 points." in lines
    assert "A tie: Ana and Seat 2 (heuristic bot) share the win on 4 points." in lines
    broken = EVENTS[:-2] + [{"type": "scores", "scores": [4, 0, 4]},
                            {"type": "game_over", "winner": 2, "reason": "score"}]
    lines = summary(words(), broken, 3, 2)["lines"]
    assert "You win with 4 points." in lines
    assert "Ana and you tie on 4 points; the tie-break decides." in lines
    nobody = EVENTS[:-2] + [{"type": "game_over", "winner": None, "reason": "turn-limit"}]
    assert summary(words(), nobody, 3, 0)["lines"][1].startswith("Nobody wins: no winner")
    idle = [e for e in EVENTS if e["type"] not in ("play", "answer", "cancelled")]
    assert "Nobody made a play." in summary(words(), idle, 3, 0)["lines"]


def test_results_across_rematches_follow_each_person_one_seat_on():
    w = Words(load_edition("original"), ["person", "person"])
    w.chosen = {0: "Ben", 1: "Ana"}  # the third game: Ana, who sat at seat 0 in game one, is at seat 0 + 2 = 0
    w.chosen = {0: "Ana", 1: "Ben"}
    games = [
        [{"won": True, "score": 3}, {"won": False, "score": 1}],  # game 1: Ana at seat 0 wins
        [{"won": False, "score": 0}, {"won": True, "score": 2}],  # game 2: Ana at seat 1 wins
        [{"won": False, "score": 1}, {"won": True, "score": 5}],  # game 3: Ana at seat 0, Ben wins
    ]
    assert series_lines(w, games, 2, None) == \
        ["Across this table's 3 games: Ana 2 wins (6 points), Ben 1 win (6 points)."]
    assert series_lines(w, games, 2, 1) == \
        ["Across this table's 3 games: Ana 2 wins (6 points), you 1 win (6 points)."]
    assert series_lines(w, games[:1], 2, None) == []  # one game: nothing across games


def test_a_whole_game_summed_up_from_its_events():
    edition = load_edition("original")
    state = Game(edition, 3).new_state(7)
    rng = random.Random(7)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.decision().options))
    said = summary(Words(edition, ["person"] * 3), state.events, 3, None)
    outs = [line for line in said["lines"] if " went out on turn " in line]
    assert len(outs) == 2 and all(line.endswith("to the Exploding Kitten.") for line in outs)
    winner = state.table.winners[0]
    assert f"Seat {winner} wins." in said["lines"]
    assert sum(r["won"] for r in said["results"]) == 1 and said["results"][winner]["out"] is None
    assert said["lines"][-1] == f"The game lasted {state.table.turn} turns."
