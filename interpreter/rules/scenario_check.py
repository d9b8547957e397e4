"""What `kittens validate` checks in a scenario before any of it runs.

A scenario names the edition it plays the way `kittens run` does: a rule file
relative to the scenario, or the name of a shipped edition or expansion, or of
an installed expansion; `with:` applies expansions on top and `variant:` picks
one of the result's variants. Then every seat, card and zone the scenario
names (in its layout, its steps and its checks) must exist in that game:
a check about seat 5 of a three-player game could never pass or fail honestly,
so it is an error, reported at its line.
"""

from __future__ import annotations

import os

from ..lang.diagnostics import WARNING, did_you_mean, with_article
from ..lang.schemas import KINDS
from . import plugins
from .edition import compile_edition
from .workspace import Workspace

#: the kinds of file a scenario can play: an edition, or an expansion on its base
PLAYABLE = ("edition", "expansion")


def check_scenario(ws: Workspace, doc):
    """Compile the game a scenario plays; problems go to ``ws``. None when it fails."""
    found = references(ws, doc)
    if found is None:
        return None
    edition = compile_edition(ws, found[0], found[1])
    return None if edition is None else pick_variant(ws, doc, edition)


def references(ws: Workspace, doc) -> tuple[str, tuple[str, ...]] | None:
    """The edition file and the expansion files (`with`) a scenario names, or None
    (reported at the scenario's line) when one cannot be found or is of the wrong kind."""
    data, folder = doc.data, os.path.dirname(doc.path)
    reference = data["edition"]
    target = plugins.locate_edition(reference, folder) or plugins.locate(reference, folder)
    if not ws.may_read(doc, ("edition",), target or os.path.join(folder, reference)):
        return None
    if target is None:
        ws.report(doc.diagnostic(("edition",), "unknown-file", _no_edition(reference, folder)))
        return None
    ok = _playable(ws, doc, ("edition",), target, PLAYABLE,
                   "`edition` names the edition (or expansion) this scenario plays, such as "
                   "`original` or the path of its file")
    expansions = []
    for index, name in enumerate(data.get("with", [])):
        found = plugins.locate(name, folder)
        if not ws.may_read(doc, ("with", index), found or os.path.join(folder, name)):
            ok = False
            continue
        if found is None:
            ws.report(doc.diagnostic(("with", index), "unknown-file", plugins.not_found(name, folder)))
            ok = False
            continue
        ok = _playable(ws, doc, ("with", index), found, ("expansion",),
                       "`with` takes expansions; the edition to play goes in `edition`") and ok
        expansions.append(found)
    return (target, tuple(expansions)) if ok else None


def _playable(ws, doc, path: tuple, target: str, kinds: tuple, hint: str) -> bool:
    """Whether ``target`` is a file of one of ``kinds``; says why not at ``path``."""
    if os.path.realpath(target) == os.path.realpath(doc.path):
        ws.report(doc.diagnostic(path, "wrong-kind", f"'{doc.value_at(path)}' is this scenario "
                                 f"file itself, not a game to play: {hint}"))
        return False
    other, kind = ws.load(target)
    if other is not None and kind is None and isinstance(other.data, dict):
        kind = other.data.get("kind")  # a file with errors of its own still says what it is
    if not isinstance(kind, str) or kind not in KINDS:
        return False  # the file's own errors are reported in it
    if kind not in kinds:
        ws.report(doc.diagnostic(path, "wrong-kind", f"'{doc.value_at(path)}' is {with_article(kind)} "
                                 f"file, not {' or '.join('an ' + k for k in kinds)}: {hint}"))
        return False
    return True


def _no_edition(reference: str, folder: str) -> str:
    names = [item.name for item in plugins.installed()]
    installed = f"; installed expansions: {', '.join(names)}" if names else ""
    return (plugins.edition_not_found(reference, folder) + installed +
            " (a file is named by its path relative to the scenario file)")


def pick_variant(ws: Workspace, doc, edition):
    """The variant a scenario names (reported when the edition lacks it), or the edition."""
    variant = doc.data.get("variant")
    if variant is None:
        return edition
    if variant not in edition.variants:
        ws.report(doc.diagnostic(("variant",), "bad-value",
                                 f"the edition has no variant '{variant}'"
                                 f"{did_you_mean(variant, edition.variants)} (it has: "
                                 f"{', '.join(edition.variants) or 'none'})"))
        return None
    return edition.variants[variant]


def check_layout(ws: Workspace, doc, edition) -> None:
    """Report seats, cards and zones of a scenario that its game lacks."""
    _Checker(ws, doc, edition).run()


def card_of(item) -> str:
    """The card id of a layout item: a plain id or ``{card: ID, played_by: SEAT}``."""
    return item["card"] if isinstance(item, dict) else item


