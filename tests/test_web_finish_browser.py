"""The web table's last points of issue 43, in headless Chromium at a laptop's 1280x800
and a phone's 390x844: text reads at a contrast of at least 4.5:1 on every page (the
red button's hint, the replay's later lines, seats that are out, greyed buttons); the
replay's first and last buttons are drawn (SVG, not a font's glyphs) and it shows names
and scores; the turn sound plays with reduced motion on. Screenshots go to
tests/artifacts/web/.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from chromium import shot  # noqa: E402

pytestmark = pytest.mark.timeout(180)
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: every element with text of its own that is in sight, with its text's colour and the
#: colour under it as drawn: backgrounds stacked up, each opacity blending its group
#: into what lies behind it (text clipped to a pixel, for screen readers only, is not drawn;
#: nor is a card flying to the pile, aria-hidden, which fades as it goes and is gone in half a second)
CONTRAST = """
() => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const mix = (top, under, a) => [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a));
  const lum = (c) => {
    const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const found = [];
  for (const node of document.querySelectorAll("body *")) {
    if (["SCRIPT", "STYLE", "OPTION", "SELECT", "INPUT", "TEXTAREA"].includes(node.tagName)) continue;
    if (node.closest("svg, [aria-hidden=true]")) continue;
    const own = [...node.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join("").trim();
    if (!own) continue;
    const box = node.getBoundingClientRect(), style = getComputedStyle(node);
    if (box.width <= 1 || box.height <= 1 || style.visibility !== "visible" || !node.getClientRects().length) continue;
    const chain = [];
    for (let n = node; n; n = n.parentElement) chain.unshift(n);
    let bg = [255, 255, 255];
    const groups = [];
    for (const n of chain) {
      const s = getComputedStyle(n);
      if (Number(s.opacity) < 1) groups.push([Number(s.opacity), bg.slice()]);
      const b = parse(s.backgroundColor);
      if (b && b[3] > 0) bg = mix(b, bg, b[3]);
    }
    const color = parse(style.color);
    let fg = mix(color, bg, color[3]), back = bg;
    for (let i = groups.length - 1; i >= 0; i--) {
      fg = mix(fg, groups[i][1], groups[i][0]);
      back = mix(back, groups[i][1], groups[i][0]);
    }
    const [hi, lo] = [lum(fg), lum(back)].sort((a, b) => b - a);
    found.push({ text: own.slice(0, 40), tag: node.tagName, cls: String(node.className),
                 ratio: (hi + 0.05) / (lo + 0.05) });
  }
  return found;
}
"""


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


def new_page(browser, size, **extra):
    phone = size == "phone"
    return browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone, **extra).new_page()


def original(page, base) -> str:
    lobby = page.request.get(base + "/api/lobby").json()
    return next(e["key"] for e in lobby["rulesets"] if e["name"] == "Exploding Kittens (Original Edition)")


def table(page, base, seats, seed=3, ruleset=None, **extra):
    made = page.request.post(base + "/api/rooms", data={"ruleset": ruleset or original(page, base),
                                                        "players": len(seats), "seats": list(seats), "seed": seed,
                                                        **extra})
    assert made.ok, made.text()
    return made.json()


def low_contrast(page) -> list:
    return [f"{e['tag']}.{e['cls']} {e['text']!r}: {e['ratio']:.2f}" for e in page.evaluate(CONTRAST)
            if e["ratio"] < 4.5]


def bots_game(page, base):
    """A finished game of three bots, as a watcher sees it: two seats are out."""
    made = table(page, base, ["random", "random", "random"])
    page.goto(base + f"/room/{made['room']}")
    page.wait_for_selector("#over:not([hidden])", timeout=60000)
    return made


def test_text_reads_at_4_5_to_1_on_every_page(server, browser, size):
    """The lobby, a person's turn (the red button's hint), a finished table with seats
    that are out, and its replay at the deal (every later line greyed, First and Back
    greyed out): no text below 4.5:1 against what is under it."""
    base, _app = server
    page = new_page(browser, size)
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    assert low_contrast(page) == []
    waiting = table(page, base, ["person", "person"], wait=True)  # the waiting room
    page.goto(base + waiting["seats"][0]["link"])
    page.wait_for_selector("#waiting:not([hidden]) #ready")
    assert low_contrast(page) == []
    made = table(page, base, ["person", "random"])
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_selector("#prompt button.primary .hint", timeout=20000)
    assert low_contrast(page) == []
    shot(page, f"finish-contrast-turn-{size}")
    watcher = new_page(browser, size)
    bots_game(watcher, base)
    assert watcher.locator(".seat.out").count() == 2
    assert low_contrast(watcher) == []
    shot(watcher, f"finish-contrast-out-{size}")
    watcher.locator("#replay").click()
    watcher.wait_for_selector("#log p.later")
    assert watcher.locator("#first").is_disabled()
    assert low_contrast(watcher) == []
    shot(watcher, f"finish-contrast-replay-{size}")


def test_the_replay_draws_its_buttons_and_shows_names_and_scores(server, browser, size):
    """The first and last buttons are SVG drawings, not a glyph a machine's fonts may lack;
    each seat shows its chosen name and, at the end, its score."""
    base, _app = server
    page = new_page(browser, size)
    points = page.request.post(base + "/api/uploads", data={"files": [{"name": "points3.yaml", "text": POINTS}]})
    assert points.ok, points.text()
    made = table(page, base, ["person", "random"], ruleset=points.json()["playable"][0]["key"])
    page.goto(base + made["seats"][0]["link"])
    page.fill("#name-input", "Ana")
    page.locator("#name-form button").click()
    page.wait_for_selector("#name-form", state="hidden")
    page.wait_for_selector("#over:not([hidden])", timeout=20000)
    page.goto(base + f"/room/{made['room']}/replay")
    page.wait_for_selector("#seats .seat")
    for button in ("#first", "#last"):
        assert page.locator(f"{button} svg").count() == 1
        assert page.locator(button).inner_text().strip() == ""  # no glyph from a font
        assert page.locator(button).get_attribute("aria-label")
    first = page.locator("#first svg").bounding_box()
    assert first["width"] >= 12 and first["height"] >= 12
    assert "Ana" in page.locator("#seats .seat").first.inner_text()
    if page.locator("#last").is_enabled():  # (a game over once dealt has one step)
        page.locator("#last").click()
    page.wait_for_selector("#replay-scores:not([hidden])")
    scores = page.locator("#replay-scores").inner_text()
    assert "Ana 3" in scores and "3" in page.locator("#seats .seat").first.inner_text()
    shot(page, f"finish-replay-scores-{size}")


#: a house rule whose game is over once dealt, each player scoring 3
POINTS = """\
format: 1
kind: edition
id: points3
name: Points Three
extends: original
counters:
  points: {start: 3}
