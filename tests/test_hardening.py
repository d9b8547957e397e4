"""Hardening found by hostile or careless users (issue 28): each test failed before its fix.

Huge lists get a bounded number of findings; folder walks and replayed logs stay
in the rule folders; numbers in play stay within the documented bound; replays
say when a log's header or game list was changed; text from rule files is made
safe for a terminal; install paths are shown as ``<kittens>/...``; every command
takes the same ruleset forms; and a few messages read better.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kittens.about import EDITIONS_DIR
from kittens.interpreter.rules.check import check_file, validate_paths
from kittens.interpreter.rules.workspace import MAX_FINDINGS_PER_KIND, Workspace

ROOT = Path(__file__).resolve().parent.parent
# the installed Original: in CI the checkout's copy lies outside the rule folders
ORIGINAL = EDITIONS_DIR / "original.yaml"
HUGE = 190_000  # items in the list of the report: a 380 KB file


def kittens(*args, cwd=None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real command line."""
    result = subprocess.run([sys.executable, "-m", "kittens", *map(str, args)], capture_output=True,
                            text=True, timeout=timeout, stdin=subprocess.DEVNULL, cwd=cwd)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- a 190,000-item list: findings bounded ---------------------------------------------
def huge_house_rule(folder: Path) -> Path:
    items = ",".join(["1"] * HUGE)
    return write(folder / "huge.yaml", f"format: 1\nkind: edition\nid: huge\nname: Huge\n"
                                       f"extends: {ORIGINAL}\nremove_steps: [{items}]\n")


def huge_scenario(folder: Path) -> Path:
    items = ",".join(["1"] * HUGE)
    return write(folder / "huge_scenario.yaml", f"format: 1\nkind: scenario\nedition: {ORIGINAL}\n"
                                                f"players: 2\ndraw_pile: [{items}]\nsteps: []\n")


def assert_bounded(diagnostics) -> None:
    by_kind = {}
    for d in diagnostics:
        by_kind.setdefault((d.path, d.code), []).append(d)
    assert by_kind, "no findings"
    for (path, code), found in by_kind.items():
        assert len(found) <= MAX_FINDINGS_PER_KIND + 1, (code, len(found))
    summaries = [d for d in diagnostics if "more like this" in d.message]
    assert summaries, [d.message for d in diagnostics]
    assert any(f"{HUGE - MAX_FINDINGS_PER_KIND - 1:,} more" in d.message or
               "more like this" in d.message for d in summaries)


def test_a_huge_list_in_a_house_rule_gets_a_few_findings_per_kind(tmp_path):
    report = validate_paths([str(huge_house_rule(tmp_path))])
    assert_bounded(report.diagnostics)
    assert any("190,000 items" in d.message for d in report.diagnostics)
    wrong = [d for d in report.diagnostics if d.code == "wrong-type"]
    assert wrong[-1].message.startswith("and ") and "more like this" in wrong[-1].message


def test_a_huge_draw_pile_in_a_scenario_gets_a_few_findings_per_kind(tmp_path):
    assert_bounded(validate_paths([str(huge_scenario(tmp_path))]).diagnostics)


def test_the_upload_path_workspace_bounds_its_findings(tmp_path):
    ws = Workspace()  # what the web upload checks with (web/rulesets.py)
    check_file(ws, str(huge_house_rule(tmp_path)))
    assert_bounded(ws.diagnostics)


def test_validate_and_run_print_a_bounded_report(tmp_path):
    path = huge_house_rule(tmp_path)
    shown = kittens("validate", path)
    assert shown.returncode == 1
    assert len(shown.stdout.splitlines()) < 100, len(shown.stdout.splitlines())
    assert "more like this" in shown.stdout
    ran = kittens("run", path, "--games", "1")
    assert ran.returncode != 0
    assert len((ran.stdout + ran.stderr).splitlines()) < 100
    assert "more like this" in ran.stdout + ran.stderr


def test_a_long_list_where_the_schema_sets_no_bound_is_refused(tmp_path):
    tags = ", ".join(f"fluffy_{i}" for i in range(3000))
    path = write(tmp_path / "cards.yaml", "format: 1\nkind: cards\ncards:\n  - id: fluff\n"
                 "    title: Fluff\n    text: A card.\n    when: own_turn\n"
                 f"    tags: [{tags}]\n    effect: draw(me)\n")
    found = validate_paths([str(path)]).diagnostics
    assert any("3,000 items" in d.message for d in found), [d.message for d in found]


