"""Phase triggers and scores: what an edition runs at moments of the game, and who wins on points.

When each moment comes (docs/format.md, "Triggers", says the same for designers):

* ``game_start``: once, after the deal, before the first turn; ``me`` is the first player;
* ``round_start``: just before the ``turn_start`` of a turn that begins a round (a round
  is over once every player still in has begun a turn in it, and the next begins as
  play passes to another player); ``me`` is that turn's player;
* ``turn_start`` / ``turn_end``: at the start and the end of every turn, each of
  several owed turns counting as one turn of its own; ``me`` is the player whose
  turn it is (``turn_end`` runs for every turn begun, also when its player went out
  during it: ``me`` is then a player who is out);
* ``player_out`` / ``player_back``: a player went out or came back (``me``);
* ``pile_empty``: a card left the draw pile and none is left (``me``: whose turn it is);
* ``card_enters`` / ``card_leaves``: a card entered or left the zone the trigger
  watches (``this``; ``me`` is the zone's owner, or for a shared zone whose turn it was as the card moved);
* ``card_spent``: an effect spent a card (`spend`, as a kitten spends its Defuse), whether
  or not an answer then cancelled the spending (``this``; ``me``: who spent it);
* ``game_end``: once the game is decided, before the winners are named; nobody is
  asked anything there (the loader refuses choices and chance).

The moments an action sets off (a player out, cards moving) are queued by the
table and run once the action is over, in the order they came, before the state
checks; what those triggers set off runs next, in the same pass. Several triggers
of one moment run in the order the rule files list them (base first). All of it
counts against the action's step budget, and one pass may run at most
:data:`MAX_TRIGGER_RUNS` triggers: a trigger that keeps setting itself off stops the
game with an error naming it.
"""

from __future__ import annotations

from ..lang.compiler import compile_expression, compile_program
from ..lang.errors import RuleRuntimeError
from ..lang.limits import NUMBER_LIMIT, fail, label, shown, within_limit
from ..lang.machine import Ctx, Frame, run

#: the most triggers one pass (an action, a turn's start or end) may run
MAX_TRIGGER_RUNS = 1000
#: moments whose trigger runs only for a player still in the game (a turn's end runs for
#: the player whose turn it was even when they went out during it: that turn did happen)
_ALIVE_ONLY = ("turn_start", "round_start", "player_back")


class Phases:
    """An edition's triggers and scoring, compiled once per game (part of ``Game``)."""

    def __init__(self, edition, zones: frozenset) -> None:
        self.by_moment: dict = {}  # moment -> its triggers, once it has happened
        self.before: dict = {}  # moment -> its `at: before` triggers (answering.py)
        for trigger in edition.triggers:
            entry = (trigger, compile_expression(trigger.condition, zones, label(trigger)),
                     compile_program(trigger.effect, zones, label(trigger)))
            (self.before if trigger.at == "before" else self.by_moment).setdefault(trigger.on, []).append(entry)
        # the moments cards answer once they have happened, as (moment, zone, "after"), and
        # the moments met before they happen (by triggers or by answers)
        answered = {key for card in edition.cards.values() if card.when in ("reaction", "any_time")
                    for key in card.answers if key[0] != "play"}
        self.answered_after = frozenset(key for key in answered if key[2] == "after")
        self.before_moments = frozenset(self.before) | {key[0] for key in answered if key[2] == "before"}
        after = {trigger.on for trigger in edition.triggers if trigger.at != "before"} | \
            {key[0] for key in self.answered_after}
        # what the table must watch while cards move: (moment, zone) pairs and the pile
        self.watch = frozenset((t.on, t.zone) for t in edition.triggers if t.zone is not None and t.at != "before") | \
            frozenset((on, zone) for on, zone, _at in self.answered_after if zone is not None) | \
            frozenset((m, None) for m in ("pile_empty", "card_drawn", "card_spent") if m in after)
        self.outs = frozenset(m for m in ("player_out", "player_back") if m in after)
        scoring = edition.scoring
        where = f"the win condition ({scoring.origin})" if scoring is not None else None
        self.score = compile_expression(scoring.score, zones, where) if scoring else None
        self.tie_break = compile_expression(scoring.tie_break, zones, where) if scoring else None
        self.ends_when = compile_expression(scoring.ends_when, zones, where) if scoring else None
        self.scoring = scoring is not None
        self.where = where  # the win condition, for an error in its scores
        self.labels = {trigger.id: label(trigger) for trigger in edition.triggers}
        #: whether anything runs as a round begins (triggers, or cards answering it)
        self.rounds = "round_start" in self.by_moment or ("round_start", None, "after") in self.answered_after
        #: whether the flow has anything to do between actions beyond the state checks
        self.active = bool(self.by_moment) or bool(self.answered_after) or self.ends_when is not None

    def runs(self, moment: str, seat=None, card=None, zone=None) -> list:
        """(trigger entry, seat, card) for each trigger of one moment (and zone), then
        (None, the moment's key, None), seat, card for its answer window, if cards answer it."""
        found = [(entry, seat, card) for entry in self.by_moment.get(moment, ())
                 if zone is None or entry[0].zone == zone]
        if self.answered_after:
            key = (moment, zone, "after")
            if key in self.answered_after:
                found.append(((None, key, None), seat, card))
        return found

    def at_end(self) -> bool:
        """Whether the game's end needs the state (game_end triggers, or scores)."""
        return self.scoring or "game_end" in self.by_moment


