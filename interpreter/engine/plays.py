"""Playing a card or a combo: the cards go down, choices are made and announced,
other seats may answer, and the effect runs unless an answer cancelled it."""

from __future__ import annotations

from ..lang.errors import RuleRuntimeError
from ..lang.machine import Ctx, Frame, context, decision, run
from .compiled import Play, Rule
from .reactions import WindowFrame, may_be_answered, public_choice, unchosen
from .slots import hand_counts, pickable

# phases of a play
_START, _CHOOSE, _CHOSEN, _ANSWERED, _DONE = range(5)


class PlayFrame(Frame):
    """``seat`` plays ``cards`` as ``rule`` (a card, or a combo of them)."""

    __slots__ = ("seat", "rule", "cards", "play", "ctx", "phase", "index")
    SHARED = frozenset({"rule"})

    def __init__(self, seat: int, rule: Rule, cards: list) -> None:
        self.seat, self.rule, self.cards = seat, rule, cards
        self.play = None
        self.ctx = None
        self.phase = _START
        self.index = 0  # the choice being made
        self.result = None

    def step(self, state, value):
        machine = state  # compiled, known as a lang.machine.Machine: its call and table read in C
        table, rule = machine.table, self.rule
        log = table.log
        while True:
            phase = self.phase
            if phase == _START:
                cards, what = self.cards, rule.kind
                table.move(cards, table.discard_pile)  # a card with a home goes there instead
                table.played(self.seat, cards)  # who played them, and the turn's history
                if rule.counted:  # restrictions that limit how often it is played
                    for limit in rule.counted:
                        table.acted(limit, self.seat)
                if what == "action":  # a free action has no cards: it is counted against its limits
                    table.acted(rule.record, self.seat)
                    log.emit("play", seat=self.seat, action=rule.id)
                elif log.record:
                    log.play(self.seat, what, rule.id, [c.id for c in cards])
                self.play = Play(self.seat, rule, cards)
                self.ctx = context(state, self.seat, cards[0] if what == "card" else cards, source=rule.id)
                self.phase = _CHOOSE
            elif phase == _CHOOSE:  # the choices, one by one
                if self.index == len(rule.choose):
                    if unchosen(self.ctx.vars):
                        log.emit("fizzled", seat=self.seat, reason="nothing to choose")
                        return None
                    self.phase = _ANSWERED
                    if rule.record.nopeable:
                        if may_be_answered(state, self.seat):
                            out = machine.call(WindowFrame(self.play, self.ctx))
                            if out is not None:
                                return out
                        elif log.record:  # nobody holds an answer: the window opens and closes
                            log.window(self.seat, rule.id)
                            log.window_closed(self.seat, rule.id, 0)
                    continue
                self.phase = _CHOSEN
                out, value = run(state, rule.choose[self.index][1], self.ctx)
                if out is not None:
                    return out
            elif phase == _CHOSEN:  # a choice's value, at once or once it came back
                self.phase = _CHOOSE
                self._chose(log, value)
            elif phase == _ANSWERED:
                self.phase = _DONE
                if self.play.cancelled:
                    log.play_cancelled(self.seat, rule.kind, rule.id)
                    return None
                if rule.effect is not None:
                    out, _value = run(state, rule.effect, self.ctx)
                    if out is not None:
                        return out
                return None
            else:
                return None

    def _chose(self, log, value) -> None:
        name = self.rule.choose[self.index][0]
        self.ctx.vars[name] = value
        self.index += 1
        if log.record:
            log.chose(self.seat, name, public_choice(value))


