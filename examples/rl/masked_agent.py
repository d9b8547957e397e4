"""Train and evaluate a simple agent on kittens through PettingZoo, using the action mask.

    pip install 'kittens-engine[rl]'
    python examples/rl/masked_agent.py --rules original --players 3 --episodes 300

The agent is a linear softmax policy over the edition's action catalogue: the
logits are a weight matrix times the observation vector, and the action mask
sets the logits of illegal actions to minus infinity, so the agent only ever
picks legal actions. It plays seat player_0 against agents that pick uniformly
among the legal actions, learns with REINFORCE (return 1 for a win, 0 else,
minus a running baseline), and is then evaluated against the same opponents
next to an untrained (uniform) agent. Nothing here knows a card: the same
script runs any edition.
"""

from __future__ import annotations

import argparse

import numpy as np

from kittens.adapters.pettingzoo import aec_env


class LinearPolicy:
    """Softmax over ``W @ observation`` restricted to the legal actions."""

    def __init__(self, observations: int, actions: int, rng: np.random.Generator, learning_rate: float) -> None:
        self.weights = np.zeros((actions, observations))
        self.rng, self.learning_rate = rng, learning_rate

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        scale = np.log1p(observation)  # counts grow; keep their scale small
        logits = np.where(mask > 0, self.weights @ scale, -np.inf)
        logits -= logits[mask > 0].max()
        exp = np.exp(logits)
        return exp / exp.sum()

    def act(self, observation: np.ndarray, mask: np.ndarray) -> tuple[int, np.ndarray]:
        probs = self.probabilities(observation, mask)
        return int(self.rng.choice(len(probs), p=probs)), probs

    def learn(self, steps: list, advantage: float) -> None:
        """REINFORCE: raise the log-probability of the actions taken, by the advantage."""
        for observation, action, probs in steps:
            scale = np.log1p(observation)
            grad = -np.outer(probs, scale)
            grad[action] += scale
            self.weights += self.learning_rate * advantage * grad


def play(env, policy, rng: np.random.Generator, learn: bool) -> tuple[float, list]:
    """One game: player_0 by ``policy`` (uniform when None), the others uniform."""
    env.reset(seed=int(rng.integers(1 << 31)))
    steps, result = [], 0.0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        if agent == "player_0":
            result += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        if agent == "player_0" and policy is not None:
            action, probs = policy.act(observation["observation"], mask)
            if learn:
                steps.append((observation["observation"], action, probs))
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
    return result, steps


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description="REINFORCE with an action mask on kittens")
    parser.add_argument("--rules", default="original")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=300, help="training games")
    parser.add_argument("--evaluate", type=int, default=200, help="evaluation games per agent")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    env = aec_env(args.rules, args.players)
    env.reset(seed=args.seed)
    spaces = env.observation_space("player_0")
    policy = LinearPolicy(spaces["observation"].shape[0], spaces["action_mask"].shape[0], rng, 0.01)
    baseline = 1.0 / args.players
    for _ in range(args.episodes):
        result, steps = play(env, policy, rng, learn=True)
        policy.learn(steps, result - baseline)
        baseline += 0.05 * (result - baseline)
    trained = sum(play(env, policy, rng, learn=False)[0] for _ in range(args.evaluate)) / args.evaluate
    uniform = sum(play(env, None, rng, learn=False)[0] for _ in range(args.evaluate)) / args.evaluate
    report = {"rules": args.rules, "players": args.players, "episodes": args.episodes,
              "trained_win_rate": trained, "uniform_win_rate": uniform}
    print(f"{args.rules}, {args.players} players, {args.episodes} training games: trained agent wins "
          f"{100 * trained:.1f}%, uniform agent {100 * uniform:.1f}% of {args.evaluate} games each")
    return report


if __name__ == "__main__":
    main()
