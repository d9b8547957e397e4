"""kittens as an OpenSpiel game (needs ``pip install 'kittens-engine[rl]'``).

    import pyspiel
    import kittens.openspiel  # registers "python_kittens"

    game = pyspiel.load_game("python_kittens", {"rules": "original", "players": 4})

Parameters: ``rules`` (a shipped edition's name or a rule file), ``players``,
``variant`` and ``with`` (expansions, comma-separated), both "" for none, and
``deals`` (how many deals the first chance node offers).

The game is sequential, of imperfect information, with explicit chance:

* the first chance node picks the deal, one of ``deals`` seeds, uniformly;
* every random pick of the game (a card taken at random, ...) is a chance node
  with its outcomes and equal probabilities;
* a shuffle is a chance node with one outcome, 0: an order drawn from the
  deal's generator (there are too many orders to list, as OpenSpiel does for
  large chance spaces elsewhere). Replaying the same actions gives the same order.

Player actions are indices into the edition's action catalogue
(engine/encoding.py), so ``num_distinct_actions`` depends only on the edition.
Returns are 1 for every winner (a whole team in a team game) and 0 for everyone
else: general-sum, as a game stopped at the turn limit pays nobody. The
observer gives the seat's view (observation: the view's numbers and its JSON;
perfect recall: everything the seat observed since the start, as text), and
:meth:`KittensState.resample_from_infostate` deals a world the player cannot
tell apart, which OpenSpiel's ISMCTS bot uses to search.
:class:`KittensBot` lets any kittens player (random, heuristic, ismcts, yours)
play in OpenSpiel's loops.
"""

from __future__ import annotations

import random

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # the plain install stays light: these come with the rl extra
    raise ImportError("kittens.openspiel (the OpenSpiel game) needs the rl extra: "
                      f"pip install 'kittens-engine[rl]' ({exc.name or exc} is missing)") from exc

from ..interpreter.engine.encoding import ActionCatalogue, ObservationEncoder, most_cards
from ..interpreter.engine.game import Game, deserialize_state
from ..interpreter.engine.players import make_player
from ..interpreter.engine.views import decision_for, view_for
from ..interpreter.rules.load import load_edition

__all__ = ["KittensGame", "KittensState", "KittensObserver", "KittensBot", "SHORT_NAME"]

SHORT_NAME = "python_kittens"
DEFAULTS = {"rules": "original", "players": 4, "variant": "", "with": "", "deals": 1000}
MAX_LENGTH = 100_000  # actions: far beyond any game the engine lets finish (turn and play limits)

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Exploding Kittens (kittens rules-as-data engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


class _Rules:
    """What every state of one game shares: never copied with a state (OpenSpiel deep-copies
    a Python state's attributes to clone it), pickled as the parameters that make it."""

    _made: dict = {}

    def __init__(self, params: tuple) -> None:
        settings = dict(params)
        expansions = tuple(name for name in settings["with"].split(",") if name.strip())
        self.params = params
        self.edition = load_edition(settings["rules"], settings["variant"] or None, expansions)
        self.game = Game(self.edition, settings["players"])
        cards = most_cards(self.edition)
        self.catalogue = ActionCatalogue(self.edition, cards)
        self.encoder = ObservationEncoder(self.edition)
        self.deals = settings["deals"]
        self.max_chance = max(self.deals, cards + 1)

    @classmethod
    def get(cls, params: tuple) -> "_Rules":
        found = cls._made.get(params)
        if found is None:
            found = cls._made[params] = cls(params)
        return found

    def __deepcopy__(self, memo) -> "_Rules":
        return self

    def __reduce__(self):
        return _Rules.get, (self.params,)


class _Engine:
    """The engine's state inside an OpenSpiel state: cloned directly when OpenSpiel
    deep-copies, pickled as its seed and actions (State.serialize)."""

    __slots__ = ("rules", "state")

    def __init__(self, rules: _Rules, state) -> None:
        self.rules, self.state = rules, state

    def __deepcopy__(self, memo) -> "_Engine":
        return _Engine(self.rules, self.state.clone() if self.state is not None else None)

    def __reduce__(self):
        return _restore_engine, (self.rules, self.state.serialize() if self.state is not None else None)


def _restore_engine(rules: _Rules, text: str | None) -> _Engine:
    return _Engine(rules, deserialize_state(rules.game, text) if text is not None else None)


class KittensGame(pyspiel.Game):
    """A kittens edition as an OpenSpiel game; see the module's docstring."""

    def __init__(self, params=None) -> None:
        settings = {**DEFAULTS, **(params or {})}
        self.rules = _Rules.get(tuple(sorted(settings.items())))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.catalogue.size,
            max_chance_outcomes=self.rules.max_chance,
            num_players=settings["players"],
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=MAX_LENGTH)
        super().__init__(_GAME_TYPE, info, settings)

    def new_initial_state(self) -> "KittensState":
        return KittensState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "KittensObserver":
        return KittensObserver(self.rules, iig_obs_type, params)


