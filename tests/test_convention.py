"""One convention for every command: --format (and --json), JSON that always parses,
the same exit codes everywhere, shipped files shown by name, folders walked sensibly."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT

from kittens.about import PACKAGE_DIR
from kittens.cli import app
from kittens.commands.kit import run_app

ORIGINAL = str(ROOT / "editions" / "original.yaml")

#: every command with an argument that names nothing: a usage error (exit 2)
BAD_PATHS = {
    "validate": ["validate", "no/such.yaml"],
    "run": ["run", "no/such.yaml"],
    "play": ["play", "no/such.yaml"],
    "bench": ["bench", "no/such.yaml", "-g", "1"],
    "list": ["list", "no/such"],
    "show": ["show", "no/such.yaml"],
    "diff": ["diff", "no/such.yaml", "original"],
    "rules": ["rules", "no/such.yaml"],
    "test": ["test", "no/such.yaml"],
    "replay": ["replay", "no/such.jsonl"],
    "new": ["new", "house-rule", "X", "--from", "no_such_edition"],
    "docs": ["docs", "no_such_topic"],
    "schema": ["schema", "--write", "/dev/null/cannot"],
    # the commands the balance lab, the players and the web table added
    "arena": ["arena", "no/such.yaml", "-g", "1"],
    "simulate": ["simulate", "no/such.yaml", "-g", "1", "-j", "1"],
    "compare": ["compare", "original", "no/such.yaml", "-g", "1", "-j", "1"],
    "sweep": ["sweep", "no/such.yaml", "--set", "hand_size=5..6", "-g", "1", "-j", "1"],
    "tune": ["tune", "no/such.yaml", "-x", "count.nope=2..3", "-t", "turns 30..40", "-g", "1", "-j", "1",
             "--study", "never-written.db"],
    "serve": ["serve", "no/such.yaml", "--port", "0"],
    "print": ["print", "no/such.yaml", "-o", "never-written.pdf"],
    "upgrade": ["upgrade", "no/such.yaml"],
}

#: every command, with arguments it accepts: the body runs (see the exit-code tests below)
GOOD_ARGS = {
    "validate": ["validate", ORIGINAL], "run": ["run", "original"], "replay": ["replay", "x.jsonl"],
    "play": ["play", "original"], "bench": ["bench"], "arena": ["arena"], "list": ["list"],
    "show": ["show", "original"], "diff": ["diff", "original", "nsfw"], "rules": ["rules", "original"],
    "test": ["test", "x.yaml"], "docs": ["docs"], "schema": ["schema"], "lsp": ["lsp"],
    "simulate": ["simulate", "original"], "compare": ["compare", "original", "nsfw"],
    "sweep": ["sweep", "original"], "tune": ["tune", "original", "-x", "count.nope=2..3", "-t", "turns 30..40"],
    "serve": ["serve"], "print": ["print", "original", "-o", "x.pdf"],
    "new house-rule": ["new", "house-rule", "X"], "new expansion": ["new", "expansion", "X"],
    "upgrade": ["upgrade", "x.yaml"],
}
#: commands that take no path or name to get wrong
NO_PATH = {"lsp", "new expansion"}


def _commands() -> set[str]:
    """Every command the app has, subcommands as "new house-rule"."""
    import typer.main

    found = set()
    for name, command in typer.main.get_command(app).commands.items():
        subcommands = getattr(command, "commands", None)
        found |= {f"{name} {sub}" for sub in subcommands} if subcommands else {name}
    return found


def test_the_convention_tests_cover_every_command():
    """A command added later must be added here, so the tests below check it too."""
    assert _commands() == set(GOOD_ARGS)
    assert {c.split()[0] for c in _commands() - NO_PATH} == set(BAD_PATHS)


@pytest.mark.parametrize("command", sorted(GOOD_ARGS))
@pytest.mark.parametrize("trouble, code", [(ZeroDivisionError, 3), (KeyboardInterrupt, 130)],
                         ids=["internal", "ctrl-c"])
@pytest.mark.parametrize("switch", [[], ["--json"], ["--format", "json"]], ids=["text", "json", "format"])
def test_every_command_exits_3_on_a_bug_and_130_on_ctrl_c(capsys, monkeypatch, command, trouble,
                                                          code, switch):
    """Whatever goes wrong inside any command: 3 for a bug, without a traceback (JSON under
    --json), and 130 for Ctrl-C. Every command starts by noting its format (clikit.start),
    so the trouble is raised there, after that."""
    from kittens.commands import authoring, kit, lab, play, servers, upgrade

    real_start = kit.start

    def start(*args, **kwargs):
        real_start(*args, **kwargs)
        raise trouble("planted")

    for module in (authoring, lab, play, servers, upgrade):  # each command module took `start` from kit
        monkeypatch.setattr(module, "start", start)
    monkeypatch.delenv("KITTENS_DEBUG", raising=False)
    got, out, err = invoke(capsys, *GOOD_ARGS[command], *switch)
    assert got == code, (out, err)
    assert "Traceback" not in out + err
    if code == 3 and switch:
        doc = json.loads(out)
        assert doc["code"] == 3 and "ZeroDivisionError: planted" in doc["error"], doc
    elif code == 3:
        assert "internal error: ZeroDivisionError: planted" in err


def invoke(capsys, *argv) -> tuple[int, str, str]:
    code = run_app(app, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", sorted(BAD_PATHS))
@pytest.mark.parametrize("switch", [["--format", "json"], ["--json"]])
def test_every_command_reports_a_bad_path_as_json_with_exit_two(capsys, command, switch):
    code, out, _err = invoke(capsys, *BAD_PATHS[command], *switch)
    assert code == 2, out
    doc = json.loads(out)
    assert doc["code"] == 2 and doc["error"], doc


@pytest.mark.parametrize("command", sorted(BAD_PATHS))
def test_every_command_reports_a_bad_path_in_words_on_stderr(capsys, command):
    code, out, err = invoke(capsys, *BAD_PATHS[command])
    assert code == 2
    assert err.startswith("kittens ") and "Traceback" not in err + out


@pytest.mark.parametrize("argv", [
    ["run", "original", "--variant", "no_such_variant"],
    ["run", "original", "--bots", "random,genius"],
    ["run", "original", "--with", "no_such_expansion"],
    ["play", "no_such_edition"],
    ["rules", "original", "-p", "11"],
    ["simulate", "original", "--variant", "no_such_variant", "-g", "1", "-j", "1"],
    ["compare", "original", "nsfw", "--bots", "genius", "-g", "1", "-j", "1"],
    ["sweep", "original", "--set", "hand_size=5..6", "--with", "no_such_expansion", "-g", "1", "-j", "1"],
    ["arena", "original", "--bots", "random,genius", "-g", "1"],
    ["arena", "no_such_edition", "-g", "1"],
    ["bench", "original", "--variant", "no_such_variant", "-g", "1"],
], ids=["variant", "bot", "expansion", "edition", "players", "simulate-variant", "compare-bot",
        "sweep-expansion", "arena-bot", "arena-edition", "bench-variant"])
def test_unknown_names_are_usage_errors_in_json_too(capsys, argv):
    code, out, _err = invoke(capsys, *argv, "--format", "json")
    assert code == 2
    assert json.loads(out)["code"] == 2


def test_click_usage_errors_parse_as_json(capsys):
    code, out, _err = invoke(capsys, "run", "--json")  # the edition is missing
    assert code == 2 and json.loads(out)["error"].startswith("Missing argument")
    code, out, _err = invoke(capsys, "validate", "--format", "json", "--no-such-option", ORIGINAL)
    assert code == 2 and "no-such-option" in json.loads(out)["error"]


def test_an_internal_error_is_exit_three_without_a_traceback(capsys, monkeypatch):
    import kittens.interpreter.rules.check as validate

    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(validate, "validate_paths", broken)
    monkeypatch.delenv("KITTENS_DEBUG", raising=False)
    code, out, err = invoke(capsys, "validate", ORIGINAL, "--format", "json")
    assert code == 3 and json.loads(out)["code"] == 3 and "Traceback" not in out + err
    code, out, err = invoke(capsys, "validate", ORIGINAL)
    assert code == 3 and "internal error: ZeroDivisionError: a bug" in err and "Traceback" not in err


def test_ctrl_c_anywhere_is_exit_130(capsys, monkeypatch):
    import kittens.interpreter.words.resolved as resolved

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(resolved, "render_show", interrupted)
    assert invoke(capsys, "show", "original")[0] == 130


def test_ctrl_c_at_the_play_prompt_exits_130(tmp_path):
    """A real `kittens play` waiting for a person: SIGINT stops it with 130, not 1."""
    child = subprocess.Popen([sys.executable, "-m", "kittens", "play", "original", "-p", "2",
                              "--seed", "3"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                             # a child of a shell without job control may inherit an ignored SIGINT
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        seen = ""
        while "Your choice" not in seen and time.monotonic() < deadline:
            seen += child.stdout.read(1) or ""
        assert "Your choice" in seen, seen
        # a signal that lands just before the child enters read() waits for the next one
        # (Python runs handlers between bytecodes), as a person presses Ctrl-C again
        for _ in range(20):
            child.send_signal(signal.SIGINT)
            try:
                child.wait(timeout=1)
                break
            except subprocess.TimeoutExpired:
                continue
        assert child.wait(timeout=30) == 130
        assert "Traceback" not in child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()


@pytest.mark.parametrize("argv", [
    ["run", "original", "-g", "2"], ["bench", "-g", "2", "--rounds", "1"], ["list"],
    ["show", "original"], ["diff", "original", "nsfw"], ["rules", "original"],
    ["validate", ORIGINAL],
    ["test", str(ROOT / "tests" / "scenarios" / "original" / "attack_stacks_when_owed_two.yaml")],
    ["docs"], ["docs", "effects"],
])
def test_every_command_prints_json_that_parses(capsys, argv):
    code, out, _err = invoke(capsys, *argv, "--format", "json")
    assert code == 0, out
    json.loads(out)


def test_the_other_commands_print_json_that_parses_too(capsys, tmp_path):
    """schema, new, replay and lsp's errors; the lab, arena and serve have their own tests
    of their JSON (test_lab_cli.py, test_arena.py, test_web_cli.py)."""
    log = str(tmp_path / "games.jsonl")
    assert invoke(capsys, "run", "original", "-g", "2", "--log", log)[0] == 0
    for argv in (["schema"], ["schema", "cards"], ["replay", log],
                 ["new", "house-rule", "Mine", "--dir", str(tmp_path)],
                 ["new", "expansion", "Theirs", "--dir", str(tmp_path)],
                 ["diff", "original", "nsfw"], ["list", str(ROOT / "editions")]):
        code, out, _err = invoke(capsys, *argv, "--json")
        assert code == 0, (argv, out)
        json.loads(out)


def test_shipped_files_are_shown_by_name_not_by_their_install_path(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # as a designer's folder: not inside kittens
    for argv in (["list"], ["list", "--json"], ["show", "original"], ["validate", ORIGINAL],
                 ["run", "original", "--variant", "nope"]):
        _code, out, err = invoke(capsys, *argv)
        assert str(PACKAGE_DIR) not in out + err, argv
    _code, out, _err = invoke(capsys, "list")
    assert "Exploding Kittens (Original Edition)  [edition, 2-5 players]  original" in out
    _code, out, _err = invoke(capsys, "show", "original")
    assert "<kittens>/editions/original.yaml" in out
    # a message that names where something else was defined names a shipped file by name too
    (tmp_path / "cards.yaml").write_text("format: 1\nkind: cards\ncards:\n  - id: skip\n"
                                         "    title: Skip\n    text: End your turn.\n"
                                         "    when: own_turn\n    effect: end_turn()\n")
    (tmp_path / "mine.yaml").write_text("format: 1\nkind: edition\nid: mine\nname: Mine\n"
                                        "extends: original\ninclude: [cards.yaml]\n")
    for argv in (["validate", "mine.yaml"], ["run", "mine.yaml"], ["validate", "mine.yaml", "--json"]):
        code, out, err = invoke(capsys, *argv)
        assert code == 1 and "duplicate-id" in out + err, argv
        assert str(PACKAGE_DIR) not in out + err and "<kittens>/rulebook/original.yaml:" in out + err, argv


def test_validate_a_folder_skips_build_output_environments_hidden_folders_and_gitignore(tmp_path, capsys):
    good = (ROOT / "examples" / "house-rules" / "two_defuses.yaml").read_text(encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "two_defuses.yaml").write_text(good.replace("extends: ../../editions/original.yaml",
                                                                      "extends: original"))
    broken = "format: 1\nkind: cards\ncards: [oops\n"
    for folder in ("build", ".hidden", "venv", "generated", "dist"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "broken.yaml").write_text(broken)
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "rules" / "scratch.yaml").write_text(broken)
    (tmp_path / ".gitignore").write_text("# made by tools\ngenerated/\n*scratch*.yaml\n")
    code, out, _err = invoke(capsys, "validate", str(tmp_path), "--format", "json")
    doc = json.loads(out)
    assert [os.path.basename(f) for f in doc["files"]] == ["two_defuses.yaml"], doc
    assert code == 0
    # a file named directly is checked whatever .gitignore says
    code, _out, _err = invoke(capsys, "validate", str(tmp_path / "rules" / "scratch.yaml"))
    assert code == 1


def test_kittensignore_leaves_out_what_git_keeps(tmp_path, capsys):
    """A .kittensignore (the syntax of .gitignore) names files that git keeps but that are not
    to be validated, such as fixtures broken on purpose; its ``!`` can take back a .gitignore line."""
    broken = "format: 1\nkind: cards\ncards: [oops\n"
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "bad.yaml").write_text(broken)
    (tmp_path / "fixtures" / "keep.yaml").write_text(broken)
    (tmp_path / "other.yml").write_text("site_name: docs\n")
    code, out, _err = invoke(capsys, "validate", str(tmp_path), "--format", "json")
    assert code == 1 and len(json.loads(out)["files"]) == 3
    (tmp_path / ".gitignore").write_text("keep.yaml\n")
    (tmp_path / ".kittensignore").write_text("# broken on purpose\n/fixtures/\n/other.yml\n")
    code, out, _err = invoke(capsys, "validate", str(tmp_path), "--format", "json")
    assert code == 2 and "no rule files" in out + _err
    (tmp_path / ".kittensignore").write_text("/other.yml\n!keep.yaml\n")
    code, out, _err = invoke(capsys, "validate", str(tmp_path), "--format", "json")
    assert sorted(os.path.basename(f) for f in json.loads(out)["files"]) == ["bad.yaml", "keep.yaml"]


def test_the_repository_validates_clean_as_a_folder(capsys):
    """`kittens validate .` at the top of this repository: its .kittensignore leaves out the
    broken fixtures and the YAML that is not rules, and everything else checks clean."""
    code, out, _err = invoke(capsys, "validate", str(ROOT), "--format", "json")
    doc = json.loads(out)
    assert code == 0, [d for d in doc["diagnostics"]][:5]
    assert len(doc["files"]) > 300 and not any("/tests/broken/" in f for f in doc["files"])


def test_validate_github_annotations_and_sarif(write, capsys):
    path = write("skip.yaml", "format: 1\nkind: cards\ncards:\n  - id: skip\n    title: Skip\n"
                              "    text: End your turn.\n    when: own_turn\n    effect: end_trun()\n")
    code, out, _err = invoke(capsys, "validate", path, "--format", "github")
    assert code == 1
    assert out.splitlines() == [f"::error file={path},line=8,col=13,title=kittens unknown-primitive::"
                                "no primitive is called 'end_trun'; did you mean 'end_turn'?"]
    code, out, _err = invoke(capsys, "validate", path, "--format", "sarif")
    sarif = json.loads(out)
    assert code == 1 and sarif["version"] == "2.1.0"
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] == "unknown-primitive" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 8, "startColumn": 13}
    # what GitHub code scanning requires of the tool and each rule (sarif-multitool, GitHub kind)
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"].startswith("https://")
    for rule in driver["rules"]:
        assert rule["fullDescription"]["text"] and rule["shortDescription"]["text"]
        assert rule["helpUri"].startswith("https://")


def test_ci_formats_tell_a_finding_in_a_shipped_file_on_the_file_that_caused_it(tmp_path, capsys,
                                                                               monkeypatch):
    """A house rule whose deal the dry run refuses fails at the extended edition's step, in a
    shipped file CI cannot annotate: github and sarif put it on the house rule's extends line."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.yaml").write_text("format: 1\nkind: edition\nid: big\nname: Big\n"
                                       "extends: original\nset_params: {hand_size: 60}\n")
    code, out, _err = invoke(capsys, "validate", "big.yaml", "--format", "github")
    assert code == 1 and out.startswith("::error file=big.yaml,line=5,col=1,title=kittens deal-impossible::")
    assert "(at <kittens>/editions/original.yaml:" in out
    code, out, _err = invoke(capsys, "validate", "big.yaml", "--format", "sarif")
    [result] = json.loads(out)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "big.yaml"}, "region": {"startLine": 5, "startColumn": 1}}


