"""The compiled form of the rules: what the game engine runs.

Everything here is immutable and fully checked: effects are syntax trees, not
text, counts are resolved, and every record remembers the file and line it
came from. The engine never parses or re-validates anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...about import shipped_path
from ..lang import syntax as s


@dataclass(frozen=True)
class Origin:
    """Where a record was defined."""

    path: str
    line: int
    column: int = 0  # 0: the whole line (a card, a step); else where the value starts

    def __str__(self) -> str:  # a shipped file by name, not by where it is installed
        return f"{shipped_path(self.path)}:{self.line}"


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    tags: frozenset
    text: str
    when: str  # own_turn | any_time | reaction | never
    nopeable: bool  # (as a library writes it, also "rules.NAME": resolved when the edition compiles)
    requires: object | None  # an expression, or None
    choose: tuple[tuple[str, object], ...]  # (name, expression)
    effect: s.Program | None
    on_draw: s.Program | None
    origin: Origin
    # a wildcard: (titles or None for any, tag or None, excluded ids); None = not wild
    stands_for: tuple | None = None
    returns_to: str | None = None  # its home: where it goes whenever it would reach the discard pile
    back_distinct: bool = False  # its back tells it apart from other cards
    in_combos: bool = True  # may be part of a combo
    instead_of_draw: s.Program | None = None  # runs instead of a draw by the player it lies before
    decoy: str | None = None  # zone random picks from the hand of the player it lies before use
    blinds: bool = False  # the player it lies before plays blind
    overrides: bool = False  # replaces a card of the same id from another library
    who: str = "in"  # who may play it: in (players still in) | out (players who are out) | anyone
    # the moments it answers instead of plays: (moment, zone or None, "before" | "after");
    # () for a card that answers plays (the usual reaction) or is no answer at all
    answers: tuple = ()
    # the definition as written (patches applied), for `kittens show` and `kittens diff`
    raw: dict | None = field(default=None, compare=False, hash=False)
    changed_at: tuple = ()  # of Origin: the patches (`patch_cards`) that changed the card
    # part (effect, requires, choose, on_draw, instead_of_draw) -> the Origin of the patch
    # that wrote it, for the parts a patch rewrote (errors in play name that line)
    written_at: dict = field(default_factory=dict, compare=False, hash=False)

    def may_stand_for(self, other: "Card") -> bool:
        """Whether this card may be played or combined as ``other``."""
        if other.id == self.id:
            return True
        if self.stands_for is None:
            return False
        titles, tag, excluded = self.stands_for
        if other.id in excluded:
            return False
        if titles is not None and other.id not in titles:
            return False
        return tag is None or tag in other.tags

    @cached_property
    def lethal(self) -> bool:
        """Whether drawing this card can eliminate the drawer."""
        return self.on_draw is not None and calls_primitive(self.on_draw, "eliminate")


@dataclass(frozen=True)
class Combo:
    id: str
    title: str
    text: str
    size: int
    match: str  # same_title | different_titles | any (titles may repeat)
    tag: str | None
    nopeable: bool
    requires: object | None
    choose: tuple
    effect: s.Program | None  # None only in a library whose effect failed to parse (not played)
    origin: Origin
    raw: dict | None = field(default=None, compare=False, hash=False)  # the definition as written
    changed_at: tuple = ()  # of Origin: the patches (`patch_combos`) that changed the combo
    written_at: dict = field(default_factory=dict, compare=False, hash=False)  # as a card's
    titles: frozenset | None = None  # the only titles that may be part of it (None: any)
    # what may fill each place of the combo, one card per place (`slots:`): for each, a
    # pair (titles or None, tag or None); None: no slots (every card as the combo says)
    slots: tuple | None = None

    def may_include(self, card: Card) -> bool:
        """Whether ``card``, as its own title, may be part of the combo (in some slot)."""
        return self._admits(card) and (self.slots is None or any(
            _fits(place, card) for place in self.slots))

    def _admits(self, card: Card) -> bool:
        return card.in_combos and (self.tag is None or self.tag in card.tags) and \
            (self.titles is None or card.id in self.titles)

    @property
    def by_slots(self) -> bool:
        """Whether its cards are picked place by place (engine/slots.py): a combo with
        `slots:`, or one whose titles may repeat (`match: any`)."""
        return self.slots is not None or self.match == "any"

    def places(self) -> tuple:
        """One (titles or None, tag or None) per card: its slots, or as many open places."""
        return self.slots if self.slots is not None else ((None, None),) * self.size

    def may_fill(self, place: int, card: Card) -> bool:
        """Whether ``card``, as its own title, may fill the slot numbered ``place``."""
        return self._admits(card) and _fits(self.places()[place], card)


def _fits(place: tuple, card: Card) -> bool:
    """Whether ``card`` meets one slot's (titles, tag)."""
    titles, tag = place
    return (titles is None or card.id in titles) and (tag is None or tag in card.tags)