win:
  score: counter("points")
  ends_when: count(draw_pile) < 100
"""


def test_the_turn_sound_plays_with_reduced_motion(server, browser, size):
    """Reduced motion stops cards moving, not the tone a person switched on for their turn."""
    base, _app = server
    page = new_page(browser, size, reduced_motion="reduce")
    made = table(page, base, ["person", "random"])
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('kittens-sound', 'on')")
    page.goto(base + made["seats"][0]["link"])
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    page.wait_for_selector("#prompt button.primary", timeout=20000)
    page.wait_for_function("(motion.beeps || 0) >= 1", timeout=5000)


def test_the_rematch_keeps_the_tables_chat(server, browser, size):
    """Two people chat, then play again: the next game's page shows what was said, each
    line under its writer's name, one's own as "You"."""
    base, _app = server
    ann, ben = new_page(browser, size), new_page(browser, size)
    points = ann.request.post(base + "/api/uploads", data={"files": [{"name": "points3.yaml", "text": POINTS}]})
    made = table(ann, base, ["person", "person"], ruleset=points.json()["playable"][0]["key"])
    for seat, (page, name) in enumerate(((ann, "Ana"), (ben, "Ben"))):
        page.goto(base + made["seats"][seat]["link"])
        page.fill("#name-input", name)
        page.locator("#name-form button").click()
        page.wait_for_selector("#name-form", state="hidden")
    ann.fill("#chat-text", "good luck")
    ann.locator("#chat-form button").click()
    ann.wait_for_function("document.getElementById('chat-lines').innerText.includes('good luck')")
    ben.fill("#chat-text", "same to you")
    ben.locator("#chat-form button").click()
    ann.wait_for_function("document.getElementById('chat-lines').innerText.includes('same to you')")
    ann.wait_for_selector("#rematch:enabled").click()
    for page in (ann, ben):
        page.wait_for_url(lambda url: made["room"] not in url)
        page.wait_for_selector("#hand .card")
    ann.wait_for_function("document.getElementById('chat-lines').innerText.includes('same to you')")
    assert ann.locator("#chat-lines p").all_inner_texts() == ["You: good luck", "Ben: same to you"]
    assert ben.locator("#chat-lines p").all_inner_texts() == ["Ana: good luck", "You: same to you"]
    shot(ben, f"finish-rematch-chat-{size}")


def test_after_an_action_the_focus_goes_to_the_next_control(server, browser, size):
    """Played from the keyboard: Enter on Draw a card; when the table asks this person
    again, the focus is on the new question's first button, not lost to the page."""
    base, _app = server
    page = new_page(browser, size)
    made = table(page, base, ["person", "random"], seed=4)
    page.goto(base + made["seats"][0]["link"])
    for _ in range(2):
        draw = page.wait_for_selector("#prompt button.primary:enabled", timeout=20000)
        draw.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("document.activeElement && document.activeElement.closest('#prompt, #window, #over')"
                               " && !document.activeElement.disabled", timeout=20000)
    shot(page, f"finish-focus-{size}")


