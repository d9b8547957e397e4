"""The schemas in the editor: the real yaml-language-server (npm) over stdio, reading
the modelines of a shipped file, of a starter file from `kittens new`, and of a broken
file, with diagnostics and completions from kittens' JSON Schemas.

`.ci/run` installs the server into .ci/npm when node is there; the test looks there,
then on PATH (or at $KITTENS_YAML_LS)."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

pytest.importorskip("pygls", reason="the LSP client comes with pygls (pip install 'kittens-engine[test]')")

from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from kittens.cli import app  # noqa: E402
from kittens.commands.kit import run_app  # noqa: E402


def _server() -> str | None:
    candidates = [os.environ.get("KITTENS_YAML_LS"),
                  str(ROOT / ".ci" / "npm" / "node_modules" / ".bin" / "yaml-language-server"),
                  shutil.which("yaml-language-server")]
    return next((c for c in candidates if c and os.path.isfile(c)), None)


if shutil.which("node") is None:
    pytest.skip("node is not installed, so yaml-language-server cannot run", allow_module_level=True)
SERVER = _server()
if SERVER is None:
    pytest.skip("yaml-language-server is not installed: `bash .ci/run` installs it into .ci/npm "
                "(or npm install -g yaml-language-server)", allow_module_level=True)

SETTINGS = {"yaml": {"validate": True, "completion": True, "hover": True,
                     "schemaStore": {"enable": False}, "schemas": {}}}


class YamlEditor:
    def __init__(self) -> None:
        self.client = LanguageClient("kittens-tests", "1")
        self.published: dict[str, list] = {}
        self.changed = asyncio.Event()

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(*args):
            params = args[-1]
            self.published[params.uri] = list(params.diagnostics)
            self.changed.set()

        @self.client.feature(T.WORKSPACE_CONFIGURATION)
        def _configuration(*args):
            params = args[-1]
            return [SETTINGS.get(item.section, SETTINGS["yaml"]) if item.section else SETTINGS
                    for item in params.items]

        @self.client.feature(T.CLIENT_REGISTER_CAPABILITY)
        def _register(*_args):
            return None

        @self.client.feature(T.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def _progress(*_args):
            return None

    async def start(self, folder: Path) -> None:
        await self.client.start_io("node", SERVER, "--stdio", cwd=str(folder))
        await asyncio.wait_for(self.client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(
                workspace=T.WorkspaceClientCapabilities(configuration=True),
                text_document=T.TextDocumentClientCapabilities(
                    completion=T.CompletionClientCapabilities(
                        completion_item=T.ClientCompletionItemOptions(snippet_support=False)))),
            process_id=os.getpid(), root_uri=from_fs_path(str(folder)))), 60)
        self.client.initialized(T.InitializedParams())
        self.client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings=SETTINGS))

    async def diagnostics(self, path: Path) -> list:
        uri = from_fs_path(str(path))
        self.published.pop(uri, None)
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=path.read_text(encoding="utf-8"))))
        while uri not in self.published:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 60)
        return self.published[uri]

    async def complete(self, path: Path, line: int, character: int) -> list[str]:
        result = await asyncio.wait_for(self.client.text_document_completion_async(T.CompletionParams(
            text_document=T.TextDocumentIdentifier(from_fs_path(str(path))),
            position=T.Position(line, character))), 60)
        items = result.items if hasattr(result, "items") else (result or [])
        return [item.label for item in items]

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), 30)
        self.client.exit(None)
        await self.client.stop()


def with_server(folder: Path, script):
    async def main():
        editor = YamlEditor()
        await editor.start(folder)
        try:
            return await script(editor)
        finally:
            await editor.stop()
    return asyncio.run(main())


def test_the_yaml_language_server_reads_kittens_schemas(tmp_path, capsys):
    assert run_app(app, ["new", "house-rule", "Short Hands", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    starter = tmp_path / "short_hands.yaml"
    broken = tmp_path / "broken.yaml"
    broken.write_text(starter.read_text(encoding="utf-8").replace(
        "extends: original", "extends: original\nhand_sise: 3\nset_params: {hand_size: many}"))
    shipped = ROOT / "rulebook" / "original.yaml"
    # a line to complete a key on: the start of a new top-level key in the starter
    completing = tmp_path / "completing.yaml"
    completing.write_text(starter.read_text(encoding="utf-8") + "add_\n")
    last_line = completing.read_text(encoding="utf-8").count("\n") - 1

    async def script(editor):
        return {"shipped": await editor.diagnostics(shipped),
                "starter": await editor.diagnostics(starter),
                "broken": await editor.diagnostics(broken),
                "opened": await editor.diagnostics(completing),
                "keys": await editor.complete(completing, last_line, 4)}

    found = with_server(tmp_path, script)
    assert found["shipped"] == [], [d.message for d in found["shipped"]]
    assert found["starter"] == [], [d.message for d in found["starter"]]
    messages = [d.message for d in found["broken"]]
    assert any("hand_sise" in m for m in messages), messages  # a key the schema does not allow
    assert any("integer" in m.lower() or "type" in m.lower() for m in messages), messages
    assert {"add_cards", "add_combos", "add_steps"} <= set(found["keys"]), found["keys"]
    # a house rule is offered only what validates there: not the whole parts it may only change
    assert not {"deck", "params", "setup", "combos", "rules"} & set(found["keys"]), found["keys"]
