"""Work is charged by the items walked, wherever an expression is written (issue 41).

A primitive that walks a list (`tagged`, `find`, `move`, ...) charges a step per card
or player before it walks them, so that the step budget bounds the time an action
takes. The testers' file put `sum(count(tagged(draw_pile, "cat")) for c in draw_pile)`
in a `turn_start` trigger over a 30,000-card deck: it was charged 90,000 steps, under
the budget, and walked 900 million cards (107 s of CPU). Here the same expression
stands in each place an expression can be written, over a 30,000-card pile: the game
must stop with the positioned step error having walked no more cards than the budget
allows. A counting `tagged` stops a run that walks far more (the unfixed engine) at
once, so every case is quick whichever way it goes; no case is timed.
"""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from kittens.interpreter.engine.game import Game, RuleRuntimeError
from kittens.interpreter.lang import cost
from kittens.interpreter.lang import primitives as P
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import load_edition

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT / "editions" / "original.yaml"
PILE = 30_000  # the testers' deck
HEAVY = 'sum(count(tagged(draw_pile, "cat")) for c in draw_pile)'
NESTED = "sum(sum(1 for a in draw_pile) for b in draw_pile)"


class WalkedTooFar(Exception):
    """`tagged` walked many times the budget's worth of cards: nothing stopped it."""


@pytest.fixture
def walked(monkeypatch):
    """Replace `tagged` by one that counts the cards it walks (in the list given, one
    item) and gives up at ten budgets' worth. Code compiled meanwhile and kept (a setup
    count's) may go on calling it after the test: it then only hands over."""
    walked, counting = [0], [True]
    real = P.PRIMITIVES["tagged"].impl

    def tagged(ctx, cards, tag):
        if counting[0]:
            walked[0] += len(cards if isinstance(cards, list) else getattr(cards, "cards", [cards]))
            if walked[0] > 10 * cost.STEP_BUDGET:
                raise WalkedTooFar(f"tagged() walked {walked[0]:,} cards and was not stopped")
        return real(ctx, cards, tag)
    monkeypatch.setitem(P.PRIMITIVES, "tagged", dataclasses.replace(P.PRIMITIVES["tagged"], impl=tagged))
    yield walked
    counting[0] = False


def edition(folder: Path, body: str, name: str = "heavy") -> Path:
    """A house rule on the Original with ``body`` (YAML)."""
    path = folder / f"{name}.yaml"
    path.write_text(f"format: 1\nkind: edition\nid: {name}\nname: {name.title()}\nextends: {ORIGINAL}\n"
                    f"{textwrap.dedent(body).strip()}\n", encoding="utf-8")
    return path


def layout(hands: dict):
    """These hands, a pile of PILE cats, seat 0 to play."""
    def lay(table):
        cards = table.edition.cards
        for seat, ids in hands.items():
            for card_id in ids:
                table.new_card(cards[card_id], table.hands[seat])
        for _ in range(PILE):
            table.new_card(cards["tacocat"], table.draw_pile)
        table.owed[0] = 1
    return lay


def card(fields: str) -> str:
    return f"""
define_cards:
  - id: heavy
    title: Heavy
    text: A card.
    when: own_turn
{textwrap.indent(textwrap.dedent(fields).strip(), "    ")}
add_cards: {{heavy: 1}}
"""


#: place -> (the YAML that puts HEAVY there, the label the error names, the hands, the
#: action that reaches it or None for the state's first decision)
PLACES = {
    "a card's effect": (card(f"effect: 'let n = {HEAVY}'"), "card 'heavy'", {0: ["heavy"]}, "play heavy"),
    "a card's requires": (card(f"requires: '{HEAVY} > 0'\neffect: end_turn()"), "card 'heavy'",
                          {0: ["heavy"]}, None),
    "a combo": (f"""
        patch_combos:
          two_of_a_kind:
            effect: 'let n = {HEAVY}'""", "combo 'two_of_a_kind'",
                {0: ["tacocat", "tacocat"], 1: ["skip"]}, "combo two_of_a_kind tacocat"),
    "a free action's requires": (f"""
        actions:
          - id: weigh
            title: Weigh
            text: Weigh the pile.
            requires: '{HEAVY} > 0'
            effect: end_turn()""", "action 'weigh'", {0: ["skip"]}, None),
    "a restriction": (f"""
        restrictions:
          - id: weigh
            text: Weigh the pile.
            allows: '{HEAVY} > 0'""", "restriction 'weigh'", {0: ["skip"]}, None),
    "a trigger's if": (f"""
        triggers:
          - id: weigh
            on: turn_end
            text: Weigh the pile.
            if: '{HEAVY} > 0'
            effect: end_turn()""", "trigger 'weigh'", {0: ["skip"]}, "draw"),
    "a state check": (f"""
        checks:
          - id: weigh
            text: Weigh the pile.
            if: '{HEAVY} > 0'
            effect: end_turn()""", "check 'weigh'", {0: ["skip"]}, "draw"),
    "ends_when": (f"""
        win:
          score: count(hand(me))
          ends_when: '{HEAVY} > 0'""", "the win condition", {0: ["skip"]}, "draw"),
    "score": (f"""
        win:
          score: '{HEAVY}'
          ends_when: count(discard_pile) > 0""", "the win condition", {0: ["skip"]}, "play skip"),
    "tie_break": (f"""
        win:
          score: '0'
          ends_when: count(discard_pile) > 0
          tie_break: '{HEAVY}'""", "the win condition", {0: ["skip"]}, "play skip"),
}


