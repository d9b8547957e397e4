"""The web table as players expect it, in Debian's Chromium (Playwright), each test on a
desktop screen and on a 390x844 phone: the turn, owed turns and the draw pile pinned in
sight; one tapped card open at a time without a tall row; a lobby that does not scroll
sideways after a long house-rule name; a reaction window that goes quiet (buttons off,
clock paused) while the server is down, with its seconds shown; names, presence and an
escaped chat; a one-click rematch; motion and sound, off with reduced motion; the replay
viewer on a lab log. Screenshots go to tests/artifacts/web/ (ignored by git).

The servers are uvicorn on 127.0.0.1, in threads of this process (the shared `server`
and `browser` fixtures are in conftest.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from chromium import ARTIFACTS, shot  # noqa: E402
from webtable import serve_in_thread  # noqa: E402

from kittens.interpreter.engine.game import Game  # noqa: E402
from kittens.interpreter.rules import plugins  # noqa: E402
from kittens.interpreter.rules.load import load_edition  # noqa: E402
from kittens.web.app import Settings, create_app  # noqa: E402

SIZES = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}
ORIGINAL = "Exploding Kittens (Original Edition)"
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


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


def new_page(browser, size, **extra):
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone, **extra)
    return context.new_page()


def original():
    return load_edition(plugins.shipped("original"))


def seed_where(test) -> int:
    """The first seed whose deal (two players) passes ``test(state)``."""
    game = Game(original(), 2)
    return next(seed for seed in range(1, 500) if test(game.new_state(seed)))


def make_room(page, base, seats, seed, name=ORIGINAL):
    lobby = page.request.get(base + "/api/lobby").json()
    key = next(e["key"] for e in lobby["rulesets"] if e["name"] == name)
    made = page.request.post(base + "/api/rooms", data={"ruleset": key, "players": len(seats),
                                                        "seats": seats, "seed": seed})
    assert made.ok, made.text()
    return made.json()


def in_sight(page, selector: str) -> bool:
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
    }""", selector)


def pass_windows(*pages, seconds=4.0):
    """Every page passes in the open reaction windows, until none is open for a moment."""
    deadline, quiet = time.monotonic() + seconds, 0
    while time.monotonic() < deadline and quiet < 3:
        busy = False
        for page in pages:
            button = page.locator("#window-options button:enabled", has_text="Pass")
            if page.locator("#window").is_visible():
                busy = True
                if button.count():
                    button.first.click()
        quiet = 0 if busy else quiet + 1
        pages[0].wait_for_timeout(150)


