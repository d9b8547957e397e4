"""The flow of a game: the deal, then turn after turn, each a series of actions.

:class:`GameFrame` sits at the bottom of the game's stack. On each turn it asks
the player to act (:func:`action_decision` lists every legal option) until the
turn ends, carrying out each action (a draw, a card, a combo, a blind play)
and then the edition's state checks.
"""

from __future__ import annotations

from operator import itemgetter

from ..lang.machine import Decision, Frame, context, decision, run
from . import moments
from .compiled import legal
from .plays import ComboPickFrame, PlayFrame
from .setup import SetupFrame
from .slots import fillable, hand_counts
from .triggers import BLIND, PLAY_BLIND, BlindPlayFrame, ChecksFrame, blind

#: when a game has lasted this many turns, or one turn this many plays, it is
#: stopped without a winner: a house rule whose pile can run dry, or whose cards
#: come back to the hand that played them, would otherwise go on for ever
TURN_LIMIT = 5000
PLAY_LIMIT = 1000

DRAW = "draw"

# phases of the game
_DEAL, _TURN, _ASK, _ACT, _ACTED, _BEGUN, _CHECKED = range(7)


class GameFrame(Frame):
    """The whole game. ``layout`` (a function of the table) replaces the deal: a scenario
    sets the table up by hand."""

    __slots__ = ("phase", "seat", "plays", "layout")
    SHARED = frozenset({"layout"})

    def __init__(self, layout=None) -> None:
        self.phase = _DEAL
        self.seat = self.plays = 0
        self.layout = layout
        self.result = None

    def step(self, state, value):
        machine = state  # compiled, known as a lang.machine.Machine: its call and table read in C
        table = machine.table
        while True:
            phase = self.phase
            if phase == _ASK:  # the action decision comes first: it is asked most
                if table.turn_ended:
                    self.phase = _TURN
                    if machine.phased:  # the turn's end, for its player (out of the game or not)
                        out = moments.begin(state, "turn_end", self.seat)
                        if out is not None:
                            return out
                    continue
                self.plays += 1
                if self.plays > PLAY_LIMIT:
                    table.finish(None, "play_limit")
                state.budget = state.step_budget  # every action may take as many steps
                self.phase = _ACT
                return action_decision(state, self.seat)
            if phase == _ACT:
                self.phase = _ACTED
                out = act(state, self.seat, value)
                if out is not None:
                    return out
            elif phase == _ACTED:
                if machine.phased:  # the action's moments first, then the checks
                    self.phase = _CHECKED
                    out = moments.drain(state)
                    if out is not None:
                        return out
                    continue
                self.phase = _ASK
                if machine.game.checks:
                    out = machine.call(ChecksFrame(state))
                    if out is not None:
                        return out
            elif phase == _CHECKED:
                self.phase = _ASK
                if machine.game.checks:
                    out = machine.call(ChecksFrame(state))
                    if out is not None:
                        return out
                out = moments.settle(state)  # what the checks set off, and the end condition
                if out is not None:
                    return out
            elif phase == _TURN:
                if table.turn >= TURN_LIMIT:
                    table.finish(None, "turn_limit")
                active = machine.phased
                if active:  # a turn's end (and its triggers) may have met the end condition
                    moments.check_end(state)
                table.start_turn(table.current)
                self.seat, self.plays, self.phase = table.current, 0, _ASK
                if active:
                    out = moments.begin(state, "turn_start", self.seat)
                    if out is not None:
                        return out
            elif phase == _BEGUN:  # after the deal: cards are watched, the game's start runs
                self.phase = _TURN
                if machine.phased:
                    table.watch = machine.game.phases.watch
                    out = moments.begin(state, "game_start", table.current)
                    if out is not None:
                        return out
            else:  # _DEAL
                self.phase = _BEGUN
                if self.layout is None:
                    out = machine.call(SetupFrame())
                    if out is not None:
                        return out
                else:
                    self.layout(table)
                    table.announce()


def act(state, seat: int, choice):
    """Carry out the action ``choice`` (an action decision's value): None once it is done,
    else what the game must wait for (the frames carrying it on left on the stack)."""
    if choice is None:  # the turn's draw
        return run(state, state.game.turn_draw, context(state, seat))[0]
    if choice is BLIND:
        return state.call(BlindPlayFrame(seat))
    rule, cards = choice
    return state.call(ComboPickFrame(seat, rule) if cards is None else PlayFrame(seat, rule, cards))