def test_teams_and_partners_are_marked_in_the_lobby_and_at_the_table(server, browser, size, tmp_path):
    """Partners (two teams, seated in turn): the lobby says each seat's team; at the table
    each seat shows its team and a player's partner is named as such."""
    from conftest import ROOT

    base, _app = server
    page = new_page(browser, size)
    page.goto(base + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    partners = (ROOT / "examples" / "house-rules" / "partners.yaml").read_text(encoding="utf-8")
    (tmp_path / "partners.yaml").write_text(partners.replace("extends: ../../editions/original.yaml",
                                                             "extends: original"), encoding="utf-8")
    page.set_input_files("#files", [str(tmp_path / "partners.yaml")])
    page.wait_for_function("document.querySelector('#upload-status').innerText.includes('Ready to play')")
    page.select_option("#ruleset", label="Partners (partners.yaml)")
    page.wait_for_selector("#teams-note:not([hidden])")
    assert "seats 0 and 2 against 1 and 3" in page.locator("#teams-note").inner_text()
    assert page.locator("label[for=seat-1]").inner_text() == "Seat 1 (team 2)"
    shot(page, f"finish-teams-lobby-{size}")
    for seat in range(4):
        page.select_option(f"#seat-{seat}", "person" if seat == 0 else "random")
    page.uncheck("#wait")
    page.click("#create")
    page.wait_for_selector("#links a")
    page.goto(page.locator("#links a").first.get_attribute("href"))
    page.wait_for_selector("#seats .seat .team-mark")
    marks = page.locator("#seats .seat .team-mark").all_inner_texts()
    assert marks == ["Team 1 (yours)", "Team 2", "Team 1: your partner", "Team 2"]
    assert page.locator("#seats .seat.team-0").count() == 2
    assert low_contrast(page) == []
    shot(page, f"finish-teams-table-{size}")


#: a hand limit of 3 (examples/house-rules/hand_limit.yaml's rule): the first turn's end asks
#: its player to discard down at once
HAND_LIMIT = """\
format: 1
kind: edition
id: small_hands
name: Small Hands
extends: original
add_params:
  hand_limit: 3
triggers:
  - id: discard_down
    on: turn_end
    text: At the end of your turn, discard cards of your choice until you hold no more than the hand limit.
    if: count(hand(me)) > rules.hand_limit
    effect: |
      for extra in top(hand(me), count(hand(me)) - rules.hand_limit) {
        discard(choose_card(hand(me)))
      }
"""


def test_while_a_seat_discards_down_the_header_shows_its_turn_ending(server, browser):
    """Ana draws and so ends her turn, then discards down to the hand limit: meanwhile the
    header on both screens (her laptop, Ben's phone) says her turn is ending, not that it
    is Ben's turn; once she is done, it is Ben's."""
    base, _app = server
    laptop, phone = new_page(browser, "laptop"), new_page(browser, "phone")
    upload = laptop.request.post(base + "/api/uploads",
                                 data={"files": [{"name": "small_hands.yaml", "text": HAND_LIMIT}]})
    assert upload.ok and upload.json()["playable"], upload.text()
    made = table(laptop, base, ["person", "person"], ruleset=upload.json()["playable"][0]["key"], seed=2)
    pages = (laptop, phone)
    for seat, page in enumerate(pages):
        page.goto(base + made["seats"][seat]["link"])
    laptop.wait_for_selector("#turn:text-matches('Turn 1')")
    first = 0 if "your turn" in laptop.locator("#turn").inner_text() else 1
    mover, other = pages[first], pages[1 - first]
    mover.locator("#prompt button:enabled", has_text="Draw a card").click()
    for _ in range(6):  # a drawn kitten is defused first
        mover.wait_for_selector("#prompt:not([hidden]) button:enabled", timeout=20000)
        if "discard" in mover.locator("#prompt-question").inner_text():
            break
        mover.locator("#prompt button:enabled").first.click()
        mover.wait_for_timeout(300)
    assert "discard" in mover.locator("#prompt-question").inner_text()
    assert mover.locator("#turn").inner_text() == "Turn 1: your turn is ending"
    other.wait_for_function("document.getElementById('turn').innerText.endsWith(\"'s turn is ending\")")
    assert other.locator("#turn").inner_text() == f"Turn 1: Seat {first}'s turn is ending"
    assert low_contrast(mover) == [] and low_contrast(other) == []
    shot(mover, "finish-discard-down-mover-" + ("laptop" if first == 0 else "phone"))
    shot(other, "finish-discard-down-other-" + ("phone" if first == 0 else "laptop"))
    while "discard" in mover.locator("#prompt-question").inner_text() and mover.locator("#prompt").is_visible():
        mover.locator("#prompt button:enabled").first.click()
        mover.wait_for_timeout(300)
    other.wait_for_function("document.getElementById('turn').innerText === 'Turn 2: your turn'", timeout=20000)
    assert mover.locator("#turn").inner_text() == f"Turn 2: Seat {1 - first}'s turn"
