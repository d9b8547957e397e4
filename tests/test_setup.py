"""The setup dry run: pile sizes by player count, and what it refuses."""

import pytest
from conftest import ROOT

from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.rules.setup import dry_run

ORIGINAL = str(ROOT / "editions" / "original.yaml")


# 56 cards - 4 kittens - 6 Defuses = 46 in the pile; each player takes a Defuse
# and 7 cards; up to 2 spare Defuses go back; players - 1 kittens go in.
@pytest.mark.parametrize("players, pile", [(2, 48 - 14 + 1), (3, 48 - 21 + 2),
                                           (4, 48 - 28 + 3), (5, 47 - 35 + 4)])
def test_original_pile_after_setup(players, pile):
    problems, counts = dry_run(load_edition(ORIGINAL), players)
    assert problems == []
    # which cards a random deal takes is unknown; the totals and kittens are not
    assert sum(counts.values()) == pile
    assert counts["exploding_kitten"] == players - 1


def test_older_printing_deals_four_and_puts_back_by_player_count():
    edition = load_edition(ORIGINAL, "older_printing")
    for players, spare in [(2, 2), (3, 2), (4, 1), (5, 1)]:
        problems, counts = dry_run(edition, players)
        assert problems == []
        assert sum(counts.values()) == 46 - 4 * players + spare + players - 1


def _edition_text(setup: str, deck_kittens: int = 4, players: str = "{min: 2, max: 5}") -> str:
    base = (ROOT / "editions" / "original.yaml").read_text()
    base = base.replace("../rulebook/", str(ROOT / "rulebook") + "/")
    base = base.replace("exploding_kitten: 4", f"exploding_kitten: {deck_kittens}")
    base = base.replace("players: {min: 2, max: 5}", f"players: {players}")
    start = base.index("setup:\n")
    end = base.index("\nrules:")
    return base[:start] + setup + base[end:]


def test_too_few_kittens_is_reported_at_the_setup_key(write):
    from kittens.interpreter.rules.check import validate_paths
    path = write("e.yaml", _edition_text(
        "setup:\n  - set_aside: [exploding_kitten]\n  - put_back: {card: exploding_kitten, count: 2}\n",
        players="{min: 2, max: 4}"))
    codes = [(d.code, d.severity) for d in validate_paths([path]).diagnostics]
    assert codes == [("too-few-kittens", "error")]


def test_a_deal_larger_than_the_pile_names_the_player_count(write):
    from kittens.interpreter.rules.check import validate_paths
    path = write("e.yaml", _edition_text(
        "setup:\n  - set_aside: [exploding_kitten]\n  - deal: {count: 12}\n"
        "  - put_back: {card: exploding_kitten, count: players - 1}\n"))
    found = validate_paths([path]).diagnostics
    assert [d.code for d in found] == ["deal-impossible"]
    assert "with 5 players this deals 60 cards but the draw pile holds only 52" in found[0].message
