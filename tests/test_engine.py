"""The engine's step API, setup, chance, windows, logs and the run/replay commands."""

import inspect
import json
from collections import Counter

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.engine.bots import RandomBot
from kittens.interpreter.engine.decisions import CHANCE, TERMINAL
from kittens.interpreter.engine.events import for_seat
from kittens.interpreter.engine.game import TURN_LIMIT, Game, GameError
from kittens.interpreter.engine.logwriter import dumps
from kittens.interpreter.engine.simulate import play_game
from kittens.interpreter.lang import primitives as P
from kittens.interpreter.rules.load import load_edition

ORIGINAL = str(ROOT / "editions" / "original.yaml")
EDITION = load_edition(ORIGINAL)


def test_every_declared_primitive_has_an_implementation_of_its_arity():
    for name, primitive in P.PRIMITIVES.items():
        wanted = len(primitive.params) + 1  # the context comes first
        assert len(inspect.signature(primitive.impl).parameters) == wanted, name
        assert primitive.impl.__name__.rstrip("_") == name  # declared beside its own code


# -- setup (ruling 1) -----------------------------------------------------------
def _after_setup(edition, players, seed=3):
    state = Game(edition, players).new_state(seed)
    table = state.table
    return table, {z.name: Counter(c.id for c in z.cards) for z in table.zones()}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_original_setup(players):
    table, zones = _after_setup(EDITION, players)
    for seat in range(players):
        hand = zones[f"hand {seat}"]
        assert sum(hand.values()) == 8 and hand["defuse"] >= 1
        assert hand["exploding_kitten"] == 0
    spare = min(2, 6 - players)
    assert zones["draw_pile"]["exploding_kitten"] == players - 1
    assert zones["draw_pile"]["defuse"] + sum(zones[f"hand {s}"]["defuse"] for s in range(players)) \
        == players + spare
    assert zones["removed"] == Counter({"exploding_kitten": 4 - (players - 1),
                                        "defuse": 6 - players - spare})
    assert sum(len(z.cards) for z in table.zones()) == 56
    assert len(table.draw_pile.cards) == 56 - 8 * players - sum(zones["removed"].values())
    assert table.current == 0 and table.owed[0] == 1


@pytest.mark.parametrize("players,spare", [(2, 2), (3, 2), (4, 1), (5, 1)])
def test_older_printing_setup(players, spare):
    _table, zones = _after_setup(EDITION.variants["older_printing"], players)
    assert all(sum(zones[f"hand {s}"].values()) == 5 for s in range(players))
    assert zones["draw_pile"]["defuse"] == spare


def test_setup_is_shuffled_by_the_seed():
    a, _ = _after_setup(EDITION, 4, seed=1)
    b, _ = _after_setup(EDITION, 4, seed=2)
    assert [c.id for c in a.draw_pile.cards] != [c.id for c in b.draw_pile.cards]


# -- the step API ---------------------------------------------------------------
def test_an_effect_that_ends_the_game_stops_its_frame_and_every_frame_under_it():
    """A Stop (GameOver) raised inside effect code comes back from the effect machine as
    machine.STOPPED, passed up as a wait is; the game's loop then clears every frame."""
    from kittens.interpreter.lang.machine import CALLF, EXEC, STOPPED, ProgramFrame, Stop

    ran = []

    def stop(_ctx):
        raise Stop()

    frame = ProgramFrame(((EXEC, stop), (CALLF, ran.append, False, False)), None)
    assert frame.step(None, None) is STOPPED and ran == []
    game = Game(EDITION, 2)
    ended = 0
    for seed in range(30):  # a two-player game ends when an exploding kitten eliminates someone
        state = play_game(game, seed, [RandomBot(seed), RandomBot(seed + 1)], record=False)
        assert state.is_terminal() and state.stack == [] and state.decision() is None
        ended += state.winner is not None
    assert ended == 30