def test_the_turn_owed_turns_and_the_pile_stay_in_sight(server, browser, size):
    base, app = server
    seed = seed_where(lambda s: any(i.id == "attack" for i in s.table.hands[s.table.current].cards))
    first = Game(original(), 2).new_state(seed).table.current
    pages = [new_page(browser, size), new_page(browser, size)]
    made = make_room(pages[0], base, ["person", "person"], seed)
    for seat, page in enumerate(pages):
        page.goto(base + made["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
    attacker, attacked = pages[first], pages[1 - first]
    attacked.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert in_sight(attacked, "#status") and in_sight(attacked, "#turn") and in_sight(attacked, "#pile-count")
    assert "Seat %d's turn" % first in attacked.locator("#turn").inner_text()
    pile = app.state.tables.rooms[made["room"]].state.table.draw_pile.cards
    assert attacked.locator("#pile-count").inner_text() == f"Draw pile: {len(pile)} cards"
    assert attacked.locator(f"#seats .seat[data-seat='{first}'] .turn-mark").count() == 1
    attacker.locator("#prompt button:enabled", has_text="Attack").first.click()
    pass_windows(*pages)
    attacked.wait_for_function("document.getElementById('owed').innerText === 'you owe 2 turns'", timeout=10000)
    attacker.wait_for_function("document.getElementById('owed').innerText === 'owes 2 turns'", timeout=10000)
    attacked.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    attacked.wait_for_timeout(200)
    assert in_sight(attacked, "#owed") and in_sight(attacked, "#turn")
    assert attacked.locator("#turn").inner_text().endswith("your turn")
    shot(attacked, f"owed-turns-scrolled-{size}")
    # what the person sees, scrolled down to the log: the header still on top
    attacked.screenshot(path=str(ARTIFACTS / f"owed-turns-in-sight-{size}.png"))


def test_a_tap_opens_that_card_only_and_the_row_keeps_its_height(server, browser, size):
    base, _app = server
    # the seat that waits holds two copies of a card
    seed = seed_where(lambda s: (lambda ids: len(ids) > len(set(ids)))(
        [i.id for i in s.table.hands[1 - s.table.current].cards]))
    first = Game(original(), 2).new_state(seed).table.current
    pages = [new_page(browser, size), new_page(browser, size)]
    made = make_room(pages[0], base, ["person", "person"], seed)
    for seat, page in enumerate(pages):
        page.goto(base + made["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
    page = pages[1 - first]
    ids = page.locator("#hand .card").evaluate_all("(tiles) => tiles.map((t) => t.dataset.card)")
    twin = next(card for card in ids if ids.count(card) > 1)
    heights = page.locator("#hand").evaluate("(hand) => hand.getBoundingClientRect().height")
    tile = page.locator(f"#hand .card[data-card='{twin}']").first
    tile.tap() if size == "phone" else tile.click()
    assert page.locator("#hand .card.open").count() == 1
    detail = page.locator("#card-detail")
    assert detail.is_visible() and original().cards[twin].text in detail.inner_text()
    assert page.locator("#hand").evaluate("(hand) => hand.getBoundingClientRect().height") == heights
    # the other seat draws: the hand is drawn again, and still one tile is open
    pages[first].locator("#prompt button:enabled", has_text="Draw a card").click()
    page.wait_for_function("document.getElementById('turn').innerText.endsWith('your turn')", timeout=10000)
    assert page.locator("#hand .card.open").count() == 1
    shot(page, f"card-open-{size}")
    page.locator("#hand .card.open").click()  # a second tap closes it
    assert page.locator("#hand .card.open").count() == 0 and not detail.is_visible()


def test_a_long_house_rule_name_does_not_widen_the_lobby(server, browser, size, tmp_path):
    base, _app = server
    page = new_page(browser, size)
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    rules = tmp_path / "a_house_rule_with_a_rather_long_file_name_for_a_phone.yaml"
    rules.write_text(ENDS_AT_ONCE.replace("name: Quick Points",
                                          "name: Quick Points For The Whole Family And Friends On Holiday"),
                     encoding="utf-8")
    page.set_input_files("#files", str(rules))
    page.wait_for_function("document.querySelector('#upload-status').innerText.includes('Ready to play')")
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the lobby scrolls sideways: {width}"
    shot(page, f"lobby-long-name-{size}")


def test_a_window_goes_quiet_while_the_server_is_down(browser, size, tmp_path):
    settings = Settings(data=str(tmp_path / "serve"), answer_seconds=60, bot_delay=0.1)
    seed = seed_where(lambda s: any(i.id == "attack" for i in s.table.hands[s.table.current].cards))
    first = Game(original(), 2).new_state(seed).table.current
    pages = [new_page(browser, size), new_page(browser, size)]
    with serve_in_thread(create_app(settings), uvicorn) as base:
        made = make_room(pages[0], base, ["person", "person"], seed)
        for seat, page in enumerate(pages):
            page.goto(base + made["seats"][seat]["link"])
            page.wait_for_selector("#hand .card")
        pages[first].locator("#prompt button:enabled", has_text="Attack").first.click()
        page = pages[1 - first]
        page.wait_for_selector("#window-options button:enabled")
        seconds = page.locator("#window-seconds").inner_text()
        assert re.fullmatch(r"\d+ s", seconds) and 50 <= int(seconds.split()[0]) <= 60, seconds
    # the server is down
    page.wait_for_selector("#connection", state="visible", timeout=15000)
    assert page.locator("#window-options button:enabled").count() == 0, "a click now would be lost"
    width = page.locator("#window-timer").evaluate("(bar) => bar.style.width")
    page.wait_for_timeout(1500)
    assert page.locator("#window-timer").evaluate("(bar) => bar.style.width") == width, "the clock ran on"
    assert page.locator("#window-seconds").inner_text() == "paused"
    shot(page, f"server-down-{size}")


def test_names_presence_and_chat(server, browser, size):
    base, _app = server
    pages = [new_page(browser, size), new_page(browser, size)]
    made = make_room(pages[0], base, ["person", "person", "random"], seed=9)
    for seat, page in enumerate(pages):
        page.goto(base + made["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
    ann, ben = pages
    assert ann.locator("#name-form").is_visible()
    ann.fill("#name-input", "Ann")
    ann.locator("#name-form button").click()
    ann.wait_for_selector("#name-form", state="hidden")
    ben.wait_for_function("document.querySelector(\"#seats .seat[data-seat='0'] .name .label\").innerText === 'Ann'")
    assert ben.locator("#seats .seat[data-seat='0'] .presence.online").count() == 1
    assert ben.locator("#seats .seat[data-seat='2'] .presence.bot").count() == 1
    ann.reload()  # the name stays with the seat
    ann.wait_for_selector("#hand .card")
    assert ann.locator("#who").inner_text() == "You are Ann" and not ann.locator("#name-form").is_visible()
    watcher = new_page(browser, size)
    watcher.goto(base + made["spectate"])
    ann.wait_for_function("document.getElementById('watchers').textContent === '(1 watching)'")
    attack = '<img src=x onerror="window.pwned = 1"><script>window.pwned = 2</script>'
    ben.fill("#chat-text", attack)
    ben.locator("#chat-form button").click()
    for page in (ann, watcher):
        page.wait_for_function("document.getElementById('chat-lines').innerText.includes('Seat 1: <img')")
        assert page.evaluate("window.pwned === undefined") and page.locator("#chat-lines img").count() == 0
    assert not watcher.locator("#chat-form").is_visible()  # spectators read
    ben.close()
    ann.wait_for_selector("#seats .seat[data-seat='1'] .presence.away")
    shot(ann, f"names-chat-{size}")


def test_one_click_starts_the_next_game_with_the_same_links(server, browser, size, tmp_path):
    base, _app = server
    page = new_page(browser, size)
    rules = tmp_path / "quick_points.yaml"
    rules.write_text(ENDS_AT_ONCE, encoding="utf-8")
    uploaded = page.request.post(base + "/api/uploads", data={"files": [{"name": rules.name, "text": ENDS_AT_ONCE}]})
    assert uploaded.ok, uploaded.text()
    key = uploaded.json()["playable"][0]["key"]
    made = page.request.post(base + "/api/rooms", data={"ruleset": key, "players": 2,
                                                        "seats": ["person", "person"], "seed": 1}).json()
    other = new_page(browser, size)
    other.goto(base + made["seats"][1]["link"])
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_selector("#rematch", state="visible")
    page.fill("#name-input", "Ann")
    page.locator("#name-form button").click()
    page.wait_for_selector("#name-form", state="hidden")
    page.locator("#rematch").click()
    page.wait_for_url(re.compile(r"/room/(?!%s)" % re.escape(made["room"])))
    page.wait_for_selector("#over", state="visible")
    token = made["seats"][0]["link"].split("#")[1]
    assert page.url.endswith("#" + token)  # the same link opens the next game's seat
    assert page.locator("#who").inner_text() == "You are Ann"
    assert page.locator("#seats .seat.me").get_attribute("data-seat") == "1"  # one seat on
    other.wait_for_url(re.compile(r"/room/(?!%s)" % re.escape(made["room"])))  # the other page followed
    other.wait_for_selector("#seats .seat.me")
    assert other.locator("#seats .seat.me").get_attribute("data-seat") == "0"
    shot(page, f"rematch-{size}")


def test_motion_and_sound_and_reduced_motion(server, browser, size):
    base, _app = server
    calm = ("shuffle", "see_the_future")  # cards whose play leaves the turn going
    seed = seed_where(lambda s: s.table.current == 0 and any(i.id in calm for i in s.table.hands[0].cards))
    for reduced in (False, True):
        page = new_page(browser, size, reduced_motion="reduce" if reduced else "no-preference")
        page.add_init_script("localStorage.setItem('kittens-sound', 'on')")
        made = make_room(page, base, ["person", "random"], seed)
        page.goto(base + made["seats"][0]["link"])
        page.wait_for_selector("#prompt button:enabled")
        assert page.locator("#sound").is_checked()
        page.evaluate("""() => {
            motion.moved = 0;
            const fly = motion.fly;
            motion.fly = (...args) => { motion.moved++; return fly(...args); };
        }""")
        # a card played flies from the hand to the discard pile
        playable = re.compile(r"^Play (Shuffle|See the Future)")
        page.locator("#prompt button:enabled").filter(has_text=playable).first.click()
        page.wait_for_function("document.querySelector('#prompt button:enabled') && "
                               "document.getElementById('prompt-question').innerText.startsWith('Your turn')",
                               timeout=15000)
        ghosts = page.evaluate("motion.ghosts || 0")
        page.locator("#prompt button:enabled", has_text="Draw a card").click()
        page.wait_for_function("document.getElementById('log').innerText.includes('You drew')")
        page.wait_for_timeout(100)
        marked = page.evaluate("""() => [...document.querySelectorAll('#log p')].map(
            (p) => [p.className, p.innerText])""")
        assert [c for c, _ in marked].count("latest") == 1 and marked[-1][0] == "latest", marked
        animation = page.evaluate("getComputedStyle(document.querySelector('#log p.latest')).animationName")
        beeps = page.evaluate("motion.beeps || 0")
        moved = page.evaluate("motion.moved")
        if reduced:
            # nothing moves; the tone is sound, not motion: it still plays (issue 43)
            assert animation == "none" and beeps >= 1 and moved == 0 and ghosts == 0
        else:
            assert animation == "glow" and beeps >= 1 and moved >= 1 and ghosts == 1


def test_the_replay_viewer_steps_through_a_lab_game(server, browser, size, tmp_path):
    base, _app = server
    log = tmp_path / "lab.jsonl"
    subprocess.run([sys.executable, "-m", "kittens", "run", "original", "--games", "2", "--players", "3",
                    "--seed", "4", "--log", str(log)], check=True, capture_output=True, timeout=120)
    page = new_page(browser, size)
    page.goto(base + "/replay")
    page.set_input_files("#file", str(log))
    page.wait_for_selector("#controls", state="visible")
    assert page.locator("#step-label").inner_text() == f"Step 0 of {page.evaluate('data.steps.length') - 1} (the deal)"
    assert page.locator("#seat").input_value() == "all"
    everyone = page.locator("#seats .seat .chip").count()
    assert page.locator("#seats .seat").count() == 3 and everyone >= 3 * 7
    page.locator("#forward").click()
    page.locator("#forward").click()
    assert page.locator("#step-label").inner_text().startswith("Step 2 of")
    marked = page.locator("#log p.step")
    assert marked.count() >= 1 and re.match(r"line \d+", marked.first.locator(".lineno").inner_text())
    shot(page, f"replay-everyone-{size}")
    page.locator("#back").click()
    assert page.locator("#step-label").inner_text().startswith("Step 1 of")
    page.select_option("#seat", "1")  # as one seat: its own hand, no other hand's cards
    page.wait_for_function("document.getElementById('seat').value === '1' && "
                           "!document.getElementById('hand-box').hidden")
    assert page.locator("#hand .card").count() >= 7
    # what seat 1 knows of the other hands (the Defuse each was dealt), not the hands
    assert page.locator("#seats .seat .chip").count() < everyone / 3
    assert page.locator("#step-label").inner_text().startswith("Step 1 of")
    page.select_option("#game", "2")
    page.wait_for_function("data.game === 2")
    page.locator("#last").click()
    assert page.locator("#next").inner_text() == "The game is over."
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"replay-seat-{size}")
