"""The general concepts issue 4 added to the engine, each tested on a small made-up edition.

Expansions (merging, routing diagnostics to the file that wrote a value),
card overrides, wildcards, distinct backs, per-player zones, draw hooks,
decoys, blind play, state checks, re-skins, the new setup steps and `*`, `/`.
"""

import json

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import RuleError, load_edition

ORIGINAL = ROOT / "editions" / "original.yaml"
ORIGINAL_CARDS = ROOT / "rulebook" / "original.yaml"
runner = CliRunner()


def _expansion(write, name="extra", body="deck: {skip: 2}\n", base=ORIGINAL):
    return write(f"{name}.yaml", f"format: 1\nkind: expansion\nid: {name}\nname: {name} box\n"
                                 f"base: {base}\n{body}")


def _edition(write, cards: str, deck: str, *, extra: str = "", zones: str = "",
             setup: str = "  - shuffle: draw_pile", include: str = "") -> str:
    write("lib.yaml", f"format: 1\nkind: cards\nuses: [{ORIGINAL_CARDS}]\n{zones}cards:\n{cards}")
    return write("ed.yaml", f"""format: 1
kind: edition
id: ed
name: Made-up
players: {{min: 2, max: 2}}
include: [{ORIGINAL_CARDS}, lib.yaml{include}]
deck: {deck}
setup:
{setup}
turn: {{draw: "draw(me) end_turn()"}}
win: last_standing
{extra}""")


def _play(path, players, hands, pile, *, start=0, areas=None, zones=None, variant=None):
    """A game of ``path`` with the given hands and pile (top first), no setup."""
    edition = load_edition(path, variant)

    def layout(table):
        for seat, ids in hands.items():
            for card_id in ids:
                table.new_card(edition.cards[card_id], table.hands[seat])
        for card_id in pile:
            table.new_card(edition.cards[card_id], table.draw_pile)
        for name, by_seat in (areas or {}).items():
            for seat, ids in by_seat.items():
                for card_id in ids:
                    table.new_card(edition.cards[card_id], table.areas[name][seat])
        for name, ids in (zones or {}).items():
            for card_id in ids:
                table.new_card(edition.cards[card_id], table.extra[name])
        table.current = start
        table.owed[start] = 1
    return Game(edition, players).new_state(1, layout=layout, explicit_chance=True)


# -- expansions -------------------------------------------------------------------
def test_an_expansion_adds_counts_and_keeps_the_base_setup(write):
    path = _expansion(write)
    edition = load_edition(path)
    assert edition.deck["skip"] == ((2, 5, 6),)
    assert edition.kind == "expansion" and edition.name == "Exploding Kittens (Original Edition) + extra box"
    # the base's variants are carried over, the expansion's cards added on top of each
    assert set(edition.variants) == {"older_printing", "beginner"}
    assert edition.variants["beginner"].deck["skip"] == ((2, 5, 6),)


def test_with_applies_an_expansion_to_any_edition(write):
    path = _expansion(write, body="players: {min: 3, max: 4}\ndeck: {skip: {\"2-4\": 1, \"5\": 2}}\n")
    edition = load_edition(str(ORIGINAL), None, (path,))
    assert edition.players == (2, 5)  # an expansion's range widens the base's, never narrows it
    assert Game(edition, 5).deck["skip"] == 6 and Game(edition, 3).deck["skip"] == 5


def test_deck_counts_by_printed_mark_follow_the_marks_in_use(write):
    path = _edition(write, CAT.format(id="plain_cat"), "{exploding_kitten: 2, tacocat: {paw: 3, plain: 4}}",
                    extra='marks: {"2": [paw], "3": [paw, plain]}\n')
    text = open(path).read().replace("max: 2", "max: 3")
    write("ed.yaml", text)
    edition = load_edition(path)
    assert edition.deck["tacocat"] == ((2, 2, 3), (3, 3, 7))
    party = load_edition(str(ROOT / "editions" / "party.yaml"), None,
                         (str(ROOT / "editions" / "imploding.yaml"),))
    assert party.players == (2, 10)
    assert Game(party, 2).deck["feral_cat"] == 2 + 4 and Game(party, 9).deck["feral_cat"] == 6 + 4
    bad = _edition(write, CAT.format(id="plain_cat"), "{exploding_kitten: 1, tacocat: {pawn: 3}}",
                   extra='marks: {"2": [paw]}\n')
    assert any("mark 'pawn'" in d.message for d in validate_paths([bad]).diagnostics)


