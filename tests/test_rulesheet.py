"""The effect describer, the generated rulesheet and the text-versus-effect number check."""

from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT

from kittens.interpreter.lang import primitives as P
from kittens.interpreter.lang import syntax as s
from kittens.interpreter.lang.parser import parse_expression, parse_program
from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.rules.setup import dry_run
from kittens.interpreter.rules.textcheck import Finding, number_mismatches, text_numbers
from kittens.interpreter.words.describe import WORDING, choice_names, describe_expression, describe_program
from kittens.interpreter.words.rulesheet import SetupRun, _answering_holds, render_rulesheet

EDITIONS = ROOT / "editions"
ORIGINAL = str(EDITIONS / "original.yaml")
ORIGINAL_CARDS = ROOT / "rulebook" / "original.yaml"
SHIPPED = sorted(str(p) for p in EDITIONS.glob("*.yaml"))


def _load(name: str, variant=None):
    return load_edition(str(EDITIONS / name), variant)


def _shipped_editions():
    """Every shipped edition and expansion (on its base), and every variant of each."""
    for path in SHIPPED:
        edition = load_edition(path)
        yield Path(path).name, edition
        for name, variant in edition.variants.items():
            yield f"{Path(path).name}:{name}", variant


# -- the describer ---------------------------------------------------------------------
def test_every_primitive_has_wording():
    missing = set(P.PRIMITIVES) - set(WORDING)
    assert not missing, f"primitives without wording in describe.WORDING: {sorted(missing)}"
    assert set(WORDING) == set(P.PRIMITIVES), "describe.WORDING words a primitive that does not exist"


def _words(edition, record_id: str, part: str) -> str:
    record = edition.cards.get(record_id) or next(c for c in edition.combos if c.id == record_id)
    params = {**edition.rules, **edition.params}
    names = choice_names(record.choose)
    if part == "choose":
        return " ".join(describe_expression(tree, params, cards=edition.cards, names=names)
                        for _name, tree in record.choose)
    if part == "requires":
        return describe_expression(record.requires, params, cards=edition.cards, names=names)
    return " ".join(describe_program(getattr(record, part), params, cards=edition.cards, names=names))


@pytest.mark.parametrize("edition, record, part, facts", [
    ("original.yaml", "attack", "effect", ["next player", "2 turns", "End all your turns"]),
    ("original.yaml", "favor", "choose", ["a player you choose among the other players who hold cards"]),
    ("original.yaml", "favor", "requires", ["other players who hold cards"]),
    ("original.yaml", "favor", "effect", ["the chosen player chooses", "their hand", "into your hand"]),
    ("original.yaml", "see_the_future", "effect", ["top 3 cards of the draw pile", "in secret"]),
    ("original.yaml", "shuffle", "effect", ["Shuffle the draw pile"]),
    ("original.yaml", "skip", "effect", ["End your current turn"]),
    ("original.yaml", "nope", "effect", ["Cancel"]),
    ("original.yaml", "exploding_kitten", "on_draw",
     ["Reveal this card", "serve as a Defuse", "a place you choose", "you are out of the game"]),
    ("original.yaml", "two_of_a_kind", "effect", ["unseen", "the chosen player's hand", "into your hand"]),
    ("original.yaml", "three_of_a_kind", "choose", ["a card title you name"]),
    ("original.yaml", "three_of_a_kind", "effect", ["the named title", "into your hand"]),
    ("original.yaml", "five_different", "effect", ["a card you choose from the discard pile"]),
    ("imploding.yaml", "imploding_kitten", "on_draw",
     ["If this card lay face up", "out of the game", "a place you choose, face up"]),
    ("imploding.yaml", "targeted_attack", "effect", ["the chosen player must take 2 turns"]),
    ("imploding.yaml", "reverse", "effect", ["Reverse the direction of play", "End your current turn"]),
    ("imploding.yaml", "draw_from_the_bottom", "effect", ["from the bottom of the draw pile"]),
    ("streaking.yaml", "see_the_future_5x", "effect", ["top 5 cards"]),
    ("streaking.yaml", "super_skip", "effect", ["End every turn you owe"]),
    ("party.yaml", "triple_slap", "effect", ["3 turns"]),
    ("barking.yaml", "personal_attack", "effect", ["you must take 3 turns"]),
])
def test_real_cards_are_worded_with_their_key_facts(edition, record, part, facts):
    text = _words(_load(edition), record, part)
    for fact in facts:
        assert fact in text, f"{fact!r} missing from: {text}"


