"""The bots: deterministic, legal, and the heuristic one plays sensibly."""

import pytest
from conftest import ROOT

from kittens.interpreter.engine.bots import HeuristicBot, RandomBot
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import make_bots
from kittens.interpreter.engine.simulate import run_games
from kittens.interpreter.rules.load import load_edition

EDITION = load_edition(str(ROOT / "editions" / "original.yaml"))


def _state(players, hands, pile, seat=0, owed=1):
    game = Game(EDITION, players)

    def layout(table):
        for s, cards in hands.items():
            for card_id in cards:
                table.new_card(EDITION.cards[card_id], table.hands[s])
        for card_id in pile:
            table.new_card(EDITION.cards[card_id], table.draw_pile)
        table.current, table.owed[seat] = seat, owed
        table.attacked[seat] = owed > 1

    state = game.new_state(0, layout=layout)
    bots = [HeuristicBot(0, s) for s in range(players)]
    for s, bot in enumerate(bots):
        bot.start(game, s)
    return state, bots


def _ask(state, bots):
    decision = state.decision()
    return bots[decision.seat].choose(state.view(decision.seat), decision)


def test_nopes_an_attack_aimed_at_it():
    state, bots = _state(3, {0: ["attack"], 1: ["nope"], 2: ["nope"]}, ["tacocat"] * 3)
    state.apply_action("play attack")
    assert state.decision().seat == 1 and _ask(state, bots) == "play nope"
    state.apply_action("play nope")
    # seat 0 has no Nope to fight back with; seat 2 is not the target: it passes
    assert state.decision().seat == 2 and _ask(state, bots) == "pass"


def test_fights_back_when_its_own_play_is_noped():
    state, bots = _state(2, {0: ["attack", "nope"], 1: ["nope"]}, ["tacocat"] * 3)
    state.apply_action("play attack")
    state.apply_action("play nope")  # seat 1 cancels the attack
    assert state.decision().seat == 0 and _ask(state, bots) == "play nope"


def test_hides_a_defused_kitten_on_top_for_the_next_player():
    state, bots = _state(2, {0: ["defuse"]}, ["exploding_kitten", "tacocat", "tacocat"])
    state.apply_action("draw")
    assert state.decision().kind == "choose_position" and _ask(state, bots) == 0


def test_buries_the_kitten_when_it_must_draw_again():
    state, bots = _state(2, {0: ["defuse"]}, ["exploding_kitten", "tacocat", "tacocat"], owed=2)
    state.apply_action("draw")
    assert _ask(state, bots) == 2  # the bottom of a two-card pile


def test_uses_what_it_saw():
    state, bots = _state(2, {0: ["see_the_future", "skip"], 1: ["tacocat"]},
                         ["exploding_kitten", "tacocat", "tacocat"])
    state.apply_action("play see_the_future")
    assert _ask(state, bots) == "play skip"


def test_gives_away_its_least_useful_card():
    state, bots = _state(2, {0: ["favor"], 1: ["defuse", "tacocat", "nope"]}, ["tacocat"] * 3)
    state.apply_action("play favor")  # seat 1, the only other player, is taken unasked
    while state.decision().kind == "answer":
        state.apply_action("pass")
    assert state.decision().seat == 1 and _ask(state, bots) == "tacocat"


def test_bots_are_deterministic_and_always_legal():
    game = Game(EDITION, 4)
    first = run_games(game, games=30, seed=9, bots=["heuristic", "random"])
    second = run_games(game, games=30, seed=9, bots=["heuristic", "random"])
    assert first.results == second.results  # apply_action would raise on an illegal option


def test_heuristic_beats_random():
    summary = run_games(Game(EDITION, 4), games=300, seed=1,
                        bots=["heuristic", "random", "random", "random"])
    assert summary.wins.get(0, 0) / summary.games > 0.5  # measured: about 75%


def test_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        make_bots(["genius"], 2, 0)
    assert isinstance(make_bots(["random"], 2, 0)[1], RandomBot)


@pytest.mark.parametrize("edition", ["original", "party", "imploding"])
def test_a_heuristic_bot_nobody_started_still_plays_whole_games(edition):
    # start() is optional in the player protocol: a bot used without it must not fail
    game = Game(load_edition(edition), 4)
    for seed in range(4):
        state = game.new_state(seed, record=False)
        bots = [HeuristicBot(seed, seat) for seat in range(4)]
        steps = 0
        while not state.is_terminal() and steps < 20000:
            decision = state.decision()
            state.apply_action(bots[decision.seat].choose(state.view(decision.seat), decision))
            steps += 1
        assert state.is_terminal()