@dataclass(frozen=True)
class Check:
    """A rule looked at for every player after each play and draw (a "state check"):
    when ``condition`` holds for a player, ``effect`` runs with ``me`` = that player."""

    id: str
    text: str
    condition: object
    effect: s.Program
    origin: Origin


#: the moments a trigger may run at (see engine/moments.py for when each comes)
MOMENTS = ("game_start", "turn_start", "round_start", "turn_end", "player_out", "player_back", "pile_empty",
           "card_enters", "card_leaves", "game_end", "card_drawn", "card_spent")
#: the moments that may be met before they happen (`at: before`), and so cancelled: a
#: player about to go out (`eliminate`), a drawn card whose `on_draw` is about to run
BEFORE_MOMENTS = ("player_out", "card_drawn")
#: the moments a card may answer (`answers:`): every moment of a game under way
ANSWERABLE_MOMENTS = ("turn_start", "round_start", "turn_end", "player_out", "player_back", "pile_empty",
                      "card_enters", "card_leaves", "card_drawn", "card_spent")


@dataclass(frozen=True)
class Trigger:
    """An effect the edition runs at a moment of the game (``on``): the start or end of a
    turn, a player going out or coming back, a card entering or leaving ``zone``, the
    draw pile running out, the game's start or end. ``condition`` (or None) is looked at
    first, with ``me`` the player the moment concerns."""

    id: str
    text: str
    on: str
    zone: str | None
    condition: object
    effect: s.Program
    origin: Origin
    at: str = "after"  # "before": it runs before the moment happens and may cancel() it


@dataclass(frozen=True)
class Action:
    """A free action the edition offers on a player's turn beside card plays and the draw
    (give a card to a partner, pay a card to peek): who may take it (``requires``), its
    choices and effect, like a card's, and how often (``per_turn``, ``per_game``)."""

    id: str
    title: str
    text: str
    requires: object | None
    choose: tuple  # of (name, expression)
    effect: s.Program
    origin: Origin
    per_turn: int = 1
    per_game: int | None = None
    nopeable: bool = False  # may a cancelling reaction answer it? (it is not a card: no, by default)
    when: str = "own_turn"


@dataclass(frozen=True)
class Restriction:
    """A rule that limits every play (cards, combos, free actions and answers alike): a
    play is offered only while ``allows`` holds, with ``me`` the player and ``this``
    the cards played (a card, a combo's cards, none for a free action)."""

    id: str
    text: str
    allows: object
    origin: Origin
    # what it limits: "plays" (every play offered), "spending" (what `playable_as` finds),
    # "taking" (what an effect takes out of a hand that is not its player's)
    applies_to: tuple = ("plays",)
    # the plays it limits (`for:`): card, combo and free action ids; None for every play
    rules: tuple | None = None
    # how often each player may make those plays, a turn and a game (`per_turn`, `per_game`)
    per_turn: int | None = None
    per_game: int | None = None

    def limits(self, rule_id: str) -> bool:
        """Whether a play of ``rule_id`` is one this restriction limits."""
        return self.rules is None or rule_id in self.rules


