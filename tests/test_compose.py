"""Composition: house rules that extend editions, expansions that change them,
conflicts between files, origins of every value, `kittens show` and `diff`,
expansions as folders and as installed packages.

Error codes have files in tests/broken/ (checked by test_corpus.py); here each
kind of change is tried on made-up files and checked against the compiled
edition, so a change that silently does nothing fails.
"""

from __future__ import annotations

import importlib
import os
import textwrap
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import RuleError, load_edition
from kittens.interpreter.words.resolved import as_data, diff, render_show

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT / "editions" / "original.yaml"
IMPLODING = ROOT / "editions" / "imploding.yaml"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def house(tmp_path: Path, body: str, name: str = "house.yaml", extends: Path = ORIGINAL) -> Path:
    head = f"""\
        format: 1
        kind: edition
        id: {name.split('.')[0].replace('-', '_')}
        name: A house rule
        extends: {os.path.relpath(extends, tmp_path)}
        """
    return write(tmp_path, name, textwrap.dedent(head) + textwrap.dedent(body))


def codes(path: Path) -> list[tuple[str, str, int]]:
    report = validate_paths([str(path)])
    return [(d.code, os.path.basename(d.path), d.line) for d in report.diagnostics]


# -- each kind of change does what it says ----------------------------------------
CHANGES = [
    ("add_cards", "add_cards: {super_skip: 2}\ninclude: [%s/rulebook/shared.yaml]\n" % ROOT,
     lambda e: e.deck_for(4).get("super_skip") == 2),
    ("remove_cards", "remove_cards: [favor]\n", lambda e: "favor" not in e.deck_for(4)),
    ("set_counts", "set_counts: {nope: 9}\n", lambda e: e.deck_for(4)["nope"] == 9),
    ("set_counts by range", 'set_counts: {nope: {"2-3": 3, "4-5": 7}}\n',
     lambda e: e.deck_for(2)["nope"] == 3 and e.deck_for(5)["nope"] == 7),
    ("set_params", "set_params: {hand_size: 4}\n", lambda e: e.params["hand_size"] == 4),
    ("set_params of a card library", "set_params: {attack_turns: 3}\n",
     lambda e: e.params["attack_turns"] == 3),
    ("add_params", "add_params: {house_bonus: 2}\n", lambda e: e.params.get("house_bonus") == 2),
    ("set_rules", "set_rules: {may_nope_own_action: true}\n", lambda e: e.rules["may_nope_own_action"]),
    ("remove_combos", "remove_combos: [five_different]\n",
     lambda e: [c.id for c in e.combos] == ["two_of_a_kind", "three_of_a_kind"]),
    ("add_combos", "add_combos: [cat_pair]\n", lambda e: [c.id for c in e.combos][-1] == "cat_pair"),
    ("set_combos", "set_combos: []\n", lambda e: e.combos == ()),
    ("patch_cards", "patch_cards: {skip: {nopeable: false}}\n",
     lambda e: not e.cards["skip"].nopeable and e.cards["skip"].title == "Skip"),
    ("patch an effect", "patch_cards: {see_the_future: {effect: 'show(top(draw_pile, 5), me)', "
                        "text: Look at the top 5 cards.}}\n",
     lambda e: "5" in e.cards["see_the_future"].raw["effect"] and e.cards["see_the_future"].effect.body),
    ("replace_cards", textwrap.dedent("""\
        replace_cards:
          - id: shuffle
            title: Shuffle
            text: Shuffle the draw pile and end your turn.
            when: own_turn
            effect: |
              shuffle(draw_pile)
              end_turn()
        """), lambda e: "end_turn" in e.cards["shuffle"].raw["effect"]),
    ("define_cards", textwrap.dedent("""\
        define_cards:
          - id: peek
            title: Peek
            text: Look at the top card of the draw pile.
            when: own_turn
            effect: show(top(draw_pile, 1), me)
        add_cards: {peek: 3}
        """), lambda e: e.deck_for(3).get("peek") == 3 and e.cards["peek"].origin.path.endswith("house.yaml")),
    ("define_combos", textwrap.dedent("""\
        define_combos:
          - id: four_of_a_kind
            title: Four of a kind
            text: Four cards of one title take the top card of the discard pile.
            cards: 4
            match: same_title
            effect: move(top(discard_pile, 1), hand(me))
        add_combos: [four_of_a_kind]
        """), lambda e: "four_of_a_kind" in [c.id for c in e.combos]),
    ("replace_steps", "replace_steps: {defuses: {deal: {card: defuse, count: 2}}}\nset_counts: {defuse: 12}\n",
     lambda e: [s for s in e.setup if s.kind == "deal"][0].count == 2),
    ("remove_steps", "remove_steps: [spares]\n",
     lambda e: not any(s.kind == "put_back" and s.cards == ("defuse",) for s in e.setup)),
    ("add_steps", "add_steps: [{after: kittens, steps: [{put_back: {card: defuse, count: 1, or_fewer: true}}]}]\n",
     lambda e: sum(s.kind == "put_back" and s.cards == ("defuse",) for s in e.setup) == 2),
    ("replace_setup", textwrap.dedent("""\
        replace_setup:
          - set_aside: [exploding_kitten, defuse]
          - deal: {card: defuse, count: 1}
          - deal: {count: 3}
          - put_back: {card: exploding_kitten, count: players - 1}
          - remove: set_aside
          - shuffle: draw_pile
        """), lambda e: len(e.setup) == 6),
    ("players", "players: {min: 3, max: 4}\n", lambda e: e.players == (3, 4)),
]


