"""The positioned YAML loader: plain data, exact marks, refusals."""

import pytest

from kittens.interpreter.lang.loader import Mark, load_text


def test_values_and_keys_keep_their_positions():
    doc, problems = load_text("a: 1\nb:\n  - x\n  - {c: true, 2: null}\n")
    assert problems == []
    assert doc.data == {"a": 1, "b": ["x", {"c": True, "2": None}]}  # keys are source text
    assert doc.mark(("a",)) == Mark(1, 4)
    assert doc.mark(("b", 1, "c")) == Mark(4, 9)
    assert doc.mark(("b", 1, "c"), key=True) == Mark(4, 6)
    assert doc.mark(("b", 9, "zz")) == Mark(3, 3)  # unknown paths fall back to the nearest parent


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("style, body, line_of_y", [
    ("|", ["    move(x)", "    if y {", "      end_turn()", "    }"], 4),
    (">", ["    move(x)", "    if y {", "      end_turn()", "    }"], 4),
])
def test_offsets_inside_block_effects_map_to_file_positions(newline, style, body, line_of_y):
    text = newline.join(["card:", f"  effect: {style}", *body, ""])
    doc, _ = load_text(text)
    value = doc.data["card"]["effect"]
    assert doc.offset_mark(("card", "effect"), value.index("y")) == Mark(line_of_y, 8)
    assert doc.offset_mark(("card", "effect"), value.index("end_turn")) == Mark(5, 7)


@pytest.mark.parametrize("line, column_of_top", [
    ('effect: show(top(draw_pile, 3), me)', 14),
    ('effect: "show(top(draw_pile, 3), me)"', 15),
    ("effect: 'show(top(draw_pile, 3), me)'", 15),
])
def test_offsets_inside_one_line_effects(line, column_of_top):
    doc, _ = load_text(line + "\n")
    value = doc.data["effect"]
    assert doc.offset_mark(("effect",), value.index("top")) == Mark(1, column_of_top)


def test_non_ascii_text_counts_characters_not_bytes():
    doc, _ = load_text("title: Schrödinger\neffect: déjà(vu)\n")
    assert doc.offset_mark(("effect",), doc.data["effect"].index("vu")) == Mark(2, 14)


@pytest.mark.parametrize("text, code, line, column", [
    ("a: 1\na: 2\n", "duplicate-key", 2, 1),
    ("a: !!python/object/apply:os.system ['true']\n", "yaml-tag", 1, 4),
    ("a: !!set {x}\n", "yaml-tag", 1, 4),
    ("a: !custom x\n", "yaml-tag", 1, 4),
    ("? [a]\n: 1\n", "yaml-syntax", 1, 3),
    ("a: *nothing\n", "yaml-syntax", 1, 4),
    ("a: [1, 2\n", "yaml-syntax", 2, 1),
    ("", "empty-file", 1, 1),
    ("# only a comment\n", "empty-file", 1, 1),
    ("a: 1\n---\nb: 2\n", "multiple-documents", 2, 1),
    ("a: 0b_\n", "yaml-syntax", 1, 4),
])
def test_refusals(text, code, line, column):
    doc, problems = load_text(text)
    assert doc is None
    assert [(p.code, p.line, p.column) for p in problems] == [(code, line, column)]


def test_aliases_share_values_instead_of_copying():
    doc, problems = load_text("base: &b {x: 1}\ncopy: *b\n")
    assert problems == [] and doc.data["copy"] is doc.data["base"]


def test_explicit_core_tags_are_plain_data():
    doc, problems = load_text('a: !!str 12\nb: !!int "7"\n')
    assert problems == [] and doc.data == {"a": "12", "b": 7}


def test_a_missing_key_is_named_from_the_errors_fields_not_its_english():
    """jsonschema's messages are for people; the key comes from the error's own fields."""
    from jsonschema import ValidationError

    from kittens.interpreter.lang.loader import load_text
    from kittens.interpreter.lang.schemas import _to_diagnostics

    doc, _problems = load_text("format: 1\nkind: cards\ncards:\n  - {id: x, when: never}\n")
    error = ValidationError("Pflichtfeld fehlt", validator="required", validator_value=["id", "title", "text"],
                            instance={"id": "x", "when": "never"}, path=("cards", 0), schema={})
    (found,) = _to_diagnostics(doc, error)
    assert found.code == "missing-key" and "'title'" in found.message and "'x'" in found.message
