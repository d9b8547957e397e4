"""Answers to moments, and moments met before they happen (issue 42).

A card's ``answers:`` names moments it answers instead of plays; a trigger's
``at: before`` runs before its moment. When a moment comes that the edition
answers or meets before (:attr:`Game.moment_answers`, :attr:`Phases.before`):

1. before it happens (``player_out`` from ``eliminate``, ``card_drawn`` before a
   drawn card's ``on_draw``), the ``at: before`` triggers run, each able to
   ``cancel()`` the moment, in the order the rule files list them;
2. then an answer window opens, as a play's does (:class:`~.reactions.WindowFrame`):
   the players holding a card that answers the moment are asked in turn order from
   the moment's player (who may answer their own moment), each answer may be answered
   in turn (a Nope), and the chain resolves from the top; an answer's ``cancel()``
   cancels the moment when it is met before it happens.

Whether the window opens depends only on the moment and the rule files, never on a
hand: it opens at every such moment, and passing writes nothing public (ruling 6),
so nobody learns who holds an answer. After the moment (the triggers a card's move
queues, moments.py) the same window opens once the moment's triggers have run.
"""

from __future__ import annotations

from ..lang.errors import RuleRuntimeError
from ..lang.machine import Frame, context, run
from .compiled import Moment, Play
from .reactions import WindowFrame, logged_window, may_be_answered
from .triggers import MAX_DRAW_NESTING, DrawnFrame


def meets(state, name: str) -> bool:
    """Whether the edition meets ``name`` before it happens (triggers or answers)."""
    return name in state.game.phases.before_moments


class MomentFrame(Frame):
    """Meet a moment (before or after it happens): its `at: before` triggers (before only),
    then a window for the cards that answer it. ``result``: whether it was cancelled."""

    __slots__ = ("moment", "runs", "index", "windowed")

    def __init__(self, state, moment: Moment) -> None:
        self.moment = moment
        phases = state.game.phases
        self.runs = phases.before.get(moment.key[0], []) if moment.key[2] == "before" else []
        self.index = 0
        self.windowed = False
        self.result = None

    def step(self, state, value):
        moment, table = self.moment, state.table
        while self.index < len(self.runs):
            trigger, condition, effect = self.runs[self.index]
            self.index += 1
            if trigger.zone is not None and trigger.zone != moment.key[1]:
                continue
            ctx = context(state, moment.seat, moment.cards[0] if moment.cards else None,
                          target=moment, source=trigger.id)
            if condition is None or condition.fn(ctx):
                table.log.emit("trigger", seat=moment.seat, id=trigger.id)
                out, _value = run(state, effect, ctx)
                if out is not None:
                    return out
        if not self.windowed:
            self.windowed = True
            if moment.key in state.game.moment_answers and not table.finished:
                out = state.call(WindowFrame(moment, context(state, moment.seat, source=moment.key[0])))
                if out is not None:
                    return out
        self.result = moment.cancelled
        return None


def before(state, name: str, seat: int, cards: list, zone=None) -> MomentFrame:
    """The frame that meets ``name`` before it happens; its result says whether it was
    cancelled."""
    return MomentFrame(state, Moment(seat, (name, zone, "before"), cards))


def after(state, name: str, seat: int, cards: list, zone=None) -> MomentFrame:
    """The frame that opens the answer window of ``name`` once it has happened."""
    return MomentFrame(state, Moment(seat, (name, zone, "after"), cards))


class GoingOutFrame(Frame):
    """``eliminate(seat)`` when the edition meets `player_out` before it happens: the
    moment first, then the player goes out unless it was cancelled."""

    __slots__ = ("seat", "meeting")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.meeting = None
        self.result = None

    def step(self, state, value):
        table = state.table
        if self.meeting is None:
            if not table.alive[self.seat]:
                return None
            self.meeting = before(state, "player_out", self.seat, [])
            state.outs_met.add(self.seat)
            out = state.call(self.meeting)
            if out is not None:
                return out
        state.outs_met.discard(self.seat)
        if self.meeting.result:
            if table.alive[self.seat]:  # (its own effect may have taken them out after all)
                table.log.emit("kept_in", seat=self.seat)
        elif table.alive[self.seat] and not table.finished:
            table.eliminate(self.seat)
        return None


class DrawMeetingFrame(Frame):
    """A drawn card, in an edition that meets `card_drawn`: the moment before it (its
    `at: before` triggers and answers), the card's `on_draw` unless that was cancelled,
    then the moment queued for its triggers and answers afterwards."""

    __slots__ = ("seat", "inst", "meeting", "drawn")

    def __init__(self, seat: int, inst) -> None:
        self.seat, self.inst = seat, inst
        self.meeting = None
        self.drawn = False
        self.result = None

    def step(self, state, value):
        game, table = state.game, state.table
        if self.meeting is None and "card_drawn" in game.phases.before_moments:
            if state.draw_nesting >= MAX_DRAW_NESTING:  # (a rule that draws instead of each draw)
                raise RuleRuntimeError(
                    f"'{self.inst.id}': drawing made its drawer draw again {MAX_DRAW_NESTING} times within "
                    "one draw (a `card_drawn` rule that draws); draw only on a condition that stops")
            self.meeting = before(state, "card_drawn", self.seat, [self.inst])
            state.draw_nesting += 1
            out = state.call(self.meeting)
            if out is not None:
                return out
        if not self.drawn:
            self.drawn = True
            if self.meeting is not None:
                state.draw_nesting -= 1
            if ("card_drawn", None) in table.watch:
                table.moments.append(("card_drawn", self.seat, self.inst, None))
            if self.meeting is not None and self.meeting.result:
                table.log.emit("draw_cancelled", seat=self.seat)
                return None
            code = game.cards[self.inst.id].on_draw
            if code is not None:
                if state.draw_nesting >= MAX_DRAW_NESTING:
                    raise RuleRuntimeError(
                        f"'{self.inst.id}': drawn cards made their drawer draw again {MAX_DRAW_NESTING} "
                        "times within one draw; an `on_draw` that draws must stop somewhere")
                out = state.call(DrawnFrame(context(state, self.seat, self.inst, source=self.inst.id), code))
                if out is not None:
                    return out
        return None


def spent(state, ctx, seat: int, title: str, cards: list):
    """Cards ``seat`` spent as ``title`` inside an effect (`spend`, already on the discard
    pile): True where that title may not be answered or nobody could answer (the window
    then opens and closes, as a play's does), else the frame that lets every player answer."""
    rule = state.game.cards.get(title)
    if rule is None or not rule.record.nopeable or state.table.finished:
        return True
    log = state.table.log
    log.emit("window", seat=seat, id=title, spent=True)  # the window says the card was spent
    play = Play(seat, rule, cards)
    if may_be_answered(state, seat):
        return SpendFrame(play, context(state, seat, cards, source=title))
    if log.record:  # nobody holds an answer: it closes at once
        log.window_closed(seat, title, 0)
    return True


class SpendFrame(Frame):
    """The answer window of cards spent inside an effect, as for a play of their title;
    ``result``: whether the spending stands (no answer cancelled it)."""

    __slots__ = ("play", "ctx", "windowed")

    def __init__(self, play: Play, ctx) -> None:
        self.play, self.ctx = play, ctx
        self.windowed = False
        self.result = None

    def step(self, state, value):
        if not self.windowed:
            self.windowed = True
            out = state.call(logged_window(self.play, self.ctx))
            if out is not None:
                return out
        play = self.play
        if play.cancelled:
            state.table.log.play_cancelled(play.seat, "card", play.rule.id)
        self.result = not play.cancelled
        return None