def test_diagnostics_about_merged_values_point_at_the_expansion(write):
    path = _expansion(write, body="deck: {no_such_card: 1}\n")
    report = validate_paths([path])
    found = [d for d in report.diagnostics if d.code == "unknown-card"]
    assert found and found[0].path == path and found[0].line == 6


def test_an_expansion_whose_base_is_missing_is_an_error(write):
    path = _expansion(write, base="nowhere.yaml")
    report = validate_paths([path])
    assert any(d.code == "unknown-file" and d.path == path for d in report.diagnostics)


def test_with_refuses_a_file_that_is_not_an_expansion():
    with pytest.raises(RuleError, match="not an expansion"):
        load_edition(str(ORIGINAL), None, (str(ORIGINAL),))


def test_cli_run_with_and_replay(write, tmp_path):
    path = _expansion(write)
    log = str(tmp_path / "games.jsonl")
    result = runner.invoke(app, ["run", str(ORIGINAL), "--with", path, "-g", "3", "--log", log])
    assert result.exit_code == 0, result.output
    header = json.loads(open(log).readline())
    assert header["with"] == [path]
    assert runner.invoke(app, ["replay", log]).exit_code == 0


def test_kittens_list_json_names_every_shipped_edition():
    result = runner.invoke(app, ["list", "--json"])
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)
    assert all({"name", "kind", "path", "players"} <= set(e) for e in entries)
    kinds = {e["kind"] for e in entries}
    assert {"edition", "expansion", "variant"} <= kinds
    original = next(e for e in entries if e["id"] == "original" and e["kind"] == "edition")
    assert original["players"] == [2, 5]
    text = runner.invoke(app, ["list"]).output
    assert "older_printing" in text and "[expansion" in text


# -- overrides ----------------------------------------------------------------------
CAT = """\
  - id: {id}
    title: Some Cat
    text: A cat.
    when: never
    tags: [cat]
"""


def test_a_card_defined_twice_needs_overrides(write):
    path = _edition(write, CAT.format(id="tacocat"), "{exploding_kitten: 1, tacocat: 4}")
    report = validate_paths([path])
    assert any(d.code == "duplicate-id" for d in report.diagnostics)


def test_overrides_replace_the_base_card(write):
    path = _edition(write, CAT.format(id="tacocat") + "    overrides: true\n",
                    "{exploding_kitten: 1, tacocat: 4}")
    assert load_edition(path).cards["tacocat"].title == "Some Cat"


def test_overrides_with_nothing_to_override_is_an_error(write):
    path = _edition(write, CAT.format(id="new_cat") + "    overrides: true\n",
                    "{exploding_kitten: 1, new_cat: 4}")
    report = validate_paths([path])
    assert any(d.code == "nothing-to-override" for d in report.diagnostics)


# -- wildcards, distinct backs, return zones -----------------------------------------------
WILD = """\
  - id: wild
    title: Wild
    text: Plays as anything but a Nope; returns to the mat.
    when: own_turn
    stands_for: {any: true, except: [nope]}
    returns_to: mat
    back: distinct
    in_combos: false
  - id: feral
    title: Feral
    text: Any cat in a combo.
    when: never
    tags: [cat]
    stands_for: {tag: cat}
"""
MAT = "zones:\n  mat: {}\n"


def test_a_wildcard_plays_as_other_titles_and_returns_to_its_zone(write):
    path = _edition(write, WILD, "{exploding_kitten: 1, wild: 1, skip: 1, nope: 1}", zones=MAT,
                    extra="combos: []\n")
    state = _play(path, 2, {0: ["wild"]}, ["skip", "nope", "tacocat"])
    options = state.legal_actions()
    assert "play wild as skip" in options and "play wild as nope" not in options
    assert "play wild" not in options
    state.apply_action("play wild as skip")
    assert [c.id for c in state.table.extra["mat"].cards] == ["wild"]
    assert state.table.current == 1


