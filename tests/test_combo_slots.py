"""Combos with slots, and combos whose titles may repeat (issue 42: "a Favor played
together with any one cat card" could not be said). Example:
examples/house-rules/picked_favor.yaml; the engine's part: interpreter/engine/slots.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_phases import laid_out

from kittens import load_edition
from kittens.interpreter.engine.encoding import ActionCatalogue
from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.words.rulesheet import render_rulesheet

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = "original"  # by name: the shipped file wherever kittens is installed
IMPLODING = "imploding"

#: the combos under test; `this` is shown to its player, so its order can be read
COMBOS = """format: 1
kind: edition
id: slots_test
name: Slots test
extends: {base}
{apply}define_combos:
  - id: picked_favor
    title: Picked favor
    text: A Favor with any cat card.
    cards: 2
    match: different_titles
    slots: [favor, {{tag: cat}}]
    effect: show(this, me)
  - id: cat_first
    title: Cat first
    text: A cat, then a Favor.
    cards: 2
    match: different_titles
    slots: [{{tag: cat}}, favor]
    effect: show(this, me)
  - id: any_cats
    title: Any cats
    text: Any two cats.
    cards: 2
    match: any
    tag: cat
    effect: show(this, me)
  - id: taco_last
    title: Taco last
    text: Any cat, then a Tacocat or a Skip, all different.
    cards: 2
    match: different_titles
    slots: [{{tag: cat}}, {{titles: [tacocat, skip]}}]
    effect: show(this, me)
  - id: taco_last_any
    title: Taco last, repeats
    text: Any cat, then a Tacocat or a Skip, titles may repeat.
    cards: 2
    match: any
    slots: [{{tag: cat}}, {{titles: [tacocat, skip]}}]
    effect: show(this, me)
  - id: three_any
    title: Three of anything
    text: Any three cards.
    cards: 3
    match: any
    effect: show(this, me)
