"""The pytest plugin (entry point `pytest11`) in a designer's repository: `pytest` collects
the scenario files, one test each, failing with the scenario's own text; and a new
expansion is a package that installs and is found by name."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from conftest import ROOT

from kittens.cli import app
from kittens.commands.kit import run_app

FAILING = """\
format: 1
kind: scenario
description: A Skip ends the turn (written wrong on purpose).
edition: short_hands.yaml
players: 2
hands: {0: [skip]}
draw_pile: [tacocat, beard_cat]
steps:
  - {seat: 0, do: play skip}
  - expect: {turn: 0}
"""


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *args],
                          cwd=folder, capture_output=True, text=True, timeout=300, env=env)


def test_pytest_in_a_designers_repository_runs_each_scenario(tmp_path, capsys):
    assert run_app(app, ["new", "house-rule", "Short Hands", "--dir", str(tmp_path)]) == 0
    (tmp_path / "skip_is_wrong.yaml").write_text(FAILING)
    # without the setting the plugin stays out of the way
    quiet = _pytest(tmp_path)
    assert quiet.returncode == 5, quiet.stdout  # no tests collected
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\nkittens_scenarios = ["."]\n')
    run = _pytest(tmp_path)
    out = run.stdout
    assert run.returncode == 1, out
    assert "1 failed, 1 passed" in out
    assert "PASSED short_hands.scenario.yaml::short_hands.scenario" in out
    assert "FAILED skip_is_wrong.yaml::skip_is_wrong" in out
    # the failure reads as the scenario's own: its description, the step, expected and got
    assert "A Skip ends the turn (written wrong on purpose)." in out
    assert "skip_is_wrong.yaml:10" in out and "turn" in out
    assert "Traceback" not in out
    # the same from the command line, without a configuration file
    (tmp_path / "pyproject.toml").unlink()
    chosen = _pytest(tmp_path, "--kittens-scenarios", ".", "-k", "short_hands")
    assert chosen.returncode == 0 and "1 passed" in chosen.stdout, chosen.stdout


def test_kittens_own_tests_use_the_plugin():
    names = {entry.name: entry.value for entry in metadata.entry_points(group="pytest11")}
    assert names.get("kittens") == "kittens.pytest_plugin"
    conftest = (ROOT / "tests" / "conftest.py").read_text()
    assert "pytest_collect_file" not in conftest
    assert 'kittens_scenarios = ["tests/scenarios"]' in (ROOT / "pyproject.toml").read_text()


def test_a_new_expansion_installs_as_a_package_and_is_found_by_name(tmp_path, capsys):
    assert run_app(app, ["new", "expansion", "Moon Cats", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "moon_cats"
    text = (folder / "pyproject.toml").read_text()
    assert '[project.entry-points."kittens.expansions"]' in text and 'moon_cats = "moon_cats"' in text
    target = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                          str(folder)], capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    assert (target / "moon_cats" / "expansion.yaml").is_file()
    assert (target / "moon_cats" / "scenarios" / "peek.yaml").is_file()
    # the installed metadata depends on kittens as published (kittens-engine): the index's
    # "kittens" is an unrelated package that also imports as kittens
    info = next(target.glob("kittens_moon_cats-*.dist-info"))
    needs = [line.split(":", 1)[1].strip() for line in (info / "METADATA").read_text().splitlines()
             if line.startswith("Requires-Dist:")]
    assert [re.split(r"[\s<>=!~;\[]", need)[0] for need in needs] == ["kittens-engine"], needs
    env = dict(os.environ, PYTHONPATH=str(target) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listed = subprocess.run([sys.executable, "-m", "kittens", "list", "--json"], cwd=elsewhere, env=env,
                            capture_output=True, text=True, timeout=120)
    entries = json.loads(listed.stdout)
    mine = [e for e in entries if e.get("name_to_use") == "moon_cats"]
    assert mine and "kittens-moon-cats" in mine[0]["installed"], entries
    played = subprocess.run([sys.executable, "-m", "kittens", "run", "original", "--with", "moon_cats", "-g", "3"],
                            cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stdout + played.stderr