def test_a_wildcard_saves_from_a_kitten_and_a_distinct_back_is_seen_by_all(write):
    path = _edition(write, WILD, "{exploding_kitten: 1, wild: 1, defuse: 1}", zones=MAT,
                    extra="combos: []\n")
    state = _play(path, 2, {0: ["wild"]}, ["exploding_kitten", "tacocat"])
    assert state.view(1).known_in_hand(0) == ["wild"]  # its back gives it away
    state.apply_action("draw")
    assert state.decision().kind == "choose_position"  # saved by the wildcard
    state.apply_action(0)
    assert [c.id for c in state.table.extra["mat"].cards] == ["wild"]
    assert state.table.alive == [True, True]


def test_a_thief_may_take_a_distinct_card_on_purpose(write):
    write("combos.yaml", f"""format: 1
kind: combos
uses: [{ORIGINAL_CARDS}, lib.yaml]
combos:
  - id: pair
    title: Pair
    text: Steal.
    cards: 2
    match: same_title
    tag: cat
    effect: move(blind_pick(hand(victim)), hand(me))
    choose:
      victim: choose_player(with_cards(others()))
""")
    path = _edition(write, WILD, "{exploding_kitten: 1, wild: 1, tacocat: 2}", zones=MAT,
                    include=", combos.yaml", extra="combos: [pair]\n")
    state = _play(path, 2, {0: ["tacocat", "feral"], 1: ["wild", "skip", "defuse"]}, ["skip"])
    assert "combo pair tacocat" in state.legal_actions()  # the feral fills the pair
    state.apply_action("combo pair tacocat")  # the victim: seat 1, the only one, unasked
    decision = state.decision()
    assert decision.kind == "blind_pick" and decision.options == [True, "wild"]
    state.apply_action("wild")
    assert "wild" in [c.id for c in state.table.hands[0].cards]


def test_unknown_names_in_wildcards_and_zones_are_errors(write):
    bad = """\
  - id: odd
    title: Odd
    text: Odd.
    when: own_turn
    stands_for: {cards: [no_such], tag: no_tag}
    returns_to: nowhere
"""
    path = _edition(write, bad, "{exploding_kitten: 1, odd: 1}")
    codes = {d.code for d in validate_paths([path]).diagnostics}
    assert {"unknown-card", "unknown-zone"} <= codes


# -- per-player zones, draw hooks, decoys, blind play -------------------------------------
HOOKS = """\
  - id: claim
    title: Claim
    text: The target's next draw goes to whoever played this.
    when: own_turn
    choose:
      victim: choose_player(others())
    effect: move(this, zone_of(victim, "front"))
    instead_of_draw: |
      let thief = played_by(this)
      discard(this)
      draw(thief, from_bottom=from_bottom)
  - id: tower
    title: Tower
    text: Steals from you take from the stash.
    when: own_turn
    effect: move(this, zone_of(me, "front"))
    decoy: stash
  - id: blindfold
    title: Blindfold
    text: The player it lies before plays blind.
    when: never
    blinds: true
  - id: grab
    title: Grab
    text: Take a random card of the next player.
    when: own_turn
    effect: move(random_card(hand(next_player())), hand(me))
"""
FRONT = "zones:\n  front: {per_player: true}\n  stash: {public: false}\n"


def test_a_draw_hook_gives_the_draw_to_the_player_who_played_the_card(write):
    path = _edition(write, HOOKS, "{exploding_kitten: 1, claim: 1}", zones=FRONT)
    state = _play(path, 2, {0: ["claim"]}, ["tacocat", "skip"])
    state.apply_action("play claim")  # on seat 1, the only other player: nobody is asked
    assert [c.id for c in state.table.areas["front"][1].cards] == ["claim"]
    state.apply_action("draw")  # seat 0 draws the tacocat
    state.apply_action("draw")  # seat 1's draw goes to seat 0
    assert sorted(c.id for c in state.table.hands[0].cards) == ["skip", "tacocat"]
    assert state.table.hands[1].cards == [] and state.table.areas["front"][1].cards == []


def test_a_zone_of_a_name_not_declared_per_player_is_an_error(write):
    cards = HOOKS.replace('zone_of(victim, "front")', 'zone_of(victim, "stash")')
    path = _edition(write, cards, "{exploding_kitten: 1, claim: 1}", zones=FRONT)
    assert any(d.code == "unknown-zone" for d in validate_paths([path]).diagnostics)


