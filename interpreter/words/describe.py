"""Effects in plain English, worded from their syntax trees alone.

``WORDING`` maps every primitive of :data:`primitives.PRIMITIVES` to a small
function that words one call from its worded arguments (a test keeps the two
tables in step, so a new primitive without wording fails). Expressions are
worded recursively ("the top 3 cards of the draw pile", "a player you choose
among the other players who hold cards"); statements become clauses, and each
top-level statement one sentence.

Nothing here names a card: titles come from the ``cards`` mapping a caller
passes (id -> Card), and numbers written as ``rules.NAME`` show the edition's
value when ``params`` gives one. Shapes the wording does not know never raise:
they fall back to the primitive's summary.
"""

from __future__ import annotations

import re

from ..lang import primitives as P
from ..lang import syntax as s
from ..lang.checker import AGGREGATES

N = P.NAMES

#: the builtin zones, worded (keywords: a zone may share a word with a card)
_ZONES = dict(draw_pile="the draw pile", discard_pile="the discard pile",
              removed="the cards out of the game")
_ME = "me"
_THIS = "this"
_FROM_BOTTOM = "from_bottom"  # the builtin of `instead_of_draw` effects
_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", ">": "is more than",
            "<=": "is at most", ">=": "is at least"}
_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}
#: how a name bound by a card's `choose:` reads, by the type its choice gives
_CHOSEN = {P.PLAYER: "the chosen player", P.CARD: "the chosen card", P.CARD_ID: "the named title"}
#: how a `for` variable reads inside the loop, by the type of what it runs over
_EACH = {P.PLAYERS: ("that player", P.PLAYER), P.PLAYER: ("that player", P.PLAYER)}


# -- small word helpers ---------------------------------------------------------
def words(name: str) -> str:
    """An identifier as words: ``hand_size`` -> ``hand size``."""
    return name.replace("_", " ")


def sentence(clause: str) -> str:
    """A clause as a sentence: capital first letter, a full stop at the end."""
    clause = clause.strip()
    if not clause:
        return clause
    clause = clause[0].upper() + clause[1:]
    return clause if clause.endswith((".", "!", "?")) else clause + "."


#: subjects that take a verb's base form ("you take", "they take")
_PLURAL_SUBJECTS = {"you": "your", "they": "their"}


def _possessive(phrase: str) -> str:
    return _PLURAL_SUBJECTS.get(phrase, f"{phrase}'s")


def _does(subject: str, base: str, third: str) -> str:
    """``subject`` with its verb: "you take", "the next player takes"."""
    return f"{subject} {base if subject in _PLURAL_SUBJECTS else third}"


def _strip_the(phrase: str) -> str:
    return phrase[4:] if phrase.startswith("the ") else phrase


def _article(title: str) -> str:
    return ("an " if title[:1].lower() in "aeiou" else "a ") + title


def _plain(summary: str) -> str:
    """A primitive's summary, first sentence, without Markdown backticks."""
    first = re.split(r"(?<=\.)\s", summary.replace("`", ""), maxsplit=1)[0]
    return first[:1].lower() + first[1:].rstrip(".")


# -- the arguments of one call ---------------------------------------------------
class _Args:
    """A call's arguments by parameter name, worded on demand."""

    def __init__(self, w: "_Words", call: s.Call):
        self.w = w
        prim = P.PRIMITIVES.get(call.name)
        self.raw: dict = {}
        for param, arg in zip(prim.params if prim else (), call.args):
            self.raw[param.name] = arg
        for keyword in call.kwargs:
            self.raw[keyword.name] = keyword.value

    def __getitem__(self, name: str) -> str:
        return self.w.expr(self.raw[name])

    def get(self, name: str):
        return self.raw.get(name)

    @property
    def me(self) -> str:
        """How the acting player reads here: "you", or "that player" in a trigger for a
        player who went out, "they" in a score every player works out."""
        return self.w.me

    def is_me(self, name: str) -> bool:
        """Whether a player argument is the acting player (or left at its default)."""
        node = self.raw.get(name)
        return node is None or (isinstance(node, s.Name) and node.id == _ME)

    def by(self) -> str:
        """Who decides a choice: "you" unless ``by=`` names someone else."""
        return self.me if self.is_me("by") else self["by"]

    def title(self, name: str) -> str:
        """A card id argument: "a Defuse" for a literal, else its wording."""
        node = self.raw[name]
        if isinstance(node, s.StrLit):
            return _article(self.w.title(node.value))
        return f"a card of {self.w.expr(node)}"

    def titles(self, name: str) -> str:
        """A card id argument as a kind of cards: "Defuse cards"."""
        node = self.raw[name]
        if isinstance(node, s.StrLit):
            return f"{self.w.title(node.value)} cards"
        return f"cards of {self.w.expr(node)}"

    def count(self, name: str, default: int = 1):
        """A count argument: its worded value and, when a literal, the number."""
        node = self.raw.get(name)
        if node is None:
            return str(default), default
        value = node.value if isinstance(node, s.IntLit) else self.w.param_value(node)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value), value  # a count reads best as the bare number
        worded = self.w.expr(node)
        if worded.lstrip("-").isdigit():  # a name that holds a number (a procedure's argument)
            return worded, int(worded)
        return worded, value


