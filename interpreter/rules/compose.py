"""Composition: rule files built from other rule files, merged into one document.

Two kinds of file build on an edition instead of standing alone:

* an **expansion** (``kind: expansion``) *adds*: card libraries, deck counts
  (added to the base's), combos, checks, triggers, zones, counters, parameters and rules, setup
  steps; a player range widens the base's;
* a **house rule** is an edition that ``extends`` another and *changes* it,
  with one explicit key per kind of change (``add_cards``, ``remove_cards``,
  ``set_counts``, ``set_params``, ``replace_steps``, ...), so nobody has to
  guess whether a key merges or replaces. It may ``apply`` expansions first.

Expansions may use the change keys too (remove a card, patch one).

Resolving a file makes one *layered* document: the merged data plus a route
for every merged value back to the file and place that wrote it. The edition
compiler works on it like on any edition file, so every diagnostic, and every
origin `kittens show` prints, points at the line that wrote the value.

Two expansions that set one value differently *conflict* (an error naming
both); a house rule applied after them settles such things, and later files
otherwise win.
"""

from __future__ import annotations

import os
from typing import NamedTuple, Union

from ...about import shipped_path
from ..lang.diagnostics import did_you_mean
from ..lang.loader import Document

#: parts an expansion replaces outright when it gives them (`players` widens instead)
REPLACED = ("setup", "turn", "win", "teams")
#: mapping parts whose keys are set one by one (later files win)
KEYED = ("params", "rules", "zones", "skin", "counters", "procedures")
#: list parts that grow
APPENDED = ("include", "checks", "triggers", "actions", "restrictions")
#: parts a house rule replaces outright
HOUSE_REPLACED = ("players", "turn", "win", "teams", "marks", "description")
#: parts a house rule may not give whole, and the keys that say what it means instead
AMBIGUOUS = {
    "deck": "`add_cards`, `remove_cards` or `set_counts`",
    "setup": "`add_steps`, `replace_steps`, `remove_steps` or `replace_setup`",
    "combos": "`add_combos`, `remove_combos` or `set_combos`",
    "params": "`add_params` or `set_params`",
    "rules": "`set_rules`",
}
#: the change keys: what a house rule (and, in part, an expansion) may say
CHANGE_KEYS = ("add_cards", "remove_cards", "set_counts", "define_cards", "replace_cards",
               "patch_cards", "define_combos", "patch_combos", "add_combos", "remove_combos", "set_combos",
               "add_params", "set_params", "set_rules", "add_steps", "replace_steps",
               "remove_steps", "move_steps", "replace_setup")
#: change keys that need the card libraries: carried out when the edition compiles
CARD_CHANGES = ("define_cards", "replace_cards", "patch_cards", "define_combos", "patch_combos")
#: parts a variant gives whole: `players`, `combos`, `setup`, `teams` and `win` replace what
#: is merged so far, `deck`, `params` and `rules` replace the values they name
VARIANT_REPLACED = ("players", "combos", "setup", "teams", "win")
VARIANT_KEYED = ("deck", "params", "rules")

EXPANSION, HOUSE = "expansion", "house rule"


class Problem(NamedTuple):
    """A finding of composition, reported at ``path`` of ``doc``."""

    doc: Layer  # a file, or the variant of a file the finding is in
    path: tuple
    code: str
    message: str
    key: bool = False


def where(doc, path) -> str:
    """``file:line`` of a value, for messages that name a second place."""
    return f"{shipped_path(doc.path)}:{doc.mark(path).line}"


class VariantDoc:
    """One variant of a rule file, seen as a document of its own (``variants.NAME``).

    Its data is the variant's mapping; every position is looked up in the file
    that declares it, so a variant's values route back to their lines.
    """

    def __init__(self, doc: Document, name: str) -> None:
        self.doc, self.name = doc, name
        self.path = doc.path
        self.prefix = ("variants", name)
        self.data = doc.data["variants"][name]

    def mark(self, path, key: bool = False):
        return self.doc.mark(self.prefix + tuple(path), key)

    def value_at(self, path):
        return self.doc.value_at(self.prefix + tuple(path))

    def offset_mark(self, path, offset: int):
        return self.doc.offset_mark(self.prefix + tuple(path), offset)

    def source_line(self, line: int) -> str:
        return self.doc.source_line(line)

    def diagnostic(self, path, code: str, message: str, **options):
        return self.doc.diagnostic(self.prefix + tuple(path), code, message, **options)


