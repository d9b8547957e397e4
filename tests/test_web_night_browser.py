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


# -- invitations -----------------------------------------------------------------------
def read_qr(page, locator):
    """The text a phone's camera reads off a QR code shown on the page (OpenCV's decoder
    on a screenshot of it)."""
    cv2 = pytest.importorskip("cv2")
    numpy = pytest.importorskip("numpy")
    picture = cv2.imdecode(numpy.frombuffer(locator.screenshot(), numpy.uint8), cv2.IMREAD_GRAYSCALE)
    text, _points, _code = cv2.QRCodeDetector().detectAndDecode(picture)
    return text


def test_each_seat_link_has_a_copy_button_and_a_qr_code_that_scans(server, browser, size):
    base, _app = server
    context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone", has_touch=size == "phone")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    for seat, kind in enumerate(("person", "person", "random")):
        page.select_option(f"#seat-{seat}", kind)
    page.click("#create")
    page.wait_for_selector("#links a")
    rows = page.locator("#links li")
    links = [a.get_attribute("href") for a in page.locator("#links a").all()]
    assert len(links) == 4 and links[-1].endswith("/rules")  # two seats, watching, the rulesheet
    for index, link in enumerate(links):
        row = rows.filter(has=page.locator(f"a[href='{link}']"))
        row.get_by_role("button", name=re.compile("^Copy the link")).click()
        assert page.evaluate("navigator.clipboard.readText()") == link
        row.get_by_role("button", name=re.compile("^Show a QR code")).click()
        code = row.locator(".qr img")
        code.wait_for()
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=code.element_handle())
        if index in (0, len(links) - 1):  # a seat's and the rulesheet's, read as a camera would
            assert read_qr(page, code) == link
    shot(page, f"night-invitations-{size}")
    # what the server draws: only for a bounded text, and an SVG with nothing but the code
    answer = page.request.post(base + "/api/qr", data={"text": links[0]})
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    assert "<script" not in answer.text() and "href" not in answer.text()
    assert page.request.post(base + "/api/qr", data={"text": "x" * 601}).status == 400
    assert page.request.post(base + "/api/qr", data={"words": 1}).status == 400


# -- a device's uploads ----------------------------------------------------------------
def test_a_devices_uploads_stay_listed_across_reloads(server, browser, size, tmp_path):
    """An upload made in this browser is listed again after a reload, ready for a table;
    another device does not see it; an upload the server let go drops off the list."""
    base, app = server
    context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone", has_touch=size == "phone")
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    rules = tmp_path / "quick_points.yaml"
    rules.write_text(ENDS_AT_ONCE, encoding="utf-8")
    page.set_input_files("#files", str(rules))
    page.wait_for_function("document.querySelector('#upload-status').innerText.includes('Ready to play')")
    other = tmp_path / "nope_party.yaml"
    other.write_text("format: 1\nkind: edition\nid: nope_party\nname: Nope Party\nextends: original\n"
                     "set_counts: {nope: 8}\n", encoding="utf-8")
    page.set_input_files("#files", str(other))
    page.wait_for_function("document.querySelector('#upload-status').innerText.includes('Ready to play')")
    page.reload()
    page.wait_for_selector("#my-uploads li >> nth=1")
    offered = page.locator("#ruleset optgroup[label='Uploaded'] option").all_inner_texts()
    assert offered == ["Nope Party (nope_party.yaml)", "Quick Points (quick_points.yaml)"]
    shot(page, f"night-my-uploads-{size}")
    page.locator("#my-uploads li", has_text="Quick Points").locator("button", has_text="Play this").click()
    assert page.locator("#ruleset option:checked").inner_text() == "Quick Points (quick_points.yaml)"
    page.click("#create")
    page.wait_for_selector("#links a")
    player = new_page(browser, size)
    player.goto(page.locator("#links a").first.get_attribute("href"))
    player.wait_for_selector("#over", state="visible")  # the uploaded rules: over once dealt
    stranger = new_page(browser, size)  # another device: its own (empty) list
    stranger.goto(base + "/")
    stranger.wait_for_selector("#ruleset option", state="attached")
    assert stranger.locator("#ruleset optgroup[label='Uploaded'] option").count() == 0
    assert not stranger.locator("#my-uploads").is_visible()
    # the server lets one go (its quota made room): the next load drops it from the list
    import shutil

    key = page.evaluate("JSON.parse(localStorage.getItem('kittens-uploads'))[0].playable[0].key")
    shutil.rmtree(app.state.tables.rulesets.path(key).rsplit("/", 1)[0])
    page.goto(base + "/")
    page.wait_for_function("document.querySelectorAll('#my-uploads li').length === 1")
    assert page.locator("#ruleset optgroup[label='Uploaded'] option").all_inner_texts() == [
        "Quick Points (quick_points.yaml)"]
    page.locator("#my-uploads li button", has_text="Forget").click()
    assert not page.locator("#my-uploads").is_visible()
    page.reload()
    page.wait_for_selector("#ruleset option", state="attached")
    assert page.locator("#ruleset optgroup[label='Uploaded'] option").count() == 0


