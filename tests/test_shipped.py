"""Every shipped rule file is valid, and the installed package carries them."""

import json
from pathlib import Path

import pytest
from conftest import ROOT
from jsonschema import Draft202012Validator

import kittens
import kittens.interpreter.lang
from kittens.interpreter.lang.syntax import Program
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import load_edition

SHIPPED = sorted((ROOT / "rulebook").glob("*.yaml")) + sorted((ROOT / "editions").glob("*.yaml"))
SCHEMAS = sorted((ROOT / "schema").glob("*.schema.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_file_validates_clean(path):
    report = validate_paths([str(path)])
    assert report.diagnostics == [], "\n".join(d.render() for d in report.diagnostics)


def test_shipped_folders_validate_clean_together():
    report = validate_paths([str(ROOT / "editions"), str(ROOT / "rulebook")])
    assert len(report.files) == len(SHIPPED)
    assert report.diagnostics == []


def test_installed_package_ships_rule_files_and_schemas():
    # kittens may be imported from site-packages: its data must be there too
    assert (kittens.EDITIONS_DIR / "original.yaml").is_file()
    assert (kittens.RULEBOOK_DIR / "original.yaml").is_file()
    for kind in ("cards", "combos", "edition"):
        assert (kittens.SCHEMA_DIR / f"{kind}.schema.json").is_file()
    assert (Path(kittens.interpreter.lang.__file__).parent / "effects.lark").is_file()
    edition = load_edition(str(kittens.EDITIONS_DIR / "original.yaml"))
    assert edition.id == "original"


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path):
    schema = json.loads(path.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def _object_schemas(node, where="#"):
    if isinstance(node, dict):
        if "properties" in node:
            yield where, node
        for key, value in node.items():
            yield from _object_schemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _object_schemas(value, f"{where}/{index}")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_closed_and_described(path):
    schema = json.loads(path.read_text())
    objects = list(_object_schemas(schema))
    assert objects
    closed = {where for where, node in objects if node.get("unevaluatedProperties") is False}
    for where, node in objects:
        # a branch (`then`, `else`) adds keys to a mapping that its parent closes with
        # unevaluatedProperties: the keys of both count as known there
        parent = where.rsplit("/", 1)[0]
        assert node.get("additionalProperties") is False or where in closed or (
            where.endswith(("/then", "/else")) and parent in closed), f"{where} is open to unknown keys"
        for name, prop in node["properties"].items():
            assert prop.get("description"), f"{where}/properties/{name} has no description"


def test_original_edition_contents():
    edition = load_edition(str(ROOT / "editions" / "original.yaml"))
    deck = edition.deck_for(4)
    assert sum(deck.values()) == 56
    assert deck["exploding_kitten"] == 4 and deck["defuse"] == 6
    cats = [c for c in deck if "cat" in edition.cards[c].tags]
    assert len(cats) == 5 and all(deck[c] == 4 for c in cats)
    assert edition.players == (2, 5)
    assert {c.id for c in edition.combos} == {"two_of_a_kind", "three_of_a_kind", "five_different"}
    assert [c for c in edition.cards.values() if c.lethal] == [edition.cards["exploding_kitten"]]
    assert set(edition.variants) == {"older_printing", "beginner"}
    older = edition.variants["older_printing"]  # file 002: four cards, then a Defuse; attacks stack
    assert older.rules["attacks_stack"] is True and older.params["hand_size"] == 4
    assert [step.kind for step in older.setup[:4]] == ["set_aside", "shuffle", "deal", "deal"]
    assert older.setup[3].cards == ("defuse",)
    assert {c.id for c in edition.variants["beginner"].combos} == {"cat_pair", "cat_triple"}
    # every effect was parsed and checked once, at load: the edition holds syntax trees
    assert isinstance(edition.cards["attack"].effect, Program)
    assert isinstance(edition.cards["exploding_kitten"].on_draw, Program)


def test_effects_are_compiled_once_and_the_game_loop_never_parses_or_compiles(monkeypatch):
    from kittens.interpreter.engine import compiled
    from kittens.interpreter.engine import game as game_module
    from kittens.interpreter.engine.players import make_bots
    from kittens.interpreter.engine.simulate import play_game
    from kittens.interpreter.lang import compiler, counts, parser

    game = game_module.Game(load_edition("original"), 4)
    for _seed in range(2):  # warm: setup counts are compiled the first time they are met
        play_game(game, _seed, make_bots(["random"], 4, _seed), record=False)

    def forbidden(*_args, **_kwargs):
        raise AssertionError("the game loop parsed or compiled an effect")
    for module, name in ((parser, "parse_program"), (parser, "parse_expression"),
                         (compiler, "compile_program"), (compiler, "compile_expression"),
                         (compiled, "compile_program"), (compiled, "compile_expression"),
                         (game_module, "compile_program"), (game_module, "compile_expression"),
                         (counts, "compile_expression")):
        monkeypatch.setattr(module, name, forbidden)
    for seed in range(2, 12):
        state = play_game(game, seed, make_bots(["random", "heuristic"], 4, seed))
        assert state.is_terminal()
