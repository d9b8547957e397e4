"""The game: a compiled edition played as a state machine, in the manner of OpenSpiel.

:class:`Game` is the static part: an edition compiled for a player count, its
effects turned into code once. :class:`State` is one game in progress:

    state = Game(edition, players=4).new_state(seed=7)
    while not state.is_terminal():
        seat = state.current_player()       # a seat, or CHANCE
        options = state.legal_actions()     # JSON values
        state.apply_action(options[0])

Everything random comes from the seed, so the same edition, seed and
decisions replay to the same game. A state is a table of cards and a stack of
frames (lang/machine.py), all plain data: :meth:`State.clone` copies it
directly, :meth:`State.resample_from_view` deals a world one seat cannot tell
from this one, and the OpenSpiel calls (``chance_outcomes``, ``returns``,
``information_state_string``, ...) are answered from it.
"""

from __future__ import annotations

import json
import random

from ..lang.compiler import compile_expression, compile_program
from ..lang.errors import GameError, RuleRuntimeError  # noqa: F401 (re-exported)
from ..lang.limits import STEP_BUDGET, label
from ..lang.machine import STOPPED, Chance, Ctx, Machine, remap
from .answering import DrawMeetingFrame, GoingOutFrame, spent
from .compiled import compile_rule, restricted, spending_limits, taking_limits
from .decisions import CHANCE, TERMINAL
from .events import for_seat, kept_for
from .flow import PLAY_LIMIT, TURN_LIMIT, GameFrame  # noqa: F401 (re-exported)
from .moments import Phases, game_end, scores
from .plays import PlayAsFrame
from .slots import place_titles
from .table import GameOver, Table
from .triggers import draw as draw_card
from .worlds import deal, place_rules

PLAYABLE_ON_TURN = ("own_turn", "any_time")
PLAYABLE_IN_WINDOW = ("reaction", "any_time")


