"""`kittens new`: starter files for a house rule or an expansion.

Each starter validates as written, plays, and comes with a scenario file that
passes: a designer edits from a working state, and the scenario fails the
moment a change makes it untrue, which is the point of having it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..about import DISTRIBUTION, EDITIONS_DIR, __version__


class ScaffoldError(Exception):
    """The starter cannot be written (a bad name, a file already there)."""


@dataclass(frozen=True)
class Written:
    path: str
    what: str


def slug(name: str) -> str:
    """A rule-file id from a name: `Two Defuses!` -> `two_defuses`, `Été chaud` ->
    `ete_chaud` (accents are taken off letters rather than the letters dropped)."""
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    text = re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")
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


#: the designer's copy of the schemas, beside the files `kittens new` writes
SCHEMA_FOLDER = "schema"


def _modeline(folder: str, kind: str, schemas: str) -> str:
    """A modeline pointing at the designer's own copy of the schema (``schemas``), so it
    works after the virtual environment is rebuilt, under pipx and for a teammate."""
    schema = os.path.join(schemas, f"{kind}.schema.json")
    try:
        target = os.path.relpath(schema, folder)
    except ValueError:  # another drive (Windows): an absolute path still works
        target = os.path.abspath(schema)
    return f"# yaml-language-server: $schema={target.replace(os.sep, '/')}"


def _copy_schemas(folder: str) -> list[Written]:
    """The schemas copied into ``folder`` unless a copy is there already (`kittens schema
    --write` refreshes it)."""
    from .schemas_out import write_schemas

    if os.path.isfile(os.path.join(folder, "edition.schema.json")):
        return []
    write_schemas(folder)
    return [Written(folder, f"JSON Schemas for editors; refresh with `kittens schema --write {folder}`")]


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
    from ..interpreter.engine.game import Game
    from ..interpreter.rules.load import load_edition

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
    schemas = os.path.join(folder, SCHEMA_FOLDER)
    rule = HOUSE_RULE.format(modeline=_modeline(folder, "edition", schemas), id=ident, name=name,
                             extends=extends, change=_starter_change(base))
    _refuse_existing([path, scenario])
    written = _write([(path, rule, "house rule")])
    try:  # the scenario's numbers come from dealing the rule just written
        written += _write([(scenario, _house_scenario(path, scenario, schemas), "scenario")])
        written += _copy_schemas(schemas)
    except BaseException:
        for item in written:  # never leave half a starter behind
            if os.path.isfile(item.path):
                os.unlink(item.path)
        raise
    return written


def _starter_change(base: str) -> str:
    """The starter's one real change, so its first `kittens diff` shows something: one
    card fewer in each hand when the edition deals a `hand_size`, else an engine rule
    switched."""
    from ..interpreter.rules.load import load_edition

    edition = load_edition(base)
    size = edition.params.get("hand_size")
    if isinstance(size, int) and not isinstance(size, bool) and size > 1:
        return (f"set_params:\n  hand_size: {size - 1}        # cards dealt to each player besides "
                f"their Defuse (the edition deals {size})")
    stacks = edition.rules.get("attacks_stack", True)
    return (f"set_rules:\n  attacks_stack: {'false' if stacks else 'true'}   # the edition says "
            f"{'true' if stacks else 'false'}")


def expansion(name: str, base: str, folder: str = ".") -> list[Written]:
    """An expansion as a folder that is also a Python package, ready to publish:
    expansion.yaml, a card library, a scenario, and pyproject.toml with the entry point
    that makes `kittens list` and `--with NAME` find it once installed."""
    ident = slug(name)
    root = os.path.join(folder, ident)
    edition_path = shipped_edition(base)
    base_ref = base if not os.path.isfile(base) else _relative(edition_path, root)
    card = f"{ident}_peek"[:64]
    schemas = os.path.join(root, SCHEMA_FOLDER)
    files = [
        (os.path.join(root, "expansion.yaml"),
         EXPANSION.format(modeline=_modeline(root, "expansion", schemas), id=ident, name=name,
                          base=base_ref, card=card), "expansion"),
        (os.path.join(root, "cards.yaml"),
         CARDS.format(modeline=_modeline(root, "cards", schemas), name=name, card=card), "card library"),
        (os.path.join(root, "scenarios", "peek.yaml"),
         EXPANSION_SCENARIO.format(modeline=_modeline(os.path.join(root, "scenarios"), "scenario", schemas),
                                   card=card), "scenario"),
        (os.path.join(root, "pyproject.toml"), PYPROJECT.format(id=ident, name=name,
                                                                dist=ident.replace("_", "-"),
                                                                engine=DISTRIBUTION, version=__version__),
         "package metadata with the kittens.expansions entry point"),
        (os.path.join(root, "__init__.py"),
         f'"""{name}: an expansion for kittens (rules in YAML beside this file)."""\n',
         "the package's marker"),
        (os.path.join(root, "README.md"), EXPANSION_README.format(id=ident, name=name,
                                                                  dist=ident.replace("_", "-"),
                                                                  engine=DISTRIBUTION),
         "how to publish and install it"),
    ]
    written = _write(files)
    return written + _copy_schemas(schemas)


def _refuse_existing(paths: list[str]) -> None:
    for path in paths:
        if os.path.exists(path):
            raise ScaffoldError(f"{path} already exists: pick another name or folder")


def _house_scenario(rule_path: str, scenario_path: str, schemas: str) -> str:
    """The starter scenario: the deal the house rule gives four players, as it is now."""
    players, hand, kittens = _setup_facts(rule_path, 4)
    return HOUSE_SCENARIO.format(
        modeline=_modeline(os.path.dirname(scenario_path) or ".", "scenario", schemas),
        edition=os.path.basename(rule_path), players=players,
        hand_counts=", ".join(f"{seat}: {hand}" for seat in range(players)),
        kittens=", ".join(f"{card}: {count}" for card, count in sorted(kittens.items())))


HOUSE_RULE = """{modeline}
#
# {name}: a house rule. It extends an edition and says only what it changes;
# everything else is inherited. Each kind of change has its own key, so there
# is never a doubt whether something is added to or replaces what was there.
# Uncomment and edit what you need (`kittens docs house-rules` explains every
# key; your editor completes them from the schema in schema/), then:
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
# set_rules: {{may_nope_own_action: true}}       engine rules: `kittens docs effects` lists them
# add_params: {{my_number: 2}}            new numbers your cards use as rules.my_number
{change}

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
# `kittens docs scenarios` for every key).
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
# language (`kittens docs effects` lists every primitive).
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

