"""Rules that cards lying before a player, or the edition itself, set off.

* blind play: a card with `blinds` before a player leaves them only a draw or
  a card picked at random from their hand (:class:`BlindPlayFrame`);
* draws: a card's `instead_of_draw` runs in place of that player's draws, and
  a drawn card's `on_draw` runs when it is drawn (:func:`draw`);
* state checks: the edition's `checks:`, looked at for each player after every
  play and draw (:class:`ChecksFrame`).
"""

from __future__ import annotations

from ..lang.errors import RuleRuntimeError
from ..lang.machine import Chance, Ctx, Frame, context, run
from .compiled import legal
from .plays import PlayFrame

PLAY_BLIND = "play blind"


class _Blind:
    """The value of the blind-play option: one object that a copied game shares (a tuple
    would be rebuilt by machine.remap, and the flow tests this value by identity)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "BLIND"


BLIND = _Blind()

#: how deep drawn cards may make their drawer draw again (each draw's effect runs
#: inside the one before)
MAX_DRAW_NESTING = 100


def blind(state, seat: int) -> bool:
    """Whether a card lying before ``seat`` makes them play blind."""
    blinders = state.game.blinders
    return any(inst.id in blinders for area in state.table.areas_of(seat) for inst in area.cards)


class BlindPlayFrame(Frame):
    """Play a card picked at random from the hand; one that cannot be played now goes back."""

    __slots__ = ("seat", "picked")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.picked = False
        self.result = None

    def step(self, state, value):
        hand = state.table.hands[self.seat]
        if self.picked is None:  # the card picked was played
            return None
        if self.picked:
            inst = hand.cards[value]
            entry = state.game.on_turn.get(inst.id)
            if entry is not None and legal(entry[0], context(state, self.seat), inst):
                self.picked = None  # played: whatever comes back next, it is done
                return state.call(PlayFrame(self.seat, entry[0], [inst]))
            state.table.reveal([inst])
            state.table.log.emit("blind_miss", seat=self.seat, card=inst.id)
            return None
        self.picked = True
        return Chance("pick", len(hand.cards), {"zone": hand.name, "cards": [inst.id for inst in hand.cards]})


class ChecksFrame(Frame):
    """The edition's state checks, for each player in turn order (one pass)."""

    __slots__ = ("seats", "seat_index", "check_index")

    def __init__(self, state) -> None:
        table = state.table
        self.seats = list(table.seats_from(table.current))
        self.seat_index = self.check_index = 0
        self.result = None

    def step(self, state, value):
        table, checks = state.table, state.game.checks
        while self.seat_index < len(self.seats):
            seat = self.seats[self.seat_index]
            while self.check_index < len(checks) and table.alive[seat]:
                check, condition, effect = checks[self.check_index]
                self.check_index += 1
                ctx = context(state, seat, source=check.id)
                if condition.fn(ctx):
                    table.log.emit("check", seat=seat, id=check.id)
                    out, _value = run(state, effect, ctx)
                    if out is not None:
                        return out
            self.seat_index += 1
            self.check_index = 0
        return None


def draw(state, seat: int, from_bottom: bool):
    """``seat`` draws the top (or bottom) card; None when that is all, or a frame that
    runs what the draw sets off (a hook in its place, the drawn card's `on_draw`)."""
    table, game = state.table, state.game
    if game.draw_hooks:
        for area in table.areas_of(seat):
            for hook in area.cards:
                code = game.draw_hooks.get(hook.id)
                if code is not None and hook.uid not in state.hooking:
                    return HookFrame(seat, hook, code, from_bottom)
    pile = table.draw_pile.cards
    if not pile:
        table.log.emit("empty_pile", seat=seat)
        return None
    inst = pile[-1] if from_bottom else pile[0]
    hand = table.hands[seat]
    table.move([inst], hand, len(hand.cards))
    if game.meets_draws:  # the moment a card is drawn is answered, or met before its on_draw
        return state.meet_draw(seat, inst)
    rule = game.cards[inst.id]
    code = rule.on_draw
    if code is None:
        return None
    ctx = context(state, seat, inst, source=inst.id)
    if not code.waits:
        code.fn(ctx)
        return None
    if state.draw_nesting >= MAX_DRAW_NESTING:
        raise RuleRuntimeError(
            f"'{inst.id}' ({rule.record.origin}): drawn cards made their drawer draw again "
            f"{MAX_DRAW_NESTING} times within one draw; an `on_draw` that draws must stop "
            "somewhere (draw only on a condition, or let the turn end)")
    return DrawnFrame(ctx, code)


class DrawnFrame(Frame):
    """A drawn card's `on_draw`, counted while it runs (draws inside draws are bounded)."""

    __slots__ = ("ctx", "code", "started")
    SHARED = frozenset({"code"})

    def __init__(self, ctx: Ctx, code) -> None:
        self.ctx, self.code = ctx, code
        self.started = False
        self.result = None

    def step(self, state, value):
        if not self.started:
            self.started = True
            state.draw_nesting += 1
            out, _value = run(state, self.code, self.ctx)
            if out is not None:
                return out
        state.draw_nesting -= 1
        return None


class HookFrame(Frame):
    """A card's `instead_of_draw`, run in place of ``seat``'s draw (never inside itself)."""

    __slots__ = ("seat", "hook", "code", "from_bottom", "started")
    SHARED = frozenset({"code"})

    def __init__(self, seat: int, hook, code, from_bottom: bool) -> None:
        self.seat, self.hook, self.code, self.from_bottom = seat, hook, code, from_bottom
        self.started = False
        self.result = None

    def step(self, state, value):
        if not self.started:
            self.started = True
            ctx = context(state, self.seat, self.hook, source=self.hook.id)
            ctx.vars["from_bottom"] = self.from_bottom
            state.hooking.add(self.hook.uid)
            out, _value = run(state, self.code, ctx)
            if out is not None:
                return out
        state.hooking.discard(self.hook.uid)
        return None
