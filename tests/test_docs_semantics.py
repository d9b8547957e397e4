"""The reference pages say where code is written and what each part of a play sees
(issue 42): effects.md's places name triggers, free actions, limits and scores, and
the semantics pinned by tests/test_semantics_pinned.py are written down."""

from __future__ import annotations

from conftest import ROOT

from kittens.authoring import docs


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_effects_page_names_every_place_code_is_written():
    page = docs.render_effects(docs.load_examples(ROOT / "docs"))
    where = page[page.index("## Where effects are written"):page.index("## Players")]
    for place in ("`triggers:`", "`actions:`", "`restrictions:`", "`win:` `score`", "`ends_when`",
                  "`tie_break`", "`allows`"):
        assert place in where, place


def test_effects_page_says_what_each_part_of_a_play_sees():
    where = _flat(docs.render_effects(docs.load_examples(ROOT / "docs")))
    for said in ("`requires` sees the discard pile without the card, and `choose` and `effect` see it on top",
                 "without looking at its `requires`",
                 "`choose_card` and `choose_position` ask even when only one card or place can be picked",
                 "`choose_player` and `choose_kind` take the only player",
                 "State checks do not run at the deal",
                 "may name a player who is out of the game"):
        assert said in where, said


def test_format_and_scenario_guides_say_it_too():
    guide = _flat((ROOT / "docs" / "format.md").read_text(encoding="utf-8"))
    assert "Checks do not run at the deal" in guide and "It does not look at the title's `requires`" in guide
    scenarios = _flat((ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8"))
    assert "`game_start` triggers run, then the `turn_start` triggers of the first turn" in scenarios
    assert "A player who is out may still be asked to choose" in scenarios
