"""A card's face drawn from its data, as SVG: the one renderer the web table and
`kittens print` share, so a house rule's new card looks the same on screen and on paper.

A face is a coloured frame, a band across the top with a symbol, the title large and the
card's printed text (:func:`~kittens.interpreter.words.answers.printed_text`) below,
and a footer saying what sort of card it is. What sort is read from what the rules
already say of the card, never from its id: a card whose draw can put a player out is a
danger; a card a danger's effect asks for (by id or tag) saves you; a card played as a
reaction or that cancels answers; a card with no effect of its own that goes into combos
is a combo card; otherwise the primitives its effect calls (attack, show, shuffle, ...)
pick the symbol, and a card none of these fit (a house rule's invention) gets a colour of
its own from its tag and its title's first letter as its symbol. No official artwork.

Pure Python: the text is fitted with the advance widths of the DejaVu Sans fonts that
`kittens print` embeds (in hundredths of an em, for the printable ASCII characters;
others are measured as wide letters), so the lines break alike on screen and on paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from ..lang import primitives as P
from ..lang import syntax as s
from ..rules.model import Edition, calls_primitive
from .answers import cancels, printed_text
from .rulesheet import _WHEN  # the rulesheet's words for when a card is played

#: the face's size in SVG units: tenths of a millimetre of a poker-size card (63 x 88 mm)
WIDTH, HEIGHT = 630, 880
FRAME, BAND, SYMBOL = 35, 150, 110  # the coloured border, the band under it, its symbol
FONT = "DejaVu Sans, Verdana, sans-serif"

_REGULAR = [int(n) for n in (
    "32 40 46 84 64 95 78 27 39 39 50 84 32 36 32 34 64 64 64 64 64 64 64 64 64 64 34 34 84 84 84 53 "
    "100 68 69 70 77 63 58 77 75 29 29 66 56 86 75 79 60 79 69 63 61 73 68 99 69 61 69 39 34 39 84 50 "
    "50 61 63 55 63 62 35 63 63 28 28 58 28 97 63 61 63 63 41 52 39 63 59 82 59 59 52 64 34 64 84").split()]
_BOLD = [int(n) for n in (
    "35 46 52 84 70 100 87 31 46 46 52 84 38 42 38 37 70 70 70 70 70 70 70 70 70 70 40 40 84 84 84 58 "
    "100 77 76 73 83 68 68 82 84 37 37 77 64 100 84 85 73 85 77 72 68 81 77 110 77 72 73 46 37 46 84 50 "
    "50 67 72 59 72 68 44 72 71 34 34 67 34 104 71 69 72 72 49 60 48 71 65 92 65 65 58 71 37 71 84").split()]


@dataclass(frozen=True)
class Look:
    """What sort of card it is, as a face shows it."""

    kind: str  # danger saver answer combo turns look mix end take, or action | plain
    band: str  # the colour of the frame and band, "#rrggbb"
    symbol: str  # the symbol's name (a kind's), or "letter" for a house rule's own card
    label: str  # the kind in words, for the footer

    @property
    def frame(self) -> str:
        """The border's colour: the band's, darker, so the band stands out of it."""
        return "#" + "".join(f"{int(int(self.band[i:i + 2], 16) * 0.68):02x}" for i in (1, 3, 5))


#: kind -> (band colour, symbol, words); the fallback kinds take colours from _HOUSE
KINDS = {
    "danger": ("#9c1c22", "bomb", "danger"),
    "saver": ("#2e7d4f", "shield", "saves you"),
    "answer": ("#2c3e8f", "stop", "answer"),
    "combo": ("#6a3a8a", "paw", "combo card"),
    "turns": ("#c0561b", "bolt", "more turns"),
    "look": ("#12747a", "eye", "look"),
    "mix": ("#6b7a1e", "arrows", "mix up"),
    "end": ("#3e6fb0", "chevrons", "turn"),
    "take": ("#9a6a00", "hand", "take"),
}
#: colours of the cards no kind above fits, chosen by their first tag (or title)
_HOUSE = ("#8a5a14", "#a03c6e", "#4f5d6b", "#2f7f73", "#7a4fa0")
#: primitive an effect calls -> the kind it gives, the first that matches wins
_BY_PRIMITIVE = ((P.NAMES.attack, "turns"), (P.NAMES.extra_turns, "turns"), (P.NAMES.pass_over, "turns"),
                 (P.NAMES.show, "look"), (P.NAMES.rearrange, "look"), (P.NAMES.shuffle, "mix"), (P.NAMES.end_turn, "end"),
                 (P.NAMES.reverse, "end"), (P.NAMES.move, "take"))


def _saved_by(edition: Edition) -> frozenset:
    """The ids and tags a danger's effects name in quotes (what saves you from it)."""
    named = set()
    for card in edition.cards.values():
        if card.lethal:
            for part in (card.on_draw, card.effect, card.instead_of_draw):
                if part is not None:
                    named.update(n.value for n in s.walk(part) if isinstance(n, s.StrLit))
    return frozenset(named)