add_combos: [picked_favor, cat_first, any_cats, taco_last, taco_last_any, three_any]
"""
NEW = {"combo picked_favor", "combo cat_first", "combo any_cats", "combo taco_last",
       "combo taco_last_any", "combo three_any"}


def _edition(tmp_path, base=ORIGINAL, apply=""):
    path = tmp_path / "slots_test.yaml"
    path.write_text(COMBOS.format(base=base, apply=apply), encoding="utf-8")
    return load_edition(str(path))


@pytest.fixture(scope="module")
def slotted(tmp_path_factory):
    return _edition(tmp_path_factory.mktemp("slots"))


@pytest.fixture(scope="module")
def wild(tmp_path_factory):  # with Imploding Kittens: the Feral Cat stands in for any cat
    return _edition(tmp_path_factory.mktemp("wild"), apply=f"apply: [{IMPLODING}]\n")


def _offered(edition, hand):
    state = laid_out(edition, 3, {0: hand, 1: ["skip"], 2: ["skip"]}, ["tacocat"] * 6)
    return {o for o in state.legal_actions() if o in NEW}, state


@pytest.mark.parametrize("hand, offered", [
    (["favor", "tacocat"], {"picked_favor", "cat_first"}),
    (["tacocat", "favor"], {"picked_favor", "cat_first"}),
    (["favor", "skip"], set()),
    (["tacocat", "beard_cat"], {"any_cats", "taco_last", "taco_last_any"}),
    (["tacocat", "tacocat"], {"any_cats", "taco_last_any"}),
    (["tacocat", "tacocat", "tacocat"], {"any_cats", "taco_last_any", "three_any"}),
    (["beard_cat", "skip", "attack"], {"taco_last", "taco_last_any", "three_any"}),
    (["beard_cat", "cattermelon"], {"any_cats"}),
    (["favor", "favor", "favor"], {"three_any"}),
    (["attack", "nope"], set()),
])
def test_a_slot_combo_is_offered_when_the_hand_fills_every_place(slotted, hand, offered):
    found, _state = _offered(slotted, hand)
    assert found == {f"combo {c}" for c in offered}


@pytest.mark.parametrize("hand, offered", [
    (["favor", "feral_cat"], {"picked_favor", "cat_first"}),  # a cat as itself
    (["feral_cat", "beard_cat"], {"any_cats", "taco_last", "taco_last_any"}),  # and for a Tacocat
    (["feral_cat", "feral_cat"], {"any_cats", "taco_last_any"}),  # one title twice: no taco_last
    (["feral_cat", "skip"], {"taco_last", "taco_last_any"}),
])
def test_a_wildcard_fills_a_place_it_may_stand_in_for_but_keeps_its_title(wild, hand, offered):
    found, _state = _offered(wild, hand)
    assert found == {f"combo {c}" for c in offered}


def _walk(state, seat=0):
    """Every sequence of picks from a combo_card decision: (picks, the event of the play)."""
    decision = state.decision()
    if decision.kind != "combo_card":
        play = [e for e in state.events if e["type"] == "play"][-1]
        return [((), play)]
    assert decision.options, "a pick that left no card for a later place"
    found = []
    for option in decision.options:
        after = state.clone()
        after.apply_action(option)
        found += [((option,) + rest, play) for rest, play in _walk(after, seat)]
    return found


@pytest.mark.parametrize("combo, hand, sequences", [
    ("picked_favor", ["tacocat", "favor", "beard_cat"], {("favor", "tacocat"), ("favor", "beard_cat")}),
    ("cat_first", ["favor", "tacocat"], {("tacocat", "favor")}),
    # a Tacocat taken as the cat would leave the last place empty: only the Beard Cat first
    ("taco_last", ["tacocat", "beard_cat"], {("beard_cat", "tacocat")}),
    # with repeats a second Tacocat may fill the last place
    ("taco_last_any", ["tacocat", "tacocat"], {("tacocat", "tacocat")}),
    ("taco_last_any", ["tacocat", "beard_cat"], {("beard_cat", "tacocat")}),
    ("any_cats", ["tacocat", "tacocat", "beard_cat"],
     {("tacocat", "tacocat"), ("tacocat", "beard_cat"), ("beard_cat", "tacocat")}),
    ("any_cats", ["tacocat", "beard_cat"], {("tacocat", "beard_cat"), ("beard_cat", "tacocat")}),
    ("three_any", ["skip", "skip", "attack"],
     {("skip", "skip", "attack"), ("skip", "attack", "skip"), ("attack", "skip", "skip")}),
])
def test_picks_never_dead_end_and_this_is_in_slot_order(slotted, combo, hand, sequences):
    state = laid_out(slotted, 3, {0: hand, 1: ["skip"], 2: ["skip"]}, ["tacocat"] * 6)
    state.apply_action(f"combo {combo}")
    walked = _walk(state)
    assert {picks for picks, _play in walked} == sequences
    for picks, play in walked:
        assert play["combo"] == combo and tuple(play["cards"]) == picks
    for picks, _play in walked:  # `this`: the cards as the places took them
        after = state.clone()
        for option in picks:
            after.apply_action(option)
        while after.decision().kind == "answer":
            after.apply_action("pass")
        shown = [e for e in after.events if e["type"] == "show"][-1]
        assert tuple(shown["cards"]) == picks


def test_hand_order_does_not_set_this(slotted):
    """The Favor comes first in the hand; a cat first in `this`, as the slots say."""
    state = laid_out(slotted, 3, {0: ["favor", "beard_cat"], 1: ["skip"], 2: ["skip"]}, ["tacocat"] * 6)
    state.apply_action("combo cat_first")
    assert state.decision().options == ["beard_cat"]
    state.apply_action("beard_cat")
    assert state.decision().options == ["favor"]


def test_the_picks_reveal_no_more_than_a_combo_of_different_titles(slotted):
    """Picking is seen by its player alone: the others learn the cards when the combo is
    played (as they do of Five different cards), and nothing else of the hand."""
    hand = ["favor", "skip", "beard_cat", "attack", "tacocat", "nope"]
    seen = {}
    for combo, picks in (("picked_favor", ["favor", "beard_cat"]), ("five_different", None)):
        state = laid_out(slotted, 3, {0: hand, 1: ["skip"], 2: ["skip"]}, ["tacocat"] * 6)
        before = [state.information_state_string(seat) for seat in (1, 2)]
        state.apply_action(f"combo {combo}")
        picks = picks or list(state.decision().options[:5])
        for option in picks[:-1]:
            state.apply_action(option)
            assert state.view(1).decision is None and state.view(2).decision is None
            assert [state.information_state_string(seat) for seat in (1, 2)] == before
        state.apply_action(picks[-1])
        view = json.loads(state.observation_string(1))
        seen[combo] = (view, picks)
    for combo, (view, picks) in seen.items():
        text = json.dumps(view)
        for card in set(hand) - set(picks) - {"skip"}:  # (seat 1 holds a Skip of its own)
            assert f'"{card}"' not in text, (combo, card)  # still in seat 0's hand: never named


CATS = "any one of Tacocat, Cattermelon, Hairy Potato Cat, Beard Cat or Rainbow-Ralphing Cat"


@pytest.mark.parametrize("combo, expected", [
    ("picked_favor", f"2 cards played together: a Favor and {CATS}."),
    ("cat_first", f"2 cards played together: {CATS} and a Favor."),
    ("any_cats", "2 cards played together, alike or not, every one of them one of"),
    ("taco_last", f"2 cards played together: {CATS} and a Skip or a Tacocat, no title twice."),
    ("taco_last_any", f"2 cards played together: {CATS} and a Skip or a Tacocat."),
])
def test_the_rulesheet_says_what_fills_each_place(slotted, combo, expected):
    sheet = render_rulesheet(slotted, 3)
    title = next(c.title for c in slotted.combos if c.id == combo)
    section = sheet.split(f"### {title}\n", 1)[1].split("###", 1)[0]
    assert expected in section, section
    assert f"Picked favor (2 cards, a Favor and {CATS})" in sheet


def test_the_action_catalogue_covers_every_option_of_slot_combos(slotted):
    catalogue = ActionCatalogue(slotted)
    for seed in range(12):
        state = Game(slotted, 3).new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            options = state.legal_actions()
            for option in options:
                catalogue.index(option)  # KeyError: an option the catalogue lacks
            combos = [o for o in options if o in NEW]
            state.apply_action(combos[0] if combos and rng.random() < 0.7 else rng.choice(options))


#: a combo written wrong: (its lines, the code, the text that marks where it points)
BROKEN = [
    ("    cards: 3\n    match: different_titles\n    slots: [favor, {tag: cat}]\n",
     "bad-value", "[favor, {tag: cat}]", "one slot per card"),
    ("    cards: 2\n    match: different_titles\n    slots: [favour, {tag: cat}]\n",
     "unknown-card", "favour", "'favor'"),
    ("    cards: 2\n    match: any\n    slots: [favor, {tag: cats}]\n",
     "unknown-tag", "cats}", "'cat'"),
    ("    cards: 2\n    match: any\n    slots: [favor, {titles: [skip, tacocta]}]\n",
     "unknown-card", "tacocta", "'tacocat'"),
    ("    cards: 2\n    match: same_title\n    slots: [favor, {tag: cat}]\n",
     "bad-value", "[favor, {tag: cat}]", "match: any"),
]


@pytest.mark.parametrize("lines, code, marker, said", BROKEN)
def test_a_slot_written_wrong_is_reported_at_its_place(tmp_path, lines, code, marker, said):
    text = (f"format: 1\nkind: edition\nid: broken\nname: Broken\nextends: {ORIGINAL}\n"
            "define_combos:\n  - id: odd\n    title: Odd\n    text: x\n" + lines +
            "    effect: draw(me)\nadd_combos: [odd]\n")
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    found = [d for d in validate_paths([str(path)]).diagnostics if d.code == code]
    line = next(n for n, row in enumerate(text.split("\n"), 1) if marker in row)
    column = text.split("\n")[line - 1].index(marker) + 1
    assert [(d.line, d.column) for d in found] == [(line, column)], [d.render() for d in found]
    assert said in found[0].message


def test_a_patch_of_cards_alone_must_suit_the_slots(tmp_path):
    (tmp_path / "base.yaml").write_text(COMBOS.format(base=ORIGINAL, apply=""), encoding="utf-8")
    text = ("format: 1\nkind: edition\nid: patched\nname: Patched\nextends: base.yaml\n"
            "patch_combos:\n  picked_favor:\n    cards: 3\n")
    (tmp_path / "patched.yaml").write_text(text, encoding="utf-8")
    found = [d for d in validate_paths([str(tmp_path / "patched.yaml")]).diagnostics if d.code == "bad-value"]
    assert [(d.line, d.column) for d in found] == [(8, 12)], [d.render() for d in found]


PICKED_FAVOR = str(ROOT / "examples" / "house-rules" / "picked_favor.yaml")


def test_pettingzoo_and_openspiel_play_the_example():
    """The adapters' own tests on the example: every option in the action catalogue,
    and no observation that tells a seat what it may not know."""
    pytest.importorskip("pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")
    import warnings

    from pettingzoo.test import api_test
    from test_env import _leaks

    import kittens.openspiel as kos
    from kittens.adapters.pettingzoo import aec_env, raw_env
    env = aec_env(PICKED_FAVOR, 3, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=150)
    pyspiel.random_sim_test(pyspiel.load_game(kos.SHORT_NAME, {"rules": PICKED_FAVOR, "players": 3}),
                            num_sims=2, serialize=False, verbose=False)
    assert _leaks(raw_env(PICKED_FAVOR, 3, render_mode="ansi"), lambda env, agent: env.observe(agent)) == 0
