"""Players: the protocol, a random bot and a heuristic bot.

A player is anything with ``choose(view, decision) -> option``; ``view`` is
what its seat may know (views.py) and ``decision`` lists the legal options.
A player may also have ``start(game, seat)``, called once before the game,
and ``needs_view = False`` if it never looks at the view (it then gets None).
A player that searches sets ``needs_state = True``: it is then handed a
``views.SearchView`` instead, the same view that can also deal worlds the
seat cannot tell from the real game (``resample(rng)``), and nothing more
(search.py is such a player). Players without these attributes work as before.
The ``decision`` handed over is ``views.decision_for(decision)``: its seat, kind,
options and info, not the cards the options stand for.

Bots are deterministic: each draws from its own generator, seeded from the
game's seed and its seat. The heuristic bot knows no card by name: it reads
the edition's compiled rules to learn which cards kill the drawer, which
card saves them, and which cards end a turn, cancel, peek or shuffle.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..lang import syntax as s
from ..lang.machine import below
from ..lang.primitives import NAMES
from ..rules.model import calls_primitive

PLAY_BLIND = "play blind"  # the option of a player who plays blind (game.PLAY_BLIND)


class Player(Protocol):
    def choose(self, view, decision): ...


def bot_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"kittens-bot/{seed}/{seat}")


class RandomBot:
    """Picks uniformly among the legal options."""

    name = "random"
    needs_view = False  # it never looks: play_game may pass None instead of a view

    def __init__(self, seed: int = 0, seat: int = 0) -> None:
        self.rng = bot_rng(seed, seat)

    def choose(self, view, decision):
        options = decision.options
        return options[below(self.rng, len(options))]


class CardRoles:
    """What each card of an edition is good for, read from its effects."""

    def __init__(self, edition) -> None:
        self.lethal = {cid for cid, card in edition.cards.items() if card.lethal}
        self.savers = set()
        for cid in self.lethal:
            self.savers |= _literals(edition.cards[cid].on_draw) & set(edition.cards)
        self.savers -= self.lethal
        self.roles: dict[str, str] = {}
        for cid, card in edition.cards.items():
            effect = card.effect
            if cid in self.savers:
                role = "saver"
            elif effect is None:
                role = "plain"
            elif calls_primitive(effect, NAMES.cancel):
                role = "canceller"
            elif calls_primitive(effect, NAMES.attack):
                role = "attacker"
            elif calls_primitive(effect, NAMES.end_turn):
                role = "skipper"
            elif calls_primitive(effect, NAMES.show):
                role = "peeker"
            elif calls_primitive(effect, NAMES.shuffle):
                role = "shuffler"
            else:
                role = "other"
            self.roles[cid] = role

        # an option -> the role of the card it plays, read once per option: a search
        # player's rollouts ask the heuristic bot hundreds of thousands of times
        self._played: dict = {}
        self._steals: dict = {}  # an option -> whether it is a cheap steal (see steals)

    VALUE = {"saver": 100, "canceller": 50, "attacker": 45, "skipper": 40, "peeker": 30, "shuffler": 25,
             "other": 20, "plain": 0}

    def value(self, card_id: str) -> int:
        return self.VALUE.get(self.roles.get(card_id, "other"), 10)

    @classmethod
    def unknown(cls) -> "CardRoles":
        """Roles for a bot nobody started: no card known, so every card is "other"."""
        roles = cls.__new__(cls)
        roles.lethal, roles.savers, roles.roles, roles._played, roles._steals = set(), set(), {}, {}, {}
        return roles

    def steals(self, option) -> bool:
        """Whether an action option is a two-card combo (a steal) paid for with cards of
        little use ("plain" or "other")."""
        found = self._steals.get(option)
        if found is None:
            parts = option.split() if type(option) is str and option.startswith("combo ") else ()
            found = self._steals[option] = len(parts) == 3 and \
                self.roles.get(parts[2], "other") in ("plain", "other")
        return found

    def played_role(self, option) -> str | None:
        """The role of the card an action option plays (None: it plays no single card).
        A wildcard played as another title does what that title does."""
        role = self._played.get(option, False)
        if role is False:
            role = None
            if type(option) is str and option.startswith("play ") and option != PLAY_BLIND:
                role = self.roles.get(option[5:].split(" as ")[-1], "other")
            self._played[option] = role
        return role


#: the roles a bot nobody started goes by: every card "other"
_NO_ROLES = CardRoles.unknown()


def _literals(program) -> set:
    return {item.value for item in s.walk(program) if isinstance(item, s.StrLit)}


class HeuristicBot:
    """Plays like a careful beginner.

    It peeks when the pile is dangerous, escapes a kitten it knows is on top,
    steals when it has no Defuse, answers attacks and steals aimed at it,
    gives away its least useful card, and hides a defused kitten on top of the
    pile for the next player (or at the bottom when it must draw again).
    """

    name = "heuristic"

    def __init__(self, seed: int = 0, seat: int = 0) -> None:
        self.rng = bot_rng(seed, seat)
        self.roles: CardRoles | None = None
        self.seat = seat
        self._blind_tries: dict = {}  # (seat, turn number) -> blind plays tried

    def start(self, game, seat: int) -> None:
        self.roles = CardRoles(game.edition)
        self.seat = seat

    def choose(self, view, decision):
        key = (type(self), decision.kind)
        try:
            handler = _HANDLERS[key]
        except KeyError:  # the method for a kind of decision, looked up once per class
            handler = _HANDLERS[key] = getattr(type(self), "_" + decision.kind, None)
        option = handler(self, view, decision) if handler else None
        if option is None or option not in decision.options:
            option = decision.options[below(self.rng, len(decision.options))]
        return option

    # -- helpers --------------------------------------------------------------
    def _value(self, card_id: str) -> int:
        # a bot nobody started (start is optional in the player protocol) values every
        # card alike rather than failing
        return self.roles.value(card_id) if self.roles else 10

    def _role(self, card_id: str) -> str:
        return self.roles.roles.get(card_id, "other") if self.roles else "other"

    def _danger(self, view) -> float:
        left = view.draw_pile_count
        if not left:
            return 0.0
        alive = sum(view.alive)
        return max(alive - 1, 0) / left

    def _options_read(self) -> CardRoles:
        """What the action options play, read from the roles (none known if not started)."""
        return self.roles or _NO_ROLES

    def _play_role(self, decision, roles) -> str | None:
        """The first option that plays a card of the first of ``roles`` it can."""
        role_of = self._options_read().played_role
        played = [role_of(option) for option in decision.options]
        for role in roles:
            if role in played:
                return decision.options[played.index(role)]
        return None

    # -- decisions ------------------------------------------------------------
    def _action(self, view, decision):
        if decision.info.get("blind"):  # a random card of the hand: only worth a try in danger
            return self._blind_action(view, decision)
        top = view.known_at(0)  # the top card, if this seat knows it
        if top is not None:
            if top in (self.roles.lethal if self.roles else ()):
                return self._play_role(decision, ("attacker", "skipper", "shuffler")) or \
                    self._steal(decision) or "draw"
            return "draw"
        saved = bool(self.roles and self.roles.savers) and view.holds(self.roles.savers)
        danger = self._danger(view)
        if not saved:
            steal = self._steal(decision)
            if steal:
                return steal
        if danger >= 0.2:  # the top is not known here: worth a look
            peek = self._play_role(decision, ("peeker",))
            if peek:
                return peek
        if not saved and danger >= 0.25:
            return self._play_role(decision, ("attacker", "skipper")) or "draw"
        return "draw"

    def _blind_action(self, view, decision):
        """Playing blind: try a random card (at most three times a turn) when the top is deadly."""
        turn = (view.current, view.turn_number)
        tries = self._blind_tries.get(turn, 0)
        top = view.known_at(0)
        if PLAY_BLIND in decision.options and tries < 3 and top in (self.roles.lethal if self.roles else ()):
            self._blind_tries = {turn: tries + 1}
            return PLAY_BLIND
        return "draw"

    def _steal(self, decision):
        steals = self._options_read().steals
        for option in decision.options:
            if steals(option):
                return option
        return self._play_role(decision, ("other",))

    def _answer(self, view, decision):
        """Cancel plays aimed at me, and fight back when my own play is cancelled."""
        info = decision.info
        play = info.get("play", {})
        cancelled_now = (info.get("depth", 1) - 1) % 2 == 1  # answers so far, by parity
        answer = next((o for o in decision.options if o != "pass"), "pass")
        if play.get("seat") == self.seat:
            return answer if cancelled_now else "pass"
        aimed_at_me = self.seat in info.get("targets", {}).values()
        role = self._role(play.get("id", ""))
        next_is_me = view.current == play.get("seat") and self._next_seat(view) == self.seat
        if (aimed_at_me or (role == "attacker" and next_is_me)) and not cancelled_now:
            return answer
        return "pass"

    def _next_seat(self, view) -> int:
        n, current, alive = view.players, view.current, view.alive
        for step in range(1, n + 1):
            seat = (current + step) % n
            if alive[seat]:
                return seat
        return current

    def _choose_player(self, view, decision):
        return max(decision.options, key=lambda seat: (view.hand_count(seat), -seat))

    def _choose_card(self, view, decision):
        options = decision.options
        if options and isinstance(options[0], int):
            return options[below(self.rng, len(options))]
        giving = decision.info.get("actor") != self.seat
        value = self._value
        if giving:  # handing a card over: the least useful one
            return min(options, key=lambda cid: (value(cid), cid))
        return max(options, key=lambda cid: (value(cid), cid))

    def _choose_title(self, view, decision):
        savers = [t for t in decision.options if self._role(t) == "saver"]
        return savers[0] if savers else None

    def _choose_position(self, view, decision):
        places = decision.options
        if view.owed[self.seat] > 1:  # I draw again: bury it
            return places[-1]
        return places[0]

    def _combo_card(self, view, decision):
        return min(decision.options, key=lambda cid: (self._value(cid), cid))

    def _ask(self, view, decision):
        return True

    def _rearrange(self, view, decision):
        """Put the cards that can eliminate their drawer as deep as they go."""
        cards = decision.info.get("cards", [])
        lethal = self.roles.lethal if self.roles else set()
        return min(decision.options, key=lambda order: [cards[i] in lethal for i in order])

    def _blind_pick(self, view, decision):
        """A card that can be told apart by its back is worth taking (a Godcat)."""
        return next((o for o in decision.options if o is not True), True)


#: (bot class, decision kind) -> the method that decides it (None: pick at random)
_HANDLERS: dict = {}

#: the hand-written bots; players.py adds the search player (search.py) and makes
#: players from specs (players.make_bots)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
