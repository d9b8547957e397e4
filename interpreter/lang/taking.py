"""Restrictions on taking (`applies_to: [taking]`): which cards an effect may take out of
a hand that is not its own player's.

A card lies in another's hand when its zone is a hand whose owner is not the effect's
``me`` (in a Favor, the victim's hand, even though the victim picks the card). Each
restriction's test runs with ``me`` the taker and ``this`` the card, as a spending
limit's does. The pick primitives leave such a card out of what they pick among; `move`
and `discard` leave it where it is. The primitives call these only when the edition has
a taking limit (``state.taking_limits`` is an empty tuple otherwise).

What the log says of it gives nothing away. A card left in a hand by a move is told
("kept") only to the seats that know that card already (its holder; everyone, once it
was revealed); a pick given a whole hand, every card of which is kept, says publicly
that it found nothing to take ("nothing_taken"): a hand's size is public, and nothing
leaving it would show as much. A pick that still finds a card says nothing of those it
left out, and a list of cards (found by title, say) is never said to have held any.
"""

from __future__ import annotations

from .values import HAND


def may_take(ctx, inst, limits: tuple) -> bool:
    """Whether the effect running in ``ctx`` may take ``inst``: always from a hand of its
    own player (or from anywhere but a hand), otherwise when every limit lets it."""
    zone = inst.zone
    if zone is None or zone.kind != HAND or zone.owner == ctx.me:
        return True
    probe = type(ctx)(ctx.state, ctx.me, [inst], source=ctx.source)
    return all(test(probe) for test in limits)


def pickable(ctx, given, found: list, limits: tuple) -> list:
    """The cards of ``found`` (read from ``given``) that a pick may choose among. When a
    whole hand was given and none of its cards may be taken, the log says so publicly."""
    left = [inst for inst in found if may_take(ctx, inst, limits)]
    if found and not left and getattr(given, "kind", None) == HAND:
        ctx.table.nothing_taken(given)
    return left


def movable(ctx, moving: list, limits: tuple) -> list:
    """The cards of ``moving`` that may leave their zones; each one kept in a hand is told
    to the seats that know it."""
    left = []
    for inst in moving:
        if may_take(ctx, inst, limits):
            left.append(inst)
        else:
            ctx.table.kept(inst)
    return left
