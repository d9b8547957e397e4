"""Cards spent inside an effect (`spend`, issue 42): the shipped kittens spend their
Defuse with it, so a Defuse made nopeable may be Noped and the drawer then explodes.
Example: examples/house-rules/nope_the_defuse.yaml, whose scenarios fail on the plain
Original. Here: who is asked, what the title decides, what a spending leaves in the
history, and that nothing changes where no spent title may be Noped."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_phases import house, laid_out  # a house rule on the Original, a table laid by hand

from kittens import load_edition
from kittens.interpreter.engine.events import for_seat

ROOT = Path(__file__).resolve().parent.parent
NOPE_THE_DEFUSE = ROOT / "examples" / "house-rules" / "nope_the_defuse.yaml"


def take(state, *options):
    for option in options:
        assert option in state.legal_actions(), (option, state.legal_actions())
        state.apply_action(option)


@pytest.fixture(scope="module")
def nope_the_defuse():
    return load_edition(str(NOPE_THE_DEFUSE))


@pytest.fixture(scope="module")
def original():
    return load_edition("original")


def test_a_spent_defuse_opens_a_window_that_names_the_spending(nope_the_defuse):
    state = laid_out(nope_the_defuse, 3, {0: ["defuse"], 1: ["nope"], 2: ["skip"]},
                     ["exploding_kitten", "tacocat"])
    take(state, "draw")
    decision = state.decision()
    assert (decision.seat, decision.kind) == (1, "answer")
    assert decision.info["answering"] == {"seat": 0, "id": "defuse"}
    window = [e for e in state.events if e["type"] == "window"]
    assert window == [{"type": "window", "seat": 0, "id": "defuse", "spent": True}]
    take(state, "play nope")
    assert state.table.alive[0] is False
    assert [e["type"] for e in state.events if e["type"] == "cancelled"] == ["cancelled"]


@pytest.mark.parametrize("answers, alive", [
    ([], True),                                   # nobody answers: the Defuse saves
    (["play nope"], False),                       # Noped: the drawer explodes
    (["play nope", "play nope"], True),           # a Nope on the Nope: saved after all
])
def test_the_last_word_decides_whether_the_defuse_saves(nope_the_defuse, answers, alive):
    state = laid_out(nope_the_defuse, 3, {0: ["defuse", "skip"], 1: ["nope"], 2: ["nope"]},
                     ["exploding_kitten", "tacocat"])
    take(state, "draw")
    for option in answers:
        take(state, option)
    while state.decision().kind == "answer":
        take(state, "pass")
    assert state.table.alive[0] is alive
    discards = [c.id for c in state.table.discard_pile.cards]
    assert "defuse" in discards  # spent either way
    if alive:
        assert state.decision().kind == "choose_position" and state.decision().seat == 0


def test_the_drawer_cannot_nope_their_own_defuse(nope_the_defuse):
    state = laid_out(nope_the_defuse, 2, {0: ["defuse", "nope"], 1: ["skip"]},
                     ["exploding_kitten", "tacocat"])
    take(state, "draw")
    assert state.decision().kind == "choose_position"  # no window question to seat 0


def test_where_the_defuse_may_not_be_noped_nobody_is_asked(original):
    state = laid_out(original, 3, {0: ["defuse"], 1: ["nope"], 2: ["nope"]},
                     ["exploding_kitten", "tacocat"])
    take(state, "draw")
    assert state.decision().kind == "choose_position"
    assert not [e for e in state.events if e["type"] == "window"]


def test_the_title_spent_decides_not_the_card(tmp_path):
    """A wildcard spent as a Defuse is answered as a Defuse is: the Godcat may be Noped
    when played, but spent as a Defuse nobody may answer it, unless Defuses may be."""
    base = ROOT / "editions" / "good_vs_evil.yaml"
    for nopeable, asked in ((False, False), (True, True)):
        path = tmp_path / f"gve_{nopeable}.yaml"
        path.write_text("format: 1\nkind: edition\nid: gve_spend\nname: Spend test\n"
                        f"extends: {base}\n"
                        + (f"patch_cards:\n  defuse: {{nopeable: true}}\n" if nopeable else ""),
                        encoding="utf-8")
        edition = load_edition(str(path))
        state = laid_out(edition, 3, {0: ["godcat"], 1: ["nope"], 2: ["skip"]},
                         ["exploding_kitten", "tacocat"])
        take(state, "draw")
        assert (state.decision().kind == "answer") is asked, nopeable


def test_a_spending_is_not_a_play_but_has_its_spender(tmp_path):
    edition = house(tmp_path, """define_cards:
  - id: bribe
    title: Bribe
    tags: [action]
    text: Spend a cat card; if that stands, draw a card.
    when: own_turn
    requires: count(tagged(hand(me), "cat")) > 0
    effect: |
      let cat = top(tagged(hand(me), "cat"))
      if spend(cat) {
        set_counter("spender", seat_number(played_by(cat)))
        set_counter("plays", count(played_this_turn()))
        draw()
      }
