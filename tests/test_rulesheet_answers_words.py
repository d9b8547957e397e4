"""What `kittens rules` says of cards that answer moments and of the new limits (probe
4's rulesheet findings): a moment answer is never called an answer to plays, its card is
the moment's, and a limit is named by what it limits."""

from __future__ import annotations

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app


def sheet(name: str) -> str:
    """The rulesheet `kittens rules` prints for a house rule (with what it changes)."""
    result = CliRunner().invoke(app, ["rules", str(ROOT / "examples" / "house-rules" / f"{name}.yaml")])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_moment_answer_is_not_listed_among_the_answers_to_plays():
    text = sheet("bodyguard")
    answering = next(line for line in text.splitlines() if line.startswith("**Answering:**"))
    assert "answer it at once with Nope," in answering
    assert "Bodyguard answers moments of the game instead" in answering


def test_a_moment_answers_words_speak_of_the_moment():
    text = sheet("bodyguard")
    assert ("The player the moment is about is not you and there are Exploding Kittens among the card "
            "of the moment answered.") in text
    assert "Cancel the moment it answers. Reveal the card of the moment answered to everyone." in text
    assert "the card or combo being answered" not in text.split("### Bodyguard")[1]


@pytest.mark.parametrize("name, said", [
    ("one_steal_a_turn", "A new limit on some plays:"),
    ("muzzle", "A new limit on what effects spend:"),
    ("safe_defuse", "A new limit on taking cards from a hand:"),
])
def test_a_new_limit_is_named_by_what_it_limits(name, said):
    assert said in sheet(name)