def test_step_api_and_errors():
    state = Game(EDITION, 3).new_state(0)
    assert state.current_player() == 0
    decision = state.decision()
    assert decision.kind == "action" and state.legal_actions()[0] == "draw"
    with pytest.raises(GameError, match="not a legal option"):
        state.apply_action("play exploding_kitten")
    rng_bot = RandomBot(0, 0)
    while not state.is_terminal():
        d = state.decision()
        state.apply_action(rng_bot.choose(state.view(d.seat), d))
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    with pytest.raises(GameError, match="over"):
        state.apply_action("draw")


class _CountingRandomBot(RandomBot):
    """The random bot through its own ``choose`` (play_game makes the pick itself only for
    RandomBot exactly), counting the decisions it was asked."""

    asked = 0

    def choose(self, view, decision):
        type(self).asked += 1
        return super().choose(view, decision)


@pytest.mark.parametrize("players", [2, 4, 5])
def test_play_games_shortcut_for_the_random_bot_picks_what_its_choose_picks(players):
    """play_game picks for the engine's RandomBot without building its view: the same
    events, seed for seed, as the bot asked through choose with a view."""
    game = Game(EDITION, players)
    for seed in range(12):
        quick = play_game(game, seed, [RandomBot(seed, s) for s in range(players)])
        asked = _CountingRandomBot.asked
        slow = play_game(game, seed, [_CountingRandomBot(seed, s) for s in range(players)])
        assert _CountingRandomBot.asked > asked  # the subclass was asked: no shortcut for it
        assert [dumps(e) for e in quick.events] == [dumps(e) for e in slow.events], seed


def test_players_out_of_range_are_refused():
    with pytest.raises(GameError, match="2 to 5 players"):
        Game(EDITION, 6)


def test_explicit_chance_plays_the_same_game_as_implicit():
    game = Game(EDITION, 4)
    implicit = play_game(game, 11, [RandomBot(11, s) for s in range(4)])
    state = game.new_state(11, explicit_chance=True)
    bots = [RandomBot(11, s) for s in range(4)]
    chance_nodes = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            chance_nodes += 1
            state.apply_action(state.sample_chance())
            continue
        d = state.decision()
        option = d.options[0] if len(d.options) == 1 else bots[d.seat].choose(state.view(d.seat), d)
        state.apply_action(option)
    assert chance_nodes >= 2  # the two setup shuffles at least
    strip = [dumps(e) for e in state.events if e["type"] != "chance"]
    assert strip == [dumps(e) for e in implicit.events]


def test_chance_outcomes_are_checked():
    state = Game(EDITION, 2).new_state(0, explicit_chance=True)
    # a shuffle has too many orders to list: one is sampled, the only legal outcome offered
    assert state.current_player() == CHANCE and state.is_chance_node()
    (order,) = state.legal_actions()
    assert sorted(order) == list(range(len(order))) and state.chance_outcomes() == [(order, 1.0)]
    assert state.legal_actions() == [order]  # asked again: the same sample
    with pytest.raises(GameError, match="permutation"):
        state.apply_action([0, 0])


def test_turn_limit_stops_a_game_that_cannot_end():
    game = Game(EDITION, 2)

    def empty_table(table):
        table.new_card(EDITION.cards["tacocat"], table.hands[0])

    state = game.new_state(0, layout=empty_table)
    while not state.is_terminal():
        state.apply_action("draw")
    assert state.winner is None and state.table.turn == TURN_LIMIT
    assert state.events[-1] == {"type": "game_over", "winner": None, "reason": "turn_limit"}


# -- reaction windows leak nothing (ruling 6) ------------------------------------
def _public_after_skip(seat2_card):
    game = Game(EDITION, 3)

    def layout(table):
        table.new_card(EDITION.cards["skip"], table.hands[0])
        table.new_card(EDITION.cards[seat2_card], table.hands[2])
        for card_id in ("tacocat", "beard_cat"):
            table.new_card(EDITION.cards[card_id], table.draw_pile)

    state = game.new_state(0, layout=layout)
    state.apply_action("play skip")
    if state.current_player() == 2:  # asked to answer: pass
        assert state.decision().kind == "answer"
        state.apply_action("pass")
    assert state.current_player() == 1
    return [e for e in (for_seat(e, 1) for e in state.events) if e is not None]


