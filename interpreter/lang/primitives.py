"""The effect primitives: the only things an effect can do, each declared once.

Each primitive is a function written below its declaration: its parameters
(name, type, default), what it returns (``None`` for actions, which are
statements), what kind of step it is (an action, a pure query, a player's
choice, or chance), where it may appear, and what it does. The checker reads
the declarations to check every call when a rule file loads, the compiler
calls the functions, and ``docs/effects.md`` is generated from the summaries.

A function takes the running :class:`~.machine.Ctx` and then its arguments in
declared order (defaults filled in). It reaches the game only through the
context's ``table`` and ``state`` (see world.py). A choice or chance returns a
:class:`~.machine.Decision` or :class:`~.machine.Chance` whose ``then`` turns
the answer into the value; ``draw`` may return a frame that runs the drawn
card's effect. Arguments are checked here, so that whatever a checked effect
passes, the table stays sound: out-of-range numbers are clamped or ignored,
players out of the game cannot draw, win or be attacked, and a request nobody
could answer stops the game with an error.

Types are plain strings. ``card`` may stand where ``cards`` is wanted,
``zone`` (its contents) where ``cards`` is wanted, and ``player`` where
``players`` is wanted. ``card_id``, ``tag`` and ``str`` accept string literals;
card ids and tags are checked against the loaded cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from types import SimpleNamespace

from .limits import NUMBER_LIMIT, fail, shown
from .machine import Chance, Decision
from .taking import movable, pickable
from .values import HAND, PrivateInt, as_secret_as, cards_of, listed, seats_of, size_of

# value types
INT, BOOL, STR = "int", "bool", "str"
PLAYER, PLAYERS = "player", "players"
#: the default of a parameter that filters by player when left out: no filter, anyone
ANYONE = "anyone"
OWN_TITLE = "own"  # a title left out: the card's own
CARD, CARDS, ZONE = "card", "cards", "zone"
CARD_ID, TAG = "card_id", "tag"
ZONE_NAME = "zone_name"  # a string naming a zone declared `per_player: true`
COUNTER_NAME = "counter_name"  # a string naming a counter declared under `counters:`
TYPES = (INT, BOOL, STR, PLAYER, PLAYERS, CARD, CARDS, ZONE, CARD_ID, TAG, ZONE_NAME, COUNTER_NAME)

#: a value of the key type may be used where any type of the value set is wanted
SUBTYPES = {
    CARD: {CARD, CARDS},
    ZONE: {ZONE, CARDS},
    PLAYER: {PLAYER, PLAYERS},
}

# kinds of step
ACTION, QUERY, CHOICE, CHANCE = "action", "query", "choice", "chance"

# what a call walks, charged to the action's step budget one step an item (limits.py): the
# items of an argument (a zone's cards, a list's cards; a list of players, at most 20, is
# a bounded walk that the call's own step covers), the cards in the hands
# of the players an argument names, the items the call gives (`top(zone, 3)` reads three),
# or the cards it moves with, for each taken from a hand, every card of that hand (what
# each seat knows of the cards left there is looked at), but a whole hand moved at once
# once (MOVES; MOVES_EACH moves the cards one by one: values.moving_steps)
ITEMS, HANDS, GIVES, MOVES, MOVES_EACH = "items", "hands", "gives", "moves", "moves each"

# contexts an effect runs in (the loader picks one for each place an effect is
# written: rules/library.py and rules/cardset.py for cards, rules/edition.py for
# the turn, the state checks and the setup)
PLAY = "play"  # a card's or combo's effect, and its `choose` and `requires`
REACTION = "reaction"  # the effect of a card played in answer to another
DRAWN = "drawn"  # a card's `on_draw` and `instead_of_draw`
TURN = "turn"  # the edition's turn draw (`turn: draw`) and its state checks
SETUP = "setup"  # counts in an edition's setup steps
EFFECT_CONTEXTS = frozenset({PLAY, REACTION, DRAWN, TURN})

#: where a designer writes code of each context, in their words (for the docs);
#: places marked by the loader as ``pure`` take queries only
PLACES = {
    PLAY: ("a card's or combo's `effect`", "a card's or combo's `choose` names",
           "a card's or combo's `requires` (queries only)",
           "the edition's free actions (`actions:` `requires`, queries only, `choose` and `effect`)",
           "the edition's limits on plays (`restrictions:` `allows`, queries only)"),
    REACTION: ("the `effect` of a card with `when: reaction`",),
    DRAWN: ("a card's `on_draw`", "a card's `instead_of_draw`"),
    TURN: ("the edition's turn draw (`turn: draw`)",
           "the edition's state checks (`checks:` `if`, queries only, and `effect`)",
           "the edition's triggers (`triggers:` `if`, queries only, and `effect`)",
           "the edition's scoring (`win:` `score`, `ends_when` and `tie_break`, queries only)"),
    SETUP: ("counts in the edition's `setup` steps (queries only)",),
}


def accepts(wanted: str | tuple, actual: str) -> bool:
    """Whether a value of type ``actual`` may be passed where ``wanted`` is declared."""
    wanted_set = set(wanted) if isinstance(wanted, tuple) else {wanted}
    return bool(SUBTYPES.get(actual, {actual}) & wanted_set)


def type_name(wanted: str | tuple) -> str:
    return " or ".join(wanted) if isinstance(wanted, tuple) else wanted


@dataclass(frozen=True)
class Param:
    name: str
    type: str | tuple
    default: str | None = None  # how the default reads in docs; None = required

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class Primitive:
    name: str
    params: tuple
    returns: str | None
    kind: str
    summary: str
    group: str
    contexts: frozenset = EFFECT_CONTEXTS
    impl: object = field(default=None, compare=False, repr=False)  # what it does
    waits: bool = False  # it may return a request or a frame (choices, chance, draw)
    walks: tuple = ()  # (parameter name or None, ITEMS/HANDS/GIVES): what a call walks

    def walked(self) -> str:
        """What one call costs beyond its own step, in words (for the docs)."""
        parts = [f"a step per card in the hands of `{name}`" if kind == HANDS else
                 "a step per item it gives" if kind == GIVES else
                 f"a step per card of `{name}` and, for a card taken from a hand, per card of that hand"
                 + (" (a whole hand given: once)" if kind == MOVES else "")
                 if kind in (MOVES, MOVES_EACH) else f"a step per item of `{name}`" for name, kind in self.walks]
        return " and ".join(parts)

    def signature(self) -> str:
        parts = [p.name if p.required else f"{p.name}={p.default}" for p in self.params]
        tail = f" -> {self.returns}" if self.returns else ""
        return f"{self.name}({', '.join(parts)}){tail}"


PRIMITIVES: dict[str, Primitive] = {}
_GROUP = ["Players"]


def group(title: str) -> None:
    """The heading under which the primitives declared next are documented."""
    _GROUP[0] = title


def primitive(params, returns, kind, summary, contexts=EFFECT_CONTEXTS, waits=None, walks=()):
    """Declare the primitive the decorated function implements; its name is the
    function's, without a trailing underscore (``min_`` is ``min``). Names are
    written as identifiers, never as strings, so no string in the engine could be
    mistaken for a card id (a Shuffle card and the shuffle primitive share a word).

    ``walks`` says what a call walks, each item a step: parameter names (their items),
    ``(name, HANDS)`` (the hands of those players) or ``GIVES`` (the items it gives)."""
    def declare(fn):
        name = fn.__name__.rstrip("_")
        walked = tuple((None, GIVES) if item == GIVES else (item, ITEMS) if isinstance(item, str) else item
                       for item in walks)
        PRIMITIVES[name] = Primitive(name, tuple(Param(*p) for p in params), returns, kind, summary,
                                     _GROUP[0], frozenset(contexts), fn,
                                     kind in (CHOICE, CHANCE) if waits is None else waits, walked)
        return fn
    return declare


# -- players ----------------------------------------------------------------------
group("Players")


@primitive([], PLAYERS, QUERY,
           'Every player still in the game, in turn order starting with the acting player.')
def players(ctx):
    return ctx.table.seats_from(ctx.me)


@primitive([("of", PLAYER, "me")], PLAYERS, QUERY,
           'Every player still in the game except `of`, in turn order starting with the player after `of` (in the current direction of play).')
def others(ctx, of):
    return [seat for seat in ctx.table.seats_from(of) if seat != of]


@primitive([("of", PLAYER, "me")], PLAYERS, QUERY,
           'The players still in the game on the same team as `of`, except `of` (nobody when the edition has no `teams`).')
def teammates(ctx, of):
    table = ctx.table
    if not table.teams:
        return []
    return [seat for seat in table.seats_from(of) if seat != of and table.team_of(seat) == table.team_of(of)]


@primitive([("of", PLAYER, "me")], PLAYERS, QUERY,
           'The players still in the game on another team than `of` (everyone else when the edition has no `teams`).')
def opponents(ctx, of):
    table = ctx.table
    return [seat for seat in table.seats_from(of)
            if seat != of and (not table.teams or table.team_of(seat) != table.team_of(of))]


@primitive([], PLAYERS, QUERY,
           'Every player who is out of the game, in turn order starting after the acting player (nobody while all play on).')
def out_players(ctx):
    table = ctx.table
    alive, n, me = table.alive, table.players, ctx.me
    return [seat for seat in ((me + i * table.direction) % n for i in range(1, n + 1)) if not alive[seat]]


@primitive([], PLAYERS, QUERY,
           'Every player who is out of the game, in the order they went out, the first to go out first (a player who came back and went out again counts from the last time).')
def out_in_order(ctx):
    table = ctx.table
    gone = table.gone_out
    # players out from the start (a scenario's `start: {out: ...}`) count as the first out
    earlier = [seat for seat in range(table.players) if not table.alive[seat] and seat not in gone]
    return earlier + list(gone)


@primitive([("among", PLAYERS)], PLAYER, QUERY,
           'The first player of `among` (`first_of(out_in_order())`: the first to go out); nobody when `among` is empty.')
def first_of(ctx, among):
    seats = seats_of(among)
    return seats[0] if seats else None


@primitive([("among", PLAYERS)], PLAYERS, QUERY,
           'The players of `among` who hold at least one card.')
def with_cards(ctx, among):
    hands = ctx.table.hands
    return [seat for seat in seats_of(among) if hands[seat].cards]


@primitive([("after", PLAYER, "me")], PLAYER, QUERY,
           'The player whose turn comes after `after` in the current direction of play.')
def next_player(ctx, after):
    return ctx.table.next_seat(after)


@primitive([("player", PLAYER, "me")], INT, QUERY,
           'The seat number of `player`: 0 for the first player, one more for each seat after it. It is the number a counter holds for a player (`set_counter("target", seat_number(p))`), read back with `player_in_seat`; a player chosen in secret gives a number as secret.')
def seat_number(ctx, player):
    return player


@primitive([("number", INT)], PLAYER, QUERY,
           'The player in seat `number`, whether still in the game or out (`player_in_seat(counter("target"))`); nobody for a number that is no seat, such as a counter never set.')
def player_in_seat(ctx, number):
    return number if 0 <= number < ctx.table.players else None


@primitive([("player", PLAYER, "me")], INT, QUERY,
           'How many turns `player` still owes, counting the one being played.')
def owed(ctx, player):
    return min(ctx.table.owed[player], NUMBER_LIMIT)


@primitive([("among", PLAYERS), ("card", CARD_ID)], PLAYERS, QUERY,
           'The players of `among` who hold a card with the id `card`. Using the answer in a way others can see tells them who holds it: do that only when the card says so.',
           walks=(("among", HANDS),))
def holding(ctx, among, card):
    hands = ctx.table.hands
    return [seat for seat in seats_of(among) if any(inst.id == card for inst in hands[seat].cards)]


@primitive([("card", CARDS)], PLAYER, QUERY,
           'The player who last played `card` (of several cards, the first; nobody, for a card never played): on their turn, as a combo, or in answer to another card (a Nope); a card discarded from a hand with `discard` (a spent Defuse) counts as played by the player who held it.')
def played_by(ctx, card):
    found = listed(card)
    return found[0].played_by if found else None


@primitive([("cards", CARDS)], PLAYER, QUERY,
           'The player whose hand holds `cards` (of several cards, the first); nobody for a card in no hand (a pile, a zone in front of a player). In a restriction on taking, `held_by(this) == me` is "unless it is your own". Using the answer where others can see it tells them whose hand the card is in.')
def held_by(ctx, cards):
    found = listed(cards)
    if not found:
        return None
    zone = found[0].zone
    return zone.owner if zone is not None and zone.kind == HAND else None


@primitive([("name", COUNTER_NAME), ("player", PLAYER, "me")], INT, QUERY,
           "`player`'s counter `name` (a score, tokens, a mark), declared under `counters:`: a number every player can see, unless the counter is declared `visible: owner` (only `player` knows it) or `visible: nobody`; such a number stays a secret in what it is used for, until it is stored where everyone sees it.")
def counter(ctx, name, player):
    table = ctx.table
    value = table.counters[name][player]
    if table.hidden_counters and name in table.hidden_counters:
        return PrivateInt(value, table.counter_seers(name, player))
    return value


# -- cards and zones ----------------------------------------------------------------
group("Cards and zones")


@primitive([("player", PLAYER)], ZONE, QUERY,
           'The hand of `player`.')
def hand(ctx, player):
    return ctx.table.hands[player]


@primitive([("cards", CARDS), ("n", INT, "1")], CARDS, QUERY,
           'The first `n` cards of a zone or card list (all of them if there are fewer; none if `n` is 0 or less).',
           walks=(GIVES,))
def top(ctx, cards, n):
    return listed(cards)[:max(n, 0)]


@primitive([("cards", CARDS), ("n", INT, "1")], CARDS, QUERY,
           'The last `n` cards of a zone or card list (all of them if there are fewer; none if `n` is 0 or less).',
           walks=(GIVES,))
def bottom(ctx, cards, n):
    found = listed(cards)
    return found[max(len(found) - n, 0):] if n > 0 else []


@primitive([("cards", CARDS), ("card", CARD_ID)], CARDS, QUERY,
           'The cards of `cards` whose id is `card`.', contexts=EFFECT_CONTEXTS | {SETUP}, walks=("cards",))
def find(ctx, cards, card):
    return [inst for inst in listed(cards) if inst.id == card]


@primitive([("cards", CARDS), ("tag", TAG)], CARDS, QUERY,
           'The cards of `cards` that carry the tag `tag`.', contexts=EFFECT_CONTEXTS | {SETUP},
           walks=("cards",))
def tagged(ctx, cards, tag):
    return [inst for inst in listed(cards) if tag in inst.card.tags]


@primitive([("of", (CARDS, PLAYERS))], INT, QUERY,
           'How many cards or players there are in `of`.', contexts=EFFECT_CONTEXTS | {SETUP})
def count(ctx, of):
    return size_of(of)


@primitive([("cards", CARDS)], CARD_ID, QUERY,
           'The title (card id) of a card; of several cards, of the first (nothing for none). It compares with a written title: `title(this) == "card_id"`.')
def title(ctx, cards):
    found = listed(cards)
    return found[0].id if found else None


@primitive([], CARDS, QUERY,
           'The cards of the play this card answers (the card or combo it was played against; for an answer to an answer, that answer); for an answer to a moment (`answers:`, or an `at: before` trigger), the moment\'s card (none for a player\'s moment). None outside an answer.',
           walks=(GIVES,))
def answered(ctx):
    target = ctx.target
    return list(target.cards) if target is not None else []


@primitive([], PLAYER, QUERY,
           'The player whose play this card answers, or whom the moment it answers is about (who goes out, who drew, the owner of the hand a card enters; for a shared zone, whose turn it is). Nobody outside an answer.')
def answered_player(ctx):
    target = ctx.target
    return target.seat if target is not None else None


@primitive([("player", PLAYER), ("card", CARD_ID)], BOOL, QUERY,
           'Whether `player` holds at least one card with the id `card`.', walks=(("player", HANDS),))
def has(ctx, player, card):
    return any(inst.id == card for inst in ctx.table.hands[player].cards)


@primitive([("cards", CARDS), ("zone", ZONE)], CARDS, QUERY,
           'The cards of `cards` that are in `zone` now.', walks=("cards",))
def in_zone(ctx, cards, zone):
    return [inst for inst in listed(cards) if inst.zone is zone]


@primitive([("cards", CARDS), ("exclude", CARDS)], CARDS, QUERY,
           'The cards of `cards` that are not in `exclude`.', walks=("cards", "exclude"))
def without(ctx, cards, exclude):
    gone = {inst.uid for inst in listed(exclude)}
    return [inst for inst in listed(cards) if inst.uid not in gone]


@primitive([("card", CARD)], BOOL, QUERY,
           'Whether `card` lies face up in a pile (see `move(..., face_up=true)`); for a card that has just come into a hand (a drawn card), whether it lay face up before.')
def is_face_up(ctx, card):
    found = listed(card)
    if not found:
        return False
    inst = found[0]  # a card just drawn: whether it lay face up in the pile
    return inst.face_up or (inst.zone.kind == HAND and inst.was_face_up)


@primitive([("cards", CARDS), ("card", CARD_ID)], CARDS, QUERY,
           'The cards of `cards` that are `card` or may stand in for it (a card whose `stands_for` covers it), and that the edition\'s restrictions on spending (`applies_to: [spending]`) let the acting player spend.',
           walks=("cards",))
def playable_as(ctx, cards, card):
    state = ctx.state
    if not state.has_wilds:
        found = [inst for inst in listed(cards) if inst.id == card]
    else:
        wanted = state.cards.get(card)
        if wanted is None:  # a card this edition does not load (the checker warned): nothing is it
            return []
        found = [inst for inst in listed(cards) if inst.card.may_stand_for(wanted)]
    if state.spending_limits and found:
        found = [inst for inst in found if _may_spend(ctx, inst, state.spending_limits)]
    return found


def _may_spend(ctx, inst, limits) -> bool:
    """Whether every restriction on spending lets the acting player spend ``inst``."""
    probe = type(ctx)(ctx.state, ctx.me, [inst], source=ctx.source)
    return all(test(probe) for test in limits)


@primitive([("player", PLAYER), ("name", ZONE_NAME)], ZONE, QUERY,
           "`player`'s own copy of a zone declared with `per_player: true` (the cards in front of them, say).")
def zone_of(ctx, player, name):
    return ctx.table.areas[name][player]


@primitive([("a", INT), ("b", INT)], INT, QUERY,
           'The smaller of two numbers.', contexts=EFFECT_CONTEXTS | {SETUP})
def min_(ctx, a, b):
    return as_secret_as(min(a, b), (a, b))


@primitive([("a", INT), ("b", INT)], INT, QUERY,
           'The larger of two numbers.', contexts=EFFECT_CONTEXTS | {SETUP})
def max_(ctx, a, b):
    return as_secret_as(max(a, b), (a, b))


# -- chance and choices -------------------------------------------------------------
group("Chance and choices")

#: the most cards `rearrange` puts in order: the player picks one of n! orders
MAX_REARRANGE = 6


def _decoyed(ctx, cards):
    """A hand guarded by a `decoy` card gives its decoy zone's cards instead."""
    if ctx.state.has_decoys and getattr(cards, "kind", None) == HAND:
        table = ctx.table
        for area in table.areas_of(cards.owner):
            for inst in area.cards:
                stash = inst.card.decoy
                if stash is not None and table.extra[stash].cards:
                    return table.extra[stash]
    return cards


