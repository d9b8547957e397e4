"""Reaction windows: other seats answering a play (a Nope), without limit.

Every answer joins a chain and opens a new round for everyone; when a round
passes with no answer, the chain resolves from the top, so answers cancel by
parity. Passing writes nothing public (ruling 6): nobody learns who was asked
or who holds a Nope.
"""

from __future__ import annotations

from .decisions import Decision
from .evaluator import Ctx, run
from .table import PrivateInt

PASS = "pass"


class Play:
    """A card or combo on its way to taking effect; answers may cancel it."""

    __slots__ = ("seat", "rule", "cards", "cancelled")

    def __init__(self, seat: int, rule, cards: list) -> None:
        self.seat, self.rule, self.cards = seat, rule, cards
        self.cancelled = False



class Reactions:
    """The reaction windows of :class:`~.game.State` (a mixin: it uses the state's table,
    rules, legality test and game)."""

    def _window(self, play: Play, ctx: Ctx):
        """Let every other seat answer, without limit; answers resolve by parity.

        Seats are asked in turn order after whoever played last. A seat with no
        legal answer is passed over; it is never observable, because passing
        writes nothing public (ruling 6).
        """
        table, reactive = self.table, self.game.reactive
        chain = [play]  # the play, then each answer to the one before
        last = play.seat
        if table.log.record:
            table.log.emit("window", seat=play.seat, id=play.rule.id)
        while True:
            answer = None
            order = table.seats_from(last)
            for seat in order[1:] + order[:1]:
                if chain[-1].seat == seat and not self.rules["may_nope_own_action"]:
                    continue
                options, values = self._answers(seat, reactive)
                if options is None:
                    continue
                info = {"answering": _describe(chain[-1]), "depth": len(chain),
                        "play": _describe(play), "targets": _targets(ctx)}
                choice = yield Decision(seat, "answer", options, values, info)
                if choice is not None:
                    answer = (seat, *choice)
                    break
            if answer is None:
                break
            seat, rule, inst = answer
            table.move([inst], table.discard_pile)
            if table.log.record:
                table.log.emit("answer", seat=seat, card=rule.id, depth=len(chain))
            chain.append(Play(seat, rule, [inst]))
            last = seat
        if table.log.record:
            table.log.emit("window_closed", seat=play.seat, id=play.rule.id, answers=len(chain) - 1)
        for index in range(len(chain) - 1, 0, -1):
            entry = chain[index]
            if not entry.cancelled and entry.rule.effect is not None:
                answer_ctx = Ctx(self, entry.seat, entry.cards[0], target=chain[index - 1])
                answer_ctx.source = entry.rule.id
                yield from run(entry.rule.effect, answer_ctx)

    def _answers(self, seat: int, reactive: frozenset):
        """(options, values) of a seat's legal answers, or (None, None) when it has none."""
        options, values, ctx = None, None, None
        for inst in self.table.hands[seat].cards:
            if inst.id in reactive:
                label = "play " + inst.id
                rule = self.game.cards[inst.id]
                ctx = ctx or Ctx(self, seat)
                if (options is None or label not in options) and self._legal(rule, ctx, inst):
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