class ComboPickFrame(Frame):
    """The cards of a combo of different titles, picked one title at a time; then played.
    A combo picked place by place (`slots:`, `match: any`) is offered, for each place in
    turn, only the titles that leave every later place fillable (engine/slots.py)."""

    __slots__ = ("seat", "rule", "picked", "playing")
    SHARED = frozenset({"rule"})

    def __init__(self, seat: int, rule: Rule) -> None:
        self.seat, self.rule = seat, rule
        self.picked: list = []
        self.playing = False
        self.result = None

    def step(self, state, value):
        if self.playing:
            return None
        if value is not None:
            self.picked.append(value)
        combo, hand = self.rule.record, state.table.hands[self.seat].cards
        if len(self.picked) < combo.size:
            if combo.by_slots:
                return self._next_place(state, combo, hand)
            allowed = state.game.pickable[combo.id]  # the titles that may count in it
            seen = {c.id for c in self.picked}  # titles picked, then titles offered: each once
            options, values = [], []
            for inst in hand:
                card_id = inst.id
                if card_id in allowed and card_id not in seen:
                    seen.add(card_id)
                    options.append(card_id)
                    values.append(inst)
            return decision(self.seat, "combo_card", options, values,
                            {"combo": combo.id, "picked": [c.id for c in self.picked]})
        self.playing = True
        return state.call(PlayFrame(self.seat, self.rule, self.picked))

    def _next_place(self, state, combo, hand):
        """The decision for the next place: a card of each title that may fill it and leaves
        the later places fillable, in the hand's order (another copy of a title already
        picked, when titles may repeat)."""
        places, distinct = state.game.slot_places[combo.id]
        used = {id(inst) for inst in self.picked}
        counts = hand_counts(hand, distinct, used)
        if distinct:
            for inst in self.picked:
                counts.pop(inst.id, None)
        allowed = pickable(places, len(self.picked), counts, distinct)
        options, values = [], []
        for inst in hand:
            card_id = inst.id
            if card_id in allowed and id(inst) not in used:
                allowed.discard(card_id)
                options.append(card_id)
                values.append(inst)
        return decision(self.seat, "combo_card", options, values,
                        {"combo": combo.id, "picked": [c.id for c in self.picked]})


#: how deep `play_as` may nest (a title played as itself, say)
MAX_PLAY_AS_NESTING = 20


class PlayAsFrame(Frame):
    """A title's choices and effect carried out by ``ctx.me`` inside another effect
    (`play_as`): no cards go down, nobody may answer, nesting is bounded."""

    __slots__ = ("rule", "ctx", "index", "phase")
    SHARED = frozenset({"rule"})

    def __init__(self, rule: Rule, ctx: Ctx) -> None:
        self.rule, self.ctx = rule, ctx
        self.index = 0
        self.phase = _START
        self.result = None

    def step(self, state, value):
        rule, ctx = self.rule, self.ctx
        if self.phase == _START:
            state.playing_as += 1
            if state.playing_as > MAX_PLAY_AS_NESTING:
                raise RuleRuntimeError(
                    f"{state.where(ctx) or rule.id}: play_as() nested more than {MAX_PLAY_AS_NESTING} "
                    f"deep ('{rule.id}' played as a title that plays as it again): stop the chain")
            state.table.log.emit("played_as", seat=ctx.me, card=rule.id)
            self.phase = _CHOOSE
        elif self.phase == _CHOSEN:  # a choice that had to wait came back
            ctx.vars[rule.choose[self.index - 1][0]] = value
            self.phase = _CHOOSE
        elif self.phase == _ANSWERED:  # the effect that had to wait is done
            return self._done(state)
        while self.index < len(rule.choose):
            name, code = rule.choose[self.index]
            self.index += 1
            out, chosen = run(state, code, ctx)
            if out is not None:
                self.phase = _CHOSEN
                return out
            ctx.vars[name] = chosen
        if any(chosen is None for chosen in ctx.vars.values()):
            state.table.log.emit("fizzled", seat=ctx.me, reason="nothing to choose")
            return self._done(state)
        self.phase = _ANSWERED
        if rule.effect is not None:
            out, _value = run(state, rule.effect, ctx)
            if out is not None:
                return out
        return self._done(state)

    def _done(self, state):
        state.playing_as -= 1
        return None