def test_text_tells_a_finding_in_a_shipped_file_on_the_file_that_caused_it(tmp_path, capsys, monkeypatch):
    """For a person too: the house rule's extends line first (the file they wrote), then the
    shipped step where the deal fails, with its source line and caret."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.yaml").write_text("format: 1\nkind: edition\nid: big\nname: Big\n"
                                       "extends: original\nset_params: {hand_size: 60}\n")
    code, out, _err = invoke(capsys, "validate", "big.yaml")
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith("big.yaml:5:1: error: with 2 players this deals 120 cards")
    assert lines[0].endswith("[deal-impossible]") and "(at " not in lines[0]
    assert lines[1:3] == ["    extends: original", "    ^"]
    assert re.fullmatch(r"    <kittens>/editions/original\.yaml:\d+:\d+: where it happens", lines[3])
    assert "deal: {count: rules.hand_size}" in lines[4] and lines[5].strip() == "^"
    assert lines[-1] == "checked 1 file: 1 error, 0 warnings"


def test_sarif_locations_are_uris(tmp_path, capsys, monkeypatch):
    """A folder with a space is percent-encoded, and a path outside the working folder is a
    file:// URI (code scanning reads artifact locations as URIs)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "House Rules").mkdir()
    (tmp_path / "House Rules" / "x.yaml").write_text("format: 1\nkind: cards\ncards: [oops\n")
    code, out, _err = invoke(capsys, "validate", ".", "--format", "sarif")
    location = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert code == 1 and location["artifactLocation"]["uri"] == "House%20Rules/x.yaml"
    monkeypatch.chdir(ROOT)
    code, out, _err = invoke(capsys, "validate", str(tmp_path / "House Rules"), "--format", "sarif")
    uri = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == (tmp_path / "House Rules" / "x.yaml").as_uri() and "%20" in uri


