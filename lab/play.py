"""One game played for the lab: the game as ``simulate.play_game`` plays it, plus the
facts a balance question needs, gathered without recording events.

Recording every event costs a fifth of the engine's speed, so the lab plays
with ``record=False`` and picks up what it needs where it passes anyway:

* plays and answers from the options the players take (``play X``, ``play X as
  Y``, ``combo C ...``); a card played blind is counted as ``(blind)``;
* plays cancelled (Noped), eliminations and why the game ended from the few
  events the engine emits even when it records nothing (``cancelled``,
  ``out``, ``game_over``), caught by :class:`TallyLog`;
* draws from the drawing service every draw goes through (:class:`TallyState`);
* which cards each seat held: dealt, drawn, played or in hand at the end (a
  card taken by a steal and lost again unplayed is missed: watching every hand
  at every decision would cost more than the rest together); every hand at the
  end, from the table.

The result is a small record (:func:`play_record`), the same in any process,
that :mod:`.tally` sums up.
"""

from __future__ import annotations

from ..interpreter.engine.events import EventLog
from ..interpreter.engine.game import State
from ..interpreter.engine.players import make_player
from ..interpreter.engine.triggers import draw as draw_card
from ..interpreter.engine.views import decision_for, view_maker

BLIND = "(blind)"


class TallyLog(EventLog):
    """An event log that records nothing but notes cancelled plays, eliminations and the
    end (the engine reports those whether or not it records)."""

    __slots__ = ("table", "cancelled", "out", "reason")

    def __init__(self, everyone: int, table) -> None:
        super().__init__(False, everyone)
        self.table = table
        self.cancelled: dict = {}
        self.out: list = []
        self.reason = None

    def play_cancelled(self, seat: int, what: str, rule_id: str) -> None:
        self.cancelled[rule_id] = self.cancelled.get(rule_id, 0) + 1

    def seat_out(self, seat: int) -> None:
        self.out.append((seat, self.table.turn))

    def game_over(self, winner, reason: str, winners=None) -> None:
        self.reason = reason

    def show(self, cards, seats) -> None:  # the engine shows cards whether it records or not
        pass

    def copy(self) -> "EventLog":  # a clone of a lab game records nothing either
        return EventLog(False, self.everyone)


class TallyState(State):
    """A State that counts the cards drawn (every draw goes through ``State.draw``)."""

    def _setup(self, game, seed, explicit_chance, table) -> None:
        self.drawn: dict = {}
        self.held: dict = {}  # card id -> bit mask of the seats that had it in hand
        table.log = TallyLog(table.everyone, table)
        super()._setup(game, seed, explicit_chance, table)

    def draw(self, seat: int, from_bottom: bool):
        pile = self.table.draw_pile.cards
        if pile and not (self.game.draw_hooks and self._hooked(seat)):
            card_id = pile[-1 if from_bottom else 0].id
            drawn, held = self.drawn, self.held
            drawn[card_id] = drawn.get(card_id, 0) + 1
            held[card_id] = held.get(card_id, 0) | (1 << seat)
        return draw_card(self, seat, from_bottom)

    def _hooked(self, seat: int) -> bool:
        """Whether a card before ``seat`` replaces this draw (as triggers.draw decides)."""
        hooks = self.game.draw_hooks
        return any(hook.id in hooks and hook.uid not in self.hooking
                   for area in self.table.areas_of(seat) for hook in area.cards)


_PARSED: dict = {}  # option text -> what it plays, or None, or _WORD (a bare word: a card id)
_WORD = ("word",)


def _parse(option: str):
    """What an option plays, ("card" | "combo", id[, card]); None for a draw or a pass;
    _WORD for a bare word (a card id, picked for a combo or named in a choice)."""
    found = _PARSED.get(option)
    if found is None and option not in _PARSED:
        words = option.split(" ")
        if words[0] == "play" and len(words) >= 2:
            found = ("card", BLIND if words[1] == "blind" and len(words) == 2 else words[1])
        elif words[0] == "combo" and len(words) >= 2:
            found = ("combo", words[1]) + tuple(words[2:3])
        elif len(words) == 1 and option not in ("draw", "pass"):
            found = _WORD
        _PARSED[option] = found
    return found


