"""`kittens schema`: the rule files' JSON Schemas, listed, printed or written out.

Editors find a schema through the modeline on a file's first line. Pointing it
into the installed package breaks when the virtual environment is rebuilt (or
under pipx, or for a teammate), so `kittens new` writes the schemas into the
designer's own folder (``schema/``) and the modelines point there;
`kittens schema --write DIR` refreshes them after an upgrade. Every schema
keeps one ``$id`` across releases, so copies and references stay valid.
"""

from __future__ import annotations

import json
import os

from ..about import SCHEMA_DIR
from ..interpreter.lang.files import written_whole

KINDS = ("cards", "combos", "edition", "expansion", "scenario")


class SchemaError(Exception):
    """A kind that has no schema, or a folder that cannot hold them."""


def schemas() -> list[dict]:
    """Each kind with its schema's ``$id`` and title."""
    found = []
    for kind in KINDS:
        data = json.loads(schema_text(kind))
        found.append({"kind": kind, "id": data.get("$id"), "title": data.get("title"),
                      "file": f"{kind}.schema.json"})
    return found


def schema_text(kind: str) -> str:
    if kind not in KINDS:
        raise SchemaError(f"no schema for '{kind}': the kinds are {', '.join(KINDS)}")
    with open(os.path.join(SCHEMA_DIR, f"{kind}.schema.json"), encoding="utf-8") as handle:
        return handle.read()


def write_schemas(folder: str) -> list[str]:
    """Copy every schema into ``folder`` (replacing older copies whole); the paths written."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise SchemaError(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    written = []
    for kind in KINDS:
        target = os.path.join(folder, f"{kind}.schema.json")
        try:
            with written_whole(target) as handle:
                handle.write(schema_text(kind))
        except OSError as exc:
            raise SchemaError(f"cannot write {target}: {exc.strerror or exc}") from None
        written.append(target)
    return written
