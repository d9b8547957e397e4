"""Print and play: `kittens print` lays cards out as a PDF for a home printer.

Cards are poker size (63 x 88 mm), nine to a sheet, butted together so one cut
separates two cards; the coloured frame runs 3 mm past the outer cuts (the
bleed) and crop marks stand in the margin on every cut line. Each sheet of
fronts is followed by its backs, mirrored left to right, so a printer that
prints double-sided and flips on the long edge puts every back behind its
front. One or two pages of rules come first: what the rules change, the setup
for the player count, and the printed cards' rulings, in the rulesheet's words
(:mod:`rulesheet`, :mod:`howto`).

Drawn with fpdf2 (pure Python, embeds and subsets TrueType fonts) in the fonts
shipped in ``fonts/`` (see its LICENSE.txt), so nothing depends on the fonts a
machine happens to have.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fpdf import FPDF

from ..interpreter.lang.loader import load_file
from ..interpreter.rules.model import Edition
from ..interpreter.words.answers import printed_text
from ..interpreter.words.card_face import BAND, card_svg, look
from ..interpreter.words.card_face import FRAME as FACE_FRAME
from ..interpreter.words.card_face import footer as face_footer
from ..interpreter.words.describe import words
from ..interpreter.words.howto import change_sentences
from ..interpreter.words.rulesheet import SetupRun, _card_ids_for, _Context  # the rulesheet's wording, reused

FONT_DIR = Path(__file__).resolve().parent / "fonts"
CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0
COLS = ROWS = 3
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: the most sheets of card fronts one PDF holds; a deck past that is printed in part
MAX_SHEETS = 40
FRAME = FACE_FRAME / 10  # the coloured border: the cut may wander this far before it reaches text
BAND_MM = BAND / 10  # the band with the card's symbol, under the top of the frame (card_face)
TEXT_PT, MIN_TEXT_PT = 10.5, 5.0
_PT = 25.4 / 72  # millimetres in a point
#: characters that only steer how emoji join or show; the fonts draw without them
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200d\u200b"))


class PrintError(Exception):
    """Something that cannot be printed: the message names the card and its file and line."""


@dataclass(frozen=True)
class Entry:
    """One card to print: ``copies`` printed of the ``wanted`` the deck needs."""

    card_id: str
    copies: int
    wanted: int


@dataclass(frozen=True)
class Printout:
    """The finished PDF and what went into it."""

    pdf: bytes
    pages: int
    cards: int  # card fronts printed
    entries: tuple  # of Entry
    short: tuple  # of Entry printed with fewer copies than wanted (the sheet cap)


# -- which cards, how many --------------------------------------------------------
def choose_cards(edition: Edition, players: int, base: Edition | None = None, changes=(),
                 every: bool = False, one_each: bool = False) -> list[Entry]:
    """The cards to print for ``players``: every card with ``every`` (or when there is no
    ``base``), else those ``changes`` add or change, and extra copies of cards whose
    count went up. ``one_each``: a proof sheet, one of each."""
    deck = edition.deck_for(players)
    before = base.deck_for(players) if base is not None else {}
    changed = {c.path.split(".")[1] for c in changes if c.path.startswith("cards.")}
    if base is not None:  # a card that reads differently here (a Nope that cannot cancel a Skip)
        changed |= {card_id for card_id, card in edition.cards.items() if card_id in base.cards
                    and printed_text(edition, card) != printed_text(base, base.cards[card_id])}
    entries = []
    for card_id in _card_ids_for(edition, players):
        have = deck.get(card_id, 0)
        if every or base is None or card_id in changed:
            wanted = have
        elif have > before.get(card_id, 0):
            wanted = have - before.get(card_id, 0)  # the old copies are still right
        else:
            continue
        wanted = 1 if one_each else wanted
        if wanted:
            entries.append(Entry(card_id, wanted, wanted))
    return entries


def capped(entries: list[Entry], sheets: int = MAX_SHEETS) -> tuple[list[Entry], list[Entry]]:
    """At most ``sheets`` sheets of cards. The largest counts are cut first (every card
    gets at most ``limit`` copies, the largest limit that fits, and the room left goes to
    the cards in order), so a card is left out only when there are more kinds of card
    than places. Returns (the entries printed, those printed short of what they wanted)."""
    room = sheets * COLS * ROWS
    if sum(e.copies for e in entries) <= room:
        return list(entries), []
    limit = max((n for n in range(room + 1) if sum(min(e.copies, n) for e in entries) <= room),
                default=0)
    copies = [min(e.copies, limit) for e in entries]
    spare = room - sum(copies)
    for i, entry in enumerate(entries):
        if spare and copies[i] < entry.copies:
            copies[i], spare = copies[i] + 1, spare - 1
    kept = [Entry(e.card_id, n, e.wanted) for e, n in zip(entries, copies) if n]
    short = [Entry(e.card_id, n, e.wanted) for e, n in zip(entries, copies) if n < e.copies]
    return kept, short


# -- fonts and text ------------------------------------------------------------------
@lru_cache(maxsize=1)
def _covered() -> frozenset:
    """Every character the shipped fonts can draw."""
    from fontTools.ttLib import TTFont

    found = set()
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "Symbola-emoji.ttf"):
        found |= set(TTFont(FONT_DIR / name)["cmap"].getBestCmap())
    return frozenset(found)


def _clean(text: str) -> str:
    return " ".join((text or "").translate(_INVISIBLE).split())


def _check_glyphs(text: str, what: str, card) -> None:
    missing = sorted({ch for ch in text if ord(ch) not in _covered()})
    if missing:
        shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing[:5])
        raise PrintError(f"{card.origin}: {what} of card '{card.title}' uses characters the "
                         f"print fonts cannot draw: {shown}")


def _new_pdf(paper: str) -> FPDF:
    pdf = FPDF(unit="mm", format=PAPERS[paper])
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.add_font("dejavu", "", FONT_DIR / "DejaVuSans.ttf")
    pdf.add_font("dejavu", "B", FONT_DIR / "DejaVuSans-Bold.ttf")
    pdf.add_font("symbola", "", FONT_DIR / "Symbola-emoji.ttf")
    pdf.set_fallback_fonts(["symbola"], exact_match=False)  # emoji, bold text or not
    return pdf


def _lines(pdf: FPDF, text: str, width: float, size: float, style: str = "") -> list[str]:
    pdf.set_font("dejavu", style, size)
    return pdf.multi_cell(width, size * _PT * 1.2, text, dry_run=True, output="LINES")


def _fit(pdf: FPDF, text: str, width: float, height: float, sizes, style: str = "",
         most_lines: int = 999) -> tuple[float, list[str]] | None:
    """The largest size of ``sizes`` at which ``text`` fits the box, and its lines."""
    for size in sizes:
        lines = _lines(pdf, text, width, size, style)
        if len(lines) <= most_lines and len(lines) * size * _PT * 1.2 <= height:
            return size, lines
    return None


def _steps(top: float, bottom: float, step: float = 0.5):
    size = top
    while size >= bottom - 1e-9:
        yield size
        size -= step


# -- one card --------------------------------------------------------------------------
def _colour(edition: Edition, card) -> tuple:
    """The colour of the card's frame: the face's (card_face.look)."""
    band = look(edition, card).frame
    return tuple(int(band[i:i + 2], 16) for i in (1, 3, 5))


@dataclass(frozen=True)
class _Face:
    """A card's words, laid out to fit inside its frame (checked before anything is drawn),
    and its art: the SVG of card_face without its words, which the PDF sets itself."""

    title: tuple  # (size, lines)
    body: tuple
    footer: tuple
    art: bytes  # the SVG
    colour: tuple


def layout_card(pdf: FPDF, edition: Edition, card, text: str | None = None) -> _Face:
    """Fit a card's title, text (``text``: as players read it, by default the card's own)
    and footer inside its frame, or raise :class:`PrintError`."""
    width = CARD_W - 2 * FRAME - 4
    title, text = _clean(card.title), _clean(card.text if text is None else text)
    _check_glyphs(title, "the title", card)
    _check_glyphs(text, "the text", card)
    fitted_title = _fit(pdf, title, width, 12, _steps(11, 7), "B", most_lines=2)
    if fitted_title is None:
        raise PrintError(f"{card.origin}: the title of card '{card.title}' does not fit on a "
                         "card in two lines, even in 7 pt type: shorten it")
    footer = "\n".join(face_footer(edition, card))  # the same words as on screen
    fitted_footer = _fit(pdf, footer, width, 12, [5.0], most_lines=4) or (5.0, [footer[:60]])
    room = CARD_H - 2 * FRAME - BAND_MM - 6 - _height(fitted_title) - 3 - _height(fitted_footer) - 2
    fitted_body = _fit(pdf, text, width, room, _steps(TEXT_PT, MIN_TEXT_PT, 0.25))
    if fitted_body is None:
        raise PrintError(f"{card.origin}: the text of card '{card.title}' does not fit on a card, "
                         f"even in {MIN_TEXT_PT:g} pt type ({len(text)} characters): shorten it")
    art = card_svg(edition, card, frame=False, words=False).encode()
    return _Face(fitted_title, fitted_body, fitted_footer, art, _colour(edition, card))


def _height(fitted: tuple) -> float:
    size, lines = fitted
    return len(lines) * size * _PT * 1.2


def _write(pdf: FPDF, x: float, y: float, width: float, fitted: tuple, style: str = "",
           align: str = "L") -> float:
    size, lines = fitted
    pdf.set_font("dejavu", style, size)
    step = size * _PT * 1.2
    for line in lines:
        pdf.set_xy(x, y)
        pdf.cell(width, step, line, align=align)
        y += step
    return y


def _frame(pdf: FPDF, x: float, y: float, colour: tuple, bleed: tuple) -> None:
    """The coloured card, reaching ``bleed`` (left, top, right, bottom) past its edges."""
    left, top, right, bottom = bleed
    pdf.set_fill_color(*colour)
    pdf.rect(x - left, y - top, CARD_W + left + right, CARD_H + top + bottom, style="F")


def draw_front(pdf: FPDF, x: float, y: float, card, face: _Face, bleed: tuple) -> None:
    """A card's face at (x, y): frame, then the face's art (white panel, band, symbol),
    then title, rule, text and footer."""
    _frame(pdf, x, y, face.colour, bleed)
    pdf.image(io.BytesIO(face.art), x=x, y=y, w=CARD_W, h=CARD_H)
    inner_x, width = x + FRAME + 2, CARD_W - 2 * FRAME - 4
    pdf.set_text_color(20, 20, 20)
    bottom = _write(pdf, inner_x, y + FRAME + BAND_MM + 2, width, face.title, "B", "C")
    pdf.set_draw_color(*face.colour)
    pdf.set_line_width(0.4)
    pdf.line(inner_x + 4, bottom + 1.2, inner_x + width - 4, bottom + 1.2)
    _write(pdf, inner_x, bottom + 3, width, face.body)
    pdf.set_text_color(90, 90, 90)
    _write(pdf, inner_x, y + CARD_H - FRAME - 2 - _height(face.footer), width, face.footer, "", "C")


def draw_back(pdf: FPDF, x: float, y: float, name: str, card, bleed: tuple, colour: tuple) -> None:
    """A card's back: the same for every card, unless its back is meant to stand out
    (then in its face's ``colour``)."""
    special = card.back_distinct
    _frame(pdf, x, y, colour if special else (44, 44, 58), bleed)
    pdf.set_draw_color(235, 235, 235)
    pdf.set_line_width(0.6)
    pdf.rect(x + FRAME, y + FRAME, CARD_W - 2 * FRAME, CARD_H - 2 * FRAME, style="D",
             round_corners=True, corner_radius=2.5)
    width = CARD_W - 2 * FRAME - 6
    words_on_back = _clean(card.title if special else name)
    fitted = _fit(pdf, words_on_back, width, 40, _steps(14, 6), "B", most_lines=4) or \
        (6.0, _lines(pdf, words_on_back, width, 6.0, "B")[:4])
    pdf.set_text_color(255, 255, 255)
    top = y + CARD_H / 2 - _height(fitted) / 2
    _write(pdf, x + FRAME + 3, top, width, fitted, "B", "C")


# -- sheets -----------------------------------------------------------------------------
def _origin_xy(paper: str) -> tuple[float, float]:
    page_w, page_h = PAPERS[paper]
    return (page_w - COLS * CARD_W) / 2, (page_h - ROWS * CARD_H) / 2


def _bleeds(cells: set, row: int, col: int) -> tuple:
    """Bleed on each side of a card whose neighbour there is not printed."""
    return tuple(0.0 if n in cells else BLEED
                 for n in ((row, col - 1), (row - 1, col), (row, col + 1), (row + 1, col)))


def _cut_marks(pdf: FPDF, paper: str, cells: set) -> None:
    """Hairlines on every card edge, and crop marks in the margin on every cut line."""
    x0, y0 = _origin_xy(paper)
    page_w, page_h = PAPERS[paper]
    pdf.set_draw_color(120, 120, 120)
    pdf.set_line_width(0.1)
    for row, col in cells:
        pdf.rect(x0 + col * CARD_W, y0 + row * CARD_H, CARD_W, CARD_H, style="D")
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.2)
    cols = {c for _r, c in cells} | {c + 1 for _r, c in cells}
    rows = {r for r, _c in cells} | {r + 1 for r, _c in cells}
    top, bottom = y0 - BLEED - 1, y0 + ROWS * CARD_H + BLEED + 1
    left, right = x0 - BLEED - 1, x0 + COLS * CARD_W + BLEED + 1
    for col in cols:
        x = x0 + col * CARD_W
        pdf.line(x, top, x, max(top - 6, 0.5))
        pdf.line(x, bottom, x, min(bottom + 6, page_h - 0.5))
    for row in rows:
        y = y0 + row * CARD_H
        pdf.line(left, y, max(left - 6, 0.5), y)
        pdf.line(right, y, min(right + 6, page_w - 0.5), y)


