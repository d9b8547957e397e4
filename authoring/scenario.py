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
from typing import NamedTuple

from ..interpreter.engine.decisions import Chance, Decision
from ..interpreter.engine.game import Game, GameError, RuleRuntimeError
from ..interpreter.lang.diagnostics import with_article
from ..interpreter.rules.edition import compile_edition
from ..interpreter.rules.scenario_check import card_of, check_layout, check_scenario, pick_variant, references
from ..interpreter.rules.workspace import Workspace
from .scenario_expect import Expectations
from .upgrade import ANSWERED_ALONE, EXPECTED_ALONE, Deprecation

__all__ = ["Outcome", "ScenarioRunner", "check_layout", "check_scenario", "matches_keyword"]


def matches_keyword(expression: str, path: str, description: str = "") -> bool:
    """Whether a scenario is selected by ``-k``: words joined by ``and``/``or``, each
    maybe after ``not``, matched case-insensitively against the file name (without
    its folder) and the scenario's description, as pytest's ``-k`` does for names."""
    haystack = (os.path.basename(path) + " " + description).lower()
    alternatives = [part.split(" and ") for part in f" {expression.lower()} ".split(" or ")]
    for words in alternatives:
        if all(_term(word.strip(), haystack) for word in words):
            return True
    return False


def _term(word: str, haystack: str) -> bool:
    negated = word.startswith("not ")
    word = word[4:].strip() if negated else word
    return (word not in haystack) if negated else (word in haystack)


@dataclass
class Outcome:
    path: str
    description: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    #: deprecations met on the way, each `file:line:col: warning: ... [code]`
    warnings: list[str] = field(default_factory=list)
    #: the same, as `kittens upgrade` rewrites them
    deprecations: list = field(default_factory=list)

    @property
    def message(self) -> str:
        return "\n".join(self.failures)


class ScenarioRunner:
    """Runs scenarios, compiling each edition (with its expansions) once per runner."""

    def __init__(self) -> None:
        self.ws = Workspace()
        self._editions: dict = {}  # (edition, expansions) -> (compiled or None, its errors)

    def run(self, path: str) -> Outcome:
        path = os.path.normpath(path)
        doc, kind = self.ws.load(path)
        problems = self._errors(path)
        if doc is None or problems:
            return Outcome(path, "", False, problems or [f"{path}: cannot be loaded"])
        if kind != "scenario":
            return Outcome(path, "", False, [f"{path}:1:1: this is {with_article(kind)} file, not a scenario "
                                             "(`kind: scenario`)"])
        edition, related = self.edition(doc)
        if edition is not None:
            check_layout(self.ws, doc, edition)
        problems = self._errors(path)
        if edition is not None and not problems:
            return _Run(self, doc, edition).outcome()
        problems += [p for p in related if p not in problems]
        if not problems:  # e.g. errors reported once, for an earlier scenario of this runner
            mark = doc.mark(("edition",))
            problems = [f"{path}:{mark.line}:{mark.column}: the edition '{doc.data['edition']}' "
                        "cannot be compiled: `kittens validate` it to see why"]
        return Outcome(path, doc.data.get("description", ""), False, problems)

    def description(self, path: str) -> str:
        """The scenario's `description` ('' when the file cannot be read)."""
        doc, _kind = self.ws.load(os.path.normpath(path))
        data = getattr(doc, "data", None)
        return str(data.get("description", "")) if isinstance(data, dict) else ""

    def edition(self, doc) -> tuple:
        """The compiled edition (or variant) a scenario plays, or None, and the errors of
        the files it names; problems at the scenario's own lines go to the workspace."""
        found = references(self.ws, doc)
        if found is None:
            named = [self.ws.load(p) for p in _named_files(doc) if not self.ws.outside(p)]
            return None, [e for d, _k in named if d is not None for e in self._errors(d.path)]
        target, expansions = found
        key = (os.path.realpath(target), tuple(os.path.realpath(p) for p in expansions))
        if key not in self._editions:
            before = {d.render() for d in self.ws.diagnostics if d.is_error}
            edition = compile_edition(self.ws, target, expansions)
            errors = [e for p in (target, *expansions) for e in self._errors(p)]
            errors += [r for d in self.ws.diagnostics if d.is_error
                       for r in [d.render()] if r not in before and r not in errors]
            self._editions[key] = (edition, errors)
        edition, errors = self._editions[key]
        return (None if edition is None else pick_variant(self.ws, doc, edition)), errors

    def _errors(self, path: str) -> list[str]:
        real = os.path.realpath(path)
        return [d.render() for d in self.ws.diagnostics
                if d.is_error and os.path.realpath(d.path) == real]


