"""kittens as a PettingZoo AEC environment, for any edition (needs ``pip install 'kittens-engine[rl]'``).

    from kittens.env import aec_env

    env = aec_env("original", players=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, one per seat. The agent to act
is the seat the game waits for: on its turn, or asked to answer in a reaction
window, to pick a target, a card or a place. Each observation is a dict:
``observation`` is the seat's view as numbers (engine/encoding.py: per-title
counts of its hand, of the public piles and of cards it has seen, known
draw-pile places, other hands' sizes, owed turns, direction, seats out; its
length depends only on the edition), ``action_mask`` marks the legal entries
of the edition's action catalogue (``env.unwrapped.catalogue``; a Discrete
action is an index into it). Chance is drawn by the game from the seed given
to ``reset``. A seat that goes out stays among the agents, with no decisions,
until the game ends; then every agent gets its return (1 for a winner, and in
a team game for every member of the winning team; 0 otherwise) and is
terminated. A game stopped at the engine's turn limit truncates every agent.
``render()`` shows the acting seat's view as text (``render_mode="human"``
prints it, ``"ansi"`` returns it).
"""

from __future__ import annotations

import random

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # the plain install stays light: these come with the rl extra
    raise ImportError("kittens.env (the PettingZoo environment) needs the rl extra: "
                      f"pip install 'kittens-engine[rl]' ({exc.name or exc} is missing)") from exc

from ..interpreter.engine.encoding import ActionCatalogue, ObservationEncoder
from ..interpreter.engine.endings import outcome
from ..interpreter.engine.game import Game
from ..interpreter.rules.load import load_edition

__all__ = ["aec_env", "raw_env", "KittensAEC"]


def aec_env(rules="original", players: int = 4, *, variant: str | None = None, expansions=(),
            render_mode: str | None = None):
    """An AEC environment for ``rules`` (a shipped edition's name, a file, or a compiled
    Edition) at ``players`` seats, wrapped to enforce PettingZoo's call order."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, players, variant=variant, expansions=expansions,
                                                  render_mode=render_mode))


def raw_env(rules="original", players: int = 4, *, variant: str | None = None, expansions=(),
            render_mode: str | None = None) -> "KittensAEC":
    """The environment without PettingZoo's wrappers."""
    edition = load_edition(rules, variant, tuple(expansions)) if isinstance(rules, str) else rules
    return KittensAEC(edition, players, render_mode=render_mode)


class KittensAEC(AECEnv):
    """One kittens game as an agent-environment-cycle environment; see the module's docstring."""

    metadata = {"name": "kittens_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, edition, players: int, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.edition = edition
        self.game = Game(edition, players)
        self.catalogue = ActionCatalogue(edition)
        self.encoder = ObservationEncoder(edition)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.catalogue.size,), dtype=np.int8),
        })
        action = spaces.Discrete(self.catalogue.size)
        self._observation_spaces = {agent: observation for agent in self.possible_agents}
        self._action_spaces = {agent: action for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state = None

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    # -- the cycle ------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.state = self.game.new_state(self._seeds.getrandbits(32), record=False)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._settle()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self.state.decision()
        index = int(action)
        if not 0 <= index < self.catalogue.size:
            raise ValueError(f"action {index} is outside the action space (0..{self.catalogue.size - 1})")
        legal = self.catalogue.legal(decision)
        if index not in legal:
            raise ValueError(f"{agent}: action {index} ({self.catalogue.label(index)}) is not legal now; "
                             f"the legal actions are {legal}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in self.agents}
        self.state.apply_action(self.catalogue.option(index))
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """Decisions with one option are taken at once (they reveal nothing and teach
        nothing); then the next agent is selected, or the game's end is handed out."""
        state = self.state
        while not state.is_terminal() and len(state.decision().options) == 1:
            state.apply_action(state.decision().options[0])
        if state.is_terminal():
            returns = state.returns()
            stopped = state.winner is None and not state.winners  # the engine's turn or play limit
            for agent in self.agents:
                self.rewards[agent] = float(returns[self._seat[agent]])
                self.terminations[agent] = not stopped
                self.truncations[agent] = stopped
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[state.decision().seat]

    def observe(self, agent):
        seat = self._seat[agent]
        vector = np.asarray(self.encoder.encode(self.state.view(seat)), dtype=np.float32)
        mask = np.zeros(self.catalogue.size, dtype=np.int8)
        decision = self.state.decision()
        if decision is not None and decision.seat == seat:
            mask[self.catalogue.legal(decision)] = 1
        return {"observation": vector, "action_mask": mask}

    # -- showing it -------------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        state = self.state
        if state is None:
            return "(reset() first)"
        if state.is_terminal():
            return f"game over after {state.table.turn} turns: {outcome(state.table.end_reason, state.winners)}"
        seat = state.decision().seat
        view = state.view(seat)
        others = ", ".join(f"seat {other}: {view.hand_count(other)} cards"
                           + ("" if view.alive[other] else " (out)")
                           for other in range(view.players) if other != seat)
        known = view.draw_pile_known()
        decision = state.decision()
        lines = [f"turn {view.turn_number}: seat {view.current} to play, owed {view.owed[view.current]}",
                 f"player_{seat} decides ({decision.kind}); hand: {', '.join(view.hand) or 'empty'}",
                 f"others: {others}",
                 f"draw pile: {view.draw_pile_count} cards"
                 + (f", known: {', '.join(f'{place}: {card}' for place, card in sorted(known.items()))}"
                    if known else ""),
                 f"discard pile (top first): {', '.join(view.discard_pile[:5]) or 'empty'}",
                 "options: " + ", ".join(f"{index}={self.catalogue.label(index)}"
                                         for index in map(self.catalogue.index, decision.options))]
        return "\n".join(lines)

    def close(self) -> None:
        self.state = None