class Game:
    """An edition compiled for ``players`` seats; make games with :meth:`new_state`."""

    def __init__(self, edition, players: int) -> None:
        lo, hi = edition.players
        if not lo <= players <= hi:
            raise GameError(f"{edition.name} is for {lo} to {hi} players, not {players}")
        self.edition = edition
        self.players = players
        zones = frozenset(name for name, spec in edition.zones.items() if not spec.get("per_player"))
        self.rules = {**edition.rules, **edition.params}
        shared: dict = {}  # equal expressions share one compiled code (see compiled.legal)
        limits = restricted(edition, zones)  # rule-wide limits, joined to every play's test
        self.spending_limits = spending_limits(edition, zones)  # and those on what effects spend
        self.taking_limits = taking_limits(edition, zones)  # and on what they take from others' hands
        self.cards = {card_id: limits(compile_rule(card, zones, shared)) for card_id, card in edition.cards.items()}
        self.combos = tuple(limits(compile_rule(combo, zones, shared)) for combo in edition.combos)
        self.turn_draw = compile_program(edition.turn_draw, zones,
                                         f"the turn's draw ({edition.origins.get('turn') or edition.origin})")
        self.checks = tuple((check, compile_expression(check.condition, zones, label(check)),
                             compile_program(check.effect, zones, label(check)))
                            for check in edition.checks)
        self.draw_hooks = {card_id: compile_program(card.instead_of_draw, zones, label(card, "instead_of_draw"))
                           for card_id, card in edition.cards.items() if card.instead_of_draw}
        self.has_decoys = any(card.decoy for card in edition.cards.values())
        # editions without these concepts skip their checks on hot paths
        self.has_wilds = any(card.stands_for is not None for card in edition.cards.values())
        self.has_marked = any(card.back_distinct for card in edition.cards.values())
        self.blinders = frozenset(card_id for card_id, card in edition.cards.items() if card.blinds)
        self.deck = edition.deck_for(players)
        # the deck as it goes into the pile before the deal, one definition per card
        self.deck_cards = [edition.cards[card_id] for card_id, copies in self.deck.items()
                           for _ in range(copies)]
        self.titles = list(self.deck) or sorted(edition.cards)
        self.reactive = frozenset(card_id for card_id, card in edition.cards.items()
                                  if card.when in PLAYABLE_IN_WINDOW)
        # cards a player who is out may answer with (`who: out` or `anyone`); empty in
        # every edition without them, which then never looks at the seats that are out
        self.out_answers = frozenset(card_id for card_id in self.reactive if edition.cards[card_id].who != "in")
        self.out_only = frozenset(card_id for card_id, card in edition.cards.items() if card.who == "out")
        # cards that answer moments (`answers:`), never plays: (moment, zone, at) -> their ids
        self.moment_answers: dict = {}
        for card_id in sorted(self.reactive):
            for key in edition.cards[card_id].answers:
                if key[0] != "play":  # (`on: play`: it answers plays too, as reactions do)
                    self.moment_answers.setdefault(key, set()).add(card_id)
        self.moment_answers = {key: frozenset(ids) for key, ids in self.moment_answers.items()}
        self.moment_only = frozenset(card_id for card_id in self.reactive if edition.cards[card_id].answers
                                     and all(key[0] != "play" for key in edition.cards[card_id].answers))
        # the cards that answer plays: those a player still in may play (every reactive card
        # in an edition without `who` or `answers:`), and those a player who is out may
        self.answers_in = self.reactive - self.out_only - self.moment_only if self.out_only or self.moment_only \
            else self.reactive
        self.answers_out = self.out_answers - self.moment_only
        # what an action decision offers, worked out once: card id -> (rule, option)
        self.on_turn = {card_id: (rule, "play " + card_id) for card_id, rule in self.cards.items()
                        if rule.record.when in PLAYABLE_ON_TURN and rule.record.stands_for is None
                        and rule.record.who != "out"}
        # wildcards played as another title: card id -> ((rule of the title, option), ...)
        self.wild_plays = {
            card_id: tuple((self.cards[other], f"play {card_id} as {other}") for other in self.titles
                           if other != card_id and other in self.on_turn
                           and card.may_stand_for(edition.cards[other]))
            for card_id, card in edition.cards.items()
            if card.stands_for is not None and card.when in PLAYABLE_ON_TURN}
        # wildcards that may fill a same-title combo: card id -> Card
        self.combo_wilds = {card_id: card for card_id, card in edition.cards.items()
                            if card.stands_for is not None and card.in_combos}
        # the wildcards that may fill a same-title combo of each title, in combo_wilds' order
        self.fillers = {card_id: tuple(wild_id for wild_id, wild in self.combo_wilds.items()
                                       if wild_id != card_id and wild.may_stand_for(card))
                        for card_id, card in edition.cards.items()}
        self.same_title_combos = tuple((rule, rule.record.tag, rule.record.size, f"combo {rule.id} ")
                                       for rule in self.combos if rule.record.match == "same_title")
        self.mixed_combos = tuple((rule, rule.record.tag, rule.record.size, f"combo {rule.id}")
                                  for rule in self.combos if rule.record.match == "different_titles"
                                  and not rule.record.by_slots)
        # combos picked place by place (`slots:` or `match: any`, engine/slots.py): (rule,
        # the titles that may fill each place, whether no title may come twice, option);
        # empty in every shipped edition, whose action decisions then never look at them
        self.slot_combos = tuple((rule, place_titles(rule.record, edition.cards),
                                  rule.record.match != "any", f"combo {rule.id}")
                                 for rule in self.combos if rule.record.by_slots)
        self.slot_places = {rule.id: (places, distinct) for rule, places, distinct, _label in self.slot_combos}
        self.offers = self._offers(edition)
        # the titles that count in each combo of different titles (a hand's count of them is
        # one set intersection)
        self.mixed_titles = tuple(frozenset(card_id for card_id, card in edition.cards.items()
                                            if rule.record.may_include(card))
                                  for rule, _tag, _size, _label in self.mixed_combos)
        # combo id -> the titles that may count in it (Combo.may_include, as a set: a combo
        # of different titles offers its cards one title at a time, ComboPickFrame)
        self.pickable = {combo.id: frozenset(card_id for card_id, card in edition.cards.items()
                                             if combo.may_include(card)) for combo in edition.combos}
        # free actions, offered after the plays: (rule, option), each compiled like a card
        self.actions = tuple((limits(compile_rule(action, zones, shared)), "act " + action.id)
                             for action in edition.actions)
        # what every action decision reads (flow.action_decision), in one tuple: one lookup
        self.deciding = (self.blinders, self.offers, self.combo_wilds, self.same_title_combos, self.fillers,
                         tuple(zip(self.mixed_titles, self.mixed_combos)), self.actions, self.slot_combos)
        self.phases = Phases(edition, zones)  # triggers and scores (moments.py)
        # whether every draw meets the moment `card_drawn` (answering.py): False in every
        # edition without triggers or answers for it, whose draws stay as they were
        self.meets_draws = "card_drawn" in self.phases.before_moments or \
            ("card_drawn", None) in self.phases.watch
        # setup step (numbered from 1) -> its count, when it is the same in every game, or
        # -1 when it looks at the pile (setup.py fills it in at the first deal)
        self.setup_counts: dict = {}
        # what names a running effect in an error: card, combo, check or trigger id -> label
        # (with the line of the house rule that rewrote the effect, if one did)
        self.labels = {**self.phases.labels, **{check.id: label(check) for check, _c, _e in self.checks},
                       **{rule.id: label(rule.record, "effect") for rule in self.combos},
                       **{rule.id: label(rule.record) for rule, _option in self.actions},
                       **{card_id: label(card, "effect") for card_id, card in edition.cards.items()}}

    def _offers(self, edition) -> dict:
        """Card id -> what a card of that title in hand may offer on its own turn:
        (rule, free, option) of its plays, (index, size) of the same-title combos it
        may make, and the fewest cards of its title any of those combos needs."""
        offers = {}
        for card_id, card in edition.cards.items():
            plays = ([self.on_turn[card_id]] if card_id in self.on_turn else []) + \
                list(self.wild_plays.get(card_id, ()))
            combos = tuple((index, size) for index, (rule, _tag, size, _prefix) in enumerate(self.same_title_combos)
                           if rule.record.may_include(card))
            smallest = min((size for _index, size in combos), default=1 << 30)
            offers[card_id] = (tuple((rule, rule.free, label) for rule, label in plays), combos, smallest)
        return offers

    def new_state(self, seed: int = 0, *, record: bool = True, explicit_chance: bool = False,
                  layout=None) -> "State":
        return State(self, seed, record=record, explicit_chance=explicit_chance, layout=layout)

    def num_players(self) -> int:
        return self.players