def _named_files(doc) -> list[str]:
    """The files a scenario's `edition` and `with` name that exist, as paths."""
    from ..interpreter.rules import plugins
    folder = os.path.dirname(doc.path)
    found = [plugins.locate_edition(doc.data["edition"], folder)]
    found += [plugins.locate(name, folder) for name in doc.data.get("with", [])]
    return [p for p in found if p is not None]


class ScenarioFailure(Exception):
    pass


class _Run(Expectations):
    """One scenario being run."""

    def __init__(self, runner: ScenarioRunner, doc, edition) -> None:
        self.runner, self.doc, self.data = runner, doc, doc.data
        self.edition = edition
        self.failures: list[str] = []
        self.state = None
        self.step_label = "setup"
        self.passed_for: list[int] = []  # seats passed for since the last scripted step
        self.deprecations: list[Deprecation] = []

    def outcome(self) -> Outcome:
        description = self.data.get("description", "")
        try:
            self._run()
        except ScenarioFailure:
            pass
        except RuleRuntimeError as exc:
            self.failures.append(f"{self.doc.path}: {self.step_label}: the rules broke down "
                                 f"in play: {exc}")
        return Outcome(self.doc.path, description, not self.failures, self.failures,
                       [d.render(self.doc) for d in self.deprecations], self.deprecations)

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
        from ..interpreter.engine.logwriter import dumps
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
        # the choices the engine makes itself (one candidate) since the last scripted step:
        # a script written when they were asked may still answer them (primitives.chosen_alone)
        self.state.alone = []
        steps = self.data["steps"]
        for index, step in enumerate(steps):
            self.step_label = f"step {index + 1}"
            self._step(index, step)
        self.step_label = "at the end"
        if "expect" in self.data:
            self._settle()
            self._expect(("expect",), self.data["expect"])

    def _layout(self, table) -> None:
        data = self.data
        for seat, items in sorted(data.get("hands", {}).items(), key=lambda kv: int(kv[0])):
            self._place(table, items, table.hands[int(seat)])
        for zone in ("draw_pile", "discard_pile", "removed"):
            self._place(table, data.get(zone, []), getattr(table, zone))
        for name, items in data.get("zones", {}).items():
            self._place(table, items, table.extra[name])
        for name, by_seat in data.get("areas", {}).items():
            for seat, items in by_seat.items():
                self._place(table, items, table.areas[name][int(seat)])
        for name, by_seat in data.get("counters", {}).items():
            if name not in table.counters:
                self._fail(("counters", name), f"the edition has no counter '{name}' "
                                               f"(its counters: {', '.join(table.counters) or 'none'})")
            for seat, value in by_seat.items():
                table.counters[name][int(seat)] = value
        if "teams" in data:
            self._teams(table, data["teams"])
        for at, index in enumerate(data.get("face_up", [])):
            if not 0 <= index < len(table.draw_pile.cards):
                self._fail(("face_up", at), f"place {index} is not in the draw pile "
                                            f"({len(table.draw_pile.cards)} cards)")
            inst = table.draw_pile.cards[index]
            inst.face_up, inst.known = True, table.everyone
        start = data.get("start", {})
        table.direction = start.get("direction", 1)
        for seat in start.get("out", []):
            table.alive[seat] = False
        seat = start.get("seat", 0)
        owed = start.get("owed", 1)
        table.current = seat
        table.owed[seat] = owed
        table.attacked[seat] = start.get("attacked", owed > 1)

    def _teams(self, table, by_seat: dict) -> None:
        """Lay out who is on which team (`teams:`): every seat, each a team the edition has."""
        if not table.teams:
            self._fail(("teams",), "the edition plays no teams (its `teams:` is not set)")
        seats = {int(seat): team for seat, team in by_seat.items()}
        if sorted(seats) != list(range(table.players)):
            self._fail(("teams",), f"give every seat its team: seats 0 to {table.players - 1}")
        for seat, team in seats.items():
            if not 0 <= team < table.teams:
                self._fail(("teams", str(seat)), f"team {team} is not one of the edition's "
                                                 f"{table.teams} (0 to {table.teams - 1})")
        table.team_list = [seats[seat] for seat in range(table.players)]  # a new list: never changed in place

    def _place(self, table, items: list, zone) -> None:
        """Put layout items (card ids, or ``{card, played_by}``) into ``zone``, top first."""
        for item in items:
            inst = table.new_card(self.edition.cards[card_of(item)], zone)
            if isinstance(item, dict):
                inst.played_by = item["played_by"]

    # -- steps ----------------------------------------------------------------
    def _step(self, index: int, step: dict) -> None:
        path = ("steps", index)
        if "expect" in step:
            expect = step["expect"]
            if "decision" in expect and self._made_alone(path + ("expect", "decision"), expect["decision"]):
                expect = {key: value for key, value in expect.items() if key != "decision"}
            if "decision" not in expect:
                self._settle()
            self._expect(path + ("expect",), expect)
        elif "chance" in step:
            self._chance(path, step["chance"])
        elif step.get("refused"):
            self._refused(path, step["seat"], step["do"])
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
        label = f"seat {seat} {_shown(option)}"
        if pending is not None and pending.seat != seat and not self._alone_for(seat, option):
            passed = ""
            if self.passed_for:
                seats = ", ".join(str(s) for s in dict.fromkeys(self.passed_for))
                passed = f"; the script gave no answer for seat {seats}, so they passed"
            self._fail(path, f"the script has {label}, but seat {pending.seat} must decide now "
                             f"({pending.kind}: {_options(pending.options)}){passed}")
        legal = _legal(pending, option) if pending is not None and pending.seat == seat else None
        if legal is None and self._answered_alone(path, seat, option):
            return
        if pending is None:
            self._fail(path, f"the script has {label}, but the game is over "
                             f"(winner: {self.state.winner})")
        if legal is None:
            self._fail(path + ("do",), f"{_shown(option)} is not a legal option for seat {seat} now "
                                       f"({pending.kind}: {_options(pending.options)})"
                                       f"{_how_to_write(option)}")
        self.state.alone.clear()  # what was chosen alone before this decision stays unanswered
        self.state.apply_action(legal)
        self.passed_for = []

    # -- answers to choices the engine now makes by itself (kittens upgrade removes them)
    def _alone_for(self, seat: int, option) -> tuple | None:
        """The choice made alone since the last step that ``option`` by ``seat`` answers."""
        for made in self.state.alone:
            by, kind, options = made
            if by == seat and _legal(_Asked(kind, options), option) is not None:
                return made
        return None

    def _answered_alone(self, path: tuple, seat: int, option) -> bool:
        """Whether the step answers a choice the engine made itself: accepted, warned."""
        made = self._alone_for(seat, option)
        if made is None:
            return False
        self.state.alone.remove(made)
        self.deprecations.append(Deprecation(
            path, ANSWERED_ALONE,
            f"seat {seat} is no longer asked this {made[1]} (its only option, {_text(made[2][0])}, is "
            "taken by itself): remove the step (`kittens upgrade` does)"))
        return True

    def _made_alone(self, path: tuple, wanted: dict) -> bool:
        """Whether an expected decision is one the engine made itself: accepted, warned."""
        pending = self.state.decision()
        if isinstance(pending, Decision) and wanted.get("seat", pending.seat) == pending.seat and \
                wanted.get("kind", pending.kind) == pending.kind:
            return False  # the decision asked now is the one the step means
        for by, kind, options in self.state.alone:
            if wanted.get("seat", by) == by and wanted.get("kind", kind) == kind and \
                    list(wanted.get("options", options)) == list(options):
                self.deprecations.append(Deprecation(
                    path[:2], EXPECTED_ALONE,
                    f"seat {by} is no longer asked this {kind} (its only option is taken by "
                    "itself): remove the check (`kittens upgrade` removes the step)"))
                return True
        return False

    def _refused(self, path: tuple, seat: int, option) -> None:
        """A step that must not be taken: the seat is not offered the option now.

        Unscripted answers of other seats pass first, as for any step; nothing is played."""
        self._settle(seat)
        pending = self.state.decision()
        if pending is None or pending.seat != seat or _legal(pending, option) is None:
            return
        self._fail(path + ("do",), f"the script expects seat {seat} {_shown(option)} to be refused, but "
                                   f"it is a legal option now ({pending.kind}: "
                                   f"{_options(pending.options)})")

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
        path += ("chance",)
        outcome, problem = _chance_outcome(pending, wanted)
        if problem is not None:
            self._fail(path, problem)
        state.alone.clear()
        state.apply_action(outcome)

    # -- checks ---------------------------------------------------------------
    def _expect(self, path: tuple, expect: dict) -> None:
        before = len(self.failures)
        for key, wanted in expect.items():
            check = getattr(self, "_check_" + key)
            check(path + (key,), wanted)
        if len(self.failures) > before:
            self.failures.append(self._recent())
            raise ScenarioFailure()


