"""What a seat knows is true to the physical game, for every move any rule file makes
(issue 41): checked at every move of seeded games of every shipped edition, its
variants and every example (tests/knowledge_check.py says how).

The checks wrap ``Table.move``, which only the pure-Python core allows. On the
compiled core (CI installs it) they run in a subprocess on the checkout's sources;
the compiled core makes the same moves with the same knowledge, card for card
(tests/test_fast_paths.py and tests/test_compiled_core.py check that).

``KITTENS_FUZZ_SCALE`` multiplies the number of games (default 1).
"""

import os
import subprocess
import sys

import knowledge_check
import pytest
from conftest import ROOT

from kittens.about import engine_core
from kittens.interpreter.engine.table import Table

GAMES = max(1, int(8 * float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))))


def _checked(tmp_path, *args: str) -> tuple[int, str]:
    """knowledge_check's exit code and report for these arguments, on the pure-Python core."""
    if engine_core() == "python":
        plain = Table._left_hand
        try:
            code = _in_process(list(args))
        finally:
            Table._left_hand = plain
        return code
    sources = tmp_path / "pure"
    sources.mkdir()
    (sources / "kittens").symlink_to(ROOT, target_is_directory=True)  # the checkout: sources only
    env = {**os.environ, "PYTHONPATH": str(sources)}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "knowledge_check.py"), *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, done.stdout


def _in_process(args: list) -> tuple[int, str]:
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = knowledge_check.main(args)
    return code, out.getvalue()


@pytest.mark.parametrize("rules", ["editions/", "examples/"])
def test_no_move_tells_a_seat_what_it_could_not_see_nor_forgets_what_it_saw(tmp_path, rules):
    """Twin moves (the same move of another hidden card of the hand) leave every other seat
    the same knowledge and event text; givers, receivers and onlookers forget nothing
    they could still know."""
    code, report = _checked(tmp_path, str(GAMES), "--under", rules)
    assert code == 0, report
    compared = int(report.split("twin moves compared: ")[1].split()[0])
    assert compared > 500, report  # the games did move hidden cards between hands


@pytest.mark.parametrize("plant, found", [
    ("known-to-all", "twin moves told apart"),
    ("forgetful-receiver", "the receiver forgot the giver's other cards"),
])
def test_the_checks_find_the_leaks_of_before(tmp_path, plant, found):
    """The two faults issue 41 reported, planted again, are found within a few games of the
    Original."""
    code, report = _checked(tmp_path, "3", "--only", "original", "--plant", plant)
    assert code == 1 and found in report, report


# -- the rules one move at a time, on either core -----------------------------------------
ORIGINAL = None


def _table(hands: dict, known: dict, face_up=()):
    """A 3-player table of the Original holding exactly ``hands`` (seat -> card ids);
    ``known``: (seat, index in that hand) -> the extra seats that know that card."""
    global ORIGINAL
    if ORIGINAL is None:
        from kittens.interpreter.rules.load import load_edition
        ORIGINAL = load_edition(str(ROOT / "editions" / "original.yaml"))
    table = Table(ORIGINAL, 3, 0)
    for seat, ids in hands.items():
        for place, card_id in enumerate(ids):
            inst = table.new_card(ORIGINAL.cards[card_id], table.hands[seat])
            inst.known |= sum(1 << other for other in known.get((seat, place), ()))
            if (seat, place) in face_up:
                inst.face_up, inst.known = True, table.everyone
    return table


def _knows(table, seat: int) -> dict:
    """Hand name -> the card ids of that hand ``seat`` knows (its own hand left out)."""
    return {hand.name: sorted(inst.id for inst in hand.cards if inst.known >> seat & 1)
            for hand in table.hands if hand.owner != seat and any(inst.known >> seat & 1 for inst in hand.cards)}


# (what happens, hands, who knew what, face up, move: (seat, places) -> seat, sight,
#  what seat 1 knows after, what seat 2 knows after)
CASES = [
    ("a card all knew, stolen unseen: seat 1 loses it and the hand",
     {0: ["favor", "skip"], 2: ["nope"]}, {(0, 0): (1, 2)}, (), ((0, [0]), 2), None,
     {}, {}),
    ("the same card handed over right after it was shown: everyone follows it",
     {0: ["favor", "skip"], 2: ["nope"]}, {(0, 0): (1, 2)}, (), ((0, [0]), 2), 7,
     {"hand 2": ["favor"]}, {}),
    ("a hand all of one title, all known: the onlooker keeps it",
     {0: ["skip", "skip"], 2: ["nope"]}, {(0, 0): (1,), (0, 1): (1,)}, (), ((0, [0]), 2), None,
     {"hand 0": ["skip"], "hand 2": ["skip"]}, {}),
    ("the receiver keeps the giver's other card it knew",
     {0: ["defuse", "skip"], 2: ["nope"]}, {(0, 0): (2,)}, (), ((0, [1]), 2), None,
     {}, {"hand 0": ["defuse"]}),
    ("the receiver of a copy loses the copy it knew",
     {0: ["defuse", "defuse", "skip"], 2: ["nope"]}, {(0, 0): (2,)}, (), ((0, [1]), 2), None,
     {}, {}),
    ("a face-up card leaves: everyone sees which, the rest is kept",
     {0: ["favor", "skip", "attack"], 2: ["nope"]}, {(0, 2): (1,)}, ((0, 0),), ((0, [0]), 2), None,
     {"hand 0": ["attack"], "hand 2": ["favor"]}, {}),
    ("a whole hand handed over: those who knew its cards follow them",
     {0: ["favor", "skip"], 2: ["nope"]}, {(0, 0): (1,)}, (), ((0, [0, 1]), 2), None,
     {"hand 2": ["favor"]}, {}),
]


@pytest.mark.parametrize("what, hands, known, face_up, move, sight, one, two", CASES, ids=[c[0] for c in CASES])
def test_a_move_out_of_a_hand_keeps_what_each_seat_can_still_know(what, hands, known, face_up, move, sight,
                                                                     one, two):
    table = _table(hands, known, face_up)
    (seat, places), receiver = move
    cards = [table.hands[seat].cards[place] for place in places]
    if sight:
        table.move(cards, table.hands[receiver], in_sight={inst.uid: table.everyone for inst in cards})
    else:
        table.move(cards, table.hands[receiver])
    knows_one = _knows(table, 1)
    knows_two = {name: ids for name, ids in _knows(table, 2).items() if name != "hand 2"}
    assert {k: v for k, v in knows_one.items() if v} == one
    assert {k: v for k, v in knows_two.items() if v} == two
    for inst in cards:  # the giver and the receiver know every card that moved
        assert inst.known & (1 << seat) and inst.known & (1 << receiver)