@pytest.mark.parametrize("what, body, holds", CHANGES, ids=[c[0] for c in CHANGES])
def test_each_change_key_changes_the_compiled_edition(tmp_path, what, body, holds):
    path = house(tmp_path, body)
    edition = load_edition(str(path))
    assert holds(edition), what
    assert not holds(load_edition(str(ORIGINAL))), f"{what}: the check holds without the change"


def test_a_house_rule_inherits_everything_it_does_not_change(tmp_path):
    edition = load_edition(str(house(tmp_path, "set_params: {hand_size: 6}\n")))
    original = load_edition(str(ORIGINAL))
    assert edition.deck == original.deck and edition.setup == original.setup
    assert edition.cards == original.cards and edition.id == "house"
    # the Original's variants survive, each switched on below the house rule's own change
    assert set(edition.variants) == set(original.variants)
    beginner = edition.variants["beginner"]
    assert [c.id for c in beginner.combos] == [c.id for c in original.variants["beginner"].combos]
    assert beginner.params["hand_size"] == 6 and beginner.id == "house"


# -- origins ---------------------------------------------------------------------------
def test_every_value_knows_the_file_and_line_that_set_it(tmp_path):
    path = house(tmp_path, """\
        set_counts: {nope: 9}
        set_params: {attack_turns: 3}
        patch_cards:
          skip: {nopeable: false}
        """)
    edition = load_edition(str(path))
    lines = path.read_text().splitlines()
    origin = edition.origins["deck.nope"]
    assert origin.path == str(path) and "set_counts" in lines[origin.line - 1]
    assert edition.origins["params.attack_turns"].line == 7
    assert edition.origins["deck.defuse"].path.endswith("editions/original.yaml")
    assert edition.origins["params.hand_size"].path.endswith("editions/original.yaml")
    assert edition.origins["rules.may_nope_own_action"].path.endswith("editions/original.yaml")
    skip = edition.cards["skip"]
    assert skip.origin.path.endswith("rulebook/original.yaml")
    assert [(o.path, o.line) for o in skip.changed_at] == [(str(path), 9)]
    for key, origin in edition.origins.items():  # every origin points at a real line
        if origin is not None:
            assert 1 <= origin.line <= len(Path(origin.path).read_text().splitlines()), key


def test_origins_follow_a_chain_of_house_rules_and_expansions(tmp_path):
    first = house(tmp_path, f"apply: [{os.path.relpath(IMPLODING, tmp_path)}]\nset_counts: {{nope: 7}}\n",
                  name="first.yaml")
    second = house(tmp_path, "set_counts: {nope: 3}\n", name="second.yaml", extends=first)
    edition = load_edition(str(second))
    assert edition.deck_for(4)["nope"] == 3 and edition.origins["deck.nope"].path == str(second)
    assert edition.origins["deck.reverse"].path.endswith("imploding.yaml")
    assert [Path(p).name for p in edition.sources[:2]] == ["original.yaml", "imploding.yaml"]
    assert edition.sources[2:] == (str(first), str(second))
    assert edition.extends == str(first)


