"""Conflicts between the files of one game (issue 42): a file never disagrees with its
own variants, and a patch that changes another file's replacement of a card is
reported with both places."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from kittens.interpreter.rules.check import validate_paths

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT / "editions" / "original.yaml"
STREAKING = ROOT / "editions" / "streaking.yaml"
#: the line of streaking's Exploding Kitten, which replaces the base's
STREAKING_KITTEN = "rulebook/streaking.yaml:28"


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _found(path: Path) -> list[tuple]:
    return [(d.code, d.severity, os.path.basename(d.path), d.line, d.column, d.message)
            for d in validate_paths([str(path)]).diagnostics]


def _expansion(folder: Path, name: str, body: str) -> Path:
    return _write(folder, f"{name}.yaml", textwrap.dedent(f"""\
        format: 1
        kind: expansion
        id: {name}
        name: {name}
        base: {os.path.relpath(ORIGINAL, folder)}
        """) + textwrap.dedent(body))


def _house(folder: Path, body: str) -> Path:
    return _write(folder, "house.yaml", textwrap.dedent(f"""\
        format: 1
        kind: edition
        id: house
        name: House
        extends: {os.path.relpath(ORIGINAL, folder)}
        """) + textwrap.dedent(body))


def test_an_expansions_variant_setting_its_own_parameter_is_no_conflict(tmp_path):
    path = _expansion(tmp_path, "bonus", """\
        params: {bonus_draws: 1}
        variants:
          big:
            description: More bonus draws.
            set_params: {bonus_draws: 3}
        """)
    assert _found(path) == []


def test_an_expansion_patching_a_card_another_replaced_conflicts_naming_both(tmp_path):
    _expansion(tmp_path, "kit", "patch_cards:\n  exploding_kitten:\n    text: Explode; no Defuse.\n")
    house = _house(tmp_path, f"apply: [{os.path.relpath(STREAKING, tmp_path)}, kit.yaml]\n")
    found = _found(house)
    assert [f[:5] for f in found] == [("conflict", "error", "kit.yaml", 8, 11)]
    assert STREAKING_KITTEN in found[0][-1]


def test_a_house_rule_patch_of_a_card_replaced_after_it_is_warned_at_the_patch(tmp_path):
    """The house rule's patch, written for the base's kitten, outlives Streaking's
    replacement applied after it (`with:`, as `--with` does): it is warned."""
    _house(tmp_path, "patch_cards:\n  exploding_kitten:\n    text: Explode; no Defuse.\n")
    scenario = _write(tmp_path, "scenario.yaml", """\
        format: 1
        kind: scenario
        description: The house rule, with Streaking Kittens applied after it.
        edition: house.yaml
        with: [streaking]
        players: 2
        hands: {0: [defuse]}
        draw_pile: [exploding_kitten]
        steps: []
        expect: {turn: 0}
        """.replace("        ", ""))
    found = _found(scenario)
    assert [f[:5] for f in found] == [("patches-replaced-card", "warning", "house.yaml", 8, 11)]
    assert STREAKING_KITTEN in found[0][-1]


def test_a_house_rule_patching_what_the_files_it_applies_replaced_decides(tmp_path):
    _expansion(tmp_path, "kit", "patch_cards:\n  exploding_kitten:\n    text: Explode; no Defuse.\n")
    house = _house(tmp_path, f"apply: [{os.path.relpath(STREAKING, tmp_path)}, kit.yaml]\n"
                             "patch_cards:\n  exploding_kitten:\n    text: Explode, always.\n")
    assert _found(house) == []  # the expansion's patch settled, the house rule's own its choice


def test_a_patch_agreeing_with_the_replacement_or_of_a_base_card_is_not_reported(tmp_path):
    _expansion(tmp_path, "kit", "patch_cards:\n  exploding_kitten:\n    when: never\n"
                                "  skip:\n    text: Skip it.\n")
    house = _house(tmp_path, f"apply: [{os.path.relpath(STREAKING, tmp_path)}, kit.yaml]\n")
    assert _found(house) == []
