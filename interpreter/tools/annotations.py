"""Diagnostics for continuous integration: GitHub annotations and SARIF.

``kittens validate --format github`` prints one workflow command per finding,
which GitHub Actions shows on the pull request's lines; ``--format sarif``
prints a SARIF 2.1.0 log, the format code-scanning services read.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from ..lang.diagnostics import CODES, Diagnostic

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


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
    rules = [{"id": code, "name": code, "shortDescription": {"text": CODES[code]},
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
        "tool": {"driver": {"name": "kittens", "version": version, "rules": rules}},
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
