"""Rules that cards lying before a player, or the edition itself, trigger.

* blind play: a card with `blinds` before a player leaves them only a draw or
  a card picked at random from their hand;
* draw hooks: a card's `instead_of_draw` runs in place of that player's draws;
* state checks: the edition's `checks:`, looked at for each player after every
  play and draw.
"""

from __future__ import annotations

from .decisions import Chance
from .evaluator import Ctx, run

PLAY_BLIND = "play blind"
BLIND = ("blind",)  # the value of the blind-play option


class Triggers:
    """Card- and edition-triggered rules of :class:`~.game.State` (a mixin)."""

    def _blind(self, seat: int) -> bool:
        """Whether a card lying before ``seat`` makes them play blind."""
        blinders = self.game.blinders
        return any(inst.id in blinders for area in self.table.areas_of(seat) for inst in area.cards)

    def _play_blind(self, seat: int):
        """Play a card picked at random from the hand; one that cannot be played now goes back."""
        hand = self.table.hands[seat].cards
        index = yield Chance("pick", len(hand), {"zone": self.table.hands[seat].name,
                                                 "cards": [inst.id for inst in hand]})
        inst = hand[index]
        entry = self.game.on_turn.get(inst.id)
        if entry is not None and self._legal(entry[0], Ctx(self, seat), inst):
            yield from self._play(seat, entry[0], [inst])
            return
        self.table.reveal([inst])
        self.table.log.emit("blind_miss", seat=seat, card=inst.id)

    def _run_checks(self):
        """The edition's state checks, for each player in turn order (one pass)."""
        table = self.table
        for seat in list(table.seats_from(table.current)):
            for check, condition, effect in self.game.checks:
                if not table.alive[seat]:
                    break
                ctx = Ctx(self, seat)
                ctx.source = check.id
                if condition.fn(ctx):
                    table.log.emit("check", seat=seat, id=check.id)
                    yield from run(effect, ctx)

    def _draw_hooked(self, seat: int, from_bottom: bool):
        """Run the `instead_of_draw` of a card lying before ``seat``, if any; whether one ran."""
        for area in self.table.areas_of(seat):
            for hook in area.cards:
                code = self.game.draw_hooks.get(hook.id)
                if code is not None and hook.uid not in self._hooking:
                    yield from self._run_hook(seat, hook, code, from_bottom)
                    return True
        return False

    def _run_hook(self, seat: int, hook, code, from_bottom: bool):
        """A card's `instead_of_draw`, run in place of ``seat``'s draw (never inside itself)."""
        ctx = Ctx(self, seat, hook)
        ctx.source = hook.id
        ctx.vars["from_bottom"] = from_bottom
        self._hooking.add(hook.uid)
        try:
            yield from run(code, ctx)
        finally:
            self._hooking.discard(hook.uid)