def test_a_decoy_takes_random_picks_from_its_stash(write):
    path = _edition(write, HOOKS, "{exploding_kitten: 1, grab: 1, tower: 1}", zones=FRONT)
    state = _play(path, 2, {0: ["grab"], 1: ["skip", "skip"]}, ["skip"],
                  areas={"front": {1: ["tower"]}}, zones={"stash": ["defuse"]})
    state.apply_action("play grab")
    state.apply_action(0)  # the chance pick: the only stash card
    assert [c.id for c in state.table.hands[0].cards] == ["defuse"]
    assert len(state.table.hands[1].cards) == 2


def test_a_blind_player_may_only_draw_or_play_at_random(write):
    path = _edition(write, HOOKS, "{exploding_kitten: 1, blindfold: 1, grab: 1}", zones=FRONT)
    state = _play(path, 2, {0: ["grab", "tacocat"], 1: ["skip"]}, ["skip"],
                  areas={"front": {0: ["blindfold"]}})
    assert state.legal_actions() == ["draw", "play blind"]
    state.apply_action("play blind")
    state.apply_action(1)  # the chance pick: the tacocat, which cannot be played
    assert any(e["type"] == "blind_miss" for e in state.events)
    state.apply_action("play blind")
    state.apply_action(0)  # the grab: played
    state.apply_action(0)  # and it takes the next player's only card
    assert sorted(c.id for c in state.table.hands[0].cards) == ["skip", "tacocat"]


# -- state checks, re-skins, setup steps, arithmetic ---------------------------------------
def test_a_state_check_runs_after_plays_and_draws(write):
    path = _edition(write, HOOKS, "{exploding_kitten: 1, grab: 1}", zones=FRONT, extra="""\
checks:
  - id: no_skips_held
    text: Nobody may hold a Skip; it goes to the discard pile.
    if: has(me, "skip")
    effect: move(find(hand(me), "skip"), discard_pile)
""")
    state = _play(path, 2, {0: ["grab"], 1: ["skip"]}, ["tacocat", "skip"])
    state.apply_action("play grab")
    state.apply_action(0)
    assert [c.id for c in state.table.discard_pile.cards][:1] == ["skip"]
    assert any(e["type"] == "check" for e in state.events)


def test_a_skin_changes_titles_and_texts_only(write):
    path = _edition(write, CAT.format(id="plain_cat"), "{exploding_kitten: 1, tacocat: 4}",
                    extra="skin:\n  tacocat: {title: Disco Cat, text: Dances.}\n")
    edition = load_edition(path)
    assert edition.cards["tacocat"].title == "Disco Cat"
    assert edition.cards["tacocat"].when == "never"
    bad = _edition(write, CAT.format(id="plain_cat"), "{exploding_kitten: 1, tacocat: 4}",
                   extra="skin:\n  no_such: {title: X}\n")
    assert any(d.code == "unknown-card" for d in validate_paths([bad]).diagnostics)


def test_place_and_remove_random_with_a_share_of_the_pile(write):
    path = _edition(write, CAT.format(id="plain_cat"), "{exploding_kitten: 1, tacocat: 12, skip: 2}",
                    zones="zones:\n  mat: {}\n", setup="""\
  - set_aside: [exploding_kitten]
  - place: {cards: [skip], zone: mat}
  - remove_random: {count: pile / 3 * 2 - 1}
  - put_back: {card: exploding_kitten, count: 1}
  - shuffle: draw_pile""")
    table = Game(load_edition(path), 2).new_state(5).table
    assert [c.id for c in table.extra["mat"].cards] == ["skip", "skip"]
    assert len(table.removed.cards) == 12 // 3 * 2 - 1 and len(table.draw_pile.cards) == 12 - 7 + 1


def test_dividing_by_zero_gives_zero():
    from kittens.interpreter.lang.counts import evaluate
    from kittens.interpreter.lang.parser import parse_expression
    assert evaluate(parse_expression("7 / 0 + 10 / 3 * 2"), {}, {}) == 6


