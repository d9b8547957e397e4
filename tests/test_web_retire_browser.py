"""A table closing under a person's eyes, in Chromium: the open page says for good that
the table has closed (and why), stops trying to reconnect, and the link opened again
gets the server's closed page. The server runs in a thread of this process, sweeping
often; the test makes the table old by moving its last move back, not by waiting."""

from __future__ import annotations

import json
import urllib.request

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

from chromium import CHROMIUM_FLAGS, chromium_path  # noqa: E402
from webtable import serve_in_thread  # noqa: E402

from kittens.web.app import Settings, create_app  # noqa: E402

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never a proxy


@pytest.fixture
def server(tmp_path):
    settings = Settings(data=str(tmp_path / "serve"), answer_seconds=1.0, bot_delay=0, sweep_seconds=0.1)
    app = create_app(settings)
    with serve_in_thread(app, uvicorn) as url:
        yield url, app, settings


def make_table(base: str) -> dict:
    lobby = json.load(DIRECT.open(base + "/api/lobby", timeout=20))
    key = next(e["key"] for e in lobby["rulesets"] if e["name"].startswith("Exploding Kittens (Original"))
    body = json.dumps({"ruleset": key, "players": 2, "seats": ["person", "random"], "seed": 6}).encode()
    request = urllib.request.Request(base + "/api/rooms", data=body, headers={"Content-Type": "application/json"})
    with DIRECT.open(request, timeout=20) as response:
        return json.load(response)


def test_an_open_page_is_told_its_table_has_closed(server):
    base, app, settings = server
    made = make_table(base)
    link = base + made["seats"][0]["link"]
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_context(viewport={"width": 390, "height": 700}).new_page()
            sockets = []
            page.on("websocket", lambda ws: sockets.append(ws))
            page.goto(link)
            page.wait_for_selector("#hand .card")
            # a week without a move, as far as the room knows; the server's sweep finds it
            app.state.tables.rooms[made["room"]].active -= settings.idle_seconds
            page.wait_for_selector("#stopped", state="visible", timeout=15000)
            notice = page.locator("#stopped")
            assert "This table has closed: nobody played in it for 7 days" in notice.inner_text()
            assert notice.locator("a", has_text="Make a table").get_attribute("href") == "/"
            assert not page.locator("#hand").is_visible()
            page.wait_for_timeout(1500)  # a page that reconnects would have opened a socket by now
            assert len(sockets) == 1 and not page.locator("#connection").is_visible()
            again = page.reload()  # the link, opened again
            assert again.status == 410 and "This table has closed" in page.locator("body").inner_text()
        finally:
            browser.close()
