"""Issue 41: a card a house rule makes unanswerable (`patch_cards: {skip: {nopeable:
false}}`) read as an ordinary card: its printed text, its rulesheet entry, `show` and the
terminal's `?` gave the box's text, and the Nope's text still promised to cancel it. Now
the card says no Nope can cancel it and the Nope names it as an exception, wherever
players read them."""

from __future__ import annotations

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.words.answers import printed_text

runner = CliRunner()
SKIP_SAYS = "End your turn without drawing a card. Under attack, it ends only one of the turns you owe. " \
            "No Nope can cancel it."
NOPE_ADDS = "In these rules it cannot cancel Skip."
NOPE_PARTY = """format: 1
kind: edition
id: nope_party
name: Nope Party
extends: original
set_counts: {nope: 8}
patch_cards: {skip: {nopeable: false}}
"""


@pytest.fixture
def party(write):
    return write("nope_party.yaml", NOPE_PARTY)


def test_the_texts_players_read_say_who_cannot_cancel_what(party):
    edition = load_edition(party)
    assert printed_text(edition, edition.cards["skip"]) == SKIP_SAYS
    assert printed_text(edition, edition.cards["nope"]).endswith(" and so on. " + NOPE_ADDS)
    assert printed_text(edition, edition.cards["attack"]) == " ".join(edition.cards["attack"].text.split())


def test_no_shipped_edition_reads_differently():
    """Every shipped card's text already says what it must (Defuse and the kittens are
    never played on their own, and the Nope's text names them)."""
    for path in sorted((ROOT / "editions").glob("*.yaml")):
        edition = load_edition(str(path))
        for record in [*edition.cards.values(), *edition.combos]:
            assert printed_text(edition, record) == " ".join(record.text.split()), (path.name, record.id)


def test_a_text_that_already_says_so_gets_no_second_sentence(write):
    path = write("said.yaml", NOPE_PARTY.replace(
        "patch_cards: {skip: {nopeable: false}}",
        "patch_cards: {skip: {nopeable: false, text: 'End your turn without drawing. Nobody can Nope a Skip.'}}"))
    edition = load_edition(path)
    assert printed_text(edition, edition.cards["skip"]) == "End your turn without drawing. Nobody can Nope a Skip."
    assert printed_text(edition, edition.cards["nope"]).endswith(NOPE_ADDS)


def test_the_rulesheet_and_show_give_what_players_read(party):
    sheet = runner.invoke(app, ["rules", party, "-p", "4"])
    assert sheet.exit_code == 0, sheet.output
    assert f"> {SKIP_SAYS}" in sheet.output and NOPE_ADDS in sheet.output
    shown = runner.invoke(app, ["show", party])
    assert shown.exit_code == 0, shown.output
    assert "    # players read after its text: No Nope can cancel it." in shown.output
    assert f"    # players read after its text: {NOPE_ADDS}" in shown.output


def test_the_terminal_and_the_web_table_give_what_players_read(party):
    from kittens.adapters.terminal import HumanTable, Terminal
    from kittens.interpreter.engine.game import Game
    from kittens.web.words import Words

    edition = load_edition(party)
    table = HumanTable(Game(edition, 2).new_state(0), [0], {1: None}, Terminal(write=lambda line: None))
    assert table.card_text("skip") == f"Skip: {SKIP_SAYS}"
    assert Words(edition, ["person", "random"]).text("nope").endswith(NOPE_ADDS)


def test_the_printed_cards_say_it_and_the_nopes_are_printed_again(party, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("fpdf")
    out = tmp_path / "party.pdf"
    result = runner.invoke(app, ["print", party, "-p", "4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    fronts = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(out).pages[1:])
    assert fronts.count(SKIP_SAYS) == 4  # every Skip: the box's ones read otherwise
    assert fronts.count(NOPE_ADDS) >= 8  # every Nope, not only the three added