def _pick(ctx, index, found):
    return found[index]


def _random_pick(found):
    return Chance("pick", len(found), {"zone": found[0].zone.name, "cards": [inst.id for inst in found]},
                  (_pick, (found,)))


@primitive([("cards", CARDS)], CARD, CHANCE,
           'One card of `cards` picked uniformly at random; nobody chooses it. Taken from a hand guarded by a `decoy` card, it comes from the decoy zone instead. Cards a restriction on taking (`applies_to: [taking]`) keeps in another player\'s hand are left out; nothing is picked when none is left.',
           walks=("cards",))
def random_card(ctx, cards):
    given = _decoyed(ctx, cards)
    found = cards_of(given)
    limits = ctx.state.taking_limits
    if limits and found:
        found = pickable(ctx, given, found, limits)
    return _random_pick(found) if found else None


def _picked_blind(ctx, picked, plain):
    if picked is not None:
        return picked
    return _random_pick(plain)


@primitive([("cards", CARDS), ("by", PLAYER, "me")], CARD, CHANCE,
           '`by` takes a card without seeing faces: at random, except that a card with a distinct back (`back: distinct`) can be told apart and taken on purpose. Guarded hands give a decoy card, and cards a restriction on taking keeps in another player\'s hand are left out, as for `random_card`.',
           walks=("cards",))