class _Asked(NamedTuple):
    """A decision as it would have been asked (kind and options), to match a step to."""

    kind: str
    options: list
    info: dict = {}


def _legal(pending, option):
    """``option`` as the engine takes it when it is legal for ``pending``, else None."""
    if pending.kind == "rearrange" and isinstance(option, list):
        option = _order_of(option, pending.info.get("cards", []))
    for legal in pending.options:  # True is not 1 here: the option's type must match too
        if legal == option and type(legal) is type(option):
            return option
    if isinstance(option, str):  # `do: "0"` for the place 0, `do: "true"` for yes
        same_text = [legal for legal in pending.options
                     if not isinstance(legal, str) and _text(legal) == option.strip()]
        if len(same_text) == 1:
            return same_text[0]
    return None


def _text(option) -> str:
    """An option as a scenario writes it: `true`/`false`, numbers, card ids, lists."""
    if isinstance(option, bool):
        return "true" if option else "false"
    if isinstance(option, list):
        return "[" + ", ".join(_text(item) for item in option) + "]"
    return str(option)


def _shown(option) -> str:
    """``option`` quoted as written; a string that reads like a number or true/false keeps
    its quotes, so the message shows why it differs from the option."""
    if isinstance(option, str) and _bare(option) is not None:
        return f'`"{option}"` (a string)'
    return f"`{_text(option)}`"


