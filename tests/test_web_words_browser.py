"""Words from each reader's side at the web table (issue 43), in headless Chromium: a
laptop and a phone at one table read whom the table waits for, a name chosen later in
the lines before it, and a Favor's card asked for and given in plain words."""

from __future__ import annotations

import re

import pytest
from chromium import shot

from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import load_edition

pytestmark = pytest.mark.timeout(120)


def favor_seed() -> int:
    """A seed where seat 0 plays first and may play a Favor."""
    game = Game(load_edition("original"), 2)
    return next(seed for seed in range(300) if game.new_state(seed).table.current == 0
                and "play favor" in game.new_state(seed).decision().options)


def log(page) -> list[str]:
    return page.locator("#log p").all_inner_texts()


def test_waiting_names_and_a_favor_read_right_on_both_screens(server, browser):
    base, _app = server
    laptop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    lobby = laptop.request.get(base + "/api/lobby").json()
    key = next(e["key"] for e in lobby["rulesets"] if e["name"] == "Exploding Kittens (Original Edition)")
    made = laptop.request.post(base + "/api/rooms", data={"ruleset": key, "players": 2, "seed": favor_seed(),
                                                          "seats": ["person", "person"]}).json()
    laptop.goto(base + made["seats"][0]["link"])
    phone.goto(base + made["seats"][1]["link"])
    phone.wait_for_selector("#waiting-for", state="visible")
    assert phone.locator("#waiting-for").inner_text() == "Waiting for Seat 0..."
    assert not laptop.locator("#waiting-for").is_visible()  # its own turn: the question, not a wait
    assert "Turn 1: Seat 0." in log(phone)
    # the first player chooses a name: the lines before it say it too
    laptop.fill("#name-input", "Ana")
    laptop.locator("#name-form button").click()
    phone.wait_for_function("document.getElementById('waiting-for').innerText === 'Waiting for Ana...'")
    phone.wait_for_function("[...document.querySelectorAll('#log p')].some((p) => p.innerText === 'Turn 1: Ana.')")
    assert not any("Seat 0" in line for line in log(phone)), log(phone)
    assert log(phone).count("The cards are dealt.") == 1  # the log sent again, not added twice
    phone.fill("#name-input", "Ben")
    phone.locator("#name-form button").click()
    phone.wait_for_selector("#name-form", state="hidden")
    # Ana plays her Favor; Ben is asked for a card, in words that say whose and what for
    laptop.locator("#prompt button:enabled", has_text="Play Favor").click()
    pass_button = phone.locator("#window-options button", has_text="Pass")
    try:
        pass_button.click(timeout=3000)
    except Exception:  # the window closed on its own
        pass
    phone.wait_for_function("document.getElementById('prompt-question').innerText"
                            " === \"Ana's Favor: give Ana a card of your choice.\"")
    assert laptop.locator("#waiting-for").inner_text() == "Waiting for Ben..."
    shot(phone, "words-favor-asked-phone")
    shot(laptop, "words-favor-waiting-laptop")
    phone.locator("#prompt button:enabled").first.click()
    phone.wait_for_function("[...document.querySelectorAll('#log p')].some((p) => p.innerText.startsWith('You gave '))")
    gave = next(line for line in log(phone) if line.startswith("You gave "))
    card = re.fullmatch(r"You gave (.+) to Ana\.", gave).group(1)
    laptop.wait_for_function(f"[...document.querySelectorAll('#log p')].some((p) => p.innerText === "
                             f"'You took {card} from Ben.')")
    assert not any("took" in line and "from you" in line for line in log(phone))  # a gift, not a theft
    shot(phone, "words-favor-given-phone")


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_card_given_flies_in_from_the_givers_seat(server, browser, size):
    """Issue 43: every card that came to a hand flew in from the draw pile, a Favor's too."""
    base, _app = server
    viewport = {"width": 1280, "height": 800} if size == "laptop" else {"width": 390, "height": 844}
    ana = browser.new_context(viewport=viewport).new_page()
    ben = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    lobby = ana.request.get(base + "/api/lobby").json()
    key = next(e["key"] for e in lobby["rulesets"] if e["name"] == "Exploding Kittens (Original Edition)")
    made = ana.request.post(base + "/api/rooms", data={"ruleset": key, "players": 2, "seed": favor_seed(),
                                                       "seats": ["person", "person"]}).json()
    ana.goto(base + made["seats"][0]["link"])
    ben.goto(base + made["seats"][1]["link"])
    ana.locator("#prompt button:enabled", has_text="Play Favor").click()
    try:
        ben.locator("#window-options button", has_text="Pass").click(timeout=3000)
    except Exception:  # the window closed on its own
        pass
    ben.wait_for_function("document.getElementById('prompt-question').innerText.includes('Favor')")
    before = ana.evaluate("(motion.arrivals || []).length")
    ben.locator("#prompt button:enabled").first.click()
    ana.wait_for_function(f"(motion.arrivals || []).length > {before}", timeout=5000)
    assert ana.evaluate("motion.arrivals")[before:] == [1]  # from seat 1, Ben's, not the pile
    shot(ana, f"words-favor-flies-from-the-giver-{size}")
    ana.locator("#prompt button:enabled", has_text="Draw").click()
    ana.wait_for_function(f"(motion.arrivals || []).length > {before + 1}", timeout=5000)
    assert ana.evaluate("motion.arrivals")[before + 1] == "pile"  # a drawn card: from the pile
