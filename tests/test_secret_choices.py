"""Choices and secrets in data (issue 42): a number in a range, a place within the top
of a pile, secret answers (a sealed bid) told only to the chooser until shown, hidden
counters, and a random place nobody learns.

The hidden-information tests compare twin games that differ only in the secret: every
seat that may not know it must get the same view, the same event text and the same
information state in both, and the search player must decide alike in both."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_concepts import _play

from kittens.interpreter.engine.encoding import ActionCatalogue
from kittens.interpreter.engine.events import for_seat
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.search import ISMCTSBot
from kittens.interpreter.engine.views import SearchView
from kittens.interpreter.lang.errors import RuleRuntimeError
from kittens.interpreter.rules.load import load_edition

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
_PATHS = {name: str(HOUSE / f"{name}.yaml") for name in
          ("sealed_bids", "blind_defuse", "shallow_defuse", "hidden_partners", "hidden_traitor")}
BIDS = load_edition(_PATHS["sealed_bids"])
BLIND = load_edition(_PATHS["blind_defuse"])
SHALLOW = load_edition(_PATHS["shallow_defuse"])


def _laid(edition, players, hands, pile):
    """A game of ``edition`` with the given hands and pile (top first), seat 0 to play,
    chance left to the caller (test_concepts.py's ``_play``)."""
    return _play(_PATHS[edition.id], players, hands, pile)


def _house_rule(write, name: str, body: str) -> str:
    """A house rule on the Original, written to ``name``: its path."""
    return write(f"{name}.yaml", f"""format: 1
kind: edition
id: {name}
name: {name.replace("_", " ").capitalize()}
extends: {(HOUSE.parent.parent / 'editions' / 'original.yaml').as_posix()}
{body}""")


def _seen(state, seat: int) -> tuple:
    """Everything ``seat`` may know: its view, every event as it sees it, its
    information state."""
    events = [for_seat(event, seat) for event in state.events]
    return (state.view(seat).to_dict(), [e for e in events if e is not None],
            state.information_state_string(seat))


HANDS = {0: ["skip", "skip", "tacocat"], 1: ["beard_cat", "cattermelon", "favor"],
         2: ["shuffle", "nope"], 3: ["attack"]}
PILE = ["skip", "tacocat", "favor", "exploding_kitten", "skip", "nope"]


def _auction(first_bid: int):
    """Sealed bids: seat 0 calls the auction and bids ``first_bid``; seat 1 is asked next."""
    state = _laid(BIDS, 4, HANDS, PILE)
    state.apply_action("act auction")
    decision = state.decision()
    assert (decision.seat, decision.kind, decision.options) == (0, "choose_number", [0, 1, 2, 3])
    assert decision.info["secret"] is True
    state.apply_action(first_bid)
    return state


def test_a_secret_bid_tells_no_other_seat_anything_until_the_bids_are_shown():
    low, high = _auction(0), _auction(2)
    assert low.decision().seat == high.decision().seat == 1
    assert low.decision().kind == "choose_number" and low.decision().options == [0, 1, 2, 3]
    for seat in (1, 2, 3):  # a zero bid (the counter's start) and a bid of two look alike
        assert _seen(low, seat) == _seen(high, seat), seat
    assert _seen(low, 0) != _seen(high, 0)  # the bidder knows its own bid
    assert high.view(0).counters["bid"] == [2, None, None, None]
    assert high.view(1).counters["bid"] == [None, 0, None, None]
    # everyone bids: still nothing told, until the bids are copied into `shown_bid`
    for state in (low, high):
        for bid in (1, 0, 0):
            state.apply_action(bid)
    assert low.table.counters["shown_bid"] == [0, 1, 0, 0]
    assert high.table.counters["shown_bid"] == [2, 1, 0, 0]
    assert _seen(low, 2) != _seen(high, 2)  # shown now: the test can tell the twins apart


def test_the_search_player_decides_alike_on_twin_secret_bids():
    low, high = _auction(0), _auction(3)
    for state in (low, high):  # the worlds it is dealt hold no one else's bid
        world = state.resample_from_view(1, random.Random(5))
        assert world.table.counters["bid"] == [0, 0, 0, 0]

    def decide(state):
        bot = ISMCTSBot(3, 1, iterations=8)
        bot.start(state.game, 1)
        return bot.choose(SearchView(state, 1), state.decision())
    assert decide(low) == decide(high)


def test_a_hidden_counter_stays_hidden_in_views_and_events_even_unchanged(write):
    # a value set to what it was is told as a change too: no event would tell the others
    state = _auction(0)  # seat 0's bid equals the start value 0
    moves = [e for e in state.events if e["type"] == "counter"]
    assert moves and moves[-1]["seat"] == 0
    assert "value" not in for_seat(moves[-1], 1) and for_seat(moves[-1], 0)["value"] == 0


def test_a_counter_nobody_may_see_is_shown_to_no_seat(write):
    path = _house_rule(write, "nobody_sees", """counters:
  fate: {visible: nobody, max: 9}
triggers:
  - id: seal
    on: game_start
    text: Fate is sealed.
    effect: set_counter("fate", 7)
""")
    state = Game(load_edition(str(path)), 3).new_state(4)
    assert state.table.counters["fate"][state.table.current] == 7
    for seat in range(3):
        assert state.view(seat).counters["fate"] == [None, None, None]
        told = [for_seat(e, seat) for e in state.events if e["type"] == "counter"]
        assert told and all("value" not in e for e in told)


def _blind_defused(place: int, edition=BLIND):
    """Seat 0 draws a kitten and defuses it; the kitten goes back at ``place`` (a random
    place fixed by the caller, or the one seat 0 picks)."""
    state = _laid(edition, 3, {0: ["defuse", "skip"], 1: ["nope"], 2: ["tacocat"]},
                  ["exploding_kitten", "skip", "favor", "tacocat", "beard_cat"])
    state.apply_action("draw")
    if state.is_chance_node():
        assert [o for o, _p in state.chance_outcomes()] == [0, 1, 2, 3, 4]
    state.apply_action(place)
    return state


def test_a_random_place_is_learnt_by_no_seat_not_even_the_one_who_put_it_back():
    top, deep = _blind_defused(0), _blind_defused(3)
    assert [inst.id for inst in top.table.draw_pile.cards][0] == "exploding_kitten"
    assert [inst.id for inst in deep.table.draw_pile.cards][3] == "exploding_kitten"
    for seat in range(3):
        assert _seen(top, seat) == _seen(deep, seat), seat
        assert top.view(seat).draw_pile_known() == {}


def test_a_place_picked_within_the_top_three_is_known_to_the_picker_alone():
    state = _laid(SHALLOW, 3, {0: ["defuse", "skip"], 1: ["nope"], 2: ["tacocat"]},
                  ["exploding_kitten", "skip", "favor", "tacocat", "beard_cat"])
    state.apply_action("draw")
    decision = state.decision()
    assert (decision.kind, decision.options, decision.info["within"]) == ("choose_position", [0, 1, 2], 3)
    state.apply_action(2)
    assert state.view(0).draw_pile_known() == {2: "exploding_kitten"}
    assert state.view(1).draw_pile_known() == {}


def test_within_a_pile_smaller_than_it_offers_every_place():
    state = _laid(SHALLOW, 3, {0: ["defuse", "skip"], 1: ["nope"], 2: ["tacocat"]}, ["exploding_kitten", "skip"])
    state.apply_action("draw")
    assert state.decision().options == [0, 1] and "within" not in state.decision().info


@pytest.mark.parametrize("call, wanted", [
    ("choose_number(3, 1)", "holds no number: nobody can answer it"),
    ("choose_number(0, 500)", "must lie from 0 to 100"),
    ("choose_number(-2, 1)", "must lie from 0 to 100"),
])
def test_a_number_nobody_can_choose_stops_with_the_rule_and_its_line(write, call, wanted):
    path = _house_rule(write, "hostile", f"""triggers:
  - id: bad_bid
    on: game_start
    text: Everyone bids.
    effect: set_counter("c", {call})
counters:
  c: {{}}
""")
    with pytest.raises(RuleRuntimeError) as caught:
        Game(load_edition(str(path)), 3).new_state(0)
    assert wanted in str(caught.value)
    assert "trigger 'bad_bid'" in str(caught.value) and "hostile.yaml:7)" in str(caught.value)


def test_a_range_of_one_number_asks_nobody_and_the_catalogue_holds_every_number():
    state = _auction(0)
    for bid in (0, 0, 0):
        state.apply_action(bid)
    assert state.decision().kind != "choose_number"
    catalogue = ActionCatalogue(BIDS)
    assert all(catalogue.index(number) >= 0 for number in range(101))
    assert "choose_number" in __import__("kittens.interpreter.engine.encoding", fromlist=["x"]).DECISION_KINDS


def test_the_rulesheet_says_who_sees_a_counter_and_how_a_number_is_chosen():
    def sheet(name):
        done = subprocess.run([sys.executable, "-m", "kittens", "rules", str(HOUSE / f"{name}.yaml")],
                              capture_output=True, text=True, check=True)
        return " ".join(done.stdout.split())
    text = sheet("sealed_bids")
    assert "starting at 0 (each player's own, secret from the others)" in text
    assert "a number from 0 to the smaller of 3 and the number of cards in that player's hand " \
           "that that player chooses in secret (nobody else learns it until it is shown)" in text
    assert "keeps public counts" not in text and "keeps counts, some of them secret" in text
    assert "into the draw pile at a random place that nobody learns" in sheet("blind_defuse")
    assert "into the draw pile at a place within the top 3 places you choose" in sheet("shallow_defuse")
    assert "a player picked at random among the players still in the game (no one is told who)" \
        in sheet("hidden_traitor")
    assert "each knows only their own team, not who their partners are" in sheet("hidden_partners")


@pytest.mark.parametrize("name, signature", [
    ("choose_number", "choose_number(low, high, by=me, secret=false) -> int"),
    ("random_position", "random_position(zone, within=0) -> int"),
    ("choose_position", "choose_position(zone, by=me, within=0) -> int"),
])
def test_the_language_server_completes_and_explains_the_new_primitives(name, signature):
    from kittens.lsp.analysis import analyse, completions, hover
    path = str(HOUSE / "sealed_bids.yaml")
    text = (HOUSE / "sealed_bids.yaml").read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(text.split("\n")) if "set_counter(\"bid\"" in row)
    analysis = analyse(path, text)
    column = text.split("\n")[line].index("choose_number")
    found = {item.label: item for item in completions(analysis, line, column)}
    assert found[name].detail == signature
    assert "choose_number(low, high" in (hover(analysis, line, column + 2) or "")