def seats_for(bots: list[str], players: int, index: int, rotate: bool) -> list[str]:
    """The bot at each seat in game ``index``: the list repeated to fill the table, turned
    by ``index`` seats when seats rotate (so each bot sits at each seat equally often)."""
    table = [bots[seat % len(bots)] for seat in range(players)]
    if not rotate:
        return table
    shift = index % players
    return table[shift:] + table[:shift]


def play_record(game, seed: int, seats: list[str]) -> dict:
    """Play one game with bots ``seats`` (a name per seat) and give its record:

    ``w`` winners, ``t`` turns, ``d`` decisions, ``end`` why it ended, ``f`` the
    first player, ``b`` the bots by seat, ``out`` [seat, turn] in order, ``p``
    [seat, card, plays], ``c`` [seat, combo, plays], ``u`` [seat, card, times used in a
    combo], ``n`` plays cancelled by
    card or combo, ``dr`` draws by card, ``h`` card -> bit mask of the seats
    that held it (dealt, drawn, played or at the end), ``e`` cards in hands at the end,
    and for a game won on points ``s`` every seat's final score.
    """
    players = [make_player(name, seed, seat) for seat, name in enumerate(seats)]  # specs parsed once (cached)
    for seat, player in enumerate(players):
        start = getattr(player, "start", None)
        if start is not None:
            start(game, seat)
    state = TallyState(game, seed, record=False)
    table = state.table
    hands = table.hands
    first = table.current
    shows = [view_maker(player) for player in players]  # what each seat's player is handed
    plays = [{} for _ in players]  # by seat: what was played -> times
    held = state.held
    for seat, hand in enumerate(hands):  # the deal
        bit = 1 << seat
        for inst in hand.cards:
            held[inst.id] = held.get(inst.id, 0) | bit
    parsed = _PARSED
    apply = state.apply_action
    while True:
        decision = state._pending
        if decision is None:
            break
        options = decision.options
        if len(options) == 1:
            option = options[0]
        else:
            seat = decision.seat
            option = players[seat].choose(shows[seat](state, seat), decision_for(decision))
        if option.__class__ is str:
            found = parsed.get(option, False)
            if found is False:
                found = _parse(option)
            if found is not None:
                if found is _WORD:  # a card picked for a combo of different titles?
                    if decision.kind == "combo_card":
                        found = ("in_combo", option)
                    else:
                        apply(option)
                        continue
                counts = plays[decision.seat]
                counts[found] = counts.get(found, 0) + 1
        apply(option)
    log = table.log
    end: dict = {}
    for seat, hand in enumerate(hands):
        bit = 1 << seat
        for inst in hand.cards:
            end[inst.id] = end.get(inst.id, 0) + 1
            held[inst.id] = held.get(inst.id, 0) | bit
    listed = {"card": [], "combo": [], "in_combo": []}
    for seat, counts in enumerate(plays):
        bit = 1 << seat
        for (kind, key, *card), n in counts.items():
            listed[kind].append([seat, key, n])
            if card:  # a same-title combo names its card
                listed["in_combo"].append([seat, card[0], n])
                key = card[0]
            if kind != "combo" or card:  # a card played was held
                if key != BLIND:
                    held[key] = held.get(key, 0) | bit
    record = {"w": list(table.winners), "t": table.turn, "d": state.decisions, "end": log.reason,
            "f": first, "b": seats, "out": [list(o) for o in log.out],
            "p": listed["card"], "c": listed["combo"], "u": listed["in_combo"],
            "n": log.cancelled, "dr": state.drawn, "h": held, "e": end}
    if game.phases.scoring:  # a game won on points: every seat's final score
        record["s"] = state.scores()
    if table.teams and table.winners:  # the winning team as this game dealt it (teams may be random)
        record["wt"] = table.team_of(table.winners[0])
    return record
