"""The rulesheet on the edition-wide constructs (triggers, counters, revive, aggregates,
free actions, restrictions, play_as, scores, teams, marks): each case is a small house rule
on the Original and the sentences its sheet must hold and must not hold (issue 42)."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.words.resolved import against_base
from kittens.interpreter.words.rulesheet import render_rulesheet

ORIGINAL = ROOT / "editions" / "original.yaml"

#: what no sheet may say: Python's words, escaped ids, names of the checker's, doubled spaces
NEVER = ("True", "False", "\\_", "the check ", "that player is that player", "  ")

CASES = {
    "a trigger is a rule for a moment, named by its own name, not a check": ("""
triggers:
  - id: skip_watch
    on: turn_start
    text: A player holding a Skip shows it.
    if: has(me, "skip")
    effect: reveal(top(find(hand(me), "skip")))
""", ["#### Skip watch", "The rule for a moment of the game “Skip watch” refers to it by name."],
        ["the check", "check “skip"]),
    "a loop inside a loop over players reads as membership": ("""
triggers:
  - id: show_partners
    on: turn_start
    text: Partners show a Skip.
    effect: |
      for p in players() {
        if any(q == p for q in teammates()) { reveal(top(find(hand(p), "skip"))) }
      }
""", ["if that player is one of your teammates, reveal"], ["for at least one of"]),
    "two walks over players read apart": ("""
triggers:
  - id: pairs
    on: turn_start
    text: Count pairs.
    effect: |
      for p in players() {
        if any(count(hand(q)) > count(hand(p)) for q in others()) { draw() }
      }
""", ["the number of cards in the hand of that player “q” is more than the number of cards in "
      "that player's hand for at least one of the other players"], []),
    "a filter over players says whom it keeps": ("""
patch_combos:
  two_of_a_kind:
    requires: count(filter(p for p in others() if count(hand(p)) >= 2)) > 0
    choose:
      victim: choose_player(filter(p for p in others() if count(hand(p)) >= 2))
""", ["There are other players for whom the number of cards in that player's hand is at least 2.",
      "a player you choose among the other players for whom"], ["those of the other players"]),
    "a switch in a condition reads as what it asks, whatever its value": ("""
add_params:
  gentle: false
triggers:
  - id: soft
    on: turn_start
    text: Gentle play.
    if: rules.gentle
    effect: |
      draw()
      if not rules.gentle { draw() }
""", ["At the start of each turn, if the “gentle” rule is on:", "If the “gentle” rule is off, draw"],
        ["Gentle: False", "rule is off:"]),
    "a new switch is told as yes or no": ("""
add_params:
  gentle: false
  lenient: true
""", ["- Gentle: no.", "- Lenient: yes."], []),
    "a card id compared with a title reads as the card's title": ("""
restrictions:
  - id: pinned
    text: Only Skip under attack.
    allows: owed() < 2 or title(this) == "skip"
actions:
  - id: claim
    title: Claim
    text: Claim a title.
    choose:
      claimed: choose_title()
    effect: |
      if claimed != "super_skip" and claimed != "skip" { play_as(claimed, top(hand(me))) }
define_cards:
  - id: super_skip
    title: Super Skip
    when: own_turn
    text: End every turn you owe.
    effect: end_turn(owed())
""", ["the title of the cards played is Skip", "#### Pinned",
      "If the named title is not Super Skip and the named title is not Skip"], ["“skip”", "super"]),
    "a trade is told in the order the choices are made": ("""
actions:
  - id: trade
    title: Trade
    text: Trade a card with another player.
    choose:
      victim: choose_player(with_cards(others()))
    effect: |
      let mine = choose_card(hand(me))
      let theirs = choose_card(hand(victim), by=victim)
      move(mine, hand(victim))
      move(theirs, hand(me))
""", [], []),
    "a name changed later says what it starts as": ("""
actions:
  - id: call
    title: Call
    text: Others may call.
    effect: |
      let caller = me
      for p in others() { if caller == me { if ask("Call?", by=p) { caller = p } } }
      if caller != me { draw() }
""", ["“caller” is you to begin with.", "“caller” becomes that player"], ["Call you"]),
    "a loop that only counts reads as a number of times": ("""
triggers:
  - id: discard_down
    on: turn_end
    text: Discard down to three.
    if: count(hand(me)) > 3
    effect: |
      for extra in top(hand(me), count(hand(me)) - 3) { discard(choose_card(hand(me))) }
""", ["as many times as the number of cards in your hand minus 3 (at most once for each card in "
      "your hand): discard a card you choose from your hand"], ["the top the number"]),
    "a count given through a name reads as the number": ("""
actions:
  - id: grab
    title: Grab
    text: Take two cards from the next player.
    effect: |
      let n = 2
      for c in top(hand(next_player()), n) { move(random_card(hand(next_player())), hand(me)) }
""", ["Twice (at most once for each card in the next player's hand): move a random card"],
        ["as many times as 2"]),
    "a score is worked out for each player: their count, their hand": ("""
