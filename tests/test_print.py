"""`kittens print`: print-and-play PDFs, read back with pypdf and looked at as PNGs."""

from __future__ import annotations

import json
import sys
from collections import Counter

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app

pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")

runner = CliRunner()
SNEAK_PEEK = str(ROOT / "examples" / "house-rules" / "sneak_peek.yaml")
ARTIFACTS = ROOT / "tests" / "artifacts"  # git-ignored: the PNGs a person can look at
MM = 72 / 25.4  # PDF points in a millimetre
X0, Y0, CARD_W, CARD_H = 10.5, 16.5, 63.0, 88.0  # the card grid on A4

HOUSE = """\
format: 1
kind: edition
id: hostile
name: Hostile
extends: original
define_cards:
  - id: odd_card
    title: {title}
    tags: [action]
    text: {text}
    when: own_turn
    effect: end_turn()
add_cards:
  odd_card: {copies}
"""


def house(tmp_path, title="Odd Card", text="Ends your turn.", copies=2, name="house.yaml") -> str:
    path = tmp_path / name
    path.write_text(HOUSE.format(title=json.dumps(title, ensure_ascii=False),
                                 text=json.dumps(text, ensure_ascii=False), copies=copies),
                    encoding="utf-8")
    return str(path)


def run(*argv):
    return runner.invoke(app, list(argv))


def front_titles(reader, titles) -> Counter:
    """How many card fronts show each title: a title is a line of its own on a card."""
    found = Counter()
    for page in reader.pages:
        lines = page.extract_text().splitlines()
        if lines and lines[0].startswith("card fronts"):
            found.update(line for line in lines if line in titles)
    return found


def png(pdf_path, index: int, name: str, scale: float = 4.0):
    """Render one page as a PNG kept under tests/artifacts/; returns the image."""
    image = pdfium.PdfDocument(str(pdf_path))[index].render(scale=scale).to_pil().convert("RGB")
    ARTIFACTS.mkdir(exist_ok=True)
    image.save(ARTIFACTS / name)
    return image


def pixel(image, x_mm: float, y_mm: float, scale: float = 4.0) -> tuple:
    return image.getpixel((round(x_mm * MM * scale), round(y_mm * MM * scale)))


def dark(rgb) -> bool:
    return sum(rgb) < 3 * 160


def white(rgb) -> bool:
    return min(rgb) > 245


