"""The game: a compiled edition played as a state machine, OpenSpiel style.

:class:`Game` is the static part: an edition compiled for a player count, its
effects turned into closures once. :class:`State` is one game in progress:

    state = Game(edition, players=4).new_state(seed=7)
    while not state.is_terminal():
        seat = state.current_player()       # a seat, or CHANCE
        options = state.legal_actions()     # JSON values
        state.apply_action(options[0])

Everything random comes from the seed, so the same edition, seed and
decisions replay to the same game. The flow (turns, plays, reaction windows,
draws) is one generator that yields a Decision or a Chance whenever it waits.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..lang import syntax as s
from ..lang.errors import GameError, RuleRuntimeError
from .decisions import CHANCE, TERMINAL, Chance, Decision
from ..lang.cost import STEP_BUDGET, label
from .evaluator import Code, Ctx, compile_expression, compile_program, run
from .setup import play_setup
from ..rules.model import Combo
from .reactions import Play, Reactions
from .table import GameOver, PrivateInt, Table
from .triggers import BLIND, PLAY_BLIND, Triggers

#: when a game has lasted this many turns, or one turn this many plays, it is
#: stopped without a winner: a house rule whose pile can run dry, or whose cards
#: come back to the hand that played them, would otherwise go on for ever
TURN_LIMIT = 5000
PLAY_LIMIT = 1000

DRAW = "draw"
PLAYABLE_ON_TURN = ("own_turn", "any_time")
PLAYABLE_IN_WINDOW = ("reaction", "any_time")


#: how deep drawn cards may make their drawer draw again (each draw's effect runs
#: inside the one before; Python's own stack would run out long before a real
#: edition gets near this)
MAX_DRAW_NESTING = 100


@dataclass(frozen=True)
class Rule:
    """A card or combo with its effects compiled."""

    id: str
    record: object  # model.Card or model.Combo
    requires: Code | None
    feasible: tuple  # pure codes that must give someone/something to choose
    choose: tuple  # of (name, Code)
    effect: Code | None
    on_draw: Code | None = None
    requires_this: bool = False  # whether `requires` or a choice's pool looks at `this`


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
        shared: dict = {}  # equal expressions share one compiled code (see State._legal)
        self.cards = {card_id: _compile(card, zones, shared) for card_id, card in edition.cards.items()}
        self.combos = tuple(_compile(combo, zones, shared) for combo in edition.combos)
        self.turn_draw = compile_program(edition.turn_draw, zones,
                                         f"the turn's draw ({edition.origins.get('turn') or edition.origin})")
        self.checks = tuple((check, compile_expression(check.condition, zones, label(check)),
                             compile_program(check.effect, zones, label(check)))
                            for check in edition.checks)
        self.draw_hooks = {card_id: compile_program(card.instead_of_draw, zones, label(card))
                           for card_id, card in edition.cards.items() if card.instead_of_draw}
        self.has_decoys = any(card.decoy for card in edition.cards.values())
        # editions without these concepts skip their checks on hot paths
        self.has_wilds = any(card.stands_for is not None for card in edition.cards.values())
        self.has_marked = any(card.back_distinct for card in edition.cards.values())
        self.blinders = frozenset(card_id for card_id, card in edition.cards.items() if card.blinds)
        self.deck = edition.deck_for(players)
        self.titles = list(self.deck) or sorted(edition.cards)
        self.reactive = frozenset(card_id for card_id, card in edition.cards.items()
                                  if card.when in PLAYABLE_IN_WINDOW)
        # what an action decision offers, worked out once: card id -> (rule, option)
        self.on_turn = {card_id: (rule, "play " + card_id) for card_id, rule in self.cards.items()
                        if rule.record.when in PLAYABLE_ON_TURN and rule.record.stands_for is None}
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
        self.same_title_combos = tuple((rule, rule.record.tag, rule.record.size, f"combo {rule.id} ")
                                       for rule in self.combos if rule.record.match == "same_title")
        self.mixed_combos = tuple((rule, rule.record.tag, rule.record.size, f"combo {rule.id}")
                                  for rule in self.combos if rule.record.match != "same_title")

    def new_state(self, seed: int = 0, *, record: bool = True, explicit_chance: bool = False,
                  layout=None) -> "State":
        return State(self, seed, record=record, explicit_chance=explicit_chance, layout=layout)


def _compile(record, zones, shared: dict) -> Rule:
    where = label(record)

    def expression(tree):
        if tree not in shared:  # shared by equal trees: errors name the first card that has it
            shared[tree] = compile_expression(tree, zones, where)
        return shared[tree]

    choose, feasible, looks_at_this = [], [], _names_this(record.requires)
    for name, tree in record.choose:
        choose.append((name, compile_expression(tree, zones, where)))
        # choose_player(among) / choose_card(among) with a pure `among`: a play is
        # only legal when there is something to choose
        if isinstance(tree, s.Call) and tree.name in ("choose_player", "choose_card") and tree.args:
            among = expression(tree.args[0])
            if not among.gen:
                feasible.append(among)
                looks_at_this = looks_at_this or _names_this(tree.args[0])
    requires = expression(record.requires) if record.requires is not None else None
    return Rule(id=record.id, record=record, requires=requires,
                feasible=tuple(feasible), choose=tuple(choose),
                effect=compile_program(record.effect, zones, where),
                on_draw=compile_program(getattr(record, "on_draw", None), zones, where),
                requires_this=looks_at_this)


def _names_this(tree) -> bool:
    return any(isinstance(item, s.Name) and item.id == "this" for item in s.walk(tree))


class State(Reactions, Triggers):
    """One game in progress. Decisions and chance are answered with apply_action."""

    def __init__(self, game: Game, seed: int, *, record: bool = True,
                 explicit_chance: bool = False, layout=None) -> None:
        self.game = game
        self.seed = seed
        self.rules = game.rules
        self.titles = game.titles
        self.explicit_chance = explicit_chance
        self.table = Table(game.edition, game.players, seed, record)
        self.decisions = 0
        self.history: list = []  # every option and chance outcome applied, in order
        self._draw_nesting = 0
        self.budget = STEP_BUDGET  # steps the running action may still take (see cost.py)
        self._hooking: set = set()  # cards whose `instead_of_draw` is running
        self._pending = None
        self._layout = layout
        self._flow = self._run()
        self._advance(None)

    # -- the step API ---------------------------------------------------------
    def current_player(self) -> int:
        pending = self._pending
        if pending is None:
            return TERMINAL
        return CHANCE if type(pending) is Chance else pending.seat

    def is_terminal(self) -> bool:
        return self._pending is None

    def decision(self):
        """The pending Decision or Chance (None once the game is over)."""
        return self._pending

    def legal_actions(self) -> list:
        pending = self._pending
        if pending is None:
            return []
        if type(pending) is Chance:
            return pending.outcomes() or []
        return pending.options

    def sample_chance(self):
        """An outcome for the pending chance node, drawn from the game's seeded generator."""
        if type(self._pending) is not Chance:
            raise GameError("no chance outcome is pending")
        return self._pending.sample(self.table.rng)

    def apply_action(self, option) -> None:
        pending = self._pending
        if pending is None:
            raise GameError("the game is over")
        log = self.table.log
        if type(pending) is Chance:
            try:
                pending.check(option)
            except ValueError as exc:
                raise GameError(str(exc)) from None
            value = option
            if log.record:
                log.emit("chance", only=0, outcome=option)
        else:
            try:
                value = pending.value_of(option)
            except ValueError as exc:
                raise GameError(f"seat {pending.seat}: {exc}") from None
            self.decisions += 1
            if log.record:
                log.emit("decision", only=1 << pending.seat, seat=pending.seat,
                         kind=pending.kind, option=option)
        self.history.append(option)
        self._advance(value)

    def clone(self) -> "State":
        """An independent copy of this game, made by replaying its history from the seed.

        The copy can be played on (by a search, say) without touching this one.
        It costs as much as the game so far, since live effects cannot be copied.
        """
        other = State(self.game, self.seed, record=self.table.log.record,
                      explicit_chance=self.explicit_chance, layout=self._layout)
        for option in self.history:
            other.apply_action(option)
        return other

    @property
    def winner(self) -> int | None:
        return self.table.winner

    @property
    def winners(self) -> tuple:
        """Every winning seat: the winner, or the whole winning team; () while nobody has won."""
        return self.table.winners

    @property
    def events(self) -> list[dict]:
        return self.table.log.events

    def view(self, seat: int):
        from .views import View
        return View(self, seat)

    # -- driving the flow -----------------------------------------------------
    def _advance(self, value) -> None:
        flow = self._flow
        rng = self.table.rng
        explicit = self.explicit_chance
        while True:
            try:
                request = flow.send(value)
            except StopIteration:
                self._pending = None
                return
            if type(request) is Chance and not explicit:
                # a shuffle given no order shuffles with the same generator
                value = rng.randrange(request.size) if request.kind == "pick" else None
                continue
            self._pending = request
            return

    def _run(self):
        table = self.table
        try:
            if self._layout is None:
                yield from play_setup(table, self.game, self.rules)
            else:
                self._layout(table)
                table.announce()
            while True:
                if table.turn >= TURN_LIMIT:
                    table.finish(None, "turn_limit")
                table.start_turn(table.current)
                seat, plays = table.current, 0
                while not table.turn_ended:
                    plays += 1
                    if plays > PLAY_LIMIT:
                        table.finish(None, "play_limit")
                    self.budget = STEP_BUDGET
                    choice = yield self._action_decision(seat)
                    yield from self._act(seat, choice)
                    if self.game.checks:
                        yield from self._run_checks()
        except GameOver:
            return

    # -- your turn ------------------------------------------------------------
    def _action_decision(self, seat: int) -> Decision:
        options, values = [DRAW], [None]
        if self.game.blinders and self._blind(seat):
            if self.table.hands[seat].cards:
                options.append(PLAY_BLIND)
                values.append(BLIND)
            return Decision(seat, "action", options, values,
                            {"owed": self.table.owed[seat], "blind": True})
        by_title: dict = {}
        for inst in self.table.hands[seat].cards:
            found = by_title.get(inst.id)
            if found is None:
                by_title[inst.id] = [inst]
            else:
                found.append(inst)
        ctx, memo = Ctx(self, seat), {}
        legal = self._legal
        game = self.game
        on_turn, wild_plays = game.on_turn, game.wild_plays
        for card_id, insts in by_title.items():
            entry = on_turn.get(card_id)
            if entry is not None and legal(entry[0], ctx, insts[0], memo):
                options.append(entry[1])
                values.append((entry[0], insts[:1]))
            if wild_plays and card_id in wild_plays:
                for rule, label in wild_plays[card_id]:
                    if legal(rule, ctx, insts[0], memo):
                        options.append(label)
                        values.append((rule, insts[:1]))
        wilds = game.combo_wilds and any(card_id in game.combo_wilds for card_id in by_title)
        for rule, tag, size, prefix in game.same_title_combos:
            for card_id, insts in by_title.items():
                if len(insts) < size and not wilds:
                    continue
                card = insts[0].card
                if not card.in_combos or (tag is not None and tag not in card.tags):
                    continue
                group = insts[:size]
                if len(group) < size:  # wildcards fill the pair or triple
                    group = group + list(self._wild_group(by_title, card, card_id))[:size - len(group)]
                if len(group) >= size and legal(rule, ctx, group, memo):
                    options.append(prefix + card_id)
                    values.append((rule, group))
        for rule, tag, size, label in self.game.mixed_combos:
            if sum(1 for insts in by_title.values()
                   if insts[0].card.in_combos and (tag is None or tag in insts[0].card.tags)) \
                    >= size and legal(rule, ctx, [], memo):
                options.append(label)
                values.append((rule, None))  # the titles are picked one by one
        return Decision(seat, "action", options, values, {"owed": self.table.owed[seat]})

    def _wild_group(self, by_title: dict, card, card_id: str):
        """The wildcards in hand that may join a same-title combo of ``card``."""
        for wild_id, wild in self.game.combo_wilds.items():
            if wild_id != card_id and wild_id in by_title and wild.may_stand_for(card):
                yield from by_title[wild_id]

    def _legal(self, rule: Rule, ctx: Ctx, this, memo: dict | None = None) -> bool:
        """Whether ``rule`` may be played now: its `requires` holds and it has someone to pick.

        Tests that do not look at ``this`` give the same answer for every card of
        one decision, so they are worked out once (``memo``, keyed by the shared
        compiled code).
        """
        if rule.requires is not None:
            if rule.requires_this or memo is None:
                ctx.this = this
                if not rule.requires.fn(ctx):
                    return False
            else:
                key = id(rule.requires)
                ok = memo.get(key)
                if ok is None:
                    ok = memo[key] = bool(rule.requires.fn(ctx))
                if not ok:
                    return False
        for code in rule.feasible:
            key = id(code)
            ok = None if memo is None else memo.get(key)
            if ok is None:
                ctx.this = this
                ok = _count(code.fn(ctx)) > 0
                if memo is not None and not rule.requires_this:
                    memo[key] = ok
            if not ok:
                return False
        return True

    def _act(self, seat: int, choice):
        if choice is None:
            code = self.game.turn_draw
            if code.gen:
                yield from code.fn(Ctx(self, seat))
            else:
                code.fn(Ctx(self, seat))
            return
        if choice is BLIND:
            yield from self._play_blind(seat)
            return
        rule, cards = choice
        if cards is None:
            cards = yield from self._pick_combo_cards(seat, rule)
        yield from self._play(seat, rule, cards)

    def _pick_combo_cards(self, seat: int, rule: Rule):
        combo, hand = rule.record, self.table.hands[seat].cards
        picked: list = []
        while len(picked) < combo.size:
            taken = {c.id for c in picked}
            options, values = [], []
            for inst in hand:
                if inst.id not in taken and inst.id not in options and combo.may_include(inst.card):
                    options.append(inst.id)
                    values.append(inst)
            picked.append((yield Decision(seat, "combo_card", options, values,
                                          {"combo": combo.id, "picked": [c.id for c in picked]})))
        return picked

    def _play(self, seat: int, rule: Rule, cards: list):
        table = self.table
        table.move(cards, table.discard_pile)  # a card with a home goes there instead
        for inst in cards:
            inst.played_by = seat
        what = "combo" if isinstance(rule.record, Combo) else "card"
        if table.log.record:
            table.log.emit("play", seat=seat, **{what: rule.id}, cards=[c.id for c in cards])
        play = Play(seat, rule, cards)
        ctx = Ctx(self, seat, cards[0] if what == "card" else cards)
        ctx.source = rule.id
        for name, code in rule.choose:
            value = (yield from code.fn(ctx)) if code.gen else code.fn(ctx)
            ctx.vars[name] = value
            if table.log.record:
                table.log.emit("chose", seat=seat, name=name, value=_public(value))
        if any(value is None for value in ctx.vars.values()):
            table.log.emit("fizzled", seat=seat, reason="nothing to choose")
            return
        if rule.record.nopeable:
            yield from self._window(play, ctx)
        if play.cancelled:
            table.log.emit("cancelled", seat=seat, **{what: rule.id})
        elif rule.effect is not None:
            if rule.effect.gen:
                yield from rule.effect.fn(ctx)
            else:
                rule.effect.fn(ctx)

    # -- services for primitives ----------------------------------------------
    def draw(self, seat: int, from_bottom: bool):
        table = self.table
        if self.game.draw_hooks and (yield from self._draw_hooked(seat, from_bottom)):
            return
        pile = table.draw_pile.cards
        if not pile:
            table.log.emit("empty_pile", seat=seat)
            return
        inst = pile[-1] if from_bottom else pile[0]
        hand = table.hands[seat]
        table.move([inst], hand, len(hand.cards))
        rule = self.game.cards[inst.id]
        code = rule.on_draw
        if code is None:
            return
        if self._draw_nesting >= MAX_DRAW_NESTING:
            raise RuleRuntimeError(
                f"'{inst.id}' ({rule.record.origin}): drawn cards made their drawer draw again "
                f"{MAX_DRAW_NESTING} times within one draw; an `on_draw` that draws must stop "
                "somewhere (draw only on a condition, or let the turn end)")
        ctx = Ctx(self, seat, inst)
        ctx.source = inst.id
        self._draw_nesting += 1
        try:
            if code.gen:
                yield from code.fn(ctx)
            else:
                code.fn(ctx)
        except RecursionError:  # draws inside loops inside draws: Python's stack ran out first
            raise RuleRuntimeError(
                f"'{inst.id}' ({rule.record.origin}): drawn cards made their drawer draw again "
                f"{self._draw_nesting} times within one draw, each inside the effect before, deeper "
                "than the engine can follow; an `on_draw` that draws must stop sooner") from None
        finally:
            self._draw_nesting -= 1

    def about(self, ctx: Ctx) -> dict:
        """What a decision inside an effect is about, for the player asked."""
        return {"source": ctx.source, "actor": ctx.me}


def _count(value) -> int:
    if isinstance(value, list):
        return len(value)
    return len(value.cards) if hasattr(value, "cards") else int(value is not None)


def _public(value):
    """A chosen value as everyone may see it: seats and titles; cards only as a count."""
    if isinstance(value, PrivateInt):
        return {"secret": True}
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, list):
        return {"count": len(value)}
    return {"count": 1}
