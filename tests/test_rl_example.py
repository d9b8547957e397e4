"""The README's AI example: a masked linear policy trained with REINFORCE through the
PettingZoo environment learns to beat agents that play uniformly."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rl" / "masked_agent.py"


def test_the_masked_agent_learns_and_only_plays_legal_actions():
    spec = importlib.util.spec_from_file_location("masked_agent", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # the environment raises on an illegal action, so finishing proves the mask was kept
    report = module.main(["--episodes", "300", "--evaluate", "200", "--seed", "0"])
    assert 0.0 <= report["uniform_win_rate"] <= 1.0
    assert report["trained_win_rate"] > report["uniform_win_rate"] + 0.05
