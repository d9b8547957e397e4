"""The lab's --report page (and the arena's, built on it) opened as a person opens it: in headless Chromium (Playwright
with the system's chromium), with screenshots kept in test-artifacts/ to look at.

The page must stand alone (every plot an embedded image that loads, with a text
alternative), fit a laptop's width without sideways scrolling, and keep each figure
of the cards table on one line (a table whose cells wrap into two or three lines
is hard to read across).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("matplotlib")
playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is in kittens-engine[test]")

from chromium import CHROMIUM_FLAGS, chromium_path  # noqa: E402

from kittens.cli import app  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
WIDTH = 1100


def _report(tmp_path, *args) -> Path:
    page = tmp_path / f"{args[0]}.html"
    result = CliRunner().invoke(app, [*args, "-g", "120", "-j", "1", "--report", str(page)])
    assert result.exit_code == 0, result.output
    return page


def test_reports_read_well_in_chromium(tmp_path):
    executable = chromium_path()
    ARTIFACTS.mkdir(exist_ok=True)
    pages = [_report(tmp_path, "simulate", "original", "--bots", "heuristic,random"),
             _report(tmp_path, "compare", "original", "original@older_printing"),
             _report(tmp_path, "sweep", "original", "--count", "nope=2..6/2", "-m", "card:nope"),
             _report(tmp_path, "arena", "original", "--bots", "heuristic,random"),
             _report(tmp_path, "tune", "original", "-x", "count.nope=2..4", "-t", "turns 25..35", "-t", "fairness",
                     "-n", "3", "--first-batch", "120", "--study", str(tmp_path / "tune.db"))]
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS, headless=True)
        try:
            for path in pages:
                page = browser.new_page(viewport={"width": WIDTH, "height": 900})
                page.goto(path.as_uri())
                page.screenshot(path=str(ARTIFACTS / f"lab-{path.stem}.png"), full_page=True)
                images = page.evaluate("""() => [...document.images].map(
                    i => [i.complete && i.naturalWidth > 0, i.alt, i.src.slice(0, 22)])""")
                assert len(images) >= 3, path.stem
                assert all(ok and alt and src == "data:image/png;base64," for ok, alt, src in images), images
                assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, path.stem
                if path.stem == "compare":  # the changes themselves, with their intervals
                    assert any(alt == "Changes in win rates (95% CI)" for _ok, alt, _src in images)
                if path.stem == "arena":  # the ratings come first, above the lab's plots
                    first = page.evaluate("() => document.querySelector('h2').textContent")
                    rows = page.evaluate("""() => [...document.querySelector('table').rows]
                        .slice(1).map(r => r.cells[0].textContent)""")
                    assert first.startswith("Ratings") and sorted(rows) == ["heuristic", "random"]
                if path.stem == "tune":  # the search, each value's effect, the candidates side by side
                    alts = [alt for _ok, alt, _src in images]
                    heads = page.evaluate("() => [...document.querySelectorAll('h2')].map(h => h.textContent)")
                    columns = page.evaluate("() => document.querySelector('table').rows[0].cells.length")
                    assert "The search: each trial's loss" in alts and "turns by count.nope" in alts
                    assert "The best candidates side by side" in heads and columns == 4  # target + 3 points
                if path.stem == "simulate":
                    fits = page.evaluate("""() => [...document.querySelectorAll('.scroll')]
                        .every(e => e.scrollWidth <= e.clientWidth)""")
                    heights = page.evaluate("""() => [...document.querySelectorAll('tr')].slice(1)
                        .map(r => r.getBoundingClientRect().height)""")
                    assert fits and len(heights) >= 10
                    assert max(heights) < 1.5 * min(heights), "a row of the cards table wraps"
                page.close()
        finally:
            browser.close()