# -- the wording of every primitive ------------------------------------------------
def _end(a: _Args, which: str, first: str) -> str:
    """``top``/``bottom``: "the top 3 cards of the draw pile", "the first of ..."."""
    worded, n = a.count("n")
    zone = a.w.is_zone(a.get("cards"))
    if n == 1:
        return f"the {which} card of {a['cards']}" if zone else f"the {first} of {a['cards']}"
    if not isinstance(n, int):  # a count worked out: said after the cards, not inside them
        return f"the {which} cards of {a['cards']}, as many as {worded}"
    return f"the {which} {worded} cards of {a['cards']}"


def _move(a: _Args) -> str:
    cards, to = a.w.cards_of(a.get("cards"), whole=True), a.get("to")
    if isinstance(to, s.Name) and to.id == "removed":
        text = f"put {cards} out of the game"
    elif isinstance(to, s.Name) and to.id == "discard_pile" and a.get("at") is None:
        text = f"discard {cards}"  # as the discard primitive reads: a card with a home goes home either way
    else:
        text = f"move {cards} {a.w.destination(to, a.get('at'))}"
    face_up = a.get("face_up")
    if isinstance(face_up, s.BoolLit):
        return text + (", face up" if face_up.value else "")
    return text if face_up is None else f"{text}, face up if {a['face_up']}"


def _draw(a: _Args) -> str:
    who = _who(a)
    text = "draw a card" if who == "you" else f"{_does(who, 'draw', 'draws')} a card"
    bottom = a.get(_FROM_BOTTOM)
    if isinstance(bottom, s.BoolLit):
        return text + (" from the bottom of the draw pile" if bottom.value else "")
    if isinstance(bottom, s.Name) and bottom.id == _FROM_BOTTOM:
        return text + " from the same end of the draw pile as the draw it replaces"
    return text if bottom is None else f"{text} (from the bottom if {a[_FROM_BOTTOM]})"


def _end_turn(a: _Args) -> str:
    node = a.get("turns")
    if isinstance(node, s.Call) and node.name == N.owed and not node.args and not node.kwargs:
        return "end every turn you owe"
    worded, n = a.count("turns")
    return "end your current turn" if n == 1 else f"end {worded} of the turns you owe"


def _attack(a: _Args) -> str:
    worded, n = a.count("turns")
    owes = f"{a['victim']} must take"
    stacks = a.w.params.get("attacks_stack")
    extra = {True: " (plus the turns you still owed, if you were under attack)", False: "",
             None: " (plus your remaining turns if attacks stack and you were under attack)"}
    return f"end all your turns; {owes} {worded} turn{'s' if n != 1 else ''}{extra.get(stacks, '')}"


def _choose_card(a: _Args) -> str:
    chooser, among = a.by(), a["among"]
    if chooser != "you":  # "a card the victim chooses from their hand"
        among = among.replace(f"{_possessive(chooser)} hand", "their hand")
    return f"a card {_does(chooser, 'choose', 'chooses')} from {among}"


def _show(a: _Args) -> str:
    cards = a.w.cards_of(a.get("cards"))
    secret = a.get("secret")
    unseen = isinstance(secret, s.BoolLit) and secret.value
    if a.is_me("to"):
        return f"look at {cards} in secret" + (" (nobody else learns that you looked)" if unseen else "")
    if unseen:
        return f"show {cards} to {a['to']} so that nobody else learns of it"
    return f"show {cards} to {a['to']}, privately"


def _spend(a: _Args) -> str:
    """`spend` read as a condition: "one of those cards is spent as a Defuse" (by whoever holds
    it), and "and no answer cancels that" only where the title spent may be answered."""
    title = a.get("title")
    spent = f"{a.w.cards_of(a.get('cards'), whole=True)} is spent" + (
        f" as {a.title('title')}" if title is not None else "")
    card = a.w.cards.get(title.value) if isinstance(title, s.StrLit) else None
    if card is not None and not card.nopeable:
        return spent
    return spent + " and no answer cancels that"


def _rearrange(a: _Args) -> str:
    if a.is_me("by"):
        return f"put {a['cards']} back in any order you like"
    return f"{a['by']} puts {a['cards']} back in any order they like"


def _choose_number(a: _Args) -> str:
    secret = a.get("secret")
    told = (" in secret (nobody else learns it until it is shown)"
            if isinstance(secret, s.BoolLit) and secret.value else "")
    return f"a number from {a['low']} to {a['high']} that {_does(a.by(), 'choose', 'chooses')}{told}"


