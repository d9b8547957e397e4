"""`kittens play`: a person (or several, hot-seat) against bots in the terminal."""

import re

from conftest import ROOT
from typer.testing import CliRunner

from kittens.adapters.terminal import HumanTable, Quit, Terminal
from kittens.cli import app
from kittens.interpreter.engine.bots import HeuristicBot
from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import load_edition

ORIGINAL = str(ROOT / "editions" / "original.yaml")
runner = CliRunner()


def test_a_person_plays_a_whole_game_against_a_bot(tmp_path):
    log = tmp_path / "game.jsonl"
    result = runner.invoke(app, ["play", ORIGINAL, "-p", "2", "--seed", "3", "--log", str(log)],
                           input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Your hand:" in result.output and "Game over: seat" in result.output
    assert "Traceback" not in result.output
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_quitting_says_how_to_play_the_same_game_again():
    result = runner.invoke(app, ["play", ORIGINAL, "-p", "3", "--seed", "8"], input="q\n")
    assert result.exit_code == 0
    assert "Play this game again with --seed 8" in result.output


def test_end_of_input_stops_cleanly():
    result = runner.invoke(app, ["play", ORIGINAL, "-p", "2", "--seed", "1"], input="")
    assert result.exit_code == 0 and "Stopped" in result.output


def test_bad_seat_is_a_usage_error():
    result = runner.invoke(app, ["play", ORIGINAL, "-p", "2", "--seat", "5"])
    assert result.exit_code == 2 and "no seat 5" in result.output


def test_hot_seat_gives_every_person_a_prompt_in_every_window():
    """Two people and a bot: each play by one person gives the other exactly one
    answer prompt (a real one or an empty one), so the screen shows nothing about
    who holds a Nope."""
    edition = load_edition(ORIGINAL)
    game = Game(edition, 3)
    state = game.new_state(5)
    bot = HeuristicBot(5, 1)
    bot.start(game, 1)
    lines: list[str] = []
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        if len(prompts) > 3000:
            raise EOFError
        return "1"

    table = HumanTable(state, [0, 2], {1: bot}, Terminal(read=read, write=lines.append))
    table.play()
    assert state.is_terminal()
    text = "\n".join(lines)
    windows = [e for e in state.events if e["type"] == "window"]
    answers_offered = text.count("Answer it?") + text.count("nothing to answer it with")
    # every window gives a prompt to each other living person at least once
    assert answers_offered >= len([w for w in windows if w["seat"] in (0, 2)])
    asked = "\n".join(prompts)
    assert "Pass the screen to seat 2" in asked and "Pass the screen to seat 0" in asked


def test_table_shows_only_what_the_seat_may_know():
    edition = load_edition(ORIGINAL)
    game = Game(edition, 2)
    state = game.new_state(2)
    lines: list[str] = []
    table = HumanTable(state, [0], {1: HeuristicBot(2, 1)}, Terminal(read=lambda p: "q", write=lines.append))
    try:
        table.play()
    except Exception:
        pass
    text = "\n".join(lines)
    hand = re.search(r"Your hand: (.*)", text).group(1)
    titles = sorted(edition.cards[c.id].title for c in state.table.hands[0].cards)
    assert sorted(hand.split(", ")) == titles
    assert "Draw pile: 35 cards" in text and "place 1:" not in text  # no pile card is known yet


# -- issue 13: titles everywhere, `?`, a knock-out in one line ------------------------
def _transcript(edition: str, seed: int, players: int = 3) -> str:
    result = runner.invoke(app, ["play", edition, "-p", str(players), "--seed", str(seed), "--bots", "random"],
                           input="1\n" * 600)
    assert result.exit_code == 0, result.output
    return result.output


def test_every_prompt_and_line_names_cards_and_combos_by_title():
    for edition in ("original", "imploding", "streaking", "barking", "good_vs_evil"):
        for seed in (1, 2):
            text = _transcript(edition, seed)
            assert re.findall(r"\b[a-z]+_[a-z_]+\b", text) == [], (edition, seed)


def test_a_knock_out_is_one_line():
    text = _transcript("original", 1)
    outs = [line for line in text.splitlines() if "out of the game" in line]
    assert outs, text[-2000:]
    for line in outs:
        assert "cards went to the discard pile:" in line and "Exploding Kitten shown" in line
    # the hand's cards are not told one discard at a time before it
    before = text.splitlines()[text.splitlines().index(outs[0]) - 1]
    assert "discarded" not in before


def test_a_question_mark_shows_the_text_of_cards():
    result = runner.invoke(app, ["play", "original", "-p", "2", "--seed", "4"], input="?\n? 2\nq\n")
    assert result.exit_code == 0
    assert "Defuse: Keeps you alive when you draw an Exploding Kitten" in result.output  # `?`: the hand
    assert "  Favor: Pick another player who holds cards." in result.output  # `? 2`: option 2's card


def test_terminal_play_shows_counters_free_actions_and_final_scores():
    rules = str(ROOT / "examples" / "house-rules" / "most_cats.yaml")
    result = runner.invoke(app, ["play", rules, "-p", "3", "--seed", "2"], input="1\n" * 600)
    assert result.exit_code == 0, result.output
    assert re.search(r"Banked: you \d+, seat 1 \d+, seat 2 \d+", result.output)
    assert re.search(r"Scores: seat 0 \d+, seat 1 \d+, seat 2 \d+", result.output)
    gifts = str(ROOT / "examples" / "house-rules" / "partner_gifts.yaml")
    result = runner.invoke(app, ["play", gifts, "-p", "4", "--seed", "2"], input="1\n" * 600)
    assert result.exit_code == 0, result.output
    assert "Give your partner a card" in result.output and "Traceback" not in result.output


class _Noper:
    """A bot that answers every play it can with a Nope, and otherwise draws or passes."""
    name = "noper"

    def choose(self, view, decision):
        return "play nope" if "play nope" in decision.options else decision.options[0]


def test_each_nope_says_whether_the_play_now_stands_or_is_cancelled():
    """Issue 41: at a Nope the prompt only said "You played Attack. Answer it?", so a
    person had to count the Nopes to know where the Attack stood. Now the answer's line
    and the next prompt say it: cancelled after a Nope, standing again after a Nope of
    that Nope."""
    edition = load_edition(ORIGINAL)

    def layout(table):
        for card in ("attack", "nope"):
            table.new_card(edition.cards[card], table.hands[0])
        table.new_card(edition.cards["nope"], table.hands[1])
        for _ in range(6):
            table.new_card(edition.cards["tacocat"], table.draw_pile)

    state = Game(edition, 2).new_state(0, layout=layout)
    lines: list[str] = []
    answers = iter(["2", "2", "q"])  # play Attack, Nope the Nope, then stop
    table = HumanTable(state, [0], {1: _Noper()}, Terminal(read=lambda prompt: next(answers),
                                                           write=lines.append))
    try:
        table.play()
    except Quit:
        pass
    text = "\n".join(lines)
    assert "* Seat 1 (noper) answered with Nope: the Attack is cancelled, unless someone answers again." in text
    assert ("You played Attack; seat 1 (noper) answered with Nope. As it stands, the Attack is "
            "cancelled. Answer the Nope of seat 1 (noper)?") in text
    assert "* You answered with Nope: the Attack stands again." in text
    assert "Seat 1 (noper) now owes 2 turns." in text


def test_where_a_chain_of_answers_leaves_the_play(write):
    """Answers resolve from the last: a cancel cancels the one below unless it was
    cancelled itself; an answer that does not cancel changes nothing, and one that
    cancels only under a condition leaves the outcome untold."""
    from kittens.interpreter.words.answers import cancels, play_stands, standing

    write("answers.yaml", f"""format: 1
kind: cards
uses: [{ROOT / "rulebook" / "original.yaml"}]
cards:
  - id: shrug
    title: Shrug
    text: Answer a card to draw a card; it cancels nothing.
    when: reaction
    effect: draw(me)
  - id: maybe
    title: Maybe Nope
    text: Cancel a card you answer, if you hold no Defuse.
    when: reaction
    effect: 'if not has(me, "defuse") {{ cancel() }}'
""")
    path = write("answers_edition.yaml", f"""format: 1
kind: edition
id: answers
name: Answers
players: {{min: 2, max: 2}}
include: [{ROOT / "rulebook" / "original.yaml"}, answers.yaml]
deck: {{exploding_kitten: 1, nope: 2, shrug: 1, maybe: 1, tacocat: 4}}
setup:
  - deal: {{count: 0}}
turn: {{draw: "draw(me) end_turn()"}}
win: last_standing
""")
    edition = load_edition(path)
    assert [cancels(edition, c) for c in ("nope", "shrug", "maybe", "tacocat")] == [True, False, None, False]
    for answers, stands in [([], True), (["nope"], False), (["nope", "nope"], True),
                            (["nope", "nope", "nope"], False), (["shrug"], True),
                            (["nope", "shrug"], False), (["shrug", "nope"], True), (["maybe"], None)]:
        assert play_stands(edition, answers) is stands, answers
    assert standing(edition, ["nope", "nope"], "Skip") == "the Skip stands again"
    assert standing(edition, ["shrug"], "Skip") == "the Skip stands"
    assert standing(edition, ["nope"], "Skip", open_=False) == "the Skip is cancelled"
    assert "depends" in standing(edition, ["maybe"], "Skip")
