"""`kittens list`: the editions, expansions and variants found under some folders."""

from __future__ import annotations

import os

from .edition import compile_edition, variant_for
from .load import expand
from .plugins import locate_edition
from .setup import dead_cards
from .workspace import Workspace


def shipped_editions() -> str:
    """The folder of editions that comes with kittens."""
    from ...about import EDITIONS_DIR
    return str(EDITIONS_DIR)


def _shown(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def installed_catalog() -> list[dict]:
    """Expansions installed Python distributions declare (entry point group
    `kittens.expansions`), each with ``installed``: which distribution it came from."""
    from .plugins import installed

    entries = []
    for item in installed():
        if item.path is None:
            entries.append({"name": item.name, "kind": "expansion", "path": None, "players": None,
                            "id": item.name, "installed": item.origin, "errors": True,
                            "problem": item.problem})
            continue
        for entry in catalog([item.path]):
            entry["installed"] = item.origin
            if entry["kind"] == "expansion":
                entry["name_to_use"] = item.name
            entries.append(entry)
    return entries


def catalog(paths: list[str]) -> list[dict]:
    """One entry per playable thing: editions, expansions (on their base) and their variants.

    Each entry has ``name``, ``kind`` (edition, expansion or variant), ``path``,
    ``players`` ([min, max]) and ``id``; variants also ``variant`` and ``of``;
    expansions ``base``. Files with errors are listed with ``errors: true``.
    """
    ws = Workspace()
    entries = []
    for path in expand(paths):
        doc, kind = ws.load(path)
        if doc is None or kind not in ("edition", "expansion"):
            continue
        edition = compile_edition(ws, path)
        shown = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
        if edition is None:
            entries.append({"name": doc.data.get("name", path), "kind": kind, "path": shown,
                            "players": None, "id": doc.data.get("id"), "errors": True})
            continue
        entry = {"name": doc.data["name"], "kind": kind, "path": shown,
                 "players": list(edition.players), "id": doc.data["id"],
                 "description": " ".join(str(doc.data.get("description", "")).split())}
        if edition.extends:  # a house rule: say what it changes
            entry["extends"] = _shown(edition.extends)
        if kind == "expansion":
            base = locate_edition(doc.data["base"], os.path.dirname(shown)) or doc.data["base"]
            entry["base"] = os.path.relpath(base) if not os.path.relpath(base).startswith("..") else base
        advice = _advice(edition)
        if advice:
            entry["advice"] = advice
        if getattr(edition, "teams", 0):  # played in teams: how many, how they are made
            entry["teams"] = teams_entry(edition)
        entries.append(entry)
        own = doc.data.get("variants", {})
        for name, variant in edition.variants.items():
            if kind == "expansion" and name not in own:
                continue  # the base's own variants are listed with the base
            entries.append({"name": f"{doc.data['name']}: {name}", "kind": "variant", "path": shown,
                            "players": list(variant.players), "id": name, "variant": name,
                            "of": doc.data["id"], "description": variant.variant_description})
    return entries


def teams_entry(edition) -> dict:
    """How an edition played in teams makes them: ``count``, ``dealt`` (in_turn: seat s
    on team s % count; random; secret) and ``together`` (a team shares its lives)."""
    return {"count": edition.teams, "dealt": getattr(edition, "teams_dealt", "in_turn"),
            "together": bool(getattr(edition, "teams_together", False))}


def _advice(edition) -> dict:
    """Player count (as a string) -> the variant to play it with, where the edition as it
    is leaves a card useless at that count (Imploding Kittens with two players)."""
    advice = {}
    for players in range(edition.players[0], edition.players[1] + 1):
        if dead_cards(edition, players):
            name = variant_for(edition, edition.variants, players)
            if name is not None:
                advice[str(players)] = name
    return advice