def test_attacks_that_do_not_stack_say_so(write):
    stacking = _words(_load("original.yaml"), "attack", "effect")
    house = write("plain.yaml", "format: 1\nkind: edition\nid: plain\nname: Plain attacks\n"
                                "extends: original\nset_rules: {attacks_stack: false}\n")
    plain = _words(load_edition(house), "attack", "effect")
    assert "under attack" in stacking and "under attack" not in plain


def test_rules_names_show_the_editions_value():
    tree = parse_program("attack(next_player(), rules.attack_turns)\n"
                         "if count(hand(me)) > rules.attack_turns { end_turn() }")
    known = " ".join(describe_program(tree, {"attack_turns": 3}))
    assert "must take 3 turns" in known and "“attack turns” (3)" in known
    assert "attack turns" in " ".join(describe_program(tree))


def test_let_names_read_as_what_they_hold_or_are_named_once():
    inline = " ".join(describe_program(parse_program(
        'let savers = playable_as(hand(me), "defuse")\nif count(savers) > 0 { discard(choose_kind(savers)) }')))
    assert "savers" not in inline and "that can serve as" in inline
    snapshot = " ".join(describe_program(parse_program(
        "let before = count(hand(me))\ndraw(me)\nif count(hand(me)) > before { end_turn() }")))
    assert "“before”" in snapshot  # a value taken before the draw is not re-read after it


def test_loops_and_branches_are_worded():
    text = " ".join(describe_program(parse_program(
        "for p in others() { if has(p, \"nope\") { reveal(hand(p)) } else { eliminate(p) } }")))
    assert text.startswith("For each of the other players:")
    assert "if that player holds a nope" in text and "; otherwise, that player is out of the game" in text


@pytest.mark.parametrize("text, said", [
    ("-1", "-1"), ("0 - 2", "-2"), ("-count(hand(me))", "minus the number of cards in your hand"),
    ("5 - 2", "5 minus 2"),
])
def test_a_minus_sign_is_worded_as_one(text, said):
    assert describe_expression(parse_expression(text), {}) == said


def test_odd_shapes_never_crash():
    broken = s.Program(0, (s.CallStmt(0, s.Call(0, "move", (), ())),
                           s.CallStmt(0, s.Call(0, "frobnicate", (s.IntLit(0, 1),), ())),
                           s.Let(0, "x", 0, s.Not(0, s.Call(0, "has", (), ()))),
                           s.CallStmt(0, s.Call(0, "eliminate", (s.Name(0, "x"),), ()))))
    text = " ".join(describe_program(broken))
    assert text.startswith("Move the cards") and "Frobnicate(…)" in text
    assert describe_expression(s.Keyword(0, "by", s.IntLit(0, 1))) == "something"
    assert describe_program(None) == []


# -- the number check ------------------------------------------------------------------
def _edition(write, text: str, effect: str, when: str = "own_turn") -> str:
    write("lib.yaml", f"""format: 1
kind: cards
uses: [{ORIGINAL_CARDS}]
cards:
  - id: peek
    title: Peek
    text: '{text}'
    when: {when}
    tags: [action]
    effect: {effect}
""")
    return write("ed.yaml", f"""format: 1
kind: edition
id: ed
name: Made-up
players: {{min: 2, max: 2}}
include: [{ORIGINAL_CARDS}, lib.yaml]
deck: {{exploding_kitten: 2, peek: 2}}
setup:
  - shuffle: draw_pile
turn: {{draw: "draw(me) end_turn()"}}
win: last_standing
""")