# -- the waiting room, stand-ins and the turn clock ---------------------------------------
def api_table(page, base, seats, seed=5, **extra):
    lobby = page.request.get(base + "/api/lobby").json()
    key = next(e["key"] for e in lobby["rulesets"] if e["name"] == "Exploding Kittens (Original Edition)")
    made = page.request.post(base + "/api/rooms", data={"ruleset": key, "players": len(seats),
                                                        "seats": list(seats), "seed": seed, **extra})
    assert made.ok, made.text()
    return made.json()


def test_a_waiting_room_starts_once_everyone_said_ready(server, browser, size):
    base, app = server
    host = new_page(browser, size)
    host.goto(base + "/")
    host.wait_for_selector("#ruleset option", state="attached")
    host.fill("#players", "3")
    host.dispatch_event("#players", "change")
    for seat, kind in enumerate(("person", "person", "random")):
        host.select_option(f"#seat-{seat}", kind)
    assert host.locator("#wait").is_checked()  # waiting is what a table does unless told
    host.click("#create")
    host.wait_for_selector("#links a")
    links = [a.get_attribute("href") for a in host.locator("#links a").all() if "#seat=" in a.get_attribute("href")]
    room = app.state.tables.rooms[links[0].split("/room/")[1].split("#")[0]]
    ann, ben = new_page(browser, size), new_page(browser, size)
    ann.goto(links[0])
    ann.wait_for_selector("#waiting", state="visible")
    assert "has not opened the link" in ann.locator("#waiting-seats li[data-seat='1']").inner_text()
    ben.goto(links[1])
    ben.wait_for_selector("#waiting", state="visible")
    ann.wait_for_function("document.querySelector(\"#waiting-seats li[data-seat='1']\").innerText"
                          ".includes('here, not ready yet')")
    assert "a bot" in ann.locator("#waiting-seats li[data-seat='2']").inner_text()
    assert ann.locator("#start-now").is_visible() and not ben.locator("#start-now").is_visible()
    assert not ann.locator("#prompt").is_visible() and not ben.locator("#prompt").is_visible()
    assert room.state.history == []  # nobody plays while the table waits
    assert "Waiting room" in ann.locator("#turn").inner_text()
    ann.locator("#ready").click()
    ben.wait_for_function("document.getElementById('waiting-text').innerText.length > 0 && "
                          "document.querySelector(\"#waiting-seats li[data-seat='0']\").innerText.includes('ready')")
    shot(ben, f"night-waiting-room-{size}")
    ben.locator("#ready").click()
    for page in (ann, ben):
        page.wait_for_selector("#waiting", state="hidden")
    first = room.state.decision().seat
    if first in (0, 1):
        (ann, ben)[first].wait_for_selector("#prompt button:enabled")
    shot(ann, f"night-waiting-started-{size}")


def test_the_host_starts_with_a_bot_and_the_late_person_takes_the_seat(server, browser, size):
    base, app = server
    ann, ben, cat = (new_page(browser, size) for _ in range(3))
    made = api_table(ann, base, ["person", "person", "person"], wait=True)
    room = app.state.tables.rooms[made["room"]]
    ann.goto(base + made["seats"][0]["link"])
    ben.goto(base + made["seats"][1]["link"])
    ben.wait_for_selector("#waiting", state="visible")
    ben.locator("#ready").click()
    ann.wait_for_selector("#start-now:enabled")
    shot(ann, f"night-waiting-host-{size}")
    ann.locator("#start-now").click()
    ann.wait_for_selector("#waiting", state="hidden")
    ann.wait_for_selector("#seats .seat[data-seat='2'] .standin-mark")
    assert 2 in room.standins and 1 not in room.standins
    cat.goto(base + made["seats"][2]["link"])
    cat.wait_for_selector("#standin", state="visible")
    shot(cat, f"night-standin-{size}")
    cat.locator("#take-over").click()
    cat.wait_for_selector("#standin", state="hidden")
    ann.wait_for_selector("#seats .seat[data-seat='2'] .standin-mark", state="detached")
    assert room.standins == {}


