"""The checks of a scenario's `expect`: each key of it is one method here.

:class:`Expectations` is a mixin of the scenario run (scenario.py): it reads
``self.state`` (the game) and reports through ``self._fail``. A check that does
not hold adds a failure naming the file position of the key that failed, what
it expected and what the game holds; every check of one `expect` is tried
before the script stops, so one run shows all that is wrong.
"""

from __future__ import annotations

from collections import Counter

from ..interpreter.engine.decisions import Chance
from ..interpreter.engine.events import for_seat


class Expectations:
    """``_check_<key>`` for each key of `expect` (see docs/scenarios.md)."""

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

    def _check_counters(self, path, wanted):
        counters = self.state.table.counters
        for name, by_seat in wanted.items():
            if name not in counters:
                self._fail(path + (name,), f"the edition has no counter '{name}' "
                                           f"(its counters: {', '.join(counters) or 'none'})", stop=False)
                continue
            for seat, value in by_seat.items():
                got = counters[name][int(seat)]
                if got != value:
                    self._mismatch(path + (name, seat), f"counter '{name}' of seat {seat}", value, got)

    def _check_scores(self, path, wanted):
        got = self.state.scores()
        for seat, value in wanted.items():
            if got[int(seat)] != value:
                self._mismatch(path + (seat,), f"score of seat {seat}", value, got[int(seat)])

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

    def _places(self, path: tuple, wanted: dict) -> list:
        """(path, what, card ids there, what is wanted there) for each place a `counts` or
        `any_order` check names."""
        table, found = self.state.table, []
        if "every_hand" in wanted:  # a seat out of the game holds no hand that counts
            found += [(path + ("every_hand",), f"the hand of seat {seat}", self._hand(seat),
                       wanted["every_hand"]) for seat in range(table.players) if table.alive[seat]]
        for seat, want in wanted.get("hands", {}).items():
            found.append((path + ("hands", seat), f"the hand of seat {seat}", self._hand(seat), want))
        for pile in ("draw_pile", "discard_pile", "removed"):
            if pile in wanted:
                found.append((path + (pile,), f"the {pile.replace('_', ' ')}", self._pile(pile),
                              wanted[pile]))
        for name, want in wanted.get("zones", {}).items():
            found.append((path + ("zones", name), f"zone {name}",
                          [c.id for c in table.extra[name].cards], want))
        for name, by_seat in wanted.get("areas", {}).items():
            found += [(path + ("areas", name, seat), f"{name} of seat {seat}",
                       [c.id for c in table.areas[name][int(seat)].cards], want)
                      for seat, want in by_seat.items()]
        if "game" in wanted:
            found.append((path + ("game",), "the whole game (all but the removed cards)",
                          [c.id for zone in table.zones() if zone is not table.removed
                           for c in zone.cards], wanted["game"]))
        return found

    def _check_counts(self, path, wanted):
        for where, what, ids, counts in self._places(path, wanted):
            got = Counter(ids)
            for card_id, count in counts.items():
                if got[card_id] != count:
                    shown = f" {sorted(ids)}" if len(ids) <= 12 else ""
                    self._mismatch(where + (card_id,), f"copies of '{card_id}' in {what}", count,
                                   f"{got[card_id]}{shown}")

    def _check_any_order(self, path, wanted):
        for where, what, ids, cards in self._places(path, wanted):
            if Counter(cards) != Counter(ids):
                self._mismatch(where, f"{what} (in any order)", sorted(cards), sorted(ids))

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


def _matches(event: dict, pattern: dict) -> bool:
    return all(key in event and event[key] == value for key, value in pattern.items())
