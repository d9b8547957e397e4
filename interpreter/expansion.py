"""Expansions: rule files that add to an edition instead of standing alone.

An expansion (``kind: expansion``) names the edition it is played with by
default (``base``) and says what it adds: card libraries, deck counts (added to
the base's), combos, checks, zones, parameters and rules, variants, and
optionally a setup or turn step (these replace the base's) and a player range
(which widens the base's: the two ranges' union).
The base's own variants are dropped: they were written for the base alone.

Applying expansions makes one *layered* document: the merged data, plus a
route for every merged value back to the file and place it came from. The
edition compiler works on it like on any edition file, and every diagnostic
still points at the line of the file that wrote the value.
"""

from __future__ import annotations

import os

from .loader import Document

#: parts an expansion replaces outright when it gives them (`players` widens instead)
REPLACED = ("setup", "turn", "win")
#: mapping parts whose keys are set one by one (later files win)
KEYED = ("params", "rules", "zones", "variants", "skin")
#: list parts that grow
APPENDED = ("include", "combos", "checks")


class Layered:
    """A base edition document with expansions applied, routing paths to their files."""

    def __init__(self, base: Document) -> None:
        self.base = base
        self.path = base.path
        self.data = {key: value for key, value in base.data.items()}
        self.layers: list[Document] = []
        self.routes: dict = {}  # merged path prefix -> (document, path in it)
        # where each setup step came from, so steps added in between keep their routes
        self._steps = [(base, ("setup", i)) for i in range(len(base.data.get("setup", [])))]

    # -- the Document interface the compiler uses -----------------------------
    def route(self, path) -> tuple:
        path = tuple(path)
        for cut in range(len(path), 0, -1):
            found = self.routes.get(path[:cut])
            if found is not None:
                doc, prefix = found
                return doc, prefix + path[cut:]
        return self.base, path

    def diagnostic(self, path, code: str, message: str, **options):
        doc, real = self.route(path)
        return doc.diagnostic(real, code, message, **options)

    def mark(self, path, key: bool = False):
        doc, real = self.route(path)
        return doc.mark(real, key)

    def value_at(self, path):
        doc, real = self.route(path)
        return doc.value_at(real)

    def offset_mark(self, path, offset: int):
        doc, real = self.route(path)
        return doc.offset_mark(real, offset)

    @property
    def paths(self) -> list[str]:
        """Every file that contributed, base first."""
        return [self.base.path] + [layer.path for layer in self.layers]

    # -- applying -------------------------------------------------------------
    def apply(self, layer: Document) -> list:
        """Merge one expansion in; returns problems as (document, path, code, message)."""
        data, base_dir = layer.data, os.path.dirname(self.base.path)
        if not self.layers:  # the base's variants were written for the base alone
            self.data.pop("variants", None)
        self.layers.append(layer)
        self.data["id"] = f"{self.data['id']}+{data['id']}"
        self.data["name"] = f"{self.data['name']} + {data['name']}"
        if "players" in data:  # a range that widens the base's (Imploding: up to six)
            base_range = self.data["players"]
            self.data["players"] = {"min": min(base_range["min"], data["players"]["min"]),
                                    "max": max(base_range["max"], data["players"]["max"])}
            self.routes[("players",)] = (layer, ("players",))
        for part in REPLACED:
            if part in data:
                self.data[part] = data[part]
                self.routes[(part,)] = (layer, (part,))
                if part == "setup":
                    self._steps = [(layer, ("setup", i)) for i in range(len(data["setup"]))]
        for part in KEYED:
            merged = dict(self.data.get(part, {}))
            for key, value in data.get(part, {}).items():
                merged[key] = value
                self.routes[(part, key)] = (layer, (part, key))
            if merged:
                self.data[part] = merged
        for part in APPENDED:
            merged = list(self.data.get(part, []))
            for index, value in enumerate(data.get(part, [])):
                if part == "include":  # paths are resolved against the base file's folder
                    value = os.path.relpath(
                        os.path.normpath(os.path.join(os.path.dirname(layer.path), value)), base_dir)
                self.routes[(part, len(merged))] = (layer, (part, index))
                merged.append(value)
            if merged:
                self.data[part] = merged
        deck = dict(self.data.get("deck", {}))
        players = self.data["players"]
        marks = self.data.get("marks", {})
        for card_id, count in data.get("deck", {}).items():
            if card_id in deck:
                first = by_marks(deck[card_id], marks) if is_by_marks(deck[card_id]) else deck[card_id]
                second = by_marks(count, marks) if is_by_marks(count) else count
                count = add_counts(first, second, players["min"], players["max"])
            deck[card_id] = count
            self.routes[("deck", card_id)] = (layer, ("deck", card_id))
        self.data["deck"] = deck
        return self._insert_steps(layer)

    def _insert_steps(self, layer: Document) -> list:
        """Add the layer's `setup_steps` next to named steps of the setup so far."""
        problems = []
        steps = list(self.data.get("setup", []))
        for index, insertion in enumerate(layer.data.get("setup_steps", [])):
            where = "before" if "before" in insertion else "after"
            name = insertion.get(where)
            names = [step.get("name") for step in steps]
            if name not in names:
                known = ", ".join(n for n in names if n) or "none"
                problems.append((layer, ("setup_steps", index, where), "unknown-step",
                                 f"the setup has no step named '{name}' (its named steps: {known}); "
                                 "name the step in the base edition (`name: ...`)"))
                continue
            at = names.index(name) + (where == "after")
            added = insertion["steps"]
            steps[at:at] = added
            self._steps[at:at] = [(layer, ("setup_steps", index, "steps", i)) for i in range(len(added))]
        self.data["setup"] = steps
        self.routes = {key: value for key, value in self.routes.items()
                       if not (len(key) == 2 and key[0] == "setup")}  # step routes, rebuilt below
        for position, source in enumerate(self._steps):
            self.routes[("setup", position)] = source
        return problems


def is_by_marks(count) -> bool:
    """Whether a deck count is given by printed mark (`{paw: 3, plain: 7}`)."""
    return isinstance(count, dict) and any(not key[:1].isdigit() for key in count)


def by_marks(count: dict, marks: dict) -> dict:
    """A count by mark turned into a count by player range, through the edition's `marks`."""
    return {players: sum(count.get(mark, 0) for mark in used) for players, used in marks.items()}


def add_counts(first, second, lo: int, hi: int):
    """Two deck counts added: a number, or a mapping by player range when either is one."""
    if isinstance(first, int) and isinstance(second, int):
        return first + second
    per_players = [_count_for(first, n) + _count_for(second, n) for n in range(lo, hi + 1)]
    ranges, start = {}, lo
    for n in range(lo, hi + 1):
        if n == hi or per_players[n - lo] != per_players[n + 1 - lo]:
            ranges[f"{start}-{n}" if start != n else str(start)] = per_players[n - lo]
            start = n + 1
    return ranges


def _count_for(count, players: int) -> int:
    if isinstance(count, int):
        return count
    for key, number in count.items():
        first, _, last = key.partition("-")
        if int(first) <= players <= int(last or first):
            return number
    return 0