def _complete(words: str, cword: int, cwd) -> list[str]:
    env = dict(os.environ, _KITTENS_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword))
    done = subprocess.run([sys.executable, "-c", "from kittens.cli import main; main()"], env=env,
                          capture_output=True, text=True, timeout=60, cwd=cwd)
    return done.stdout.split()


def test_shell_completion_names_editions_variants_bots_and_expansions(tmp_path):
    assert "original" in _complete("kittens run orig", 2, tmp_path)
    assert _complete("kittens run original --variant ", 4, tmp_path) == ["older_printing", "beginner"]
    assert _complete("kittens run original --bots random,h", 4, tmp_path) == ["random,heuristic"]
    assert {"imploding", "barking", "streaking"} <= set(_complete("kittens run original --with ", 4, tmp_path))


def test_completion_reaches_the_other_commands_too(tmp_path):
    """compare (its baseline's variants, RULES@VARIANT too), the lab's and arena's bots,
    docs topics, schema kinds, and serve's rule files."""
    assert _complete("kittens compare original nsfw --variant ", 5, tmp_path) == ["older_printing", "beginner"]
    assert "two_player" in _complete("kittens compare imploding@faster original --variant ", 5, tmp_path)
    assert "original" in _complete("kittens compare orig", 2, tmp_path)
    assert _complete("kittens simulate original --variant b", 4, tmp_path) == ["beginner"]
    assert _complete("kittens arena --bots random,i", 3, tmp_path) == ["random,ismcts"]
    assert _complete("kittens docs eff", 2, tmp_path) == ["effects"]
    assert _complete("kittens schema sc", 2, tmp_path) == ["scenario"]
    (tmp_path / "party.yaml").write_text("format: 1\n")
    assert _complete("kittens serve pa", 2, tmp_path) == ["party.yaml"]