def test_a_text_that_counts_differently_from_its_effect_is_found(write, tmp_path):
    edition = load_edition(_edition(write, "Look at the top 3 cards of the draw pile.",
                                    "show(top(draw_pile, 5), me)"))
    findings = number_mismatches(edition)
    lib = tmp_path / "lib.yaml"
    line = lib.read_text().splitlines().index("  - id: peek") + 1
    assert findings == [Finding("peek", findings[0].origin, findings[0].message)]
    assert str(findings[0].origin) == f"{lib}:{line}"
    assert "top 3" in findings[0].message and "5" in findings[0].message
    sheet = render_rulesheet(edition, 2)
    assert "## Where a card's text and its effect disagree" in sheet and "Peek: the text says" in sheet


@pytest.mark.parametrize("text, effect", [
    ("Look at the top three cards of the draw pile.", "show(top(draw_pile, 3), me)"),
    ("Look at the top card of the draw pile.", "show(top(draw_pile), me)"),
    ("Look at the two cards you hold.", "show(hand(me), me)"),  # "the two cards" counts nothing
    # arithmetic of fixed numbers counts as its value (the third probe's Double Attack)
    ("The next player takes four turns.", "attack(next_player(), 2 * rules.attack_turns)"),
    ("Look at the top four cards of the draw pile.", "show(top(draw_pile, 2 + 2), me)"),
])
def test_texts_that_agree_with_their_effect_are_not_found(write, text, effect):
    edition = load_edition(_edition(write, text, effect))
    assert number_mismatches(edition) == []
    assert "Text and effect checks" not in render_rulesheet(edition, 2)


def test_a_number_of_the_card_a_reaction_answers_is_not_found(write):
    # "two turns" are the Attack's (rules.attack_turns), which this card answers
    text = ("Play when an Attack is played on you: cancel it. Instead of its two turns, "
            "you take one extra turn.")
    edition = load_edition(_edition(write, text, '"cancel(); attack(me, 1)"', when="reaction"))
    assert number_mismatches(edition) == []


def test_a_reaction_that_disagrees_with_its_own_effect_is_still_found(write):
    text = "Play when an Attack is played on you: cancel it and look at the top 3 cards."
    edition = load_edition(_edition(write, text, '"cancel(); show(top(draw_pile, 4), me)"',
                                    when="reaction"))
    assert ["top 3" in f.message for f in number_mismatches(edition)] == [True]


def test_up_to_two_cards_taken_by_two_moves_is_not_found(write):
    effect = ('"move(choose_card(discard_pile), hand(me)); '
              'move(choose_card(discard_pile), hand(me))"')
    edition = load_edition(_edition(write, "Take up to two cards from the discard pile.", effect))
    assert number_mismatches(edition) == []
    effect = '"move(choose_card(discard_pile), hand(me))"'
    edition = load_edition(_edition(write, "Take up to two cards from the discard pile.", effect))
    assert ["two cards" in f.message for f in number_mismatches(edition)] == [True]


def test_counting_words_are_read_from_texts():
    assert set(text_numbers("Look at the top three cards, then take 2 more turns.")) == {3, 2}
    assert set(text_numbers("Five cards whose titles all differ")) == {5}
    assert text_numbers("Look at the two cards in secret. With two players it is a Skip.") == {}


@pytest.mark.parametrize("name, edition", list(_shipped_editions()), ids=lambda v: v if isinstance(v, str) else "")
def test_no_shipped_card_text_disagrees_with_its_effect(name, edition):
    assert number_mismatches(edition) == [], name


