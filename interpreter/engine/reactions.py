"""Reaction windows: other seats answering a play (a Nope), without limit.

Every answer joins a chain and opens a new round for everyone; when a round
passes with no answer, the chain resolves from the top, so answers cancel by
parity. Passing writes nothing public (ruling 6): nobody learns who was asked
or who holds a Nope.

A window is a :class:`WindowFrame` on the game's stack: its own state (the
chain, whose turn to answer) and a narrow use of the game: the table, the
rules, the answers a seat holds, and running the answers' effects.
"""

from __future__ import annotations

from ..lang.machine import Ctx, Frame, context, decision, run
from ..lang.values import PrivateInt
from .compiled import Play, legal

PASS = "pass"

# phases of a window
_START, _ROUND, _ASKING, _ANSWERED, _RESOLVING = range(5)


class WindowFrame(Frame):
    """Let every other seat answer ``play`` (whose choices are in ``ctx``), in turn order
    after whoever played last; then resolve the answers, the last one first."""

    __slots__ = ("play", "ctx", "chain", "last", "seats", "position", "phase", "index")

    def __init__(self, play: Play, ctx: Ctx) -> None:
        self.play, self.ctx = play, ctx
        self.chain = [play]  # the play, then each answer to the one before
        self.last = play.seat
        self.seats: list = []
        self.position = 0
        self.phase = _START
        self.index = 0
        self.result = None

    def step(self, state, value):
        table = state.table
        while True:
            phase = self.phase
            if phase == _START:
                if table.log.record:
                    table.log.window(self.play.seat, self.play.rule.id)
                self.phase = _ROUND
            elif phase == _ROUND:  # a new round: every seat in turn, from the last to answer
                self.seats, self.position, self.phase = answering_order(state, self.last), 0, _ASKING
            elif phase == _ASKING:
                request = self._next_question(state)
                if request is not None:
                    self.phase = _ANSWERED
                    return request
                self._close(table)
            elif phase == _ANSWERED:
                if value is None:  # a pass: ask the next seat
                    self.position += 1
                    self.phase = _ASKING
                    continue
                seat = self.seats[self.position]
                rule, inst = value
                table.move([inst], table.discard_pile)
                table.played(seat, [inst])  # an answer is a play: played_by, last_played
                if table.log.record:
                    table.log.answer(seat, rule.id, len(self.chain))
                self.chain.append(Play(seat, rule, [inst]))
                self.last, self.phase = seat, _ROUND
            else:  # resolving, last answer first
                while self.index > 0:
                    entry, target = self.chain[self.index], self.chain[self.index - 1]
                    self.index -= 1
                    code = entry.rule.effect
                    if entry.cancelled or code is None:
                        continue
                    ctx = context(state, entry.seat, entry.cards[0], target=target, source=entry.rule.id)
                    out, _value = run(state, code, ctx)
                    if out is not None:
                        return out
                return None

    def _next_question(self, state):
        """The answer decision of the next seat that holds one, or None at the round's end."""
        chain, own = self.chain, state.rules["may_nope_own_action"]
        while self.position < len(self.seats):
            seat = self.seats[self.position]
            if chain[-1].seat != seat or own:
                options, values = answers(state, seat, chain[-1])
                if options is not None:
                    info = {"answering": _describe(chain[-1]), "depth": len(chain),
                            "play": _describe(self.play), "targets": _targets(self.ctx)}
                    return decision(seat, "answer", options, values, info)
            self.position += 1
        return None

    def _close(self, table) -> None:
        if table.log.record:
            table.log.window_closed(self.play.seat, self.play.rule.id, len(self.chain) - 1)
        self.index, self.phase = len(self.chain) - 1, _RESOLVING


def answering_order(state, last: int) -> list:
    """The seats asked in a round, in turn order after ``last`` (who answered last) and
    ending with it: the seats still in, and those out who hold a card they may answer with."""
    table = state.table
    if not state.game.out_answers:
        order = table.seats_from(last)
        return order[1:] + order[:1]
    n, step, alive = table.players, table.direction, table.alive
    after = [(last + i * step) % n for i in range(1, n + 1)]
    return [seat for seat in after if alive[seat] or _holds_out_answer(state, seat)]


def _holds_out_answer(state, seat: int) -> bool:
    hand, ids = state.table.hands[seat], state.game.out_answers
    return bool(hand.reactive) and any(inst.id in ids for inst in hand.cards)


def may_be_answered(state, seat: int) -> bool:
    """Whether anyone could answer a play of ``seat``: someone else holds a card that
    answers plays (or the player does, where players may answer their own)."""
    table = state.table
    hands = table.hands
    for other in table.seats_from(seat):
        if hands[other].reactive and (other != seat or state.rules["may_nope_own_action"]):
            return True
    if state.game.out_answers:
        return any(not table.alive[other] and other != seat and _holds_out_answer(state, other)
                   for other in range(table.players))
    return False


def answers(state, seat: int, target=None):
    """(options, values) of a seat's legal answers to ``target`` (the play answered last;
    a card's `requires` may look at it with `answered()`), or (None, None) for none."""
    hand = state.table.hands[seat]
    if not hand.reactive:  # the hand counts its cards that can answer (Table.move keeps it)
        return None, None
    options, values, ctx = None, None, None
    game = state.game
    reactive, cards = game.reactive, game.cards
    if not state.table.alive[seat]:  # a player who is out answers only with what says they may
        reactive = game.out_answers
    elif game.out_only:
        reactive = reactive - game.out_only
    for inst in hand.cards:
        if inst.id in reactive:
            label = "play " + inst.id
            rule = cards[inst.id]
            ctx = ctx or context(state, seat, target=target)
            if (options is None or label not in options) and legal(rule, ctx, inst):
                if options is None:
                    options, values = [PASS], [None]
                options.append(label)
                values.append((rule, inst))
    return options, values


def _describe(play: Play) -> dict:
    return {"seat": play.seat, "id": play.rule.id}


def _targets(ctx: Ctx) -> dict:
    """The play's announced choices (seats, titles), as the seats answering it may see them."""
    return {name: value for name, value in ctx.vars.items()
            if isinstance(value, (int, str)) and not isinstance(value, PrivateInt)}
