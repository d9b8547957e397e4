"""The scenario format: how a scenario names its game, the checks it can make, and
the mistakes in it that are errors rather than passes.

Each check is shown to pass where it should and to fail, naming file:line, where
it should not; the failing variants are written into tmp_path.
"""

import json
import re
import textwrap

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.authoring import scenario as scenario_module
from kittens.authoring.scenario import ScenarioRunner
from kittens.cli import app
from kittens.interpreter.rules.check import validate_paths

cli = CliRunner()
FORMAT = ROOT / "tests" / "scenarios" / "format"


def scenario(write, body: str, name: str = "s.yaml") -> str:
    """A scenario file in tmp_path: the envelope, then ``body``."""
    return write(name, "format: 1\nkind: scenario\n" + textwrap.dedent(body))


def line_of(path: str, needle: str) -> int:
    """The 1-based line of the first line of ``path`` holding ``needle``."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if needle in line:
                return number
    raise AssertionError(f"{needle!r} is not in {path}")


def run(path: str):
    return ScenarioRunner().run(path)


def failing(path: str, needle: str, *words: str) -> str:
    """Run a scenario that must fail at the line holding ``needle``, saying ``words``."""
    outcome = run(path)
    assert not outcome.passed, f"{path} passed"
    assert f"{path}:{line_of(path, needle)}:" in outcome.message, outcome.message
    for word in words:
        assert word in outcome.message, outcome.message
    return outcome.message


def errors(path: str) -> list[tuple[str, int, str]]:
    """(code, line, message) of each error `kittens validate` finds in ``path``."""
    report = validate_paths([path])
    return [(d.code, d.line, d.message) for d in report.diagnostics
            if d.is_error and d.path == path]


def test_the_format_scenarios_validate_clean_and_pass():
    report = validate_paths([str(FORMAT)])
    assert len(report.files) >= 6
    assert report.diagnostics == []
    result = cli.invoke(app, ["test", str(FORMAT)])
    assert result.exit_code == 0, result.output
    assert f"{len(report.files)} passed, 0 failed" in result.output


# -- naming the game ---------------------------------------------------------------
TWO = textwrap.dedent("""\
    players: 2
    hands: {0: [skip], 1: [tacocat]}
    draw_pile: [beard_cat, cattermelon]
    steps: [{seat: 0, do: draw}]
    expect: {turn: 1}
    """)


@pytest.mark.parametrize("head", [
    "edition: original\n",
    "edition: imploding\n",  # a shipped expansion, played on its base
    "edition: original\nwith: [imploding]\n",
    "edition: original\nwith: [imploding, barking]\n",
    "edition: original\nwith: [imploding]\nvariant: two_player\n",
])
def test_edition_by_shipped_name_with_expansions_and_variant(write, head):
    path = scenario(write, head + TWO)
    assert errors(path) == []
    outcome = run(path)
    assert outcome.passed, outcome.message


def test_with_applies_the_expansion_cards_and_their_setup(write):
    # the Imploding Kitten exists only with the expansion applied
    body = "players: 2\nsetup: edition\nsteps: []\nexpect:\n  counts: {game: {imploding_kitten: 1}}\n"
    with_it = scenario(write, "edition: original\nwith: [imploding]\n" + body, "with.yaml")
    assert run(with_it).passed
    without = scenario(write, "edition: original\n" + body, "without.yaml")
    assert errors(without) == [("unknown-card", line_of(without, "imploding_kitten"),
                                "the edition has no card 'imploding_kitten'; did you mean "
                                "'exploding_kitten'?")]
    failing(without, "imploding_kitten", "unknown-card")


HOUSE = "format: 1\nkind: edition\nid: house\nname: House\nextends: original\nset_params: {hand_size: 3}\n"


def test_paths_relative_to_the_scenario_still_work(write):
    write("rules/house.yaml", HOUSE)
    path = scenario(write, "edition: ../rules/house.yaml\nwith: [imploding]\n" + TWO,
                    "cases/s.yaml")
    assert errors(path) == [] and run(path).passed


@pytest.mark.parametrize("head, needle, code, words", [
    ("edition: originl\n", "edition", "unknown-file", ["no shipped edition", "did you mean 'original'"]),
    ("edition: missing/file.yaml\n", "edition", "unknown-file", ["no file 'missing/file.yaml'"]),
    ("edition: original\nwith: [implodng]\n", "with", "unknown-file", ["no expansion 'implodng'"]),
    ("edition: original\nwith: [original]\n", "with", "wrong-kind",
     ["is an edition file, not an expansion", "`with` takes expansions"]),
    ("edition: original\nvariant: fastest\n", "variant", "bad-value", ["no variant 'fastest'"]),
])
def test_a_game_that_cannot_be_found_is_an_error_at_its_line(write, head, needle, code, words):
    path = scenario(write, head + TWO)
    found = errors(path)
    assert [(c, line) for c, line, _m in found] == [(code, line_of(path, needle))], found
    failing(path, needle, *words)


def test_a_scenario_that_plays_itself_says_so(write):
    path = scenario(write, "edition: self.yaml\n" + TWO, "self.yaml")
    message = failing(path, "edition:", "is this scenario file itself, not a game to play")
    assert "[wrong-kind]" in message
    assert errors(path)[0][0] == "wrong-kind"


def test_a_scenario_that_plays_another_scenario_says_so(write):
    other = scenario(write, "edition: original\n" + TWO, "other.yaml")
    path = scenario(write, "edition: other.yaml\n" + TWO)
    failing(path, "edition:", "'other.yaml' is a scenario file, not an edition or an expansion")
    assert run(other).passed
    # a scenario with errors of its own is still a scenario, and said to be one
    write("broken.yaml", "format: 1\nkind: scenario\nedition: original\n")
    path = scenario(write, "edition: original\nwith: [broken.yaml]\n" + TWO, "uses_broken.yaml")
    failing(path, "with:", "'broken.yaml' is a scenario file, not an expansion",
            "broken.yaml:1:1: error: missing required key")


def test_a_card_library_is_not_a_game(write):
    cards = write("cards.yaml", "format: 1\nkind: cards\ncards:\n"
                                "  - {id: pebble, title: Pebble, text: Nothing., when: never}\n")
    assert validate_paths([cards]).errors == 0
    path = scenario(write, "edition: cards.yaml\n" + TWO)
    failing(path, "edition:", "is a cards file, not an edition or an expansion")


def test_a_broken_edition_shows_its_own_errors(write):
    write("broken.yaml", "format: 1\nkind: edition\nid: x\n")
    path = scenario(write, "edition: broken.yaml\n" + TWO)
    outcome = run(path)
    assert not outcome.passed
    assert "broken.yaml:" in outcome.message and "missing required key" in outcome.message


def test_each_game_compiles_once_per_runner(write, monkeypatch):
    calls = []
    real = scenario_module.compile_edition

    def counting(ws, path, expansions=()):
        calls.append((path, expansions))
        return real(ws, path, expansions)

    monkeypatch.setattr(scenario_module, "compile_edition", counting)
    write("house.yaml", HOUSE)
    paths = [scenario(write, "edition: original\n" + TWO, "a.yaml"),
             scenario(write, "edition: original\n" + TWO, "cases/b.yaml"),
             scenario(write, "edition: house.yaml\n" + TWO, "f.yaml"),
             scenario(write, "edition: ../house.yaml\n" + TWO, "cases/g.yaml"),
             scenario(write, "edition: original\nvariant: beginner\n" + TWO, "c.yaml"),
             scenario(write, "edition: original\nwith: [imploding]\n" + TWO, "d.yaml"),
             scenario(write, "edition: original\nwith: [imploding]\nvariant: faster\n" + TWO, "e.yaml")]
    runner = ScenarioRunner()
    assert all(runner.run(p).passed for p in paths)
    # the Original, the Original with Imploding Kittens, and the house rule
    assert len(calls) == 3, calls


# -- counts ----------------------------------------------------------------------------
SETUP = textwrap.dedent("""\
    edition: original
    players: 3
    setup: edition
    seed: 7
    steps: []
    """)


@pytest.mark.parametrize("counts, good, bad", [
    ("draw_pile: {exploding_kitten: N}", 2, 3),
    ("removed: {exploding_kitten: N}", 2, 1),
    ("game: {exploding_kitten: N}", 2, 4),
    ("game: {defuse: N}", 5, 6),
    ("every_hand: {exploding_kitten: N}", 0, 1),
])
def test_counts_after_the_editions_own_setup(write, counts, good, bad):
    for value, passes in ((good, True), (bad, False)):
        path = scenario(write, SETUP + f"expect:\n  counts:\n    {counts.replace('N', str(value))}\n",
                        f"counts_{value}.yaml")
        assert errors(path) == []
        if passes:
            outcome = run(path)
            assert outcome.passed, outcome.message
        else:
            failing(path, counts.split(":")[0], "copies of '", f"expected {value}")


def test_counts_in_hands_zones_and_areas(write):
    body = textwrap.dedent("""\
        edition: barking
        players: 3
        hands: {0: [nope, nope, skip], 1: [skip]}
        discard_pile: [attack, nope]
        areas: {in_front: {1: [ill_take_that]}}
        zones: {tower_stash: [defuse]}
        draw_pile: [tacocat]
        steps: []
        expect:
          counts:
            hands: {0: {nope: N, skip: 1, attack: 0}}
            discard_pile: {nope: 1, attack: 1}
            areas: {in_front: {1: {ill_take_that: 1}, 0: {ill_take_that: 0}}}
            zones: {tower_stash: {defuse: 1}}
        """)
    good = scenario(write, body.replace("N", "2"), "good.yaml")
    assert errors(good) == [] and run(good).passed
    bad = scenario(write, body.replace("N", "1"), "bad.yaml")
    failing(bad, "hands: {0: {nope:", "copies of 'nope' in the hand of seat 0: expected 1, got 2")
    for old, new, needle, words in [
        ("discard_pile: {nope: 1", "discard_pile: {nope: 2", "discard_pile: {nope:",
         "copies of 'nope' in the discard pile: expected 2, got 1"),
        ("{1: {ill_take_that: 1}", "{1: {ill_take_that: 0}", "{1: {ill_take_that: 0}",
         "copies of 'ill_take_that' in in_front of seat 1: expected 0, got 1"),
        ("{defuse: 1}}", "{defuse: 3}}", "tower_stash: {defuse",
         "copies of 'defuse' in zone tower_stash: expected 3, got 1"),
    ]:
        path = scenario(write, body.replace("N", "2").replace(old, new), "bad2.yaml")
        failing(path, needle, words)


def test_every_hand_leaves_out_the_seats_that_are_out(write):
    body = textwrap.dedent("""\
        edition: original
        players: 3
        start: {out: [1]}
        hands: {0: [defuse], 2: [defuse]}
        draw_pile: [tacocat]
        steps: []
        expect:
          counts: {every_hand: {defuse: 1}}
        """)
    assert run(scenario(write, body)).passed
    path = scenario(write, body.replace("2: [defuse]", "2: [skip]"), "bad.yaml")
    failing(path, "every_hand", "copies of 'defuse' in the hand of seat 2: expected 1, got 0")


# -- any order ----------------------------------------------------------------------------
def test_any_order_checks_public_places_without_their_order(write):
    body = textwrap.dedent("""\
        edition: barking
        players: 3
        hands: {0: [skip]}
        discard_pile: [attack, nope, nope]
        areas: {in_front: {1: [ill_take_that, bury]}}
        zones: {tower_stash: [defuse, favor]}
        draw_pile: [tacocat, beard_cat]
        steps: []
        expect:
          any_order:
            discard_pile: [nope, attack, nope]
            draw_pile: [beard_cat, tacocat]
            areas: {in_front: {1: [bury, ill_take_that], 2: []}}
            zones: {tower_stash: [favor, defuse]}
        """)
    good = scenario(write, body)
    assert errors(good) == []
    outcome = run(good)
    assert outcome.passed, outcome.message
    # the ordered checks still care about the order
    ordered = scenario(write, body.replace("any_order:", "zones: {tower_stash: [favor, defuse]}\n"
                                           "  any_order:"), "ordered.yaml")
    failing(ordered, "zones: {tower_stash: [favor", "zone tower_stash (top first)")
    for old, new, words in [
        ("[nope, attack, nope]", "[nope, attack]",
         "the discard pile (in any order): expected ['attack', 'nope'], got ['attack', 'nope', 'nope']"),
        ("[beard_cat, tacocat]", "[beard_cat, skip]",
         "the draw pile (in any order)"),
        ("[bury, ill_take_that]", "[bury, bury]",
         "in_front of seat 1 (in any order)"),
        ("[favor, defuse]}", "[favor]}",
         "zone tower_stash (in any order)"),
    ]:
        path = scenario(write, body.replace(old, new), "bad.yaml")
        failing(path, new, words)


# -- refused steps -------------------------------------------------------------------------
REFUSALS = textwrap.dedent("""\
    edition: original
    players: 2
    hands: {0: [tacocat, attack, nope], 1: [nope, skip, defuse]}
    draw_pile: [exploding_kitten, beard_cat, cattermelon]
    steps:
      - {seat: 0, do: play tacocat, refused: true}
      - {seat: 0, do: play attack}
      - {seat: 1, do: play skip, refused: true}
      - {seat: 1, do: pass}
      - {seat: 1, do: draw}
      - {seat: 0, do: play nope, refused: true}
      - {seat: 1, do: 0}
    expect:
      turn: 1
      hands: {0: [tacocat, nope], 1: [nope, skip]}
    """)


def test_refused_steps_pass_when_the_game_does_not_take_them(write):
    path = scenario(write, REFUSALS)
    assert errors(path) == []
    outcome = run(path)
    assert outcome.passed, outcome.message


@pytest.mark.parametrize("old, new, needle, words", [
    ("{seat: 0, do: play tacocat, refused: true}", "{seat: 0, do: draw, refused: true}",
     "do: draw, refused", "expects seat 0 `draw` to be refused, but it is a legal option now"),
    ("{seat: 1, do: play skip, refused: true}", "{seat: 1, do: play nope, refused: true}",
     "do: play nope, refused", "(answer: `pass`, `play nope`)"),
    ("{seat: 1, do: 0}", "{seat: 1, do: 3, refused: true}\n  - {seat: 1, do: 0, refused: true}",
     "do: 0, refused", "seat 1 `0` to be refused"),
])
def test_a_refused_step_fails_when_the_game_takes_it(write, old, new, needle, words):
    path = scenario(write, REFUSALS.replace(old, new))
    failing(path, needle, words)


# -- who played a card in the layout ---------------------------------------------------------
PLAYED_BY = textwrap.dedent("""\
    edition: barking
    players: 3
    start: {seat: 2}
    hands: {0: [skip], 2: [favor]}
    areas: {in_front: {2: [{card: ill_take_that, played_by: 0}]}}
    draw_pile: [tacocat, cattermelon]
    steps:
      - {seat: 2, do: draw}
    expect:
      hands: {0: [skip, tacocat], 2: [favor]}
    """)


def test_a_layout_card_can_say_who_played_it(write):
    path = scenario(write, PLAYED_BY)
    assert errors(path) == []
    outcome = run(path)
    assert outcome.passed, outcome.message
    # played by seat 1 instead: the card goes to seat 1
    other = scenario(write, PLAYED_BY.replace("played_by: 0", "played_by: 1"), "other.yaml")
    failing(other, "hands: {0: [skip, tacocat]", "hand of seat 0: expected ['skip', 'tacocat'], "
            "got ['skip']")
    # a plain id has nobody as its player: the target draws the card as usual
    plain = scenario(write, PLAYED_BY.replace("{card: ill_take_that, played_by: 0}", "ill_take_that"),
                     "plain.yaml")
    failing(plain, "hands: {0: [skip, tacocat]", "hand of seat 2: expected ['favor'], got "
            "['favor', 'tacocat']")


def test_played_by_items_mix_with_plain_ids_in_every_layout_list(write):
    path = scenario(write, """\
        edition: barking
        players: 3
        hands: {0: [skip, {card: nope, played_by: 1}]}
        discard_pile: [{card: attack, played_by: 2}, favor]
        areas: {in_front: {1: [bury, {card: ill_take_that, played_by: 0}]}}
        draw_pile: [tacocat, {card: beard_cat, played_by: 0}]
        steps: []
        expect:
          hands: {0: [skip, nope]}
          discard_pile: [attack, favor]
          areas: {in_front: {1: [bury, ill_take_that]}}
          draw_pile: [tacocat, beard_cat]
        """)
    assert errors(path) == []
    assert run(path).passed


def test_a_bad_played_by_item_is_an_error_at_its_line(write):
    path = scenario(write, PLAYED_BY.replace("played_by: 0}", "by: 0}"))
    found = errors(path)
    assert {code for code, _l, _m in found} <= {"missing-key", "unknown-key"} and found
    assert all(line == line_of(path, "ill_take_that") for _c, line, _m in found)


# -- seats that do not exist -------------------------------------------------------------------
BASE = textwrap.dedent("""\
    edition: original
    players: 3
    hands: {0: [skip, nope], 1: [nope], 2: [tacocat]}
    draw_pile: [beard_cat, cattermelon, tacocat]
    steps:
      - {seat: 0, do: play skip}
    """)

BAD_SEATS = [
    ("hands: {0: [skip, nope],", "hands: {0: [skip, nope], 3: [attack],", "3: [attack]"),
    ("steps:", "start: {seat: 4}\nsteps:", "start: {seat: 4}"),
    ("steps:", "start: {out: [1, 5]}\nsteps:", "start: {out"),
    ("- {seat: 0, do: play skip}", "- {seat: 3, do: play skip}", "seat: 3"),
    ("- {seat: 0, do: play skip}", "- {seat: 0, do: play skip}\n  - expect: {turn: 3}", "turn: 3"),
]

EXPECTS = [
    "owed: {7: 1}", "hands: {3: []}", "hand_counts: {3: 0}", "hand_has: {4: [nope]}",
    "hand_lacks: {9: [nope]}", "sees: {3: {hand: []}}", "sees: {0: {hands: {3: []}}}",
    "observed: {3: [{type: turn}]}", "not_observed: {3: [{type: turn}]}", "out: [3]",
    "winner: 3", "winners: [3]", "turn: 5", "decision: {seat: 3}", "counts: {hands: {3: {nope: 1}}}",
]


@pytest.mark.parametrize("old, new, needle", BAD_SEATS)
def test_a_seat_that_does_not_exist_in_the_layout_or_script_is_an_error(write, old, new, needle):
    path = scenario(write, BASE.replace(old, new))
    assert ("bad-value", line_of(path, needle)) in [(c, line) for c, line, _m in errors(path)]
    result = cli.invoke(app, ["test", path])
    assert result.exit_code == 1, result.output
    assert f"{path}:{line_of(path, needle)}:" in result.output and "there is no seat" in result.output
    assert "internal error" not in result.output


@pytest.mark.parametrize("check", EXPECTS)
def test_a_seat_that_does_not_exist_in_a_check_is_an_error(write, check):
    path = scenario(write, BASE + f"expect:\n  {check}\n")
    found = errors(path)
    assert [(c, line) for c, line, _m in found] == [("bad-value", line_of(path, check))], found
    assert "seats count from 0" in found[0][2]
    result = cli.invoke(app, ["test", path])
    assert result.exit_code == 1 and "internal error" not in result.output, result.output
    assert f"{path}:{line_of(path, check)}:" in result.output


def test_a_bad_seat_in_a_played_by_or_an_area_is_an_error(write):
    path = scenario(write, PLAYED_BY.replace("played_by: 0", "played_by: 3"))
    assert [(c, line) for c, line, _m in errors(path)] == [("bad-value", line_of(path, "played_by"))]
    path = scenario(write, PLAYED_BY.replace("{2: [{card", "{5: [{card"), "area.yaml")
    assert [(c, line) for c, line, _m in errors(path)] == [("bad-value", line_of(path, "in_front"))]
    failing(path, "in_front", "there is no seat 5")


def test_every_seat_out_or_the_first_player_out_is_an_error(write):
    path = scenario(write, BASE.replace("steps:", "start: {out: [0, 1, 2]}\nsteps:"))
    found = errors(path)
    assert [(c, line) for c, line, _m in found] == [("bad-value", line_of(path, "out:"))]
    failing(path, "out:", "every seat of the 3-player game is out")
    path = scenario(write, BASE.replace("steps:", "start: {seat: 1, out: [1]}\nsteps:"), "first.yaml")
    failing(path, "out:", "seat 1 is to play, but `out` lists it")
    path = scenario(write, BASE.replace("steps:", "start: {out: [1, 2]}\nsteps:"), "fine.yaml")
    assert errors(path) == []


@pytest.mark.parametrize("face_up, words", [
    ("[3]", "which this scenario lays out with 3 cards (places 0 to 2"),
    ("[0, 7]", "place 7 is not in the draw pile"),
])
def test_a_face_up_place_past_the_draw_pile_is_an_error(write, face_up, words):
    # found by the scenario fuzzer: the runner raised IndexError
    path = scenario(write, BASE.replace("steps:", f"face_up: {face_up}\nsteps:"))
    found = errors(path)
    assert [(c, line) for c, line, _m in found] == [("bad-value", line_of(path, "face_up"))], found
    assert words in found[0][2]
    failing(path, "face_up", "is not in the draw pile")


def test_a_face_up_place_with_no_draw_pile_says_to_lay_one_out(write):
    path = scenario(write, BASE.replace("draw_pile: [beard_cat, cattermelon, tacocat]\n", "")
                    .replace("steps:", "face_up: [0]\nsteps:"))
    [(code, _line, message)] = errors(path)
    assert code == "bad-value" and "leaves empty: lay the pile out in `draw_pile`" in message


# -- cards and zones a check names --------------------------------------------------------------
@pytest.mark.parametrize("check, code", [
    ("hand_lacks: {0: [defuze]}", "unknown-card"),
    ("counts: {game: {defuze: 0}}", "unknown-card"),
    ("any_order: {discard_pile: [skp]}", "unknown-card"),
    ("zones: {playmat: []}", "unknown-zone"),
    ("counts: {areas: {in_front: {0: {skip: 0}}}}", "unknown-zone"),
])
def test_cards_and_zones_in_checks_must_exist(write, check, code):
    # a typo there would make the check pass (or fail) for nothing
    path = scenario(write, BASE + f"expect:\n  {check}\n")
    found = errors(path)
    assert [(c, line) for c, line, _m in found] == [(code, line_of(path, check))], found
    assert not run(path).passed


# -- chance outcomes ----------------------------------------------------------------------------
STEAL = textwrap.dedent("""\
    edition: original
    players: 2
    hands: {0: [tacocat, tacocat], 1: [skip, favor, attack]}
    draw_pile: [beard_cat]
    steps:
      - {seat: 0, do: combo two_of_a_kind tacocat}
      - {chance: CHANCE}
    expect:
      hands: {0: [favor]}
    """)


@pytest.mark.parametrize("value, words", [
    ("{card: favor}", "should be a whole number, text or a list, not a mapping"),
    ("-1", "-1 is too small (the least allowed is 0)"),
    ("1.5", "should be a whole number, text or a list, not the number 1.5"),
    ("true", "should be a whole number, text or a list, not true: quote it"),
    ("[1, 0]", "should be text, not the whole number 1"),
    ("favour", "the edition has no card 'favour'; did you mean 'favor'?"),
])
def test_a_bad_chance_value_is_named_by_validate(write, value, words):
    path = scenario(write, STEAL.replace("CHANCE", value))
    found = errors(path)
    assert found and all(line == line_of(path, "chance:") for _c, line, _m in found), found
    assert any(words in message for _c, _l, message in found), found
    assert not any("is not valid under" in message for _c, _l, message in found)  # jsonschema's own words
    failing(path, "chance:", words)


def test_a_chance_value_that_does_not_fit_the_event_says_why(write):
    assert run(scenario(write, STEAL.replace("CHANCE", "favor"))).passed
    assert run(scenario(write, STEAL.replace("CHANCE", "1"), "place.yaml")).passed
    for value, words in [
        ("defuse", "a random pick of one card among ['skip', 'favor', 'attack']: 'defuse' is not "
                   "one of them"),
        ("3", "3 is not a place among them (0 to 2)"),
        ("[skip, favor, attack]", "give one card id or place, not a list"),
    ]:
        path = scenario(write, STEAL.replace("CHANCE", value), "bad.yaml")
        failing(path, "chance:", words)


SHUFFLE = textwrap.dedent("""\
    edition: original
    players: 2
    hands: {0: [shuffle], 1: [skip]}
    draw_pile: [tacocat, beard_cat, cattermelon]
    steps:
      - {seat: 0, do: play shuffle}
      - {chance: ORDER}
    expect:
      draw_pile: [cattermelon, tacocat, beard_cat]
    """)


def test_a_shuffle_outcome_is_the_same_cards_in_a_new_order(write):
    assert run(scenario(write, SHUFFLE.replace("ORDER", "[cattermelon, tacocat, beard_cat]"))).passed
    for value, words in [
        ("[cattermelon, tacocat]", "the order given lacks ['beard_cat']"),
        ("[cattermelon, tacocat, beard_cat, skip]", "has ['skip'] that it does not hold"),
        ("tacocat", "give the same cards in their new order, top first, not 'tacocat'"),
        ("1", "a shuffle of draw_pile"),
    ]:
        path = scenario(write, SHUFFLE.replace("ORDER", value), "bad.yaml")
        failing(path, "chance:", words)


# -- the schema and the guide agree ----------------------------------------------------------------
def test_the_guide_documents_every_key_and_check():
    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
    guide = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    keys = set(schema["properties"]) - {"format", "kind", "description", "ruling", "steps", "expect"}
    checks = set(schema["$defs"]["expect"]["properties"])
    checks |= {f"{parent}.{k}" for parent in ("counts", "any_order")
               for k in schema["$defs"]["expect"]["properties"][parent]["properties"]}
    quoted = set(re.findall(r"`([a-z_]+)", guide))
    missing = {k for k in keys | checks if k.split(".")[-1] not in quoted}
    assert missing == set()
    for word in ("refused", "played_by", "with"):
        assert f"`{word}" in guide or f"{word}:" in guide, word


# -- options written as strings ------------------------------------------------------------
@pytest.mark.parametrize("old, new", [
    ("{seat: 1, do: 0}", '{seat: 1, do: "0"}'),
    ("{seat: 1, do: 0}", "{seat: 1, do: '0'}"),
])
def test_a_quoted_number_is_the_one_option_that_reads_that_way(write, old, new):
    path = scenario(write, REFUSALS.replace(old, new))
    assert errors(path) == []
    outcome = run(path)
    assert outcome.passed, outcome.message


def test_a_quoted_true_is_the_yes_of_an_ask(write):
    text = (ROOT / "tests" / "scenarios" / "streaking" / "streaking_kitten"
            / "kept_kitten_stays_hidden.yaml").read_text(encoding="utf-8")
    text = text.replace("../../../../editions/streaking.yaml", "streaking")
    path = write("s.yaml", text.replace("{seat: 0, do: true,", '{seat: 0, do: "true",'))
    outcome = run(path)
    assert outcome.passed, outcome.message


def test_a_quoted_number_no_option_reads_as_says_how_to_write_it(write):
    path = scenario(write, REFUSALS.replace("{seat: 1, do: 0}", '{seat: 1, do: "9"}'))
    message = failing(path, 'do: "9"', '`"9"` (a string) is not a legal option',
                      "write do: 9 (a number, without quotes), not \"9\"")
    assert "`0`, `1`" in message, message
