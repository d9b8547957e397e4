"""The command line: exit statuses, text and JSON output, no tracebacks."""

import json
import re
import subprocess
import sys

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app

runner = CliRunner()
EDITIONS, RULEBOOK = str(ROOT / "editions"), str(ROOT / "rulebook")

BROKEN_CARD = """\
format: 1
kind: cards
cards:
  - id: skip
    title: Skip
    text: End your turn.
    when: own_turn
    effect: end_trun()
"""


def test_clean_files_exit_zero_with_a_summary():
    result = runner.invoke(app, ["validate", EDITIONS, RULEBOOK])
    assert result.exit_code == 0, result.output
    assert re.search(r"checked \d+ files: 0 errors, 0 warnings", result.output), result.output


def test_errors_exit_one_with_position_caret_and_hint(write):
    path = write("skip.yaml", BROKEN_CARD)
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == (f"{path}:8:13: error: no primitive is called 'end_trun'; "
                        "did you mean 'end_turn'? [unknown-primitive]")
    assert lines[1] == "        effect: end_trun()"
    assert lines[2] == "    " + " " * 12 + "^"


def test_json_format_gives_the_same_findings(write):
    path = write("skip.yaml", BROKEN_CARD)
    result = runner.invoke(app, ["validate", "--format", "json", path])
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["errors"] == 1 and doc["warnings"] == 0 and doc["files"] == [path]
    assert doc["diagnostics"] == [{"path": path, "line": 8, "column": 13, "severity": "error",
                                   "code": "unknown-primitive",
                                   "message": "no primitive is called 'end_trun'; did you mean 'end_turn'?"}]


def test_warnings_alone_exit_zero(write):
    write("lib.yaml", BROKEN_CARD.replace("end_trun()", "end_turn()"))
    path = write("w.yaml", BROKEN_CARD.replace("end_trun()", "count(hand(me))"))
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 0
    assert "warning:" in result.output and "[unused-value]" in result.output


def test_usage_problems_exit_two():
    assert runner.invoke(app, ["validate"]).exit_code == 2
    missing = runner.invoke(app, ["validate", "no/such/file.yaml"])
    assert missing.exit_code == 2
    assert "no such file or folder: no/such/file.yaml" in missing.output
    assert runner.invoke(app, ["validate", "--format", "xml", EDITIONS]).exit_code == 2


def test_a_folder_without_rule_files_is_a_usage_error(tmp_path):
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert "no rule files" in result.output


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("kittens ")


def _built_as(monkeypatch, tmp_path, note, core="python"):
    """kittens as if installed from a build that left ``note`` (None: no note, as in a
    checkout), with the given engine core."""
    import kittens.about as about
    from kittens.commands import app as cli  # where --version and the word about the core live

    path = tmp_path / "_core_build.json"
    if note is not None:
        path.write_text(json.dumps(note))
    monkeypatch.setattr(about, "BUILD_NOTE", path)
    monkeypatch.setattr(about, "engine_core", lambda: core)
    monkeypatch.setattr(cli, "engine_core", lambda: core)
    monkeypatch.setattr(cli, "_CORE_TOLD", [])
    monkeypatch.delenv("KITTENS_PURE_PYTHON", raising=False)


def test_a_build_that_fell_back_to_pure_python_is_told_once_on_stderr(monkeypatch, tmp_path, capsys):
    from kittens.commands.kit import run_app

    _built_as(monkeypatch, tmp_path, {"core": "fallback", "why": "no working C compiler was found"})
    assert run_app(app, ["validate", EDITIONS, "--json"]) == 0
    assert run_app(app, ["list", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.count("the engine runs as pure Python here") == 1, err  # once, however many commands
    assert "no working C compiler was found" in err and "--no-binary kittens-engine kittens-engine" in err
    assert "KITTENS_PURE_PYTHON=1 silences this" in err and "pure Python" not in out
    shown = runner.invoke(app, ["--version"])
    assert "python engine core: the install could not compile it" in shown.output


@pytest.mark.parametrize("note, core, env", [
    (None, "python", {}),                                    # a checkout or an editable install
    ({"core": "pure", "why": ""}, "python", {}),             # built with KITTENS_PURE_PYTHON=1
    ({"core": "compiled", "why": ""}, "compiled", {}),       # the compiled core
    ({"core": "fallback", "why": "x"}, "python", {"KITTENS_PURE_PYTHON": "1"}),  # silenced
])
def test_no_word_about_the_core_where_pure_python_is_meant(monkeypatch, tmp_path, capsys, note, core, env):
    from kittens.commands.kit import run_app

    _built_as(monkeypatch, tmp_path, note, core)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert run_app(app, ["validate", EDITIONS, "--json"]) == 0
    assert "pure Python" not in capsys.readouterr().err


def test_console_script_runs_as_a_process():
    done = subprocess.run([sys.executable, "-m", "kittens", "validate", EDITIONS, RULEBOOK],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    missing = subprocess.run([sys.executable, "-m", "kittens", "validate", "nope.yaml"],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


_CRASH = """
import sys
import kittens.cli as cli
from kittens.interpreter.rules import check

def broken(*args, **kwargs):
    raise RuntimeError("a bug for the test")

check.validate_paths = broken
sys.argv = ["kittens", "validate", "editions/original.yaml"]
cli.main()
"""


@pytest.mark.parametrize("debug", ["", "1"])
def test_an_internal_error_shows_its_traceback_only_with_kittens_debug(debug):
    import os

    env = {**os.environ, "KITTENS_DEBUG": debug}
    done = subprocess.run([sys.executable, "-c", _CRASH], capture_output=True, text=True, env=env,
                          cwd=str(ROOT), timeout=60)
    assert done.returncode == 3 and "internal error: RuntimeError: a bug for the test" in done.stderr
    assert ("Traceback" in done.stderr) == bool(debug)
    assert "KITTENS_DEBUG=1" in done.stderr  # the message says how to see it


def test_a_house_rules_finding_is_told_on_the_house_rule_not_on_a_scenario_playing_it(tmp_path):
    # the house rule sorts after scenarios/: the scenario was checked first and the
    # finding (at the shipped edition's setup) was told on the scenario instead
    folder = tmp_path / "rules"
    (folder / "scenarios").mkdir(parents=True)
    # `extends: original` names the shipped edition wherever kittens is installed (the
    # checkout's own editions/ folder is not the shipped one once kittens is installed)
    (folder / "zz_one_kitten.yaml").write_text("""\
format: 1
kind: edition
id: one_kitten
name: One kitten back
extends: original
replace_steps:
  kittens: {name: kittens, put_back: {card: exploding_kitten, count: 1}}
""", encoding="utf-8")
    (folder / "scenarios" / "skip.yaml").write_text("""\
format: 1
kind: scenario
edition: ../zz_one_kitten.yaml
players: 2
hands: {0: [skip], 1: [skip]}
draw_pile: [tacocat]
steps:
  - {seat: 0, do: play skip}
expect:
  turn: 1
""", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(folder)])
    findings = [line for line in result.output.splitlines() if "[too-few-kittens]" in line]
    assert len(findings) == 1, result.output
    assert findings[0].startswith(str(folder / "zz_one_kitten.yaml") + ":5:1: error:"), result.output
