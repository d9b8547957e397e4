"""`kittens lsp`, driven over stdio by a real LSP client (pygls's), as an editor would."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls (pip install 'kittens-engine[lsp]')")

from conftest import ROOT  # noqa: E402
from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path, to_fs_path  # noqa: E402

from kittens.cli import app  # noqa: E402
from kittens.commands.kit import run_app  # noqa: E402

LIBRARY = """\
format: 1
kind: cards
cards:
  - id: hop
    title: Hop
    text: End your turn without drawing.
    when: own_turn
    effect: end_turn()
  - id: peek
    title: Peek
    text: Look at the top card.
    when: own_turn
    effect: show(top(draw_pile, 1), me)
"""

EDITION = """\
format: 1
kind: edition
id: tiny
name: Tiny
extends: original
add_cards: {peek: 2}
"""


class Editor:
    """A real LSP client talking to `python -m kittens lsp` over stdio."""

    def __init__(self) -> None:
        self.client = LanguageClient("kittens-tests", "1")
        self.published: dict[str, list] = {}
        self.changed = asyncio.Event()

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(*args):
            params = args[-1]
            self.published[params.uri] = params.diagnostics
            self.changed.set()

    async def start(self, folder: Path) -> T.InitializeResult:
        await self.client.start_io(sys.executable, "-m", "kittens", "lsp", cwd=str(folder))
        result = await asyncio.wait_for(self.client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(), process_id=os.getpid(),
            root_uri=from_fs_path(str(folder)))), 60)
        self.client.initialized(T.InitializedParams())
        return result

    async def diagnostics(self, uri: str) -> list:
        """The next diagnostics published for ``uri``."""
        while True:
            self.changed.clear()
            if uri in self.published:
                return self.published.pop(uri)
            await asyncio.wait_for(self.changed.wait(), 60)

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        text = path.read_text(encoding="utf-8") if text is None else text
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))

    async def complete(self, uri: str, line: int, character: int) -> list[str]:
        result = await asyncio.wait_for(self.client.text_document_completion_async(T.CompletionParams(
            text_document=T.TextDocumentIdentifier(uri), position=T.Position(line, character))), 60)
        items = result.items if hasattr(result, "items") else result
        return [item.label for item in items]

    async def hover(self, uri: str, line: int, character: int) -> str | None:
        result = await asyncio.wait_for(self.client.text_document_hover_async(T.HoverParams(
            text_document=T.TextDocumentIdentifier(uri), position=T.Position(line, character))), 60)
        return result.contents.value if result else None

    async def definition(self, uri: str, line: int, character: int):
        result = await asyncio.wait_for(self.client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri), position=T.Position(line, character))), 60)
        return result[0] if isinstance(result, list) else result

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), 30)
        self.client.exit(None)
        await self.client.stop()


def session(folder: Path, script):
    """Run ``script(editor)`` against a fresh server in ``folder``."""

    async def main():
        editor = Editor()
        await editor.start(folder)
        try:
            return await script(editor)
        finally:
            await editor.stop()

    return asyncio.run(main())


def validate_json(capsys, path: Path) -> list[dict]:
    run_app(app, ["validate", str(path), "--format", "json"])
    return json.loads(capsys.readouterr().out)["diagnostics"]


def position_of(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return line, index - (text.rfind("\n", 0, index) + 1)


def test_diagnostics_are_the_validators_own_for_an_unsaved_buffer(tmp_path, capsys):
    (tmp_path / "cards.yaml").write_text(LIBRARY)
    edition = tmp_path / "tiny.yaml"
    edition.write_text(EDITION)
    # the editor's buffer differs from the file: a misspelt card id and a broken effect
    unsaved_library = LIBRARY.replace("effect: end_turn()", "effect: end_trun()")
    unsaved_edition = EDITION.replace("add_cards: {peek: 2}",
                                      "include: [cards.yaml]\nadd_cards: {peek: 2, defuze: 1}")

    async def script(editor):
        library_uri = editor.open(tmp_path / "cards.yaml", unsaved_library)
        first = await editor.diagnostics(library_uri)
        edition_uri = editor.open(edition, unsaved_edition)
        second = await editor.diagnostics(edition_uri)
        editor.change(edition_uri, EDITION.replace("add_cards: {peek: 2}", "include: [cards.yaml]\n"
                                                   "add_cards: {peek: 2}"), 2)
        third = await editor.diagnostics(edition_uri)
        return first, second, third

    first, second, third = session(tmp_path, script)
    # the same findings as `kittens validate` gives once the buffers are saved
    (tmp_path / "cards.yaml").write_text(unsaved_library)
    edition.write_text(unsaved_edition)
    for published, path in ((first, tmp_path / "cards.yaml"), (second, edition)):
        expected = [(d["code"], d["line"] - 1, d["column"] - 1, d["message"], d["severity"])
                    for d in validate_json(capsys, path) if Path(d["path"]).name == path.name]
        got = [(d.code, d.range.start.line, d.range.start.character, d.message,
                "error" if d.severity == T.DiagnosticSeverity.Error else "warning") for d in published]
        assert got == expected and got, (got, expected)
    assert [d.code for d in first] == ["unknown-primitive"]
    assert "unknown-card" in [d.code for d in second]
    assert list(third) == []  # fixed in the buffer: the findings go away


def test_tags_combos_and_the_setup_dry_run_reach_the_editor(tmp_path, capsys):
    """The deeper checks too: a tag no card carries, a combo no file defines, and a house
    rule whose deal cannot be carried out. The dry run's finding lies in the edition it
    extends (the deal step), which the editor does not show: it is moved onto the
    `extends:` line of the open file, with the real place in its message."""
    library = LIBRARY.replace('effect: show(top(draw_pile, 1), me)',
                              'effect: show(tagged(hand(me), "kat"), me)')
    (tmp_path / "cards.yaml").write_text(library)
    combos = tmp_path / "combo.yaml"
    combos.write_text("format: 1\nkind: edition\nid: c\nname: C\nextends: original\n"
                      "add_combos: [six_of_a_kind]\n")
    big = tmp_path / "big.yaml"
    big.write_text("format: 1\nkind: edition\nid: big\nname: Big\nextends: original\n"
                   "set_params: {hand_size: 60}\n")

    async def script(editor):
        found = {}
        for path in (tmp_path / "cards.yaml", combos, big):
            found[path.name] = await editor.diagnostics(editor.open(path))
        return found

    found = session(tmp_path, script)
    assert [(d.code, d.range.start.line) for d in found["cards.yaml"]] == [("unknown-tag", 12)]
    assert [(d.code, d.range.start.line) for d in found["combo.yaml"]] == [("unknown-combo", 5)]
    dry_run = found["big.yaml"]
    assert [(d.code, d.range.start.line) for d in dry_run] == [("deal-impossible", 4)]
    assert "<kittens>/editions/original.yaml:" in dry_run[0].message
    # `kittens validate` finds the same, at the deal step of the shipped edition
    assert [d["code"] for d in validate_json(capsys, big)] == ["deal-impossible"]


def test_a_finding_a_library_has_on_its_own_stays_in_that_library(tmp_path):
    """An edition that includes a broken library does not repeat the library's own
    findings: the editor shows them in the library."""
    (tmp_path / "cards.yaml").write_text(LIBRARY.replace("end_turn()", "end_trun()"))
    edition = tmp_path / "tiny.yaml"
    edition.write_text(EDITION.replace("add_cards: {peek: 2}", "include: [cards.yaml]\n"
                                       "add_cards: {peek: 2}"))

    async def script(editor):
        return await editor.diagnostics(editor.open(edition))

    assert list(session(tmp_path, script)) == []


def test_typing_in_a_library_rechecks_the_open_edition_that_includes_it(tmp_path):
    """Rename a card in the library's buffer: the open edition that deals it is checked
    again at once, and says so at its own line, before anything is saved."""
    (tmp_path / "cards.yaml").write_text(LIBRARY)
    text = EDITION.replace("add_cards: {peek: 2}", "include: [cards.yaml]\nadd_cards: {peek: 2}")
    edition = tmp_path / "tiny.yaml"
    edition.write_text(text)

    async def script(editor):
        edition_uri = editor.open(edition)
        before = await editor.diagnostics(edition_uri)
        library_uri = editor.open(tmp_path / "cards.yaml")
        await editor.diagnostics(library_uri)
        editor.change(library_uri, LIBRARY.replace("id: peek", "id: peak"), 2)
        after = await editor.diagnostics(edition_uri)
        # closed without saving: the edition is checked against the saved library again
        editor.client.text_document_did_close(T.DidCloseTextDocumentParams(
            T.TextDocumentIdentifier(library_uri)))
        return before, after, await editor.diagnostics(edition_uri)

    before, after, closed = session(tmp_path, script)
    assert list(before) == [] and list(closed) == []
    assert [(d.code, d.range.start.line) for d in after] == [("unknown-card", position_of(text, "peek: 2")[0])]


def test_completion_of_primitives_rules_cards_and_tags(tmp_path):
    (tmp_path / "cards.yaml").write_text(LIBRARY)
    text = EDITION.replace("add_cards: {peek: 2}", "include: [cards.yaml]\nadd_cards: {pe: 2}\n"
                           "define_cards:\n  - id: mine\n    title: Mine\n    text: Mine.\n"
                           "    tags: [ca]\n    when: own_turn\n"
                           "    effect: end_tu\n    requires: rules.atta\n"
                           "    on_draw: move(find(hand(me), \"def\"), discard_pile)\n")
    path = tmp_path / "tiny.yaml"
    path.write_text(text)

    async def script(editor):
        uri = editor.open(path)
        await editor.diagnostics(uri)
        return {
            "deck": await editor.complete(uri, *position_of(text, "{pe:", 3)),
            "effect": await editor.complete(uri, *position_of(text, "end_tu", 6)),
            "rule": await editor.complete(uri, *position_of(text, "rules.atta", 10)),
            "string": await editor.complete(uri, *position_of(text, '"def"', 4)),
            "tag": await editor.complete(uri, *position_of(text, "[ca]", 3)),
        }

    found = session(tmp_path, script)
    assert "peek" in found["deck"] and "end_turn" not in found["deck"]
    assert found["effect"] == ["end_turn"]
    assert "attacks_stack" in found["rule"] or "attack_turns" in found["rule"], found["rule"]
    assert "defuse" in found["string"]
    assert "cat" in found["tag"]


def test_hover_and_go_to_definition(tmp_path):
    (tmp_path / "cards.yaml").write_text(LIBRARY)
    text = EDITION.replace("add_cards: {peek: 2}", "include: [cards.yaml]\nadd_cards: {peek: 2}\n"
                           "set_counts: {skip: 3}\n")
    path = tmp_path / "tiny.yaml"
    path.write_text(text)
    library = tmp_path / "cards.yaml"

    async def script(editor):
        uri = editor.open(path)
        await editor.diagnostics(uri)
        lib_uri = editor.open(library)
        await editor.diagnostics(lib_uri)
        return (await editor.hover(uri, *position_of(text, "peek: 2", 1)),
                await editor.hover(lib_uri, *position_of(LIBRARY, "show(", 1)),
                await editor.definition(uri, *position_of(text, "peek: 2", 1)),
                await editor.definition(uri, *position_of(text, "skip: 3", 1)))

    card_hover, primitive_hover, peek_at, skip_at = session(tmp_path, script)
    assert "**Peek**" in card_hover and "Look at the top card." in card_hover
    from kittens.interpreter.lang.primitives import PRIMITIVES
    assert PRIMITIVES["show"].signature() in primitive_hover and PRIMITIVES["show"].summary in primitive_hover
    assert to_fs_path(peek_at.uri) == str(library) and peek_at.range.start.line == 8
    # skip comes with the edition it extends: its definition is in the shipped library,
    # wherever kittens is installed (the checkout itself, or site-packages in CI)
    from kittens.about import PACKAGE_DIR
    shipped_path = Path(PACKAGE_DIR) / "rulebook" / "original.yaml"
    assert os.path.realpath(to_fs_path(skip_at.uri)) == os.path.realpath(shipped_path)
    shipped = shipped_path.read_text(encoding="utf-8").splitlines()
    assert shipped[skip_at.range.start.line].strip() == "- id: skip", skip_at


def test_cards_the_file_defines_itself_and_ids_in_effects_hover_and_go_to_definition(tmp_path):
    text = EDITION.replace("add_cards: {peek: 2}", "add_cards: {mine: 1}\ndefine_cards:\n"
                           "  - id: mine\n    title: Mine\n    text: Discard a Defuse from your hand.\n"
                           "    when: own_turn\n    effect: move(find(hand(me), \"defuse\"), discard_pile)\n")
    path = tmp_path / "mine.yaml"
    path.write_text(text)

    async def script(editor):
        uri = editor.open(path)
        assert list(await editor.diagnostics(uri)) == []
        return (await editor.hover(uri, *position_of(text, "mine: 1", 1)),
                await editor.definition(uri, *position_of(text, "mine: 1", 1)),
                await editor.hover(uri, *position_of(text, '"defuse"', 2)),
                await editor.definition(uri, *position_of(text, '"defuse"', 2)))

    mine_hover, mine_at, defuse_hover, defuse_at = session(tmp_path, script)
    assert "**Mine**" in mine_hover and "Discard a Defuse" in mine_hover
    assert to_fs_path(mine_at.uri) == str(path)
    assert text.splitlines()[mine_at.range.start.line].strip() == "- id: mine"
    assert "**Defuse**" in defuse_hover
    shipped = (ROOT / "rulebook" / "original.yaml").read_text(encoding="utf-8").splitlines()
    assert shipped[defuse_at.range.start.line].strip() == "- id: defuse"


def test_a_shipped_file_has_no_findings_and_completes(tmp_path):
    shipped = ROOT / "rulebook" / "original.yaml"
    text = shipped.read_text(encoding="utf-8")

    async def script(editor):
        uri = editor.open(shipped)
        published = await editor.diagnostics(uri)
        return published, await editor.complete(uri, *position_of(text, "effect: attack(", 8))

    published, items = session(tmp_path, script)
    assert list(published) == []
    assert "attack" in items


def test_the_editor_knows_triggers_aggregates_and_counters(tmp_path):
    text = ("format: 1\nkind: edition\nid: pts\nname: Points\nextends: original\n"
            "counters:\n  points: {}\n"
            "triggers:\n  - id: tally\n    on: turn_end\n    text: Score.\n    effect: add_co\n"
            "win:\n  score: counter(\"points\")\n"
            "  ends_when: sum(counter(\"points\", p) for p in players()) >= 10\n")
    path = tmp_path / "points.yaml"
    path.write_text(text)

    async def script(editor):
        uri = editor.open(path)
        await editor.diagnostics(uri)
        return (await editor.complete(uri, *position_of(text, "add_co\n", 6)),
                await editor.complete(uri, *position_of(text, "ends_when: s", 12)),
                await editor.hover(uri, *position_of(text, "sum(", 1)),
                await editor.hover(uri, *position_of(text, "counter(\"points\")", 1)))

    completed, aggregate, sum_hover, counter_hover = session(tmp_path, script)
    assert completed == ["add_counter"]
    assert "sum" in aggregate and "set_counter" in aggregate
    assert "VALUE for NAME in LIST" in sum_hover and "total" in sum_hover
    from kittens.interpreter.lang.primitives import PRIMITIVES
    assert PRIMITIVES["counter"].summary in counter_hover


def test_a_files_procedures_complete_and_hover_in_its_effects(tmp_path):
    text = EDITION.replace("add_cards: {peek: 2}\n", "") + """procedures:
  pickpocket:
    text: Take a random card from a player.
    params: {victim: player}
    effect: move(random_card(hand(victim)), hand(me))
