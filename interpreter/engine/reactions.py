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
from .compiled import Moment, Play, legal

PASS = "pass"

# phases of a window
_START, _ROUND, _ASKING, _ANSWERED, _RESOLVING = range(5)


class WindowFrame(Frame):
    """Let every other seat answer ``play`` (whose choices are in ``ctx``), in turn order
    after whoever played last; then resolve the answers, the last one first."""

    __slots__ = ("play", "ctx", "chain", "contexts", "last", "seats", "position", "phase", "index")

    def __init__(self, play: Play, ctx: Ctx) -> None:
        self.play, self.ctx = play, ctx
        self.chain = [play]  # the play, then each answer to the one before
        self.contexts = [ctx]  # what each entry of the chain runs with: its own choices
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
                if type(self.play) is Moment:  # a window on a moment says which, and when
                    table.log.emit("window", seat=self.play.seat, id=self.play.rule.id, at=self.play.key[2])
                elif table.log.record:
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
                if rule.counted:  # restrictions that limit how often it is played
                    for limit in rule.counted:
                        table.acted(limit, seat)
                if table.log.record:
                    table.log.answer(seat, rule.id, len(self.chain))
                # an answer runs with its own context, never the answered card's: its
                # choices are made now, announced before anyone may answer it in turn
                ctx = context(state, seat, inst, target=self.chain[-1], source=rule.id)
                self.chain.append(Play(seat, rule, [inst]))
                self.contexts.append(ctx)
                self.last, self.phase = seat, _ROUND
                if rule.choose:
                    out = state.call(ChoicesFrame(seat, rule, ctx))
                    if out is not None:
                        return out
            else:  # resolving, last answer first
                while self.index > 0:
                    entry, ctx = self.chain[self.index], self.contexts[self.index]
                    self.index -= 1
                    code = entry.rule.effect
                    if entry.cancelled or code is None:
                        continue
                    if unchosen(ctx.vars):
                        table.log.emit("fizzled", seat=entry.seat, reason="nothing to choose")
                        continue
                    out, _value = run(state, code, ctx)
                    if out is not None:
                        return out
                return None

    def _next_question(self, state):
        """The answer decision of the next seat that holds one, or None at the round's end."""
        chain, own = self.chain, state.rules["may_nope_own_action"]
        while self.position < len(self.seats):
            seat = self.seats[self.position]
            # a player answers their own play only where the rules say so, but may always
            # answer a moment about them (a card that saves its holder from going out)
            if chain[-1].seat != seat or own or type(chain[-1]) is Moment:
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


def logged_window(play: Play, ctx: Ctx) -> WindowFrame:
    """A window whose opening its caller has already written to the log (cards spent
    inside an effect say so): it starts with its first round."""
    frame = WindowFrame(play, ctx)
    frame.phase = _ROUND
    return frame


class ChoicesFrame(Frame):
    """The choices (`choose:`) of a card ``seat`` plays in answer, made in ``ctx`` one by
    one and announced as a play's are; the answer's effect later runs in that ``ctx``."""

    __slots__ = ("seat", "rule", "ctx", "index")
    SHARED = frozenset({"rule"})

    def __init__(self, seat: int, rule, ctx: Ctx) -> None:
        self.seat, self.rule, self.ctx = seat, rule, ctx
        self.index = 0  # the choice being made; past it once it waits for its value
        self.result = None

    def step(self, state, value):
        choices, names, log = self.rule.choose, self.ctx.vars, state.table.log
        if self.index > 0 and choices[self.index - 1][0] not in names:  # a choice came back
            self._chose(log, value)
        while self.index < len(choices):
            code = choices[self.index][1]
            self.index += 1
            out, chosen = run(state, code, self.ctx)
            if out is not None:
                return out
            self._chose(log, chosen)
        return None

    def _chose(self, log, value) -> None:
        name = self.rule.choose[self.index - 1][0]
        self.ctx.vars[name] = value
        if log.record:
            log.chose(self.seat, name, public_choice(value))


def unchosen(names: dict) -> bool:
    """Whether a choice found nothing to choose (the play or answer then fizzles)."""
    return any(chosen is None for chosen in names.values())


def public_choice(value):
    """A chosen value as everyone may see it: seats and titles; cards only as a count."""
    if isinstance(value, PrivateInt):
        return {"secret": True}
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, list):
        return {"count": len(value)}
    return {"count": 1}


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
    alive = state.table.alive[seat]
    if game.moment_only and type(target) is Moment:  # only the cards that answer that moment
        reactive = game.moment_answers.get(target.key, frozenset())
        reactive = reactive - game.out_only if alive else reactive & game.out_answers
    else:  # the cards that answer plays, for a player still in or one who is out (Game)
        reactive = game.answers_in if alive else game.answers_out
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


def _describe(play) -> dict:
    """A play (or a moment: ``moment`` says which) as the seats answering it may see it."""
    if type(play) is Moment:
        return {"seat": play.seat, "id": play.rule.id, "moment": play.key[0], "at": play.key[2]}
    return {"seat": play.seat, "id": play.rule.id}


def _targets(ctx: Ctx) -> dict:
    """The play's announced choices (seats, titles), as the seats answering it may see them."""
    return {name: value for name, value in ctx.vars.items()
            if isinstance(value, (int, str)) and not isinstance(value, PrivateInt)}