class State(Machine):
    """One game in progress. Decisions and chance are answered with :meth:`apply_action`.

    The state offers its running effects a narrow set of services (lang/world.py):
    the rules' values, the edition's cards and titles, what a decision is about,
    drawing a card, and the action's step budget.
    """

    def __init__(self, game: Game, seed: int, *, record: bool = True,
                 explicit_chance: bool = False, layout=None) -> None:
        self._setup(game, seed, explicit_chance, Table(game.edition, game.players, seed, record))
        try:
            self._pending = self.call(GameFrame(layout))
        except GameOver:
            self._pending = STOPPED
        if self._pending is STOPPED:  # decided before the first decision
            self.stack.clear()
            self._pending = None

    def _setup(self, game: Game, seed: int, explicit_chance: bool, table: Table) -> None:
        self._start(game, table, explicit_chance, STEP_BUDGET)  # stack and budget: machine.Machine
        self.seed = seed
        # services for effects (see lang/world.py)
        self.rules = game.rules
        self.titles = game.titles
        self.cards = game.edition.cards
        self.has_wilds, self.has_decoys, self.has_marked = game.has_wilds, game.has_decoys, game.has_marked
        self.spending_limits = game.spending_limits
        self.taking_limits = game.taking_limits
        self.decisions = 0
        self.history: list = []  # every option and chance outcome applied, in order
        self.draw_nesting = 0
        self.hooking: set = set()  # uids of cards whose `instead_of_draw` is running
        self.outs_met: set = set()  # seats whose `player_out` is being met before it happens
        self.playing_as = 0  # how deep `play_as` effects are nested
        self._pending = None
        self._sampled = None  # a chance order sampled for legal_actions(), until applied
        self._kept_log = None  # (seat, events, the log as that seat may know it): see resample_from_view
        phases = game.phases
        self.phased = phases.active  # read by the flow after every action: one field, not three lookups
        table.outs = phases.outs
        table.at_end = self._at_end if phases.at_end() else None

    def _at_end(self, winner, reason, winners):
        """The table's hook once the game is decided (game_end triggers, winners on points)."""
        return game_end(self, winner, reason, winners)

    # -- the step API ---------------------------------------------------------
    def current_player(self) -> int:
        pending = self._pending
        if pending is None:
            return TERMINAL
        return CHANCE if type(pending) is Chance else pending.seat

    def is_terminal(self) -> bool:
        return self._pending is None

    def is_chance_node(self) -> bool:
        return type(self._pending) is Chance

    def decision(self):
        """The pending Decision or Chance (None once the game is over)."""
        return self._pending

    def legal_actions(self, player: int | None = None) -> list:
        """The options of the pending decision; at a chance node its outcomes (a shuffle,
        too many to list, offers one order sampled from the game's generator). Empty
        only when the game is over, or for a ``player`` who is not the one to act."""
        pending = self._pending
        if pending is None or (player is not None and player != self.current_player()):
            return []
        if type(pending) is Chance:
            return [outcome for outcome, _p in self.chance_outcomes()]
        return pending.options

    def chance_outcomes(self) -> list:
        """(outcome, probability) pairs at a chance node: every pick with its equal share,
        or for a shuffle one order sampled from the game's generator, with probability 1."""
        pending = self._pending
        if type(pending) is not Chance:
            return []
        if pending.kind == "pick":
            share = 1.0 / pending.size
            return [(index, share) for index in range(pending.size)]
        if self._sampled is None:
            self._sampled = pending.sample(self.table.rng)
        return [(self._sampled, 1.0)]

    def sample_chance(self):
        """An outcome for the pending chance node, drawn from the game's seeded generator."""
        if type(self._pending) is not Chance:
            raise GameError("no chance outcome is pending")
        if self._pending.kind == "order":
            return self.chance_outcomes()[0][0]
        return self._pending.sample(self.table.rng)

    def apply_action(self, option) -> None:
        pending = self._pending
        if pending is None:
            raise GameError("the game is over")
        table = self.table  # compiled, a Table and its log C structs (game.pxd)
        if type(pending) is Chance:
            try:
                pending.check(option)
            except ValueError as exc:
                raise GameError(str(exc)) from None
            value = list(option) if isinstance(option, tuple) else option
            if table.log.record:
                table.log.emit("chance", only=0, outcome=value)
        else:
            decision = pending  # compiled, a Decision: value_of is a C method
            try:
                value = decision.value_of(option)
            except ValueError as exc:
                raise GameError(f"seat {decision.seat}: {exc}") from None
            self.decisions += 1
            if table.log.record:
                table.log.decision(decision.seat, decision.kind, option)
        self._sampled = None
        self.history.append(option)
        self._advance(value)

    def _take(self, index: int) -> None:
        """``apply_action`` of the pending decision's option at ``index`` (not a chance
        node), without looking the option up among the options: for play_game, which
        picks an option by its place."""
        decision = self._pending  # compiled, a Decision
        option = decision.options[index]
        self.decisions += 1
        table = self.table
        if table.log.record:
            table.log.decision(decision.seat, decision.kind, option)
        self._sampled = None
        self.history.append(option)
        self._advance(decision.values[index])

    # -- the flow (call, settle and charge: machine.Machine) --------------------
    def _advance(self, value) -> None:
        """Run the frames until one waits for a decision (or a chance outcome, when
        chance is explicit), or the game is over."""
        stack = self.stack
        explicit = self.explicit_chance
        try:
            while stack:
                frame = stack[-1]
                out = frame.step(self, value)
                if out is None:
                    stack.pop()
                    value = frame.result
                elif type(out) is Chance and not explicit:
                    value = self._draw_chance(out)
                elif out is STOPPED:  # an effect ended the game (machine.Stop)
                    break
                else:
                    self._pending = out
                    return
        except GameOver:  # the flow itself ended it (a turn or play limit, an end condition)
            pass
        stack.clear()
        self._pending = None

    # -- services for effects ---------------------------------------------------
    def draw(self, seat: int, from_bottom: bool):
        """``seat`` draws; a frame to run when the draw sets something off, else None."""
        return draw_card(self, seat, from_bottom)

    def play_as(self, ctx, title: str, cards):
        """A frame that carries out the card ``title`` for ``ctx.me`` with ``cards`` as
        `this` (the `play_as` primitive), or None when the title has nothing to do."""
        rule = self.game.cards.get(title)
        if rule is None or (rule.effect is None and not rule.choose):
            return None
        return PlayAsFrame(rule, Ctx(self, ctx.me, cards, target=ctx.target, source=title))

    def going_out(self, seat: int):
        """Take ``seat`` out (the `eliminate` primitive): at once, or, where the edition
        meets `player_out` before it happens, a frame that does so unless it is cancelled."""
        # a replacement meets an elimination once: an `eliminate` of the same player from
        # its own effect (instead of going out... go out) takes them out at once
        if "player_out" in self.game.phases.before_moments and seat not in self.outs_met:
            return GoingOutFrame(seat)
        self.table.eliminate(seat)
        return None

    def spending(self, ctx, seat: int, title: str, cards: list):
        """Whether cards ``seat`` spent as ``title`` stand (the `spend` primitive): True, or
        a frame letting every player answer first, where that title may be Noped."""
        return spent(self, ctx, seat, title, cards)

    def meet_draw(self, seat: int, inst):
        """The frame that carries a draw on in an edition that meets `card_drawn`
        (answering.py). Every draw meets it, whatever the card: a seat that could not
        tell which card was drawn must not learn it from a window opening."""
        return DrawMeetingFrame(seat, inst)

    def about(self, ctx) -> dict:
        """What a decision inside an effect is about, for the player asked."""
        return {"source": ctx.source, "actor": ctx.me}

    def where(self, ctx) -> str | None:
        """The card, combo or check whose effect is running, for an error."""
        return self.game.labels.get(ctx.source)

    # -- results --------------------------------------------------------------
    @property
    def winner(self) -> int | None:
        return self.table.winner

    @property
    def winners(self) -> tuple:
        """Every winning seat: the winner, or the whole winning team; () while nobody has won."""
        return self.table.winners

    def returns(self) -> list[float]:
        """Each seat's return: 1 for every winner (in a team game, every member of the
        winning team, partners who went out included), 0 for everyone else and for
        every seat while the game goes on or when it stopped without a winner."""
        winners = set(self.table.winners) if self._pending is None else set()
        return [1.0 if seat in winners else 0.0 for seat in range(self.game.players)]

    def scores(self) -> list[int]:
        """Each seat's score by the edition's `win: {score: ...}` as the table stands now
        (every 0 in a game not won on points). Read it once the game is over: during
        play a score may count cards a seat may not see."""
        return scores(self)

    def rewards(self) -> list[float]:
        """What each seat earned by the last action: the returns, paid when the game ends."""
        return self.returns()

    @property
    def events(self) -> list[dict]:
        return self.table.log.events

    def view(self, seat: int):
        from .views import View
        return View(self, seat)

    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees now (its view), as one JSON text."""
        return json.dumps(self.view(seat).to_dict(), sort_keys=True, separators=(",", ":"))

    def information_state_string(self, seat: int) -> str:
        """Everything ``seat`` has observed since the game began: its stream of events
        (which needs a recorded game), then what it sees now."""
        if not self.table.log.record:
            raise GameError("an information state needs a game that records its events "
                            "(new_state(record=True))")
        seen = [event for event in (for_seat(e, seat) for e in self.table.log.events) if event is not None]
        return json.dumps({"observed": seen, "now": self.view(seat).to_dict()}, sort_keys=True,
                          separators=(",", ":"), default=str)

    # -- copies -----------------------------------------------------------------
    def clone(self) -> "State":
        """An independent copy of this game, made directly: the table, the frames
        running and the pending decision, every card carried over."""
        return self._copy(True)

    def _copy(self, record: bool) -> "State":
        memo: dict = {}
        other = State.__new__(State)
        memo["state"] = other
        table = self.table.copy(memo, record)
        other._setup(self.game, self.seed, self.explicit_chance, table)
        other.decisions, other.budget, other.draw_nesting = self.decisions, self.budget, self.draw_nesting
        other.step_budget = self.step_budget
        other.history = list(self.history)
        other.hooking = set(self.hooking)
        other.outs_met = set(self.outs_met)
        other.playing_as = self.playing_as
        other.stack = remap(self.stack, memo)
        other._pending = remap(self._pending, memo)
        other._sampled = self._sampled
        return other

    def resample_from_view(self, seat: int, rng: random.Random, *, record: bool | None = None,
                           uniform: bool = False) -> "State":
        """A copy of this game with every card ``seat`` cannot see dealt afresh: the
        cards it does not know are dealt among the places it does not know, each
        title only into the kinds of places the rules leave such a card in (an
        Exploding Kitten of the Original never in a hand: worlds.py learns this
        from the compiled rules), zone sizes and everything it knows kept, and the
        copy's own chance reseeded from ``rng``. Two states that look the same to
        ``seat`` give the same resample from the same ``rng``. ``uniform=True``
        deals the unknown cards uniformly over the unknown places instead.

        Cards the action under way is holding (a combo's cards being picked, a
        play's cards) keep their faces, so the action goes on soundly: resample
        at the seat's own decisions, where those are its own or public cards.

        The copy carries nothing else of the real cards: a card's serial number
        moves with its face, its event log keeps only what ``seat`` observed (so
        its information state for ``seat`` is this one's), and it has no seed or
        past actions (it cannot be serialized).

        ``record=False`` gives a world that keeps and records no events at all: a
        search that never reads them plays its worlds faster. Otherwise the world
        records as this game does (a game that records nothing gives a world that
        records nothing)."""
        other = self._copy(record is not False)
        table = other.table
        deal(table, seat, rng, other._cards_in_play(), None if uniform else place_rules(self.game))
        table.rng.seed(rng.getrandbits(64))
        other._sampled = None
        # nothing else in the copy may point at the real cards: the log keeps what the
        # seat observed (its information state stays the same), and the seed and actions
        # that would replay the real game are gone
        if table.log.record:
            table.log.events = self._log_kept_for(seat)
        other.seed, other.history = None, []
        return other

    def _log_kept_for(self, seat: int) -> list:
        """A copy of the events with only what ``seat`` may know of them (a search deals
        many worlds at one decision: the filtered log is kept until the log grows)."""
        events = self.table.log.events
        kept = self._kept_log
        if kept is None or kept[0] != seat or kept[1] != len(events):
            kept = self._kept_log = (seat, len(events), [seen for seen in (kept_for(event, seat) for event in events)
                                                         if seen is not None])
        return list(kept[2])

    def _cards_in_play(self) -> set:
        """The uids of the cards the frames running and the pending decision refer to."""
        found, seen, todo = set(), set(), [self.stack, self._pending]
        cards = set(map(id, self.table.cards))
        while todo:
            value = todo.pop()
            if id(value) in seen or value is None or isinstance(value, (int, str, bool, float)):
                continue
            seen.add(id(value))
            if id(value) in cards:
                found.add(value.uid)
            elif isinstance(value, (list, tuple, set)):
                todo.extend(value)
            elif isinstance(value, dict):
                todo.extend(value.values())
            elif hasattr(value, "copy_for"):  # frames, plays, contexts, requests
                todo.extend(getattr(value, name, None) for cls in type(value).__mro__
                            for name in getattr(cls, "__slots__", ()) if name not in ("table", "state"))
        return found

    def serialize(self) -> str:
        """The game as text: its seed, how chance is resolved, and every action applied
        (with :meth:`Game.deserialize_state` it plays back to the same state)."""
        if self.seed is None:
            raise GameError("this game was dealt from a view (resample_from_view): no seed and "
                            "actions replay it, so it cannot be written out; serialize the real game")
        return json.dumps({"seed": self.seed, "explicit_chance": self.explicit_chance,
                           "record": self.table.log.record, "history": self.history})

    def __str__(self) -> str:
        table = self.table
        hands = "; ".join(f"{seat}: {', '.join(inst.id for inst in hand.cards)}"
                          for seat, hand in enumerate(table.hands))
        return (f"turn {table.turn}, seat {table.current} to play, owed {table.owed}, "
                f"draw pile {len(table.draw_pile.cards)}, hands {hands}")


def deserialize_state(game: Game, text: str) -> State:
    """A state from :meth:`State.serialize`: the game played again from its seed."""
    data = json.loads(text)
    state = game.new_state(data["seed"], record=data.get("record", True),
                           explicit_chance=data.get("explicit_chance", False))
    for option in data["history"]:
        state.apply_action(option)
    return state


Game.deserialize_state = deserialize_state