class _Checker:
    """One scenario's layout, script and checks held up against its edition."""

    def __init__(self, ws: Workspace, doc, edition) -> None:
        self.ws, self.doc, self.edition = ws, doc, edition
        self.data = doc.data
        self.players = self.data["players"]
        self.shared = {n for n, spec in edition.zones.items() if not spec.get("per_player")}
        self.per_player = {n for n, spec in edition.zones.items() if spec.get("per_player")}
        lo, hi = edition.players
        self.in_box = edition.deck_for(self.players) if lo <= self.players <= hi else {}

    def report(self, path: tuple, code: str, message: str, *, key: bool = False) -> None:
        self.ws.report(self.doc.diagnostic(path, code, message, key=key))

    def run(self) -> None:
        lo, hi = self.edition.players
        if not lo <= self.players <= hi:
            self.report(("players",), "bad-value",
                        f"{self.edition.name} is for {lo} to {hi} players, not {self.players}")
        self._layout()
        self._start()
        for index, step in enumerate(self.data["steps"]):
            path = ("steps", index)
            if "expect" in step:
                self._expect(path + ("expect",), step["expect"])
            elif "chance" in step:
                self._chance(path + ("chance",), step["chance"])
            else:
                self.seat(path + ("seat",), step["seat"])
        if "expect" in self.data:
            self._expect(("expect",), self.data["expect"])

    # -- the pieces ------------------------------------------------------------
    def seat(self, path: tuple, seat, *, key: bool = False) -> bool:
        """Whether ``seat`` (a number, or a mapping key such as "2") is a seat of the game."""
        if seat is None or int(seat) < self.players:
            return True
        self.report(path, "bad-value", f"there is no seat {int(seat)} in a {self.players}-player "
                                       "game (seats count from 0)", key=key)
        return False

    def seat_keys(self, path: tuple, mapping: dict):
        """The (path, value) of each entry of a mapping keyed by seat that names a real seat."""
        for seat, value in mapping.items():
            if self.seat(path + (seat,), seat, key=True):
                yield path + (seat,), value

    def card(self, path: tuple, card_id: str, *, key: bool = False) -> bool:
        if card_id in self.edition.cards:
            return True
        self.report(path, "unknown-card", f"the edition has no card '{card_id}'"
                                          f"{did_you_mean(card_id, self.edition.cards)}", key=key)
        return False

    def cards(self, path: tuple, ids: list) -> None:
        for index, card_id in enumerate(ids):
            self.card(path + (index,), card_id)

    def card_counts(self, path: tuple, counts: dict) -> None:
        for card_id in counts:
            self.card(path + (card_id,), card_id, key=True)

    def zone(self, path: tuple, name: str, *, per_player: bool) -> bool:
        names = self.per_player if per_player else self.shared
        if name in names:
            return True
        kind = "per-player" if per_player else "shared"
        self.report(path, "unknown-zone", f"the edition has no {kind} zone '{name}'"
                                          f"{did_you_mean(name, names)}", key=True)
        return False

    def zones(self, path: tuple, by_name: dict, check) -> None:
        """Shared zones by name, each value checked by ``check(path, value)``."""
        for name, value in by_name.items():
            if self.zone(path + (name,), name, per_player=False):
                check(path + (name,), value)

    def areas(self, path: tuple, by_name: dict, check) -> None:
        """Per-player zones by name, then by seat, each value checked by ``check``."""
        for name, by_seat in by_name.items():
            if self.zone(path + (name,), name, per_player=True):
                for where, value in self.seat_keys(path + (name,), by_seat):
                    check(where, value)

    # -- the layout --------------------------------------------------------------
    def _layout(self) -> None:
        data = self.data
        for where, items in self.seat_keys(("hands",), data.get("hands", {})):
            self._placed(where, items)
        for pile in ("draw_pile", "discard_pile", "removed"):
            self._placed((pile,), data.get(pile, []))
        self.zones(("zones",), data.get("zones", {}), self._placed)
        self.areas(("areas",), data.get("areas", {}), self._placed)
        size = len(data.get("draw_pile", []))
        for index, place in enumerate(data.get("face_up", [])):
            if isinstance(place, int) and not 0 <= place < size:
                self.report(("face_up", index), "bad-value",
                            f"place {place} is not in the draw pile, which this scenario lays out with "
                            f"{size} card{'s' if size != 1 else ''} (places 0 to {size - 1}, 0 the top): "
                            "name a place of a card in `draw_pile`" if size else
                            f"place {place} is not in the draw pile, which this scenario leaves empty: "
                            "lay the pile out in `draw_pile`, or drop `face_up`")
        if data.get("setup") == "edition":
            for key in ("start", "hands", "draw_pile", "discard_pile", "removed", "zones", "areas",
                        "face_up"):
                if key in data:
                    self.report((key,), "bad-value", f"this scenario deals by the edition's setup "
                                f"(`setup: edition`), so it cannot also set `{key}`: drop one of "
                                "the two", key=True)

    def _placed(self, path: tuple, items: list) -> None:
        for index, item in enumerate(items):
            where = path + (index,) + (("card",) if isinstance(item, dict) else ())
            card_id = card_of(item)
            if isinstance(item, dict):
                self.seat(path + (index, "played_by"), item["played_by"])
            if not self.card(where, card_id):
                continue
            if card_id not in self.in_box:  # e.g. a card a house rule removed
                self.ws.report(self.doc.diagnostic(
                    where, "not-in-deck", f"'{card_id}' is defined, but {self.edition.name} puts no "
                    f"copy of it in the deck for {self.players} players: this position cannot "
                    "happen in a real game", severity=WARNING))

    def _start(self) -> None:
        start = self.data.get("start", {})
        seat = start.get("seat", 0)
        self.seat(("start", "seat"), seat)
        out = start.get("out", [])
        for index, gone in enumerate(out):
            self.seat(("start", "out", index), gone)
        if out and set(range(self.players)) <= set(out):
            self.report(("start", "out"), "bad-value", f"every seat of the {self.players}-player "
                        "game is out, so there is no game to play: leave at least one seat in")
        elif seat in out:
            self.report(("start", "seat"), "bad-value", f"seat {seat} is to play, but `out` "
                        "lists it: start with a seat still in the game")

    def _chance(self, path: tuple, wanted) -> None:
        if isinstance(wanted, str):
            self.card(path, wanted)
        elif isinstance(wanted, list):
            self.cards(path, wanted)

    # -- the checks --------------------------------------------------------------
    def _expect(self, path: tuple, expect: dict) -> None:
        for key, wanted in expect.items():
            check = getattr(self, "_expect_" + key, None)
            if check is not None:
                check(path + (key,), wanted)

    def _expect_out(self, path, seats):
        for index, seat in enumerate(seats):
            self.seat(path + (index,), seat)

    _expect_winners = _expect_out

    def _expect_winner(self, path, seat):
        self.seat(path, seat)

    _expect_turn = _expect_winner

    def _expect_decision(self, path, wanted):
        if "seat" in wanted:
            self.seat(path + ("seat",), wanted["seat"])

    def _by_seat(self, path, wanted, check=None):
        for where, value in self.seat_keys(path, wanted):
            if check is not None:
                check(where, value)

    def _expect_owed(self, path, wanted):
        self._by_seat(path, wanted)

    _expect_hand_counts = _expect_owed
    _expect_observed = _expect_owed
    _expect_not_observed = _expect_owed

    def _expect_hands(self, path, wanted):
        self._by_seat(path, wanted, self.cards)

    _expect_hand_has = _expect_hands
    _expect_hand_lacks = _expect_hands

    def _expect_draw_pile(self, path, wanted):
        self.cards(path, wanted)

    _expect_draw_pile_top = _expect_discard_pile = _expect_discard_top = _expect_draw_pile
    _expect_removed = _expect_draw_pile

    def _expect_draw_pile_counts(self, path, wanted):
        self.card_counts(path, wanted)

    def _expect_zones(self, path, wanted):
        self.zones(path, wanted, self.cards)

    def _expect_areas(self, path, wanted):
        self.areas(path, wanted, self.cards)

    def _expect_sees(self, path, wanted):
        for where, seen in self.seat_keys(path, wanted):
            for place, card_id in seen.get("draw_pile", {}).items():
                self.card(where + ("draw_pile", place), card_id)
            self._by_seat(where + ("hands",), seen.get("hands", {}), self.cards)
            self.cards(where + ("hand",), seen.get("hand", []))

    def _expect_counts(self, path, wanted):
        for key in ("every_hand", "draw_pile", "discard_pile", "removed", "game"):
            if key in wanted:
                self.card_counts(path + (key,), wanted[key])
        self._by_seat(path + ("hands",), wanted.get("hands", {}), self.card_counts)
        self.zones(path + ("zones",), wanted.get("zones", {}), self.card_counts)
        self.areas(path + ("areas",), wanted.get("areas", {}), self.card_counts)

    def _expect_any_order(self, path, wanted):
        for key in ("draw_pile", "discard_pile"):
            self.cards(path + (key,), wanted.get(key, []))
        self.zones(path + ("zones",), wanted.get("zones", {}), self.cards)
        self.areas(path + ("areas",), wanted.get("areas", {}), self.cards)