def blind_pick(ctx, cards, by):
    given = _decoyed(ctx, cards)
    found = cards_of(given)
    limits = ctx.state.taking_limits
    if limits and found:
        found = pickable(ctx, given, found, limits)
    marked = [inst for inst in found if inst.card.back_distinct] if ctx.state.has_marked else ()
    if marked:
        plain = [inst for inst in found if not inst.card.back_distinct]
        options = ([True] if plain else []) + [inst.id for inst in marked]
        values = ([None] if plain else []) + marked
        return Decision(by, "blind_pick", options, values, {**ctx.state.about(ctx), "random": bool(plain)},
                        (_picked_blind, (plain,)))
    return _random_pick(found) if found else None


def _one_of_each(cards: list) -> tuple:
    """The titles of ``cards`` in the order met, and the first card of each (a set finds
    the titles met: a pile of many cards of few titles is walked once)."""
    options, values, seen = [], [], set()
    for inst in cards:
        if inst.id not in seen:
            seen.add(inst.id)
            options.append(inst.id)
            values.append(inst)
    return options, values


@primitive([("among", CARDS), ("by", PLAYER, "me")], CARD, CHOICE,
           '`by` picks which kind of card of `among` to use: one card of each title is offered, and nobody is asked when all are of one title. It picks what a player spends (the Defuse a kitten finds with `playable_as`, spent with `spend`), so a restriction on taking (`applies_to: [taking]`) does not limit it: spending is not taking.',
           walks=("among",))
