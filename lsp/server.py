"""`kittens lsp`: the language server editors talk to over stdio (pygls).

It publishes the validator's own diagnostics for every open rule file as it
is typed (the text in the editor, saved or not; the same codes at the same
positions as `kittens validate`), completes card ids, tags, primitives and
rule names inside effect strings and deck maps, shows a primitive's
signature or a card's text on hover, and goes from a card id to the card's
definition in its library. The knowledge is in :mod:`lsp_analysis`; this
module only speaks the protocol.
"""

from __future__ import annotations

import os

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..about import __version__
from .analysis import Analysis, analyse, completions, definition, hover, span

_KINDS = {"function": T.CompletionItemKind.Function, "constant": T.CompletionItemKind.Constant,
          "value": T.CompletionItemKind.Value, "keyword": T.CompletionItemKind.Keyword,
          "variable": T.CompletionItemKind.Variable}


class KittensServer(LanguageServer):
    """The server, with the last analysis of each open document."""

    def __init__(self) -> None:
        super().__init__("kittens", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Full)
        self.analyses: dict[str, Analysis] = {}

    def is_rule_file(self, uri: str) -> bool:
        return uri.endswith((".yaml", ".yml")) and to_fs_path(uri) is not None

    def refresh(self, uri: str) -> None:
        """Check one document from its text in the editor and publish what was found."""
        if not self.is_rule_file(uri):
            return
        document = self.workspace.get_text_document(uri)
        path = to_fs_path(uri)
        overlays = {os.path.realpath(to_fs_path(other)): doc.source
                    for other, doc in self.workspace.text_documents.items()
                    if other != uri and self.is_rule_file(other)}
        try:
            analysis = analyse(path, document.source, overlays)
        except Exception as exc:  # noqa: BLE001 - a bug must not take the editor's server down
            self.window_log_message(T.LogMessageParams(T.MessageType.Error,
                                                       f"kittens: internal error: {exc!r}"))
            return
        self.analyses[uri] = analysis
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, version=document.version,
            diagnostics=[_diagnostic(analysis, d) for d in analysis.diagnostics]))

    def refresh_with_dependents(self, uri: str, itself: bool = True) -> None:
        """Check a changed document, then every other open document whose last check read
        it (an edition that includes the library being typed in): their findings change too.
        ``itself=False``: only the others (the document was closed; its file is read again)."""
        if itself:
            self.refresh(uri)
        if not self.is_rule_file(uri):
            return
        changed = os.path.realpath(to_fs_path(uri))
        for other, analysis in list(self.analyses.items()):
            if other != uri and changed in analysis.reached:
                self.refresh(other)

    def analysis(self, uri: str) -> Analysis | None:
        if uri not in self.analyses:
            self.refresh(uri)
        return self.analyses.get(uri)


def _diagnostic(analysis: Analysis, d) -> T.Diagnostic:
    line, start, end_line, end = span(analysis, d)
    severity = T.DiagnosticSeverity.Error if d.is_error else T.DiagnosticSeverity.Warning
    return T.Diagnostic(range=T.Range(T.Position(line, start), T.Position(end_line, end)),
                        message=d.message, severity=severity, code=d.code, source="kittens")


server = KittensServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KittensServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: KittensServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.refresh_with_dependents(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KittensServer, params: T.DidSaveTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KittensServer, params: T.DidCloseTextDocumentParams) -> None:
    ls.analyses.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                    diagnostics=[]))
    # closed unsaved: the files that include it are checked against the saved file again
    ls.refresh_with_dependents(params.text_document.uri, itself=False)


@server.feature(T.TEXT_DOCUMENT_COMPLETION,
                T.CompletionOptions(trigger_characters=[".", '"', "(", " ", "[", ","]))
def complete(ls: KittensServer, params: T.CompletionParams) -> T.CompletionList:
    analysis = ls.analysis(params.text_document.uri)
    if analysis is None:
        return T.CompletionList(is_incomplete=False, items=[])
    position = params.position
    # the analysis may be a keystroke behind the editor: answer from the newest text
    text = ls.workspace.get_text_document(params.text_document.uri).source
    if text != analysis.text:
        analysis = Analysis(analysis.path, text, analysis.diagnostics, analysis.vocabulary,
                            analysis.reached)
    items = [T.CompletionItem(label=item.label, kind=_KINDS.get(item.kind), detail=item.detail or None,
                              documentation=item.documentation or None)
             for item in completions(analysis, position.line, position.character)]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_HOVER)
def on_hover(ls: KittensServer, params: T.HoverParams) -> T.Hover | None:
    analysis = ls.analysis(params.text_document.uri)
    text = analysis and hover(analysis, params.position.line, params.position.character)
    if not text:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: KittensServer, params: T.DefinitionParams) -> T.Location | None:
    analysis = ls.analysis(params.text_document.uri)
    found = analysis and definition(analysis, params.position.line, params.position.character)
    if not found:
        return None
    path, line, column = found
    at = T.Position(line, column)
    return T.Location(uri=from_fs_path(os.path.abspath(path)), range=T.Range(at, at))


def serve() -> None:
    """Serve one editor over standard input and output until it says exit."""
    server.start_io()
