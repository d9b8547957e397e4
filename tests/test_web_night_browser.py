"""A game night on the web table, in Debian's Chromium (Playwright), at a laptop's
1280x800 and a phone's 390x844 (issue 43): the controls come back after a dropped
connection, and the reconnect note counts down; house rules uploaded together build on
each other; each seat link has a copy button and a QR code; a device's uploads stay
listed across reloads. Screenshots go to tests/artifacts/web/ (ignored by git).

The servers are uvicorn on 127.0.0.1, in threads of this process (the shared `server`
and `browser` fixtures are in conftest.py).
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from chromium import shot  # noqa: E402
from conftest import ROOT  # noqa: E402
from webtable import serve_in_thread  # noqa: E402

from kittens.web.app import Settings, create_app  # noqa: E402

SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: a house rule whose game is over once dealt: the rematch button shows at once
ENDS_AT_ONCE = """\
format: 1
kind: edition
id: quick_points
name: Quick Points
extends: original
counters:
  points: {start: 2}
win:
  score: counter("points")
  ends_when: count(draw_pile) < 100
"""
HOUSE = ROOT / "examples" / "house-rules"


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


def new_page(browser, size):
    phone = size == "phone"
    return browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone).new_page()


def quick_table(page, base, seats=("person", "person")):
    uploaded = page.request.post(base + "/api/uploads", data={"files": [{"name": "quick_points.yaml",
                                                                          "text": ENDS_AT_ONCE}]})
    assert uploaded.ok, uploaded.text()
    key = uploaded.json()["playable"][0]["key"]
    made = page.request.post(base + "/api/rooms", data={"ruleset": key, "players": len(seats),
                                                        "seats": list(seats), "seed": 1})
    assert made.ok, made.text()
    return made.json()


# -- blocker: a dropped connection -------------------------------------------------------
def test_after_a_dropped_connection_send_and_play_again_work(server, browser, size):
    """The page's socket closes (a phone loses its network a moment): once it is connected
    again, Send and Play again are live and do what they say (they stayed greyed out until
    a reload)."""
    base, _app = server
    ann, ben = new_page(browser, size), new_page(browser, size)
    made = quick_table(ann, base)
    for seat, page in enumerate((ann, ben)):
        page.goto(base + made["seats"][seat]["link"])
        page.wait_for_selector("#rematch:enabled")
    ann.evaluate("socket.close()")
    ann.wait_for_selector("#connection", state="visible")
    ann.wait_for_selector("#connection", state="hidden", timeout=10000)
    ann.wait_for_selector("#chat-form button:enabled", timeout=5000)
    ann.fill("#chat-text", "back again")
    ann.locator("#chat-form button").click()
    ben.wait_for_function("document.getElementById('chat-lines').innerText.includes('back again')")
    assert ann.locator("#rematch").is_enabled()
    ann.locator("#rematch").click()
    for page in (ann, ben):
        page.wait_for_url(re.compile(r"/room/(?!%s)" % re.escape(made["room"])))
    shot(ann, f"night-reconnected-{size}")


def test_the_reconnect_note_counts_down_and_the_controls_return_after_a_restart(browser, size, tmp_path):
    """The server is down for a while: the note says in how many seconds the page tries
    again, counting down; once the server is back (restarted on the same data and port),
    chat and Play again work without a reload."""
    settings = Settings(data=str(tmp_path / "serve"), answer_seconds=5, bot_delay=0.1)
    page = new_page(browser, size)
    with serve_in_thread(create_app(settings), uvicorn) as base:
        made = quick_table(page, base, ("person", "random"))
        page.goto(base + made["seats"][0]["link"])
        page.wait_for_selector("#rematch:enabled")
    port = int(base.rsplit(":", 1)[1])
    page.wait_for_function("/Trying again in [3-9] s/.test(document.getElementById('connection').innerText)",
                           timeout=20000)
    first = int(re.search(r"in (\d+) s", page.locator("#connection").inner_text()).group(1))
    page.wait_for_function(f"document.getElementById('connection').innerText.includes('in {first - 1} s')",
                           timeout=3000)
    shot(page, f"night-reconnect-countdown-{size}")
    with serve_in_thread(create_app(settings), uvicorn, port=port):
        page.wait_for_selector("#connection", state="hidden", timeout=20000)
        page.wait_for_selector("#chat-form button:enabled", timeout=5000)
        page.wait_for_selector("#rematch:enabled", timeout=5000)
        page.locator("#rematch").click()
        page.wait_for_url(re.compile(r"/room/(?!%s)" % re.escape(made["room"])))


# -- blocker: uploads that build on each other ------------------------------------------
def test_an_upload_extending_a_file_uploaded_with_it_is_played(server, browser, size, tmp_path):
    """partner_gifts.yaml extends partners.yaml: picked together, the lobby checks them
    together, finds no error and offers both (it answered "no file 'partners.yaml'")."""
    base, _app = server
    page = new_page(browser, size)
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    partners = (HOUSE / "partners.yaml").read_text(encoding="utf-8")
    # uploaded, a path into the repository's folders means nothing: the shipped edition by name
    partners = partners.replace("extends: ../../editions/original.yaml", "extends: original")
    (tmp_path / "partners.yaml").write_text(partners, encoding="utf-8")
    (tmp_path / "partner_gifts.yaml").write_text((HOUSE / "partner_gifts.yaml").read_text(encoding="utf-8"),
                                                 encoding="utf-8")
    page.set_input_files("#files", [str(tmp_path / "partner_gifts.yaml"), str(tmp_path / "partners.yaml")])
    page.wait_for_function("document.querySelector('#upload-status').innerText.includes('Ready to play')")
    assert "0 error" in page.locator("#upload-status").inner_text()
    offered = page.locator("#ruleset optgroup[label='Uploaded'] option").all_inner_texts()
    assert "Partner Gifts (partner_gifts.yaml)" in offered and "Partners (partners.yaml)" in offered
    page.select_option("#ruleset", label="Partner Gifts (partner_gifts.yaml)")
    page.fill("#players", "4")
    page.dispatch_event("#players", "change")
    for seat in range(4):
        page.select_option(f"#seat-{seat}", "person" if seat < 2 else "random")
    page.click("#create")
    page.wait_for_selector("#links a")
    shot(page, f"night-upload-extends-{size}")
    link = page.locator("#links a").first.get_attribute("href")
    player = new_page(browser, size)
    player.goto(link)
    player.wait_for_selector("#hand .card")
    assert "Partner Gifts" in player.locator("#edition").inner_text()
