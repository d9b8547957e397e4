"""Issue 41: a game the engine stops at a limit says so in plain words, and which limit,
everywhere its outcome is printed: `kittens run`, `simulate`, `arena`, `replay`, `play`,
the web table's view and log lines. (It used to print "nobody (turn limit)" even for a
turn that hit the limit of plays.)"""

import json

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.engine.endings import is_limit, no_winner, outcome, stopped_lines
from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import load_edition

ORIGINAL_CARDS = ROOT / "rulebook" / "original.yaml"
runner = CliRunner()
TURNS = "no winner: the game hit the limit of 5,000 turns"
PLAYS = "no winner: the game hit the limit of 1,000 plays in one turn"


def _edition(write, deck: str, setup: str, draw: str = "draw(me) end_turn()") -> str:
    """A 2-player edition with a Boomerang (it comes straight back to the hand)."""
    write("boomerang.yaml", f"""format: 1
kind: cards
uses: [{ORIGINAL_CARDS}]
cards:
  - id: boomerang
    title: Boomerang
    text: Comes straight back to your hand.
    when: own_turn
    effect: move(this, hand(me))
""")
    return write("stuck.yaml", f"""format: 1
kind: edition
id: stuck
name: Stuck
players: {{min: 2, max: 2}}
include: [{ORIGINAL_CARDS}, boomerang.yaml]
deck: {deck}
setup:
{setup}
turn: {{draw: "{draw}"}}
win: last_standing
""")


@pytest.fixture
def dry_pile(write):
    """A turn's draw that draws nothing: the kitten stays in the pile, and the game goes
    on to the turn limit."""
    return _edition(write, "{exploding_kitten: 1, tacocat: 4, boomerang: 0}", "  - deal: {count: 0}",
                    draw="end_turn()")


@pytest.mark.parametrize("reason, words", [
    ("turn_limit", TURNS),
    ("play_limit", PLAYS),
    ("step_limit", "no winner: the game hit a limit (step_limit)"),
    ("ended", "no winner"),
    (None, "no winner"),
])
def test_no_winner_names_the_limit_that_stopped_the_game(reason, words):
    assert no_winner(reason) == words
    assert is_limit(reason) == (words != "no winner")


def test_outcome_names_the_winners_or_why_there_are_none():
    assert outcome("last_standing", [2]) == "seat 2 wins"
    assert outcome("last_team_standing", [1, 3]) == "seats 1, 3 win together"
    assert outcome("play_limit", []) == PLAYS
    assert no_winner("turn_limit", 5000) == "no winner after 5000 turns: the game hit the limit of 5,000 turns"


def test_a_series_summary_says_which_limit_stopped_how_many_games():
    assert stopped_lines({"last_standing": 8}, 0) == []
    assert stopped_lines({"turn_limit": 2}, 2) == ["no winner: 2, each game stopped at the limit of 5,000 turns"]
    assert stopped_lines({"turn_limit": 2, "play_limit": 1, "ended": 1}, 4) == [
        "no winner: 4", "  2 stopped at the limit of 5,000 turns",
        "  1 stopped at the limit of 1,000 plays in one turn"]


def test_kittens_run_and_replay_say_the_turn_limit_stopped_the_game(dry_pile, tmp_path):
    log = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["run", dry_pile, "-g", "1", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "seed 0: no winner after 5000 turns: the game hit the limit of 5,000 turns" in result.output
    assert "no winner: 1, each game stopped at the limit of 5,000 turns" in result.output
    assert "turn limit)" not in result.output
    as_json = runner.invoke(app, ["run", dry_pile, "-g", "1", "--json"])
    assert json.loads(as_json.output)["ends"] == {"turn_limit": 1}
    replayed = runner.invoke(app, ["replay", str(log)])
    assert f"; {TURNS}" in replayed.output, replayed.output


def test_kittens_simulate_says_which_limit_stopped_its_games(dry_pile):
    result = runner.invoke(app, ["simulate", dry_pile, "-g", "2", "-p", "2"])
    assert result.exit_code == 0, result.output
    assert "games stopped at a limit: 2 (100.0%" in result.output
    assert ": 2 at the limit of 5,000 turns" in result.output


def test_kittens_play_says_a_turn_hit_the_limit_of_plays(write):
    """A person who plays their Boomerang a thousand times in one turn."""
    path = _edition(write, "{exploding_kitten: 1, tacocat: 4, boomerang: 2}",
                    "  - set_aside: [boomerang]\n  - deal: {card: boomerang, count: 1}")
    result = runner.invoke(app, ["play", path, "--seed", "1", "--bots", "random"], input="2\n" * 1001)
    assert result.exit_code == 0, result.output
    assert f"Game over: {PLAYS}." in result.output


def test_the_web_table_says_why_nobody_won(dry_pile):
    from kittens.interpreter.engine.bots import RandomBot
    from kittens.interpreter.engine.simulate import play_game
    from kittens.web.render import table_view
    from kittens.web.words import Words

    game = Game(load_edition(dry_pile), 2)
    state = play_game(game, 0, [RandomBot(0), RandomBot(1)])
    assert state.table.end_reason == "turn_limit"
    assert table_view(state, 0)["no_winner"] == TURNS
    words = Words(game.edition, ["person", "random"])
    assert words.event(state.events[-1], 0) == f"Game over: {TURNS}."