def choose_kind(ctx, among, by):
    options, values = _one_of_each(listed(among))
    if len(options) < 2:
        return chosen_alone(ctx, by, "choose_card", options, values[0]) if values else None
    return Decision(by, "choose_card", options, values, ctx.state.about(ctx))


@primitive([("among", PLAYERS), ("by", PLAYER, "me"), ("secret", BOOL, "false")], PLAYER, CHOICE,
           '`by` picks one player of `among`; nobody is asked when there is only one. A card cannot be played when there is none to pick. With `secret=true` only `by` learns whom, as with `choose_number`: a vote or a secret target, kept in a counter only its owner sees (`set_counter("target", seat_number(choose_player(others(), secret=true)))`) and shown once used where everyone sees it.')
def choose_player(ctx, among, by, secret):
    seats = list(seats_of(among))
    if len(seats) < 2:  # like choose_kind: a choice of one is no choice (and its only
        # seat was already known to `by`, so nothing leaks)
        return chosen_alone(ctx, by, "choose_player", seats, seats[0]) if seats else None
    if secret:
        return Decision(by, "choose_player", seats, None, {**ctx.state.about(ctx), "secret": True},
                        (_kept_secret, (by,)))
    return Decision(by, "choose_player", seats, None, ctx.state.about(ctx))


def chosen_alone(ctx, by, kind: str, options: list, value):
    """``value``, the one option of a choice the engine makes itself instead of asking
    ``by``: told to whoever listens (``state.alone``, a list: the scenario runner, which
    accepts an older script's answer to it with a deprecation warning)."""
    heard = getattr(ctx.state, "alone", None)
    if heard is not None:
        heard.append((by, kind, list(options)))
    return value


@primitive([("among", CARDS), ("by", PLAYER, "me")], CARD, CHOICE,
           "`by` picks one card of `among`, seeing the cards' faces if they may see them. Cards a restriction on taking (`applies_to: [taking]`) keeps in a hand other than the acting player's are not offered, even when `by` holds them (a Favor's victim gives another card, or nothing).",
           walks=("among",))
def choose_card(ctx, among, by):
    found = cards_of(among)
    limits = ctx.state.taking_limits
    if limits and found:
        found = pickable(ctx, among, found, limits)
    if not found:
        return None
    bit = 1 << by
    if all(inst.known & bit for inst in found):  # cards of one title are alike: each title once
        options, values = _one_of_each(found)
    else:  # face down to the chooser: they pick a place, blind
        options, values = list(range(len(found))), found
    return Decision(by, "choose_card", options, values, ctx.state.about(ctx))