def test_show_prints_yaml_whose_values_carry_their_origins(tmp_path):
    path = house(tmp_path, "set_counts: {nope: 9}\nremove_cards: [favor]\n")
    edition = load_edition(str(path))
    text = render_show(edition)
    loaded = yaml.safe_load(text)
    data = as_data(edition)
    assert loaded["deck"] == data["deck"] and loaded["params"] == data["params"]
    assert loaded["setup"] == data["setup"] and loaded["turn"] == data["turn"]
    assert loaded["cards"]["attack"]["effect"] == "attack(next_player(), rules.attack_turns)"
    nope_line = next(line for line in text.splitlines() if line.strip().startswith("nope:"))
    assert nope_line.endswith(f"house.yaml:{edition.origins['deck.nope'].line}")
    assert "favor" not in loaded["deck"]
    cards_part = text.split("\ncards:\n", 1)[1]
    attack_line = next(line for line in cards_part.splitlines() if line.startswith("  attack:"))
    defined = (ROOT / "rulebook" / "original.yaml").read_text(encoding="utf-8").splitlines().index("  - id: attack")
    assert attack_line.endswith(f"rulebook/original.yaml:{defined + 1}")  # where the card is defined


def test_diff_names_each_change_and_where_it_was_made(tmp_path):
    path = house(tmp_path, """\
        set_counts: {nope: 9}
        remove_cards: [favor]
        set_params: {hand_size: 5}
        patch_cards: {skip: {nopeable: false}}
        remove_combos: [five_different]
        """)
    changes = diff(load_edition(str(ORIGINAL)), load_edition(str(path)))
    found = {(c.sign, c.path) for c in changes}
    assert found == {("~", "deck.nope"), ("-", "deck.favor"), ("~", "params.hand_size"),
                     ("+", "cards.skip.nopeable"), ("-", "combos.five_different")}
    nope = next(c for c in changes if c.path == "deck.nope")
    assert (nope.before, nope.after) == (5, 9) and nope.origin.endswith("house.yaml:6")
    assert diff(load_edition(str(ORIGINAL)), load_edition(str(ORIGINAL))) == []


def test_a_patched_combo_is_placed_at_its_patch_in_diff_and_show(tmp_path):
    path = house(tmp_path, """\
        patch_combos: {two_of_a_kind: {nopeable: false}}
        """)
    changes = diff(load_edition(str(ORIGINAL)), load_edition(str(path)))
    [change] = [c for c in changes if c.path.startswith("combos.")]
    assert change.path == "combos.two_of_a_kind.nopeable" and change.origin.endswith("house.yaml:6")
    shown = CliRunner().invoke(app, ["show", str(path)]).output
    line = next(line for line in shown.splitlines() if line.strip().startswith("two_of_a_kind:"))
    assert "defined at rulebook/combos.yaml" in line and line.endswith("house.yaml:6")


def test_nsfw_is_the_original_with_new_titles_only():
    changes = diff(load_edition(str(ORIGINAL)), load_edition(str(ROOT / "editions" / "nsfw.yaml")))
    assert changes and all(c.path.startswith("cards.") and c.path.endswith((".title", ".text"))
                           for c in changes)


# -- conflicts -------------------------------------------------------------------------
def _expansion(folder: Path, name: str, body: str) -> Path:
    head = textwrap.dedent(f"""\
        format: 1
        kind: expansion
        id: {name}
        name: {name}
        base: {os.path.relpath(ORIGINAL, folder)}
        """)
    return write(folder, f"{name}.yaml", head + textwrap.dedent(body))


def _skip_library(folder: Path, name: str, text: str) -> Path:
    return write(folder, f"{name}-cards.yaml", f"""\
        format: 1
        kind: cards
        uses: [{os.path.relpath(ROOT / 'rulebook' / 'original.yaml', folder)}]
        cards:
          - id: skip
            title: Skip
            text: {text}
            when: own_turn
            overrides: true
            effect: end_turn()
        """)