def test_kittens_test_k_and_x(capsys):
    folder = str(ROOT / "tests" / "scenarios" / "original")
    code, out, _err = invoke(capsys, "test", folder, "-k", "attack", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["passed"] >= 2
    assert all("attack" in (os.path.basename(r["path"]) + r["description"]).lower() for r in doc["results"])
    code, out, _err = invoke(capsys, "test", folder, "-k", "attack and not stack", "--json")
    assert all("stack" not in os.path.basename(r["path"]) for r in json.loads(out)["results"])


def test_kittens_test_x_stops_at_the_first_failure(tmp_path, capsys):
    scenario = ("format: 1\nkind: scenario\ndescription: {d}\nedition: original\nplayers: 2\n"
                "hands: {{0: [skip]}}\ndraw_pile: [tacocat, beard_cat]\n"
                "steps:\n  - {{seat: 0, do: play skip}}\n  - expect: {{turn: {t}}}\n")
    (tmp_path / "a_fails.yaml").write_text(scenario.format(d="wrong on purpose", t=0))
    (tmp_path / "b_passes.yaml").write_text(scenario.format(d="right", t=1))
    code, out, _err = invoke(capsys, "test", str(tmp_path), "--json")
    assert code == 1 and json.loads(out)["passed"] == 1 and json.loads(out)["failed"] == 1
    code, out, _err = invoke(capsys, "test", str(tmp_path), "-x", "--json")
    assert code == 1 and len(json.loads(out)["results"]) == 1


def test_refreshed_schemas_keep_their_ids(tmp_path, capsys):
    """`kittens schema --write` replaces a stale copy, and every $id stays as it was."""
    folder = tmp_path / "schema"
    assert run_app(app, ["schema", "--write", str(folder)]) == 0
    (folder / "cards.schema.json").write_text("{}")
    capsys.readouterr()
    assert run_app(app, ["schema", "--write", str(folder), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["written"]) == 5
    for kind in ("cards", "combos", "edition", "expansion", "scenario"):
        copy = json.loads((folder / f"{kind}.schema.json").read_text())
        shipped = json.loads((ROOT / "schema" / f"{kind}.schema.json").read_text())
        assert copy == shipped
        assert copy["$id"] == f"https://kittens.example/schema/{kind}.schema.json"


def test_the_refresh_command_kittens_new_prints_refreshes_what_the_modelines_name(tmp_path, capsys,
                                                                                    monkeypatch):
    """`kittens new` says how to refresh the schemas; that very command rewrites the files
    the starter's modelines point to (not some other folder)."""
    import re
    import shlex

    monkeypatch.chdir(tmp_path)
    code, out, _err = invoke(capsys, "new", "house-rule", "Party", "--dir", "rules")
    assert code == 0
    command = re.search(r"refresh with `kittens (schema --write [^`]+)`", out).group(1)
    modeline = (tmp_path / "rules" / "party.yaml").read_text().splitlines()[0]
    target = tmp_path / "rules" / modeline.split("$schema=", 1)[1]
    target.write_text("{}")  # stale
    assert invoke(capsys, *shlex.split(command))[0] == 0
    assert json.loads(target.read_text())["$id"].endswith("/edition.schema.json")


@pytest.mark.parametrize("argv, words", [
    (["lsp", "--help"], "kittens-engine[lsp]"), (["simulate", "--help"], "kittens-engine[cluster]"),
    (["validate", "--help"], "*.yaml"),
])
def test_help_keeps_brackets_and_stars(capsys, argv, words):
    """Help text is read as Markdown, not as rich markup, which took "[lsp]" for a style."""
    code, out, _err = invoke(capsys, *argv)
    flat = "".join(out.replace("\u2502", " ").split())  # however rich wrapped it into its box
    assert code == 0 and words in flat, out


def test_lsp_without_pygls_says_how_to_install_it_in_json_too(capsys, monkeypatch):
    """`kittens lsp` without the lsp extra: a usage error naming the extra, in the format asked."""
    for name in [n for n in sys.modules if n == "pygls" or n.startswith(("pygls.", "kittens.lsp.server"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygls", None)  # as if it were not installed
    code, out, _err = invoke(capsys, "lsp", "--json")
    assert code == 2 and "kittens-engine[lsp]" in json.loads(out)["error"]
    code, _out, err = invoke(capsys, "lsp")
    assert code == 2 and err.startswith("kittens lsp: the language server needs pygls")


@pytest.mark.parametrize("name, made", [("Two Defuses!", "two_defuses"), ("Été chaud", "ete_chaud"),
                                        ("Smörgåsbord Kittens", "smorgasbord_kittens")])
def test_kittens_new_keeps_the_letters_of_an_accented_name(tmp_path, capsys, name, made):
    code, out, _err = invoke(capsys, "new", "house-rule", name, "--dir", str(tmp_path), "--json")
    assert code == 0 and os.path.basename(json.loads(out)["written"][0]["path"]) == f"{made}.yaml"


def test_no_command_message_names_its_command_a_second_time():
    """`fail` and the command's errors put "kittens COMMAND: " before every message, so a
    message that starts with the command's name says it twice (issue 41: "kittens print:
    kittens print needs ...")."""
    import re

    offenders = []
    for path in sorted((ROOT / "commands").glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"""\bfail\(\s*f?["']kittens """, line):
                offenders.append(f"{path.name}:{number}")
    assert offenders == []
