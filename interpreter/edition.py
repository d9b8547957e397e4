"""Compiling an edition file (and each of its variants) into an :class:`Edition`.

Checks what a schema cannot: included files exist and have the right kind,
every card and combo named is defined, player ranges of the deck are sound,
effects are checked against the edition's full set of cards, setup can be
carried out at every allowed player count and leaves enough lethal cards for
the game to end, and every card in the deck can be used somehow.
"""

from __future__ import annotations

import os

from . import primitives as P
from .checker import CheckEnv
from .diagnostics import WARNING, did_you_mean
from .library import Library, check_effects, declared_zones, load_library, resolve
from .loader import Document
from .model import Edition, Origin, SetupStep
from .setup import dry_run
from .workspace import Workspace, base_names


def compile_edition(ws: Workspace, path: str) -> Edition | None:
    """Compile an edition and its variants; None when it has errors that stop compilation."""
    doc, kind = ws.load(path)
    if doc is None or kind != "edition":
        return None
    data = doc.data
    libraries = []
    ws.loading.append(os.path.realpath(doc.path))
    try:
        for index, relative in enumerate(data["include"]):
            lib = load_library(ws, resolve(doc, relative), from_doc=doc, from_path=("include", index))
            if lib is not None:
                libraries.append(lib)
    finally:
        ws.loading.pop()
    cards, combos = _gather(ws, libraries)
    zones = _zones(ws, doc, libraries)
    param_types = _param_types(data.get("params", {}))
    for name in param_types:
        if name in P.ENGINE_RULES:
            ws.report(doc.diagnostic(("params", name), "redefined-name",
                                     f"'{name}' is an engine rule: set it under `rules:`, not `params:`",
                                     key=True))
    env = CheckEnv(card_ids=frozenset(cards), tags=frozenset(t for c in cards.values() for t in c.tags),
                   rules={name: spec[0] for name, spec in P.ENGINE_RULES.items()} | param_types,
                   zones=frozenset(zones))
    for lib in libraries:
        check_effects(ws, lib, env)
    turn_draw = ws.parse(doc, ("turn", "draw"))
    ws.check(doc, ("turn", "draw"), turn_draw, env, P.TURN,
             base_names() | {zone: P.ZONE for zone in zones})
    compiler = _ViewCompiler(ws, doc, cards, combos, env, turn_draw, zones)
    base = compiler.compile(None)
    variants = {name: compiler.compile(name) for name in data.get("variants", {})}
    if base is None or ws.has_errors(doc.path) or any(v is None for v in variants.values()):
        return None
    return Edition(**{**base.__dict__, "variants": variants})


def _zones(ws: Workspace, doc: Document, libraries: list) -> dict:
    """Extra zones: the edition's own and its libraries'; one name, one kind of zone."""
    zones, where = {}, {}
    sources = [(name, spec, lib.doc.path) for lib in libraries
               for name, spec in lib.visible_zones().items()]
    own = declared_zones(ws, doc)
    for name, spec, path in sources + [(n, s, doc.path) for n, s in own.items()]:
        if name in zones and zones[name] != spec:
            ws.report(doc.diagnostic(("zones", name) if name in own else ("include",), "duplicate-id",
                                     f"zone '{name}' is declared public in one file and hidden in "
                                     f"another ({where[name]}): make them agree", key=name in own))
            continue
        zones.setdefault(name, spec)
        where.setdefault(name, path)
    return zones


def _param_types(params: dict) -> dict:
    """Edition parameters as the checker sees them: name -> bool or int."""
    return {name: (P.BOOL if isinstance(value, bool) else P.INT) for name, value in params.items()}


def _gather(ws: Workspace, libraries: list[Library]) -> tuple[dict, dict]:
    """Every card and combo of the included libraries, reporting ids defined twice.

    A library reached twice (included, and used by another include) is the same
    object, so its cards are not duplicates of themselves.
    """
    cards, combos, owner = {}, {}, {}
    for lib in libraries:
        for card_id, (card, card_lib, path) in lib.visible_cards().items():
            if card_id in owner and owner[card_id] is not card_lib:
                ws.report(card_lib.doc.diagnostic(
                    path + ("id",), "duplicate-id",
                    f"card '{card_id}' is also defined at {cards[card_id].origin}: "
                    "an id may be defined only once"))
                continue
            owner[card_id], cards[card_id] = card_lib, card
        for combo_id, (combo, path) in lib.combos.items():
            if combo_id in combos and combos[combo_id] is not combo:
                ws.report(lib.doc.diagnostic(path + ("id",), "duplicate-id",
                                             f"combo '{combo_id}' is also defined at "
                                             f"{combos[combo_id].origin}: an id may be defined only once"))
                continue
            combos[combo_id] = combo
    return cards, combos