def _label(pdf: FPDF, paper: str, text: str) -> None:
    """A line in the top margin over the middle column, clear of the crop marks."""
    x0, y0 = _origin_xy(paper)
    size = 6.0
    while size > 4 and _lines(pdf, text, CARD_W - 6, size) != [text]:
        size -= 0.5
    pdf.set_font("dejavu", "", size)
    pdf.set_text_color(110, 110, 110)
    pdf.set_xy(x0 + CARD_W + 3, max(y0 - BLEED - 4.5, 0.5))
    pdf.cell(CARD_W - 6, 3, text, align="C")


def _sheets(pdf: FPDF, paper: str, name: str, cards: list, faces: dict) -> int:
    """Fronts then mirrored backs, sheet by sheet; returns the number of sheets."""
    x0, y0 = _origin_xy(paper)
    per = COLS * ROWS
    count = (len(cards) + per - 1) // per
    for sheet in range(count):
        chunk = cards[sheet * per:(sheet + 1) * per]
        spots = [(i // COLS, i % COLS) for i in range(len(chunk))]
        pdf.add_page()
        _label(pdf, paper, f"card fronts, sheet {sheet + 1} of {count}")
        for (row, col), card in zip(spots, chunk):
            draw_front(pdf, x0 + col * CARD_W, y0 + row * CARD_H, card, faces[card.id],
                       _bleeds(set(spots), row, col))
        _cut_marks(pdf, paper, set(spots))
        pdf.add_page()  # the back of a card in column 1 sits in column 3 (long-edge flip)
        backs = [(row, COLS - 1 - col) for row, col in spots]
        _label(pdf, paper, f"card backs, sheet {sheet + 1} of {count}: flip on the long edge")
        for (row, col), card in zip(backs, chunk):
            draw_back(pdf, x0 + col * CARD_W, y0 + row * CARD_H, name, card,
                      _bleeds(set(backs), row, col), faces[card.id].colour)
        _cut_marks(pdf, paper, set(backs))
    return count


# -- the rules in front ------------------------------------------------------------------
class _Flow:
    """Paragraphs down a page, at most two pages; past that a note says where the rest is."""

    MARGIN = 16.0

    def __init__(self, pdf: FPDF, paper: str, rest: str):
        self.pdf, self.rest, self.full = pdf, rest, False
        self.page_w, self.page_h = PAPERS[paper]
        self.pages = 1  # the first page is there already
        self.y = self.MARGIN

    def para(self, text: str, size: float = 9.5, style: str = "", indent: float = 0.0,
             bullet: str = "", gap: float = 1.6) -> None:
        if self.full:
            return
        width = self.page_w - 2 * self.MARGIN - indent
        lines = _lines(self.pdf, _clean(text), width, size, style)
        height = len(lines) * size * _PT * 1.25
        if self.y + height > self.page_h - self.MARGIN - (8 if self.pages == 2 else 0):
            if self.pages == 2:
                self.full = True
                self.pdf.set_text_color(90, 90, 90)
                self._put([f"(More than two pages: the rest is in {self.rest}.)"], 8.5, "", 0, "")
                return
            self.pdf.add_page()
            self.pages, self.y = 2, self.MARGIN
        self.pdf.set_text_color(20, 20, 20)
        self._put(lines, size, style, indent, bullet)
        self.y += gap

    def _put(self, lines, size, style, indent, bullet) -> None:
        self.pdf.set_font("dejavu", style, size)
        step = size * _PT * 1.25
        if bullet:
            self.pdf.set_xy(self.MARGIN + indent - 4, self.y)
            self.pdf.cell(4, step, bullet)
        for line in lines:
            self.pdf.set_xy(self.MARGIN + indent, self.y)
            self.pdf.cell(0, step, line)
            self.y += step


def _ruling(card) -> str | None:
    """The `ruling:` a card's file gives it (the compiled card leaves it out)."""
    doc, _problems = load_file(card.origin.path)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    for key in ("cards", "define_cards"):
        for item in data.get(key) or ():
            if isinstance(item, dict) and item.get("id") == card.id and isinstance(item.get("ruling"), str):
                return item["ruling"]
    return None


def _rules_pages(pdf: FPDF, paper: str, edition: Edition, players: int, entries, base, changes,
                 sheets: int, source: str) -> int:
    flow = _Flow(pdf, paper, f"`kittens rules {source}`")
    flow.para(edition.name + (f" ({words(edition.variant)} variant)" if edition.variant else ""),
              16, "B", gap=1)
    total = sum(e.copies for e in entries)
    flow.para(f"Print and play for {players} players: {total} card{'s' if total != 1 else ''} on "
              f"{sheets} sheet{'s' if sheets != 1 else ''}, each followed by its backs. Print at "
              "actual size (100 %), double-sided, flipping on the long edge; cut on the crop marks.",
              9, gap=4)
    if base is not None:
        flow.para("What these rules change", 12, "B")
        flow.para(f"Played as {base.name}, except:")
        for line in change_sentences(changes, base, edition) or ["Nothing in the rules differs."]:
            flow.para(line, indent=5, bullet="•", gap=0.8)
        flow.y += 3
    run = SetupRun(edition, players)
    flow.para(f"Setup for {players} players", 12, "B")
    for number, line in enumerate(run.lines, 1):
        flow.para(line, indent=6, bullet=f"{number}.", gap=0.8)
    flow.para(" ".join(run.summary()), gap=4)
    ctx = _Context(edition, players)
    flow.para("The printed cards' rulings", 12, "B")
    for entry in entries:
        card = edition.cards[entry.card_id]
        said = _ruling(card) or (ctx.program(card.effect, card) if card.effect is not None else None)
        if said:
            flow.para(f"{_clean(card.title)}: {said}", gap=1.2)
    return flow.pages


# -- the whole PDF --------------------------------------------------------------------------
def render_pdf(edition: Edition, players: int, entries: list[Entry], paper: str = "a4",
               base: Edition | None = None, changes=(), source: str = "RULES",
               sheets: int = MAX_SHEETS) -> Printout:
    """The PDF: rules (padded to an even page count, so fronts fall on odd pages) then the
    card sheets. Raises :class:`PrintError` for a card that cannot be printed, before
    anything is drawn. ``source`` is how the rules were named, for the note on where the
    rest of a long summary is."""
    if paper not in PAPERS:
        raise PrintError(f"unknown paper '{paper}': use one of {', '.join(PAPERS)}")
    kept, short = capped(entries, sheets)
    pdf = _new_pdf(paper)
    pdf.add_page()  # the rules' first page; measuring text needs a page
    faces = {e.card_id: layout_card(pdf, edition, edition.cards[e.card_id],
                                    printed_text(edition, edition.cards[e.card_id]))
             for e in kept}
    cards = [edition.cards[e.card_id] for e in kept for _ in range(e.copies)]
    pdf.set_title(f"{edition.name}: print and play")
    pdf.set_creator("kittens print")
    count = -(-len(cards) // (COLS * ROWS))
    pages = _rules_pages(pdf, paper, edition, players, kept, base, changes, count, source)
    if pages % 2:
        pdf.add_page()  # left blank: the card sheets start on a front side
    # the backs name the deck the cards join: a house rule's cards go into its base's box
    _sheets(pdf, paper, (base or edition).name, cards, faces)
    return Printout(bytes(pdf.output()), pdf.page, len(cards), tuple(kept), tuple(short))
