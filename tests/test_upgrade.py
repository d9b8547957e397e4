"""Answers to choices kittens now makes by itself, and `kittens upgrade` (issue 42).

A scenario written when a choice of one player was still asked answers it (and
may expect it first). Such a file passes with a deprecation warning at each of
those steps, and `kittens upgrade` removes them from its text, comments and
layout kept, as ruff --fix does; `--diff` and `--check` write nothing."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kittens.authoring.scenario import ScenarioRunner
from kittens.authoring.upgrade import ANSWERED_ALONE, EXPECTED_ALONE, REWRITES, Deprecation, upgrade
from kittens.cli import app
from kittens.interpreter.lang.loader import load_text

OLD = Path(__file__).parent / "upgrade" / "answers_choice_made_alone.yaml"


@pytest.fixture
def old(tmp_path) -> Path:
    path = tmp_path / OLD.name
    shutil.copyfile(OLD, path)
    return path


def _kittens(*args: str):
    return CliRunner().invoke(app, list(args))


def test_an_old_script_passes_with_a_deprecation_warning_at_each_step():
    outcome = ScenarioRunner().run(str(OLD))
    assert outcome.passed, outcome.message
    assert [w.split(": warning: ")[0] for w in outcome.warnings] == [f"{OLD}:17:5", f"{OLD}:20:5"]
    assert [d.code for d in outcome.deprecations] == [EXPECTED_ALONE, ANSWERED_ALONE]
    assert all(w.endswith(f"[{d.code}]") for w, d in zip(outcome.warnings, outcome.deprecations))


def test_kittens_test_prints_the_warnings_and_passes():
    result = _kittens("test", str(OLD))
    assert result.exit_code == 0, result.output
    assert "17:5: warning:" in result.output and "[answer-to-choice-made-alone]" in result.output
    results = json.loads(_kittens("test", "--json", str(OLD)).output)["results"]
    assert len(results[0]["warnings"]) == 2


def test_upgrade_removes_the_steps_and_keeps_comments_and_layout(old):
    before = old.read_text()
    os.chmod(old, 0o640)
    result = _kittens("upgrade", str(old))
    assert result.exit_code == 0, result.output
    after = old.read_text()
    removed = [line for line in before.splitlines() if line not in after.splitlines()]
    assert removed == ["  - expect:", "      decision: {seat: 0, kind: choose_player, options: [1]}",
                       "  - seat: 0         # seat 0 picks the only candidate", "    do: 1"]
    assert "# the only hand with a card" in after and "# gives the cat" in after
    assert "1 file upgraded" in result.output
    assert oct(os.stat(old).st_mode & 0o777) == oct(0o640)
    outcome = ScenarioRunner().run(str(old))
    assert outcome.passed and outcome.warnings == []
    again = _kittens("upgrade", str(old))  # nothing left to do
    assert again.exit_code == 0 and old.read_text() == after and "0 files upgraded, 1 unchanged" in again.output


@pytest.mark.parametrize("option", ["--check", "--diff"])
def test_check_and_diff_write_nothing_and_exit_1(old, option):
    before = old.read_text()
    result = _kittens("upgrade", option, str(old))
    assert result.exit_code == 1 and old.read_text() == before
    assert ("-    do: 1" in result.output) == (option == "--diff")
    assert "would fix" in result.output


def test_upgrade_in_json_says_what_it_did(old):
    data = json.loads(_kittens("upgrade", "--json", "--check", str(old)).output)
    assert data["changed"] == 1 and data["written"] is False
    assert [f.split(": warning: ")[0].rsplit(":", 2)[1:] for f in data["files"][0]["fixed"]] == \
        [["17", "5"], ["20", "5"]]


def test_a_list_left_empty_is_written_as_an_empty_list():
    text = "steps:   # the script\n  - {seat: 0, do: 1}\n  - seat: 1\n    do: 2\n\nexpect: {turn: 0}\n"
    doc, _problems = load_text(text, "x.yaml")
    found = [Deprecation(("steps", 0), ANSWERED_ALONE, "old"), Deprecation(("steps", 1), ANSWERED_ALONE, "old")]
    assert upgrade(doc, found).new == "steps: []   # the script\n\nexpect: {turn: 0}\n"
    assert upgrade(doc, found[1:]).new == "steps:   # the script\n  - {seat: 0, do: 1}\n\nexpect: {turn: 0}\n"


def test_steps_in_a_flow_list_are_left_to_fix_by_hand(tmp_path):
    path = tmp_path / "flow.yaml"
    text = OLD.read_text()
    head, _steps = text.split("steps:\n")
    path.write_text(head + "steps: [{seat: 0, do: play favor}, {seat: 0, do: 1}, {seat: 1, do: tacocat}]\n"
                    "expect:\n  hands: {0: [tacocat], 1: []}\n")
    result = _kittens("upgrade", str(path))
    assert result.exit_code == 1 and "not rewritten: edit it by hand" in result.output
    assert path.read_text().count("do: 1}") == 1


def test_every_deprecation_has_a_rewrite_with_a_summary():
    assert {ANSWERED_ALONE, EXPECTED_ALONE} <= set(REWRITES)
    assert all(rewrite.summary and callable(rewrite.edit) for rewrite in REWRITES.values())