class TriggersFrame(Frame):
    """Run some triggers, then whatever the table queued meanwhile, until nothing is left."""

    __slots__ = ("runs", "index", "count")

    def __init__(self, runs: list) -> None:
        self.runs, self.index, self.count = runs, 0, 0
        self.result = None

    def step(self, state, value):
        table, phases = state.table, state.game.phases
        while True:
            if self.index >= len(self.runs):
                if not table.moments:
                    return None
                queued, table.moments = table.moments, []
                self.runs = [run_ for moment in queued for run_ in phases.runs(*moment)]
                self.index = 0
                continue
            (trigger, condition, effect), seat, card = self.runs[self.index]
            self.index += 1
            self.count += 1
            if trigger is None:  # the cards that answer the moment, once its triggers ran
                out = _answer_window(state, condition, seat, card)
                if out is not None:
                    return out
                continue
            if self.count > MAX_TRIGGER_RUNS:
                raise RuleRuntimeError(
                    f"{label(trigger)}: triggers set each other off more than {MAX_TRIGGER_RUNS:,} "
                    "times after one action; make the trigger's `if` false once it has acted, or "
                    "let it watch another zone")
            seat = table.current if seat is None else seat
            if trigger.on in _ALIVE_ONLY and not table.alive[seat]:
                continue
            ctx = Ctx(state, seat, card, source=trigger.id)
            if condition is None or condition.fn(ctx):
                table.log.emit("trigger", seat=seat, id=trigger.id)
                out, _value = run(state, effect, ctx)
                if out is not None:
                    return out


def _answer_window(state, key: tuple, seat, card):
    """The answer window of a moment that has happened (answering.py)."""
    from .answering import after  # (answering builds on reactions, which the flow loads later)
    seat = state.table.current if seat is None else seat
    return state.call(after(state, key[0], seat, [card] if card is not None else [], key[1]))


def begin(state, moment: str, seat: int):
    """Run the triggers of a turn's (or the game's) start or end for ``seat`` as one action
    of its own (a fresh step budget): None when done, else what the game waits for."""
    phases = state.game.phases
    runs = phases.runs(moment, seat)
    if phases.rounds and moment == "turn_start" and state.table.round_turn == state.table.turn:  # a round first
        runs = phases.runs("round_start", seat) + runs
    if not runs and not state.table.moments:
        return None
    state.budget = state.step_budget
    return state.call(TriggersFrame(runs))


def drain(state):
    """The triggers of the moments the table queued: None when done, else what the game
    waits for."""
    return state.call(TriggersFrame([])) if state.table.moments else None


def settle(state):
    """After an action and its state checks: what they set off, then the end condition
    (the game ends here when it holds)."""
    out = drain(state)
    if out is None:
        check_end(state)
    return out


def check_end(state) -> None:
    """End the game when the edition's `ends_when` holds."""
    ends_when = state.game.phases.ends_when
    if ends_when is not None and ends_when.fn(Ctx(state, state.table.current)):
        state.table.finish(None, "ended")


def game_end(state, winner, reason: str, winners):
    """The table's hook at the end: run the game_end triggers, then name the winners on
    points (a win by `win()` stands). Gives (winner, winners)."""
    table, phases = state.table, state.game.phases
    for trigger, condition, effect in phases.by_moment.get("game_end", ()):
        ctx = Ctx(state, table.current, source=trigger.id)
        if condition is None or condition.fn(ctx):
            table.log.emit("trigger", seat=table.current, id=trigger.id)
            effect.fn(ctx)  # the loader lets nothing wait here
    if not phases.scoring:
        return winner, winners
    points = scores(state)
    table.log.emit("scores", scores=points)
    if reason == "won":
        return winner, winners
    best = best_seats(state, points)
    return (best[0] if best else None), tuple(best)


def scores(state) -> list:
    """Each seat's score now (0 for every seat in a game not won on points)."""
    score = state.game.phases.score
    if score is None:
        return [0] * state.table.players
    return [int(score.fn(Ctx(state, seat))) for seat in range(state.table.players)]


def best_seats(state, points: list) -> list:
    """The winners on points: the players still in (a team with one still in, scoring the
    sum of its members' points) with the highest score, then the highest tie-break;
    still tied, they share the win."""
    table = state.table
    tie = state.game.phases.tie_break
    breaks = [int(tie.fn(Ctx(state, seat))) if tie is not None else 0 for seat in range(table.players)]
    if table.teams:
        groups = {}
        for seat in range(table.players):
            groups.setdefault(table.team_of(seat), []).append(seat)
        contenders = [seats for seats in groups.values() if any(table.alive[s] for s in seats)]
        where = state.game.phases.where
        ranked = [((_team_total(points, seats, where, "score"), _team_total(breaks, seats, where, "tie-break")),
                   seats) for seats in contenders]
    else:
        ranked = [((points[seat], breaks[seat]), [seat]) for seat in range(table.players) if table.alive[seat]]
    if not ranked:
        return []
    top = max(key for key, _seats in ranked)
    return sorted(seat for key, seats in ranked if key == top for seat in seats)


def _team_total(values: list, seats: list, where: str | None, what: str) -> int:
    """A team's score (or tie-break): its members' added up, which must stay within the
    number limit as every number in play does (lang/limits.py)."""
    total = sum(values[seat] for seat in seats)
    if not within_limit(total):
        fail(where, f"the team of seats {', '.join(map(str, seats))} adds up to a {what} of {shown(total)}, "
                    f"beyond the largest number the game may use ({NUMBER_LIMIT:,} either way); keep "
                    "each player's points smaller (a counter's `max`, say)")
    return total
