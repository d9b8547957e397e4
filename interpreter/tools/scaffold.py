"""`kittens new`: starter files for a house rule or an expansion.

Each starter validates as written, plays, and comes with a scenario file that
passes: a designer edits from a working state, and the scenario fails the
moment a change makes it untrue, which is the point of having it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ...about import EDITIONS_DIR, SCHEMA_DIR


class ScaffoldError(Exception):
    """The starter cannot be written (a bad name, a file already there)."""


@dataclass(frozen=True)
class Written:
    path: str
    what: str


def slug(name: str) -> str:
    """A rule-file id from a name: `Two Defuses!` -> `two_defuses`."""
    text = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if not text or not text[0].isalpha():
        raise ScaffoldError(f"'{name}' does not make an id: start the name with a letter")
    return text[:64]


def shipped_edition(reference: str) -> str:
    """An edition file: a path, or the name of a shipped edition (`original`)."""
    if os.path.isfile(reference):
        return reference
    shipped = os.path.join(str(EDITIONS_DIR), f"{reference}.yaml")
    if os.path.isfile(shipped):
        return shipped
    names = sorted(n[:-5] for n in os.listdir(EDITIONS_DIR) if n.endswith(".yaml"))
    raise ScaffoldError(f"no edition '{reference}': give a file, or one of {', '.join(names)}")


def _modeline(folder: str, kind: str) -> str:
    schema = os.path.join(str(SCHEMA_DIR), f"{kind}.schema.json")
    try:
        target = os.path.relpath(schema, folder)
    except ValueError:  # another drive (Windows): an absolute path still works
        target = schema
    return f"# yaml-language-server: $schema={target.replace(os.sep, '/')}"


def _relative(path: str, folder: str) -> str:
    try:
        return os.path.relpath(path, folder).replace(os.sep, "/")
    except ValueError:
        return os.path.abspath(path)


def _write(files: list[tuple[str, str, str]]) -> list[Written]:
    """Write every file or none: refuse when one exists already."""
    _refuse_existing([path for path, _text, _what in files])
    written = []
    for path, text, what in files:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(text)
        written.append(Written(path, what))
    return written


def _setup_facts(edition_path: str, players: int) -> tuple[int, int, dict]:
    """Seats, cards per hand, and the lethal cards in the pile after the edition's setup."""
    from ..engine.game import Game
    from ..rules.load import load_edition

    edition = load_edition(edition_path)
    players = min(max(players, edition.players[0]), edition.players[1])
    state = Game(edition, players).new_state(0)
    hand = len(state.table.hands[0].cards)
    kittens = {}
    for inst in state.table.draw_pile.cards:
        if inst.card.lethal:
            kittens[inst.id] = kittens.get(inst.id, 0) + 1
    return players, hand, kittens


def house_rule(name: str, edition: str, folder: str = ".") -> list[Written]:
    """A house rule extending ``edition``, and a scenario that checks its setup."""
    ident = slug(name)
    base = shipped_edition(edition)
    path = os.path.join(folder, f"{ident}.yaml")
    scenario = os.path.join(folder, f"{ident}.scenario.yaml")
    # a shipped edition by name: the file then works wherever kittens is installed
    extends = edition if not os.path.isfile(edition) else _relative(base, folder)
    rule = HOUSE_RULE.format(modeline=_modeline(folder, "edition"), id=ident, name=name, extends=extends)
    _refuse_existing([path, scenario])
    written = _write([(path, rule, "house rule")])
    try:  # the scenario's numbers come from dealing the rule just written
        written += _write([(scenario, _house_scenario(path, scenario), "scenario")])
    except BaseException:
        os.unlink(path)  # never leave half a starter behind
        raise
    return written


def expansion(name: str, base: str, folder: str = ".") -> list[Written]:
    """An expansion as a folder: expansion.yaml, a card library, and a scenario."""
    ident = slug(name)
    root = os.path.join(folder, ident)
    edition_path = shipped_edition(base)
    base_ref = base if not os.path.isfile(base) else _relative(edition_path, root)
    card = f"{ident}_peek"[:64]
    files = [
        (os.path.join(root, "expansion.yaml"),
         EXPANSION.format(modeline=_modeline(root, "expansion"), id=ident, name=name,
                          base=base_ref, card=card), "expansion"),
        (os.path.join(root, "cards.yaml"),
         CARDS.format(modeline=_modeline(root, "cards"), name=name, card=card), "card library"),
        (os.path.join(root, "scenarios", "peek.yaml"),
         EXPANSION_SCENARIO.format(modeline=_modeline(os.path.join(root, "scenarios"), "scenario"),
                                   card=card), "scenario"),
    ]
    return _write(files)


def _refuse_existing(paths: list[str]) -> None:
    for path in paths:
        if os.path.exists(path):
            raise ScaffoldError(f"{path} already exists: pick another name or folder")