class _ViewCompiler:
    """Compiles the edition as seen through one variant (or none)."""

    def __init__(self, ws, doc: Document, cards, combos, env, turn_draw, zones):
        self.ws, self.doc, self.cards, self.combos = ws, doc, cards, combos
        self.env, self.turn_draw, self.zones = env, turn_draw, zones

    def _part(self, variant: str | None, name: str):
        """(value, json path) of a part, taken from the variant when it sets it."""
        data = self.doc.data
        if variant is not None and name in data["variants"][variant]:
            return data["variants"][variant][name], ("variants", variant, name)
        return data.get(name), (name,)

    def compile(self, variant: str | None) -> Edition | None:
        doc, data = self.doc, self.doc.data
        players, players_path = self._part(variant, "players")
        lo, hi = players["min"], players["max"]
        if lo > hi:
            self.ws.report(doc.diagnostic(players_path, "bad-player-range",
                                          f"`min` ({lo}) is greater than `max` ({hi})"))
        deck = self._deck(variant, lo, hi)
        combo_ids, combos_path = self._part(variant, "combos")
        combos = []
        for index, combo_id in enumerate(combo_ids or []):
            if combo_id not in self.combos:
                self.ws.report(doc.diagnostic(combos_path + (index,), "unknown-combo",
                                              f"no included combo file defines '{combo_id}'"
                                              f"{did_you_mean(combo_id, self.combos)}"))
            else:
                combos.append(self.combos[combo_id])
        params = {**data.get("params", {}), **(data["variants"][variant].get("params", {})
                                                  if variant else {})}
        rules = {name: spec[1] for name, spec in P.ENGINE_RULES.items()}
        rules.update(data.get("rules", {}))
        if variant:
            rules.update(data["variants"][variant].get("rules", {}))
        env = CheckEnv(self.env.card_ids, self.env.tags,
                       {**self.env.rules, **_param_types(params)},
                       self.env.mentioned_cards, self.env.zones)
        setup, setup_path = self._setup(variant, env)
        if self.ws.has_errors(doc.path):  # the whole-edition checks need sound parts
            return None
        edition = Edition(id=data["id"], name=data["name"], players=(lo, hi), cards=self.cards,
                          deck=deck, combos=tuple(combos), setup=setup, rules=rules, params=params,
                          turn_draw=self.turn_draw, win=data["win"], zones=self.zones,
                          origin=Origin(doc.path, 1), variant=variant)
        self._dry_runs(edition, setup_path)
        self._unplayable(edition, variant)
        return edition

    # -- deck -----------------------------------------------------------------
    def _deck(self, variant, lo, hi) -> dict:
        entries = {card_id: (count, ("deck", card_id)) for card_id, count in self.doc.data["deck"].items()}
        if variant and "deck" in self.doc.data["variants"][variant]:
            for card_id, count in self.doc.data["variants"][variant]["deck"].items():
                entries[card_id] = (count, ("variants", variant, "deck", card_id))
        deck = {}
        for card_id, (count, path) in entries.items():
            if card_id not in self.cards:
                self.ws.report(self.doc.diagnostic(path, "unknown-card",
                                                   f"no included library defines the card '{card_id}'"
                                                   f"{did_you_mean(card_id, self.cards)}", key=True))
                continue
            deck[card_id] = self._ranges(count, path, lo, hi)
        return deck

    def _ranges(self, count, path, lo, hi) -> tuple:
        if isinstance(count, int):
            return ((lo, hi, count),)
        ranges = []
        for key, number in count.items():
            first, _, last = key.partition("-")
            a, b = int(first), int(last or first)
            if a > b:
                self.ws.report(self.doc.diagnostic(path + (key,), "bad-player-range",
                                                   f"the range '{key}' runs backwards: write '{b}-{a}'",
                                                   key=True))
                continue
            for other_a, other_b, _n in ranges:
                if a <= other_b and other_a <= b:
                    self.ws.report(self.doc.diagnostic(path + (key,), "bad-player-range",
                                                       f"the range '{key}' overlaps '{other_a}-{other_b}'",
                                                       key=True))
            ranges.append((a, b, number))
        missing = [n for n in range(lo, hi + 1) if not any(a <= n <= b for a, b, _ in ranges)]
        if missing and lo <= hi:
            shown = ", ".join(str(n) for n in missing)
            self.ws.report(self.doc.diagnostic(path, "bad-player-range",
                                               f"no count is given for {shown} player(s): add a range "
                                               "that covers them (0 if the card is not used)"))
        return tuple(ranges)

    # -- setup ----------------------------------------------------------------
    def _setup(self, variant, env) -> tuple[tuple, tuple]:
        steps_data, setup_path = self._part(variant, "setup")
        players = (self._part(variant, "players")[0]["min"], self._part(variant, "players")[0]["max"])
        steps = []
        for index, raw in enumerate(steps_data):
            path = setup_path + (index,)
            (kind, value), = raw.items()
            origin = Origin(self.doc.path, self.doc.mark(path).line)
            if kind == "set_aside":
                for position, card_id in enumerate(value):
                    self._known_card(card_id, path + (kind, position))
                steps.append(SetupStep(kind, cards=tuple(value), origin=origin))
            elif kind in ("deal", "put_back"):
                card_id = value.get("card")
                if card_id is not None:
                    self._known_card(card_id, path + (kind, "card"))
                count = self._count(value["count"], path + (kind, "count"), env, players)
                steps.append(SetupStep(kind, cards=(card_id,) if card_id else (), count=count,
                                       or_fewer=value.get("or_fewer", False), origin=origin))
            else:
                steps.append(SetupStep(kind, zone=value, origin=origin))
        return tuple(steps), setup_path

    def _known_card(self, card_id: str, path: tuple) -> None:
        if card_id not in self.cards:
            self.ws.report(self.doc.diagnostic(path, "unknown-card",
                                               f"no included library defines the card '{card_id}'"
                                               f"{did_you_mean(card_id, self.cards)}"))

    def _count(self, value, path: tuple, env, players: tuple):
        if isinstance(value, int):
            return value
        if isinstance(value, dict):
            return self._ranges(value, path, *players)
        tree = self.ws.parse(self.doc, path, expression=True)
        self.ws.check(self.doc, path, tree, env, P.SETUP, {"players": P.INT}, pure=True, expect=P.INT)
        return tree

    # -- whole-edition checks -------------------------------------------------
    def _dry_runs(self, edition: Edition, setup_path: tuple) -> None:
        reported = set()
        lo, hi = edition.players
        for players in range(lo, hi + 1):
            problems, _pile = dry_run(edition, players)
            for problem in problems:
                if (problem.step, problem.code) in reported:
                    continue
                reported.add((problem.step, problem.code))
                where = setup_path if problem.step is None else setup_path + (problem.step,)
                key = problem.step is None
                prefix = f"in variant '{edition.variant}': " if edition.variant else ""
                self.ws.report(self.doc.diagnostic(where, problem.code, prefix + problem.message, key=key))

    def _unplayable(self, edition: Edition, variant: str | None) -> None:
        mentioned = self.env.mentioned_cards
        for card_id, ranges in edition.deck.items():
            if not any(count for _a, _b, count in ranges):
                continue
            card = edition.cards[card_id]
            if (card.when != "never" or card.on_draw is not None or card_id in mentioned
                    or any(combo.may_include(card) for combo in edition.combos)):
                continue
            path = ("variants", variant, "deck", card_id) if variant and card_id in \
                self.doc.data["variants"][variant].get("deck", {}) else ("deck", card_id)
            suffix = f" in variant '{variant}'" if variant else ""
            self.ws.report(self.doc.diagnostic(
                path, "unplayable-card",
                f"'{card_id}' can never be played or used{suffix}: it is `when: never`, has no "
                "`on_draw`, no effect names it and no enabled combo can include it",
                key=True, severity=WARNING))