# -- the folder walk and replayed logs stay in the rule folders ----------------------
def linked_project(tmp_path: Path) -> Path:
    """A project whose one rule file is a link to a file outside it."""
    write(tmp_path / "outside" / "secret.yaml", "format: 1\nkind: cards\npassword: hunter2\ncards: []\n")
    project = tmp_path / "project"
    write(project / "kittens.toml", "")
    (project / "link.yaml").symlink_to(tmp_path / "outside" / "secret.yaml")
    return project


def test_a_folder_walk_does_not_follow_a_link_out_of_the_project(tmp_path):
    project = linked_project(tmp_path)
    report = validate_paths([str(project)])
    assert [d.code for d in report.diagnostics] == ["outside-project"]
    assert report.diagnostics[0].path.endswith("link.yaml")
    shown = kittens("validate", project)
    assert shown.returncode == 1
    assert "hunter2" not in shown.stdout + shown.stderr
    assert "--allow-outside" in shown.stdout


def test_a_folder_walk_follows_the_link_when_allowed(tmp_path):
    project = linked_project(tmp_path)
    report = validate_paths([str(project)], allow_outside=True)
    assert "unknown-key" in [d.code for d in report.diagnostics]


def logged_game(folder: Path, edition: str = "original") -> Path:
    log = folder / "games.jsonl"
    ran = kittens("run", edition, "--games", "3", "--seed", "5", "--log", log, cwd=folder)
    assert ran.returncode == 0, ran.stderr
    return log


def rewrite_headers(log: Path, change, seal: bool = False) -> None:
    """Apply ``change(header, number)`` to each game header of ``log``; ``seal``: work
    out the header's check again, as someone who knows the format could."""
    from kittens.interpreter.engine.simulate import header_check

    lines, number = [], 0
    for line in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("type") == "game":
            number += 1
            change(record, number)
            if seal:
                record["check"] = header_check(record)
            line = json.dumps(record)
        lines.append(line)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_replay_does_not_load_a_rule_file_outside_the_rule_folders(tmp_path):
    house = write(tmp_path / "elsewhere" / "house.yaml", f"format: 1\nkind: edition\nid: house\n"
                                                         f"name: House\nextends: {ORIGINAL}\n")
    logs = tmp_path / "logs"
    write(logs / "kittens.toml", "")
    log = logged_game(logs)
    rewrite_headers(log, lambda header, _: header.update(edition=str(house), edition_path=str(house)),
                    seal=True)
    replayed = kittens("replay", log, cwd=logs)
    assert replayed.returncode != 0
    assert "outside the rule folders" in replayed.stderr + replayed.stdout
    allowed = kittens("replay", log, "--rules", house, cwd=logs)
    assert "outside the rule folders" not in allowed.stderr + allowed.stdout


# -- numbers in play stay within the documented bound ----------------------------------
def test_attacks_that_stack_past_the_number_limit_stop_the_game_naming_the_card(tmp_path):
    from kittens.interpreter.engine.game import Game, RuleRuntimeError
    from kittens.interpreter.lang.limits import NUMBER_LIMIT
    from kittens.interpreter.rules.load import load_edition

    path = write(tmp_path / "big.yaml", f"""format: 1
kind: edition
id: big
name: Big
extends: {ORIGINAL}
define_cards:
  - id: big_attack
    title: Big Attack
    text: The next player takes a great many turns.
    when: own_turn
    effect: attack(next_player(), 600000000)
add_cards: {{big_attack: 2}}
""")

    def layout(table):
        for seat in (0, 1):
            table.new_card(table.edition.cards["big_attack"], table.hands[seat])
        for _ in range(5):
            table.new_card(table.edition.cards["tacocat"], table.draw_pile)
        table.owed[0] = 1

    state = Game(load_edition(str(path)), 3).new_state(0, layout=layout)
    with pytest.raises(RuleRuntimeError) as caught:
        for _ in range(50):
            actions = state.legal_actions()
            state.apply_action("play big_attack" if "play big_attack" in actions else actions[0])
            assert max(state.table.owed) <= NUMBER_LIMIT
    assert f"card 'big_attack' ({path}:7)" in str(caught.value)
    assert "1,200,000,000" in str(caught.value)