PYPROJECT = """# {name} as a Python package: `pip install .` here (or from an index once
# published) and kittens finds it: `kittens list` shows it, `kittens run original
# --with {id}` plays it. kittens reads the YAML beside __init__.py; it never
# imports the package.
[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "kittens-{dist}"
version = "0.1.0"
description = "{name}: an expansion for kittens."
requires-python = ">=3.11"
# kittens is published as {engine} (the index's "kittens" is another project);
# this version of it wrote these files
dependencies = ["{engine}>={version}"]

[project.entry-points."kittens.expansions"]
{id} = "{id}"          # the package whose folder holds expansion.yaml

# this folder is the package (its files stay at the top, as kittens' own do)
[tool.setuptools]
package-dir = {{ "{id}" = "." }}
packages = ["{id}"]

[tool.setuptools.package-data]
{id} = ["*.yaml", "scenarios/*.yaml", "schema/*.json"]

# `pytest` here runs the scenarios through kittens' pytest plugin
[tool.pytest.ini_options]
kittens_scenarios = ["scenarios"]
"""

EXPANSION_README = """# {name}

An expansion for [kittens](https://pypi.org/project/{engine}/) (`pip install {engine}`).

    kittens validate .                 # check the rule files
    kittens test scenarios/            # or: pytest (the plugin collects scenarios/)
    kittens run original --with .      # bots play it on the Original Edition

## Publish and install

    python -m build                    # makes dist/kittens_{id}-0.1.0.tar.gz and a wheel
    python -m twine upload dist/*      # publish it (or share the wheel)
    pip install kittens-{dist}         # whoever installs it can then:
    kittens list                       # ... see it, and
    kittens run original --with {id}   # ... play it by name
"""