def _in_secret(a: _Args) -> str:
    """" in secret (...)" for a choice made with `secret=true`, else nothing."""
    secret = a.get("secret")
    return (" in secret (nobody else learns it until it is shown)"
            if isinstance(secret, s.BoolLit) and secret.value else "")


def _within(a: _Args) -> str:
    """" within the top 3 places" for `choose_position(..., within=3)`, else nothing."""
    within = a.get("within")
    if within is None or (isinstance(within, s.IntLit) and within.value <= 0):
        return ""
    return f" within the top {a['within']} places"


def _zone_of(a: _Args) -> str:
    name = a.get("name")
    zone = words(name.value) if isinstance(name, s.StrLit) else a["name"]
    return f"{_possessive(a['player'])} “{zone}” zone"


#: primitive name -> how one call of it reads, given its arguments. Written with
#: keywords, like the primitive table, so no primitive name appears as a string.
WORDING = dict(
    # players
    players=lambda a: "the players still in the game",
    others=lambda a: "the other players" if a.is_me("of") else f"the players other than {a['of']}",
    teammates=lambda a: f"{_possessive(a.me)} teammates" if a.is_me("of") else f"the teammates of {a['of']}",
    opponents=lambda a: f"{_possessive(a.me)} opponents" if a.is_me("of") else f"the opponents of {a['of']}",
    with_cards=lambda a: f"{a['among']} who hold cards",
    next_player=lambda a: ("the next player" if a.is_me("after") and a.me == "you"
                           else f"the player after {a.me if a.is_me('after') else a['after']}"),
    owed=lambda a: f"the number of turns {_does(_who(a), 'owe', 'owes')}",
    holding=lambda a: f"{a['among']} who hold {a.title('card')}",
    played_by=lambda a: f"the player who last played {a['card']}",
    held_by=lambda a: f"the player whose hand holds {a['cards']}",
    out_players=lambda a: "the players who are out of the game",
    title=lambda a: f"the title of {a.w.cards_of(a.get('cards'))}",
    answered=lambda a: "the card or combo being answered",
    answered_player=lambda a: "the player whose play or moment is being answered",
    counter=lambda a: f"{_possessive(_who(a))} “{_name_of(a, 'name')}” count",
    # cards and zones
    hand=lambda a: _owned("hand", a["player"]),
    top=lambda a: _end(a, "top", "first"),
    bottom=lambda a: _end(a, "bottom", "last"),
    find=lambda a: f"the {a.titles('card')} {a.w.among(a.get('cards'))}",
    tagged=lambda a: f"the {a.w.tag_titles(a.get('tag'), a['tag'])} {a.w.among(a.get('cards'))}",
    count=lambda a: f"the number of {_strip_the(a.w.cards_of(a.get('of')))}",
    has=lambda a: f"{_does(a['player'], 'hold', 'holds')} {a.title('card')}",
    in_zone=lambda a: f"those of {a['cards']} that are in {a['zone']}",
    without=lambda a: f"{a.w.cards_of(a.get('cards'))} except {a['exclude']}",
    is_face_up=lambda a: f"{a['card']} lay face up",
    playable_as=lambda a: f"the cards {a.w.among(a.get('cards'))} that can serve as {a.title('card')}",
    zone_of=_zone_of,
    min=lambda a: f"the smaller of {a['a']} and {a['b']}",
    max=lambda a: f"the larger of {a['a']} and {a['b']}",
    # chance and choices
    random_card=lambda a: f"a random card from {a['cards']}",
    blind_pick=lambda a: (f"a card {_does(a.by(), 'take', 'takes')} unseen "
                          f"from {a['cards']} (at random, unless a distinct back gives it away)"),
    choose_kind=lambda a: f"one of {a['among']} ({_does(a.by(), 'pick', 'picks')} which kind)",
    choose_player=lambda a: f"a player {_does(a.by(), 'choose', 'chooses')} among {a['among']}{_in_secret(a)}",
    seat_number=lambda a: f"the seat number of {a['player']}",
    out_in_order=lambda a: "the players who are out, in the order they went out",
    first_of=lambda a: f"the first of {a['among']}",
    player_in_seat=lambda a: f"the player in seat {a['number']}",
    choose_card=_choose_card,
    choose_title=lambda a: f"a card title {_does(a.by(), 'name', 'names')}" + (
        " among those played on one's own turn" if isinstance(a.get("playable"), s.BoolLit)
        and a.get("playable").value else ""),
    choose_position=lambda a: f"a place in {a['zone']}{_within(a)} that {_does(a.by(), 'choose', 'chooses')}",
    choose_number=_choose_number,
    random_player=lambda a: f"a player picked at random among {a['among']} (no one is told who)",
    random_number=lambda a: f"a number from {a['low']} to {a['high']} picked at random",
    random_position=lambda a: f"a random place in {a['zone']}{_within(a)} that nobody learns",
    ask=lambda a: (f"{_does(a.by(), 'answer', 'answers')} yes to “"
                   + (a.get("question").value if isinstance(a.get("question"), s.StrLit)
                      else a["question"]) + "”"),
    rearrange=_rearrange,
    # actions
    move=_move,
    shuffle=lambda a: f"shuffle {a['zone']}",
    show=_show,
    reveal=lambda a: f"reveal {a.w.cards_of(a.get('cards'))} to everyone",
    draw=_draw,
    end_turn=_end_turn,
    attack=_attack,
    discard=lambda a: f"discard {a.w.cards_of(a.get('cards'), whole=True)}",
    spend=_spend,
    reverse=lambda a: "reverse the direction of play",
    pass_over=lambda a: _does(a["player"], "are", "is") + " passed over" + (
        "" if a.get("turns") is None else f" the next {a['turns']} times play comes to them"),
    eliminate=lambda a: _does(a["player"], "are", "is") + " out of the game",
    win=lambda a: _does(a["player"], "win", "wins") + " the game at once",
    cancel=lambda a: "cancel the card, combo or moment this one answers",
    revive=lambda a: _does(a["player"], "come", "comes") + " back into the game",
    add_counter=lambda a: f"add {a['amount']} to {_possessive(_who(a))} “{_name_of(a, 'name')}” count",
    set_counter=lambda a: f"set {_possessive(_who(a))} “{_name_of(a, 'name')}” count to {a['value']}",
    play_as=lambda a: f"carry out {a.title('title')} as if you had just played it, with {a['cards']} standing for it",
)


