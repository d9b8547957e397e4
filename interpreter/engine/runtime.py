"""What each effect primitive does: one implementation per entry of primitives.py.

``RUNTIME`` maps a primitive's name to ``(function, is_generator)``. Every
function takes the running :class:`~.evaluator.Ctx` and then the arguments in
the order primitives.py declares them (defaults already filled in). Choices
and chance are generators: they yield a Decision or a Chance and get the
answer back. A test checks that this table and the declarations match.

Values: a player is a seat number, players a list of seats, a card a
``CardInst``, cards a list of them, a zone a ``Zone`` (its cards when cards
are wanted), a card id or tag a string.

Arguments are checked here, so that whatever a checked effect passes, the
table stays sound: numbers out of range are clamped (or ignored where no
clamp makes sense), players who are out of the game cannot draw, win or be
attacked, and a request no player could answer stops the game with a
``RuleRuntimeError``. primitives.py says what each primitive does with such
arguments.
"""

from __future__ import annotations

from itertools import permutations

from ..lang.cost import NUMBER_LIMIT, fail, label
from .decisions import Chance, Decision
from .table import HAND, PrivateInt, Zone, as_secret_as

#: the most cards `rearrange` puts in order: the player picks one of n! orders
MAX_REARRANGE = 6


def cards_of(value) -> list:
    """Cards, a zone or one card (or nothing) as a fresh list of cards."""
    if isinstance(value, list):
        return value
    if isinstance(value, Zone):
        return list(value.cards)
    if value is None:
        return []
    return [value]


def seats_of(value) -> list:
    if isinstance(value, list):
        return value
    return [] if value is None else [value]


def _where(ctx) -> str | None:
    """The card, combo or check whose effect is running, for an error."""
    game = ctx.game.game
    record = game.edition.cards.get(ctx.source) or next(
        (rule.record for rule in game.combos if rule.id == ctx.source), None) or next(
        (check for check in game.edition.checks if check.id == ctx.source), None)
    return label(record) if record is not None else None


# -- players ------------------------------------------------------------------
def _players(ctx):
    return ctx.table.seats_from(ctx.me)


def _others(ctx, of):
    return [seat for seat in ctx.table.seats_from(of) if seat != of]


def _teammates(ctx, of):
    table = ctx.table
    if not table.teams:
        return []
    return [seat for seat in table.seats_from(of) if seat != of and table.team_of(seat) == table.team_of(of)]


def _opponents(ctx, of):
    table = ctx.table
    return [seat for seat in table.seats_from(of)
            if seat != of and (not table.teams or table.team_of(seat) != table.team_of(of))]


def _with_cards(ctx, among):
    hands = ctx.table.hands
    return [seat for seat in seats_of(among) if hands[seat].cards]


def _next_player(ctx, after):
    return ctx.table.next_seat(after)


def _owed(ctx, player):
    return min(ctx.table.owed[player], NUMBER_LIMIT)


def _holding(ctx, among, card):
    hands = ctx.table.hands
    return [seat for seat in seats_of(among) if any(inst.id == card for inst in hands[seat].cards)]


def _played_by(ctx, card):
    found = cards_of(card)
    return found[0].played_by if found else None


# -- cards and zones ----------------------------------------------------------
def _hand(ctx, player):
    return ctx.table.hands[player]


def _top(ctx, cards, n):
    return cards_of(cards)[:max(n, 0)]


def _bottom(ctx, cards, n):
    found = cards_of(cards)
    return found[max(len(found) - n, 0):] if n > 0 else []


def _find(ctx, cards, card):
    return [inst for inst in cards_of(cards) if inst.id == card]


def _tagged(ctx, cards, tag):
    return [inst for inst in cards_of(cards) if tag in inst.card.tags]


def _count(ctx, of):
    if isinstance(of, (list, Zone)):
        return len(of)
    return 0 if of is None else 1


def _has(ctx, player, card):
    return any(inst.id == card for inst in ctx.table.hands[player].cards)


def _in_zone(ctx, cards, zone):
    return [inst for inst in cards_of(cards) if inst.zone is zone]


def _without(ctx, cards, exclude):
    gone = {inst.uid for inst in cards_of(exclude)}
    return [inst for inst in cards_of(cards) if inst.uid not in gone]