@primitive([("by", PLAYER, "me"), ("playable", BOOL, "false")], CARD_ID, CHOICE,
           '`by` names one card title of the edition. With `playable=true` only titles a player may play on their own turn are offered (`when: own_turn` or `any_time`): a claim made face down names something it could be.')
def choose_title(ctx, by, playable):
    titles = ctx.state.titles
    if playable:
        cards = ctx.state.cards
        titles = [t for t in titles if cards[t].when in ("own_turn", "any_time")]
    return Decision(by, "choose_title", titles, None, ctx.state.about(ctx))


def _secret_place(ctx, place, by):
    return PrivateInt(place, 1 << by)


@primitive([("zone", ZONE), ("by", PLAYER, "me"), ("within", INT, "0")], INT, CHOICE,
           '`by` picks a place in `zone`: 0 is the top, `count(zone)` the bottom. With `within` above 0 only the top `within` places are offered (`within=3`: the top, second or third place), with no scratch zone needed.',
           walks=("zone",))
def choose_position(ctx, zone, by, within):
    size = len(zone.cards) + 1  # the places: above each card, and the bottom
    info = {**ctx.state.about(ctx), "zone": zone.name}
    if 0 < within < size:  # the top few places only: the last one offered is not the bottom
        size = int(within)
        info["within"] = size
    return Decision(by, "choose_position", list(range(size)), None, info, (_secret_place, (by,)))


@primitive([("question", STR), ("by", PLAYER, "me")], BOOL, CHOICE,
           '`by` answers a yes-or-no question.')
def ask(ctx, question, by):
    return Decision(by, "ask", [True, False], None, {**ctx.state.about(ctx), "question": question})


def _put_in_order(ctx, order, found, by):
    ctx.table.rearrange([found[index] for index in order], 1 << by)


@primitive([("cards", CARDS), ("by", PLAYER, "me")], None, CHOICE,
           '`by` puts the cards (a run of one pile, such as `top(draw_pile, 3)`) back in the order they like. Only they learn the new order, and they must be able to see the cards (`show` them first). When the cards lie in different zones, only those in the zone that holds most of them are rearranged; more than six cards stop the game with an error (too many orders to pick from).',
           walks=("cards",))
def rearrange(ctx, cards, by):
    found = cards_of(cards)
    if found:  # cards moved elsewhere since they were listed stay put: one zone is rearranged
        held: dict = {}
        for inst in found:
            held[inst.zone.name] = held.get(inst.zone.name, 0) + 1
        zone = max((inst.zone for inst in found), key=lambda z: held[z.name])  # the first of the fullest
        found = [inst for inst in found if inst.zone is zone]
    if len(found) < 2:
        return None
    if len(found) > MAX_REARRANGE:
        fail(ctx.state.where(ctx), f"rearrange() was given {len(found)} cards; at most {MAX_REARRANGE} "
                                   "can be put in order (a player picks one of every possible order): "
                                   "rearrange fewer, such as `top(draw_pile, 3)`")
    options = [list(order) for order in permutations(range(len(found)))]
    bit = 1 << by  # a card the chooser was never shown stays a blank to them
    return Decision(by, "rearrange", options, None,
                    {**ctx.state.about(ctx), "cards": [inst.id if inst.known & bit else None for inst in found]},
                    (_put_in_order, (found, by)))


# -- numbers, places within a part of a zone, secret answers, hidden places (issue 42) --
#: the largest number `choose_number` offers (every number of its range is an option)
MAX_CHOSEN_NUMBER = 100


def _kept_secret(ctx, number, by):
    return PrivateInt(number, 1 << by)


@primitive([("low", INT), ("high", INT), ("by", PLAYER, "me"), ("secret", BOOL, "false")], INT, CHOICE,
           '`by` picks a whole number from `low` to `high` (both included; at most 0 to 100): a bid, how many to discard. Nobody is asked when `low` equals `high`; a range with no number in it (`high` below `low`) stops the game with an error. With `secret=true` only `by` learns the answer: every other seat sees that a number was chosen, never which, until the number is shown (stored in a counter everyone sees, or used where everyone sees it), so players asked one after another choose as if at once (a sealed bid, a vote).')
def choose_number(ctx, low, high, by, secret):
    if high < low:
        fail(ctx.state.where(ctx), f"choose_number() was given the range {shown(low)} to {shown(high)}, "
                                   "which holds no number: nobody can answer it; keep `high` at least `low`, or "
                                   "ask only when a number can be chosen (`if count(hand(me)) > 0 { ... }`)")
    if low < 0 or high > MAX_CHOSEN_NUMBER:
        fail(ctx.state.where(ctx), f"choose_number() was given the range {shown(low)} to {shown(high)}; "
                                   f"the numbers offered must lie from 0 to {MAX_CHOSEN_NUMBER} (a player "
                                   "picks one of every number): narrow the range, such as with `min(n, 10)`")
    if low == high:  # a choice of one is no choice, and everyone can tell what it is
        return int(low)
    numbers = list(range(int(low), int(high) + 1))
    info = {**ctx.state.about(ctx), "low": int(low), "high": int(high)}
    if secret:
        info["secret"] = True
        return Decision(by, "choose_number", numbers, None, info, (_kept_secret, (by,)))
    return Decision(by, "choose_number", numbers, None, info)


def _picked_seat(ctx, index, seats):
    return seats[index]


@primitive([("among", PLAYERS)], PLAYER, CHANCE,
           'One player of `among` picked uniformly at random; nobody chooses it and no event names the pick (nothing for none). With a counter declared `visible: owner` it deals a secret role: set every player\'s counter, the one picked to 1 and the others to 0, so that every seat is told alike that its counter was set.',
           waits=True)
def random_player(ctx, among):
    seats = list(seats_of(among))
    if len(seats) < 2:
        return seats[0] if seats else None
    return Chance("pick", len(seats), {"players": seats} if ctx.state.explicit_chance else None,
                  (_picked_seat, (seats,)))


def _picked_number(ctx, index, low):
    return low + index


