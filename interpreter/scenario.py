"""Scenario files: rule tests written as data (``kind: scenario``).

A scenario names an edition, deals fixed hands and a fixed draw pile, runs a
script of decisions (and, where it matters, chance outcomes), and checks what
came of it: who is out, hands, piles, whose turn it is, owed turns, what a
seat may see, what events it observed. Checks may also sit between steps.

Answers in a reaction window that the script does not give are passes, and
chance the script does not fix comes from the seed, so a script names only
what the rule under test needs. A failure says what was expected, what
happened instead, the step it happened at and the file position of that step.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

from .decisions import Chance
from .diagnostics import WARNING, did_you_mean
from .edition import compile_edition
from .events import for_seat
from .game import Game, GameError, RuleRuntimeError
from .workspace import Workspace


@dataclass
class Outcome:
    path: str
    description: str
    passed: bool
    failures: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        return "\n".join(self.failures)


class ScenarioRunner:
    """Runs scenarios, compiling each edition (and variant) once per runner."""

    def __init__(self) -> None:
        self.ws = Workspace()
        self._editions: dict = {}

    def run(self, path: str) -> Outcome:
        path = os.path.normpath(path)
        doc, kind = self.ws.load(path)
        problems = self._errors(path)
        if doc is None or problems:
            return Outcome(path, "", False, problems or [f"{path}: cannot be loaded"])
        if kind != "scenario":
            return Outcome(path, "", False, [f"{path}:1:1: this is a {kind} file, not a scenario "
                                             "(`kind: scenario`)"])
        edition = self.edition(doc)
        if edition is not None:
            check_layout(self.ws, doc, edition)
        problems = self._errors(path)
        if edition is not None and not problems:
            return _Run(self, doc, edition).outcome()
        edition_path = os.path.join(os.path.dirname(path), doc.data["edition"])
        problems += [p for p in self._errors(edition_path) if p not in problems]
        return Outcome(path, doc.data.get("description", ""), False, problems)

    def edition(self, doc):
        """The compiled edition (or variant) a scenario plays, or None (problems reported)."""
        data = doc.data
        target = os.path.normpath(os.path.join(os.path.dirname(doc.path), data["edition"]))
        key = (os.path.realpath(target), data.get("variant"))
        if key not in self._editions:
            self._editions[key] = check_scenario(self.ws, doc)
        return self._editions[key]

    def _errors(self, path: str) -> list[str]:
        real = os.path.realpath(path)
        return [d.render() for d in self.ws.diagnostics
                if d.is_error and os.path.realpath(d.path) == real]


class ScenarioFailure(Exception):
    pass


class _Run:
    """One scenario being run."""

    def __init__(self, runner: ScenarioRunner, doc, edition) -> None:
        self.runner, self.doc, self.data = runner, doc, doc.data
        self.edition = edition
        self.failures: list[str] = []
        self.state = None
        self.step_label = "setup"
        self.passed_for: list[int] = []  # seats passed for since the last scripted step

    def outcome(self) -> Outcome:
        description = self.data.get("description", "")
        try:
            self._run()
        except ScenarioFailure:
            pass
        except RuleRuntimeError as exc:
            self.failures.append(f"{self.doc.path}: {self.step_label}: the rules broke down "
                                 f"in play: {exc}")
        return Outcome(self.doc.path, description, not self.failures, self.failures)

    # -- reporting ------------------------------------------------------------
    def _fail(self, path: tuple, message: str, *, stop: bool = True) -> None:
        mark = self.doc.mark(path)
        text = f"{self.doc.path}:{mark.line}:{mark.column}: {self.step_label}: {message}"
        self.failures.append(text)
        if stop:
            if self.state is not None:
                self.failures.append(self._recent())
            raise ScenarioFailure()

    def _recent(self) -> str:
        from .events import dumps
        events = [e for e in self.state.events if e["type"] not in ("decision",)][-8:]
        return "  last events:\n" + "\n".join("    " + dumps(e) for e in events)

    # -- setting up -----------------------------------------------------------
    def _run(self) -> None:
        players = self.data["players"]
        try:
            game = Game(self.edition, players)
        except GameError as exc:
            self._fail(("players",), str(exc))
        by_edition = self.data.get("setup") == "edition"
        self.state = game.new_state(self.data.get("seed", 0), explicit_chance=True,
                                    layout=None if by_edition else self._layout)
        steps = self.data["steps"]
        for index, step in enumerate(steps):
            self.step_label = f"step {index + 1}"
            self._step(index, step)
        self.step_label = "at the end"
        if "expect" in self.data:
            self._settle()
            self._expect(("expect",), self.data["expect"])

    def _layout(self, table) -> None:
        cards = self.edition.cards
        for seat, ids in sorted(self.data.get("hands", {}).items(), key=lambda kv: int(kv[0])):
            for card_id in ids:
                table.new_card(cards[card_id], table.hands[int(seat)])
        for zone in ("draw_pile", "discard_pile", "removed"):
            for card_id in self.data.get(zone, []):
                table.new_card(cards[card_id], getattr(table, zone))
        for name, ids in self.data.get("zones", {}).items():
            for card_id in ids:
                table.new_card(cards[card_id], table.extra[name])
        for name, by_seat in self.data.get("areas", {}).items():
            for seat, ids in by_seat.items():
                for card_id in ids:
                    table.new_card(cards[card_id], table.areas[name][int(seat)])
        for index in self.data.get("face_up", []):
            inst = table.draw_pile.cards[index]
            inst.face_up, inst.known = True, table.everyone
        start = self.data.get("start", {})
        table.direction = start.get("direction", 1)
        for seat in start.get("out", []):
            table.alive[seat] = False
        seat = start.get("seat", 0)
        owed = start.get("owed", 1)
        table.current = seat
        table.owed[seat] = owed
        table.attacked[seat] = start.get("attacked", owed > 1)

    # -- steps ----------------------------------------------------------------
    def _step(self, index: int, step: dict) -> None:
        path = ("steps", index)
        if "expect" in step:
            if "decision" not in step["expect"]:
                self._settle()
            self._expect(path + ("expect",), step["expect"])
        elif "chance" in step:
            self._chance(path, step["chance"])
        else:
            self._decide(path, step["seat"], step["do"])

    def _settle(self, seat: int | None = None) -> None:
        """Pass unscripted answers and resolve unscripted chance until someone else must act."""
        state = self.state
        while True:
            pending = state.decision()
            if pending is None:
                return
            if type(pending) is Chance:
                state.apply_action(state.sample_chance())
            elif pending.kind == "answer" and pending.seat != seat:
                self.passed_for.append(pending.seat)
                state.apply_action("pass")
            else:
                return

    def _decide(self, path: tuple, seat: int, option) -> None:
        self._settle(seat)
        pending = self.state.decision()
        label = f"seat {seat} `{option}`"
        if pending is None:
            self._fail(path, f"the script has {label}, but the game is over "
                             f"(winner: {self.state.winner})")
        if pending.seat != seat:
            passed = ""
            if self.passed_for:
                seats = ", ".join(str(s) for s in dict.fromkeys(self.passed_for))
                passed = f"; the script gave no answer for seat {seats}, so they passed"
            self._fail(path, f"the script has {label}, but seat {pending.seat} must decide now "
                             f"({pending.kind}: {_options(pending.options)}){passed}")
        if pending.kind == "rearrange" and isinstance(option, list):
            option = _order_of(option, pending.info.get("cards", []))
        if option not in pending.options or type(option) is not type(
                pending.options[pending.options.index(option)]):
            self._fail(path + ("do",), f"`{option}` is not a legal option for seat {seat} now "
                                       f"({pending.kind}: {_options(pending.options)})")
        self.state.apply_action(option)
        self.passed_for = []

    def _chance(self, path: tuple, wanted) -> None:
        state = self.state
        while True:
            pending = state.decision()
            if pending is None:
                self._fail(path, "the script fixes a chance outcome, but the game is over")
            if type(pending) is Chance:
                break
            if pending.kind == "answer":
                state.apply_action("pass")
                continue
            self._fail(path, f"the script fixes a chance outcome, but seat {pending.seat} must "
                             f"decide first ({pending.kind}: {_options(pending.options)})")
        candidates = pending.info.get("cards", [])
        if pending.kind == "pick":
            if isinstance(wanted, str):
                if wanted not in candidates:
                    self._fail(path + ("chance",), f"the random pick is among {candidates}: "
                                                   f"'{wanted}' is not one of them")
                wanted = candidates.index(wanted)
            if not isinstance(wanted, int) or not 0 <= wanted < pending.size:
                self._fail(path + ("chance",), f"a random pick among {pending.size} needs a card id "
                                               f"or a place from 0 to {pending.size - 1}")
            state.apply_action(wanted)
            return
        if not isinstance(wanted, list) or Counter(wanted) != Counter(candidates):
            self._fail(path + ("chance",), f"a shuffle of {candidates} needs the same cards in a "
                                           "new order, top first")
        order, used = [], set()
        for card_id in wanted:
            index = next(i for i, c in enumerate(candidates) if c == card_id and i not in used)
            used.add(index)
            order.append(index)
        state.apply_action(order)

    # -- checks ---------------------------------------------------------------
    def _expect(self, path: tuple, expect: dict) -> None:
        before = len(self.failures)
        for key, wanted in expect.items():
            check = getattr(self, "_check_" + key)
            check(path + (key,), wanted)
        if len(self.failures) > before:
            self.failures.append(self._recent())
            raise ScenarioFailure()

    def _mismatch(self, path: tuple, what: str, wanted, got) -> None:
        self._fail(path, f"{what}: expected {wanted}, got {got}", stop=False)

    def _check_out(self, path, wanted):
        got = sorted(s for s, alive in enumerate(self.state.table.alive) if not alive)
        if sorted(wanted) != got:
            self._mismatch(path, "seats out of the game", sorted(wanted), got)

    def _check_winner(self, path, wanted):
        if self.state.winner != wanted:
            self._mismatch(path, "winner", wanted, self.state.winner)

    def _check_winners(self, path, wanted):
        if sorted(wanted) != sorted(self.state.winners):
            self._mismatch(path, "winners", sorted(wanted), sorted(self.state.winners))

    def _check_finished(self, path, wanted):
        if self.state.is_terminal() != wanted:
            self._mismatch(path, "game over", wanted, self.state.is_terminal())

    def _check_turn(self, path, wanted):
        if self.state.table.current != wanted:
            self._mismatch(path, "whose turn it is", f"seat {wanted}",
                           f"seat {self.state.table.current}")

    def _check_owed(self, path, wanted):
        for seat, owed in wanted.items():
            got = self.state.table.owed[int(seat)]
            if got != owed:
                self._mismatch(path + (seat,), f"turns owed by seat {seat}", owed, got)

    def _hand(self, seat) -> list[str]:
        return [c.id for c in self.state.table.hands[int(seat)].cards]

    def _check_hands(self, path, wanted):
        for seat, cards in wanted.items():
            if Counter(cards) != Counter(self._hand(seat)):
                self._mismatch(path + (seat,), f"hand of seat {seat}", sorted(cards),
                               sorted(self._hand(seat)))

    def _check_hand_counts(self, path, wanted):
        for seat, count in wanted.items():
            if len(self._hand(seat)) != count:
                self._mismatch(path + (seat,), f"cards in the hand of seat {seat}", count,
                               f"{len(self._hand(seat))} {sorted(self._hand(seat))}")

    def _check_hand_has(self, path, wanted):
        for seat, cards in wanted.items():
            if Counter(cards) - Counter(self._hand(seat)):
                self._mismatch(path + (seat,), f"hand of seat {seat}", f"at least {sorted(cards)}",
                               sorted(self._hand(seat)))

    def _check_hand_lacks(self, path, wanted):
        for seat, cards in wanted.items():
            present = sorted(set(cards) & set(self._hand(seat)))
            if present:
                self._mismatch(path + (seat,), f"hand of seat {seat}", f"none of {sorted(cards)}",
                               sorted(self._hand(seat)))

    def _pile(self, name: str) -> list[str]:
        return [c.id for c in getattr(self.state.table, name).cards]

    def _check_draw_pile(self, path, wanted):
        if self._pile("draw_pile") != wanted:
            self._mismatch(path, "draw pile (top first)", wanted, self._pile("draw_pile"))

    def _check_draw_pile_top(self, path, wanted):
        got = self._pile("draw_pile")[:len(wanted)]
        if got != wanted:
            self._mismatch(path, "top of the draw pile", wanted, got)

    def _check_draw_pile_counts(self, path, wanted):
        got = Counter(self._pile("draw_pile"))
        for card_id, count in wanted.items():
            if got[card_id] != count:
                self._mismatch(path + (card_id,), f"copies of '{card_id}' in the draw pile", count,
                               got[card_id])

    def _check_draw_pile_count(self, path, wanted):
        if len(self._pile("draw_pile")) != wanted:
            self._mismatch(path, "cards in the draw pile", wanted, len(self._pile("draw_pile")))

    def _check_discard_pile(self, path, wanted):
        if self._pile("discard_pile") != wanted:
            self._mismatch(path, "discard pile (top first)", wanted, self._pile("discard_pile"))

    def _check_discard_top(self, path, wanted):
        got = self._pile("discard_pile")[:len(wanted)]
        if got != wanted:
            self._mismatch(path, "top of the discard pile", wanted, got)

    def _check_removed(self, path, wanted):
        if Counter(wanted) != Counter(self._pile("removed")):
            self._mismatch(path, "cards out of the game", sorted(wanted), sorted(self._pile("removed")))

    def _check_zones(self, path, wanted):
        for name, ids in wanted.items():
            got = [c.id for c in self.state.table.extra[name].cards]
            if got != ids:
                self._mismatch(path + (name,), f"zone {name} (top first)", ids, got)

    def _check_areas(self, path, wanted):
        for name, by_seat in wanted.items():
            for seat, ids in by_seat.items():
                got = [c.id for c in self.state.table.areas[name][int(seat)].cards]
                if got != ids:
                    self._mismatch(path + (name, seat), f"{name} of seat {seat}", ids, got)

    def _check_direction(self, path, wanted):
        if self.state.table.direction != wanted:
            self._mismatch(path, "direction of play", wanted, self.state.table.direction)

    def _check_draw_pile_face_up(self, path, wanted):
        got = [i for i, c in enumerate(self.state.table.draw_pile.cards) if c.face_up]
        if got != wanted:
            self._mismatch(path, "face-up places in the draw pile", wanted, got)

    def _check_decision(self, path, wanted):
        pending = self.state.decision()
        if pending is None or type(pending) is Chance:
            self._mismatch(path, "the pending decision", wanted,
                           "none (the game is over)" if pending is None else "a chance outcome")
            return
        if "seat" in wanted and pending.seat != wanted["seat"]:
            self._mismatch(path + ("seat",), "the seat deciding", wanted["seat"], pending.seat)
        if "kind" in wanted and pending.kind != wanted["kind"]:
            self._mismatch(path + ("kind",), "the kind of decision", wanted["kind"], pending.kind)
        if "options" in wanted and list(pending.options) != wanted["options"]:
            self._mismatch(path + ("options",), "the options", wanted["options"], pending.options)
        for option in wanted.get("includes", []):
            if option not in pending.options:
                self._mismatch(path + ("includes",), "an option", f"`{option}` among the options",
                               pending.options)
        for option in wanted.get("excludes", []):
            if option in pending.options:
                self._mismatch(path + ("excludes",), "an option", f"no `{option}`", pending.options)

    def _check_sees(self, path, wanted):
        for seat, seen in wanted.items():
            view = self.state.view(int(seat))
            if "draw_pile" in seen:
                want = {int(k): v for k, v in seen["draw_pile"].items()}
                if view.draw_pile_known() != want:
                    self._mismatch(path + (seat, "draw_pile"), f"draw pile places seat {seat} knows",
                                   want, view.draw_pile_known())
            for other, cards in seen.get("hands", {}).items():
                got = view.known_in_hand(int(other))
                if sorted(cards) != got:
                    self._mismatch(path + (seat, "hands", other),
                                   f"cards of seat {other} that seat {seat} knows", sorted(cards), got)
            if "hand" in seen and Counter(seen["hand"]) != Counter(view.hand):
                self._mismatch(path + (seat, "hand"), f"seat {seat}'s own hand", sorted(seen["hand"]),
                               sorted(view.hand))

    def _observed(self, seat: int) -> list[dict]:
        seen = (for_seat(e, seat) for e in self.state.events)
        return [e for e in seen if e is not None]

    def _check_observed(self, path, wanted):
        for seat, patterns in wanted.items():
            events = iter(self._observed(int(seat)))
            for index, pattern in enumerate(patterns):
                if not any(_matches(event, pattern) for event in events):
                    self._mismatch(path + (seat, index), f"events seat {seat} observed",
                                   f"{pattern} (after the ones listed before it)", "no such event")
                    break

    def _check_not_observed(self, path, wanted):
        for seat, patterns in wanted.items():
            events = self._observed(int(seat))
            for index, pattern in enumerate(patterns):
                hit = next((e for e in events if _matches(e, pattern)), None)
                if hit is not None:
                    self._mismatch(path + (seat, index), f"events seat {seat} observed",
                                   f"nothing like {pattern}", hit)


def check_scenario(ws: Workspace, doc):
    """Compile the edition a scenario names; problems go to ``ws``. None when it fails."""
    data = doc.data
    target = os.path.normpath(os.path.join(os.path.dirname(doc.path), data["edition"]))
    if not os.path.isfile(target):
        ws.report(doc.diagnostic(("edition",), "unknown-file",
                                 f"the edition '{data['edition']}' does not exist "
                                 "(paths are relative to the scenario file)"))
        return None
    edition = compile_edition(ws, target)
    if edition is None:
        return None
    variant = data.get("variant")
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
    """Report seats and card ids of a scenario's layout that the edition lacks."""
    data, players = doc.data, doc.data["players"]
    lo, hi = edition.players
    if not lo <= players <= hi:
        ws.report(doc.diagnostic(("players",), "bad-value",
                                 f"{edition.name} is for {lo} to {hi} players, not {players}"))
    places = [(("hands", seat), cards) for seat, cards in data.get("hands", {}).items()]
    places += [((zone,), data[zone]) for zone in ("draw_pile", "discard_pile", "removed") if zone in data]
    shared = {n for n, spec in edition.zones.items() if not spec.get("per_player")}
    for name, cards in data.get("zones", {}).items():
        if name not in shared:
            ws.report(doc.diagnostic(("zones", name), "unknown-zone", f"the edition has no shared "
                                     f"zone '{name}'{did_you_mean(name, shared)}", key=True))
        else:
            places.append((("zones", name), cards))
    for name, by_seat in data.get("areas", {}).items():
        if name not in edition.zones or not edition.zones[name].get("per_player"):
            ws.report(doc.diagnostic(("areas", name), "unknown-zone", f"the edition has no per-player "
                                     f"zone '{name}'", key=True))
            continue
        places += [(("areas", name, seat), cards) for seat, cards in by_seat.items()]
    for path, cards in places:
        if path[0] in ("hands", "areas") and int(path[-1]) >= players:
            ws.report(doc.diagnostic(path, "bad-value", f"there is no seat {path[1]} in a "
                                     f"{players}-player game (seats count from 0)", key=True))
        in_box = edition.deck_for(players) if lo <= players <= hi else {}
        for index, card_id in enumerate(cards):
            if card_id not in edition.cards:
                ws.report(doc.diagnostic(path + (index,), "unknown-card",
                                         f"the edition has no card '{card_id}'"
                                         f"{did_you_mean(card_id, edition.cards)}"))
            elif card_id not in in_box:  # e.g. a card a house rule removed
                ws.report(doc.diagnostic(path + (index,), "not-in-deck",
                                         f"'{card_id}' is defined, but {edition.name} puts no copy of "
                                         f"it in the deck for {players} players: this position "
                                         "cannot happen in a real game", severity=WARNING))
    if data.get("setup") == "edition":
        for key in ("start", "hands", "draw_pile", "discard_pile", "removed", "zones", "areas", "face_up"):
            if key in data:
                ws.report(doc.diagnostic((key,), "bad-value",
                                         f"this scenario deals by the edition's setup (`setup: "
                                         f"edition`), so it cannot also set `{key}`: drop one of "
                                         "the two", key=True))
    start = data.get("start", {})
    for key, seats in (("seat", [start.get("seat", 0)]), ("out", start.get("out", []))):
        for seat in seats:
            if seat >= players:
                ws.report(doc.diagnostic(("start", key), "bad-value", f"there is no seat {seat} in a "
                                         f"{players}-player game (seats count from 0)"))


def _order_of(wanted: list, cards: list) -> list:
    """A rearrange option from card ids in their new order (top first), or the option itself."""
    if not all(isinstance(item, str) for item in wanted):
        return wanted
    left, order = list(enumerate(cards)), []
    for card_id in wanted:
        index = next((i for i, c in left if c == card_id), None)
        if index is None:
            return wanted  # not a reordering of these cards: reported as an illegal option
        left.remove((index, card_id))
        order.append(index)
    return order


def _matches(event: dict, pattern: dict) -> bool:
    return all(key in event and event[key] == value for key, value in pattern.items())


def _options(options: list) -> str:
    shown = ", ".join(f"`{o}`" for o in options[:12])
    return shown + (f" and {len(options) - 12} more" if len(options) > 12 else "")


def find_scenarios(paths: list[str]) -> list[str]:
    """Scenario files named directly or found below folders (*.yaml), sorted."""
    from .validate import expand
    return expand(paths)

