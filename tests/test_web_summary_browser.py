"""The end-of-game summary at the web table (issue 43), in headless Chromium: two people
(a laptop and a phone) and a bot play a short game to its end, read how it went in
words from their own side, play again, read their results across both games, and
find the summary in the replay."""

from __future__ import annotations

import re
import time

import pytest
from chromium import shot

pytestmark = pytest.mark.timeout(240)

#: the Original with a small deck and two cards a hand: a game of a dozen turns
SHORT = """\
format: 1
kind: edition
id: short_fuse
name: Short Fuse
extends: original
set_counts: {attack: 0, favor: 0, shuffle: 0, skip: 0, see_the_future: 0, tacocat: 0, cattermelon: 0,
             hairy_potato_cat: 2, beard_cat: 2, rainbow_ralphing_cat: 2, nope: 3}
set_params: {hand_size: 2}
"""


def press(page) -> bool:
    """One click a person would make: Pass in a window, else draw, else the first button
    (False when there is nothing to click, or it went away under the pointer: a window
    that closed, a prompt answered from elsewhere)."""
    from playwright.sync_api import Error

    passing = page.locator("#window-options button:enabled", has_text="Pass")
    buttons = page.locator("#prompt button:enabled")
    draw = buttons.filter(has_text="Draw a card")
    for target in (passing, draw, buttons):
        if target.count() and target.first.is_visible():
            try:
                target.first.click(timeout=1500)
            except Error:
                return False
            return True
    return False


def play_to_the_end(pages, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while not all(page.locator("#summary").is_visible() for page in pages):
        assert time.monotonic() < deadline, "the game did not end"
        if not any(press(page) for page in pages):
            time.sleep(0.05)


def lines(page) -> list[str]:
    return page.locator("#summary li").all_inner_texts()


def test_the_summary_at_the_end_across_a_rematch_and_in_the_replay(server, browser):
    base, _app = server
    laptop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    uploaded = laptop.request.post(base + "/api/uploads", data={"files": [{"name": "short_fuse.yaml", "text": SHORT}]})
    assert uploaded.ok, uploaded.text()
    key = uploaded.json()["playable"][0]["key"]
    made = laptop.request.post(base + "/api/rooms", data={"ruleset": key, "players": 3, "seed": 2,
                                                          "seats": ["person", "person", "random"]}).json()
    laptop.goto(base + made["seats"][0]["link"])
    phone.goto(base + made["seats"][1]["link"])
    for page, name in ((laptop, "Ana"), (phone, "Ben")):
        page.fill("#name-input", name)
        page.locator("#name-form button").click()
        page.wait_for_selector("#name-form", state="hidden")
    play_to_the_end([laptop, phone])
    ana, ben = lines(laptop), lines(phone)
    assert any(re.fullmatch(r"(You|Ben|Seat 2 \(random bot\)) went out on turn \d+, to the Exploding Kitten\.", line)
               for line in ana), ana
    assert any(line.endswith(" win.") or line.endswith(" wins.") for line in ana), ana
    assert re.fullmatch(r"The game lasted \d+ turns\.", ana[-1]) and ana[-1] == ben[-1]
    # each reads the game from their own side: "you" for oneself, the name for the other
    assert any(line.startswith("You ") for line in ana) and not any(line.startswith("Ana ") for line in ana)
    assert any(line.startswith("Ana ") for line in ben) and not any(line.startswith("Ben ") for line in ben)
    assert len(ana) == len(ben)  # the same facts, said from two sides
    shot(laptop, "summary-laptop")
    shot(phone, "summary-phone")
    # the replay keeps it: the last step shows the summary
    replay = laptop.context.new_page()
    replay.goto(base + f"/room/{made['room']}/replay")
    replay.wait_for_selector("#controls", state="visible")
    replay.locator("#last").click()
    replay.wait_for_selector("#summary", state="visible")
    assert re.fullmatch(r"The game lasted \d+ turns\.", replay.locator("#summary li").last.inner_text())
    shot(replay, "summary-replay")
    replay.locator("#first").click()
    assert not replay.locator("#summary").is_visible()  # only at the end
    replay.select_option("#seat", "0")  # as Ana saw it: her hand at the deal, with the cards' faces
    replay.wait_for_selector("#hand .card")
    tiles = replay.locator("#hand .card")
    assert tiles.count() > 0 and replay.locator("#hand .card.faced img.face").count() == tiles.count()
    shot(replay, "summary-replay-deal")
    # play again: the next game's summary tallies each person's results across both games
    laptop.wait_for_selector("#rematch:enabled")
    laptop.locator("#rematch").click()
    for page in (laptop, phone):
        page.wait_for_url(re.compile(r"/room/(?!%s)" % re.escape(made["room"])))
        page.wait_for_selector("#seats .seat.me")
    play_to_the_end([laptop, phone])
    series = [line for line in lines(laptop) if line.startswith("Across this table's 2 games: ")]
    assert len(series) == 1, lines(laptop)
    tally = dict(re.findall(r"(you|Ben|Seat \d \(random bot\)) (\d) wins?", series[0]))
    assert set(tally) == {"you", "Ben", next(k for k in tally if k.startswith("Seat"))}
    assert sum(map(int, tally.values())) == 2  # one winner a game
    assert any(line.startswith("Across this table's 2 games: ") and "Ana" in line for line in lines(phone))
    shot(laptop, "summary-rematch-laptop")
