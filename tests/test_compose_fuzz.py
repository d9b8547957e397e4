"""Property tests for composition: generated house rules and expansion stacks.

Hypothesis writes house rules from a pool of change keys whose values are
sometimes right (a card in the deck, a known step name) and sometimes wrong (a
typo, a card that is not there), applies expansions in random order, and
checks:

* validating never raises, and every finding has a registered code and a
  position inside the file it names;
* a house rule that validates clean compiles, and the compiled edition shows
  each change it asked for (a removed card is gone, a set count is that count);
* games of it are played to the end with every card conserved.

``KITTENS_FUZZ_SCALE`` multiplies the number of examples.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kittens.interpreter.engine.game import Game
from kittens.interpreter.lang.diagnostics import CODES
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import load_edition

ROOT = Path(__file__).resolve().parent.parent
SCALE = float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))

DECK = ["defuse", "attack", "favor", "nope", "shuffle", "skip", "see_the_future", "tacocat",
        "cattermelon", "hairy_potato_cat", "beard_cat", "rainbow_ralphing_cat"]
CARDS = DECK + ["exploding_kitten", "super_skip", "favour", "reverse"]  # some not in the deck
STEPS = ["aside", "defuses", "spares", "deal", "kittens", "dealt"]  # "dealt" is a typo
PARAMS = ["hand_size", "spare_defuses", "extra_kittens", "attack_turns", "hand_sise"]
COMBOS = ["two_of_a_kind", "three_of_a_kind", "five_different", "cat_pair", "cat_triple"]
EXPANSIONS = ["imploding", "streaking", "barking"]

small = st.integers(min_value=0, max_value=9)
changes = st.fixed_dictionaries({}, optional={
    "apply": st.lists(st.sampled_from(EXPANSIONS), max_size=2, unique=True),
    "remove_cards": st.lists(st.sampled_from(CARDS), max_size=3, unique=True),
    "set_counts": st.dictionaries(st.sampled_from(CARDS), small, max_size=3),
    "add_cards": st.dictionaries(st.sampled_from(["super_skip", "nope", "reverse"]), small, max_size=2),
    "set_params": st.dictionaries(st.sampled_from(PARAMS), small, max_size=3),
    "set_rules": st.dictionaries(st.sampled_from(["attacks_stack", "may_nope_own_action"]),
                                 st.booleans(), max_size=2),
    "remove_combos": st.lists(st.sampled_from(COMBOS), max_size=2, unique=True),
    "add_combos": st.lists(st.sampled_from(COMBOS), max_size=2, unique=True),
    "remove_steps": st.lists(st.sampled_from(["spares", "dealt"]), max_size=1),
    "patch_cards": st.dictionaries(st.sampled_from(["skip", "attack", "favour"]),
                                   st.fixed_dictionaries({"nopeable": st.booleans()}), max_size=2),
})


def _write(folder: Path, body: dict) -> Path:
    data = {"format": 1, "kind": "edition", "id": "fuzzed", "name": "Fuzzed",
            "extends": "original", **body}
    if "add_cards" in data and "super_skip" in data["add_cards"]:
        data["include"] = ["shared"]  # the shipped library that defines the Super Skip
    path = folder / "fuzzed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _well_formed(report) -> None:
    for d in report.diagnostics:
        assert d.code in CODES, d
        if d.line > 0 and os.path.isfile(d.path):
            lines = Path(d.path).read_text(encoding="utf-8").splitlines()
            assert d.line <= len(lines) + 1, d


def _conserved_game(edition, players: int, seed: int) -> None:
    import random

    game = Game(edition, players)
    total = sum(game.deck.values())
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        options = state.legal_actions()
        state.apply_action(options[rng.randrange(len(options))])
    held = Counter(inst.uid for zone in state.table.zones() for inst in zone.cards)
    assert sum(held.values()) == total and max(held.values()) == 1


@settings(max_examples=max(1, int(60 * SCALE)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=changes, seed=st.integers(min_value=0, max_value=10_000))
def test_generated_house_rules_validate_cleanly_or_say_where(tmp_path_factory, body, seed):
    folder = tmp_path_factory.mktemp("house")
    path = _write(folder, body)
    report = validate_paths([str(path)])  # must not raise
    _well_formed(report)
    if report.errors:
        return
    edition = load_edition(str(path))
    deck = edition.deck_for(edition.players[0])
    for card_id in body.get("remove_cards", []):
        assert card_id not in deck
    for card_id, count in body.get("set_counts", {}).items():
        if card_id not in body.get("remove_cards", []):
            assert edition.deck_for(edition.players[0]).get(card_id, 0) == count
    for name, value in body.get("set_params", {}).items():
        assert edition.params[name] == value
    for name, value in body.get("set_rules", {}).items():
        assert edition.rules[name] is value
    for card_id, patch in body.get("patch_cards", {}).items():
        assert edition.cards[card_id].nopeable is patch["nopeable"]
    on = {combo.id for combo in edition.combos}
    assert not on & (set(body.get("remove_combos", [])) - set(body.get("add_combos", [])))
    _conserved_game(edition, edition.players[0], seed)
