"""No reading outside the rule folders, and no excerpts of files that are not rule files.

A reference (`include`, `uses`, `extends`, `apply`, an expansion's `base`) may
only reach files inside the project of a file the user named, the kittens
package folder, or an installed expansion's folder; see
:func:`kittens.interpreter.rules.plugins.project_root`. Every test builds its files in
``tmp_path``: a project marked by ``kittens.toml`` and, beside it, an
``outside`` folder holding perfectly good rule files that must not be read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kittens.interpreter.lang.diagnostics import CODES
from kittens.interpreter.lang.loader import Document
from kittens.interpreter.rules import plugins
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.workspace import ALLOW_OUTSIDE_ENV, Workspace

ROOT = Path(__file__).resolve().parent.parent

CARDS = "format: 1\nkind: cards\ncards:\n  - {id: far, title: Far, text: t, when: own_turn, effect: 'draw(me)'}\n"


def using(reference: str, card: str = "near") -> str:
    """A card library whose `uses` value sits at line 3, column 8."""
    return (f"format: 1\nkind: cards\nuses: [{reference}]\ncards:\n"
            f"  - {{id: {card}, title: Near, text: t, when: own_turn, effect: 'draw(me)'}}\n")


def house(extends: str, apply: str | None = None) -> str:
    """A house rule: `extends` at line 5, column 10; an `apply` entry at line 6, column 9."""
    text = f"format: 1\nkind: edition\nid: house\nname: House\nextends: {extends}\n"
    if apply is not None:
        text += f"apply: [{apply}]\n"
    return text + "set_params: {hand_size: 5}\n"


def scenario(edition: str, with_: str | None = None) -> str:
    """A scenario: `edition` at line 4, column 10; a `with` entry at line 5, column 8."""
    text = f"format: 1\nkind: scenario\ndescription: x\nedition: {edition}\n"
    if with_ is not None:
        text += f"with: [{with_}]\n"
    return text + "players: 2\nhands: {0: [tacocat]}\nsteps: []\n"


EXPANSION = ("format: 1\nkind: expansion\nid: far_cats\nname: Far Cats\nbase: {base}\n"
             "include: [cards.yaml]\ndeck:\n  far: 2\n")


def shipped_edition_text() -> str:
    """The Original, with its includes pointing into the kittens package (absolute)."""
    text = (ROOT / "editions" / "original.yaml").read_text(encoding="utf-8")
    return text.replace("../rulebook/", str(ROOT / "rulebook") + "/")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path):
    """tmp_path/project (marked by kittens.toml) and tmp_path/outside (good files)."""
    project = tmp_path / "project"
    write(project / "kittens.toml", "")
    outside = tmp_path / "outside"
    write(outside / "cards.yaml", CARDS)
    write(outside / "edition.yaml", shipped_edition_text())
    write(outside / "far_cats" / "expansion.yaml", EXPANSION.format(base="original"))
    write(outside / "far_cats" / "cards.yaml", CARDS)
    return project, outside


def validate(*paths, **options) -> list:
    return validate_paths([str(p) for p in paths], **options).diagnostics


def where(d) -> tuple:
    return d.code, d.line, d.column


def findings(diagnostics, code="outside-project") -> list:
    return [where(d) for d in diagnostics if d.code == code]


# -- references that leave the tree are refused -----------------------------------
def test_an_absolute_uses_outside_the_project_is_refused(tree):
    project, outside = tree
    path = write(project / "lib.yaml", using(outside / "cards.yaml"))
    found = validate(path)
    assert [where(d) for d in found] == [("outside-project", 3, 8)], found
    assert "--allow-outside" in found[0].message and str(outside / "cards.yaml") in found[0].message


def test_a_uses_that_climbs_out_with_dot_dot_is_refused(tree):
    project, _outside = tree
    path = write(project / "rules" / "lib.yaml", using("../../outside/cards.yaml"))
    assert [where(d) for d in validate(path)] == [("outside-project", 3, 8)]


def test_a_symlink_out_of_the_tree_is_refused(tree):
    project, outside = tree
    os.symlink(outside / "cards.yaml", project / "link.yaml")
    path = write(project / "lib.yaml", using("link.yaml"))
    found = validate(path)
    assert [where(d) for d in found] == [("outside-project", 3, 8)]
    assert str(outside / "cards.yaml") in found[0].message  # says where the link leads


def test_a_symlinked_folder_out_of_the_tree_is_refused(tree):
    project, outside = tree
    os.symlink(outside, project / "shared")
    path = write(project / "lib.yaml", using("shared/cards.yaml"))
    assert [where(d) for d in validate(path)] == [("outside-project", 3, 8)]


def test_an_include_of_an_edition_outside_the_project_is_refused(tree):
    project, outside = tree
    text = shipped_edition_text().replace(str(ROOT / "rulebook" / "combos.yaml"),
                                          "../outside/cards.yaml")
    path = write(project / "edition.yaml", text)
    line = text.splitlines().index("  - ../outside/cards.yaml") + 1
    assert findings(validate(path)) == [("outside-project", line, 5)]


def test_an_extends_outside_the_project_is_refused(tree):
    project, outside = tree
    path = write(project / "house.yaml", house(outside / "edition.yaml"))
    assert [where(d) for d in validate(path)] == [("outside-project", 5, 10)]


def test_an_apply_outside_the_project_is_refused(tree):
    project, _outside = tree
    path = write(project / "house.yaml", house("original", "../outside/far_cats"))
    assert [where(d) for d in validate(path)] == [("outside-project", 6, 9)]


def test_an_expansion_base_outside_the_project_is_refused(tree):
    project, _outside = tree
    path = write(project / "mine" / "expansion.yaml", EXPANSION.format(base="../../outside/edition.yaml"))
    write(project / "mine" / "cards.yaml", CARDS)
    assert [where(d) for d in validate(path)] == [("outside-project", 5, 7)]


def test_a_library_used_through_a_library_outside_is_refused_where_it_is_named(tree):
    # the project's library uses one inside, which in turn names one outside
    project, _outside = tree
    write(project / "middle.yaml", using("../outside/cards.yaml", card="middle"))
    path = write(project / "top.yaml", using("middle.yaml"))
    found = validate(path)
    assert [(os.path.basename(d.path), *where(d)) for d in found] == [
        ("middle.yaml", "outside-project", 3, 8)]


@pytest.mark.parametrize("name, text", [
    ("lib.yaml", using("../outside/cards.yaml")),
    ("house.yaml", house("../outside/edition.yaml")),
    ("house.yaml", house("original", "../outside/far_cats")),
    ("mine/expansion.yaml", EXPANSION.format(base="../../outside/edition.yaml")),
    ("scenarios/s.yaml", None),  # edition:
    ("scenarios/w.yaml", None),  # with:
], ids=["uses", "extends", "apply", "base", "edition", "with"])
def test_an_outside_file_is_never_opened(tree, monkeypatch, name, text):
    # not even to weigh what a library is, or to look ahead at what a house rule applies
    project, outside = tree
    if name == "scenarios/s.yaml":
        text = scenario("../../outside/edition.yaml")
    elif name == "scenarios/w.yaml":
        text = scenario("original", "../../outside/far_cats")
    path = write(project / name, text)
    write(project / "mine" / "cards.yaml", CARDS)
    from kittens.interpreter.rules import workspace

    opened = []
    real = workspace.load_file
    monkeypatch.setattr(workspace, "load_file", lambda p: (opened.append(p), real(p))[1])
    assert "outside-project" in [d.code for d in validate(path)]
    assert opened and all(not os.path.realpath(p).startswith(str(outside)) for p in opened), opened


def test_a_missing_file_outside_gives_no_hint_about_the_folder_there(tree):
    # "did you mean" would list the names of files in a folder kittens may not read
    project, _outside = tree
    path = write(project / "lib.yaml", using("../outside/cardz.yaml"))
    found = validate(path)
    assert [where(d) for d in found] == [("outside-project", 3, 8)]
    assert "cards.yaml" not in found[0].message


# -- what stays allowed ----------------------------------------------------------
def test_allow_outside_reads_them(tree):
    project, outside = tree
    lib = write(project / "lib.yaml", using(outside / "cards.yaml"))
    rule = write(project / "house.yaml", house("../outside/edition.yaml", "../outside/far_cats"))
    assert validate(lib, rule, allow_outside=True) == []


def test_the_environment_variable_allows_them(tree, monkeypatch):
    project, outside = tree
    path = write(project / "lib.yaml", using(outside / "cards.yaml"))
    monkeypatch.setenv(ALLOW_OUTSIDE_ENV, "1")
    assert validate(path) == []
    monkeypatch.setenv(ALLOW_OUTSIDE_ENV, "0")
    assert findings(validate(path)) == [("outside-project", 3, 8)]


def test_the_command_line_option_allows_them(tree):
    project, outside = tree
    path = write(project / "lib.yaml", using(outside / "cards.yaml"))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "kittens", "validate", *args, "--format", "json",
                               str(path)], capture_output=True, text=True, timeout=60,
                              env={k: v for k, v in os.environ.items() if k != ALLOW_OUTSIDE_ENV})

    refused = run()
    assert refused.returncode == 1, refused.stderr
    assert [d["code"] for d in json.loads(refused.stdout)["diagnostics"]] == ["outside-project"]
    allowed = run("--allow-outside")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert json.loads(allowed.stdout)["diagnostics"] == []


def test_references_inside_the_project_are_fine(tree):
    project, _outside = tree
    write(project / "rulebook" / "cards.yaml", CARDS)
    write(project / "deep" / "er" / "lib.yaml", using("../../rulebook/cards.yaml"))
    assert validate(project / "deep" / "er" / "lib.yaml") == []


def test_without_a_marker_the_folder_above_the_named_file_is_the_tree(tmp_path):
    # my-rules/scenarios/ naming ../house.yaml, editions/ including ../rulebook/
    write(tmp_path / "my-rules" / "rulebook" / "cards.yaml", CARDS)
    path = write(tmp_path / "my-rules" / "editions" / "lib.yaml", using("../rulebook/cards.yaml"))
    assert validate(path) == []
    far = write(tmp_path / "my-rules" / "editions" / "far.yaml", using("../../elsewhere/cards.yaml"))
    write(tmp_path / "elsewhere" / "cards.yaml", CARDS)
    assert findings(validate(far)) == [("outside-project", 3, 8)]


def test_the_project_the_command_runs_in_is_trusted(tree, monkeypatch):
    # a designer's repository (marked) is where they run kittens: its files may be named
    # from rule files kept elsewhere, such as a test's temporary folder
    project, outside = tree
    path = write(outside / "deep" / "lib.yaml", using(project / "cards.yaml"))
    write(project / "cards.yaml", CARDS)
    monkeypatch.chdir(outside)  # unmarked: trusts nothing more
    assert findings(validate(path)) == [("outside-project", 3, 8)]
    monkeypatch.chdir(project)
    assert findings(validate(path)) == []
    monkeypatch.chdir(project.parent)  # tmp_path: no marker at or above it in /tmp
    assert plugins.marked_project(str(project.parent)) is None


def test_the_home_folder_is_never_the_tree(tmp_path, monkeypatch):
    # a file saved in ~/Downloads may not read ~/.config, even when ~ holds a .git
    home = tmp_path / "home"
    write(home / ".git" / "HEAD", "ref: refs/heads/main\n")
    write(home / ".config" / "secrets.yaml", CARDS)
    monkeypatch.setenv("HOME", str(home))
    path = write(home / "Downloads" / "lib.yaml", using("../.config/secrets.yaml"))
    assert findings(validate(path)) == [("outside-project", 3, 8)]
    assert plugins.project_root(str(path)) == str(home / "Downloads")


def test_a_named_file_is_trusted_wherever_it_is(tree):
    # the user may name any file; it is the references in it that are confined
    _project, outside = tree
    assert validate(outside / "cards.yaml") == []


def test_expansions_named_on_the_command_line_are_trusted(tree):
    from kittens.interpreter.rules.load import load_edition

    _project, outside = tree
    edition = load_edition(str(ROOT / "editions" / "original.yaml"),
                           expansions=(str(outside / "far_cats" / "expansion.yaml"),))
    assert "far" in edition.cards


def test_installed_expansions_are_trusted(tree, monkeypatch):
    project, outside = tree
    far = plugins.Installed("far_cats", str(outside / "far_cats" / "expansion.yaml"), "far-cats", "1.0")
    monkeypatch.setattr(plugins, "installed", lambda: [far])
    path = write(project / "house.yaml", house("original", "far_cats"))
    assert validate(path) == []


def test_shipped_and_example_files_still_validate():
    found = validate(ROOT / "editions", ROOT / "rulebook", ROOT / "examples")
    assert findings(found) == []


# -- the function the scenario runner calls -----------------------------------------
def test_may_read_reports_at_the_reference(tree):
    project, outside = tree
    scenario = write(project / "scenarios" / "s.yaml", "edition: x\n")
    ws = Workspace()
    doc, _kind = ws.load(str(scenario))
    assert isinstance(doc, Document)
    assert ws.may_read(doc, ("edition",), str(project / "house.yaml"))
    assert not ws.may_read(doc, ("edition",), str(outside / "edition.yaml"))
    assert [where(d) for d in ws.diagnostics if d.code == "outside-project"] == [
        ("outside-project", 1, 10)]
    assert Workspace(allow_outside=True).may_read(doc, ("edition",), str(outside / "edition.yaml"))


def test_confined_follows_symlinks(tmp_path):
    write(tmp_path / "in" / "a.yaml", CARDS)
    os.symlink("/etc", tmp_path / "in" / "etc")
    roots = [str(tmp_path / "in")]
    assert plugins.confined(str(tmp_path / "in" / "a.yaml"), roots)
    assert not plugins.confined(str(tmp_path / "in" / "etc" / "x.yaml"), roots)
    assert not plugins.confined(str(tmp_path / "in" / ".." / "a.yaml"), roots)


def test_the_code_is_registered():
    assert "outside-project" in CODES


# -- excerpts only for rule files ------------------------------------------------
SECRET = "hunter2-do-not-print"


@pytest.mark.parametrize("content", [
    f"password: {SECRET}\n",                   # a mapping, but no format or kind
    f"root:x:0:0:{SECRET}:/root:/bin/bash\n",  # /etc/passwd: a plain value
    f"token: '{SECRET}\n",                     # not even YAML
    f"- {SECRET}\n",                           # a list
    f"users: [{{token: {SECRET}}}]\nkind: Config\n",  # a kind, but no format
], ids=["mapping", "passwd", "syntax-error", "list", "kube-config"])
def test_no_excerpt_of_a_file_that_is_not_a_rule_file(tree, content):
    project, _outside = tree
    write(project / "settings.yaml", content)
    path = write(project / "lib.yaml", using("settings.yaml"))
    found = validate(path)
    assert found, "the non-rule file must be reported"
    for diagnostic in found:
        assert SECRET not in diagnostic.render(), diagnostic.render()


def test_no_excerpt_of_a_system_file_even_when_allowed(tree):
    project, _outside = tree
    os.symlink("/etc/passwd", project / "passwd.yaml")
    path = write(project / "lib.yaml", using("passwd.yaml"))
    assert findings(validate(path)) == [("outside-project", 3, 8)]
    found = validate(path, allow_outside=True)
    assert found
    first_line = Path("/etc/passwd").read_text().splitlines()[0]
    assert all(first_line not in d.render() for d in found), [d.render() for d in found]


def test_rule_files_keep_their_excerpts(tree):
    project, _outside = tree
    bad = write(project / "bad.yaml", "format: 1\nkind: cards\ncards:\n  - {id: a, title: 'A}\n")
    wrong = write(project / "wrong.yaml", "format: 1\nkind: cards\ncardz: []\n")
    for path, line in ((bad, "  - {id: a, title: 'A}"), (wrong, "cardz: []")):
        rendered = [d.render() for d in validate(path)]
        assert any(f"\n    {line}\n" in text for text in rendered), rendered
        assert all(text.count("\n") == 2 for text in rendered), rendered  # each has its excerpt


def test_a_named_symlink_widens_nothing(tree):
    # a named file that is a link elsewhere is read (it was named), but its references
    # are relative to the link's folder, and so is the project they may reach: the
    # link's target's surroundings do not join the rule folders
    project, outside = tree
    write(outside / "secrets" / "s.yaml", CARDS)
    write(outside / "linked.yaml", using("../outside/secrets/s.yaml"))
    os.symlink(outside / "linked.yaml", project / "named.yaml")
    assert [where(d) for d in validate(project / "named.yaml")] == [("outside-project", 3, 8)]
    assert validate(project / "named.yaml", allow_outside=True) == []


# -- a scenario's edition and with ----------------------------------------------------
def test_a_scenario_edition_outside_the_project_is_refused(tree):
    project, _outside = tree
    path = write(project / "scenarios" / "s.yaml", scenario("../../outside/edition.yaml"))
    assert [where(d) for d in validate(path)] == [("outside-project", 4, 10)]


def test_a_scenario_with_outside_the_project_is_refused(tree):
    project, _outside = tree
    path = write(project / "scenarios" / "s.yaml", scenario("original", "../../outside/far_cats"))
    assert [where(d) for d in validate(path)] == [("outside-project", 5, 8)]


def test_running_a_scenario_that_reaches_outside_reads_nothing_there(tree):
    from kittens.authoring.scenario import ScenarioRunner

    project, outside = tree
    write(outside / "broken.yaml", f"format: 1\nkind: edition\nid: {SECRET}\n")
    path = write(project / "scenarios" / "s.yaml", scenario("../../outside/broken.yaml"))
    outcome = ScenarioRunner().run(str(path))
    assert not outcome.passed
    assert any("outside-project" in problem for problem in outcome.failures), outcome.failures
    assert not any(SECRET in problem for problem in outcome.failures), outcome.failures


def test_a_scenario_next_to_its_house_rule_still_runs(tmp_path):
    # the designer's layout, with no project marker anywhere above
    write(tmp_path / "my-rules" / "house.yaml", house("original"))
    path = write(tmp_path / "my-rules" / "scenarios" / "s.yaml", scenario("../house.yaml"))
    assert validate(path) == []
