"""Issue 11's rule machinery: each box's own setup order, variants that survive
`extends` and `apply`, a card's home, shared team lives, rulings as switches,
and the dead-card check that points at a variant.

The shipped behaviour itself is pinned by scenario files (tests/scenarios/);
here the general mechanisms are tried on made-up house rules, including the
ways they can be misused.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.catalog import catalog
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import RuleError, load_edition
from kittens.interpreter.rules.setup import dead_cards


def rule(folder: Path, body: str, name: str = "house.yaml") -> str:
    """A house rule extending the Original by name, with ``body`` below its head."""
    head = f"format: 1\nkind: edition\nid: {name.split('.')[0]}\nname: A house rule\nextends: original\n"
    path = folder / name
    path.write_text(head + textwrap.dedent(body), encoding="utf-8")
    return str(path)


def codes(path: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in validate_paths([path]).diagnostics]


def steps(edition) -> list[str]:
    """The setup as step kinds, with the card a step deals or puts back."""
    return [step.kind + (f" {step.cards[0]}" if step.kind in ("deal", "put_back") and step.cards else "")
            for step in edition.setup]


# -- move_steps -----------------------------------------------------------------
def test_move_steps_moves_named_steps_in_order(tmp_path):
    path = rule(tmp_path, """\
        move_steps:
          - {step: defuses, after: deal}
          - {step: spares, after: kittens}
        """)
    assert steps(load_edition(path)) == [
        "set_aside", "shuffle", "deal", "deal defuse", "put_back exploding_kitten",
        "put_back defuse", "remove", "shuffle"]
    assert steps(load_edition("editions/original.yaml"))[:3] == ["set_aside", "deal defuse", "put_back defuse"]


@pytest.mark.parametrize("move, line", [
    ("{step: nowhere, after: deal}", 7),
    ("{step: defuses, before: nowhere}", 7),
])
def test_move_steps_names_an_unknown_step(tmp_path, move, line):
    path = rule(tmp_path, f"move_steps:\n  - {move}\n")
    assert ("unknown-step", line) in codes(path)


# -- variants -------------------------------------------------------------------
def test_a_variant_may_use_change_keys_and_goes_below_the_house_rule(tmp_path):
    path = rule(tmp_path, """\
        set_params: {hand_size: 6}
        variants:
          lean:
            description: Fewer Nopes.
            set_counts: {nope: 2}
        """)
    edition = load_edition(path)
    lean = edition.variants["lean"]
    assert lean.deck["nope"] == ((2, 5, 2),) and edition.deck["nope"] == ((2, 5, 5),)
    # the Original's variants are there too, each under the house rule's own change
    assert {"beginner", "older_printing", "lean"} <= set(edition.variants)
    assert edition.variants["older_printing"].params["hand_size"] == 6


def test_a_variant_that_no_longer_applies_is_dropped_with_its_reason(tmp_path):
    # the beginner variant turns the special combos off, so this change finds nothing
    path = rule(tmp_path, "remove_combos: [five_different]\n")
    edition = load_edition(path)
    assert "beginner" not in edition.variants and "older_printing" in edition.variants
    owner, why = edition.unavailable["beginner"]
    assert owner.endswith("original.yaml") and "five_different" in why
    assert validate_paths([path]).errors == 0  # the file itself is sound
    with pytest.raises(RuleError, match="does not apply here"):
        load_edition(path, "beginner")


def test_a_house_rule_names_the_variant_it_starts_from(tmp_path):
    path = rule(tmp_path, "apply: [imploding]\nvariant: two_player\n")
    edition = load_edition(path)
    assert edition.players == (2, 2) and edition.params["extra_kittens"] == 1
    assert "two_player" not in edition.variants  # already on
    bad = rule(tmp_path, "variant: two_player\n", "bad.yaml")
    assert ("bad-value", 6) in codes(bad)  # the Original alone has no two-player variant


def test_variant_needs_extends(tmp_path):
    path = tmp_path / "alone.yaml"
    path.write_text(Path("editions/original.yaml").read_text().replace(
        "id: original", "id: alone\nvariant: beginner"), encoding="utf-8")
    assert any(code == "needs-extends" for code, _line in codes(str(path)))


# -- a card's home -------------------------------------------------------------------
def test_a_card_with_a_home_never_reaches_the_discard_pile(tmp_path):
    edition = load_edition("editions/good_vs_evil.yaml")

    def layout(table):
        table.new_card(edition.cards["godcat"], table.hands[0])
        table.new_card(edition.cards["mercat"], table.hands[0])
        for card_id in ("horse_cat", "knight_cat"):
            table.new_card(edition.cards[card_id], table.draw_pile)
    state = Game(edition, 2).new_state(0, layout=layout)
    table = state.table
    table.move(list(table.hands[0].cards), table.discard_pile)  # any effect's move
    assert [c.id for c in table.discard_pile.cards] == ["mercat"]
    assert [c.id for c in table.extra["playmat"].cards] == ["godcat"]


# -- teams that share their lives ---------------------------------------------------
@pytest.mark.parametrize("together, out", [(True, [0, 2]), (False, [0])])
def test_partners_who_share_their_lives_go_out_together(tmp_path, together, out):
    path = rule(tmp_path, f"teams: {{count: 2, together: {str(together).lower()}}}\nwin: last_team_standing\n")
    edition = load_edition(path)
    state = Game(edition, 4).new_state(5, record=True)
    state.table.current = 0
    try:
        state.table.eliminate(0)
    except Exception:  # the game may be over: GameOver unwinds
        pass
    assert [s for s in range(4) if not state.table.alive[s]] == out
    assert state.table.current not in out
    if together:
        assert state.winners == (1, 3) and state.table.finished


# -- rulings as switches ------------------------------------------------------------
def test_nopeable_may_name_a_parameter(tmp_path):
    on = load_edition(rule(tmp_path, "apply: [barking]\n"))
    off = load_edition(rule(tmp_path, "apply: [barking]\nset_params: {barking_kitten_nopeable: false}\n",
                            "flipped.yaml"))
    assert on.cards["barking_kitten"].nopeable is True
    assert off.cards["barking_kitten"].nopeable is False


def test_nopeable_naming_a_missing_or_numeric_parameter_is_an_error(tmp_path):
    library = tmp_path / "cards.yaml"
    library.write_text(textwrap.dedent("""\
        format: 1
        kind: cards
        params: {sneaky: 3}
        cards:
          - id: sneak
            title: Sneak
            text: A card.
            when: own_turn
            nopeable: rules.sneaky
            effect: end_turn()
          - id: lurk
            title: Lurk
            text: A card.
            when: own_turn
            nopeable: rules.nothing_here
            effect: end_turn()
        """), encoding="utf-8")
    path = rule(tmp_path, "define_cards: []\nadd_cards: {sneak: 2, lurk: 2}\n")
    text = Path(path).read_text().replace("define_cards: []\n", "")
    Path(path).write_text(text.replace("extends: original\n", "extends: original\ninclude: [cards.yaml]\n"))
    found = [d for d in validate_paths([path]).diagnostics if d.code == "unknown-rule"]
    assert sorted(d.line for d in found) == [5, 11]
    assert any("true-or-false" in d.message for d in found)


# -- dead cards -----------------------------------------------------------------------
def test_imploding_alone_at_two_players_points_at_its_variant():
    edition = load_edition("editions/imploding.yaml")
    assert dead_cards(edition, 2) == {"defuse": ["exploding_kitten"]}
    assert dead_cards(edition, 3) == {} and dead_cards(edition.variants["two_player"], 2) == {}
    entry = next(e for e in catalog(["editions/imploding.yaml"]) if e["kind"] == "expansion")
    assert entry["advice"] == {"2": "two_player"}
    listed = CliRunner().invoke(app, ["list", "editions/imploding.yaml"]).output
    assert "with 2 players play --variant two_player" in listed
    ran = CliRunner().invoke(app, ["run", "imploding", "-p", "2", "-g", "1"])
    assert ran.exit_code == 0 and "--variant two_player" in ran.output
    quiet = CliRunner().invoke(app, ["run", "imploding", "-p", "2", "-g", "1", "--variant", "two_player"])
    assert "warning" not in quiet.output


def test_diff_shows_a_moved_step_as_one_move_with_the_line_that_moved_it():
    from kittens.interpreter.words.resolved import diff
    changes = diff(load_edition("editions/original.yaml"), load_edition("editions/imploding.yaml"))
    moves = {c.path: c for c in changes if c.sign == ">"}
    assert set(moves) == {"setup.defuses", "setup.spares"}
    assert moves["setup.spares"].after == "after 'kittens'"
    assert moves["setup.spares"].origin.startswith("editions/imploding.yaml:")
    assert not any(c.sign in "+-" and c.path in moves for c in changes)
    assert moves["setup.defuses"].render().startswith("> setup.defuses: moved after 'deal'")


@pytest.mark.parametrize("target", ["folder", "missing/sheet.md"])
def test_rules_output_to_a_folder_or_a_missing_folder_is_a_usage_error(tmp_path, target):
    (tmp_path / "folder").mkdir()
    result = CliRunner().invoke(app, ["rules", "original", "-o", str(tmp_path / target)])
    assert result.exit_code == 2 and "cannot write" in result.output
    assert not [p for p in tmp_path.rglob(".kittens-*")]  # no temporary file left behind


def define(folder: Path, cards: str, counts: str) -> str:
    """A house rule on the Original with cards defined in it."""
    return rule(folder, f"define_cards:\n{textwrap.indent(textwrap.dedent(cards), '  ')}add_cards: {counts}\n")


def test_an_attack_played_in_answer_ends_nobodys_turn(tmp_path):
    path = define(tmp_path, """\
        - id: ambush
          title: Ambush
          text: In answer to any card, the next player owes two turns.
          when: any_time
          effect: attack(next_player(), 2)
        """, "{ambush: 2}")
    edition = load_edition(path)

    def layout(table):
        table.new_card(edition.cards["skip"], table.hands[0])
        table.new_card(edition.cards["ambush"], table.hands[1])
        for card_id in ("tacocat", "beard_cat"):
            table.new_card(edition.cards[card_id], table.draw_pile)
    state = Game(edition, 3).new_state(0, layout=layout)
    state.apply_action("play skip")
    assert state.decision().seat == 1 and "play ambush" in state.legal_actions()
    state.apply_action("play ambush")
    while state.decision().kind == "answer":
        state.apply_action("pass")
    # the Skip still ends seat 0's turn; seat 2, the ambush's victim, owes two
    assert state.table.current == 1 and state.table.owed[2] == 2
    assert state.decision().seat == 1 and state.decision().kind == "action"


def test_rearrange_never_names_cards_the_chooser_was_not_shown(tmp_path):
    path = define(tmp_path, """\
        - id: blind_order
          title: Blind Order
          text: Put the top three cards in an order you choose, without looking.
          when: own_turn
          effect: rearrange(top(draw_pile, 3))
        - id: open_order
          title: Open Order
          text: Look at the top three cards and put them in the order you like.
          when: own_turn
          effect: |
            show(top(draw_pile, 3), me)
            rearrange(top(draw_pile, 3))
        """, "{blind_order: 2, open_order: 2}")
    edition = load_edition(path)

    def layout(table):
        for card_id in ("blind_order", "open_order"):
            table.new_card(edition.cards[card_id], table.hands[0])
        for card_id in ("exploding_kitten", "tacocat", "beard_cat", "skip"):
            table.new_card(edition.cards[card_id], table.draw_pile)
    for card_id, seen in (("blind_order", [None, None, None]),
                          ("open_order", ["exploding_kitten", "tacocat", "beard_cat"])):
        state = Game(edition, 2).new_state(0, layout=layout)
        state.apply_action(f"play {card_id}")
        while state.decision().kind == "answer":
            state.apply_action("pass")
        assert state.decision().kind == "rearrange" and state.decision().info["cards"] == seen


# -- the rulings live in the project, and players read them in words (issue 41) ------------
ROOT = Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
NUMBERED = re.compile(r"(?i)\brulings?\s+(\d+)((?:\s*(?:,|and)\s*\d+)*)")


def _anchors() -> set[int]:
    return {int(n) for n in re.findall(r'<a id="ruling-(\d+)"></a>', RULINGS.read_text(encoding="utf-8"))}


def test_the_rulings_are_a_doc_of_the_project_with_one_anchor_each():
    assert _anchors() == set(range(1, 18))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rulings_section = readme.split("## Rulings", 1)[1]
    assert "(docs/rulings.md)" in rulings_section and "../" not in rulings_section


def test_every_ruling_cited_by_number_has_its_anchor():
    """Rule files' comments, scenarios, code and tests cite rulings by number: each number
    must be one docs/rulings.md has."""
    anchors, cited = _anchors(), {}
    folders = ("rulebook", "editions", "examples", "interpreter", "adapters", "web", "lab", "authoring",
               "commands", "tests", "docs")
    for folder in folders:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".yaml", ".md") or "artifacts" in path.parts:
                continue
            for found in NUMBERED.finditer(path.read_text(encoding="utf-8", errors="replace")):
                for number in [found.group(1), *re.findall(r"\d+", found.group(2))]:
                    cited.setdefault(int(number), path.relative_to(ROOT))
    assert {n: str(p) for n, p in cited.items() if n not in anchors} == {}


def _player_texts():
    """Every text of the shipped rules and the examples that players read: card and combo
    texts and `ruling:` notes (printed with the cards), effects (shown by `kittens show`),
    descriptions, checks and triggers."""
    import yaml

    files = [*(ROOT / "rulebook").glob("*.yaml"), *(ROOT / "editions").glob("*.yaml"),
             *(ROOT / "examples").rglob("*.yaml")]
    for path in sorted(files):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("kind") == "scenario":
            continue  # a scenario's `ruling:` is for developers: it cites the ruling it tests
        stack = [((), data)]
        while stack:
            where, value = stack.pop()
            if isinstance(value, dict):
                stack += [(where + (str(k),), v) for k, v in value.items()]
            elif isinstance(value, list):
                stack += [(where + (str(i),), v) for i, v in enumerate(value)]
            elif isinstance(value, str):
                yield f"{path.relative_to(ROOT)}:{'/'.join(where)}", value


def test_no_text_players_read_names_a_ruling_by_number():
    """The printed rules said "Ruling 5 - a Nope may answer a Nope" to players."""
    named = [where for where, text in _player_texts() if NUMBERED.search(text)]
    assert named == []


@pytest.mark.parametrize("edition", sorted(p.stem for p in (ROOT / "editions").glob("*.yaml")))
def test_no_rulesheet_or_show_names_a_ruling_by_number(edition):
    from kittens.interpreter.words.resolved import render_show
    from kittens.interpreter.words.rulesheet import render_rulesheet

    compiled = load_edition(edition)
    for players in range(compiled.players[0], compiled.players[1] + 1):
        assert not NUMBERED.search(render_rulesheet(compiled, players, "markdown")), (edition, players)
    assert not NUMBERED.search(render_show(compiled)), edition


def test_the_printed_rules_state_each_ruling_in_words(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("fpdf")
    out = tmp_path / "original.pdf"
    result = CliRunner().invoke(app, ["print", "original", "--all", "-p", "4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rules = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(out).pages[:2])
    assert "Nope: A Nope may answer another Nope, with no limit" in rules
    assert not NUMBERED.search(rules)