@pytest.mark.parametrize("place", PLACES)
def test_walking_a_huge_pile_stops_within_the_budget_in_every_place(tmp_path, walked, place):
    body, named, hands, action = PLACES[place]
    path = edition(tmp_path, body)
    game = Game(load_edition(str(path)), 3)
    with pytest.raises(RuleRuntimeError) as caught:
        state = game.new_state(0, layout=layout(hands))
        for _ in range(20):  # the action named, then the first option, until the rules break
            state.apply_action(action if action in state.legal_actions() else state.legal_actions()[0])
    message = str(caught.value)
    assert message.startswith(f"{named} ({path}:"), message
    assert f"more than {cost.STEP_BUDGET:,} steps" in message
    assert walked[0] <= cost.STEP_BUDGET  # each walk was charged before it was made


def test_the_testers_turn_start_trigger_stops_within_the_budget(tmp_path, walked):
    path = edition(tmp_path, f"""
        triggers:
          - id: heavy
            on: turn_start
            text: Count cats many times.
            effect: 'let n = {HEAVY}'""")
    game = Game(load_edition(str(path)), 2)
    with pytest.raises(RuleRuntimeError, match=rf"^trigger 'heavy' \({path}:\d+\): one action took more"):
        game.new_state(0, layout=layout({0: ["skip"]}))
    assert walked[0] <= cost.STEP_BUDGET


def deck_edition(folder: Path, expression: str) -> Path:
    """A house rule on the Original with 30,000 more cats and ``expression`` written in
    each of the ten places an expression can stand."""
    fillers = "".join(f"""
  - id: filler{i}
    title: Filler {i}
    text: A card.
    tags: [cat]
    when: never""" for i in range(PILE // 1000))
    yes = f"'{expression} > 0'"
    return edition(folder, f"""
define_cards:{fillers}
  - id: heavy
    title: Heavy
    text: A card.
    when: own_turn
    requires: {yes}
    effect: 'let n = {expression}'
add_cards: {{heavy: 1, {", ".join(f"filler{i}: 1000" for i in range(PILE // 1000))}}}
patch_combos:
  two_of_a_kind:
    effect: 'let n = {expression}'
actions:
  - id: weigh
    title: Weigh
    text: Weigh the pile.
    requires: {yes}
    effect: end_turn()
restrictions:
  - id: weigh
    text: Weigh the pile.
    allows: {yes}
triggers:
  - id: weigh
    on: turn_start
    text: Weigh the pile.
    if: {yes}
    effect: end_turn()
checks:
  - id: weigh
    text: Weigh the pile.
    if: {yes}
    effect: end_turn()
win:
  score: '{expression}'
  ends_when: {yes}
  tie_break: '{expression}'
""", "deck")


@pytest.mark.parametrize("expression", [HEAVY, NESTED], ids=["tagged in a sum", "a sum in a sum"])
def test_the_estimate_warns_at_each_place_the_budget_would_stop(tmp_path, expression):
    """The testers' two expressions validated clean; now each place that holds one is
    warned, at the aggregate, with the steps it can take."""
    path = deck_edition(tmp_path, expression)
    lines = path.read_text(encoding="utf-8").splitlines()
    places = [(number, line.index(expression) + 1) for number, line in enumerate(lines, 1) if expression in line]
    assert len(places) == 10
    found = validate_paths([str(path)]).diagnostics
    assert [d.severity for d in found if d.code != "too-much-work"] == [], found
    # (the shipped Exploding Kitten is warned too: a hand of every card walked three times)
    warned = sorted((d.line, d.column) for d in found if d.code == "too-much-work" and d.path == str(path))
    assert warned == places
    assert all("the game would stop with an error" in d.message and f"all {PILE + 57} cards" in d.message
               for d in found)