def _is_face_up(ctx, card):
    found = cards_of(card)
    if not found:
        return False
    inst = found[0]  # a card just drawn: whether it lay face up in the pile
    return inst.face_up or (inst.zone.kind == HAND and inst.was_face_up)


def _playable_as(ctx, cards, card):
    if not ctx.game.game.has_wilds:
        return [inst for inst in cards_of(cards) if inst.id == card]
    wanted = ctx.game.game.edition.cards[card]
    return [inst for inst in cards_of(cards) if inst.card.may_stand_for(wanted)]


def _zone_of(ctx, player, name):
    return ctx.table.areas[name][player]


# -- chance and choices -------------------------------------------------------
def _decoyed(ctx, cards):
    """A hand guarded by a `decoy` card gives its decoy zone's cards instead."""
    if ctx.game.game.has_decoys and isinstance(cards, Zone) and cards.kind == HAND:
        table = ctx.table
        for area in table.areas_of(cards.owner):
            for inst in area.cards:
                stash = inst.card.decoy
                if stash is not None and table.extra[stash].cards:
                    return table.extra[stash]
    return cards


def _random_card(ctx, cards):
    found = cards_of(_decoyed(ctx, cards))
    if not found:
        return None
    index = yield Chance("pick", len(found), {"zone": found[0].zone.name,
                                               "cards": [inst.id for inst in found]})
    return found[index]


def _blind_pick(ctx, cards, by):
    found = cards_of(_decoyed(ctx, cards))
    marked = [inst for inst in found if inst.card.back_distinct] if ctx.game.game.has_marked else ()
    if marked:
        plain = [inst for inst in found if not inst.card.back_distinct]
        options = ([True] if plain else []) + [inst.id for inst in marked]
        values = ([None] if plain else []) + marked
        picked = yield Decision(by, "blind_pick", options, values,
                                {**ctx.game.about(ctx), "random": bool(plain)})
        if picked is not None:
            return picked
        found = plain
    if not found:
        return None
    index = yield Chance("pick", len(found), {"zone": found[0].zone.name,
                                               "cards": [inst.id for inst in found]})
    return found[index]


def _choose_kind(ctx, among, by):
    found = cards_of(among)
    options, values = [], []
    for inst in found:
        if inst.id not in options:
            options.append(inst.id)
            values.append(inst)
    if len(options) < 2:
        return values[0] if values else None
    return (yield Decision(by, "choose_card", options, values, ctx.game.about(ctx)))


def _rearrange(ctx, cards, by):
    found = cards_of(cards)
    if found:  # cards moved elsewhere since they were listed stay put: one zone is rearranged
        held: dict = {}
        for inst in found:
            held[inst.zone.name] = held.get(inst.zone.name, 0) + 1
        zone = max((inst.zone for inst in found), key=lambda z: held[z.name])  # the first of the fullest
        found = [inst for inst in found if inst.zone is zone]
    if len(found) < 2:
        return
    if len(found) > MAX_REARRANGE:
        fail(_where(ctx), f"rearrange() was given {len(found)} cards; at most {MAX_REARRANGE} can be "
                          "put in order (a player picks one of every possible order): rearrange "
                          "fewer, such as `top(draw_pile, 3)`")
    options = [list(order) for order in permutations(range(len(found)))]
    bit = 1 << by  # a card the chooser was never shown stays a blank to them
    order = yield Decision(by, "rearrange", options, None,
                           {**ctx.game.about(ctx),
                            "cards": [inst.id if inst.known & bit else None for inst in found]})
    ctx.table.rearrange([found[index] for index in order], 1 << by)


def _choose_player(ctx, among, by):
    seats = list(seats_of(among))
    if not seats:
        return None
    return (yield Decision(by, "choose_player", seats, None, ctx.game.about(ctx)))


def _choose_card(ctx, among, by):
    found = cards_of(among)
    if not found:
        return None
    bit = 1 << by
    if all(inst.known & bit for inst in found):
        options, values = [], []
        for inst in found:  # cards of one title are alike: offer each title once
            if inst.id not in options:
                options.append(inst.id)
                values.append(inst)
    else:  # face down to the chooser: they pick a place, blind
        options, values = list(range(len(found))), found
    return (yield Decision(by, "choose_card", options, values, ctx.game.about(ctx)))


