"""Players by name on the command line: built-in bots with settings, classes of your own,
and the player protocol (what each kind of player is handed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from kittens.interpreter.engine.bots import HeuristicBot, RandomBot
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import BotSpecError, make_bots, make_players, parse_spec
from kittens.interpreter.engine.search import ISMCTSBot
from kittens.interpreter.engine.simulate import play_game
from kittens.interpreter.engine.views import SearchView, View
from kittens.interpreter.rules.load import load_edition

ORIGINAL = load_edition("original")


def test_built_in_bots_take_settings_typed_as_they_read():
    cls, settings, label = parse_spec("ismcts:iterations=800:rollout=random:exploration=0.5:prior=false")
    assert cls is ISMCTSBot and label == "ismcts:iterations=800:rollout=random:exploration=0.5:prior=false"
    assert settings == {"iterations": 800, "rollout": "random", "exploration": 0.5, "prior": False}
    bot = make_players(["ismcts:iterations=800"], 2, 7)[1]
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 800 and bot.seat == 1


@pytest.mark.parametrize("spec, message", [
    ("genius", "unknown bot 'genius'"),
    ("ismcts:horizon=3", "takes no setting 'horizon'"),
    ("ismcts:iterations", "key=value"),
    ("random:seed=3", "takes no setting 'seed'"),
    ("no_such_module_here:Bot", "cannot import the module"),
    ("json:Nothing", "has no 'Nothing'"),
    ("json:JSONDecoder", r"no choose\(view, decision\) method"),
])
def test_a_spec_that_names_no_bot_is_refused_clearly(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_players([spec], 2, 0)


def test_settings_out_of_range_are_refused_when_the_bot_is_made():
    with pytest.raises(BotSpecError, match="iterations must be at least 1"):
        make_players(["ismcts:iterations=0"], 2, 0)
    with pytest.raises(ValueError):  # make_bots keeps raising ValueError, as it always did
        make_bots(["ismcts:rollout=smart"], 2, 0)


GREEDY = textwrap.dedent('''
    class Greedy:
        """Plays a card whenever it can, else the first option."""

        def __init__(self, seed=0, seat=0, eager=True):
            self.seat, self.eager = seat, eager
            self.seen = []

        def choose(self, view, decision):
            self.seen.append(type(view).__name__)
            plays = [o for o in decision.options if isinstance(o, str) and o.startswith("play ")]
            return plays[0] if plays and self.eager else decision.options[0]


    class Bare:
        name = "bare"

        def choose(self, view, decision):
            return decision.options[-1]
''')


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    package = tmp_path / "mybots"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "greedy.py").write_text(GREEDY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [name for name in sys.modules if name.startswith("mybots")]:
        del sys.modules[name]


def test_a_class_from_the_users_own_module_plays(user_module):
    players = make_players(["mybots.greedy:Greedy:eager=false", "mybots.greedy:Bare", "heuristic"], 3, 4)
    assert players[0].eager is False and players[0].seat == 0
    assert players[1].name == "bare" and players[0].name == "mybots.greedy:Greedy:eager=false"
    state = play_game(Game(ORIGINAL, 3), 4, players)
    assert state.is_terminal() and players[0].seen and set(players[0].seen) == {"View"}


def test_the_command_line_runs_a_users_bot_from_the_current_folder(user_module):
    env = {**os.environ, "PYTHONPATH": ""}
    done = subprocess.run([sys.executable, "-m", "kittens", "run", "original", "-p", "3", "-g", "3",
                           "--bots", "mybots.greedy:Greedy,ismcts:iterations=2,random", "--json"],
                          cwd=user_module, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 3 and summary["bots"] == ["mybots.greedy:Greedy", "ismcts:iterations=2", "random"]


@pytest.mark.parametrize("bots, message", [
    ("genius", "unknown bot 'genius'"), ("ismcts:iterations=0", "iterations must be at least 1"),
    ("mybots.greedy:Missing", "has no 'Missing'"),
])
def test_the_command_line_refuses_a_bad_bot_with_exit_2(bots, message, user_module):
    for command in (["run", "original"], ["play", "original"], ["arena"]):
        done = subprocess.run([sys.executable, "-m", "kittens", *command, "--bots", bots],
                              cwd=user_module, capture_output=True, text=True, timeout=120, input="")
        assert done.returncode == 2, (command, done.stderr)
        assert message in done.stderr + done.stdout


class Recorder:
    """Remembers what it was handed."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)
        self.handed = set()

    def choose(self, view, decision):
        self.handed.add(type(view))
        return decision.options[0]


