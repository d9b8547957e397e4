"""Limits inside effects (issue 42): a restriction with `applies_to: [spending]` limits
what an effect may spend as a title (`playable_as`), so "while muzzled you cannot
Defuse" holds for every card that looks for its Defuse, not just a patched kitten.
Restrictions written before keep limiting plays only. Example:
examples/house-rules/muzzle.yaml and its scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_phases import laid_out

from kittens import load_edition

ROOT = Path(__file__).resolve().parent.parent

MUZZLE = """zones:
  muzzles: {per_player: true, public: true}
restrictions:
  - id: muzzled
    applies_to: [spending]
    text: While a Muzzle lies in front of you, you cannot Defuse.
    allows: title(this) != "defuse" or count(zone_of(me, "muzzles")) == 0
"""


def muzzled(tmp_path, base: str):
    path = tmp_path / "muzzled.yaml"
    path.write_text(f"""format: 1
kind: edition
id: muzzled
name: Muzzled
extends: {ROOT / 'editions' / 'original.yaml'}
{f"apply: [{ROOT / 'editions' / base}]" if base != "original.yaml" else ""}
define_cards:
  - id: muzzle
    title: Muzzle
    tags: [action]
    text: Lies in front of a player.
    when: never
add_cards: {{muzzle: 1}}
""" + MUZZLE,
                    encoding="utf-8")
    return load_edition(str(path))


def lay_muzzle(state, seat: int):
    table = state.table
    table.new_card(state.game.edition.cards["muzzle"], table.areas["muzzles"][seat])


@pytest.mark.parametrize("base", ["original.yaml", "streaking.yaml"])
@pytest.mark.parametrize("muzzle_on, survives", [(None, True), (0, False), (1, True)])
def test_a_muzzled_player_cannot_defuse_whatever_card_looks_for_the_defuse(tmp_path, base, muzzle_on, survives):
    edition = muzzled(tmp_path, base)
    state = laid_out(edition, 3, {0: ["defuse", "tacocat"]}, ["exploding_kitten", "beard_cat", "cattermelon"])
    if muzzle_on is not None:
        lay_muzzle(state, muzzle_on)
    state.apply_action("draw")
    while not state.is_terminal() and state.decision().seat == 0 and state.decision().kind != "action":
        state.apply_action(state.legal_actions()[0])  # where the kitten goes back
    assert state.table.alive[0] is survives


def test_a_restriction_written_before_limits_plays_only():
    """under_pressure's limit (owing two turns you may only play Skip or Nope) never kept
    anyone from Defusing, and still does not."""
    edition = load_edition(str(ROOT / "examples" / "house-rules" / "under_pressure.yaml"))
    state = laid_out(edition, 3, {0: ["defuse", "see_the_future"]}, ["exploding_kitten", "beard_cat"], owed=2)
    assert "play see_the_future" not in state.legal_actions()  # the limit on plays holds
    state.apply_action("draw")
    while state.decision().seat == 0 and state.decision().kind != "action":
        state.apply_action(state.legal_actions()[0])
    assert state.table.alive[0]