def test_two_expansions_redefining_one_card_differently_conflict(tmp_path):
    _skip_library(tmp_path, "a", "End your turn without drawing.")
    _skip_library(tmp_path, "b", "Your turn ends; no draw.")
    _expansion(tmp_path, "exp_a", "include: [a-cards.yaml]\n")
    _expansion(tmp_path, "exp_b", "include: [b-cards.yaml]\n")
    both = house(tmp_path, "apply: [exp_a.yaml, exp_b.yaml]\n")
    found = validate_paths([str(both)]).diagnostics
    assert [(d.code, os.path.basename(d.path)) for d in found] == [("conflict", "b-cards.yaml")]
    assert "a-cards.yaml" in found[0].message  # names both sources
    settled = house(tmp_path, "apply: [exp_a.yaml, exp_b.yaml]\npatch_cards: {skip: {text: Skip it.}}\n",
                    name="settled.yaml")
    assert codes(settled) == []
    assert load_edition(str(settled)).cards["skip"].text == "Skip it."


def test_the_same_redefinition_twice_is_no_conflict(tmp_path):
    _skip_library(tmp_path, "a", "End your turn without drawing.")
    _skip_library(tmp_path, "b", "End your turn without drawing.")
    _expansion(tmp_path, "exp_a", "include: [a-cards.yaml]\n")
    _expansion(tmp_path, "exp_b", "include: [b-cards.yaml]\n")
    assert codes(house(tmp_path, "apply: [exp_a.yaml, exp_b.yaml]\n")) == []


def test_conflicting_parameters_name_both_files_and_a_house_rule_settles_them(tmp_path):
    _expansion(tmp_path, "two", "params: {hand_size: 2}\n")
    _expansion(tmp_path, "three", "params: {hand_size: 3}\n")
    both = house(tmp_path, "apply: [two.yaml, three.yaml]\n")
    report = validate_paths([str(both)])
    assert [(d.code, os.path.basename(d.path), d.line) for d in report.diagnostics] == \
        [("conflict", "three.yaml", 6)]
    assert "two.yaml:6" in report.diagnostics[0].message
    settled = house(tmp_path, "apply: [two.yaml, three.yaml]\nset_params: {hand_size: 4}\n", name="settled.yaml")
    assert codes(settled) == [] and load_edition(str(settled)).params["hand_size"] == 4


def test_conflicting_patches_conflict(tmp_path):
    _expansion(tmp_path, "one", "patch_cards: {skip: {nopeable: false}}\n")
    _expansion(tmp_path, "other", "patch_cards: {skip: {nopeable: true}}\n")
    assert codes(house(tmp_path, "apply: [one.yaml, other.yaml]\n")) == [("conflict", "other.yaml", 6)]


def test_an_expansion_applied_twice_is_reported(tmp_path):
    path = house(tmp_path, f"apply: [{os.path.relpath(IMPLODING, tmp_path)}, "
                           f"{os.path.relpath(IMPLODING, tmp_path)}]\n")
    assert ("duplicate-id", "imploding.yaml", 7) in codes(path)


def test_needs_is_met_when_the_needed_expansion_is_applied(tmp_path):
    _expansion(tmp_path, "extra", "needs: [imploding]\ndeck: {reverse: 1}\n"
                                  f"include: [{os.path.relpath(ROOT / 'rulebook' / 'imploding.yaml', tmp_path)}]\n")
    alone = house(tmp_path, "apply: [extra.yaml]\n", name="alone.yaml")
    assert [c for c, _f, _l in codes(alone)] == ["missing-need"]
    with_it = house(tmp_path, f"apply: [{os.path.relpath(IMPLODING, tmp_path)}, extra.yaml]\n",
                    name="with_it.yaml")
    assert codes(with_it) == []


def test_errors_in_an_expansion_point_into_the_expansion(tmp_path):
    _expansion(tmp_path, "typo", "remove_cards: [favour]\n")
    assert codes(house(tmp_path, "apply: [typo.yaml]\n")) == [("nothing-to-change", "typo.yaml", 6)]


def test_a_patched_effect_is_type_checked_where_it_is_written(tmp_path):
    path = house(tmp_path, "patch_cards:\n  skip:\n    effect: attack(next_player(), true)\n")
    found = validate_paths([str(path)]).diagnostics
    assert [(d.code, d.line, d.column) for d in found] == [("type-mismatch", 8, 35)]


def test_a_patch_keeps_the_choices_its_effect_uses(tmp_path):
    path = house(tmp_path, "patch_cards:\n  favor:\n    effect: move(choose_card(hand(victim), by=victim), hand(me))\n")
    assert codes(path) == []