def kind_of(edition: Edition, card) -> str:
    """The kind of ``card`` in ``edition``, read from its data (see the module's words)."""
    if card.lethal:
        return "danger"
    if card.id in _saved_by(edition) or card.tags & _saved_by(edition):
        return "saver"
    if card.when == "reaction" or cancels(edition, card.id) is not False:
        return "answer"
    parts = [p for p in (card.effect, card.on_draw, card.instead_of_draw) if p is not None]
    if not parts:
        return "combo" if card.in_combos else "plain"
    for primitive, kind in _BY_PRIMITIVE:
        if any(calls_primitive(p, primitive) for p in parts):
            return kind
    return "action"


def look(edition: Edition, card) -> Look:
    """The colour, symbol and words of ``card``'s face."""
    kind = kind_of(edition, card)
    if kind in KINDS:
        band, symbol, label = KINDS[kind]
        return Look(kind, band, symbol, label)
    key = min(card.tags) if card.tags else card.title
    band = _HOUSE[sum(map(ord, key)) % len(_HOUSE)]
    return Look(kind, band, "letter", "card" if kind == "plain" else "action")


# -- text ---------------------------------------------------------------------------
def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` set in DejaVu Sans at ``size`` (in the same units)."""
    table = _BOLD if bold else _REGULAR
    return sum(table[ord(ch) - 32] if 32 <= ord(ch) < 127 else 90 for ch in text) * size / 100


def _pieces(text: str) -> list[tuple[str, str]]:
    """The places a line may break: each word, split after its hyphens, with what joins
    it to the next piece on the same line (a space, or nothing inside a word)."""
    out = []
    for word in text.split():
        parts = [part + "-" for part in word.split("-")[:-1]] + [word.split("-")[-1]]
        parts = [part for part in parts if part]
        out += [(part, "") for part in parts[:-1]] + [(parts[-1], " ")]
    return out


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width``, between words or after a
    hyphen (a word wider than a line is cut where it must be)."""
    lines, line, glue = [], "", ""
    for piece, after in _pieces(text):
        while text_width(piece, size, bold) > width:  # a piece wider than the card
            cut = max([i for i in range(1, len(piece)) if text_width(piece[:i], size, bold) <= width] or [1])
            if line:
                lines.append(line)
                line = ""
            lines.append(piece[:cut])
            piece = piece[cut:]
        trial = line + glue + piece if line else piece
        if line and text_width(trial, size, bold) > width:
            lines.append(line)
            line = piece
        else:
            line = trial
        glue = after
    if line:
        lines.append(line)
    return lines


def _whole(text: str, lines: list[str]) -> bool:
    """Whether ``lines`` broke ``text`` only between words or after hyphens."""
    return "".join(line if line.endswith("-") else line + " " for line in lines).split() == text.split()


def fit(text: str, width: float, height: float, largest: float, smallest: float,
        bold: bool = False, most_lines: int = 99, leading: float = 1.2) -> tuple[float, list[str]]:
    """The largest size (in steps of 2) at which ``text`` fits the box with no word cut,
    and its lines; at the smallest size the lines that fit, the last one ending in an
    ellipsis."""
    size = largest
    while size >= smallest:
        lines = wrap(text, width, size, bold)
        if len(lines) <= most_lines and len(lines) * size * leading <= height and _whole(text, lines):
            return size, lines
        size -= 2
    size = smallest
    lines = wrap(text, width, size, bold)
    room = max(1, min(most_lines, int(height // (size * leading))))
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = lines[-1].rstrip(".,;: ") + "\u2026"
    return size, lines


# -- the symbols: white shapes in a 100 x 100 box ---------------------------------------
_SYMBOLS = {
    "bomb": '<circle cx="44" cy="58" r="30"/><rect x="52" y="18" width="16" height="16" rx="3" '
            'transform="rotate(40 60 26)"/><path d="M66 22 Q76 6 88 14" fill="none" stroke="#fff" '
            'stroke-width="5"/><circle cx="90" cy="12" r="6"/>',
    "shield": '<path d="M50 6 L88 20 Q88 66 50 94 Q12 66 12 20 Z"/>'
              '<path d="M32 50 L46 64 L70 36" fill="none" stroke="{band}" stroke-width="9"/>',
    "stop": '<circle cx="50" cy="50" r="40" fill="none" stroke="#fff" stroke-width="12"/>'
            '<path d="M22 78 L78 22" stroke="#fff" stroke-width="12"/>',
    "paw": '<ellipse cx="50" cy="66" rx="22" ry="18"/><circle cx="22" cy="42" r="10"/>'
           '<circle cx="40" cy="26" r="10"/><circle cx="60" cy="26" r="10"/><circle cx="78" cy="42" r="10"/>',
    "bolt": '<path d="M58 4 L18 56 L46 56 L38 96 L82 40 L54 40 Z"/>',
    "eye": '<path d="M4 50 Q50 4 96 50 Q50 96 4 50 Z"/><circle cx="50" cy="50" r="17" fill="{band}"/>'
           '<circle cx="50" cy="50" r="7"/>',
    "arrows": '<path d="M8 30 H34 L62 70 H80" fill="none" stroke="#fff" stroke-width="9"/>'
               '<path d="M8 70 H34 L62 30 H80" fill="none" stroke="#fff" stroke-width="9"/>'
               '<path d="M78 16 L96 30 L78 44 Z"/><path d="M78 56 L96 70 L78 84 Z"/>',
    "hand": '<rect x="14" y="52" width="72" height="40" rx="8"/>'
            '<path d="M50 8 V50 M30 32 L50 52 L70 32" fill="none" stroke="#fff" stroke-width="10"/>',
    "chevrons": '<path d="M10 14 L48 50 L10 86 Z"/><path d="M50 14 L88 50 L50 86 Z"/>',
}


def _symbol(look_: Look, title: str, x: float, y: float, size: float) -> str:
    scale = size / 100
    if look_.symbol == "letter":  # a house rule's own card: its initial in a ring
        letter = escape((title.strip()[:1] or "?").upper())
        return (f'<g transform="translate({x:g} {y:g}) scale({scale:g})">'
                '<circle cx="50" cy="50" r="42" fill="none" stroke="#fff" stroke-width="8"/>'
                f'<text x="50" y="68" text-anchor="middle" font-family="{FONT}" font-weight="bold" '
                f'font-size="52" fill="#fff">{letter}</text></g>')
    shape = _SYMBOLS[look_.symbol].replace("{band}", look_.band)
    return f'<g transform="translate({x:g} {y:g}) scale({scale:g})" fill="#fff">{shape}</g>'


def _lines(lines, x: float, y: float, size: float, anchor: str, bold: bool, colour: str,
           leading: float = 1.2) -> str:
    weight = ' font-weight="bold"' if bold else ""
    out = []
    for number, line in enumerate(lines):
        out.append(f'<text x="{x:g}" y="{y + size * (0.9 + number * leading):g}" text-anchor="{anchor}" '
                   f'font-family="{FONT}" font-size="{size:g}"{weight} fill="{colour}">{escape(line)}</text>')
    return "".join(out)


# -- the face -------------------------------------------------------------------------
def footer(edition: Edition, card, look_: Look | None = None) -> list[str]:
    """The footer's lines: when the card is played (the rulesheet's words), then its
    kind and tags in capitals."""
    look_ = look_ or look(edition, card)
    tags = [look_.label] + sorted(t.replace("_", " ") for t in card.tags if t != look_.label)
    return [line for line in (_WHEN.get(card.when, ""), " \u00b7 ".join(tags).upper()) if line]


def card_svg(edition: Edition, card, text: str | None = None, *, frame: bool = True,
             words: bool = True) -> str:
    """The face of ``card`` as an SVG document (``text``: the words on it, by default
    what the card reads in these rules). ``frame``: draw the coloured border (a printer
    draws its own, past the cut); ``words``: draw the title, text and footer (a printer
    sets them itself, in the same fonts, so a PDF's text can be searched and copied)."""
    look_ = look(edition, card)
    title = " ".join(card.title.split())
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'width="{WIDTH / 10:g}mm" height="{HEIGHT / 10:g}mm" role="img" '
             f'aria-label="{escape(title, {chr(34): "&quot;"})}" data-kind="{look_.kind}">']
    if frame:
        parts.append(f'<rect width="{WIDTH}" height="{HEIGHT}" rx="32" fill="{look_.frame}"/>')
    panel = WIDTH - 2 * FRAME
    parts += [
        f'<rect x="{FRAME}" y="{FRAME + BAND - 30}" width="{panel}" height="{HEIGHT - 2 * FRAME - BAND + 30}" '
        'rx="24" fill="#fff"/>',
        f'<rect x="{FRAME}" y="{FRAME}" width="{panel}" height="{BAND}" rx="24" fill="{look_.band}"/>',
        f'<rect x="{FRAME}" y="{FRAME + BAND - 30}" width="{panel}" height="30" fill="{look_.band}"/>',
        _symbol(look_, title, WIDTH / 2 - SYMBOL / 2, FRAME + (BAND - SYMBOL) / 2, SYMBOL),
    ]
    inner, top = panel - 40, FRAME + BAND
    t_size, t_lines = fit(title, inner, 150, 64, 34, bold=True, most_lines=2)
    rule_y = top + 20 + len(t_lines) * t_size * 1.2 + 8
    if words:
        parts.append(f'<rect x="{FRAME + 60}" y="{rule_y:g}" width="{panel - 120}" height="4" fill="{look_.frame}"/>')
        lines = footer(edition, card, look_)
        f_size = 20
        f_top = HEIGHT - FRAME - 16 - len(lines) * f_size * 1.2
        body = " ".join((printed_text(edition, card) if text is None else text).split())
        b_size, b_lines = fit(body, inner, f_top - 10 - (rule_y + 22), 38, 18)
        parts += [_lines(t_lines, WIDTH / 2, top + 20, t_size, "middle", True, "#14141a"),
                  _lines(b_lines, FRAME + 20, rule_y + 22, b_size, "start", False, "#14141a"),
                  _lines(lines, WIDTH / 2, f_top, f_size, "middle", False, "#55525c")]
    parts.append("</svg>")
    return "".join(parts)


def faces(edition: Edition) -> dict:
    """Every card's face in ``edition``: id -> SVG."""
    return {card_id: card_svg(edition, card) for card_id, card in edition.cards.items()}