def variant_names(doc) -> list:
    """The variants a rule file declares, in the order it writes them."""
    data = doc.data if isinstance(doc.data, dict) else {}
    return list(data.get("variants", {}))


class Claims:
    """What expansions set, and where two of them disagree: the one place the rule is
    written that a house rule settles such conflicts.

    ``claim`` records that an expansion sets something (a value, a card's field, a
    card); a different value from another expansion is a conflict, kept until a house
    rule ``settle``s that thing. ``house_rule`` marks a house rule layered: the
    expansions after it start afresh, without conflicts with those before it.
    """

    def __init__(self) -> None:
        self._set: dict = {}  # key -> (layer, value, where it was set) of the last claim
        self.conflicts: dict = {}  # key -> whatever ``report`` made of the disagreement

    def claim(self, key, layer, value, place: str, report) -> None:
        """An expansion ``layer`` sets ``key`` to ``value`` at ``place`` ("file:line");
        when an earlier one set it differently, ``report(its place)`` is the conflict."""
        earlier = self._set.get(key)
        self._set[key] = (layer, value, place)
        if earlier is not None and not same_file(earlier[0], layer) and earlier[1] != value:
            self.conflicts[key] = report(earlier[2])

    def __contains__(self, key) -> bool:
        return key in self._set

    def settle(self, key) -> None:
        """A house rule sets ``key`` itself: whatever expansions said of it stands settled."""
        self.conflicts.pop(key, None)

    def house_rule(self) -> None:
        self._set.clear()


def same_file(one, other) -> bool:
    """Whether two layers are one file: a file and its own variants are (a variant that
    sets a value its file declares changes it, as the file means; it disagrees with
    nobody). Layers given as numbers (cardset's) are the same when equal."""
    one, other = getattr(one, "doc", one), getattr(other, "doc", other)
    return one is other or (type(one) is int and one == other)


#: what is layered on a base: a rule file, or one variant of a file
Layer = Union[Document, VariantDoc]