def test_who_holds_a_nope_is_not_observable():
    with_nope = _public_after_skip("nope")
    without = _public_after_skip("cattermelon")
    assert with_nope == without  # seat 1 cannot tell whether seat 2 was asked


# -- logs, run and replay --------------------------------------------------------
runner = CliRunner()


def test_run_json_reports_200_games_each_won():
    result = runner.invoke(app, ["run", ORIGINAL, "--players", "4", "--games", "200", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["wins_by_bot"] == {"random": 200}
    assert summary["games"] == 200
    assert sum(summary["wins"].values()) == 200 and set(summary["wins"]) == {"0", "1", "2", "3"}
    assert summary["no_winner"] == 0


def test_run_text_and_bots(tmp_path):
    result = runner.invoke(app, ["run", ORIGINAL, "-p", "3", "-g", "2", "--bots", "heuristic,random"])
    assert result.exit_code == 0
    assert "seat 0 (heuristic)" in result.output and "seed 1:" in result.output
    many = runner.invoke(app, ["run", ORIGINAL, "-g", "30"])
    assert "seed 29:" not in many.output and "30 games" in many.output
    every = runner.invoke(app, ["run", ORIGINAL, "-g", "30", "--each"])
    assert every.output.count(" wins after ") == 30


@pytest.mark.parametrize("args,message", [
    (["-p", "9"], "2 to 5 players"),
    (["--bots", "clever"], "unknown bot 'clever'"),
    (["--variant", "nope"], "no variant 'nope'"),
])
def test_run_usage_errors(args, message):
    result = runner.invoke(app, ["run", ORIGINAL, *args])
    assert result.exit_code in (1, 2)
    assert message in result.output


def test_log_replays_and_a_tampered_log_does_not(tmp_path):
    log = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["run", ORIGINAL, "-p", "4", "-g", "3", "--seed", "5",
                                 "--bots", "heuristic,random", "--log", str(log)])
    assert result.exit_code == 0, result.output
    lines = log.read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert sum(r["type"] == "game" for r in records) == 3
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert "3 of 3 game(s) replayed identically" in replayed.output
    # change one decision of the second game: the replay must notice
    index = next(i for i, r in enumerate(records) if r["type"] == "decision" and r["option"] != "draw"
                 and r["kind"] == "action" and i > len(records) // 2)
    records[index]["option"] = "draw"
    log.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    tampered = runner.invoke(app, ["replay", str(log)])
    assert tampered.exit_code == 1
    assert "MISMATCH" in tampered.output


def test_replay_reports_bad_logs(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "game", "edition": "original", "players": 2}\nnot json\n')
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 2
    assert "bad.jsonl:2:" in result.output and "not valid JSON" in result.output
    assert "Traceback" not in result.output


# -- house rules written for a test --------------------------------------------
ORIGINAL_CARDS = ROOT / "rulebook" / "original.yaml"


def _house_edition(write, name: str, cards: str, deck: str, *, setup: str = "  - deal: {count: 0}",
                   zones: str = "") -> str:
    """Write a card library (``cards``: its YAML list) and a 2-player edition with it."""
    write(f"{name}.yaml", f"format: 1\nkind: cards\nuses: [{ORIGINAL_CARDS}]\n{zones}cards:\n{cards}")
    return write(f"{name}_edition.yaml", f"""format: 1
kind: edition
id: {name}
name: {name} test
players: {{min: 2, max: 2}}
include: [{ORIGINAL_CARDS}, {name}.yaml]
deck: {deck}
setup:
{setup}
turn: {{draw: "draw(me) end_turn()"}}
win: last_standing
""")


# -- extra zones ----------------------------------------------------------------
def test_declared_zones_hold_cards_and_show_in_views(write):
    path = _house_edition(write, "mat", """\
  - id: parking_cat
    title: Parking Cat
    text: Park this card on the playmat, and the top card of the pile in the vault.
    when: own_turn
    effect: |
      move(this, playmat)
      move(top(draw_pile), vault)
""", "{exploding_kitten: 1, defuse: 2, parking_cat: 10, tacocat: 10}",
        zones="zones:\n  playmat: {description: where a parked card waits}\n  vault: {public: false}\n",
        setup="""\
  - set_aside: [exploding_kitten]
  - shuffle: draw_pile
  - deal: {count: 3}
  - put_back: {card: exploding_kitten, count: 1}
  - shuffle: draw_pile""")
    edition = load_edition(path)
    assert edition.zones == {"playmat": {"public": True, "per_player": False},
                             "vault": {"public": False, "per_player": False}}
    state = Game(edition, 2).new_state(4)
    while "play parking_cat" not in state.legal_actions():
        state.apply_action("draw")
    seat = state.current_player()
    state.apply_action("play parking_cat")
    view = state.view(1 - seat).to_dict()
    assert view["zones"]["playmat"] == {"cards": ["parking_cat"]}
    assert view["zones"]["vault"] == {"count": 1, "known": {}}
    assert sum(len(z.cards) for z in state.table.zones()) == 23


def test_zone_names_may_not_shadow_builtins(write):
    path = write("bad.yaml", """
format: 1
kind: cards
zones: {draw_pile: {}}
cards:
  - {id: x, title: X, text: x, when: never}
""")
    from kittens.interpreter.rules.check import validate_paths
    report = validate_paths([path])
    assert [d.code for d in report.diagnostics] == ["redefined-name"]
    assert report.diagnostics[0].line == 4


def test_face_up_cards_in_the_pile_are_seen_by_all_even_after_a_shuffle(write):
    path = _house_edition(write, "flip", """\
  - id: flip_cat
    title: Flip Cat
    text: Put this card face up third from the top of the draw pile.
    when: own_turn
    effect: move(this, draw_pile, at=2, face_up=true)
""", "{exploding_kitten: 1, defuse: 2, flip_cat: 1, tacocat: 10, shuffle: 1}")
    edition = load_edition(path)
    game = Game(edition, 2)

    def layout(table):
        table.new_card(edition.cards["flip_cat"], table.hands[0])
        table.new_card(edition.cards["shuffle"], table.hands[0])
        for _ in range(5):
            table.new_card(edition.cards["tacocat"], table.draw_pile)

    state = game.new_state(0, layout=layout)
    state.apply_action("play flip_cat")
    for seat in (0, 1):
        assert state.view(seat).draw_pile_known() == {2: "flip_cat"}
    state.apply_action("play shuffle")
    place = [c.id for c in state.table.draw_pile.cards].index("flip_cat")
    assert state.view(1).draw_pile_known() == {place: "flip_cat"}
    moves = [e for e in state.events if e["type"] == "move" and e["card"] == "flip_cat"]
    assert moves[-1]["face_up"] is True and "secret" not in moves[-1]


def test_shuffle_is_uniform():
    """Ruling 14: every order of three cards is equally likely."""
    from collections import Counter as Tally

    state = Game(EDITION, 2).new_state(0)
    table = state.table
    zone = table.removed
    cards = list(zone.cards)[:3] if len(zone.cards) >= 3 else None
    assert cards is not None
    zone.cards[:] = cards
    tally = Tally()
    for _ in range(6000):
        table.shuffle(zone)
        tally[tuple(c.uid for c in zone.cards)] += 1
    assert len(tally) == 6
    assert all(850 < n < 1150 for n in tally.values()), tally  # 1000 expected, sd about 29


def test_kittens_test_command_reports_failures_with_positions(tmp_path):
    good = ROOT / "tests" / "scenarios" / "original" / "attack_stacks_when_owed_two.yaml"
    result = runner.invoke(app, ["test", str(good)])
    assert result.exit_code == 0 and "1 passed, 0 failed" in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("owed: {0: 0, 1: 4}", "owed: {0: 0, 1: 3}")
                   .replace("../../../editions", str(ROOT / "editions")))
    result = runner.invoke(app, ["test", str(bad)])
    assert result.exit_code == 1
    assert "turns owed by seat 1: expected 3, got 4" in result.output
    assert "bad.yaml:21:" in result.output and "0 passed, 1 failed" in result.output
    assert runner.invoke(app, ["test", str(tmp_path / "nothing")]).exit_code == 2


def test_bench_prints_its_figures():
    result = runner.invoke(app, ["bench", "-g", "5", "--rounds", "1", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == 5 and figures["games_per_second"] > 0
    assert figures["decisions_per_second"] > 0


def test_a_choice_with_nothing_to_choose_makes_its_effect_do_nothing(write):
    path = _house_edition(write, "odd", """\
  - id: lonely_cat
    title: Lonely Cat
    text: Take a random card from another player who holds cards, if there is one.
    when: own_turn
    effect: |
      let victim = choose_player(with_cards(others()))
      move(random_card(hand(victim)), hand(me))
      if owed(victim) > 0 {
        end_turn()
      }
""", "{exploding_kitten: 1, defuse: 2, lonely_cat: 4, tacocat: 10}")
    edition = load_edition(path)

    def layout(table):
        table.new_card(edition.cards["lonely_cat"], table.hands[0])
        table.new_card(edition.cards["tacocat"], table.draw_pile)

    state = Game(edition, 2).new_state(0, layout=layout)
    state.apply_action("play lonely_cat")  # seat 1 holds nothing: no victim, no crash
    assert state.current_player() == 0 and state.legal_actions() == ["draw"]


def test_play_limit_stops_a_turn_that_cannot_end(write):
    path = _house_edition(write, "boomerang", """\
  - id: boomerang
    title: Boomerang
    text: Comes straight back to your hand.
    when: own_turn
    effect: move(this, hand(me))
""", "{exploding_kitten: 1, boomerang: 1, tacocat: 10}")
    from kittens.interpreter.engine.game import PLAY_LIMIT
    edition = load_edition(path)

    def layout(table):
        table.new_card(edition.cards["boomerang"], table.hands[0])
        table.new_card(edition.cards["tacocat"], table.draw_pile)

    state = Game(edition, 2).new_state(0, layout=layout)
    plays = 0
    while not state.is_terminal():
        state.apply_action("play boomerang")
        plays += 1
    assert plays == PLAY_LIMIT and state.winner is None
    assert state.events[-1]["reason"] == "play_limit"


def test_cards_that_draw_cards_without_end_are_a_rule_error_not_a_crash(write, tmp_path):
    path = _house_edition(write, "chain", """\
  - id: chain_cat
    title: Chain Cat
    text: Drawing it makes you draw again.
    when: never
    on_draw: draw(me)
""", "{chain_cat: 400, exploding_kitten: 1}")  # unshuffled: the kitten is at the bottom
    log = tmp_path / "chain.jsonl"
    result = runner.invoke(app, ["run", path, "-p", "2", "--log", str(log)])
    assert result.exit_code == 1
    assert "'chain_cat' (" in result.output and "chain.yaml:5)" in result.output
    assert "draw again 100 times" in result.output
    assert not log.exists()  # no half-written log


@pytest.mark.parametrize("content,message", [
    (b'{"type": "game", "edition": "original", "players": 2}\n' + b"[" * 100_000 + b"\n",
     "nested too deeply"),
    (b"\xff\xfe not text\n", "not UTF-8"),
    (b'{"type": "game", "x": "' + b"a" * (1 << 20) + b'"}\n', "is not an event"),
    (b'{"type": "move"}\n', "must start with a 'game' header"),
    (b"", "holds no game"),
    (b'{"type": "game", "edition": "nowhere.yaml"}\n', "was not found"),
])
def test_hostile_logs_get_a_clear_message(tmp_path, content, message):
    log = tmp_path / "log.jsonl"
    log.write_bytes(content)
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_any_time_cards_play_on_your_turn_and_in_windows(write):
    """An `any_time` card is offered on its holder's turn and in reaction windows;
    played in a window it joins the chain, so a Nope after it answers it."""
    path = _house_edition(write, "peek", """\
  - id: quick_peek
    title: Quick Peek
    text: Look at the top card of the draw pile, whenever a Nope could be played.
    when: any_time
    effect: show(top(draw_pile), me)
""", "{exploding_kitten: 1, defuse: 2, quick_peek: 4, tacocat: 10, skip: 2}")
    edition = load_edition(path)

    def layout(table):
        table.new_card(edition.cards["skip"], table.hands[0])
        table.new_card(edition.cards["quick_peek"], table.hands[0])
        table.new_card(edition.cards["quick_peek"], table.hands[1])
        for card_id in ("tacocat", "exploding_kitten", "tacocat"):
            table.new_card(edition.cards[card_id], table.draw_pile)

    state = Game(edition, 2).new_state(0, layout=layout)
    assert "play quick_peek" in state.legal_actions()
    state.apply_action("play skip")
    assert state.decision().kind == "answer" and state.current_player() == 1
    state.apply_action("play quick_peek")  # seat 1 peeks during seat 0's Skip
    state.apply_action("pass")  # seat 0 could answer the peek with its own: it passes
    assert state.view(1).draw_pile_known() == {0: "tacocat"}
    assert state.view(0).draw_pile_known() == {}
    assert state.current_player() == 1 and state.decision().kind == "action"  # the Skip stood
    assert json.loads(json.dumps(state.view(1).to_dict()))["draw_pile"]["known"] == {"0": "tacocat"}


def test_clone_is_an_independent_copy_that_plays_the_same():
    game = Game(EDITION, 3)
    state = game.new_state(21)
    bot = RandomBot(21, 0)
    for _ in range(40):
        d = state.decision()
        state.apply_action(bot.choose(None, d))
    copy = state.clone()
    assert [dumps(e) for e in copy.events] == [dumps(e) for e in state.events]
    assert copy.legal_actions() == state.legal_actions()
    copy.apply_action(copy.legal_actions()[0])  # the copy moves on, the original does not
    assert len(copy.history) == len(state.history) + 1
    state.apply_action(state.legal_actions()[0])
    assert [dumps(e) for e in copy.events] == [dumps(e) for e in state.events]


def test_kittens_test_json_for_tools():
    folder = ROOT / "tests" / "scenarios" / "original" / "nope"
    result = runner.invoke(app, ["test", "--format", "json", str(folder)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["failed"] == 0 and report["passed"] == len(report["results"]) >= 15
    assert all(r["passed"] and r["description"] for r in report["results"])


def test_numbers_worked_out_from_a_secret_stay_secret():
    from kittens.interpreter.engine.table import PrivateInt, as_secret_as

    secret = PrivateInt(3, 0b01)
    assert as_secret_as(4, (1, 3)) == 4 and not isinstance(as_secret_as(4, (1, 3)), PrivateInt)
    assert as_secret_as(min(1, secret), (1, secret)).knower == 0b01  # min gave the plain 1
    both = as_secret_as(5, (secret, PrivateInt(2, 0b11)))
    assert both == 5 and both.knower == 0b01


def _pair_played_against(holders: dict) -> tuple[list, object]:
    """Seat 0 plays a pair of Beard Cats in a 3-player Original game where ``holders``
    gives each other seat's hand; the decision kinds met until the pair is over."""
    from kittens.interpreter.lang.machine import Chance

    edition = load_edition(str(ROOT / "editions" / "original.yaml"))

    def layout(table):
        for seat, cards in {0: ["beard_cat", "beard_cat"], **holders}.items():
            for card in cards:
                table.new_card(edition.cards[card], table.hands[seat])
        table.new_card(edition.cards["tacocat"], table.draw_pile)

    state = Game(edition, 3).new_state(0, layout=layout)
    state.apply_action("combo two_of_a_kind beard_cat")
    kinds = []
    while (pending := state.decision()) is not None:
        if type(pending) is Chance:
            state.apply_action(state.sample_chance())
            continue
        kinds.append(pending.kind)
        if pending.kind != "answer":
            break
        state.apply_action("pass")
    return kinds, state


def test_a_choice_of_one_player_is_made_without_asking():
    # like choose_kind: with one candidate there is nothing to decide (the candidates
    # are public, so taking the only one tells nobody anything new)
    kinds, state = _pair_played_against({2: ["shuffle"]})
    assert "choose_player" not in kinds, kinds
    assert [inst.id for inst in state.table.hands[0].cards] == ["shuffle"]
    kinds, _state = _pair_played_against({1: ["skip"], 2: ["shuffle"]})
    assert kinds[0] == "choose_player", kinds
