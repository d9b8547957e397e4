"""Chromium for the tests that open pages as a person does: Debian's chromium package,
driven by Playwright (in kittens-engine[test]). The web table's tests, the lab's report
and the HTML rulesheet all launch it alike; the web table's `server` and `browser`
fixtures are in conftest.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

#: where the web table's tests keep their screenshots (ignored by git)
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "web"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    """The Chromium to launch; the test is skipped without one (and fails in CI, which
    installs it: .ci/run)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
    pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")


def shot(page, name: str) -> None:
    """A screenshot of the whole page, kept in ARTIFACTS to look at."""
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
