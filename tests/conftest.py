"""Shared paths for the test suite (the checkout, its shipped rule files), and the fixtures
the web table's tests in Chromium share (a server and a browser)."""

import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    """The Ctrl-C tests need SIGINT to arrive, here and in the commands they start. A shell
    starts a background job (``pytest &`` in a script) with SIGINT ignored, and every child
    inherits that: each of those tests then failed for a reason that had nothing to do with
    kittens. Python's own handler is put back (children start with the default again)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def write(tmp_path):
    """Write a rule file into tmp_path and return its path as a string."""

    def _write(name: str, text: str) -> str:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return str(path)

    return _write


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real web table server (uvicorn) on a free port of 127.0.0.1, in a thread of this
    process: (its address, the app)."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from webtable import serve_in_thread

    from kittens.web.app import Settings, create_app

    settings = Settings(data=str(tmp_path_factory.mktemp("serve")), answer_seconds=1.5, bot_delay=0.1)
    app = create_app(settings)
    with serve_in_thread(app, uvicorn) as url:
        yield url, app


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium, driven by Playwright (see chromium.py)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    from chromium import ARTIFACTS, CHROMIUM_FLAGS, chromium_path

    path = chromium_path()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()

# Scenario files (tests/scenarios/**) are collected by kittens' own pytest plugin
# (kittens/pytest_plugin.py, the `pytest11` entry point), as in a designer's repository:
# pyproject.toml's `kittens_scenarios` says where they are.