def _owned(thing: str, owner: str) -> str:
    """"your hand", "the chosen player's hand"; "the hand of the player after you" where a
    possessive would end a long phrase."""
    if len(owner.split()) > 3 or "“" in owner:
        return f"the {thing} of {owner}"
    return f"{_possessive(owner)} {thing}"


def _extra_turns(a: _Args) -> str:
    worded, n = a.count("turns")
    turns = f"{worded} extra turn{'s' if n != 1 else ''}"
    return f"take {turns} after this one" if a.is_me("player") else f"{a['player']} takes {turns}"


def _played_this_turn(a: _Args) -> str:
    if a.get("by") is None:
        return "the cards played this turn"
    return "the cards you played this turn" if a.is_me("by") else f"the cards {a['by']} played this turn"


def _played_last_turn(a: _Args) -> str:
    if a.get("by") is None:
        return "the cards played during the turn before this one"
    who = "you" if a.is_me("by") else a["by"]
    return f"the cards {who} played during the turn before this one"


# turns and history (issue 42): worded like the rest, kept in a block of their own
WORDING.update(dict(
    extra_turns=_extra_turns,
    turn_number=lambda a: "the number of the turn (the game's first is turn 1)",
    whose_turn=lambda a: "the player whose turn it is",
    turn_player=lambda a: "the player whose turn is under way (or has just ended)",
    round_number=lambda a: ("the number of the round (the first is round 1; a round ends once everyone still in "
                            "has had a turn)"),
    played_last_turn=_played_last_turn,
    last_played=lambda a: "the last card played",
    played_this_turn=_played_this_turn,
))

def _who(a) -> str:
    """The `player` argument, the acting player ("you") when it is left out."""
    return a.me if a.is_me("player") else a["player"]


def _name_of(a, name: str) -> str:
    """A counter's name, written as words."""
    node = a.get(name)
    return words(node.value) if isinstance(node, s.StrLit) else a[name]