@dataclass(frozen=True)
class Scoring:
    """How a game won on points ends and is decided (the mapping form of `win:`):
    ``score`` and ``tie_break`` are worked out for each player (``me``); ``ends_when``
    (or None) ends the game when it holds after an action or a turn."""

    score: object
    ends_when: object
    tie_break: object
    origin: Origin


@dataclass(frozen=True)
class SetupStep:
    """One setup step; ``count`` is an int, a checked expression or (lo, hi, n) ranges."""

    kind: str  # set_aside | deal | put_back | shuffle | remove | place | remove_random
    cards: tuple = ()
    count: object = None
    or_fewer: bool = False
    zone: str | None = None
    origin: Origin | None = None
    #: a `deal` to one seat only (`to:`): the seat, a count-like int, expression or ranges
    to: object = None


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    players: tuple[int, int]  # (min, max)
    cards: dict[str, Card]  # every card the edition's libraries define, by id
    deck: dict[str, tuple[tuple[int, int, int], ...]]  # id -> (lo, hi, count) ranges
    combos: tuple[Combo, ...]
    setup: tuple[SetupStep, ...]
    rules: dict[str, object]  # engine rules, defaults filled in
    params: dict[str, object]
    turn_draw: s.Program
    win: str
    origin: Origin
    variant: str | None = None
    variants: dict[str, Edition] = field(default_factory=dict)
    # variants of files further down the stack that no longer apply: name -> (file, why)
    unavailable: dict[str, tuple[str, str]] = field(default_factory=dict)
    zones: dict[str, dict] = field(default_factory=dict)  # extra zone -> {"public", "per_player"}
    checks: tuple[Check, ...] = ()  # looked at after every play and draw
    triggers: tuple[Trigger, ...] = ()  # run at the moments they name
    counters: dict[str, dict] = field(default_factory=dict)  # name -> {"start", "min", "max", "text"}
    scoring: Scoring | None = None  # a game won on points; None: by being the last one left
    actions: tuple[Action, ...] = ()  # free actions offered on a player's turn
    restrictions: tuple[Restriction, ...] = ()  # limits on every play
    kind: str = "edition"  # edition | expansion (an expansion applied to its base)
    expansions: tuple[str, ...] = ()  # paths of the expansions applied, in order
    description: str = ""
    variant_description: str = ""  # what the variant switched on changes, in its own words
    sources: tuple[str, ...] = ()  # every file layered into this edition, base first
    extends: str | None = None  # the edition file this one builds on, if it extends one
    # where each value came from: "players", "deck.defuse", "params.hand_size",
    # "rules.attacks_stack", "combos.two_of_a_kind", "setup.3", "turn", "win" -> Origin
    # (None for an engine default); cards and combos carry their own origins
    origins: dict[str, Origin | None] = field(default_factory=dict, compare=False, hash=False)
    teams: int = 0  # how many teams (0: everyone plays alone); seat s is on team s % teams
    teams_together: bool = False  # partners share their lives: one out, the whole team out
    procedures: dict = field(default_factory=dict, compare=False, hash=False)  # name -> Procedure (written out already)
    # how seats join teams: "in_turn" (seat s on team s % teams), "random" (dealt at random
    # from the game's seed, known to all) or "secret" (at random, each knowing only their own)
    teams_dealt: str = "in_turn"
    # the resolved rule data of this view (the variant's parts merged in), as written
    data: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def deck_for(self, players: int) -> dict:
        """Card id -> copies in the box for a game of ``players``."""
        counts: dict[str, int] = {}
        for card_id, ranges in self.deck.items():
            for lo, hi, count in ranges:
                if lo <= players <= hi and count:
                    counts[card_id] = count
        return counts


def calls_primitive(node, name: str) -> bool:
    """Whether a syntax tree calls the primitive ``name`` anywhere."""
    return any(isinstance(item, s.Call) and item.name == name for item in s.walk(node))