# -- rearranging --------------------------------------------------------------------
def test_rearranging_is_one_event_that_keeps_face_up_cards_and_tells_others_nothing():
    path = str(ROOT / "editions" / "imploding.yaml")
    state = _play(path, 3, {0: ["alter_the_future"], 1: ["tacocat"], 2: ["tacocat"]},
                  ["tacocat", "imploding_kitten", "beard_cat", "cattermelon"])
    pile = state.table.draw_pile.cards
    pile[1].face_up, pile[1].known = True, state.table.everyone
    pile[2].known |= 1 << 1  # seat 1 saw the beard cat before
    state.apply_action("play alter_the_future")
    decision = state.decision()
    assert decision.kind == "rearrange" and decision.info["cards"] == ["tacocat", "imploding_kitten",
                                                                      "beard_cat"]
    state.apply_action([2, 0, 1])
    assert [c.id for c in pile] == ["beard_cat", "tacocat", "imploding_kitten", "cattermelon"]
    assert [i for i, c in enumerate(pile) if c.face_up] == [2]
    assert state.view(1).draw_pile_known() == {2: "imploding_kitten"}
    assert state.view(0).draw_pile_known() == {0: "beard_cat", 1: "tacocat", 2: "imploding_kitten"}
    event = state.events[-1]
    assert event["type"] == "rearranged" and event["face_up_places"] == {"2": "imploding_kitten"}
    from kittens.interpreter.engine.events import for_seat
    assert "cards" not in for_seat(event, 1) and for_seat(event, 0)["cards"][0] == "beard_cat"


def test_a_scenario_can_script_a_new_order_by_card_ids(write):
    path = write("order.yaml", f"""format: 1
kind: scenario
description: The cards come back in the order the script names.
edition: {ROOT / "editions" / "imploding.yaml"}
players: 2
hands: {{0: [alter_the_future]}}
draw_pile: [tacocat, beard_cat, cattermelon, skip]
steps:
  - {{seat: 0, do: play alter_the_future}}
  - {{seat: 0, do: [cattermelon, tacocat, beard_cat]}}
expect:
  draw_pile: [cattermelon, tacocat, beard_cat, skip]
""")
    from kittens.authoring.scenario import ScenarioRunner
    outcome = ScenarioRunner().run(path)
    assert outcome.passed, outcome.failures


# -- expansions that add setup steps combine -------------------------------------------
@pytest.mark.parametrize("base", ["original", "party", "good_vs_evil"])
@pytest.mark.parametrize("players", [2, 4, 5])
def test_imploding_and_barking_add_their_steps_to_any_base(base, players):
    from collections import Counter
    edition = load_edition(str(ROOT / "editions" / f"{base}.yaml"), None,
                           (str(ROOT / "editions" / "imploding.yaml"),
                            str(ROOT / "editions" / "barking.yaml")))
    table = Game(edition, players).new_state(players).table
    pile = Counter(c.id for c in table.draw_pile.cards)
    assert pile["imploding_kitten"] == 1 and pile["exploding_kitten"] == players - 2  # ruling 12
    stash = table.extra["tower_stash"].cards
    assert len(stash) == 6 and not any("kitten" in c.card.tags for c in stash)
    if base == "good_vs_evil":
        assert sorted(c.id for c in table.extra["playmat"].cards) == ["devilcat", "godcat"]


def test_a_card_nobody_played_gives_no_player_and_what_takes_it_does_nothing(write):
    cards = HOOKS.replace("let thief = played_by(this)\n      discard(this)\n"
                          "      draw(thief, from_bottom=from_bottom)",
                          "discard(this)\n      draw(played_by(this), from_bottom=from_bottom)")
    path = _edition(write, cards, "{exploding_kitten: 1, claim: 1}", zones=FRONT)
    state = _play(path, 2, {0: ["skip"]}, ["tacocat", "skip"], areas={"front": {0: ["claim"]}})
    state.apply_action("draw")  # the claim lying before seat 0 was never played: no thief
    assert state.table.hands[0].cards[0].id == "skip" and len(state.table.draw_pile.cards) == 2
    assert state.table.areas["front"][0].cards == [] and state.table.current == 1


def test_a_card_used_only_through_instead_of_draw_is_not_unplayable(write):
    trapdoor = """\
  - id: trapdoor
    title: Trapdoor
    text: While it lies before you, you draw from the bottom of the draw pile.
    when: never
    instead_of_draw: draw(me, from_bottom=true)
"""

    def unplayable(cards: str) -> list:
        path = _edition(write, cards, "{exploding_kitten: 1, trapdoor: 2, skip: 10}", zones=FRONT)
        return [d.message for d in validate_paths([path]).diagnostics if d.code == "unplayable-card"]

    assert unplayable(trapdoor) == []
    dead = unplayable(trapdoor.replace("    instead_of_draw: draw(me, from_bottom=true)\n", ""))
    assert len(dead) == 1 and "'trapdoor'" in dead[0], dead
