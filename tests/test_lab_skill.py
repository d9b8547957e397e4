"""The skill measure of simulate and compare (--skill): one stronger player against the
run's bots, its win rate under each ruleset and the change between rulesets."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kittens.cli import app
from kittens.lab.rulesets import parse_ruleset
from kittens.lab.session import Options, Ruleset, compare, simulate

STRONG = "ismcts:iterations=4:search=single:rollout=draw:depth=6"


def test_a_stronger_player_wins_more_than_its_share_and_a_weaker_one_less():
    strong = simulate(Ruleset("original"), Options(workers=1, games=60, players=4, bots=("random",),
                                                   skill="heuristic")).data["skill"]
    row = strong["rulesets"][0]
    assert strong["strong"] == "heuristic" and strong["weak"] == ["random"] * 3
    assert row["games"] == 60 and row["chance"] == 0.25
    assert row["edge"] == row["rate"] - 0.25 > 0 and row["ci"][0] > 0.25  # against random, it shows
    weak = simulate(Ruleset("original"), Options(workers=1, games=60, players=4, bots=("heuristic",),
                                                 skill="random")).data["skill"]["rulesets"][0]
    assert weak["edge"] < 0  # the measure can go the other way


def test_compare_gives_the_change_with_its_p_value_and_a_plot():
    result = compare([parse_ruleset("original"), parse_ruleset("original@beginner")],
                     Options(workers=1, games=16, players=3, bots=("heuristic",), skill=STRONG))
    found = result.data["skill"]
    assert [row["ruleset"] for row in found["rulesets"]] == ["original", "original@beginner"]
    change = found["changes"][0]
    assert change["baseline"] == "original" and 0 <= change["p_value"] <= 1 and change["ci"]
    assert "Skill: one " + STRONG in result.text and "original@beginner against original" in result.text
    assert "Skill: what a stronger player wins" in result.html()


def test_without_the_option_nothing_changes():
    result = simulate(Ruleset("original"), Options(workers=1, games=10, players=4, bots=("heuristic",)))
    assert "skill" not in result.data and "Skill: one" not in result.text


def test_the_command_line_takes_it_and_refuses_a_run_bot_as_the_strong_one():
    runner = CliRunner()
    done = runner.invoke(app, ["simulate", "original", "-g", "6", "--bots", "heuristic", "-j", "1",
                               "--skill", STRONG, "--skill-games", "8", "--format", "json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["skill"]["rulesets"][0]["games"] == 8
    refused = runner.invoke(app, ["simulate", "original", "-g", "6", "--bots", "heuristic", "--skill", "heuristic"])
    assert refused.exit_code == 2 and "stronger" in refused.output
