"""The web table in a real browser: Debian's Chromium, driven by Playwright.

Two browser contexts (two people, sharing nothing) make a two-player table in the
lobby, open their seat links and play the game to its end by pressing buttons.
Whenever a page is asked to act, the test checks what it shows against the
server's game: its own hand, the other hand's size, the draw pile, and never a
card of the other hand it has not seen, never a card id, never the other seat's
link. Screenshots are kept in tests/artifacts/web/ (ignored by git).

The server is uvicorn on 127.0.0.1, in a thread of this process (the `server` and
`browser` fixtures are in conftest.py).
"""

from __future__ import annotations

import json
import re
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from chromium import shot  # noqa: E402

from kittens.adapters.replay import replay_log  # noqa: E402


def make_table_in_the_lobby(page, base: str, seed: int) -> list[str]:
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    page.select_option("#ruleset", label="Exploding Kittens (Original Edition)")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    assert page.locator("#seats select").count() == 2
    page.select_option("#seat-0", "person")
    page.select_option("#seat-1", "person")
    page.fill("#seed", str(seed))
    page.uncheck("#wait")  # the game at once (the waiting room: test_web_night_browser.py)
    page.click("#create")
    page.wait_for_selector("#links a")
    shot(page, "lobby-made")
    links = [a.get_attribute("href") for a in page.locator("#links a").all()]
    seats = [link for link in links if "#seat=" in link]
    assert len(seats) == 2 and "/rules" in links[-1]
    return seats


def visible(page, selector: str) -> bool:
    return page.locator(selector).is_visible()


def check_screen(page, room, seat: int, tokens: list[str]) -> None:
    """What the page shows, against the server's game (which waits for this page)."""
    edition = room.game.edition
    table = room.state.table
    other = 1 - seat
    hand = sorted(page.locator("#hand .card .title").all_inner_texts())
    assert hand == sorted(edition.cards[inst.id].title for inst in table.hands[seat].cards)
    box = page.locator(f"#seats .seat[data-seat='{other}']")
    assert box.locator(".count").inner_text() == f"{len(table.hands[other].cards)} card" + (
        "" if len(table.hands[other].cards) == 1 else "s")
    assert page.locator("#order").inner_text() == f"Order of play: You \u2192 Seat {other} \u2192 You"
    pile = page.locator("#piles .pile").first.locator(".big").inner_text()
    assert pile.startswith(f"{len(table.draw_pile.cards)} card")
    # the other hand: only the cards this seat knows are named, and only there
    known = {edition.cards[c].title for c in room.state.view(seat).known_in_hand(other)}
    unknown = {edition.cards[inst.id].title for inst in table.hands[other].cards} - known
    named = set(box.locator(".chip").all_inner_texts())
    assert named <= known and not named & unknown
    body = page.locator("body").inner_text()
    ids = [card_id for card_id in edition.cards if "_" in card_id]
    assert not [card_id for card_id in ids if re.search(rf"\b{card_id}\b", body)], "a card id on the screen"
    rules = "|".join(list(edition.cards) + [combo.id for combo in edition.combos])
    assert not re.search(rf"\b(play|combo) ({rules})\b", body), "an option as the engine writes it, on the screen"
    assert tokens[other] not in page.content(), "the other seat's link is in the page"


def press(page, container: str, text: str | None = None) -> bool:
    buttons = page.locator(f"{container} button:enabled")
    if text is not None:
        buttons = buttons.filter(has_text=text)
    if not buttons.count():
        return False
    buttons.first.click()
    return True


