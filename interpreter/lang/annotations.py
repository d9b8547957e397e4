"""Diagnostics for continuous integration: GitHub annotations and SARIF.

``kittens validate --format github`` prints one workflow command per finding,
which GitHub Actions shows on the pull request's lines; ``--format sarif``
prints a SARIF 2.1.0 log, the format code-scanning services read.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from urllib.parse import quote

from ...about import HOMEPAGE, shipped_path
from .diagnostics import CODES, Diagnostic

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


#: keys that lead from a rule file to another
_REFERENCE_KEY = re.compile(r"^(extends|include|apply|uses|base|edition)\s*:", re.MULTILINE)


def moved_onto(d: Diagnostic, path: str, text: str) -> Diagnostic:
    """``d``, found in another file because ``path`` (holding ``text``) led there, told on
    ``path``'s line that leads away (``extends:``, ``include:``, ...; else its first line),
    with the place it was found in the message. Editors and CI show findings only in the
    files they know: a house rule whose deal fails at the extended edition's step."""
    found = _REFERENCE_KEY.search(text)
    line = text.count("\n", 0, found.start()) + 1 if found else 1
    where = f"{shipped_path(d.path)}:{d.line}:{d.column}"
    return dataclasses.replace(d, path=path, line=line, column=1,
                               message=f"{d.message} (at {where})", source_line="")


def told_on_cause(report) -> list[tuple[Diagnostic, Diagnostic | None]]:
    """Each finding of the report as a person or CI should be told it, with the finding as
    it was when it was moved: a finding in a shipped file, reached from a checked file
    (a house rule whose deal fails at the extended edition's step), is told on that
    checked file's line that leads there; (d, None) for the others."""
    pairs = []
    for d in report.diagnostics:
        cause = report.causes.get((d.path, d.line, d.column, d.code, d.message))
        if cause is not None and shipped_path(d.path) != d.path:
            try:
                with open(cause, encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):  # the file's own findings say what is wrong with it
                text = ""
            moved = moved_onto(d, cause, text)
            lines = text.splitlines()
            if 0 < moved.line <= len(lines):  # the line that leads away, under the finding
                moved = dataclasses.replace(moved, source_line=lines[moved.line - 1])
            pairs.append((moved, d))
        else:
            pairs.append((d, None))
    return pairs


def for_ci(report) -> list[Diagnostic]:
    """The report's findings for CI, where only the repository's files can be annotated:
    a finding in a shipped file is moved onto the checked file that caused it."""
    return [d for d, _found in told_on_cause(report)]


def render_moved(found: Diagnostic) -> str:
    """Where a moved finding really is, with its source line, to print under it."""
    head = f"    {shipped_path(found.path)}:{found.line}:{found.column}: where it happens"
    if not found.source_line:
        return head
    shown = found.render().split("\n")[1:]  # the source line and its caret
    return "\n".join([head] + ["  " + line for line in shown])


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics: list[Diagnostic]) -> str:
    """One ``::error``/``::warning`` workflow command per finding."""
    lines = []
    for d in diagnostics:
        props = ",".join([f"file={_escape_property(d.path)}", f"line={d.line}", f"col={d.column}",
                          f"title={_escape_property('kittens ' + d.code)}"])
        lines.append(f"::{'error' if d.is_error else 'warning'} {props}::{_escape_data(d.message)}")
    return "\n".join(lines) + ("\n" if lines else "")


def sarif_log(diagnostics: list[Diagnostic], files: list[str], version: str) -> dict:
    """A SARIF 2.1.0 log with one run of kittens: its rules are the codes used."""
    used = sorted({d.code for d in diagnostics})
    # GitHub code scanning wants every rule's fullDescription (sarif-multitool's GitHub
    # rules report its absence as an error), and the tool's informationUri
    rules = [{"id": code, "name": code, "shortDescription": {"text": CODES[code]},
              "fullDescription": {"text": f"{CODES[code][:1].upper()}{CODES[code][1:]} "
                                          f"(kittens diagnostic `{code}`)."},
              "helpUri": f"{HOMEPAGE}/blob/main/docs/diagnostics.md",
              "help": {"text": "Every code is explained by `kittens docs diagnostics`."}}
             for code in used]
    index = {code: i for i, code in enumerate(used)}
    results = [{
        "ruleId": d.code, "ruleIndex": index[d.code],
        "level": "error" if d.is_error else "warning",
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": _uri(d.path)},
            "region": {"startLine": d.line, "startColumn": d.column}}}],
    } for d in diagnostics]
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "kittens", "version": version, "informationUri": HOMEPAGE,
                            "rules": rules}},
        "artifacts": [{"location": {"uri": _uri(f)}} for f in files],
        "results": results,
    }]}


def _uri(path: str) -> str:
    """A path as a SARIF URI: a relative path stays relative (to the repository, as code
    scanning wants it), an absolute one becomes a file:// URI, and spaces and other
    characters a URI may not hold are percent-encoded ("House Rules/x.yaml" ->
    "House%20Rules/x.yaml")."""
    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(path.replace("\\", "/"), safe="/")


def render_sarif(diagnostics: list[Diagnostic], files: list[str], version: str) -> str:
    return json.dumps(sarif_log(diagnostics, files, version), indent=2)