# -- teams dealt at random, kept secret --------------------------------------------
PARTNERS = load_edition(str(HOUSE / "hidden_partners.yaml"))


def _twin_teams(seed: int = 2):
    """Two copies of one game of Hidden Partners in which seat 0 is on the same team but
    its partner differs (the other seats' teams swapped)."""
    state = Game(PARTNERS, 4).new_state(seed)
    teams = state.table.team_list
    mine = teams[0]
    partner = next(seat for seat in (1, 2, 3) if teams[seat] == mine)
    other = next(seat for seat in (1, 2, 3) if teams[seat] != mine)
    twin = state.clone()
    swapped = list(teams)
    swapped[partner], swapped[other] = swapped[other], swapped[partner]
    twin.table.team_list = swapped
    return state, twin


def test_secret_teams_are_dealt_by_the_seed_and_each_seat_sees_only_its_own():
    dealt = {tuple(Game(PARTNERS, 4).new_state(seed).table.team_list) for seed in range(12)}
    assert len(dealt) > 1 and all(sorted(teams) == [0, 0, 1, 1] for teams in dealt)
    assert Game(PARTNERS, 4).new_state(3).table.team_list == Game(PARTNERS, 4).new_state(3).table.team_list
    state, twin = _twin_teams()
    assert state.table.team_list != twin.table.team_list
    assert _seen(state, 0) == _seen(twin, 0)
    assert state.view(0).teams == [state.table.team_list[0], None, None, None]
    assert _seen(state, 1) != _seen(twin, 1)  # a seat whose own team changed can tell