counters:
  spender: {start: -1, min: -1}
  plays: {start: -1, min: -1}
""")
    state = laid_out(edition, 2, {0: ["bribe", "tacocat"], 1: ["nope"]}, ["skip", "shuffle"])
    take(state, "play bribe")
    while state.decision().kind == "answer":
        take(state, "pass")
    # the Tacocat was spent as itself (a cat is nopeable by default): seat 1 could have
    # answered; it passed, so the spending stood and seat 0 drew
    assert state.table.counters["spender"][0] == 0
    assert state.table.counters["plays"][0] == 1  # the Bribe only: the spending is no play
    assert [c.id for c in state.table.hands[0].cards] == ["skip"]


def test_a_spending_window_leaks_no_hand(nope_the_defuse):
    """Seat 2 learns that seat 0 spent a Defuse (the kitten was shown), never who holds a
    Nope: the window opens the same whether anyone holds one."""
    seen = []
    for hands in ({0: ["defuse"], 1: ["nope"], 2: ["skip"]}, {0: ["defuse"], 1: ["skip"], 2: ["skip"]}):
        state = laid_out(nope_the_defuse, 3, hands, ["exploding_kitten", "tacocat"])
        take(state, "draw")
        while state.decision().kind == "answer":
            take(state, "pass")
        observed = [for_seat(e, 2) for e in state.events]
        seen.append([e for e in observed if e and e["type"] in ("window", "window_closed")])
    assert seen[0] == seen[1] and seen[0][0]["spent"] is True


ONE_DEFUSE = """counters:
  defuses_spent: {}
triggers:
  - id: count_spent_defuses
    on: card_spent
    text: Count the Defuses each player spends.
    if: title(this) == "defuse"
    effect: add_counter("defuses_spent", 1)
restrictions:
  - id: one_defuse_a_game
    applies_to: [spending]
    text: Each player may spend one Defuse a game.
    allows: title(this) != "defuse" or counter("defuses_spent") == 0
"""


def test_card_spent_counts_spendings_not_plays(tmp_path):
    """A Defuse thrown into a combo is played, not spent: only the kitten's spending counts,
    so the player's second kitten finds no Defuse it may spend."""
    edition = house(tmp_path, ONE_DEFUSE)
    state = laid_out(edition, 2, {0: ["defuse", "defuse", "skip"], 1: ["skip", "skip"]},
                     ["exploding_kitten", "tacocat", "exploding_kitten", "cattermelon"])
    take(state, "draw", 0)  # defused; the kitten back on top
    assert state.table.counters["defuses_spent"] == [1, 0]
    spent = [e for e in state.events if e["type"] == "trigger"]
    assert [e["id"] for e in spent] == ["count_spent_defuses"]
    take(state, "play skip")  # seat 1 skips; seat 0 draws the kitten again, a Defuse in hand
    take(state, "draw")
    assert state.table.alive[0] is False