class Layered:
    """A base edition with other files layered on, routing every value to its file."""

    def __init__(self, base: Document) -> None:
        self.base = base
        self.path = base.path
        # variants are not merged: each is switched on where its file is layered (see vary)
        self.data = {key: value for key, value in base.data.items() if key != "variants"}
        self.layers: list[tuple[Layer, str]] = []  # (document, EXPANSION or HOUSE)
        self.routes: dict = {}  # merged path prefix -> (document, path in it)
        # where each setup step and enabled combo came from: both lists can lose items
        self._sources: dict[str, list[tuple[Layer, tuple]]] = {
            part: [(base, (part, i)) for i in range(len(base.data.get(part, [])))] for part in ("setup", "combos")}
        # values expansions set, and their conflicts, until a house rule settles them
        self.claims = Claims()
        #: `set_params` names no file set so far: a card library may declare them
        self.params_to_find: list[tuple[Layer, tuple]] = []
        self.variant: VariantDoc | None = None  # the variant switched on, if any
        self.moves: dict = {}  # step name -> (document, path) of the `move_steps` that moved it

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
        return [self.base.path] + [layer.path for layer, _kind in self.layers]

    def expansions(self) -> list[Layer]:
        return [layer for layer, kind in self.layers if kind == EXPANSION]

    # -- applying -------------------------------------------------------------
    def apply(self, layer: Layer) -> list[Problem]:
        """Merge one expansion in."""
        data = layer.data
        problems = self._start(layer, EXPANSION)
        self.data["id"] = f"{self.data['id']}+{data['id']}"
        self.data["name"] = f"{self.data['name']} + {data['name']}"
        if "players" in data:  # a range that widens the base's (Imploding: up to six)
            base_range = self.data["players"]
            self.data["players"] = {"min": min(base_range["min"], data["players"]["min"]),
                                    "max": max(base_range["max"], data["players"]["max"])}
            self._set(("players",), layer, ("players",))
        for part in REPLACED:
            if part in data:
                self._claim((part,), layer, (part,))
                self.data[part] = data[part]
                self._set((part,), layer, (part,))
                if part == "setup":
                    self._sources["setup"] = [(layer, ("setup", i)) for i in range(len(data["setup"]))]
        for part in KEYED:
            self._keyed(layer, part, part, claim=True)
        self._appended(layer)
        for index, combo_id in enumerate(data.get("combos", [])):
            if combo_id not in self.data.get("combos", []):
                self._add_to_list("combos", combo_id, layer, ("combos", index))
        deck = dict(self.data.get("deck", {}))
        players, marks = self.data["players"], self.data.get("marks", {})
        for card_id, count in data.get("deck", {}).items():
            if card_id in deck:
                first = by_marks(deck[card_id], marks) if is_by_marks(deck[card_id]) else deck[card_id]
                second = by_marks(count, marks) if is_by_marks(count) else count
                count = add_counts(first, second, players["min"], players["max"])
            deck[card_id] = count
            self._set(("deck", card_id), layer, ("deck", card_id))
        self.data["deck"] = deck
        return problems + self._changes(layer)

    def extend(self, layer: Layer) -> list[Problem]:
        """Merge a house rule in: an edition that `extends` what is merged so far."""
        data = layer.data
        problems = self._start(layer, HOUSE)
        for key, instead in AMBIGUOUS.items():
            if key in data:
                problems.append(Problem(layer, (key,), "ambiguous-key",
                                        f"`{key}` in a file that extends another could mean "
                                        f"\"replace\" or \"merge\": say which with {instead}", True))
        self.data["id"], self.data["name"] = data["id"], data["name"]
        self._set(("id",), layer, ("id",))
        self._set(("name",), layer, ("name",))
        for part in HOUSE_REPLACED:
            if part in data:
                self.data[part] = data[part]
                self._set((part,), layer, (part,))
        for part in ("zones", "skin", "counters", "procedures"):
            self._keyed(layer, part, part, claim=False)
        self._appended(layer)
        problems += self._changes(layer)
        for path in list(self.claims.conflicts):  # the values this house rule set itself
            if self._set_by(path) is layer:
                self.claims.settle(path)
        self.claims.house_rule()
        return problems

    @property
    def conflicts(self) -> dict:
        """Conflicts between expansions no house rule has settled: path -> Problem."""
        return self.claims.conflicts

    def vary(self, variant: VariantDoc) -> list[Problem]:
        """Switch a variant on: its parts and changes act on what is merged so far.

        A variant is switched on right after the file that declares it is layered,
        so the files above (a house rule, an expansion) build on the variant as
        they would on the file itself.
        """
        self.variant = variant
        data = variant.data
        for part in VARIANT_REPLACED:
            if part in data:
                self.data[part] = data[part]
                self._set((part,), variant, (part,))
                if part in self._sources:
                    self._sources[part] = [(variant, (part, i)) for i in range(len(data[part]))]
                    self._route_list(part)
        for part in VARIANT_KEYED:
            self._keyed(variant, part, part, claim=False)
        return self._changes(variant)

    def _set_by(self, path: tuple):
        """The file that set ``path`` last (setup steps are named by their `name`)."""
        if path[0] == "setup" and len(path) == 2:
            names = [step.get("name") for step in self.data.get("setup", [])]
            return self._sources["setup"][names.index(path[1])][0] if path[1] in names else None
        return self.route(path)[0]

    def _start(self, layer: Layer, kind: str) -> list[Problem]:
        problems = []
        for earlier in [self.base] + [doc for doc, _kind in self.layers]:
            if earlier.data.get("id") == layer.data["id"]:
                problems.append(Problem(layer, ("id",), "duplicate-id",
                                        f"'{layer.data['id']}' is already part of this game "
                                        f"({where(earlier, ('id',))}): apply each file once"))
                break
        self.layers.append((layer, kind))
        return problems

    def _set(self, path: tuple, layer: Layer, layer_path: tuple) -> None:
        self.routes[path] = (layer, layer_path)

    def _claim(self, path: tuple, layer: Layer, layer_path: tuple) -> None:
        """Record that an expansion sets ``path`` (see :class:`Claims`)."""
        shown = ".".join(str(p) for p in path)

        def report(earlier: str) -> Problem:
            return Problem(layer, layer_path, "conflict",
                           f"`{shown}` is also set, differently, by {earlier}: these two files "
                           "disagree; apply only one, or settle it in a house rule that applies "
                           "both and sets the value itself")
        self.claims.claim(path, layer, layer.value_at(layer_path), where(layer, layer_path), report)

    def _keyed(self, layer: Layer, part: str, key: str, *, claim: bool) -> None:
        merged = dict(self.data.get(part, {}))
        for name, value in layer.data.get(key, {}).items():
            if claim:
                self._claim((part, name), layer, (key, name))
            merged[name] = value
            self._set((part, name), layer, (key, name))
        if merged:
            self.data[part] = merged

    def _appended(self, layer: Layer) -> None:
        base_dir = os.path.dirname(self.base.path)
        for part in APPENDED:
            merged = list(self.data.get(part, []))
            for index, value in enumerate(layer.data.get(part, [])):
                if part == "include" and ("/" in value or value.endswith((".yaml", ".yml"))):
                    # paths are resolved against the base file's folder; names stay names
                    value = os.path.relpath(
                        os.path.normpath(os.path.join(os.path.dirname(layer.path), value)), base_dir)
                self._set((part, len(merged)), layer, (part, index))
                merged.append(value)
            if merged:
                self.data[part] = merged

    def _add_to_list(self, part: str, value, layer: Layer, layer_path: tuple) -> None:
        self.data[part] = list(self.data.get(part, [])) + [value]
        self._sources[part].append((layer, layer_path))
        self._route_list(part)

    def _route_list(self, part: str) -> None:
        self.routes = {key: value for key, value in self.routes.items()
                       if not (len(key) == 2 and key[0] == part)}
        for position, source in enumerate(self._sources[part]):
            self.routes[(part, position)] = source

    # -- the change keys --------------------------------------------------------
    def _changes(self, layer: Layer) -> list[Problem]:
        return (self._deck_changes(layer) + self._combo_changes(layer) + self._param_changes(layer)
                + self._step_changes(layer))

    def _deck_changes(self, layer: Layer) -> list[Problem]:
        data, problems = layer.data, []
        deck = dict(self.data.get("deck", {}))
        for card_id, count in data.get("add_cards", {}).items():
            if card_id in deck:
                problems.append(Problem(layer, ("add_cards", card_id), "already-there",
                                        f"'{card_id}' is already in the deck "
                                        f"({where(*self.route(('deck', card_id)))}): "
                                        "change its count with `set_counts`", True))
                continue
            deck[card_id] = count
            self._set(("deck", card_id), layer, ("add_cards", card_id))
        deck_at = where(*self.route(("deck",)))  # the deck the change looks in
        for index, card_id in enumerate(data.get("remove_cards", [])):
            if card_id not in deck:
                problems.append(Problem(layer, ("remove_cards", index), "nothing-to-change",
                                        f"'{card_id}' is not in the deck ({deck_at})"
                                        f"{did_you_mean(card_id, deck, 'there is nothing to remove')}"))
                continue
            del deck[card_id]
            self.routes.pop(("deck", card_id), None)
        for card_id, count in data.get("set_counts", {}).items():
            if card_id not in deck:
                problems.append(Problem(layer, ("set_counts", card_id), "nothing-to-change",
                                        f"'{card_id}' is not in the deck ({deck_at})"
                                        f"{did_you_mean(card_id, deck, 'put a new card in with `add_cards`')}", True))
                continue
            self._claim(("deck", card_id), layer, ("set_counts", card_id))
            deck[card_id] = count
            self._set(("deck", card_id), layer, ("set_counts", card_id))
        self.data["deck"] = deck
        return problems

    def _combo_changes(self, layer: Layer) -> list[Problem]:
        data, problems = layer.data, []
        if "set_combos" in data:
            self.data["combos"] = list(data["set_combos"])
            self._sources["combos"] = [(layer, ("set_combos", i)) for i in range(len(data["set_combos"]))]
            self._route_list("combos")
        for index, combo_id in enumerate(data.get("add_combos", [])):
            if combo_id in self.data.get("combos", []):
                at = self.data["combos"].index(combo_id)
                problems.append(Problem(layer, ("add_combos", index), "already-there",
                                        f"the combo '{combo_id}' is already on "
                                        f"({where(*self.route(('combos', at)))})"))
                continue
            self._add_to_list("combos", combo_id, layer, ("add_combos", index))
        for index, combo_id in enumerate(data.get("remove_combos", [])):
            enabled = self.data.get("combos", [])
            if combo_id not in enabled:
                listed = f" (the combos on: {where(*self.route(('combos',)))})" if "combos" in self.data else ""
                problems.append(Problem(layer, ("remove_combos", index), "nothing-to-change",
                                        f"the combo '{combo_id}' is not on{listed}"
                                        f"{did_you_mean(combo_id, enabled, 'there is nothing to remove')}"))
                continue
            at = enabled.index(combo_id)
            self.data["combos"] = enabled[:at] + enabled[at + 1:]
            del self._sources["combos"][at]
            self._route_list("combos")
        return problems

    def _param_changes(self, layer: Layer) -> list[Problem]:
        data, problems = layer.data, []
        params = self.data.get("params", {})
        for name in data.get("add_params", {}):
            if name in params:
                problems.append(Problem(layer, ("add_params", name), "already-there",
                                        f"the parameter '{name}' already exists "
                                        f"({where(*self.route(('params', name)))}): change it with "
                                        "`set_params`", True))
        for name in data.get("set_params", {}):
            if name not in params:  # a card library may declare it: checked when they load
                self.params_to_find.append((layer, ("set_params", name)))
        self._keyed(layer, "params", "add_params", claim=True)
        self._keyed(layer, "params", "set_params", claim=True)
        self._keyed(layer, "rules", "set_rules", claim=True)
        return problems

    def _step_changes(self, layer: Layer) -> list[Problem]:
        data, problems = layer.data, []
        if "replace_setup" in data:
            self.data["setup"] = list(data["replace_setup"])
            self._sources["setup"] = [(layer, ("replace_setup", i)) for i in range(len(data["replace_setup"]))]
        steps, sources = list(self.data.get("setup", [])), self._sources["setup"]

        def find(name, path) -> int | None:
            names = [step.get("name") for step in steps]
            if name in names:
                return names.index(name)
            known = ", ".join(n for n in names if n) or "none"
            problems.append(Problem(layer, path, "unknown-step",
                                    f"the setup has no step named '{name}'"
                                    f"{did_you_mean(str(name), [n for n in names if n])} "
                                    f"(its named steps: {known}); name the step in the edition "
                                    "it comes from (`name: ...`)"))
            return None

        for index, insertion in enumerate(data.get("add_steps", [])):
            side = "before" if "before" in insertion else "after"
            at = find(insertion.get(side), ("add_steps", index, side))
            if at is None:
                continue
            at += side == "after"
            added = insertion["steps"]
            steps[at:at] = added
            sources[at:at] = [(layer, ("add_steps", index, "steps", i)) for i in range(len(added))]
        for name, step in data.get("replace_steps", {}).items():
            at = find(name, ("replace_steps", name))
            if at is not None:
                self._claim(("setup", name), layer, ("replace_steps", name))
                steps[at] = {"name": name, **step}
                sources[at] = (layer, ("replace_steps", name))
        for index, name in enumerate(data.get("remove_steps", [])):
            at = find(name, ("remove_steps", index))
            if at is not None:
                del steps[at]
                del sources[at]
        for index, move in enumerate(data.get("move_steps", [])):
            # a box that deals in its own order moves the base's steps, whatever they hold
            at = find(move["step"], ("move_steps", index, "step"))
            side = "before" if "before" in move else "after"
            if at is None or find(move[side], ("move_steps", index, side)) is None:
                continue
            if move[side] == move["step"]:
                problems.append(Problem(layer, ("move_steps", index, side), "bad-value",
                                        f"the step '{move['step']}' cannot move {side} itself: "
                                        "name the step it should come next to"))
                continue
            step, source = steps.pop(at), sources.pop(at)
            beside = find(move[side], ("move_steps", index, side))
            assert beside is not None  # found above, and it is not the step taken out
            to = beside + (side == "after")
            steps.insert(to, step)
            sources.insert(to, source)
            self.moves[move["step"]] = (layer, ("move_steps", index))
        self.data["setup"] = steps
        self._route_list("setup")
        return problems

    # -- after every layer ------------------------------------------------------
    def missing_needs(self) -> list[Problem]:
        """Expansions that need an edition or expansion this game does not have."""
        present = [self.base.data["id"]] + [layer.data["id"] for layer, _kind in self.layers]
        problems = []
        for layer in self.expansions():
            for index, need in enumerate(layer.data.get("needs", [])):
                if need in present:
                    continue
                others = ", ".join(f"'{i}'" for i in present if i != layer.data["id"])
                problems.append(Problem(layer, ("needs", index), "missing-need",
                                        f"'{layer.data['id']}' needs '{need}', but this game is "
                                        f"{others} (the base is {where(self.base, ('id',))}): apply "
                                        f"'{need}' too, with `apply:` or `--with`"))
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
