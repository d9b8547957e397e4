"""The compile session's collaborators: where text comes from, and the library cache."""

from __future__ import annotations

import os

import pytest

from kittens.about import EDITIONS_DIR
from kittens.interpreter.rules.edition import compile_edition
from kittens.interpreter.rules.load import RuleError, UnknownVariant, load_edition, select_variant
from kittens.interpreter.rules.workspace import Workspace
from kittens.lab.rulesets import LAB_CHANGE_NAME, Ruleset, load_ruleset

ORIGINAL = os.path.join(str(EDITIONS_DIR), "original.yaml")


def test_a_text_held_in_memory_is_read_like_a_file_that_does_not_exist(tmp_path):
    held = tmp_path / "not_on_disk.yaml"
    ws = Workspace()
    ws.sources.put(str(held), f"format: 1\nkind: edition\nid: held\nname: Held\nextends: {ORIGINAL}\n")
    edition = compile_edition(ws, str(held))
    assert edition is not None and edition.id == "held"
    assert not held.exists()
    assert ws.sources.held(str(held)) and ws.sources.exists(str(held))


def test_findings_in_a_held_text_name_its_path_line_and_column(tmp_path):
    held = tmp_path / "buffer.yaml"
    ws = Workspace()
    ws.sources.put(str(held), f"format: 1\nkind: edition\nid: held\nname: Held\nextends: {ORIGINAL}\n"
                              "set_counts:\n  no_such_card: 2\n")
    compile_edition(ws, str(held))
    found = [d for d in ws.diagnostics if d.path == str(held)]
    assert found and found[0].line == 7, [d.render() for d in ws.diagnostics]


def test_a_library_reached_twice_is_compiled_once():
    ws = Workspace()
    compile_edition(ws, ORIGINAL)
    compiled = ws.libraries.compiled()
    assert compiled and len({id(lib) for lib in compiled}) == len(compiled)
    again = ws.libraries.get(os.path.realpath(compiled[0].path))
    assert again is compiled[0]


def test_a_lab_change_is_composed_in_memory_beside_the_edition():
    """Its findings name the change beside the edition it extends, not a temporary folder."""
    with pytest.raises(RuleError) as caught:
        load_ruleset(Ruleset("original", changes=(("set_counts", "no_such_card", 2),)))
    paths = {d.path for d in caught.value.diagnostics}
    assert paths == {os.path.join(os.path.dirname(os.path.realpath(ORIGINAL)), LAB_CHANGE_NAME)} or \
        paths == {os.path.join(os.path.dirname(ORIGINAL), LAB_CHANGE_NAME)}
    assert not any(os.path.exists(path) for path in paths)


def test_a_lab_change_plays_and_takes_a_variant():
    edition = load_ruleset(Ruleset("original", "older_printing", changes=(("set_counts", "skip", 6),)))
    assert edition.variant == "older_printing"


@pytest.mark.parametrize("variant, error, words", [
    ("no_such", UnknownVariant, "has no variant 'no_such'"),
    ("older_printin", UnknownVariant, "did you mean 'older_printing'"),
])
def test_one_place_chooses_a_variant(variant, error, words):
    edition = load_edition("original")
    with pytest.raises(error) as caught:
        select_variant(edition, variant, "original")
    assert words in str(caught.value)
    assert select_variant(edition, None, "original") is edition
    assert select_variant(edition, "older_printing", "original").variant == "older_printing"


def test_a_step_moved_beside_itself_is_a_finding_at_its_place(tmp_path):
    """Found by the type checker: this crashed with a TypeError inside the composer."""
    rule = tmp_path / "self_move.yaml"
    rule.write_text("format: 1\nkind: edition\nid: self_move\nname: Self move\nextends: original\n"
                    "move_steps:\n  - {step: deal, before: deal}\n")
    ws = Workspace()
    compile_edition(ws, str(rule))
    found = [(d.code, d.line, d.column) for d in ws.diagnostics if d.is_error]
    assert found == [("bad-value", 7, 26)], [d.render() for d in ws.diagnostics]


def test_an_edition_and_its_variants_are_resolved_once_and_each_effect_parsed_once(monkeypatch):
    """The files of an edition are walked once for it and all its variants, each variant
    layered on that; an effect text is parsed once, not again for each variant."""
    from collections import Counter

    from kittens.interpreter.rules import stack
    from kittens.interpreter.rules import workspace as workspace_module

    resolved, parsed = Counter(), Counter()
    real_resolve, real_parse = stack.resolve, Workspace._parse

    def counting_resolve(ws, path, expansions=()):
        resolved[os.path.realpath(path)] += 1
        return real_resolve(ws, path, expansions)

    def counting_parse(self, doc, path, text, expression):
        parsed[(workspace_module._place(doc, path), expression)] += 1
        return real_parse(self, doc, path, text, expression)

    monkeypatch.setattr("kittens.interpreter.rules.edition.resolve", counting_resolve)
    monkeypatch.setattr(Workspace, "_parse", counting_parse)
    ws = Workspace()
    path = str(EDITIONS_DIR / "barking.yaml")
    edition = compile_edition(ws, path)
    assert edition is not None and len(edition.variants) >= 3
    assert resolved == {os.path.realpath(path): 1}
    assert parsed and max(parsed.values()) == 1, [place for place, times in parsed.items() if times > 1]