def _choose_title(ctx, by):
    titles = ctx.game.titles
    return (yield Decision(by, "choose_title", titles, None, ctx.game.about(ctx)))


def _choose_position(ctx, zone, by):
    places = list(range(len(zone.cards) + 1))
    place = yield Decision(by, "choose_position", places, None,
                           {**ctx.game.about(ctx), "zone": zone.name})
    return PrivateInt(place, 1 << by)


def _ask(ctx, question, by):
    return (yield Decision(by, "ask", [True, False], None,
                           {**ctx.game.about(ctx), "question": question}))


# -- actions ------------------------------------------------------------------
def _move(ctx, cards, to, at, face_up):
    ctx.table.move(cards_of(cards), to, at, face_up=face_up)


def _shuffle(ctx, zone):
    order = yield Chance("order", len(zone.cards), {"zone": zone.name,
                                                    "cards": [inst.id for inst in zone.cards]})
    ctx.table.shuffle(zone, order)


def _show(ctx, cards, to):
    mask = 0
    for seat in seats_of(to):
        mask |= 1 << seat
    ctx.table.show(cards_of(cards), mask)


def _reveal(ctx, cards):
    ctx.table.reveal(cards_of(cards))


def _draw(ctx, player, from_bottom):
    if ctx.table.alive[player]:
        yield from ctx.game.draw(player, from_bottom)


def _end_turn(ctx, turns):
    ctx.table.end_turn(ctx.me, turns if turns > 0 else 1)  # the turn being played always counts


def _attack(ctx, victim, turns):
    table = ctx.table
    if victim is not None and table.alive[victim]:
        turns = 0 if turns < 0 else NUMBER_LIMIT if turns > NUMBER_LIMIT else turns
        table.attack(ctx.me, victim, turns, ctx.game.rules["attacks_stack"])


def _discard(ctx, cards):
    table = ctx.table
    for inst in cards_of(cards):  # one by one: the last card lands on top
        table.move([inst], table.discard_pile)


def _reverse(ctx):
    ctx.table.reverse()


def _eliminate(ctx, player):
    if player is not None:
        ctx.table.eliminate(player)


def _win(ctx, player):
    if player is not None and ctx.table.alive[player]:
        ctx.table.finish(player, "won", ctx.table.team(player))


def _cancel(ctx):
    if ctx.target is not None:
        ctx.target.cancelled = True


#: written as keywords, never as strings: a primitive may share a word with a card
RUNTIME = dict(
    players=(_players, False),
    others=(_others, False),
    teammates=(_teammates, False),
    opponents=(_opponents, False),
    with_cards=(_with_cards, False),
    next_player=(_next_player, False),
    owed=(_owed, False),
    holding=(_holding, False),
    played_by=(_played_by, False),
    in_zone=(_in_zone, False),
    without=(_without, False),
    is_face_up=(_is_face_up, False),
    playable_as=(_playable_as, False),
    zone_of=(_zone_of, False),
    blind_pick=(_blind_pick, True),
    choose_kind=(_choose_kind, True),
    rearrange=(_rearrange, True),
    discard=(_discard, False),
    reverse=(_reverse, False),
    hand=(_hand, False),
    top=(_top, False),
    bottom=(_bottom, False),
    find=(_find, False),
    tagged=(_tagged, False),
    count=(_count, False),
    has=(_has, False),
    min=(lambda ctx, a, b: as_secret_as(min(a, b), (a, b)), False),
    max=(lambda ctx, a, b: as_secret_as(max(a, b), (a, b)), False),
    random_card=(_random_card, True),
    choose_player=(_choose_player, True),
    choose_card=(_choose_card, True),
    choose_title=(_choose_title, True),
    choose_position=(_choose_position, True),
    ask=(_ask, True),
    move=(_move, False),
    shuffle=(_shuffle, True),
    show=(_show, False),
    reveal=(_reveal, False),
    draw=(_draw, True),
    end_turn=(_end_turn, False),
    attack=(_attack, False),
    eliminate=(_eliminate, False),
    win=(_win, False),
    cancel=(_cancel, False),
)