@primitive([("low", INT), ("high", INT)], INT, CHANCE,
           'A whole number from `low` to `high` (both included) picked uniformly at random; nobody chooses it and no event names it, so it is known where it is used (a counter set to it, a number of cards drawn). `low` equal to `high` gives that number; a range with no number in it (`high` below `low`), or of more than 101 numbers, stops the game with an error.',
           waits=True)
def random_number(ctx, low, high):
    if high < low or high - low > MAX_CHOSEN_NUMBER:
        fail(ctx.state.where(ctx), f"random_number() was given the range {shown(low)} to {shown(high)}; it "
                                   f"picks among 1 to {MAX_CHOSEN_NUMBER + 1} numbers: keep `high` at least "
                                   f"`low` and at most {MAX_CHOSEN_NUMBER} above it")
    if low == high:
        return int(low)
    return Chance("pick", int(high) - int(low) + 1,
                  {"numbers": [int(low), int(high)]} if ctx.state.explicit_chance else None,
                  (_picked_number, (int(low),)))


def _hidden_place(ctx, place):
    return PrivateInt(place, 0)


@primitive([("zone", ZONE), ("within", INT, "0")], INT, CHANCE,
           'A place in `zone` picked at random that no player learns: from the top (0) to the bottom (`count(zone)`), or with `within` above 0 among the top `within` places only (`within=3`: one of the top three places). Used as `move`\'s `at`, every seat loses track of the card, and of the order of the pile under the place, as if the card had been slipped in unseen.',
           waits=True, walks=("zone",))
def random_position(ctx, zone, within):
    size = len(zone.cards)
    places = size + 1 if within <= 0 else min(int(within), size + 1)
    if places < 2:  # one place only: everyone can tell where the card goes
        return 0
    return Chance("pick", places, {"zone": zone.name, "places": places} if ctx.state.explicit_chance else None,
                  (_hidden_place, ()))


# -- actions --------------------------------------------------------------------------
group("Actions")


@primitive([("cards", CARDS), ("to", ZONE), ("at", INT, "0"), ("face_up", BOOL, "false")], None, ACTION,
           'Move cards into a zone, at position `at` counted from the top (a place past the bottom is the bottom, a negative one the top). Whoever owns the destination hand learns the cards; a public zone shows them to everyone. With `face_up=true` a card lies face up: in a pile everyone sees it and its place; in a hand everyone sees it there until it leaves the hand. A place picked with `choose_position` stays known only to whoever picked it. A card a restriction on taking (`applies_to: [taking]`) keeps in a hand other than the acting player\'s stays there.',
           walks=(("cards", MOVES),))
def move(ctx, cards, to, at, face_up):
    moving = cards_of(cards)
    limits = ctx.state.taking_limits
    if limits and moving:
        moving = movable(ctx, moving, limits)
    sight = ctx.sight
    if sight is None:
        ctx.table.move(moving, to, at, face_up=face_up)
        return
    ctx.table.move(moving, to, at, face_up=face_up, in_sight=sight)
    for inst in moving:  # seen going: once it has moved, it is out of sight again
        sight.pop(inst.uid, None)


def _shuffled(ctx, order, zone):
    ctx.table.shuffle(zone, order)


@primitive([("zone", ZONE)], None, ACTION,
           'Shuffle a zone uniformly at random; what anyone knew of its order is forgotten.', waits=True,
           walks=("zone",))
def shuffle(ctx, zone):
    info = {"zone": zone.name, "cards": [inst.id for inst in zone.cards]} if ctx.state.explicit_chance else None
    return Chance("order", len(zone.cards), info, (_shuffled, (zone,)))


@primitive([("cards", CARDS), ("to", PLAYERS), ("secret", BOOL, "false")], None, ACTION,
           'Let the players `to` see the faces of the cards, privately: everyone learns that they were shown so many cards of that zone, only they learn which. With `secret=true` nobody else learns even that (the player whose effect it is neither, unless among `to`): a hidden role\'s look, a partner\'s glance.',
           walks=("cards",))
def show(ctx, cards, to, secret):
    mask = 0
    for seat in seats_of(to):
        mask |= 1 << seat
    shown = cards_of(cards)
    ctx.table.show(shown, mask, secret)
    _in_sight(ctx, shown, mask)


def _in_sight(ctx, cards: list, seats: int) -> None:
    """Remember that ``seats`` have just seen these cards: while this effect runs, a move
    of one of them out of a hand is seen going (engine/table.py, Table.move)."""
    sight = ctx.sight
    if sight is None:
        sight = ctx.sight = {}
    for inst in cards:
        sight[inst.uid] = sight.get(inst.uid, 0) | seats


@primitive([("cards", CARDS)], None, ACTION,
           "Show the cards' faces to every player.",
           walks=("cards",))
def reveal(ctx, cards):
    shown = cards_of(cards)
    ctx.table.reveal(shown)
    _in_sight(ctx, shown, ctx.table.everyone)


@primitive([("player", PLAYER, "me"), ("from_bottom", BOOL, "false")], None, ACTION,
           "`player` takes the top (or bottom) card of the draw pile into their hand, and that card's `on_draw` effect runs. A player who is out of the game draws nothing.",
           waits=True)
def draw(ctx, player, from_bottom):
    if ctx.table.alive[player]:
        return ctx.state.draw(player, from_bottom)
    return None


@primitive([("title", CARD_ID), ("cards", CARDS)], None, ACTION,
           "Carry out the card `title` as if you had just played it, with `cards` standing for it (`this`): its choices are made and its effect runs. Nobody may answer it (the card that led here could be answered); it does not count as a play of `title`. A title without an effect does nothing.",
           waits=True)
def play_as(ctx, title, cards):
    return ctx.state.play_as(ctx, title, cards)


@primitive([("turns", INT, "1")], None, ACTION,
           "End `turns` of the acting player's owed turns (the current one first; a number below 1 counts as 1); play no more cards this turn. Nothing happens when it is not the acting player's turn.")
def end_turn(ctx, turns):
    ctx.table.end_turn(ctx.me, turns if turns > 0 else 1)  # the turn being played always counts