def _bare(text: str):
    """The number or true/false a string reads as without quotes, else None."""
    word = text.strip().lower()
    if word in ("true", "false"):
        return word == "true"
    try:
        return int(word)
    except ValueError:
        return None


def _how_to_write(option) -> str:
    """A hint for a quoted number or true/false that matched no option."""
    value = _bare(option) if isinstance(option, str) else None
    if value is None:
        return ""
    what = "true or false" if isinstance(value, bool) else "a number"
    return f"; write do: {_text(value)} ({what}, without quotes), not \"{option}\""


def _chance_outcome(pending: Chance, wanted) -> tuple:
    """(the outcome to apply, None), or (None, what is wrong with ``wanted``)."""
    candidates = pending.info.get("cards", [])
    if pending.kind == "pick" and "numbers" in pending.info:  # random_number: the number itself
        low, high = pending.info["numbers"]
        if isinstance(wanted, bool) or not isinstance(wanted, int) or not low <= wanted <= high:
            return None, (f"the next chance event is a random number from {low} to {high}: give the "
                          f"number itself (`chance: {high}`), not {wanted!r}")
        return wanted - low, None
    if pending.kind == "pick":
        what = f"the next chance event is a random pick of one card among {candidates}"
        if isinstance(wanted, str):
            if wanted not in candidates:
                return None, f"{what}: '{wanted}' is not one of them"
            return candidates.index(wanted), None
        if isinstance(wanted, list):
            return None, (f"{what}: give one card id or place, not a list (a list is the new "
                          "order of a shuffle)")
        if not 0 <= wanted < pending.size:
            return None, (f"{what}: {wanted} is not a place among them (0 to {pending.size - 1}); "
                          "give a place or a card id")
        return wanted, None
    what = f"the next chance event is a shuffle of {pending.info.get('zone', 'a zone')} ({candidates})"
    if not isinstance(wanted, list):
        return None, (f"{what}: give the same cards in their new order, top first, not "
                      f"{wanted!r}")
    missing, extra = Counter(candidates) - Counter(wanted), Counter(wanted) - Counter(candidates)
    if missing or extra:
        parts = ([f"lacks {sorted(missing.elements())}"] if missing else []) + \
            ([f"has {sorted(extra.elements())} that it does not hold"] if extra else [])
        return None, (f"{what}: the order given {' and '.join(parts)}; give the same cards in "
                      "their new order, top first")
    order, used = [], set()
    for card_id in wanted:
        index = next(i for i, c in enumerate(candidates) if c == card_id and i not in used)
        used.add(index)
        order.append(index)
    return order, None


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


def _options(options: list) -> str:
    shown = ", ".join(f"`{_text(o)}`" for o in options[:12])
    return shown + (f" and {len(options) - 12} more" if len(options) > 12 else "")
