"""Rulesheets a player can read: no engine words in any shipped sheet, the game taught
from the edition, changes in sentences, and an HTML sheet that prints on A4 (looked at in
headless Chromium, with a screenshot kept in test-artifacts/)."""

from __future__ import annotations

import html as html_module
import re

import pytest
from chromium import CHROMIUM_FLAGS, chromium_path
from conftest import ROOT

from kittens.interpreter.lang.primitives import PRIMITIVES
from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.words.resolved import against_base
from kittens.interpreter.words.rulesheet import render_rulesheet

ARTIFACTS = ROOT / "test-artifacts"
SHIPPED = sorted(p.stem for p in (ROOT / "editions").glob("*.yaml"))
HOUSE_RULES = sorted((ROOT / "examples" / "house-rules").glob("*.yaml"))


def _sheets():
    """(label, edition, base, changes) for every shipped edition, expansion and variant."""
    for name in SHIPPED:
        whole = load_edition(name)
        yield name, whole, None, None
        for variant, edition in whole.variants.items():
            base, changes = against_base(edition, whole, load_edition)
            yield f"{name}:{variant}", edition, base, changes


SHEETS = list(_sheets())


def engine_words(text: str, tags: set[str]) -> list[str]:
    """Words from the rule files' own language in text meant for players."""
    found = re.findall(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b", text)  # ids, parameters, primitives
    found += re.findall(r"\brules\.\w*", text)
    found += re.findall(r"\b(?:" + "|".join(sorted(PRIMITIVES)) + r")\(", text)
    found += re.findall(r"\btag(?:s|ged)?\b", text, flags=re.IGNORECASE)
    found += re.findall(r"`[^`\n]+`|<code>", text)
    # a tag used as a kind of card ("kitten cards in the draw pile"), outside printed card text
    said = "\n".join(line for line in text.splitlines() if not line.startswith(">"))
    said = re.sub(r"<blockquote>.*?</blockquote>", "", said, flags=re.DOTALL)
    said = re.sub(r"“[^”]*”", "", said)  # the designer's own words, quoted in a sentence
    found += re.findall(r"\b(?:" + "|".join(sorted(tags)) + r") cards?\b", said)
    return found


def _players(edition) -> int:
    lo, hi = edition.players
    return min(max(4, lo), hi)


@pytest.mark.parametrize("label,edition,base,changes", SHEETS, ids=[s[0] for s in SHEETS])
def test_no_engine_words_in_any_shipped_rulesheet(label, edition, base, changes):
    tags = {tag for card in edition.cards.values() for tag in card.tags}
    for fmt in ("markdown", "html"):
        text = render_rulesheet(edition, _players(edition), fmt, changes=changes, base=base)
        if fmt == "html":  # the text a reader sees, markup aside
            text = html_module.unescape(re.sub(r"<(?!/?(?:code|blockquote)\b)[^>]+>", " ", text.split("<body>")[1]))
        assert engine_words(text, tags) == [], f"{label} ({fmt})"


def test_the_scanner_finds_what_it_looks_for():
    sample = ("Put `3` into the pile (the number of kitten cards in the draw pile). Tags: cat. "
              "Use rules.hand_size; see_the_future; end_turn() and top(draw_pile, 1).")
    found = engine_words(sample, {"kitten", "cat"})
    for word in ("`3`", "kitten cards", "Tags", "rules.hand_size", "see_the_future", "end_turn",
                 "top(", "draw_pile"):
        assert any(word in f for f in found), word


@pytest.mark.parametrize("path", HOUSE_RULES, ids=[p.stem for p in HOUSE_RULES])
def test_a_house_rules_changes_are_told_in_sentences(path):
    edition = load_edition(str(path))
    base, changes = against_base(edition, edition, load_edition)
    sheet = render_rulesheet(edition, _players(edition), changes=changes, base=base)
    tags = {tag for card in edition.cards.values() for tag in card.tags}
    assert engine_words(sheet, tags) == []
    if changes:
        section = sheet[sheet.index("## What these rules change"):sheet.index("## How to play")]
        assert f"Played as {base.name}" in section and section.count("\n- ") >= 1


def test_how_to_play_teaches_the_turn_answers_combos_and_the_end():
    sheet = render_rulesheet(load_edition("original"), 4)
    how = sheet[sheet.index("## How to play"):sheet.index("## Setup")]
    assert "The draw pile hides Exploding Kittens" in how
    assert "Play as many cards as you like" in how and "draw the top card of the draw pile" in how
    assert "Attacks add up" in how  # owed turns, from the edition's own rule
    assert "answer it at once with Nope" in how and "You may not answer your own card" in how
    assert "Two of a kind (2 cards, all alike)" in how
    assert "The last player still in the game wins." in how
    # the sheet lists the variants and what each changes
    variants = sheet[sheet.index("## Variants"):]
    assert "### Older printing" in variants and "- Hand size: 4 instead of 7." in variants
    assert "### Beginner" in variants and "The combo Five different cards is not played." in variants


def test_a_house_rule_from_kittens_new_reads_as_a_change(tmp_path):
    from kittens.authoring.scaffold import house_rule

    house_rule("Short Hands", "original", str(tmp_path))
    edition = load_edition(str(tmp_path / "short_hands.yaml"))
    base, changes = against_base(edition, edition, load_edition)
    sheet = render_rulesheet(edition, 4, changes=changes, base=base)
    assert "- Hand size: 6 instead of 7." in sheet


# -- the HTML sheet in a real browser ----------------------------------------------------
def test_the_html_rulesheet_prints_on_a4_in_headless_chromium(tmp_path):
    """Open the sheet as a person would: a screenshot at A4 width kept as an artefact, no
    sideways scrolling, and a printed PDF of A4 pages whose cards are not cut in two."""
    playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is in kittens-engine[test]")
    executable = chromium_path()
    ARTIFACTS.mkdir(exist_ok=True)
    page_file = ARTIFACTS / "rulesheet-original.html"
    page_file.write_text(render_rulesheet(load_edition("original"), 4, "html"), encoding="utf-8")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 794, "height": 1123})  # A4 at 96 dpi
            page.goto(page_file.as_uri())
            page.screenshot(path=str(ARTIFACTS / "rulesheet-original.png"), full_page=False)
            assert page.evaluate("document.documentElement.scrollWidth") <= 794
            assert page.evaluate("document.querySelectorAll('section.entry').length") >= 13
            page.emulate_media(media="print")
            page.screenshot(path=str(ARTIFACTS / "rulesheet-original-print.png"), full_page=True)
            pdf = page.pdf(path=str(ARTIFACTS / "rulesheet-original.pdf"), prefer_css_page_size=True)
            # in print, every card entry and table is kept whole on a page
            kept = page.evaluate("""() => [...document.querySelectorAll('section.entry, table')]
                .every(e => getComputedStyle(e).breakInside === 'avoid')""")
        finally:
            browser.close()
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    assert boxes, "the PDF names no page size"
    for width, height in boxes:  # A4 is 595 x 842 points
        assert abs(float(width) - 595.3) < 2 and abs(float(height) - 841.9) < 2, (width, height)
    assert 2 <= len(boxes) <= 12
    assert (ARTIFACTS / "rulesheet-original.png").stat().st_size > 10_000
    assert kept