# -- replay says when a log's headers were changed or its games moved -----------------
def games_of(log: Path) -> list[list[str]]:
    """The lines of each game of a log, header first."""
    games = []
    for line in log.read_text(encoding="utf-8").splitlines():
        if json.loads(line).get("type") == "game":
            games.append([])
        games[-1].append(line)
    return games


def test_replay_says_when_a_header_records_other_bots(tmp_path):
    log = logged_game(tmp_path)
    rewrite_headers(log, lambda header, number: number == 2 and header.update(bots=["heuristic"] * 4))
    replayed = kittens("replay", log)
    assert replayed.returncode != 0
    lines = replayed.stdout.splitlines()
    assert "verified" in lines[0] and "verified" in lines[2]
    assert "header was changed" in lines[1]


@pytest.mark.parametrize("order, said", [
    ([0, 2], "game 3 of its run, but it follows game 1"),  # one left out
    ([0, 1, 1, 2], "game 2 of its run, but it follows game 2"),  # one repeated
    ([0, 2, 1], "game 3 of its run, but it follows game 1"),  # two swapped
    ([1, 2], "game 2 of its run, but it follows the log's start"),  # the first left out
])
def test_replay_says_when_games_were_left_out_repeated_or_moved(tmp_path, order, said):
    log = logged_game(tmp_path)
    games = games_of(log)
    log.write_text("\n".join(line for index in order for line in games[index]) + "\n", encoding="utf-8")
    replayed = kittens("replay", log)
    assert replayed.returncode != 0
    assert said in replayed.stdout, replayed.stdout


def test_two_joined_runs_replay(tmp_path):
    log = logged_game(tmp_path)
    log.write_text(log.read_text(encoding="utf-8") * 2, encoding="utf-8")
    replayed = kittens("replay", log)
    assert replayed.returncode == 0, replayed.stdout
    assert "6 of 6" in replayed.stdout


# -- text from rule files is safe for a terminal ---------------------------------------
TITLE_SEQUENCE = "\x1b]0;pwned\x07"  # sets the terminal's title