def test_two_people_play_a_table_to_the_end_in_chromium(server, browser, tmp_path):
    base, app = server
    lobby = browser.new_context().new_page()
    links = make_table_in_the_lobby(lobby, base, seed=7)
    tokens = [link.split("#seat=")[1] for link in links]
    room_id = links[0].split("/room/")[1].split("#")[0]
    room = app.state.tables.rooms[room_id]
    pages, frames = [], [[], []]
    for seat, link in enumerate(links):
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        page.on("websocket", lambda ws, seat=seat: ws.on("framereceived", lambda data: frames[seat].append(data)))
        page.goto(link)
        pages.append(page)
    for seat, page in enumerate(pages):
        page.wait_for_selector("#hand .card")
        assert page.locator("#who").inner_text() == f"You are Seat {seat}"
    shot(pages[0], "seat0-start")
    played = [0, 0]
    window_shot = False
    checked = 0
    deadline = time.monotonic() + 150
    while not all(visible(page, "#over") for page in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for seat, page in enumerate(pages):
            if visible(page, "#window") and page.locator("#window-options button:enabled").count():
                if not window_shot:
                    shot(page, f"seat{seat}-window")
                    window_shot = True
                acted |= press(page, "#window-options", "Pass")
            elif visible(page, "#prompt") and page.locator("#prompt button:enabled").count():
                pending = room.state.decision()
                if pending is None or pending.seat != seat or room.round is not None:
                    continue  # the page is a step ahead of the server: look again
                if pending.kind == "action":
                    check_screen(page, room, seat, tokens)
                    assert page.title().startswith("Your turn! ")
                    pages[1 - seat].wait_for_function("!document.title.startsWith('Your turn')", timeout=5000)
                    checked += 1
                    # each person plays a card on their first two turns, then only draws
                    if played[seat] < 2 and press(page, "#prompt", "Play "):
                        played[seat] += 1
                    else:
                        press(page, "#prompt", "Draw a card")
                elif pending.kind == "rearrange":
                    press(page, "#prompt", "Put them back")
                else:
                    press(page, "#prompt-body")
                acted = True
        if not acted:
            pages[0].wait_for_timeout(60)
    assert checked >= 4 and sum(played) >= 1
    for seat, page in enumerate(pages):
        shot(page, f"seat{seat}-end")
        assert "Game over" in page.locator("#over").inner_text()
        assert "Game over" in page.locator("#log").inner_text()
        assert page.locator("#again").is_visible() and page.locator("#again").get_attribute("href") == "/"
    winner = room.state.winner
    assert pages[winner].locator("#over-text").inner_text() == "Game over: you win!"
    assert pages[1 - winner].locator("#over-text").inner_text() == f"Game over: Seat {winner} wins."
    # what reached each browser: its own seat only, no secret marks, not the other's link
    for seat in (0, 1):
        messages = [json.loads(frame) for frame in frames[seat]]
        welcome = next(m for m in messages if m["type"] == "welcome")
        assert welcome["seat"] == seat
        assert not any(tokens[1 - seat] in frame for frame in frames[seat])
        assert not any(key in frame for frame in frames[seat] for key in ('"secret":', '"only":'))
    # the finished game downloads as a log that replays
    href = pages[0].locator("#download").get_attribute("href")
    log = pages[0].request.get(base + href)
    assert log.ok
    path = tmp_path / "game.jsonl"
    path.write_text(log.text(), encoding="utf-8")
    [result] = list(replay_log(str(path)))
    assert result.verified and result.winner == winner
    # ... and steps again in the replay viewer, as everyone, from the table's own log
    pages[0].click("#replay")
    pages[0].wait_for_selector("#controls", state="visible")
    pages[0].locator("#last").click()
    assert pages[0].locator("#next").inner_text() == "The game is over."
    assert pages[0].locator("#seats .seat").count() == 2
    shot(pages[0], "replay-table")
    # the rulesheet is one click away
    with pages[1].context.expect_page() as opened:
        pages[1].click("#rules")
    sheet = opened.value
    sheet.wait_for_load_state()
    assert "Exploding Kittens (Original Edition)" in sheet.locator("body").inner_text()


BROKEN_HOUSE_RULE = """\
format: 1
kind: edition
id: nope_party
name: Nope Party
extends: original
set_counts: {noep: 8}
"""


def test_the_lobby_shows_an_uploaded_house_rules_findings_at_their_lines(server, browser, tmp_path):
    base, _app = server
    page = browser.new_context().new_page()
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    bad = tmp_path / "nope_party.yaml"
    bad.write_text(BROKEN_HOUSE_RULE, encoding="utf-8")
    page.set_input_files("#files", str(bad))
    page.wait_for_selector("#diagnostics .source")
    line = page.locator("#diagnostics .line.bad")
    assert line.count() == 1 and line.locator(".lineno").inner_text() == "6" and "noep" in line.inner_text()
    assert "noep" in page.locator("#diagnostics .diag").inner_text()
    # the caret stands under the finding's column: the same character place, the same pixel
    column, caret_x, source_x, under = page.evaluate("""() => {
        const caret = document.querySelector('#diagnostics .line.caret');
        const row = document.querySelector('#diagnostics .line.bad');
        const text = (node) => [...node.childNodes].find((n) => n.nodeType === 3);
        const at = (node, i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                                  return r.getBoundingClientRect().left; };
        const column = text(caret).data.indexOf('^');
        return [column, at(text(caret), column), at(text(row), column), text(row).data[column]];
    }""")
    assert under == "n" and abs(caret_x - source_x) < 1.5, (column, caret_x, source_x, under)
    assert "1 error" in page.locator("#upload-status").inner_text()
    shot(page, "lobby-upload-errors")
    good = tmp_path / "nope_party_fixed.yaml"
    good.write_text(BROKEN_HOUSE_RULE.replace("noep", "nope"), encoding="utf-8")
    page.set_input_files("#files", str(good))
    page.wait_for_function("document.querySelector('#upload-status').innerText.includes('Ready to play')")
    assert page.locator("#ruleset option:checked").inner_text().startswith("Nope Party")
    page.click("#create")
    page.wait_for_selector("#links a")


def test_a_table_fits_a_phone_screen(server, browser):
    base, app = server
    tables = app.state.tables
    lobby = browser.new_context().new_page()
    links = make_table_in_the_lobby(lobby, base, seed=3)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    phone.goto(links[0])
    phone.wait_for_selector("#prompt button")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    # every card of the edition fits its tile, its title too (no word runs out of the tile)
    overflowing = phone.evaluate("""() => {
        const hand = document.getElementById('hand');
        const tiles = Object.keys(cards).map((id) => cardTile(id));
        hand.append(...tiles);
        const broken = (t) => {  // a one-word title on two lines: the word was cut
            const title = t.querySelector('.title');
            return !/\\s/.test(title.textContent.trim())
                && title.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(title).lineHeight);
        };
        const wide = tiles.filter((t) => t.scrollWidth > t.clientWidth + 1 || broken(t)).map((t) => t.dataset.card);
        tiles.forEach((t) => t.remove());
        return wide;
    }""")
    assert overflowing == [], f"card titles wider than their tiles on a phone: {overflowing}"
    card = phone.locator("#hand .card").first
    card.tap()  # a tap shows the card's text, under the hand
    assert phone.locator("#card-detail").is_visible()
    room = tables.rooms[links[0].split("/room/")[1].split("#")[0]]
    card_id = card.get_attribute("data-card")
    assert phone.locator("#card-detail p").inner_text() == room.game.edition.cards[card_id].text
    shot(phone, "phone")


def test_a_click_lost_with_the_connection_leaves_the_buttons_live(server, browser):
    """A person clicks just as the connection drops: the click never reaches the server.
    Once the page is connected again, the same question must have live buttons (a page
    that kept them greyed out left its person stuck until a reload)."""
    base, app = server
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    lobby = page.request.get(base + "/api/lobby").json()
    key = next(e["key"] for e in lobby["rulesets"] if e["name"] == "Exploding Kittens (Original Edition)")
    made = page.request.post(base + "/api/rooms", data={"ruleset": key, "players": 2,
                                                        "seats": ["person", "random"], "seed": 4}).json()
    room = app.state.tables.rooms[made["room"]]
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_selector("#prompt button:enabled")
    history = len(room.state.history)
    # the connection drops as the person clicks (in one go: once the page knows it is
    # offline its buttons are off, and a click cannot be made at all)
    page.evaluate("socket.close(); document.querySelector('#prompt button').click()")
    assert page.locator("#connection").is_visible()
    page.wait_for_function("document.querySelectorAll('#prompt button:disabled').length === 0", timeout=10000)
    assert len(room.state.history) == history, "the lost click reached the server"
    assert page.locator("#prompt button:enabled").count() == page.locator("#prompt button").count() > 0
    page.locator("#prompt button", has_text="Draw a card").click()  # and a click now counts
    deadline = time.monotonic() + 10
    while len(room.state.history) == history:
        assert time.monotonic() < deadline, "the click after the reconnection did not count"
        time.sleep(0.05)


def in_sight(page, selector: str) -> bool:
    """Whether the element's top edge is inside the viewport."""
    return page.evaluate(f"""() => {{
        const box = document.querySelector({json.dumps(selector)}).getBoundingClientRect();
        return box.top >= 0 && box.top < window.innerHeight;
    }}""")


def below_the_header(page, selector: str) -> bool:
    """Whether the element starts below the pinned header (not hidden behind it)."""
    return page.evaluate(f"""() => document.querySelector({json.dumps(selector)}).getBoundingClientRect().top
        >= document.getElementById('top').getBoundingClientRect().bottom - 1""")


def test_a_phone_scrolled_down_still_sees_the_window_and_its_turn(server, browser):
    """A person on a phone reading the log (scrolled to the bottom) must see a reaction window
    as it opens (it runs on a clock) and the question when their turn comes."""
    base, app = server
    lobby = browser.new_context().new_page()
    links = make_table_in_the_lobby(lobby, base, seed=3)
    room = app.state.tables.rooms[links[0].split("/room/")[1].split("#")[0]]
    actor = room.state.table.current
    watcher = 1 - actor
    laptop = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    laptop.goto(links[actor])
    # a small phone (an iPhone SE's screen), so the page is longer than the screen
    phone = browser.new_context(viewport={"width": 375, "height": 600}, is_mobile=True, has_touch=True).new_page()
    phone.goto(links[watcher])
    phone.wait_for_selector("#hand .card")
    laptop.wait_for_selector("#prompt button:enabled")
    # three cards a row on a phone, none wider than the screen
    tops = phone.evaluate("[...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect().top)")
    assert len(tops) >= 3 and tops[0] == tops[1] == tops[2], "fewer than three cards a row on a phone"
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert not in_sight(phone, "#hand"), phone.evaluate("[document.body.scrollHeight, window.scrollY]")
    plays = laptop.locator("#prompt button:enabled").filter(has_text=re.compile(r"^Play "))
    assert plays.count(), "the first player has a card to play with this seed"
    plays.first.click()
    phone.wait_for_selector("#window", state="visible")
    assert in_sight(phone, "#window"), "the reaction window opened out of sight"
    assert below_the_header(phone, "#window"), "the reaction window is behind the pinned header"
    shot(phone, "phone-window-scrolled")
    phone.locator("#window-options button", has_text="Pass").click()
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # back to the log
    deadline = time.monotonic() + 20
    while not phone.locator("#prompt").is_visible():
        assert time.monotonic() < deadline, "the phone's turn never came"
        if laptop.locator("#window-options button:enabled").count():
            laptop.locator("#window-options button:enabled", has_text="Pass").click()
        elif laptop.locator("#prompt button:enabled").count():
            draw = laptop.locator("#prompt button:enabled", has_text="Draw a card")
            (draw if draw.count() else laptop.locator("#prompt button:enabled")).first.click()
        laptop.wait_for_timeout(100)
    phone.wait_for_timeout(200)
    assert in_sight(phone, "#prompt"), phone.evaluate(
        "[document.getElementById('prompt').getBoundingClientRect().top, window.scrollY, window.innerHeight]")
    assert below_the_header(phone, "#prompt"), "the question is behind the pinned header"
    shot(phone, "phone-turn-scrolled")


def test_a_seat_link_cut_short_says_so_and_offers_to_watch(server, browser):
    """A link cut short on its way (chat apps do) opens no seat: the page says so for good,
    not in a note that fades after a few seconds and leaves an empty table."""
    base, app = server
    page = browser.new_context(viewport={"width": 390, "height": 700}).new_page()
    lobby = make_table_in_the_lobby(browser.new_context().new_page(), base, seed=5)
    page.goto(lobby[0][:-6])  # the seat's link, its token cut short
    page.wait_for_selector("#stopped", state="visible")
    page.wait_for_timeout(5600)
    notice = page.locator("#stopped")
    assert notice.is_visible() and "not valid" in notice.inner_text(), "the refusal faded away"
    assert not page.locator("#hand").is_visible()
    assert page.locator("#rules").get_attribute("href").endswith("/rules")
    shot(page, "seat-link-cut-short")
    notice.locator("a", has_text="watch the table").click()
    page.wait_for_selector("#seats .seat")
    assert page.locator("#who").inner_text() == "Watching"


SCORED_HOUSE_RULE = """\
format: 1
kind: edition
id: quick_points
name: Quick Points
extends: original
counters:
  points: {start: 2}
triggers:
  - {id: bonus, on: game_start, text: The first player starts with a bonus point., effect: 'add_counter("points", 1)'}
win:
  score: counter("points")
  ends_when: count(draw_pile) < 100
"""


def test_a_game_won_on_points_shows_counters_and_scores(server, browser, tmp_path):
    """Counters stand in every seat's box, and the final scores under "Game over"."""
    base, _app = server
    page = browser.new_context().new_page()
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    rules = tmp_path / "quick_points.yaml"
    rules.write_text(SCORED_HOUSE_RULE, encoding="utf-8")
    page.set_input_files("#files", str(rules))
    page.wait_for_function("document.querySelector('#upload-status').innerText.includes('Ready to play')")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.select_option("#seat-0", "person")
    page.select_option("#seat-1", "person")
    page.click("#create")
    page.wait_for_selector("#links a")
    link = [a.get_attribute("href") for a in page.locator("#links a").all() if "#seat=" in a.get_attribute("href")][0]
    table = browser.new_context().new_page()
    table.goto(link)
    table.wait_for_function("!document.getElementById('over').hidden")
    assert table.locator("#seats .seat[data-seat='0'] .counters").inner_text() == "points: 3"
    assert table.locator("#seats .seat[data-seat='1'] .counters").inner_text() == "points: 2"
    over = table.locator("#over").inner_text()
    assert "you win" in over and "Scores:" in over and " 3" in over and " 2" in over
    assert "Final scores" in table.locator("body").inner_text()  # the log's line
    shot(table, "scores")