def _house_scenario(rule_path: str, scenario_path: str) -> str:
    """The starter scenario: the deal the house rule gives four players, as it is now."""
    players, hand, kittens = _setup_facts(rule_path, 4)
    return HOUSE_SCENARIO.format(
        modeline=_modeline(os.path.dirname(scenario_path) or ".", "scenario"),
        edition=os.path.basename(rule_path), players=players,
        hand_counts=", ".join(f"{seat}: {hand}" for seat in range(players)),
        kittens=", ".join(f"{card}: {count}" for card, count in sorted(kittens.items())))


HOUSE_RULE = """{modeline}
#
# {name}: a house rule. It extends an edition and says only what it changes;
# everything else is inherited. Each kind of change has its own key, so there
# is never a doubt whether something is added to or replaces what was there.
# Uncomment and edit what you need, then:
#
#   kittens validate {id}.yaml          check it (file, line and column on any error)
#   kittens test {id}.scenario.yaml     run its scenarios
#   kittens show {id}.yaml              the whole resolved edition, each value's origin
#   kittens diff {extends} {id}.yaml      what it changes
#   kittens rules {id}.yaml -p 4        a rulesheet for four players
#   kittens run {id}.yaml -g 1000       bots play it: how balanced is it?
format: 1
kind: edition
id: {id}
name: {name}
description: >-
  Say in a sentence what your table plays differently.
extends: {extends}       # a file, or the name of a shipped edition
# apply: [imploding]      # expansions to play with, applied first (files, folders or names)

# -- the deck ---------------------------------------------------------------
# add_cards: {{my_card: 2}}             cards not in the deck yet (define them below)
# remove_cards: [favor]                 cards taken out altogether
# set_counts: {{nope: 8}}                 new counts for cards already in it

# -- cards ------------------------------------------------------------------
# define_cards:                         new cards, written as in a cards file
#   - id: my_card
#     title: My Card
#     text: Look at the top card of the draw pile.
#     when: own_turn
#     effect: show(top(draw_pile, 1), me)
# patch_cards:                          change some keys of a card; the rest stays
#   skip: {{nopeable: false}}
# replace_cards: [...]                  whole new definitions for existing cards

# -- combos -----------------------------------------------------------------
# add_combos: [cat_pair]    remove_combos: [five_different]    set_combos: []
# define_combos: [...]                  new combos, written as in a combos file

# -- numbers and switches ---------------------------------------------------
# set_rules: {{may_nope_own_action: true, attacks_stack: false}}
# add_params: {{my_number: 2}}            new numbers your cards use as rules.my_number
set_params:
  hand_size: 7        # cards dealt to each player besides their Defuse

# -- setup ------------------------------------------------------------------
# replace_steps: {{defuses: {{deal: {{card: defuse, count: 2}}}}}}
# remove_steps: [spares]
# add_steps: [{{after: deal, steps: [...]}}]
"""

HOUSE_SCENARIO = """{modeline}
#
# A scenario: a rule test written as data. This one deals the game with the
# house rule's own setup and checks the hands and the kittens in the pile.
# Change the house rule and this will tell you whether the deal still is
# what you meant. Copy it to pin down each change you make: set up hands and
# a pile by hand, script the plays, and say what must come of them (see
# docs/scenarios.md in kittens for every key).
format: 1
kind: scenario
description: The deal gives everyone a Defuse and `hand_size` cards.
edition: {edition}
players: {players}
seed: 1
setup: edition
steps:
  - expect:
      hand_counts: {{{hand_counts}}}
      draw_pile_counts: {{{kittens}}}
"""

EXPANSION = """{modeline}
#
# {name}: an expansion. It adds cards and rules to an edition: its `base` by
# default, or any edition it is applied to (`kittens run EDITION --with
# FOLDER`, or `apply:` in a house rule). Deck counts add to the base's.
#   kittens validate .          kittens test scenarios/
#   kittens run expansion.yaml -g 1000
format: 1
kind: expansion
id: {id}
name: {name}
description: >-
  Say in a sentence what this expansion adds.
base: {base}
include:
  - cards.yaml

deck:                       # copies added to the base's deck
  {card}: 4

# needs: [imploding]        editions or expansions that must be in the game too
# add_steps:                setup steps next to the base's named steps
#   - after: deal
#     steps: [...]
# remove_cards, set_counts, patch_cards, replace_cards: change the base's cards
"""

CARDS = """{modeline}
#
# The cards of {name}. Each card's `effect` is written in the effect
# language (see docs/effects.md in kittens for every primitive).
format: 1
kind: cards
description: The cards {name} adds.

cards:
  - id: {card}
    title: Sneak Peek
    tags: [action]
    text: >-
      Look at the top card of the draw pile without showing anyone.
    when: own_turn
    effect: show(top(draw_pile, 1), me)
"""

EXPANSION_SCENARIO = """{modeline}
#
# The new card does what its text says: whoever plays it sees the top card of
# the pile, and nobody else does.
format: 1
kind: scenario
description: Sneak Peek shows its player the top card, and only them.
edition: ../expansion.yaml
players: 3
hands:
  0: [{card}]
draw_pile: [tacocat, exploding_kitten, beard_cat]
steps:
  - {{seat: 0, do: play {card}}}
  - expect:
      sees:
        0: {{draw_pile: {{0: tacocat}}}}
        1: {{draw_pile: {{}}}}
      turn: 0
"""