@primitive([("victim", PLAYER), ("turns", INT)], None, ACTION,
           "End all of the acting player's turns (extra turns from `extra_turns` included); `victim` owes `turns` more, plus the turns the attacker still owed to attacks when they were themselves under attack (if the edition's `attacks_stack` rule is on; extra turns are never passed on). Play continues from `victim`. Made by a player whose turn it is not, outside an answer (a trigger's or a check's `me`, a player drawing on another's turn), it ends the turn under way instead (its player keeps the turns they still owe) and play continues from `victim` all the same. In answer to another card by a player whose turn it is not, it ends nobody's turn: `victim` owes the turns and the current turn goes on. A negative `turns` counts as 0; nothing happens when `victim` is out of the game.")
def attack(ctx, victim, turns):
    table = ctx.table
    if victim is not None and table.alive[victim]:
        turns = max(turns, 0)
        stack = ctx.state.rules["attacks_stack"]
        # what the victim will owe (table.attack): turns stacked over many attacks must stay
        # within the number limit too, as every number in play does (limits.py)
        in_turn = ctx.me == table.current
        carried = table.owed[ctx.me] if in_turn and stack and table.attacked[ctx.me] else 0
        owes = (0 if in_turn and victim == ctx.me else table.owed[victim]) + turns + carried
        if owes > NUMBER_LIMIT:
            fail(ctx.state.where(ctx), f"seat {victim} would owe {shown(owes)} turns, beyond the "
                                       f"largest number an effect may use ({NUMBER_LIMIT:,})")
        table.attack(ctx.me, victim, turns, stack, ctx.target is not None)


@primitive([("cards", CARDS)], None, ACTION,
           'Put cards on the discard pile, one by one (a card with a home, `returns_to`, goes home instead, as it does whenever it would reach the discard pile). A card discarded from a hand is spent by the player who held it: `played_by` gives that player (a spent Defuse, say), though it is not a play (`last_played` and `played_this_turn` leave it out). A card a restriction on taking (`applies_to: [taking]`) keeps in a hand other than the acting player\'s stays there.',
           walks=(("cards", MOVES_EACH),))
def discard(ctx, cards):
    table = ctx.table
    moving = cards_of(cards)
    limits = ctx.state.taking_limits
    if limits and moving:
        moving = movable(ctx, moving, limits)
    for inst in moving:  # one by one: the last card lands on top
        owner = inst.zone.owner if inst.zone.kind == HAND else None
        table.move([inst], table.discard_pile)
        if owner is not None:  # spent from a hand (a Defuse): spent by its holder
            inst.played_by = owner


@primitive([("cards", CARDS), ("title", CARD_ID, OWN_TITLE)], BOOL, ACTION,
           'Spend cards as `title` (by default the first card\'s own title) and say whether the spending stands: they go to the discard pile as `discard` puts them, and where that title may be Noped (`nopeable`), every player may answer as they answer a play of it. True unless an answer cancelled it (the cards stay spent); false when there is nothing to spend. It is not a play: `last_played` and `played_this_turn` leave it out. The shipped kittens spend their Defuse with it, so `patch_cards: {defuse: {nopeable: true}}` is all "a Nope may stop a Defuse" takes.',
           waits=True, walks=(("cards", MOVES_EACH),))
def spend(ctx, cards, title):
    found = cards_of(cards)
    if not found:
        return False
    inst = found[0]
    seat = inst.zone.owner if inst.zone.kind == HAND else ctx.me
    table = ctx.table
    for card in found:  # as discard puts them, one by one; spending is not taking: never kept
        owner = card.zone.owner if card.zone.kind == HAND else None
        table.move([card], table.discard_pile)
        if owner is not None:
            card.played_by = owner
    if ("card_spent", None) in table.watch:  # (a `card_spent` trigger, or a card answering it)
        for spent in found:
            table.moments.append(("card_spent", seat, spent, None))
    return ctx.state.spending(ctx, seat, inst.id if title is None else title, found)


@primitive([], None, ACTION,
           'Reverse the direction of play. With two players the order of turns stays the same.')
def reverse(ctx):
    ctx.table.reverse()


@primitive([("player", PLAYER)], None, ACTION,
           'Take `player` out of the game; their owed turns are dropped. Nothing happens to a player who is already out. Where the edition meets `player_out` before it happens (an `at: before` trigger, a card that answers it), those run first, and a cancel() there keeps the player in. Not in a `game_end` trigger: the game is decided there, and its winners must still be in it.',
           waits=True)
def eliminate(ctx, player):
    if player is not None:
        if ctx.table.ending:  # (the loader refuses it in game_end triggers; here for any other way)
            fail(ctx.state.where(ctx), "eliminate() cannot take a player out once the game is decided "
                                       "(a `game_end` trigger): who is in settles who wins")
        return ctx.state.going_out(player)  # None once done, or the frame meeting the moment first
    return None


@primitive([("player", PLAYER)], None, ACTION,
           'Bring `player` back into the game, at their own seat in the turn order: they keep the cards their hand holds (give them some with `move`), owe no turns and play when their turn comes round. Nothing happens to a player who is still in the game, or once the game is over.')
def revive(ctx, player):
    if player is not None:
        ctx.table.revive(player)


@primitive([("name", COUNTER_NAME), ("amount", INT), ("player", PLAYER, "me")], None, ACTION,
           "Add `amount` (a negative number takes away) to `player`'s counter `name`; it stays within the counter's `min` and `max`. Everyone sees the new value (for a counter declared `visible: owner` only `player`, for `visible: nobody` no one).")
def add_counter(ctx, name, amount, player):
    if player is not None:
        ctx.table.set_counter(name, player, ctx.table.counters[name][player] + amount)


@primitive([("name", COUNTER_NAME), ("value", INT), ("player", PLAYER, "me")], None, ACTION,
           "Set `player`'s counter `name` to `value` (kept within the counter's `min` and `max`). Everyone sees the new value (for a counter declared `visible: owner` only `player`, for `visible: nobody` no one): setting a counter everyone sees to a secret number (from `choose_number(..., secret=true)` or a hidden counter) shows it to all.")
def set_counter(ctx, name, value, player):
    if player is not None:
        ctx.table.set_counter(name, player, value)


@primitive([("player", PLAYER)], None, ACTION,
           'End the game at once with `player` as its winner, and in a team game their team (for a win condition other than being the last one left, usually in a state check). Nothing happens when `player` is out of the game.')
