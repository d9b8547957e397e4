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

from ...engine.bots import make_bots
from ...engine.events import EventLog
from ...engine.game import State

BLIND = "(blind)"


class TallyLog(EventLog):
    """An event log that records nothing but notes cancelled plays, eliminations and the
    end (the engine emits those whether or not it records)."""

    __slots__ = ("table", "cancelled", "out", "reason")

    def __init__(self, everyone: int, table) -> None:
        super().__init__(False, everyone)
        self.table = table
        self.cancelled: dict = {}
        self.out: list = []
        self.reason = None

    def emit(self, type_: str, *, secret=None, only=None, **fields) -> None:
        if type_ == "cancelled":
            key = fields.get("card") or fields.get("combo")
            self.cancelled[key] = self.cancelled.get(key, 0) + 1
        elif type_ == "out":
            self.out.append((fields["seat"], self.table.turn))
        elif type_ == "game_over":
            self.reason = fields.get("reason")

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
            card_id = (pile[-1] if from_bottom else pile[0]).id
            self.drawn[card_id] = self.drawn.get(card_id, 0) + 1
            self.held[card_id] = self.held.get(card_id, 0) | (1 << seat)
        return super().draw(seat, from_bottom)

    def _hooked(self, seat: int) -> bool:
        """Whether a card before ``seat`` replaces this draw (as triggers.draw decides)."""
        hooks = self.game.draw_hooks
        return any(hook.id in hooks and hook.uid not in self.hooking
                   for area in self.table.areas_of(seat) for hook in area.cards)


_PARSED: dict = {}  # option text -> ("card" | "combo", id) or None


def _parse(option: str):
    """What an option plays, ("card" | "combo", id), or None (draw, pass, a seat, a card)."""
    found = _PARSED.get(option, False)
    if found is False:
        words = option.split(" ")
        if words[0] == "play" and len(words) >= 2:
            found = ("card", BLIND if words[1] == "blind" and len(words) == 2 else words[1])
        elif words[0] == "combo" and len(words) >= 2:
            found = ("combo", words[1]) + tuple(words[2:3])
        else:
            found = None
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
    that held it (dealt, drawn, played or at the end), ``e`` cards in hands at the end.
    """
    players = make_bots(seats, game.players, seed)
    for seat, player in enumerate(players):
        start = getattr(player, "start", None)
        if start is not None:
            start(game, seat)
    state = TallyState(game, seed, record=False)
    table = state.table
    hands = table.hands
    first = table.current
    looks = [getattr(player, "needs_view", True) for player in players]
    plays: dict = {}  # (seat, kind, id) -> count
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
            option = players[seat].choose(state.view(seat) if looks[seat] else None, decision)
        if type(option) is str:
            found = parsed.get(option, False)
            if found is False:
                found = _parse(option)
            if found is not None:
                key = (decision.seat,) + found
                plays[key] = plays.get(key, 0) + 1
                if len(found) == 3:  # a same-title combo names its card
                    key = (decision.seat, "in_combo", found[2])
                    plays[key] = plays.get(key, 0) + 1
            elif decision.kind == "combo_card":  # a card picked for a combo of different titles
                key = (decision.seat, "in_combo", option)
                plays[key] = plays.get(key, 0) + 1
        apply(option)
    log = table.log
    end: dict = {}
    for seat, hand in enumerate(hands):
        bit = 1 << seat
        for inst in hand.cards:
            end[inst.id] = end.get(inst.id, 0) + 1
            held[inst.id] = held.get(inst.id, 0) | bit
    for (seat, kind, card_id, *_) in plays:  # a card played was held
        if kind != "combo" and card_id != BLIND:
            held[card_id] = held.get(card_id, 0) | (1 << seat)
    return {"w": list(table.winners), "t": table.turn, "d": state.decisions, "end": log.reason,
            "f": first, "b": seats, "out": [list(o) for o in log.out],
            "p": [[s, i, n] for (s, k, i, *_), n in plays.items() if k == "card"],
            "c": [[s, i, n] for (s, k, i, *_), n in plays.items() if k == "combo"],
            "u": [[s, i, n] for (s, k, i, *_), n in plays.items() if k == "in_combo"],
            "n": log.cancelled, "dr": state.drawn, "h": held, "e": end}
