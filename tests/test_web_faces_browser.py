"""Cards with faces at the web table (issue 43), in headless Chromium: every card of an
edition, a house rule's new card included, is drawn from the face card_face makes (the
one `kittens print` places), its band in its kind's colour; a hand at laptop and phone
sizes, looked at in the screenshots."""

from __future__ import annotations

import pytest
from chromium import ARTIFACTS, shot

from kittens.interpreter.words.card_face import look

pytestmark = pytest.mark.timeout(120)

HOUSE = """\
format: 1
kind: edition
id: lucky_house
name: Lucky House
extends: original
define_cards:
  - id: lucky_coin
    title: Lucky Coin
    tags: [charm]
    text: Take one more turn after this one.
    when: own_turn
    effect: extra_turns(me, 1)
  - id: four_leaf
    title: Four-Leaf Clover
    tags: [charm]
    text: Nothing happens, but it looks lucky.
    when: own_turn
    effect: add_counter("luck", 1)
counters:
  luck:
    text: Clovers played.
add_cards:
  lucky_coin: 4
  four_leaf: 4
"""

#: every card of the edition as a tile in the hand, then each tile's state: whether its
#: face loaded, and the colour in its band (read back through a canvas)
BANDS = """async () => {
    const hand = document.getElementById('hand');
    const tiles = Object.keys(cards).filter((id) => !cards[id].combo).map((id) => cardTile(id));
    hand.append(...tiles);
    const found = {};
    for (const tile of tiles) {
        const image = tile.querySelector('img.face');
        if (!image) { found[tile.dataset.card] = null; continue; }
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = 63; canvas.height = 88;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0, 63, 88);
        const [r, g, b] = context.getImageData(8, 10, 1, 1).data;  // in the band, left of its symbol
        const wide = tile.scrollWidth > tile.clientWidth + 1;
        found[tile.dataset.card] = {loaded: image.naturalWidth > 0, rgb: [r, g, b], wide};
    }
    tiles.forEach((t) => t.remove());
    return found;
}"""


#: every face in the hand has loaded
LOADED = "[...document.querySelectorAll('#hand img.face')].every((i) => i.complete && i.naturalWidth)"


def _rgb(hex_: str) -> list[int]:
    return [int(hex_[i:i + 2], 16) for i in (1, 3, 5)]


def _table(page, base: str, seed: int) -> dict:
    uploaded = page.request.post(base + "/api/uploads", data={"files": [{"name": "lucky_house.yaml", "text": HOUSE}]})
    assert uploaded.ok, uploaded.text()
    key = uploaded.json()["playable"][0]["key"]
    made = page.request.post(base + "/api/rooms", data={"ruleset": key, "players": 2,
                                                        "seats": ["person", "random"], "seed": seed})
    assert made.ok, made.text()
    return made.json()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_every_card_has_its_face_at_the_table(server, browser, size, tmp_path):
    from kittens.interpreter.rules.load import load_edition

    base, _app = server
    width, height = size
    phone = width < 600
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone,
                                  reduced_motion="reduce")  # still screenshots
    page = context.new_page()
    made = _table(page, base, seed=5)
    (tmp_path / "lucky_house.yaml").write_text(HOUSE, encoding="utf-8")
    edition = load_edition(str(tmp_path / "lucky_house.yaml"))  # the rules the table plays
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_selector("#hand .card.faced img.face")
    page.wait_for_function(LOADED)
    found = page.evaluate(BANDS)
    assert set(found) == set(edition.cards)
    for card_id, state in found.items():
        assert state is not None and state["loaded"], card_id
        assert not state["wide"], f"{card_id}'s face is wider than its tile"
        band = _rgb(look(edition, edition.cards[card_id]).band)
        assert all(abs(a - b) <= 6 for a, b in zip(state["rgb"], band)), (card_id, state["rgb"], band)
    kinds = {look(edition, card).kind for card in edition.cards.values()}
    colours = {tuple(found[c]["rgb"]) for c in edition.cards}
    assert len(colours) >= len(kinds) - 1  # distinct kinds read apart (a pixel may blend)
    assert look(edition, edition.cards["four_leaf"]).symbol == "letter"  # the house rule's own card
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    # the hand's titles are still the tiles' text (for screen readers, and the tests that read them)
    titles = sorted(page.locator("#hand .card .title").all_inner_texts())
    assert titles == sorted(edition.cards[i].title for i in page.evaluate("lastView.hand"))
    if phone:  # three cards a row on a phone
        tops = page.evaluate("[...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect().top)")
        assert len(tops) >= 3 and tops[0] == tops[1] == tops[2]
    # a card played lies face up on the discard pile
    page.locator("#prompt button:enabled").first.wait_for()
    plays = page.locator("#prompt button:enabled").filter(has_text="Play ")
    if plays.count():
        plays.first.click()
        page.wait_for_selector("#piles img.pile-face")
    page.locator("#hand").scroll_into_view_if_needed()
    shot(page, f"faces-hand-{'phone' if phone else 'laptop'}")
    # every face of these rules at once, the house rule's two new cards among them, to look at
    page.evaluate("""() => document.getElementById('hand').append(...Object.keys(cards)
        .filter((id) => !cards[id].combo).map((id) => cardTile(id)))""")
    page.wait_for_function(LOADED)
    page.locator("#hand").screenshot(path=str(ARTIFACTS / f"faces-all-{'phone' if phone else 'laptop'}.png"))
    context.close()


def test_the_cards_a_see_the_future_showed_lie_face_up_by_the_pile(server, browser):
    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.rules.load import load_edition

    base, _app = server
    game = Game(load_edition("original"), 2)
    seed = next(seed for seed in range(300) if game.new_state(seed).table.current == 0
                and "play see_the_future" in game.new_state(seed).decision().options)
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                               reduced_motion="reduce").new_page()
    lobby = page.request.get(base + "/api/lobby").json()
    key = next(e["key"] for e in lobby["rulesets"] if e["name"] == "Exploding Kittens (Original Edition)")
    made = page.request.post(base + "/api/rooms", data={"ruleset": key, "players": 2, "seed": seed,
                                                        "seats": ["person", "random"]}).json()
    page.goto(base + made["seats"][0]["link"])
    assert page.locator("#piles .seen-faces").count() == 0
    page.locator("#prompt button:enabled", has_text="Play See the Future").click()
    page.wait_for_selector("#piles .seen-faces figure")
    known = page.evaluate("lastView.draw_pile.known")
    assert [k["place"] for k in known] == [0, 1, 2]
    assert page.locator("#piles .seen-faces figcaption").all_inner_texts() == ["top", "place 2", "place 3"]
    assert page.locator("#piles .seen-faces img.pile-face").count() == 3
    page.locator("#piles").scroll_into_view_if_needed()
    shot(page, "faces-see-the-future-phone")
