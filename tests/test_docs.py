"""Generated reference pages stay in step with the tables they document."""

import re

import pytest
from conftest import ROOT

from kittens.authoring import docs
from kittens.interpreter.lang import primitives as P


@pytest.mark.parametrize("name", sorted(docs.PAGES))
def test_generated_page_is_current(name):
    committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert committed == docs.PAGES[name](docs.load_examples(ROOT / "docs")), (
        f"docs/{name} is stale: run `python -m kittens.authoring.docs docs`")


def test_every_primitive_is_documented_with_its_example():
    page = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    examples = docs.load_examples(ROOT / "docs")
    assert set(examples) == set(P.PRIMITIVES), "docs/examples.yaml and the primitive table differ"
    for prim in P.PRIMITIVES.values():
        assert f"### `{prim.signature()}`" in page
        assert examples[prim.name] in page
        assert f"{prim.name}(" in examples[prim.name], f"the example of {prim.name} does not use it"


def test_every_example_checks_clean_against_the_original_cards():
    from kittens.interpreter.lang.checker import CheckEnv, Checker
    from kittens.interpreter.lang.parser import parse_program
    from kittens.interpreter.rules.load import load_edition

    edition = load_edition(str(ROOT / "editions" / "original.yaml"))
    tags = frozenset(t for c in edition.cards.values() for t in c.tags)
    for name, example in docs.load_examples(ROOT / "docs").items():
        prim = P.PRIMITIVES[name]
        context = P.PLAY if P.PLAY in prim.contexts else sorted(prim.contexts)[0]
        env = CheckEnv(frozenset(edition.cards), tags, {k: v[0] for k, v in P.ENGINE_RULES.items()},
                       player_zones=frozenset({"in_front"}))
        checker = Checker(env, context, {**P.BUILTIN_NAMES, "this": P.CARD})
        checker.program(parse_program(example))
        assert checker.findings == [], (name, checker.findings)


def test_format_guide_mentions_every_setup_step_and_card_key():
    guide = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    import json
    edition = json.loads((ROOT / "schema" / "edition.schema.json").read_text())
    cards = json.loads((ROOT / "schema" / "cards.schema.json").read_text())
    for step in edition["$defs"]["step"]["properties"]:
        assert re.search(rf"`{step}:", guide), step
    for key in cards["$defs"]["card"]["properties"]:
        assert f"{key}" in guide, key


@pytest.mark.parametrize("page", sorted(docs.SECTIONS))
def test_generated_sections_are_current(page):
    committed = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert committed == docs.with_sections(page, committed), (
        f"a generated part of docs/{page} is stale: run `python -m kittens.authoring.docs docs`")


def test_the_engine_writes_exactly_the_event_kinds_it_lists():
    """Every `emit("kind", ...)`, every `Shape("kind", ...)` of the rows an EventLog
    keeps and every event dict written with a "type" names a kind of EVENT_KINDS, and
    every kind listed is written somewhere (or it is dead)."""
    import ast

    from kittens.interpreter.engine.events import EVENT_KINDS

    written = set()
    for path in (ROOT / "interpreter" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and \
                    (getattr(node.func, "attr", None) == "emit" or getattr(node.func, "id", None) == "Shape"):
                written.add(node.args[0].value)
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant):
                        written.add(value.value)
    assert written - {"game"} == set(EVENT_KINDS)  # "game" is a log's header line, not an event


def _entry(page: str, name: str) -> str:
    """The part of docs/effects.md documenting the primitive ``name``."""
    start = page.index(f"### `{P.PRIMITIVES[name].signature()}`")
    end = page.find("\n### ", start + 1)
    return page[start:end]


def test_effects_page_names_the_places_a_designer_writes_code():
    # the checker's context names (play, drawn, turn...) said nothing of state checks,
    # `requires` or `instead_of_draw`, where count() and its kin work too
    page = docs.render_effects(docs.load_examples(ROOT / "docs"))
    where = page[page.index("## Where effects are written"):page.index("## Players")]
    for place in ("`effect`", "`choose`", "`requires`", "`when: reaction`", "`on_draw`",
                  "`instead_of_draw`", "`turn: draw`", "`checks:`", "`setup`"):
        assert place in where, place
    assert set(P.PLACES) == P.EFFECT_CONTEXTS | {P.SETUP}
    for name in ("count", "find", "tagged", "min", "max"):
        entry = _entry(page, name)
        assert "Only in" not in entry and "everywhere an effect is written" in entry, name
    assert "**Only in:** the `effect` of a card with `when: reaction`" in _entry(page, "cancel")


def test_the_order_of_state_checks_is_documented():
    effects = docs.render_effects(docs.load_examples(ROOT / "docs"))
    guide = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    for text in (effects, guide):
        flat = " ".join(text.split())
        assert "starting with the player whose turn it is" in flat
        assert "in the order the file lists them" in flat


def _scenarios(folder) -> int:
    return sum(1 for _ in (ROOT / folder).rglob("*.yaml"))


def test_the_guides_scenario_counts_are_the_files_there_are():
    """Issue 41: guide.md said 329 scenarios and 33 for the example house rules long after
    there were more. Every count it gives is checked against the folders here; when one
    fails, the message has the number to write."""
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    text = " ".join(guide.split())
    folders = {"the Original": "original", "Imploding Kittens": "imploding", "Good vs Evil": "good_vs_evil",
               "the party deck": "party", "Streaking Kittens": "streaking", "Barking Kittens": "barking",
               "the NSFW deck": "nsfw", "the two-player edition": "two_player"}
    editions = _scenarios("tests/scenarios")
    examples = {"house rules": _scenarios("examples/house-rules/scenarios"),
                "expansions": _scenarios("examples/expansions/scenarios"),
                "package": sum(1 for _ in (ROOT / "examples" / "expansion-package").rglob("scenarios/*.yaml"))}
    wanted = {
        f"{editions} scenarios across the editions, {sum(examples.values())} more for the examples": "the table",
        f"`tests/scenarios/` holds {editions} of them": "the scenarios section",
        f"{_scenarios('tests/scenarios/format')} that try the scenario format itself": "the format folder",
        f"`examples/house-rules/scenarios/` holds {examples['house rules']} more": "the house rules",
        f"the example expansion {examples['expansions']}": "the example expansion",
        f"the example package {examples['package']}": "the example package",
        f"{len(list((ROOT / 'examples' / 'house-rules').glob('*.yaml')))} example house rules": "the table",
    }
    wanted.update({f"{name} ({_scenarios('tests/scenarios/' + folder)}": name for name, folder in folders.items()})
    missing = [f"{where}: write “{words}”" for words, where in wanted.items() if words not in text]
    assert not missing, "docs/guide.md's counts are stale:\n" + "\n".join(missing)