def test_the_turn_clock_lets_a_bot_play_for_a_person_who_does_not_answer(server, browser, size):
    base, app = server
    ann, ben = new_page(browser, size), new_page(browser, size)
    made = api_table(ann, base, ["person", "person"], turn_seconds=5)
    room = app.state.tables.rooms[made["room"]]
    pages = [ann, ben]
    for seat, page in enumerate(pages):
        page.goto(base + made["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
    first = room.state.decision().seat
    slow, other = pages[first], pages[1 - first]
    slow.wait_for_function("/^You have [1-5] s$/.test(document.getElementById('turn-clock').innerText)")
    assert re.fullmatch(r"Seat \d has [1-5] s", other.locator("#turn-clock").inner_text())
    shot(other, f"night-turn-clock-{size}")
    # nobody presses: past 5 s a bot plays that seat, marked so, until its person is back
    slow.wait_for_selector("#standin", state="visible", timeout=9000)
    other.wait_for_selector(f"#seats .seat[data-seat='{first}'] .standin-mark")
    assert first in room.standins and len(room.state.history) >= 1
    slow.locator("#take-over").click()
    slow.wait_for_selector("#standin", state="hidden")
    assert first not in room.standins
    # a person who has gone away (the page closed) stalls nobody either
    other.close()
    deadline = 20.0
    import time

    started = time.monotonic()
    while not room.finished and (room.state.decision() is None or room.state.decision().seat != 1 - first):
        assert time.monotonic() - started < deadline, "the absent person's turn never came"
        for button in ("#window-options button:enabled", "#prompt button:enabled"):
            if slow.locator(button).count():
                slow.locator(button).first.click()
                break
        slow.wait_for_timeout(200)
    if not room.finished:
        slow.wait_for_selector(f"#seats .seat[data-seat='{1 - first}'] .standin-mark", timeout=9000)
        assert 1 - first in room.standins


# -- the lobby's open tables ------------------------------------------------------------
def test_a_stranger_takes_a_free_seat_of_an_open_table_from_the_lobby(server, browser, size):
    base, app = server
    host = new_page(browser, size)
    host.goto(base + "/")
    host.wait_for_selector("#ruleset option", state="attached")
    host.fill("#players", "3")
    host.dispatch_event("#players", "change")
    for seat in range(3):
        host.select_option(f"#seat-{seat}", "person")
    host.check("#open")
    host.click("#create")
    host.wait_for_selector("#links a")
    link = host.locator("#links a").first.get_attribute("href")
    room_id = link.split("/room/")[1].split("#")[0]
    table = new_page(browser, size)
    table.goto(link)  # the host sits down: seat 0 is taken
    table.wait_for_selector("#waiting", state="visible")
    stranger = new_page(browser, size)
    stranger.goto(base + "/")
    row = stranger.locator(f"#open-list li[data-room='{room_id}']")
    row.wait_for()
    assert row.locator("button").all_inner_texts() == ["Take seat 1", "Take seat 2"]
    assert "1 of 3 people seated, in the waiting room" in row.inner_text()
    shot(stranger, f"night-open-tables-{size}")
    row.locator("button", has_text="Take seat 1").click()
    stranger.wait_for_url(re.compile(rf"/room/{room_id}#seat="))
    stranger.wait_for_selector("#waiting", state="visible")
    assert stranger.locator("#who").inner_text() == "You are Seat 1"
    table.wait_for_function("document.querySelector(\"#waiting-seats li[data-seat='1']\").innerText"
                            ".includes('here, not ready yet')")
    late = new_page(browser, size)  # the next stranger sees only the seat still free
    late.goto(base + "/")
    late.locator(f"#open-list li[data-room='{room_id}'] button").first.wait_for()
    assert late.locator(f"#open-list li[data-room='{room_id}'] button").all_inner_texts() == ["Take seat 2"]
    assert app.state.tables.rooms[room_id].config["open"] is True