# -- a house rule's cards ------------------------------------------------------------
def test_a_house_rule_prints_its_new_cards_with_rules_in_front(tmp_path):
    out = tmp_path / "out.pdf"
    result = run("print", SNEAK_PEEK, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "4 cards on 4 pages" in result.output
    reader = pypdf.PdfReader(out)
    # two rules pages (the second left blank, so fronts fall on a front side), fronts, backs
    assert len(reader.pages) == 4
    rules = reader.pages[0].extract_text()
    for words in ("What these rules change", "A new card: Sneak Peek.", "Setup for 4 players",
                  "The printed cards' rulings", "never drawn and a kitten on top"):
        assert words in " ".join(rules.split()), words
    assert front_titles(reader, {"Sneak Peek"}) == {"Sneak Peek": 4}
    fronts = " ".join(reader.pages[2].extract_text().split())
    assert "Look at the top card of the draw pile" in fronts and "ACTION" in fronts
    assert "Played on your own turn." in fronts  # the rulesheet's wording of `when`
    backs = " ".join(reader.pages[3].extract_text().split())
    assert backs.count("Exploding Kittens (Original Edition)") == 4  # the deck they join
    box = reader.pages[2].mediabox
    assert (round(box.width), round(box.height)) == (595, 842)  # A4


def test_fonts_are_embedded(tmp_path):
    out = tmp_path / "out.pdf"
    assert run("print", SNEAK_PEEK, "-o", str(out)).exit_code == 0
    fonts = pypdf.PdfReader(out).pages[2]["/Resources"]["/Font"]
    for ref in fonts.values():
        font = ref.get_object()
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, font["/BaseFont"]


def test_backs_are_mirrored_for_long_edge_duplex(tmp_path):
    """Four cards fill row 1 and the first place of row 2; on the back page that card's
    back is in the third column, so it lands behind its front when the sheet is flipped."""
    out = tmp_path / "out.pdf"
    assert run("print", SNEAK_PEEK, "-o", str(out)).exit_code == 0
    front = png(out, 2, "print-sneak-peek-fronts.png")
    back = png(out, 3, "print-sneak-peek-backs.png")
    frame_x = lambda col: X0 + col * CARD_W + 1.5  # noqa: E731 - in the card's coloured frame
    row2 = Y0 + CARD_H + CARD_H / 2
    assert not white(pixel(front, frame_x(0), row2)) and white(pixel(front, frame_x(2), row2))
    assert white(pixel(back, frame_x(0), row2)) and not white(pixel(back, frame_x(2), row2))
    for col in range(3):  # the first row is full on both sides
        assert not white(pixel(back, frame_x(col), Y0 + CARD_H / 2))


def test_bleed_and_crop_marks_are_where_the_cuts_are(tmp_path):
    out = tmp_path / "out.pdf"
    assert run("print", SNEAK_PEEK, "-o", str(out)).exit_code == 0
    front = png(out, 2, "print-sneak-peek-fronts.png")
    middle = Y0 + CARD_H / 2
    assert not white(pixel(front, X0 - 1.5, middle))  # the frame runs into the 3 mm bleed
    assert white(pixel(front, X0 - 4.5, middle))  # and stops there
    assert white(pixel(front, X0 + CARD_W / 2, Y0 - 8))  # no mark off a cut line
    for x in (X0, X0 + CARD_W, X0 + 2 * CARD_W, X0 + 3 * CARD_W):  # marks above every cut
        assert dark(pixel(front, x, Y0 - 3 - 3)), x
    assert dark(pixel(front, X0 - 3 - 3, Y0)) and dark(pixel(front, X0 - 3 - 3, Y0 + CARD_H))


# -- a whole edition -------------------------------------------------------------------
def test_every_card_of_an_edition_with_all(tmp_path):
    from kittens.interpreter.rules.load import load_edition

    out = tmp_path / "o.pdf"
    result = run("print", "original", "--all", "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"written": str(out), "pages": 16, "cards": 56, "short": []}
    edition = load_edition("original")
    wanted = Counter({edition.cards[c].title: n for c, n in edition.deck_for(4).items()})
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 2 + 2 * 7  # rules, then 7 sheets of 9 and their backs
    assert front_titles(reader, set(wanted)) == wanted
    png(out, 2, "print-original-fronts.png")


def test_one_each_player_counts_and_letter_paper(tmp_path):
    from kittens.interpreter.rules.load import load_edition

    out = tmp_path / "proof.pdf"
    assert run("print", "original", "--all", "--one-each", "--paper", "letter", "-o", str(out)).exit_code == 0
    reader = pypdf.PdfReader(out)
    titles = {card.title for card in load_edition("original").cards.values()}
    assert set(front_titles(reader, titles).values()) == {1} and len(reader.pages) == 2 + 2 * 2
    box = reader.pages[2].mediabox
    assert (round(box.width), round(box.height)) == (612, 792)  # US Letter
    party = load_edition("party")
    for players in (2, 10):
        out = tmp_path / f"party{players}.pdf"
        result = run("print", "party", "--all", "-p", str(players), "-o", str(out), "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["cards"] == sum(party.deck_for(players).values())
    assert run("print", "party", "-p", "11", "-o", str(out)).exit_code == 2


def test_accents_and_emoji_in_titles_render(tmp_path):
    rules = house(tmp_path, title="Große Kätzchen 🐱", text="Café, naïve, ★ and a cat 🐈.")
    out = tmp_path / "u.pdf"
    result = run("print", rules, "-o", str(out))
    assert result.exit_code == 0, result.output
    fronts = " ".join(pypdf.PdfReader(out).pages[2].extract_text().split())
    assert "Große Kätzchen 🐱" in fronts and "Café, naïve, ★ and a cat 🐈." in fronts
    image = png(out, 2, "print-unicode-fronts.png")
    assert not white(pixel(image, X0 + CARD_W / 2, Y0 + 8))  # the title is drawn, not blank


def test_a_character_no_font_has_is_reported_by_card_and_line(tmp_path):
    rules = house(tmp_path, title="猫 Card")
    result = run("print", rules, "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 1
    assert "house.yaml:7" in result.output and "'猫 Card'" in result.output and "U+732B" in result.output
    assert not (tmp_path / "x.pdf").exists()


# -- hostile rule files ------------------------------------------------------------------
def test_a_text_too_long_for_a_card_is_an_error_naming_it(tmp_path):
    rules = house(tmp_path, text="word " * 1000)
    target = tmp_path / "kept.pdf"
    target.write_bytes(b"an older PDF")
    result = run("print", rules, "-o", str(target))
    assert result.exit_code == 1
    assert "house.yaml:7" in result.output and "'Odd Card' does not fit" in result.output
    assert "Traceback" not in result.output
    assert target.read_bytes() == b"an older PDF"  # nothing half-written
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".kittens-")] == []


def test_ten_thousand_copies_are_refused_and_a_thousand_are_capped(tmp_path):
    result = run("print", house(tmp_path, copies=10_000), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 1 and "house.yaml:14" in result.output and "too large" in result.output
    out = tmp_path / "capped.pdf"
    result = run("print", house(tmp_path, copies=1000, name="many.yaml"), "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    doc = json.loads("\n".join(line for line in lines if not line.startswith("kittens print:")))
    assert doc["short"] == [{"card": "odd_card", "printed": 360, "wanted": 1000}]
    assert "360 of 1000 copies of 'odd_card' printed" in result.output  # said on stderr too
    assert len(pypdf.PdfReader(out).pages) == doc["pages"] == 2 + 2 * 40


def test_the_cap_cuts_the_largest_counts_first():
    from kittens.authoring.printing import Entry, capped

    entries = [Entry("a", 1000, 1000), Entry("b", 3, 3), Entry("c", 500, 500)]
    kept, short = capped(entries, sheets=2)
    assert {e.card_id: e.copies for e in kept} == {"a": 8, "b": 3, "c": 7}
    assert [(e.card_id, e.copies, e.wanted) for e in short] == [("a", 8, 1000), ("c", 7, 500)]
    assert capped(entries[1:2], sheets=2) == ([entries[1]], [])


# -- the command line's manners ---------------------------------------------------------------
def test_a_folder_as_output_is_refused(tmp_path):
    result = run("print", SNEAK_PEEK, "-o", str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in result.output


def test_an_edition_that_changes_nothing_needs_all(tmp_path):
    plain = tmp_path / "same.yaml"
    plain.write_text("format: 1\nkind: edition\nid: same\nname: Same\nextends: original\n")
    result = run("print", str(plain), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2 and "--all" in result.output
    assert run("print", str(plain), "--all", "-o", str(tmp_path / "x.pdf")).exit_code == 0


def test_without_the_print_extra_it_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "fpdf", None)  # `import fpdf` now fails
    monkeypatch.delitem(sys.modules, "kittens.authoring.printing", raising=False)
    result = run("print", SNEAK_PEEK, "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert "pip install 'kittens-engine[print]'" in result.output and "Traceback" not in result.output
    assert result.output.count("kittens print") == 1, result.output  # issue 41: it said it twice
    assert not (tmp_path / "x.pdf").exists()


def test_kittens_docs_print_shows_the_guide():
    result = run("docs", "print")
    assert result.exit_code == 0 and "kittens print" in result.output and "--one-each" in result.output


def test_fronts_are_the_faces_of_the_web_table(tmp_path):
    """The frame and band of each printed front are the colours card_face gives the card,
    so the kinds (the Exploding Kitten, Defuse, Nope, cat cards...) look apart on paper as
    on screen, and a house rule's new card gets a face of its own."""
    from kittens.authoring.printing import choose_cards
    from kittens.interpreter.rules.load import load_edition
    from kittens.interpreter.words.card_face import look

    out = tmp_path / "proof.pdf"
    assert run("print", "original", "--all", "--one-each", "-o", str(out)).exit_code == 0
    edition = load_edition("original")
    order = [e.card_id for e in choose_cards(edition, 4, every=True, one_each=True)]
    image = png(out, 2, "print-original-faces.png")
    rgb = lambda hex_: tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))  # noqa: E731
    seen = {}
    for place, card_id in enumerate(order[:9]):
        row, col = divmod(place, 3)
        x, y = X0 + col * CARD_W, Y0 + row * CARD_H
        face = look(edition, edition.cards[card_id])
        frame, band = pixel(image, x + 1.5, y + CARD_H / 2), pixel(image, x + 8, y + 6)
        assert all(abs(a - b) <= 3 for a, b in zip(frame, rgb(face.frame))), (card_id, frame, face)
        assert all(abs(a - b) <= 3 for a, b in zip(band, rgb(face.band))), (card_id, band, face)
        seen.setdefault(face.kind, set()).add(band)
    assert len(seen) >= 6 and len({min(b) for b in seen.values()}) == len(seen)
    rules = house(tmp_path, title="Odd Card", text="Ends your turn.")
    out = tmp_path / "house.pdf"
    assert run("print", rules, "-o", str(out)).exit_code == 0
    image = png(out, 2, "print-house-card-face.png")
    assert not white(pixel(image, X0 + 8, Y0 + 6))  # the band is drawn on the house rule's card