counters:
  banked: {text: Cats banked}
win:
  score: counter("banked")
  tie_break: count(tagged(hand(me), "cat"))
  ends_when: count(draw_pile) == 0
""", ["Each player scores their “banked” count", "in their hand"], ["your “banked”", "in your hand;"]),
    "a rule about a player coming back or going out names that player": ("""
counters:
  risen: {max: 1}
triggers:
  - id: rise
    on: player_back
    text: Who comes back is marked and draws.
    effect: |
      set_counter("risen", 1)
      draw()
  - id: gone
    on: player_out
    text: Who goes out gives their hand to the next player.
    effect: move(hand(me), hand(next_player()))
""", ["When a player comes back: set that player's “risen” count to 1. That player draws a card.",
      "When a player goes out: move all the cards in that player's hand into the hand of the "
      "player after that player"], ["set your"]),
    "a card moment names the card and the zone": ("""
triggers:
  - id: bank
    on: card_enters
    zone: discard_pile
    text: A discarded Skip draws a card.
    if: title(this) == "skip"
    effect: draw()
""", ["When a card enters the discard pile, if the title of that card is Skip: draw a card."], []),
    "players who are out are not told they cannot be asked": ("""
triggers:
  - id: last_word
    on: player_out
    text: Who goes out may show a card.
    effect: |
      if ask("Show a card?", by=me) { reveal(top(hand(me))) }
""", ["plays no more cards, not even in answer", "may still ask a player who is out"],
        ["cannot answer"]),
    "players who are out are told which cards they may still answer with": ("""
patch_cards:
  nope: {who: anyone}
""", ["A player who is out takes no more turns; they may still answer a card with Nope, and play "
      "nothing else."], ["not even in answer"]),
    "a rule for the start of the game is said beside the starting hands": ("""
triggers:
  - id: extra
    on: game_start
    text: Everyone draws one more card at the start.
    effect: |
      for p in players() { draw(p) }
""", ["Before the first turn, the rules for the start of the game run",
      "At the start of the game: for each of the players still in the game: that player draws a card."],
        []),
}


def _sheet(write, body: str, players: int = 4) -> str:
    path = write("house.yaml", f"format: 1\nkind: edition\nid: house\nname: House\n"
                               f"extends: {ORIGINAL}\n{body}")
    edition = load_edition(path)
    base, changes = against_base(edition, edition, load_edition)
    return render_rulesheet(edition, players, "markdown", changes=changes, base=base)


@pytest.mark.parametrize("case", list(CASES))
def test_a_house_rule_is_worded_plainly(write, case):
    body, wanted, forbidden = CASES[case]
    sheet = _sheet(write, body)
    flat = " ".join(sheet.split())
    for text in wanted:
        assert text in flat, f"missing: {text}"
    for text in (*forbidden, *NEVER):
        assert text not in sheet.replace("\n\n", "\n"), f"should not say: {text}"


def test_a_trade_is_told_in_the_order_the_choices_are_made(write):
    sheet = _sheet(write, CASES["a trade is told in the order the choices are made"][0])
    sheet = " ".join(sheet[sheet.index("#### Trade"):].split())
    mine, theirs = sheet.index("a card you choose from your hand"), \
        sheet.index("a card the chosen player chooses from their hand")
    assert mine < theirs  # you choose first, as the effect runs


def test_a_deck_chosen_by_marks_says_which_cards_to_use():
    party = load_edition("party")
    for players, said in ((2, "use only the cards marked “paw”"), (5, "use only the cards marked “plain”"),
                          (9, "use the cards marked “paw” and “plain”")):
        sheet = render_rulesheet(party, players)
        deck = sheet[sheet.index("## Deck for"):sheet.index("| Card |")]
        assert said in deck and "Exploding Kittens carry no mark" in deck, players
    assert "picks its cards by the mark" not in render_rulesheet(load_edition("original"), 4)


def _rule_files():
    for folder in ("editions", "examples/house-rules", "examples/expansions"):
        yield from sorted((ROOT / folder).glob("*.yaml"))


@pytest.mark.parametrize("path", list(_rule_files()), ids=lambda p: p.stem)
def test_no_sheet_says_python_words_ids_or_garbled_phrases(path):
    """Every shipped edition, example and variant, at its smallest and largest table."""
    whole = load_edition(str(path))
    titles = {card_id for card_id in whole.cards}
    for edition in (whole, *whole.variants.values()):
        base, changes = against_base(edition, whole, load_edition)
        for players in sorted(set(edition.players)):
            sheet = render_rulesheet(edition, players, changes=changes, base=base)
            said = "\n".join(line for line in sheet.splitlines() if not line.startswith(">"))
            for text in NEVER:
                assert text not in said, (path.name, edition.variant, players, text)
            quoted = set(re.findall(r"“([^”]+)”", said)) & titles
            assert not quoted, (path.name, quoted)  # a card id in quotes, not its title