def test_the_search_player_gets_the_same_worlds_and_decision_on_twin_secret_teams():
    state, twin = _twin_teams()
    assert state.resample_from_view(0, random.Random(9)).table.team_list == \
        twin.resample_from_view(0, random.Random(9)).table.team_list

    def decide(game_state):
        bot = ISMCTSBot(3, 0, iterations=8)
        bot.start(game_state.game, 0)
        return bot.choose(SearchView(game_state, 0), game_state.decision())
    assert decide(state) == decide(twin)


def test_teams_dealt_in_turn_show_nothing_new_in_views():
    state = Game(load_edition(str(HOUSE / "partners.yaml")), 4).new_state(0)
    assert state.table.team_list == [0, 1, 0, 1] and "teams" not in state.view(0).to_dict()


def test_the_last_one_standing_in_a_team_game_wins_with_the_partner_who_is_out(write):
    from kittens.interpreter.engine.table import GameOver
    path = _house_rule(write, "team_last_standing", "players: {min: 4, max: 4}\nteams: {count: 2}\n")
    state = Game(load_edition(str(path)), 4).new_state(0)
    table = state.table
    table.eliminate(2)  # seat 0's partner goes out first
    table.eliminate(1)
    with pytest.raises(GameOver):
        table.eliminate(3)
    assert table.winners == (0, 2)


# -- a secret role dealt at random -------------------------------------------------
TRAITOR = load_edition(str(HOUSE / "hidden_traitor.yaml"))