triggers:
  - id: start
    on: game_start
    text: Everyone steals once.
    effect: pickpocket(next_player())
"""
    path = tmp_path / "procs.yaml"
    path.write_text(text)

    async def script(editor):
        uri = editor.open(path)
        assert list(await editor.diagnostics(uri)) == []
        return (await editor.hover(uri, *position_of(text, "pickpocket(next", 3)),
                await editor.complete(uri, *position_of(text, "pickpocket(next", 4)))

    hover, items = session(tmp_path, script)
    assert "pickpocket(victim: player)" in hover and "Take a random card" in hover, hover
    assert "pickpocket" in items  # (completion keeps the names that start with "pick")


def test_a_restrictions_plays_complete_as_cards(tmp_path):
    (tmp_path / "cards.yaml").write_text(LIBRARY)
    text = EDITION.replace("add_cards: {peek: 2}", "include: [cards.yaml]\nadd_cards: {peek: 2}\n"
                           "restrictions:\n  - id: once\n    text: One Peek a turn.\n"
                           "    for: [pe]\n    per_turn: 1\n")
    path = tmp_path / "tiny.yaml"
    path.write_text(text)

    async def script(editor):
        uri = editor.open(path)
        await editor.diagnostics(uri)
        return await editor.complete(uri, *position_of(text, "[pe]", 3))

    assert "peek" in session(tmp_path, script)
