"""Combos that name the titles they take (issue 42: the probe's "super advanced" combos
needed a tag of their own on each card). Example: examples/house-rules/named_combos.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_phases import HOUSE, laid_out

from kittens import load_edition
from kittens.interpreter.rules.check import validate_paths

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def named():
    return load_edition(str(ROOT / "examples" / "house-rules" / "named_combos.yaml"))


@pytest.mark.parametrize("hand, offered", [
    (["attack", "cattermelon"], {"combo aimed_attack"}),
    (["attack", "tacocat"], set()),
    (["cattermelon", "tacocat", "beard_cat"], set()),
    (["see_the_future", "rainbow_ralphing_cat", "attack", "cattermelon"], {"combo aimed_attack", "combo far_sight"}),
])
def test_a_named_combo_is_offered_only_for_its_titles(named, hand, offered):
    state = laid_out(named, 3, {0: hand}, ["tacocat"] * 6)
    combos = {option for option in state.legal_actions() if option.startswith("combo ")}
    assert combos & {"combo aimed_attack", "combo far_sight"} == offered


def test_the_pick_offers_only_the_named_titles(named):
    state = laid_out(named, 3, {0: ["attack", "cattermelon", "tacocat"]}, ["tacocat"] * 6)
    state.apply_action("combo aimed_attack")
    assert sorted(state.legal_actions()) == ["attack", "cattermelon"]


def test_an_unknown_title_in_a_combo_is_reported_at_it(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE + """define_combos:
  - id: odd
    title: Odd
    text: x
    cards: 2
    match: different_titles
    titles: [attack, catermelon]
    effect: draw(me)
add_combos: [odd]
""", encoding="utf-8")
    found = [d for d in validate_paths([str(path)]).diagnostics if d.code == "unknown-card"]
    assert found and "cattermelon" in found[0].message and found[0].line == 12, [d.render() for d in found]
