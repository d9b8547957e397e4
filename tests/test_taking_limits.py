"""Limits on taking (issue 42): a restriction with `applies_to: [taking]` decides which
cards an effect of another player may take out of a hand, whatever card or combo asks
and wherever the card would go. Safe Defuse ("no card or combo can take a Defuse from
your hand") is one restriction instead of patched Favor, pair and triple. Each test
below failed before taking limits existed (the word `taking` was refused, `held_by`
unknown). Example: examples/house-rules/safe_defuse.yaml and its scenarios."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_phases import HOUSE, value

from kittens import Game, load_edition
from kittens.interpreter.engine.events import for_seat

ROOT = Path(__file__).resolve().parent.parent

SAFE = """restrictions:
  - id: safe_defuse
    applies_to: [taking]
    text: No card or combo can take a Defuse from your hand.
    allows: title(this) != "defuse" or held_by(this) == me
"""


def edition_with(tmp_path, effect: str, limited: bool = True):
    """The Original with a card `grab` whose effect is ``effect`` (its `victim` the
    other player of two), under Safe Defuse or (``limited=False``) without it."""
    body = f"""define_cards:
  - id: grab
    title: Grab
    tags: [action]
    text: Takes from another player.
    when: own_turn
    choose:
      victim: choose_player(others())
    effect: |
{chr(10).join('      ' + line for line in effect.splitlines())}
add_cards: {{grab: 1}}
""" + (SAFE if limited else "")
    path = tmp_path / ("safe.yaml" if limited else "plain.yaml")
    path.write_text(HOUSE + body, encoding="utf-8")
    return load_edition(str(path))


def laid(edition, hands: dict, players: int = 2, explicit_chance: bool = False):
    def layout(table):
        for seat, cards in hands.items():
            for card_id in cards:
                table.new_card(edition.cards[card_id], table.hands[seat])
        for card_id in ["cattermelon", "exploding_kitten"]:
            table.new_card(edition.cards[card_id], table.draw_pile)
    return Game(edition, players).new_state(0, layout=layout, explicit_chance=explicit_chance)


def play_out(state, seen: list):
    """Play the grab and answer what follows with the first option, noting each choice's
    options; stops at seat 0's next play."""
    state.apply_action("play grab")
    while not state.is_terminal():
        decision = state.decision()
        if decision.kind == "action" and decision.seat == 0:
            return
        if decision.kind not in ("answer", "action"):
            seen.append(list(decision.options))
        state.apply_action(state.legal_actions()[0])


def hands(state) -> dict:
    return {seat: sorted(inst.id for inst in state.table.hands[seat].cards) for seat in range(2)}


# effect, seat 1's hand, what seat 1 keeps under Safe Defuse, and without it
CASES = [
    ("move(choose_card(hand(victim), by=victim), hand(me))", ["defuse", "tacocat"], ["defuse"], ["tacocat"]),
    ("move(choose_card(hand(victim)), hand(me))", ["defuse", "tacocat"], ["defuse"], ["tacocat"]),
    ("move(blind_pick(hand(victim)), hand(me))", ["defuse"], ["defuse"], []),
    ("move(random_card(hand(victim)), hand(me))", ["defuse"], ["defuse"], []),
    ("move(hand(victim), hand(me))", ["defuse", "tacocat"], ["defuse"], []),
    ("discard(hand(victim))", ["defuse", "tacocat"], ["defuse"], []),
    ('move(find(hand(victim), "defuse"), discard_pile)', ["defuse", "tacocat"], ["defuse", "tacocat"], ["tacocat"]),
    ('move(find(hand(victim), "defuse"), draw_pile)', ["defuse", "defuse"], ["defuse", "defuse"], []),
    # a swap: the victim gets seat 0's cards and keeps its Defuse
    ("let mine = without(hand(me), this)\nmove(hand(victim), hand(me))\nmove(mine, hand(victim))",
     ["defuse", "tacocat"], ["defuse", "nope"], ["nope"]),
]


@pytest.mark.parametrize("effect, held, kept, plain", CASES)
def test_nothing_takes_a_defuse_out_of_another_hand(tmp_path, effect, held, kept, plain):
    for limited, left in ((True, kept), (False, plain)):
        state = laid(edition_with(tmp_path, effect, limited), {0: ["grab", "nope"], 1: held})
        seen: list = []
        play_out(state, seen)
        assert hands(state)[1] == sorted(left), (limited, effect)
        if limited:  # and no choice ever offered it
            assert not any("defuse" in options for options in seen), seen