class KittensState(pyspiel.State):
    """One game: a chance node for the deal, then the engine's state (explicit chance)."""

    def __init__(self, game: KittensGame) -> None:
        super().__init__(game)
        self.engine = _Engine(game.rules, None)

    # -- whose move ------------------------------------------------------------------
    def current_player(self) -> int:
        state = self.engine.state
        if state is None or state.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        if state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return state.decision().seat

    def is_terminal(self) -> bool:
        state = self.engine.state
        return state is not None and state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine.rules.catalogue.legal(self.engine.state.decision())

    def chance_outcomes(self) -> list:
        state, rules = self.engine.state, self.engine.rules
        if state is None:
            share = 1.0 / rules.deals
            return [(deal, share) for deal in range(rules.deals)]
        if state.decision().kind == "pick":
            return state.chance_outcomes()
        return [(0, 1.0)]  # a shuffle: the order the deal's generator draws

    def _apply_action(self, action: int) -> None:
        engine = self.engine
        state = engine.state
        if state is None:
            engine.state = engine.rules.game.new_state(int(action), record=True, explicit_chance=True)
        elif state.is_chance_node():
            state.apply_action(int(action) if state.decision().kind == "pick" else state.chance_outcomes()[0][0])
        else:
            state.apply_action(engine.rules.catalogue.option(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.engine.state
        if player == pyspiel.PlayerId.CHANCE:
            if state is None:
                return f"deal {action}"
            return f"pick {action}" if state.decision().kind == "pick" else "the shuffled order"
        return self.engine.rules.catalogue.label(action)

    def returns(self) -> list[float]:
        state = self.engine.state
        return state.returns() if state is not None else [0.0] * self.get_game().num_players()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "KittensState":
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt
        afresh (State.resample_from_view), from a generator seeded by the sampler."""
        other = self.clone()
        if self.engine.state is not None:
            rng = random.Random(int(probability_sampler() * 2 ** 53))
            other.engine = _Engine(self.engine.rules, self.engine.state.resample_from_view(player_id, rng))
        return other

    def __str__(self) -> str:
        state = self.engine.state
        if state is None:
            return "before the deal"
        return f"{state}; {state.decision()!r}" if not state.is_terminal() else f"{state}; over"


class KittensObserver:
    """What a seat observes, for OpenSpiel: the view (its numbers and its JSON text), or
    with perfect recall everything the seat observed since the start (text only)."""

    def __init__(self, rules: _Rules, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"kittens observers take no parameters; given {params}")
        self.rules = rules
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        size = 0 if self.recall else rules.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor} if size else {}

    def set_from(self, state: KittensState, player: int) -> None:
        engine = state.engine.state
        if self.recall:
            return
        if engine is None or player < 0:
            self.tensor.fill(0)
            return
        self.tensor[:] = self.rules.encoder.encode(engine.view(player))

    def string_from(self, state: KittensState, player: int) -> str:
        engine = state.engine.state
        if engine is None:
            return "before the deal"
        if self.recall:
            return engine.information_state_string(player)
        return engine.observation_string(player)


class KittensBot(pyspiel.Bot):
    """A kittens player (``"heuristic"``, ``"ismcts:iterations=100"``, a class of yours, or
    a player object) as an OpenSpiel bot for the seat ``player_id``."""

    def __init__(self, game: KittensGame, player_id: int, player="heuristic", seed: int = 0) -> None:
        super().__init__()
        self.rules = game.rules
        self.seat = player_id
        self.player = make_player(player, seed, player_id) if isinstance(player, str) else player
        start = getattr(self.player, "start", None)
        if start is not None:
            start(self.rules.game, player_id)

    def step(self, state: KittensState) -> int:
        engine = state.engine.state
        decision = engine.decision()
        if decision.seat != self.seat:
            # the player would search with this seat's view for another seat's decision:
            # wrong, and a leak of what that seat may not know
            raise ValueError(f"this bot plays seat {self.seat}, but the state waits for seat "
                             f"{decision.seat}; make one bot per seat")
        option = decision.options[0] if len(decision.options) == 1 else \
            self.player.choose(view_for(self.player, engine, self.seat), decision_for(decision))
        return self.rules.catalogue.index(option)

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass


pyspiel.register_game(_GAME_TYPE, KittensGame)
