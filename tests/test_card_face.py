"""Card faces drawn from the cards' data (interpreter/words/card_face.py): valid SVG,
kinds told apart by colour and symbol, a house rule's new card drawn like any other."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT

from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.words import card_face as F

SVG = "{http://www.w3.org/2000/svg}"
EDITIONS = sorted(p.stem for p in (ROOT / "editions").glob("*.yaml"))

HOUSE = """\
format: 1
kind: edition
id: odd_house
name: Odd House
extends: original
define_cards:
  - id: lucky_coin
    title: Lucky Coin
    tags: [charm]
    text: "Score a point & keep <your> nerve."
    when: own_turn
    effect: add_counter("luck", 1)
  - id: time_bomb
    title: Time Bomb
    tags: [ticking]
    text: Drawn, it puts you out.
    when: never
    nopeable: false
    on_draw: eliminate(me)
add_cards:
  lucky_coin: 2
  time_bomb: 1
counters:
  luck:
    text: Lucky Coins played.
"""


def texts(svg: str) -> list[str]:
    return [node.text for node in ET.fromstring(svg).iter(SVG + "text")]


@pytest.mark.parametrize("name", EDITIONS)
def test_every_shipped_card_has_a_face_that_is_valid_svg(name):
    edition = load_edition(name)
    for card in edition.cards.values():
        svg = F.card_svg(edition, card)
        root = ET.fromstring(svg)  # valid XML, or this raises
        assert root.tag == SVG + "svg" and root.get("viewBox") == f"0 0 {F.WIDTH} {F.HEIGHT}"
        assert root.get("data-kind") == F.kind_of(edition, card)
        words = " ".join(texts(svg)).replace("- ", "-")  # a title may break after a hyphen
        assert " ".join(card.title.split()) in words, card.id
        # the printed text is on the face (its first words at least: a long one ends in "...")
        assert " ".join(card.text.split()[:3]) in words, card.id


def test_the_originals_kinds_are_read_from_their_data_and_look_apart():
    edition = load_edition("original")
    kinds = {card_id: F.kind_of(edition, card) for card_id, card in edition.cards.items()}
    assert kinds["exploding_kitten"] == "danger"  # its draw can put you out
    assert kinds["defuse"] == "saver"  # the danger's effect asks for it
    assert kinds["nope"] == "answer"  # played in answer, cancels
    assert kinds["attack"] == "turns" and kinds["see_the_future"] == "look" and kinds["skip"] == "end"
    assert kinds["tacocat"] == kinds["beard_cat"] == "combo"  # no effect, goes into combos
    looks = {kind: F.look(edition, edition.cards[card_id]) for card_id, kind in kinds.items()}
    bands = {kind: look.band for kind, look in looks.items()}
    assert len(set(bands.values())) == len(bands), bands  # distinct kinds, distinct bands
    assert len({look.symbol for look in looks.values()}) == len(looks)


def test_every_kind_and_every_house_colour_is_its_own():
    colours = [band for band, _symbol, _label in F.KINDS.values()] + list(F._HOUSE)
    assert len(set(colours)) == len(colours)
    symbols = [symbol for _band, symbol, _label in F.KINDS.values()]
    assert len(set(symbols)) == len(symbols) and set(symbols) <= set(F._SYMBOLS)


def test_a_house_rules_new_cards_get_faces(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    edition = load_edition(str(path))
    coin, bomb = edition.cards["lucky_coin"], edition.cards["time_bomb"]
    # a card of a kind no rule file had: its own colour, its initial as its symbol
    assert F.look(edition, coin).symbol == "letter"
    assert F.look(edition, coin).band in F._HOUSE
    svg = F.card_svg(edition, coin)
    assert "Lucky Coin" in texts(svg) and "L" in texts(svg)
    assert "&amp;" in svg and "&lt;your&gt;" in svg  # the text is escaped, the XML valid
    # a new card that puts its drawer out looks like the Exploding Kitten: read from its effect
    assert F.look(edition, bomb) == F.look(edition, edition.cards["exploding_kitten"])


def test_lines_fit_the_card_and_a_text_too_long_ends_in_an_ellipsis():
    edition = load_edition("original")
    inner = F.WIDTH - 2 * F.FRAME - 40
    for card in edition.cards.values():
        size, lines = F.fit(card.text, inner, 400, 38, 18)
        assert all(F.text_width(line, size) <= inner for line in lines), card.id
        assert F._whole(card.text, lines)  # nothing lost or cut on a shipped card
    size, lines = F.fit("word " * 500, inner, 300, 38, 18)
    assert size == 18 and lines[-1].endswith("\u2026") and len(lines) * size * 1.2 <= 300
    # a word wider than the card is cut, not run out of it
    assert all(F.text_width(line, 30) <= 200 for line in F.wrap("W" * 40, 200, 30))