def _traitor(seat: int):
    state = _laid(TRAITOR, 3, {0: ["skip"], 1: ["tacocat"], 2: ["beard_cat"]},
                  ["exploding_kitten", "skip", "skip"])
    assert state.is_chance_node() and [o for o, _p in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(seat)
    return state


def test_a_secret_role_dealt_at_random_is_known_to_its_holder_alone():
    one, two = _traitor(1), _traitor(2)
    assert one.table.counters["traitor"] == [0, 1, 0] and two.table.counters["traitor"] == [0, 0, 1]
    assert _seen(one, 0) == _seen(two, 0)
    assert _seen(one, 1) != _seen(two, 1) and _seen(one, 2) != _seen(two, 2)
    assert one.view(1).counters["traitor"] == [None, 1, None]


# -- the learning adapters ---------------------------------------------------------
SECRET_EXAMPLES = ["sealed_bids", "hidden_partners", "hidden_traitor", "blind_defuse", "shallow_defuse"]


@pytest.mark.parametrize("name", SECRET_EXAMPLES)
def test_pettingzoo_and_openspiel_tests_pass_on_secret_choices_and_roles(name):
    """PettingZoo's api_test and OpenSpiel's random_sim_test, each on the example."""
    import warnings
    pytest.importorskip("pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")
    from pettingzoo.test import api_test

    import kittens.openspiel as kos
    from kittens.adapters.pettingzoo import aec_env
    with warnings.catch_warnings():  # advice about Dict observations
        warnings.simplefilter("ignore")
        api_test(aec_env(_PATHS[name], 4, render_mode="ansi"), num_cycles=150)
    pyspiel.random_sim_test(pyspiel.load_game(kos.SHORT_NAME, {"rules": _PATHS[name], "players": 4, "variant": ""}),
                            num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", ["sealed_bids", "hidden_partners", "hidden_traitor", "blind_defuse"])
def test_bots_and_the_search_player_play_the_secret_examples_to_the_end(name):
    from kittens.interpreter.engine.players import make_players
    from kittens.interpreter.engine.simulate import play_game
    game = Game(load_edition(str(HOUSE / f"{name}.yaml")), 4)
    state = play_game(game, 3, make_players(["ismcts:iterations=4", "heuristic", "random"], 4, 3))
    assert state.is_terminal() and state.winners


def test_the_web_table_and_terminal_play_ask_for_a_number_and_a_place_within_the_top():
    from kittens.adapters.terminal import HumanTable, Terminal
    from kittens.web.words import Words
    state = _laid(BIDS, 4, HANDS, PILE)
    state.apply_action("act auction")
    decision = state.decision()
    words, table = Words(BIDS, ["person"] * 4), HumanTable(state, [0], {}, Terminal(lambda _: "", lambda *_: None))
    for question in (words.question(decision, 0), table._question(decision, 0)):
        assert question.endswith("pick a number from 0 to 3 (only you will know it until it is shown)")
    assert words.option(decision, 2, {}) == {"label": "2"} and table._label(decision, 2) == "2"
    shallow = _laid(SHALLOW, 3, {0: ["defuse", "skip"], 1: ["nope"], 2: ["tacocat"]},
                    ["exploding_kitten", "skip", "favor", "tacocat", "beard_cat"])
    shallow.apply_action("draw")
    places = shallow.decision()  # the top three places of five: the third is not the bottom
    assert [Words(SHALLOW, ["person"] * 3).option(places, p, {})["label"] for p in places.options] == \
        ["top", "place 2", "place 3"]
    terminal = HumanTable(shallow, [0], {}, Terminal(lambda _: "", lambda *_: None))
    assert [terminal._label(places, p) for p in places.options] == ["place 1 (top)", "place 2", "place 3"]


def test_the_web_table_and_the_terminal_show_a_hidden_counter_only_to_its_owner():
    import io

    from kittens.adapters.terminal import HumanTable, Terminal
    from kittens.web.render import table_view
    from kittens.web.words import Words
    state = _auction(2)
    mine, theirs = table_view(state, 0)["seats"], table_view(state, 1)["seats"]
    assert mine[0]["counters"] == {"bid": 2, "shown_bid": 0} and theirs[0]["counters"] == {"shown_bid": 0}
    assert table_view(state, None)["seats"][0]["counters"] == {"shown_bid": 0}
    told = [for_seat(e, 1) for e in state.events if e["type"] == "counter"][0]
    assert Words(BIDS, ["person"] * 4).event(told, 1).endswith("bid was set, in secret.")
    out = io.StringIO()
    terminal = HumanTable(state, [0, 1, 2, 3], {}, Terminal(lambda _: "", lambda text="": out.write(text + "\n")))
    terminal._show_table(1)
    assert "Bid: seat 0 ?, you 0, seat 2 ?, seat 3 ?" in out.getvalue()