# -- expressions and statements ------------------------------------------------------
class _Words:
    """Words one effect: the names in scope (name -> (phrase, type)) and the edition's values."""

    def __init__(self, params: dict | None, cards: dict | None, names: dict | None, this: str | None,
                 me: str | None = None):
        self.params = dict(params or {})
        self.cards = cards or {}
        self.me = me or "you"
        scope = {_ME: (self.me, P.PLAYER), _THIS: (this or "this card", P.CARD)}
        scope.update({name: (phrase, P.ZONE) for name, phrase in _ZONES.items()})
        for name, value in (names or {}).items():
            scope[name] = value if isinstance(value, tuple) else (value, None)
        self.scopes = [scope]
        #: cards a `let` names that read as what they hold: name -> [value, said yet]; once
        #: said, the name reads "those cards" ("discard one of those cards"), not all again
        self.inlined: dict[str, list] = {}

    # -- names and types ----------------------------------------------------------
    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def title(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        return card.title if card is not None else words(card_id)

    def tag_titles(self, node, worded: str) -> str:
        """The cards a tag stands for, by title ("Exploding Kittens and Imploding
        Kittens"), so a player never reads a tag's name."""
        tag = node.value if isinstance(node, s.StrLit) else None
        titles = sorted({card.title for card in self.cards.values() if tag in card.tags})
        if tag is None or not titles:
            return f"cards of the kind {worded}"
        plural = [t if t.endswith("s") else f"{t}s" if len(t.split()) <= 2 else f"copies of {t}"
                  for t in titles]
        return plural[0] if len(plural) == 1 else ", ".join(plural[:-1]) + " and " + plural[-1]

    def param_value(self, node):
        """The edition's value of ``rules.NAME`` (None when unknown or not a rule)."""
        return self.params.get(node.name) if isinstance(node, s.RuleRef) else None

    def type_of(self, node) -> str | None:
        if isinstance(node, s.IntLit | s.Sum):
            return P.INT
        if isinstance(node, s.BoolLit | s.Compare | s.BoolOp | s.Not):
            return P.BOOL
        if isinstance(node, s.StrLit):
            return P.STR
        if isinstance(node, s.Name):
            found = self.lookup(node.id)
            return found[1] if found else P.ZONE  # an undeclared bare name is an extra zone
        if isinstance(node, s.Call) and node.name in P.PRIMITIVES:
            return P.PRIMITIVES[node.name].returns
        if isinstance(node, s.Aggregate) and node.op in AGGREGATES:
            gives = AGGREGATES[node.op][1]
            return gives or {P.PLAYERS: P.PLAYERS, P.PLAYER: P.PLAYERS}.get(self.type_of(node.iterable), P.CARDS)
        return None

    def is_zone(self, node) -> bool:
        return self.type_of(node) == P.ZONE

    def cards_of(self, node, whole: bool = False) -> str:
        """Cards to act on; a zone reads as its cards ("all the cards in your hand")."""
        if node is None:
            return "the cards"
        if self.is_zone(node):
            return f"{'all ' if whole else ''}the cards in {self.expr(node)}"
        return self.expr(node)

    def among(self, node) -> str:
        """Where cards are looked for: "in your hand", or "among the top 3 cards ..."."""
        return f"in {self.expr(node)}" if self.is_zone(node) else f"among {self.expr(node)}"

    def destination(self, to, at) -> str:
        """Where ``move`` puts cards: "into your hand", "on top of the draw pile"..."""
        zone = self.expr(to)
        if isinstance(to, s.Call) and to.name == N.hand:
            return f"into {zone}"
        if at is None or (isinstance(at, s.IntLit) and at.value == 0):
            return f"on top of {zone}" if isinstance(to, s.Name) and to.id == "draw_pile" else f"to {zone}"
        if isinstance(at, s.Call) and at.name == N.choose_position:
            args = _Args(self, at)
            return f"into {zone} at a place{_within(args)} {_does(args.by(), 'choose', 'chooses')}"
        if isinstance(at, s.Call) and at.name == N.random_position:
            return f"into {zone} at a random place{_within(_Args(self, at))} that nobody learns"
        if isinstance(at, s.Call) and at.name == N.count and at.args and self.expr(at.args[0]) == zone:
            return f"to the bottom of {zone}"
        return f"into {zone} at place {self.expr(at)} from the top"

    # -- expressions --------------------------------------------------------------
    def expr(self, node) -> str:
        """Any expression as a noun phrase or a condition."""
        if isinstance(node, s.IntLit):
            return str(node.value)
        if isinstance(node, s.BoolLit):
            return "yes" if node.value else "no"
        if isinstance(node, s.StrLit):
            if node.value in self.cards:  # a card id compared with a title: the card's title
                return self.title(node.value)
            return f"“{node.value}”"
        if isinstance(node, s.Name):
            found = self.lookup(node.id)
            inlined = self.inlined.get(node.id)
            if found and inlined is not None and found[1] == P.CARDS:
                if inlined[1]:
                    return "those cards"
                inlined[1] = True
            return found[0] if found else f"the {words(node.id)}"
        if isinstance(node, s.RuleRef):
            return self.rule(node)
        if isinstance(node, s.Call):
            return self.call(node)
        if isinstance(node, s.Sum) and node.ops == ("-",) and node.first == s.IntLit(node.pos, 0):
            term = node.terms[0]  # `-x`, parsed as `0 - x`
            return f"-{term.value}" if isinstance(term, s.IntLit) else f"minus {self.expr(term)}"
        if isinstance(node, s.Sum):
            parts = [self.expr(node.first)]
            for op, term in zip(node.ops, node.terms):
                parts += [_ARITHMETIC.get(op, op), self.expr(term)]
            return " ".join(parts) + (", rounded down" if "/" in node.ops else "")
        if isinstance(node, s.Compare):
            return self.compare(node)
        if isinstance(node, s.BoolOp):
            joined = f" {node.op} ".join(
                f"({self.expr(o)})" if isinstance(o, s.BoolOp) and o.op != node.op else self.expr(o)
                for o in node.operands)
            return joined
        if isinstance(node, s.Not):
            return self.negate(node.operand)
        if isinstance(node, s.Aggregate):
            return self.aggregate(node)
        return "something"  # a shape this module does not know: say little, never fail

    def each(self, name: str, kind: str | None) -> dict:
        """The scope of a loop's or aggregate's name: "that player" or "that card", or,
        inside another walk that already reads so, that phrase with the name in quotes."""
        phrase, element = _EACH.get(kind, ("that card", P.CARD))
        if any(value[0] == phrase for scope in self.scopes for value in scope.values()):
            phrase = f"{phrase} “{words(name)}”"
        return {name: (phrase, element)}

    def membership(self, node: s.Aggregate) -> str | None:
        """`any(x == p for p in L)` as "x is one of L" (and `all(x != p ...)` as "x is
        none of L"), when x does not depend on the walk."""
        value = node.value
        wanted = {"any": "==", "all": "!="}.get(node.op)
        if node.condition is not None or not isinstance(value, s.Compare) or value.op != wanted:
            return None
        for mine, other in ((value.left, value.right), (value.right, value.left)):
            walked = any(isinstance(n, s.Name) and n.id == node.name for n in s.walk(other))
            if isinstance(mine, s.Name) and mine.id == node.name and not walked:
                return f"{self.expr(other)} is {'one' if wanted == '==' else 'none'} of {self.expr(node.iterable)}"
        return None

    def aggregate(self, node: s.Aggregate) -> str:
        """`sum(count(hand(p)) for p in players() if ...)` as "the total of ... over ..."."""
        member = self.membership(node)
        if member is not None:
            return member
        over, kind = self.expr(node.iterable), self.type_of(node.iterable)
        self.scopes.append(self.each(node.name, kind))
        which = "whom" if kind in (P.PLAYERS, P.PLAYER) else "which"
        try:
            value = self.expr(node.value)
            where = f" for {which} {self.expr(node.condition)}" if node.condition is not None else ""
        finally:
            self.scopes.pop()
        of = f"each of {over}{where}"
        bare = value[4:] if value.startswith("the ") else value  # "the largest number of ..."
        wording = {
            "sum": f"the total of {value} over {of}",
            "max": f"the largest {bare} among {of}",
            "min": f"the smallest {bare} among {of}",
            "count": f"how many of {over} there are{where}",
            "any": f"{value} for at least one of {over}{where}",
            "all": f"{value} for every one of {over}{where}",
            "most": f"those of {over}{where} with the largest {bare}",
            "least": f"those of {over}{where} with the smallest {bare}",
            "filter": f"{over}{where}" if where else over,
        }
        return wording.get(node.op, "something")

    def rule(self, node: s.RuleRef, on: bool = True) -> str:
        """``rules.NAME``: a number with the edition's value; a switch as the condition it
        is ("the rule is on"), whatever this edition sets it to (``on``: False when negated)."""
        value = self.params.get(node.name)
        if isinstance(value, bool):
            return f"the “{words(node.name)}” rule is {'on' if on else 'off'}"
        if value is not None:  # say where the number comes from
            return f"the “{words(node.name)}” ({value})"
        return f"the edition's “{words(node.name)}”"

    def call(self, node: s.Call) -> str:
        wording = WORDING.get(node.name)
        try:
            if wording is not None:
                return wording(_Args(self, node))
        except Exception:  # an unexpected shape (missing argument...): fall back, never fail
            pass
        prim = P.PRIMITIVES.get(node.name)
        return f"{node.name} ({_plain(prim.summary)})" if prim else f"{node.name}(…)"

    def compare(self, node: s.Compare) -> str:
        left, op, right = node.left, node.op, node.right
        if isinstance(left, s.Call) and left.name == N.count and left.args and isinstance(right, s.IntLit):
            some = (op == ">" and right.value == 0) or (op in (">=", "!=") and right.value in (1, 0)
                                                        and (op, right.value) != (">=", 0))
            none = (op == "==" and right.value == 0) or (op == "<" and right.value == 1)
            if some:
                return self.nonempty(left.args[0])
            if none:
                return f"there are no {_strip_the(self.cards_of(left.args[0]))}"
        return f"{self.expr(left)} {_COMPARE.get(op, op)} {self.expr(right)}"

    def nonempty(self, node) -> str:
        inlined = self.inlined.get(node.id) if isinstance(node, s.Name) else None
        value = inlined[0] if inlined is not None else node
        if isinstance(value, s.Call) and value.name == N.playable_as:
            # "you hold a card that can serve as a Defuse", rather than "there are the cards ..."
            held = _Args(self, value).get("cards")
            if isinstance(held, s.Call) and held.name == N.hand:
                if inlined is not None:
                    inlined[1] = True
                a = _Args(self, value)
                return (f"{_does(_Args(self, held)['player'], 'hold', 'holds')} a card that can serve "
                        f"as {a.title('card')}")
        if isinstance(node, s.Call) and node.name == N.in_zone and len(node.args) == 2:
            return f"{self.expr(node.args[0])} is in {self.expr(node.args[1])}"
        if self.type_of(node) in (P.PLAYER, P.CARD):
            return f"there is {self.expr(node)}"
        if isinstance(node, s.Name) and self.expr(node).startswith("“"):  # a name given in quotes
            return f"{self.expr(node)} is not empty"
        return f"there are {_strip_the(self.cards_of(node))}"

    def negate(self, node) -> str:
        try:
            if isinstance(node, s.Call) and node.name == N.has:
                a = _Args(self, node)
                return f"{_does(a['player'], 'do', 'does')} not hold {a.title('card')}"
            if isinstance(node, s.Call) and node.name == N.is_face_up:
                return f"{_Args(self, node)['card']} lay face down"
        except Exception:  # a call missing its arguments: the plain wording below
            pass
        if isinstance(node, s.Call) and node.name == N.ask:
            return self.expr(node).replace(" yes to ", " no to ", 1)
        if isinstance(node, s.RuleRef) and isinstance(self.params.get(node.name), bool):
            return self.rule(node, on=False)
        return f"not ({self.expr(node)})"

    # -- statements ---------------------------------------------------------------
    def block(self, body: tuple) -> list[str]:
        """The clauses of a block, in order (a `let` may give none)."""
        self.scopes.append({})
        try:
            clauses = []
            for index, stmt in enumerate(body):
                clause = self.statement(stmt, body[index + 1:])
                if clause:
                    clauses.append(clause)
            return clauses
        finally:
            self.scopes.pop()

    def statement(self, stmt, rest: tuple) -> str | None:
        if isinstance(stmt, s.CallStmt):
            return self.call(stmt.call)
        if isinstance(stmt, s.Let):
            return self.let(stmt, rest)
        if isinstance(stmt, s.If):
            return self.if_(stmt)
        if isinstance(stmt, s.For):
            return self.for_(stmt)
        if isinstance(stmt, s.Assign):
            found = self.lookup(stmt.name)
            return f"{found[0] if found else f'“{words(stmt.name)}”'} becomes {self.expr(stmt.value)}"
        return "something the wording does not cover"

    def let(self, stmt: s.Let, rest: tuple) -> str | None:
        """Bind a name. A value used where nothing has changed yet reads as what it
        holds; otherwise (a snapshot, a choice used twice) it is named once, in quotes."""
        phrase, kind = self.expr(stmt.value), self.type_of(stmt.value)
        uses = [n for n in s.walk(rest) if isinstance(n, s.Name) and n.id == stmt.name]
        chance = _asks(stmt.value)
        # a long value used twice is named: read in place, each `let b = a * a` would
        # double the words, and thirty of them would not fit in any memory
        short = len(uses) <= 1 or len(phrase) <= _INLINE_LONGEST
        # a name given new values later (`best = ...`) is always named: it holds more than one thing
        changes = any(isinstance(n, s.Assign) and n.name == stmt.name for n in s.walk(rest))
        unchanged = _unchanged_at_uses(uses, rest) and (len(uses) == 1 or not chance)
        # a choice read where it is used must not be read after a choice made after it
        # (a trade: you choose first, then the other player) nor after a shuffle or a draw
        unchanged = unchanged and not (chance and uses and _asks_before(rest, uses[0]))
        if short and not changes and (kind == P.ZONE or unchanged):
            if uses or not chance:
                self.scopes[-1][stmt.name] = (phrase, kind)
                if len(uses) > 1:
                    self.inlined[stmt.name] = [stmt.value, False]
                return None
        named = f"“{words(stmt.name)}”"
        self.scopes[-1][stmt.name] = (named, kind)
        if changes:  # `let caller = me`, changed later: what it holds at first
            return f"{named} is {phrase} to begin with"
        return f"call {phrase} {named}"

    def if_(self, stmt: s.If) -> str:
        inner = stmt.then[0] if len(stmt.then) == 1 else None
        if isinstance(inner, s.If) and not inner.otherwise and not stmt.otherwise:
            # `if a { if b { x } }` reads as "if a and b, x"
            merged = s.BoolOp(stmt.pos, "and", (stmt.condition, inner.condition))
            return self.if_(s.If(stmt.pos, merged, inner.then, ()))
        condition = self.expr(stmt.condition)  # worded first: it is read first
        then = self.block(stmt.then)
        text = f"if {condition}, {self.join(then, bool(stmt.otherwise))}"
        if stmt.otherwise:
            otherwise = self.block(stmt.otherwise)
            text += f"; otherwise, {self.join(otherwise, False)}"
        return text

    def for_(self, stmt: s.For) -> str:
        over = self.expr(stmt.iterable)
        kind = self.type_of(stmt.iterable)
        repeat = self.repeat(stmt)
        self.scopes.append(self.each(stmt.name, kind))
        try:
            body = self.join(self.block(stmt.body), False)
        finally:
            self.scopes.pop()
        if repeat is not None:
            return f"{repeat}: {body}"
        single = isinstance(stmt.iterable, s.Call) and stmt.iterable.name in (N.top, N.bottom) \
            and _Args(self, stmt.iterable).count("n")[1] == 1
        return f"for {over} (if any): {body}" if single else f"for each of {over}: {body}"

    def repeat(self, stmt: s.For) -> str | None:
        """A loop over the top (or bottom) N cards of something whose body never names
        the card: it only counts, and reads "as many times as N"."""
        iterable = stmt.iterable
        if not (isinstance(iterable, s.Call) and iterable.name in (N.top, N.bottom)):
            return None
        if any(isinstance(n, s.Name) and n.id == stmt.name for n in s.walk(stmt.body)):
            return None
        a = _Args(self, iterable)
        worded, n = a.count("n")
        times = "once" if n == 1 else "twice" if n == 2 else f"{worded} times" \
            if isinstance(n, int) else f"as many times as {worded}"
        return f"{times} (at most once for each card {self.among(a.get('cards'))})"

    @staticmethod
    def join(clauses: list[str], guarded: bool) -> str:
        """Clauses of one block; a nested if or loop is bracketed when it could be misread."""
        if not clauses:
            return "nothing happens"
        nested = ("if ", "for ")
        bracket = guarded or len(clauses) > 1
        return ", then ".join(f"({c})" if bracket and c.startswith(nested) else c for c in clauses)


#: the longest phrase a `let` name used more than once is replaced by
_INLINE_LONGEST = 200


def _asks(tree) -> bool:
    """Whether a tree makes a choice or draws on chance."""
    return any(isinstance(n, s.Call) and n.name in P.PRIMITIVES
               and P.PRIMITIVES[n.name].kind in (P.CHOICE, P.CHANCE) for n in s.walk(tree))


def _asks_before(rest: tuple, use) -> bool:
    """Whether a statement before the one holding ``use`` makes a choice (or draws on chance)."""
    for stmt in rest:
        if any(node is use for node in s.walk(stmt)):
            return False
        if _asks(stmt):
            return True
    return False


def _unchanged_at_uses(uses: list, rest: tuple) -> bool:
    """Whether every use of a name comes before any statement that acts (in text order)."""
    acting = [n for n in s.walk(rest) if isinstance(n, s.CallStmt)]
    for use in uses:
        for act in acting:
            if act.pos < use.pos and not any(node is use for node in s.walk(act)):
                return False
    return True


# -- public API --------------------------------------------------------------------
def choice_names(choose: tuple) -> dict:
    """How the names of a card's or combo's ``choose:`` read in its effect:
    name -> (phrase, type), e.g. ``victim`` -> ("the chosen player", "player")."""
    kinds = {}
    for name, tree in choose:
        kinds[name] = P.PRIMITIVES[tree.name].returns \
            if isinstance(tree, s.Call) and tree.name in P.PRIMITIVES else None
    out = {}
    for name, kind in kinds.items():
        phrase = _CHOSEN.get(kind, f"“{words(name)}”")
        if list(kinds.values()).count(kind) > 1:  # two chosen players: tell them apart
            phrase = f"{phrase} “{words(name)}”"
        out[name] = (phrase, kind)
    return out


def describe_program(program, params: dict | None = None, *, cards: dict | None = None,
                     names: dict | None = None, this: str | None = None,
                     me: str | None = None) -> list[str]:
    """An effect as English sentences, one per top-level statement.

    ``params``: the edition's rules and parameters (``rules.NAME`` shows its value);
    ``cards``: id -> Card, for titles; ``names``: extra names in scope (name ->
    phrase, or (phrase, type)), such as :func:`choice_names`; ``this``: how
    ``this`` reads (default "this card"); ``me``: how the acting player reads
    (default "you"; "that player" in a rule about a player who went out).
    """
    if program is None:
        return []
    w = _Words(params, cards, names, this, me)
    body = program.body if isinstance(program, s.Program) else (program,)
    try:
        return [sentence(clause) for clause in w.block(body)]
    except Exception:  # never fail a whole sheet over one odd tree
        return ["(This effect could not be put into words.)"]


def describe_expression(expr, params: dict | None = None, *, cards: dict | None = None,
                        names: dict | None = None, this: str | None = None,
                        me: str | None = None) -> str:
    """One expression (a condition, a count, a choice) as a phrase."""
    try:
        return _Words(params, cards, names, this, me).expr(expr)
    except Exception:
        return "(an expression that could not be put into words)"