def action_decision(state, seat: int) -> Decision:
    """What ``seat`` may do now, on its turn: draw, play a card (or a wildcard as another
    title), or play a combo; in that order, titles in the order the hand holds them.
    What each title may offer is worked out once per edition (``Game.offers``); only
    the rules' tests run here."""
    table = state.table
    blinders, offers, combo_wilds, same_title_combos, fillers, mixed, actions, slotted = state.game.deciding
    options, values = [DRAW], [None]
    if blinders and blind(state, seat):
        if table.hands[seat].cards:
            options.append(PLAY_BLIND)
            values.append(BLIND)
        return decision(seat, "action", options, values, {"owed": table.owed[seat], "blind": True})
    by_title: dict = {}
    for inst in table.hands[seat].cards:
        found = by_title.get(inst.id)
        if found is None:
            by_title[inst.id] = [inst]
        else:
            found.append(inst)
    ctx, memo = None, {}  # the context of the rules' tests, made when one is needed
    pairs = []  # (combo index, title, cards) of the same-title combos the hand can make
    wilds = combo_wilds and not combo_wilds.keys().isdisjoint(by_title)
    for card_id, insts in by_title.items():
        plays, combos, smallest = offers[card_id]
        for rule, free, label in plays:  # the card itself, or a wildcard played as another title
            if not free:
                if ctx is None:
                    ctx = context(state, seat)
                if not legal(rule, ctx, insts[0], memo):
                    continue
            options.append(label)
            values.append((rule, insts[:1]))
        if len(insts) >= smallest or wilds:  # most titles are held once: no combo to look at
            for index, size in combos:
                if len(insts) >= size or wilds:
                    pairs.append((index, card_id, insts))
    if pairs:
        if len(pairs) > 1:  # combos in the edition's order, titles in the hand's (a stable sort)
            pairs.sort(key=_BY_COMBO)
        verdicts: dict = {}  # id(rule) -> legal, for combos whose tests do not look at the cards
        for index, card_id, insts in pairs:
            rule, _tag, size, prefix = same_title_combos[index]
            group = insts[:size]
            short = size - len(group)
            if short > 0:  # wildcards fill the pair or triple, in the order Game.fillers gives
                for wild_id in fillers[card_id]:
                    wild = by_title.get(wild_id)
                    if wild is not None:
                        group += wild[:short]
                        short = size - len(group)
                        if short <= 0:
                            break
                if short > 0:
                    continue
            if not rule.free:
                ok = verdicts.get(id(rule))
                if ok is None:
                    if ctx is None:
                        ctx = context(state, seat)
                    ok = legal(rule, ctx, group, memo)
                    if not rule.requires_this:  # the same answer for every title: asked once
                        verdicts[id(rule)] = ok
                if not ok:
                    continue
            options.append(prefix + card_id)
            values.append((rule, group))
    for titles, (rule, _tag, size, label) in mixed:  # how many of its titles the hand holds
        if len(by_title) >= size and len(titles.intersection(by_title)) >= size and \
                (rule.free or legal(rule, ctx or context(state, seat), [], memo)):
            options.append(label)
            values.append((rule, None))  # the titles are picked one by one
    if slotted:  # combos picked place by place: offered when the hand can fill every place
        hand = table.hands[seat].cards
        for rule, places, distinct, label in slotted:
            if fillable(places, hand_counts(hand, distinct)) and \
                    (rule.free or legal(rule, ctx or context(state, seat), [], memo)):
                options.append(label)
                values.append((rule, None))  # the cards are picked one place at a time
    for rule, label in actions:  # free actions last: within their limits, if they may be taken
        if table.may_act(rule.record, seat) and (rule.free or legal(rule, ctx or context(state, seat), [], memo)):
            options.append(label)
            values.append((rule, []))
    return decision(seat, "action", options, values, {"owed": table.owed[seat]})


#: a same-title combo's index in the edition, as a sort key (a C function: no Python call per pair)
_BY_COMBO = itemgetter(0)