# -- the rulesheet ---------------------------------------------------------------------
def test_the_original_for_four_players():
    sheet = render_rulesheet(_load("original.yaml"), 4)
    assert sheet.startswith("# Exploding Kittens (Original Edition)\n")
    assert "For 2 to 5 players." in sheet and "The first edition" in sheet  # its description
    assert "| Defuse | 6 |" in sheet and "| Exploding Kitten | 4 |" in sheet and "| Total | 56 |" in sheet
    assert "Deal 1 Defuse" in sheet and "Deal 7 cards from the draw pile to each player" in sheet
    assert "Put 3 Exploding Kittens into the draw pile" in sheet
    assert "with 4 players, 2 go back" in sheet  # spare Defuses, counted for four
    assert "Each player starts with 8 cards in hand" in sheet
    assert "The draw pile starts with 23 cards, 3 Exploding Kittens among them." in sheet
    headings = ["## Setup for 4 players", "## Deck for 4 players", "## Cards", "### See the Future",
                "## Combos", "### Two of a kind", "## The rules in numbers"]
    places = [sheet.index(h) for h in headings]
    assert places == sorted(places)
    assert "**In rules terms:** Look at the top 3 cards of the draw pile in secret." in sheet
    attack = sheet[sheet.index("### Attack"):sheet.index("### Favor")]
    assert "Played on your own turn. Nope can cancel it." in attack
    defuse = sheet[sheet.index("### Defuse"):sheet.index("### Attack")]
    assert "Never played on its own." in defuse and "cancel it" not in defuse  # never played alone
    assert "- Hand size: 7." in sheet and "- Attacks add up:" in sheet
    assert "The last player still in the game wins." in sheet
    assert "What this variant changes" not in sheet


@pytest.mark.parametrize("condition, card, holds", [
    ('title(answered()) == "attack"', "attack", True),
    ('title(answered()) == "attack"', "skip", False),
    ('"attack" == title(answered())', "attack", True),
    ('title(answered()) != "attack"', "skip", True),
    ('not title(answered()) == "attack"', "attack", False),
    ('title(answered()) == "attack" or title(answered()) == "skip"', "skip", True),
    ('title(answered()) == "attack" and count(hand(me)) > 2', "skip", False),
    ('title(answered()) == "attack" and count(hand(me)) > 2', "attack", None),
    ('title(answered()) == "attack" or count(hand(me)) > 2', "skip", None),
    ('count(hand(me)) > 2', "attack", None),
    ('title(answered()) == "attack"', None, None),  # a combo: its first card could be anything
])
def test_a_cancellers_condition_is_settled_only_by_the_title_it_answers(condition, card, holds):
    assert _answering_holds(parse_expression(condition), card) is holds


def test_a_canceller_limited_to_one_title_is_named_only_on_that_card():
    sheet = render_rulesheet(load_edition(str(ROOT / "examples" / "house-rules" / "under_pressure.yaml")), 4)
    attack = sheet[sheet.index("### Attack"):sheet.index("### Favor")]
    skip = sheet[sheet.index("### Skip"):]
    skip = skip[:skip.index("\n### ", 1)]
    assert "Nope and Return to Sender can cancel it." in attack
    assert "Nope can cancel it." in skip and "Return to Sender" not in skip
    pair = sheet[sheet.index("### Two of a kind"):]
    assert "Return to Sender can also cancel it when its own condition holds." in pair[:pair.index("\n### ", 1)]


def test_setup_counts_follow_the_player_count():
    three = render_rulesheet(_load("original.yaml"), 3)
    five = render_rulesheet(_load("original.yaml"), 5)
    assert "Put 2 Exploding Kittens into the draw pile" in three
    assert "with 5 players, 1 goes back" in five  # only one spare Defuse is left with five


def test_the_party_deck_depends_on_the_player_count():
    party = _load("party.yaml")
    eight, three = render_rulesheet(party, 8), render_rulesheet(party, 3)
    assert "| Defuse | 10 |" in eight and "| Defuse | 3 |" in three
    assert "| Total | 129 |" in eight and "| Total | 56 |" in three
    assert "Put 7 Exploding Kittens into the draw pile" in eight