def win(ctx, player):
    if player is not None and ctx.table.alive[player]:
        ctx.table.finish(player, "won", ctx.table.team(player))


@primitive([], None, ACTION,
           'Cancel the card or combo this card was played in answer to. Answering a cancel with another cancel restores the action, and so on. In answer to a moment met before it happens (`at: before`), cancel the moment: the player does not go out, the drawn card\'s `on_draw` does not run; after a moment, nothing happens.', contexts=[REACTION])
def cancel(ctx):
    if ctx.target is not None:
        ctx.target.cancelled = True


# -- turns and history (issue 42: turn control, history and turn queries) ---------------
group("Turns and history")


@primitive([("player", PLAYER, "me"), ("turns", INT, "1")], None, ACTION,
           "`player` takes `turns` extra turns, which are not an attack: on their turn (or at its end, in a `turn_end` trigger) they come right after the turns `player` owes, play coming back to them if it had passed on; on someone else's turn, `player` takes them after their own next turn. Extra turns are the last of a player's turns to be taken, count in `owed`, and end with the rest when `player` attacks: an attack never passes them on. Nothing happens for a player who is out, or for `turns` below 1.")
def extra_turns(ctx, player, turns):
    if player is not None:
        table = ctx.table
        if table.owed[player] + turns + 1 > NUMBER_LIMIT:
            fail(ctx.state.where(ctx), f"seat {player} would owe {shown(table.owed[player] + turns + 1)} "
                                       f"turns, beyond the largest number an effect may use ({NUMBER_LIMIT:,})")
        table.give_turns(player, turns)


@primitive([("player", PLAYER), ("turns", INT, "1")], None, ACTION,
           "Pass over `player`: the next `turns` times play passes on to them (after a draw, a Skip, any turn that ends with nothing more owed), it goes past them to the player after, who takes no turn for it. Play moved to them on purpose (an attack, `extra_turns`) is not passed over. Nothing happens to a player who is out.")
def pass_over(ctx, player, turns):
    if player is not None:
        ctx.table.pass_over(player, turns)


@primitive([], INT, QUERY,
           "The number of the turn under way: 1 for the game's first turn, and one more for every turn after it, each of several owed turns counting as one (as `turn_start` triggers do); 0 before the first turn (in a `game_start` trigger).")
def turn_number(ctx):
    return ctx.table.turn


@primitive([], PLAYER, QUERY,
           "The player whose turn is under way, or whose turn has just ended: unlike `whose_turn()`, it does not move on as a turn passes, only as the next turn begins. So in a `card_drawn` or `turn_end` trigger, `turn_player() == me` tells a draw on one's own turn (the turn's draw, which passed the turn on) from a draw another player's card made one take. The first player in a `game_start` trigger.")
def turn_player(ctx):
    table = ctx.table
    return table.turn_seat if table.turn else table.current


@primitive([], INT, QUERY,
           "The number of the round under way: 1 for the first, 0 before the first turn (in a `game_start` trigger). A round is over once every player still in has begun a turn in it (however many turns an attack made someone take, and whichever way play goes), and the next round begins as play passes to another player; a player who goes out no longer counts, one who comes back counts from then on. A `round_start` trigger runs as each round begins, before that turn's `turn_start`.")
def round_number(ctx):
    return ctx.table.round


@primitive([], PLAYER, QUERY,
           "The player whose turn it is; once a turn has passed on (after a draw, a Skip or an attack, in the state checks and in `turn_end` triggers), the player who plays next.")
def whose_turn(ctx):
    return ctx.table.current


@primitive([], CARDS, QUERY,
           "The cards of the game's last play that put cards down, at whatever turn it was made: a card played, a combo's cards, or an answer (a Nope); none before the first. `played_by(last_played())` is who made it. A free action, `play_as` and cards spent with `discard` are not plays: they leave it as it was, so a card laid face down and carried out with `play_as` is never named.",
           walks=(GIVES,))
def last_played(ctx):
    return list(ctx.table.last_play)


def _played_this_turn(plays: list, by) -> list:
    if by is None:
        return [inst for _seat, inst in plays]
    wanted = seats_of(by)
    return [inst for seat, inst in plays if seat in wanted]


@primitive([("by", PLAYERS, ANYONE)], CARDS, QUERY,
           "The cards played during the turn under way, oldest first (each of several owed turns is a turn of its own): cards and combos played, and answers to them (Nopes); with `by`, only those the players `by` played. As for `last_played`, free actions, `play_as` and cards spent with `discard` are not plays.",
           walks=(GIVES,))
def played_this_turn(ctx, by):
    plays = ctx.table.turn_plays
    return _played_this_turn(plays, by) if plays else []


@primitive([("by", PLAYERS, ANYONE)], CARDS, QUERY,
           "The cards played during the turn before the one under way (whoever's turn it was; each of several owed turns is a turn of its own), oldest first, as `played_this_turn` gives them for the turn under way; with `by`, only those the players `by` played. None on the game's first turn.",
           walks=(GIVES,))
def played_last_turn(ctx, by):
    plays = ctx.table.last_turn_plays
    return _played_this_turn(plays, by) if plays else []


#: primitive names as attributes (``NAMES.move``), for code that must name a
#: primitive without writing a string that could be mistaken for a card id
NAMES = SimpleNamespace(**{name: name for name in PRIMITIVES})

#: queries that may give no player at all (a card nobody has played yet): like
#: choices with nothing to choose, what takes their value then does nothing
MAY_GIVE_NOTHING = frozenset({NAMES.played_by, NAMES.player_in_seat, NAMES.first_of,
                              NAMES.answered_player, NAMES.held_by})

#: names an effect can use without defining them, by context, with their types
BUILTIN_NAMES = {
    "me": PLAYER,
    "draw_pile": ZONE,
    "discard_pile": ZONE,
    "removed": ZONE,
}

#: engine rules an edition may set, with their types, defaults and meanings
ENGINE_RULES = {
    "attacks_stack": (BOOL, True,
                      "An attacked player who attacks passes on their remaining turns plus "
                      "the new ones; off, the victim owes only the new ones."),
    "may_nope_own_action": (BOOL, False,
                            "Whether a player may answer their own card or combo (a Nope on "
                            "a Nope aimed at it is always allowed)."),
}