def test_spending_is_not_taking(tmp_path):
    """A player made to spend their own Defuse in another's effect (another player's
    Barking Kitten finding its twin in their hand) spends it: `choose_kind` and `spend`
    are not limited, so the limit is no shield against one's own kitten."""
    effect = 'spend(choose_kind(playable_as(hand(victim), "defuse"), by=victim), "defuse")'
    for limited in (True, False):
        state = laid(edition_with(tmp_path, effect, limited), {0: ["grab", "nope"], 1: ["defuse", "tacocat"]})
        play_out(state, [])
        assert hands(state)[1] == ["tacocat"], limited


@pytest.mark.parametrize("effect", [
    "move(choose_card(hand(me)), hand(victim))",
    "move(choose_kind(hand(me)), hand(victim))",
    "discard(hand(me))",
    "move(hand(me), hand(victim))",
])
def test_the_own_hand_is_not_limited(tmp_path, effect):
    state = laid(edition_with(tmp_path, effect), {0: ["grab", "defuse"], 1: ["tacocat"]})
    seen: list = []
    play_out(state, seen)
    assert "defuse" not in hands(state)[0]
    assert all("defuse" in options for options in seen), seen


def test_a_pick_that_still_finds_a_card_picks_among_the_rest(tmp_path):
    """Two of a kind's blind pick on a hand of a Defuse and a Nope: one candidate, never
    the Defuse, whatever chance would have picked."""
    edition = load_edition(str(ROOT / "examples" / "house-rules" / "safe_defuse.yaml"))
    for seed in range(8):
        def layout(table):
            for seat, cards in {0: ["beard_cat", "beard_cat"], 1: ["defuse", "tacocat"]}.items():
                for card_id in cards:
                    table.new_card(edition.cards[card_id], table.hands[seat])
            table.new_card(edition.cards["exploding_kitten"], table.draw_pile)
        state = Game(edition, 2).new_state(seed, layout=layout)
        state.apply_action("combo two_of_a_kind beard_cat")
        assert hands(state) == {0: ["tacocat"], 1: ["defuse"]}


@pytest.mark.parametrize("text, expected", [
    ("held_by(hand(1))", 1),
    ("held_by(hand(me))", 0),
    ("held_by(top(draw_pile))", None),
    ("held_by(top(discard_pile))", None),  # an empty pile: nothing, nobody
    ("held_by(find(hand(1), \"nope\"))", None),  # no such card
])
def test_held_by_names_the_hand_a_card_is_in(text, expected):
    edition = load_edition("original")
    state = laid(edition, {0: ["skip"], 1: ["tacocat"]})
    assert value(state, text) == expected


def test_held_by_is_a_query_that_may_give_nobody():
    from kittens.interpreter.lang import primitives as P

    assert P.PRIMITIVES["held_by"].kind == P.QUERY and "held_by" in P.MAY_GIVE_NOTHING


def test_the_rulesheet_says_what_a_taking_limit_limits():
    from kittens.interpreter.words.rulesheet import render_rulesheet

    text = render_rulesheet(load_edition(str(ROOT / "examples" / "house-rules" / "safe_defuse.yaml")), 4)
    assert "Limits on every play and on what effects take from a hand" in text
    assert ("An effect of another player may take a card out of a hand (a card picked, moved or discarded "
            "from it, whoever picks it) only if the title of the card is not Defuse or the player whose "
            "hand holds the card is the player taking.") in text


def test_no_shipped_edition_has_a_taking_limit():
    for name in ("original", "imploding", "streaking", "barking", "party", "good_vs_evil", "two_player", "nsfw"):
        assert Game(load_edition(name), 2).taking_limits == ()


# -- what each seat learns --------------------------------------------------------------
def observed(state, seat: int) -> list:
    return [e for e in (for_seat(event, seat) for event in state.table.log.events) if e is not None]


def information(state, seat: int) -> str:
    """What ``seat`` observed, without the hand-laid zones' opening events."""
    return json.dumps([e for e in observed(state, seat) if e["type"] != "zone"], sort_keys=True, default=str)