def test_each_player_is_handed_what_its_protocol_asks_for():
    plain, blind, searching = Recorder(), Recorder(needs_view=False), Recorder(needs_state=True)
    play_game(Game(ORIGINAL, 3), 2, [plain, blind, searching])
    assert plain.handed == {View}
    assert blind.handed == {type(None)}
    assert searching.handed == {SearchView}


def test_a_search_view_is_a_view_that_deals_worlds():
    import random

    state = Game(ORIGINAL, 4).new_state(3)
    handle = SearchView(state, 1)
    assert isinstance(handle, View) and handle.hand == state.view(1).hand and handle.game is state.game
    world = handle.resample(random.Random(2))
    assert world is not state and world.view(1).to_dict() == state.view(1).to_dict()


def test_the_hand_written_bots_are_still_made_by_name():
    bots = make_bots(["random", "heuristic"], 3, 5)
    assert [type(b) for b in bots] == [RandomBot, HeuristicBot, RandomBot]


def test_the_lab_hands_each_player_what_its_protocol_asks_for(monkeypatch):
    """The lab plays its own loop (lab/play.py), so it keeps the protocol too: a search
    player gets a SearchView there as in play_game (it was handed a plain view and failed)."""
    import kittens.lab.play as lab_play

    plain, blind, searching = Recorder(), Recorder(needs_view=False), Recorder(needs_state=True)
    monkeypatch.setattr(lab_play, "make_player", lambda spec, seed, seat: [plain, blind, searching][seat])
    lab_play.play_record(Game(ORIGINAL, 3), 2, ["a", "b", "c"])
    assert plain.handed == {View}
    assert blind.handed == {type(None)}
    assert searching.handed == {SearchView}


def test_the_lab_plays_a_search_player_from_the_command_line(user_module):
    done = subprocess.run([sys.executable, "-m", "kittens", "simulate", "original", "-p", "3", "-g", "3",
                           "--workers", "1", "--bots", "ismcts:iterations=2,mybots.greedy:Greedy,random",
                           "--json"], cwd=user_module, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["meta"]["played"] == 3


class Prober:
    """Looks through everything reachable from each decision it is handed, for cards or
    zones of the table (from them a player could read faces it may not see: the pile's
    order behind an Alter the Future, the hand a blind pick is made from)."""

    def __init__(self, seed=0, seat=0):
        self.rng, self.found, self.kinds = __import__("random").Random(seed), set(), set()

    def choose(self, view, decision):
        from kittens.interpreter.engine.table import CardInst, Zone

        self.kinds.add(decision.kind)
        todo, seen = [decision], set()
        while todo:
            value = todo.pop()
            if id(value) in seen or value is None or isinstance(value, (int, str, bool, float)):
                continue
            seen.add(id(value))
            if isinstance(value, (CardInst, Zone)):
                self.found.add((decision.kind, type(value).__name__))
            elif isinstance(value, (list, tuple, set)):
                todo.extend(value)
            elif isinstance(value, dict):
                todo.extend(value.values())
            elif type(value).__module__.startswith("kittens"):
                todo.extend(getattr(value, name, None) for cls in type(value).__mro__
                            for name in getattr(cls, "__slots__", ()))
        return decision.options[self.rng.randrange(len(decision.options))]


@pytest.mark.parametrize("loop", ["play_game", "lab"])
def test_a_decision_hands_a_player_no_card_of_the_table(loop, monkeypatch):
    """What a player is handed of a decision is its kind, options and what it is about;
    the rules' meaning of the options (the cards themselves) stays with the engine."""
    import kittens.lab.play as lab_play

    kinds, found = set(), set()
    for name in ("imploding", "good_vs_evil", "streaking", "barking"):
        game = Game(load_edition(name), 4)
        for seed in range(12):
            probers = [Prober(seed, seat) for seat in range(4)]
            if loop == "play_game":
                play_game(game, seed, probers, record=False)
            else:
                monkeypatch.setattr(lab_play, "make_player", lambda spec, s, seat: probers[seat])
                lab_play.play_record(game, seed, ["p"] * 4)
            for prober in probers:
                kinds |= prober.kinds
                found |= prober.found
    assert {"rearrange", "blind_pick", "combo_card", "answer"} <= kinds  # the decisions that hold cards
    assert found == set()
