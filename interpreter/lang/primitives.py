"""The table of effect primitives: the only things an effect can do.

Each primitive declares its parameters (name, type, default), what it returns
(``None`` for actions, which are statements), what kind of step it is (an
action, a pure query, a player's choice, or chance) and where it may appear.
The checker reads this table to check every call when a rule file loads, and
``docs/effects.md`` is generated from it (a test keeps the two in step).

Types are plain strings. ``card`` may stand where ``cards`` is wanted,
``zone`` (its contents) where ``cards`` is wanted, and ``player`` where
``players`` is wanted. ``card_id``, ``tag`` and ``str`` accept string literals;
card ids and tags are checked against the loaded cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

# value types
INT, BOOL, STR = "int", "bool", "str"
PLAYER, PLAYERS = "player", "players"
CARD, CARDS, ZONE = "card", "cards", "zone"
CARD_ID, TAG = "card_id", "tag"
ZONE_NAME = "zone_name"  # a string naming a zone declared `per_player: true`
TYPES = (INT, BOOL, STR, PLAYER, PLAYERS, CARD, CARDS, ZONE, CARD_ID, TAG, ZONE_NAME)

#: a value of the key type may be used where any type of the value set is wanted
SUBTYPES = {
    CARD: {CARD, CARDS},
    ZONE: {ZONE, CARDS},
    PLAYER: {PLAYER, PLAYERS},
}

# kinds of step
ACTION, QUERY, CHOICE, CHANCE = "action", "query", "choice", "chance"

# contexts an effect runs in
PLAY = "play"  # a card's or combo's effect, and its `choose` and `requires`
REACTION = "reaction"  # the effect of a card played in answer to another
DRAWN = "drawn"  # a card's `on_draw` effect
TURN = "turn"  # the edition's end-of-turn step
SETUP = "setup"  # counts in an edition's setup steps
EFFECT_CONTEXTS = frozenset({PLAY, REACTION, DRAWN, TURN})


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

    def signature(self) -> str:
        parts = [p.name if p.required else f"{p.name}={p.default}" for p in self.params]
        tail = f" -> {self.returns}" if self.returns else ""
        return f"{self.name}({', '.join(parts)}){tail}"


PRIMITIVES: dict[str, Primitive] = {}


def _entry(params, returns, kind, summary, contexts=EFFECT_CONTEXTS):
    return params, returns, kind, summary, frozenset(contexts)


def _group(title: str, **entries) -> None:
    """Add a group of primitives; the keyword names are the primitive names.

    Names are written as Python identifiers, never as strings, so engine code
    holds no string that could be mistaken for a card id (a Shuffle card and
    the shuffle primitive share a word, not a special case).
    """
    for name, (params, returns, kind, summary, contexts) in entries.items():
        PRIMITIVES[name] = Primitive(name, tuple(Param(*p) for p in params), returns, kind,
                                     summary, title, contexts)


_group(
    "Players",
    players=_entry([], PLAYERS, QUERY,
                'Every player still in the game, in turn order starting with the acting player.'),
    others=_entry([("of", PLAYER, "me")], PLAYERS, QUERY,
                'Every player still in the game except `of`.'),
    teammates=_entry([("of", PLAYER, "me")], PLAYERS, QUERY,
                'The players still in the game on the same team as `of`, except `of` (nobody when the edition has no `teams`).'),
    opponents=_entry([("of", PLAYER, "me")], PLAYERS, QUERY,
                'The players still in the game on another team than `of` (everyone else when the edition has no `teams`).'),
    with_cards=_entry([("among", PLAYERS)], PLAYERS, QUERY,
                'The players of `among` who hold at least one card.'),
    next_player=_entry([("after", PLAYER, "me")], PLAYER, QUERY,
                'The player whose turn comes after `after` in the current direction of play.'),
    owed=_entry([("player", PLAYER, "me")], INT, QUERY,
                'How many turns `player` still owes, counting the one being played.'),
    holding=_entry([("among", PLAYERS), ("card", CARD_ID)], PLAYERS, QUERY,
                'The players of `among` who hold a card with the id `card`. Using the answer in a way others can see tells them who holds it: do that only when the card says so.'),
    played_by=_entry([("card", CARD)], PLAYER, QUERY,
                'The player who last played `card` (nobody, for a card never played).'),
)
_group(
    "Cards and zones",
    hand=_entry([("player", PLAYER)], ZONE, QUERY,
                'The hand of `player`.'),
    top=_entry([("cards", CARDS), ("n", INT, "1")], CARDS, QUERY,
                'The first `n` cards of a zone or card list (all of them if there are fewer; none if `n` is 0 or less).'),
    bottom=_entry([("cards", CARDS), ("n", INT, "1")], CARDS, QUERY,
                'The last `n` cards of a zone or card list (all of them if there are fewer; none if `n` is 0 or less).'),
    find=_entry([("cards", CARDS), ("card", CARD_ID)], CARDS, QUERY,
                'The cards of `cards` whose id is `card`.', contexts=EFFECT_CONTEXTS | {SETUP}),
    tagged=_entry([("cards", CARDS), ("tag", TAG)], CARDS, QUERY,
                'The cards of `cards` that carry the tag `tag`.', contexts=EFFECT_CONTEXTS | {SETUP}),
    count=_entry([("of", (CARDS, PLAYERS))], INT, QUERY,
                'How many cards or players there are in `of`.', contexts=EFFECT_CONTEXTS | {SETUP}),
    has=_entry([("player", PLAYER), ("card", CARD_ID)], BOOL, QUERY,
                'Whether `player` holds at least one card with the id `card`.'),
    in_zone=_entry([("cards", CARDS), ("zone", ZONE)], CARDS, QUERY,
                'The cards of `cards` that are in `zone` now.'),
    without=_entry([("cards", CARDS), ("exclude", CARDS)], CARDS, QUERY,
                'The cards of `cards` that are not in `exclude`.'),
    is_face_up=_entry([("card", CARD)], BOOL, QUERY,
                'Whether `card` lies face up in a pile (see `move(..., face_up=true)`); for a card that has just come into a hand (a drawn card), whether it lay face up before.'),
    playable_as=_entry([("cards", CARDS), ("card", CARD_ID)], CARDS, QUERY,
                'The cards of `cards` that are `card` or may stand in for it (a card whose `stands_for` covers it).'),
    zone_of=_entry([("player", PLAYER), ("name", ZONE_NAME)], ZONE, QUERY,
                "`player`'s own copy of a zone declared with `per_player: true` (the cards in front of them, say)."),
    min=_entry([("a", INT), ("b", INT)], INT, QUERY,
                'The smaller of two numbers.', contexts=EFFECT_CONTEXTS | {SETUP}),
    max=_entry([("a", INT), ("b", INT)], INT, QUERY,
                'The larger of two numbers.', contexts=EFFECT_CONTEXTS | {SETUP}),
)
_group(
    "Chance and choices",
    random_card=_entry([("cards", CARDS)], CARD, CHANCE,
                'One card of `cards` picked uniformly at random; nobody chooses it. Taken from a hand guarded by a `decoy` card, it comes from the decoy zone instead.'),
    blind_pick=_entry([("cards", CARDS), ("by", PLAYER, "me")], CARD, CHANCE,
                '`by` takes a card without seeing faces: at random, except that a card with a distinct back (`back: distinct`) can be told apart and taken on purpose. Guarded hands give a decoy card, as for `random_card`.'),
    choose_kind=_entry([("among", CARDS), ("by", PLAYER, "me")], CARD, CHOICE,
                '`by` picks which kind of card of `among` to use: one card of each title is offered, and nobody is asked when all are of one title.'),
    choose_player=_entry([("among", PLAYERS), ("by", PLAYER, "me")], PLAYER, CHOICE,
                '`by` picks one player of `among`. A card cannot be played when there is none to pick.'),
    choose_card=_entry([("among", CARDS), ("by", PLAYER, "me")], CARD, CHOICE,
                "`by` picks one card of `among`, seeing the cards' faces if they may see them."),
    choose_title=_entry([("by", PLAYER, "me")], CARD_ID, CHOICE,
                '`by` names one card title of the edition.'),
    choose_position=_entry([("zone", ZONE), ("by", PLAYER, "me")], INT, CHOICE,
                '`by` picks a place in `zone`: 0 is the top, `count(zone)` the bottom.'),
    ask=_entry([("question", STR), ("by", PLAYER, "me")], BOOL, CHOICE,
                '`by` answers a yes-or-no question.'),
    rearrange=_entry([("cards", CARDS), ("by", PLAYER, "me")], None, CHOICE,
                '`by` puts the cards (a run of one pile, such as `top(draw_pile, 3)`) back in the order they like. Only they learn the new order, and they must be able to see the cards (`show` them first). When the cards lie in different zones, only those in the zone that holds most of them are rearranged; more than six cards stop the game with an error (too many orders to pick from).'),
)
_group(
    "Actions",
    move=_entry([("cards", CARDS), ("to", ZONE), ("at", INT, "0"), ("face_up", BOOL, "false")], None, ACTION,
                'Move cards into a zone, at position `at` counted from the top (a place past the bottom is the bottom, a negative one the top). Whoever owns the destination hand learns the cards; a public zone shows them to everyone. With `face_up=true` a card lies face up: in a pile everyone sees it and its place; in a hand everyone sees it there until it leaves the hand. A place picked with `choose_position` stays known only to whoever picked it.'),
    shuffle=_entry([("zone", ZONE)], None, ACTION,
                'Shuffle a zone uniformly at random; what anyone knew of its order is forgotten.'),
    show=_entry([("cards", CARDS), ("to", PLAYERS)], None, ACTION,
                'Let the players `to` see the faces of the cards, privately.'),
    reveal=_entry([("cards", CARDS)], None, ACTION,
                "Show the cards' faces to every player."),
    draw=_entry([("player", PLAYER, "me"), ("from_bottom", BOOL, "false")], None, ACTION,
                "`player` takes the top (or bottom) card of the draw pile into their hand, and that card's `on_draw` effect runs. A player who is out of the game draws nothing."),
    end_turn=_entry([("turns", INT, "1")], None, ACTION,
                "End `turns` of the acting player's owed turns (the current one first; a number below 1 counts as 1); play no more cards this turn. Nothing happens when it is not the acting player's turn."),
    attack=_entry([("victim", PLAYER), ("turns", INT)], None, ACTION,
                "End all of the acting player's turns; `victim` owes `turns` more, plus the turns the attacker still owed when they were themselves under attack (if the edition's `attacks_stack` rule is on). Play continues from `victim`. Played out of turn (in answer to another card) it ends nobody's turn: `victim` owes the turns and the current turn goes on. A negative `turns` counts as 0; nothing happens when `victim` is out of the game."),
    discard=_entry([("cards", CARDS)], None, ACTION,
                'Put cards on the discard pile, one by one (a card with a home, `returns_to`, goes home instead, as it does whenever it would reach the discard pile).'),
    reverse=_entry([], None, ACTION,
                'Reverse the direction of play. With two players the order of turns stays the same.'),
    eliminate=_entry([("player", PLAYER)], None, ACTION,
                'Take `player` out of the game; their owed turns are dropped. Nothing happens to a player who is already out.'),
    win=_entry([("player", PLAYER)], None, ACTION,
                'End the game at once with `player` as its winner, and in a team game their team (for a win condition other than being the last one left, usually in a state check). Nothing happens when `player` is out of the game.'),
    cancel=_entry([], None, ACTION,
                'Cancel the card or combo this card was played in answer to. Answering a cancel with another cancel restores the action, and so on.', contexts=[REACTION]),
)

#: primitive names as attributes (``NAMES.move``), for code that must name a
#: primitive without writing a string that could be mistaken for a card id
NAMES = SimpleNamespace(**{name: name for name in PRIMITIVES})

#: queries that may give no player at all (a card nobody has played yet): like
#: choices with nothing to choose, what takes their value then does nothing
MAY_GIVE_NOTHING = frozenset({NAMES.played_by})

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