# -- expansions as folders and packages --------------------------------------------
def _folder_expansion(root: Path) -> Path:
    folder = root / "space_cats"
    write(folder, "expansion.yaml", f"""\
        format: 1
        kind: expansion
        id: space_cats
        name: Space Cats
        base: {os.path.relpath(ORIGINAL, folder)}
        include: [cards.yaml]
        deck: {{moon_peek: 2}}
        """)
    write(folder, "cards.yaml", """\
        format: 1
        kind: cards
        cards:
          - id: moon_peek
            title: Moon Peek
            text: Look at the top card of the draw pile.
            when: own_turn
            effect: show(top(draw_pile, 1), me)
        """)
    return folder


def test_an_expansion_can_be_a_folder(tmp_path):
    folder = _folder_expansion(tmp_path)
    path = house(tmp_path, "apply: [space_cats]\n")
    assert load_edition(str(path)).deck_for(4)["moon_peek"] == 2
    result = CliRunner().invoke(app, ["run", str(ORIGINAL), "--with", str(folder), "-g", "3"])
    assert result.exit_code == 0, result.output


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A distribution declaring a `kittens.expansions` entry point, as pip would install it."""
    site = tmp_path / "site"
    package = _folder_expansion(site)
    (package / "__init__.py").write_text("raise RuntimeError('kittens must not import me')\n")
    info = site / "space_cats-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: space-cats\nVersion: 1.2\n")
    (info / "entry_points.txt").write_text("[kittens.expansions]\nspace_cats = space_cats\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    return package


def test_an_installed_expansion_is_found_by_name_without_running_its_code(installed, tmp_path):
    result = CliRunner().invoke(app, ["run", str(ORIGINAL), "--with", "space_cats", "-g", "3"])
    assert result.exit_code == 0, result.output
    path = house(tmp_path, "apply: [space_cats]\n", name="named.yaml")
    assert load_edition(str(path)).deck_for(4)["moon_peek"] == 2


def test_list_shows_installed_expansions_and_where_they_came_from(installed):
    result = CliRunner().invoke(app, ["list"])
    line = next(line for line in result.output.splitlines() if line.startswith("Space Cats"))
    assert "--with space_cats" in line and "space-cats 1.2" in line
    result = CliRunner().invoke(app, ["list", "--json"])
    entry = next(e for e in yaml.safe_load(result.output) if e["name"] == "Space Cats")
    assert entry["installed"] == "entry point 'space_cats' of space-cats 1.2"


def test_an_unknown_expansion_name_is_a_usage_error():
    result = CliRunner().invoke(app, ["run", str(ORIGINAL), "--with", "no_such_thing"])
    assert result.exit_code == 2 and "no expansion 'no_such_thing'" in result.output


# -- the command line ------------------------------------------------------------------
def test_show_and_diff_commands(tmp_path):
    path = house(tmp_path, "set_counts: {nope: 9}\n")
    shown = CliRunner().invoke(app, ["show", str(path)])
    assert shown.exit_code == 0 and yaml.safe_load(shown.output)["deck"]["nope"] == 9
    as_json = CliRunner().invoke(app, ["show", str(path), "--json"])
    assert yaml.safe_load(as_json.output)["origins"]["deck.nope"].endswith("house.yaml:6")
    changed = CliRunner().invoke(app, ["diff", str(ORIGINAL), str(path)])
    assert changed.exit_code == 0
    assert [line for line in changed.output.splitlines()
            if line[:1] in "+-~" and not line.startswith(("---", "+++"))] \
        == [f"~ deck.nope: 5 -> 9  ({path}:6)"]  # outside the working folder: the whole path


def test_a_broken_house_rule_exits_1_with_positions(tmp_path):
    path = house(tmp_path, "remove_cards: [favour]\n")
    for command in (["show"], ["rules"], ["run"]):
        result = CliRunner().invoke(app, command + [str(path)])
        assert result.exit_code == 1 and "house.yaml:6:16" in result.output, command
    with pytest.raises(RuleError):
        load_edition(str(path))


# -- the designer's workflow: kittens new -> validate -> test -> run -> rules ------
def test_kittens_new_house_rule_to_a_tested_rulesheet(tmp_path):
    runner = CliRunner()
    made = runner.invoke(app, ["new", "house-rule", "Short Hands", "--from", "original", "--dir", str(tmp_path)])
    assert made.exit_code == 0, made.output
    rule, scenario = tmp_path / "short_hands.yaml", tmp_path / "short_hands.scenario.yaml"
    assert rule.read_text().startswith("# yaml-language-server: $schema=")
    assert runner.invoke(app, ["validate", str(tmp_path)]).output.endswith("0 errors, 0 warnings\n")
    assert runner.invoke(app, ["test", str(tmp_path)]).exit_code == 0
    # the designer makes the change; the starter scenario notices the new deal
    assert "params.hand_size: 7 -> 6" in runner.invoke(app, ["diff", "original", str(rule)]).output
    rule.write_text(rule.read_text().replace("hand_size: 6 ", "hand_size: 4 "))
    failed = runner.invoke(app, ["test", str(scenario)])
    assert failed.exit_code == 1 and "hand" in failed.output
    scenario.write_text(scenario.read_text().replace(": 7", ": 5"))
    assert runner.invoke(app, ["test", str(tmp_path)]).exit_code == 0
    played = runner.invoke(app, ["run", str(rule), "-g", "20"])
    assert played.exit_code == 0 and "no winner" not in played.output
    sheet = runner.invoke(app, ["rules", str(rule), "-p", "3"])
    assert sheet.exit_code == 0
    assert "Deal 4 cards" in sheet.output
    html = runner.invoke(app, ["rules", str(rule), "--format", "html", "-o", str(tmp_path / "sheet.html")])
    assert html.exit_code == 0 and "<table>" in (tmp_path / "sheet.html").read_text()


def test_kittens_new_expansion_is_a_playable_folder(tmp_path):
    runner = CliRunner()
    made = runner.invoke(app, ["new", "expansion", "Moon Cats", "--dir", str(tmp_path)])
    assert made.exit_code == 0, made.output
    folder = tmp_path / "moon_cats"
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "__init__.py", "cards.yaml",
                                                        "expansion.yaml", "pyproject.toml",
                                                        "scenarios", "schema"]
    assert runner.invoke(app, ["validate", str(folder)]).output.endswith("0 errors, 0 warnings\n")
    assert runner.invoke(app, ["test", str(folder)]).exit_code == 0
    party = ROOT / "editions" / "party.yaml"
    assert runner.invoke(app, ["run", str(party), "--with", str(folder), "-g", "5"]).exit_code == 0


def test_kittens_new_refuses_to_overwrite_and_bad_names(tmp_path):
    runner = CliRunner()
    assert runner.invoke(app, ["new", "house-rule", "Mine", "--dir", str(tmp_path)]).exit_code == 0
    before = (tmp_path / "mine.yaml").read_text()
    again = runner.invoke(app, ["new", "house-rule", "Mine", "--dir", str(tmp_path)])
    assert again.exit_code == 2 and "already exists" in again.output
    assert (tmp_path / "mine.yaml").read_text() == before
    bad = runner.invoke(app, ["new", "house-rule", "42!", "--dir", str(tmp_path)])
    assert bad.exit_code == 2 and "start the name with a letter" in bad.output
    unknown = runner.invoke(app, ["new", "house-rule", "X", "--from", "originl", "--dir", str(tmp_path)])
    assert unknown.exit_code == 2 and "original" in unknown.output


# -- teams: a win condition of the edition ---------------------------------------------
def test_team_win_needs_teams_and_enough_players(tmp_path):
    no_teams = house(tmp_path, "win: last_team_standing\n", name="no_teams.yaml")
    assert codes(no_teams) == [("bad-value", "no_teams.yaml", 6)]
    too_many = house(tmp_path, "teams: {count: 3}\nwin: last_team_standing\n", name="too_many.yaml")
    assert codes(too_many) == [("bad-player-range", "too_many.yaml", 6)]


def test_teams_win_together_and_bots_count_every_winner(tmp_path):
    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.engine.simulate import run_games

    path = house(tmp_path, "players: {min: 4, max: 5}\nteams: {count: 2}\nwin: last_team_standing\n")
    edition = load_edition(str(path))
    assert edition.teams == 2 and as_data(edition)["teams"] == {"count": 2}
    summary = run_games(Game(edition, 4), games=40, seed=3, bots=["random"])
    assert summary.no_winner == 0
    assert summary.wins[0] == summary.wins[2] and summary.wins[1] == summary.wins[3]
    assert summary.wins[0] + summary.wins[1] == 40


def test_shipped_editions_and_expansions_by_name(tmp_path):
    path = write(tmp_path, "portable.yaml", """\
        format: 1
        kind: edition
        id: portable
        name: Portable
        extends: original
        apply: [imploding]
        set_params: {hand_size: 5}
        """)
    edition = load_edition(str(path))
    assert edition.extends.endswith("editions/original.yaml") and "imploding_kitten" in edition.deck
    assert CliRunner().invoke(app, ["diff", "original", str(path)]).exit_code == 0
    typo = write(tmp_path, "typo.yaml", "format: 1\nkind: edition\nid: t\nname: T\nextends: originl\n")
    found = validate_paths([str(typo)]).diagnostics
    assert [(d.code, d.line, d.column) for d in found] == [("unknown-file", 5, 10)]
    assert "did you mean 'original'" in found[0].message


def test_references_never_read_files_that_are_not_rule_files(tmp_path):
    secret = write(tmp_path, "secret.txt", "password\n")
    for key in ("extends", "apply"):
        value = str(secret) if key == "extends" else f"[{secret}]"
        extra = "" if key == "extends" else "extends: original\n"
        path = write(tmp_path, f"{key}.yaml", f"format: 1\nkind: edition\nid: x\nname: X\n{extra}{key}: {value}\n")
        found = validate_paths([str(path)]).diagnostics
        assert [d.code for d in found] == ["unknown-file"] and "not a rule file" in found[0].message
        assert "password" not in found[0].render()


def test_one_library_reached_at_two_places_is_one_library(tmp_path):
    """A checkout's rulebook and an installed kittens' rulebook (`uses: [original]`) are
    the same cards, not every card defined twice; a changed copy is a second definition."""
    text = (ROOT / "rulebook" / "original.yaml").read_text(encoding="utf-8")
    write(tmp_path, "a/original.yaml", text)
    write(tmp_path, "b/original.yaml", text)
    path = house(tmp_path, "include: [a/original.yaml, b/original.yaml]\n")
    assert codes(path) == []
    write(tmp_path, "b/original.yaml", text.replace("title: Skip", "title: Skip It"))
    assert ("duplicate-id", "original.yaml", 15) in codes(path)


def test_a_replay_notices_a_changed_house_rule(tmp_path):
    path = house(tmp_path, "set_params: {hand_size: 6}\n")
    log = tmp_path / "games.jsonl"
    runner = CliRunner()
    assert runner.invoke(app, ["run", str(path), "-g", "2", "--log", str(log)]).exit_code == 0
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 0
    path.write_text(path.read_text().replace("hand_size: 6", "hand_size: 5"))
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 1 and "rule files have changed" in replayed.output


def test_a_library_already_in_the_game_can_be_included_again(tmp_path):
    streaking = ROOT / "editions" / "streaking.yaml"
    again = house(tmp_path, f"apply: [{os.path.relpath(streaking, tmp_path)}]\n"
                            f"include: [{os.path.relpath(ROOT / 'rulebook' / 'original.yaml', tmp_path)}]\n")
    assert codes(again) == []
    edition = load_edition(str(again))
    assert edition.cards["exploding_kitten"].origin.path.endswith("rulebook/streaking.yaml")


def test_without_teams_everyone_else_is_an_opponent_and_nobody_a_teammate(tmp_path):
    from kittens.authoring.scenario import ScenarioRunner

    house(tmp_path, """\
        patch_cards:
          favor:
            requires: count(with_cards(opponents())) > 0 and count(teammates()) == 0
            choose:
              victim: choose_player(with_cards(opponents()))
        """)
    scenario = write(tmp_path, "s.yaml", """\
        format: 1
        kind: scenario
        description: opponents() is every other player when there are no teams.
        edition: house.yaml
        players: 3
        hands: {0: [favor], 1: [tacocat], 2: [beard_cat]}
        draw_pile: [cattermelon]
        steps:
          - {seat: 0, do: play favor}
          - expect:
              decision: {seat: 0, kind: choose_player, options: [1, 2]}
        """)
    outcome = ScenarioRunner().run(str(scenario))
    assert outcome.passed, outcome.message