@pytest.mark.parametrize("effect", ["move(choose_card(hand(victim), by=victim), hand(me))",
                                    "move(blind_pick(hand(victim)), hand(me))"])
def test_a_card_kept_back_tells_the_others_nothing(tmp_path, effect):
    """Three players; seat 1 holds a Defuse and a Tacocat, or a Beard Cat and a Tacocat,
    and either way the Tacocat leaves. What seats 0 and 2 observe is the same in both
    games: that a Defuse was kept back shows nowhere."""
    edition = edition_with(tmp_path, effect)
    seen = {}
    for other in ("defuse", "beard_cat"):
        state = laid(edition, {0: ["grab"], 1: [other, "tacocat"], 2: ["skip"]}, players=3, explicit_chance=True)
        state.apply_action("play grab")
        state.apply_action(1)  # the victim
        while state.decision() is not None and state.decision().kind == "answer":
            state.apply_action("pass")
        if state.is_chance_node():  # the pick: the Tacocat, among what it may pick from
            state.apply_action(state.decision().info["cards"].index("tacocat"))
        else:
            state.apply_action("tacocat")
        assert sorted(i.id for i in state.table.hands[0].cards) == ["tacocat"]
        seen[other] = (information(state, 0), information(state, 2), state.view(2).to_dict())
    assert seen["defuse"] == seen["beard_cat"]


def test_a_kept_card_is_told_only_to_the_seats_that_know_it(tmp_path):
    edition = edition_with(tmp_path, "move(hand(victim), hand(me))")
    state = laid(edition, {0: ["grab"], 1: ["defuse", "tacocat"], 2: ["skip"]}, players=3)
    state.apply_action("play grab")
    state.apply_action(1)
    kept = [e for e in state.table.log.events if e["type"] == "kept"]
    assert [(e["seat"], e["card"]) for e in kept] == [(1, "defuse")]
    assert any(e["type"] == "kept" for e in observed(state, 1))
    for seat in (0, 2):
        assert not any(e["type"] in ("kept", "nothing_taken") for e in observed(state, seat))
        assert "defuse" not in information(state, seat)


def test_a_revealed_card_kept_back_is_told_to_everyone(tmp_path):
    """Three of a kind names the Defuse and reveals it (looking is not taking): the move
    then keeps it, and everyone, who saw it, is told that it stayed."""
    edition = edition_with(tmp_path, 'let matching = find(hand(victim), "defuse")\n'
                                     'reveal(top(matching))\nmove(top(matching), hand(me))')
    state = laid(edition, {0: ["grab"], 1: ["defuse", "tacocat"], 2: ["skip"]}, players=3)
    state.apply_action("play grab")
    state.apply_action(1)
    for seat in range(3):
        assert [e["card"] for e in observed(state, seat) if e["type"] == "kept"] == ["defuse"]
    assert [i.id for i in state.table.hands[1].cards] == ["defuse", "tacocat"]


def test_a_whole_hand_with_nothing_to_take_is_said_so_publicly(tmp_path):
    edition = edition_with(tmp_path, "move(choose_card(hand(victim), by=victim), hand(me))")
    state = laid(edition, {0: ["grab"], 1: ["defuse"], 2: ["skip"]}, players=3)
    state.apply_action("play grab")
    state.apply_action(1)  # seat 1 is never asked: it has nothing it may give
    assert state.decision().seat == 0 and state.decision().kind == "action"
    for seat in range(3):
        told = [e for e in observed(state, seat) if e["type"] == "nothing_taken"]
        assert told == [{"type": "nothing_taken", "seat": 1, "zone": "hand 1"}]


def test_a_list_with_nothing_to_take_is_not_said_to_have_held_any(tmp_path):
    """`find(hand(victim), "defuse")` is a list whose size is seat 1's secret: a pick from
    it that finds nothing says nothing (the others would learn seat 1 held a Defuse)."""
    edition = edition_with(tmp_path, 'move(choose_card(find(hand(victim), "defuse"), by=victim), hand(me))')
    state = laid(edition, {0: ["grab"], 1: ["defuse", "tacocat"], 2: ["skip"]}, players=3)
    state.apply_action("play grab")
    state.apply_action(1)
    assert not any(e["type"] in ("kept", "nothing_taken") for e in state.table.log.events)