def raw_controls(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on (line breaks and tabs aside)."""
    return [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0
            or c in "\u202e\u2066"]


def control_house_rule(folder: Path, extra: str = "") -> Path:
    # YAML writes ESC as \e and BEL as \a in double quotes
    return write(folder / "evil.yaml", f"""format: 1
kind: edition
id: evil
name: "Evil\\e]0;pwned\\a house\\u202e rule"
extends: {ORIGINAL}
patch_cards:
  defuse: {{title: "De\\e[2Jfuse"}}  # a card every hand holds
{extra}""")


def test_printable_writes_control_characters_out():
    from kittens.interpreter.lang.diagnostics import printable

    assert printable(f"a{TITLE_SEQUENCE}b\x00\r\u202e\tc\nd") == "a\\x1b]0;pwned\\x07b\\x00\\x0d\\u202e\tc\nd"
    assert printable(printable("\x1b")) == "\\x1b"  # once is enough
    assert printable("Défausse 🐱") == "Défausse 🐱"


def test_run_rules_and_validate_print_no_control_sequence_from_a_rule_file(tmp_path):
    path = control_house_rule(tmp_path)
    for args in (("run", path, "--games", "2"), ("rules", path), ("show", path)):
        shown = kittens(*args)
        assert shown.returncode == 0, (args, shown.stderr)
        assert "Evil" in shown.stdout or "fuse" in shown.stdout, args
        assert not raw_controls(shown.stdout + shown.stderr), args
    broken = control_house_rule(tmp_path, "set_params: {no_such_rule: 1}\n")
    shown = kittens("validate", broken)
    assert shown.returncode == 1 and not raw_controls(shown.stdout + shown.stderr)


def test_a_file_name_and_a_nul_in_a_diagnostic_are_written_out(tmp_path):
    named = write(tmp_path / f"evil{TITLE_SEQUENCE}.yaml", "format: 1\nkind: edition\n")
    nul = tmp_path / "nul.yaml"
    nul.write_bytes(b"format: 1\nkind: cards\ncards: [\x00]\n")
    shown = kittens("validate", named, nul)
    assert shown.returncode == 1
    assert not raw_controls(shown.stdout + shown.stderr), shown.stdout
    assert "evil\\x1b]0;pwned\\x07.yaml" in shown.stdout
    caret = shown.stdout.split("cards: [")[1].splitlines()
    assert caret[0].startswith("\\x00]") and caret[1].endswith("^")


def test_terminal_play_writes_titles_out(tmp_path):
    from kittens.adapters.terminal import HumanTable, Quit, Terminal
    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.rules.load import load_edition

    edition = load_edition(str(control_house_rule(tmp_path)))
    state = Game(edition, 2).new_state(3)
    lines = []
    table = HumanTable(state, [0, 1], {}, Terminal(read=lambda prompt: lines.append(prompt) or "q",
                                                      write=lines.append))
    try:
        table.play()
    except Quit:
        pass
    assert lines and not raw_controls("\n".join(lines))


# -- shipped files are named <kittens>/..., never by where kittens is installed ---------
@pytest.mark.parametrize("fmt", ["text", "github", "sarif", "json"])
def test_a_message_naming_a_shipped_file_names_it_the_same_everywhere(tmp_path, fmt):
    from kittens.about import PACKAGE_DIR

    path = write(tmp_path / "house.yaml", "format: 1\nkind: edition\nid: house\nname: House\n"
                                          "extends: original\nremove_cards: [skp]\n")
    shown = kittens("validate", "--format", fmt, path.name, cwd=tmp_path)
    assert shown.returncode == 1
    assert "<kittens>/editions/original.yaml:17" in shown.stdout
    assert str(PACKAGE_DIR) not in shown.stdout.replace("\\\\", "\\")


def test_the_language_server_names_a_shipped_file_the_same(tmp_path):
    from kittens.about import PACKAGE_DIR
    from kittens.lsp.analysis import analyse

    text = "format: 1\nkind: edition\nid: house\nname: House\nextends: original\nremove_cards: [skp]\n"
    path = write(tmp_path / "house.yaml", text)
    messages = [d.message for d in analyse(str(path), text).diagnostics]
    assert any("<kittens>/editions/original.yaml:17" in m for m in messages), messages
    assert not any(str(PACKAGE_DIR) in m for m in messages)


# -- the docs agree with the pytest plugin ---------------------------------------------
def test_the_docs_say_pytest_needs_the_setting_the_plugin_reads():
    import re

    from kittens import pytest_plugin

    setting = re.search(r'addini\("(\w+)"', Path(pytest_plugin.__file__).read_text()).group(1)
    for name, start in (("scenarios.md", "`pytest`"), ("tools.md", "## pytest")):
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        told = text[text.index(start):]
        told = told[:told.find("\n## ", 1)]  # up to the next section
        assert setting in told, (name, told)


# -- the schema offers a house rule only what validates there --------------------------
def test_the_edition_schema_offers_a_house_rule_only_the_keys_it_may_give():
    from jsonschema import Draft202012Validator

    from kittens.interpreter.rules.compose import AMBIGUOUS, CHANGE_KEYS

    schema = json.loads((ROOT / "schema" / "edition.schema.json").read_text(encoding="utf-8"))
    house = {"format": 1, "kind": "edition", "id": "h", "name": "H", "extends": "original"}
    assert Draft202012Validator(schema["if"]).is_valid(house)
    offered = set(schema["properties"]) | set(schema["then"]["properties"])  # what an editor completes
    assert not offered & set(AMBIGUOUS), offered & set(AMBIGUOUS)
    whole = set(schema["properties"]) | set(schema["else"]["properties"])
    assert not whole & set(CHANGE_KEYS), whole & set(CHANGE_KEYS)
    for key in AMBIGUOUS:  # and the validator still says why, in its own words
        assert not Draft202012Validator(schema).is_valid({**house, key: {}})


def test_a_house_rule_giving_a_whole_deck_still_gets_ambiguous_key(tmp_path):
    path = write(tmp_path / "h.yaml", "format: 1\nkind: edition\nid: h\nname: H\nextends: original\n"
                                      "deck: {defuse: 1}\n")
    assert [d.code for d in validate_paths([str(path)]).diagnostics] == ["ambiguous-key"]


# -- every command takes the ruleset forms compare takes -------------------------------
@pytest.mark.parametrize("args, said", [
    (("diff", "original", "original+imploding"), "+ Imploding Kittens"),
    (("diff", "original", "original@older_printing"), "params.hand_size"),
    (("show", "original+imploding"), "imploding"),
    (("run", "original+imploding@two_player", "--games", "1"), "Imploding"),
    (("rules", "original@older_printing"), "older"),
])
def test_every_command_takes_rules_plus_expansion_at_variant(args, said):
    shown = kittens(*args)
    assert shown.returncode == 0, shown.stderr
    assert said.lower() in shown.stdout.lower(), shown.stdout[:500]


# -- wording -----------------------------------------------------------------------------
def test_a_run_that_breaks_names_the_seed_of_the_game(tmp_path):
    path = write(tmp_path / "broken.yaml", f"""format: 1
kind: edition
id: broken
name: Broken
extends: {ORIGINAL}
define_cards:
  - id: bomb
    title: Bomb
    text: Breaks the rules.
    when: own_turn
    effect: |
      let n = 1000000000
      end_turn(n + n)
add_cards: {{bomb: 8}}
""")
    ran = kittens("run", path, "--seed", "40", "--games", "5")
    assert ran.returncode == 1
    error = ran.stderr
    assert "broke down" in error and "card 'bomb'" in error
    seed = int(error.split("it broke in the game of seed ")[1].split()[0])
    assert 40 <= seed < 45 and f"--seed {seed} --games 1" in error
    assert f"seed {seed}:" not in ran.stdout  # it is the game that did not finish


def test_a_fifo_is_not_offered_as_its_own_near_name(tmp_path):
    os.mkfifo(tmp_path / "fifo.yaml")
    including = write(tmp_path / "lib_user.yaml", "format: 1\nkind: edition\nid: h\nname: H\n"
                      "players: {min: 2, max: 5}\ninclude: [fifo.yaml]\ndeck: {defuse: 1}\n"
                      "setup: [{shuffle: draw_pile}]\nturn: {draw: draw(me)}\nwin: last_standing\n")
    extending = write(tmp_path / "house.yaml", "format: 1\nkind: edition\nid: h\nname: H\n"
                      "extends: fifo.yaml\n")
    for path in (including, extending):
        messages = [d.message for d in validate_paths([str(path)]).diagnostics if d.code == "unknown-file"]
        assert messages and "not a regular file" in messages[0], messages
        assert "did you mean 'fifo.yaml'" not in messages[0]


def test_a_file_of_another_kind_is_named_with_the_right_article(tmp_path):
    write(tmp_path / "rules.yaml", f"format: 1\nkind: edition\nid: h\nname: H\nextends: {ORIGINAL}\n")
    scenario = write(tmp_path / "s.yaml", "# yaml-language-server: $schema=scenario.schema.json\n"
                     "format: 1\nkind: edition\nid: s\nname: S\nextends: rules.yaml\n")
    found = [d.message for d in validate_paths([str(scenario)]).diagnostics]
    assert any("this is an edition file" in m for m in found), found
    assert not any(" a edition" in m or " a expansion" in m for m in found)


# -- rulesheets for players ----------------------------------------------------------------
SHIPPED = sorted(p.stem for p in (ROOT / "editions").glob("*.yaml"))


@pytest.mark.parametrize("edition", SHIPPED)
def test_a_rulesheet_names_no_source_file_or_ruling(edition):
    from kittens.interpreter.rules.load import load_edition
    from kittens.interpreter.words.rulesheet import render_rulesheet

    compiled = load_edition(edition)
    sheet = render_rulesheet(compiled, compiled.players[0], "markdown")
    for said in ("of the sources", "(file 0", "(ruling", "Named by:", "Counts in the combos:"):
        assert said not in sheet, (edition, said)


def test_the_kitten_and_the_defuse_read_naturally():
    from kittens.interpreter.rules.load import load_edition
    from kittens.interpreter.words.rulesheet import render_rulesheet

    sheet = render_rulesheet(load_edition("original"), 4, "markdown")
    assert ("**When drawn:** Reveal this card to everyone. If you hold a card that can serve as a "
            "Defuse and one of those cards (you pick which kind) is spent as a Defuse, move this card "
            "into the draw pile at a place you choose;") in sheet
    assert "otherwise, discard all the cards in your hand, then you are out of the game." in sheet
    assert "You may play it in a combo: Two of a kind, Three of a kind or Five different cards." in sheet
    assert "Exploding Kitten refers to it by name." in sheet