def test_expansions_and_playmats_are_set_up_in_words():
    imploding = render_rulesheet(_load("imploding.yaml"), 6)
    assert "Put 1 Imploding Kitten into the draw pile" in imploding
    assert "Put 4 Exploding Kittens into the draw pile" in imploding
    assert "Imploding Kittens: Adds the Imploding Kitten" in imploding  # the expansion's description
    good = render_rulesheet(_load("good_vs_evil.yaml"), 2)
    assert "Move 1 Godcat and 1 Devilcat from the deck to the playmat." in good
    assert "The playmat holds 1 Godcat and 1 Devilcat." in good
    assert "Wild: it may stand in for any card except Nope." in good
    barking = render_rulesheet(_load("barking.yaml"), 3)
    assert "Move the top 6 cards of the draw pile to the tower stash, face down" in barking


def test_variant_sheets_show_the_variant_and_its_changes():
    older = _load("original.yaml", "older_printing")
    from kittens.interpreter.words.resolved import diff
    whole = _load("original.yaml")
    sheet = render_rulesheet(older, 4, changes=diff(whole, older), base=whole)
    assert sheet.startswith("# Exploding Kittens (Original Edition) (older printing variant)")
    assert "This variant: The older printing's setup" in sheet
    # file 002's order: the four cards first, then the Defuses, then the spare
    deal, defuses, spare = (sheet.index(text) for text in (
        "Deal 4 cards from the draw pile", "Deal 1 Defuse", "Put 1 set-aside Defuse back"))
    assert deal < defuses < spare
    tail = sheet[sheet.index("## What this variant changes"):]
    assert ("Played as Exploding Kittens (Original Edition), except:\n\n- Hand size: 4 instead of 7.\n"
            "- The setup is different (see Setup).") in tail


def test_state_checks_are_listed():
    sheet = render_rulesheet(_load("streaking.yaml"), 3)
    assert "### Rules watched all the time" in sheet
    assert "A Streaking Kitten that reaches the discard pile leaves the game." in sheet
    assert ("When there are Streaking Kitten cards in the discard pile: put the Streaking Kitten cards "
            "in the discard pile out of the game.") in sheet


class _Balance(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "input", "link"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.tags = [], [], set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def test_html_is_a_well_formed_page_with_escaped_text(write):
    path = _edition(write, "Peek & see: <b>top</b> cards.", "show(top(draw_pile, 2), me)")
    page = render_rulesheet(load_edition(path), 2, fmt="html")
    assert page.startswith("<!DOCTYPE html>") and "<table>" in page and "</html>" in page
    assert "Peek &amp; see: &lt;b&gt;top&lt;/b&gt; cards." in page and "<b>top</b>" not in page
    checker = _Balance()
    checker.feed(page)
    assert checker.errors == [] and checker.stack == []
    assert {"h1", "h2", "h3", "table", "td", "ul", "li", "blockquote", "p", "strong"} <= checker.tags
    markdown = render_rulesheet(load_edition(path), 2)
    assert "\\<b\\>top\\</b\\>" in markdown  # no raw HTML gets into Markdown either


def test_bad_arguments_are_refused():
    original = _load("original.yaml")
    with pytest.raises(ValueError, match="2 to 5 players"):
        render_rulesheet(original, 6)
    with pytest.raises(ValueError, match="format"):
        render_rulesheet(original, 4, fmt="pdf")


@pytest.mark.parametrize("name, edition", list(_shipped_editions()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_shipped_edition_renders_at_its_smallest_and_largest_table(name, edition):
    for players in sorted(set(edition.players)):
        markdown = render_rulesheet(edition, players)
        page = render_rulesheet(edition, players, fmt="html")
        assert f"## Setup for {players} players" in markdown and "<table>" in page
        for card_id in edition.deck_for(players):
            assert f"### {edition.cards[card_id].title}" in markdown
        assert "could not be put into words" not in markdown
        # the sheet's step-by-step count agrees with the validator's dry run
        assert +SetupRun(edition, players).pile == +dry_run(edition, players)[1]


def test_a_sum_that_divides_by_zero_is_no_fixed_number(write):
    """Found by the generated-rules fuzzer: `(0 + 0)` made the text check divide by zero."""
    edition = load_edition(_edition(write, "Look at the top three cards.",
                                    "show(top(draw_pile, 3 + (0 + 0)), me)"))
    assert number_mismatches(edition) == []
