"""One table: a game driven by people and bots, with reaction windows on a clock.

A :class:`Room` is plain synchronous code: it is told what people do
(:meth:`Room.act`), runs the engine and the bots, stores every decision, and
sends each listener (a connection, for one seat or a spectator) what it may
see. Time comes from a :class:`Clock`, so the server gives it asyncio's and a
test its own.

Reaction windows leak nothing (ruling 6). The engine asks only the seats that
hold an answer, one after another, and when nobody holds one it opens and
closes the window at once. The room instead holds every window open as a
*round* for every person still in the game (but the one whose play is being
answered, unless the rules let players answer their own): the same question,
the same Pass button and the same time for all, with the answers a seat holds
as extra buttons on that seat's screen only. The round ends when its time is
up, when every person has answered, or at once when someone plays an answer
(the first click wins). Bots answer on the same clock: at the round's end. A
window the engine already closed is still held for its full round, and
nothing that happened after it is shown until the round ends: meanwhile each
seat sees the table as it stood when the window opened (``render.frozen_at``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..interpreter.engine.events import as_dict
from ..interpreter.engine.game import Game, GameError, RuleRuntimeError
from ..interpreter.engine.logwriter import dumps, dumps_lines
from ..interpreter.engine.players import make_bots
from ..interpreter.engine.reactions import PASS
from ..interpreter.engine.simulate import game_header
from ..interpreter.engine.views import decision_for, view_for
from . import seating
from .render import SPECTATOR, arrivals, card_list, decision_prompt, frozen_at, log_entries, round_prompt, table_view
from .social import Social
from .summary import summary
from .words import Words

#: event types that open a round of a reaction window (a play's window, or an answer in it)
ROUND_OPENERS = ("window", "answer")


class ActError(Exception):
    """An action a room refuses: nothing changes; ``code`` says why, for the page."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


class Clock:
    """The room's time: ``now()`` in seconds and ``later(delay, fn)`` (with ``cancel()``)."""

    def now(self) -> float:  # pragma: no cover - an interface
        raise NotImplementedError

    def later(self, delay: float, fn):  # pragma: no cover - an interface
        raise NotImplementedError


@dataclass
class Round:
    """One round of answers in a reaction window, opened by the event at ``at``."""

    at: int
    event: dict
    real: bool  # the engine waits in this window (else it closed it already: nobody held an answer)
    eligible: list  # the people asked
    options: dict  # seat -> its options (Pass, and the answers it holds)
    deadline: float
    frozen: object = None  # the table as it stood when the window opened, when the engine went on
    chosen: dict = field(default_factory=dict)  # seat -> the option it clicked
    first: tuple | None = None  # (seat, option) of the first answer played
    timer: object = None

    @property
    def id(self) -> str:
        return f"r{self.at}"


class Listener:
    """A connection to a room, for one seat (or ``SPECTATOR``): ``send(message)`` gets
    every message for it."""

    def __init__(self, seat, send) -> None:
        self.seat = seat
        self.send = send
        self.cursor = 0  # the events already told in its log
        self.last = None  # what it was last sent (to send only what changed)


class Room:
    """A table: its game, seats, bots, rounds and listeners."""

    def __init__(self, room_id: str, config: dict, game, seed: int, tokens: dict, *,
                 storage=None, clock: Clock, bots: dict, answer_seconds: float,
                 bot_delay: float) -> None:
        self.id = room_id
        self.config = config
        self.game = game
        self.seed = seed
        self.tokens = tokens  # seat -> digest of its token
        self.storage = storage
        self.clock = clock
        self.bots = bots  # seat -> bot
        self.labels = ["person" if seat not in bots else bots[seat].name for seat in range(game.players)]
        self.words = Words(game.edition, self.labels)
        self.cards = card_list(game.edition)
        self.answer_seconds = answer_seconds
        self.bot_delay = bot_delay
        self.own = bool(game.rules.get("may_nope_own_action", False))
        self.state = game.new_state(seed)
        self.last = None  # (state before the last action, that action): see frozen_at
        self.released = 0  # events shown so far
        self.round: Round | None = None
        self.listeners: list[Listener] = []
        self.error: str | None = None  # why the game stopped, if the rules broke down
        self._new: list = []  # actions not yet stored
        self._saved = (0, None, False)
        self._bot_timer = None
        self.active = clock.now()  # when a decision was last made (the room's clock)
        self.ended: float | None = None  # when the game was first seen over (or stopped)
        self.closed: str | None = None  # why the room closed, once the server retired it
        self.social = None  # names, presence, chat, the next game (web/social.py), when kept
        # the waiting room, stand-in bots and the turn clock (web/seating.py)
        self.waiting = bool(config.get("wait")) and "person" in config["seats"] and not self.state.is_terminal()
        self.ready_seats: set = set()  # the seats that said ready in the waiting room
        self.standins: dict = {}  # seat -> the bot playing it for its person
        self.turn_seconds = float(config.get("turn_seconds") or 0)
        self.turn_clock = None  # ((decision, seat), deadline, timer) of the decision timed now
        seating.restore_standins(self)

    # -- setting up -------------------------------------------------------------
    def restore(self, actions: list, released: int, round_at: int | None) -> None:
        """Play ``actions`` again (the stored decisions) and come back where the room was."""
        for index, option in enumerate(actions):
            if index == len(actions) - 1:
                self.last = (self.state.clone(), option)
            self.state.apply_action(option)
        self._saved = (released, round_at, self.state.is_terminal())
        self.released = min(released, len(self.state.events))
        if round_at is not None and round_at < len(self.state.events):
            self.released = round_at + 1
            self._open_round(round_at)
        self.step()

    def step(self) -> None:
        """Run the game until it waits for a person or the clock, store what changed, and
        tell the listeners."""
        if self.closed is not None:  # a timer that outlived the room
            return
        if not self.waiting:
            self._pump()
        elif not any(e["type"] in ROUND_OPENERS for e in self.state.events[self.released:]):
            self.released = len(self.state.events)  # the deal is shown while the table waits
        self._time_the_decision()
        if self.ended is None and (self.finished or self.error is not None):
            self.ended = self.clock.now()  # a game stopped by a rule breaking down is over too
        self.last = None  # windows opened by the last action have their frozen tables by now
        self._save()
        self.publish()

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def close(self, reason: str) -> None:
        """The server retired this room: its timers stop, nothing more is stored, and each
        listener is told why (an ``error`` with code ``closed``) and let go."""
        self.closed = reason
        for timer in (self._bot_timer, self.round.timer if self.round is not None else None):
            if timer is not None:
                timer.cancel()
        self._bot_timer = None
        seating.disarm(self)
        listeners, self.listeners = self.listeners, []
        for listener in listeners:
            listener.send(closed_message(reason))

    # -- people -----------------------------------------------------------------
    def attach(self, listener: Listener) -> None:
        if self.closed is not None:
            raise ActError(f"This table has closed: {self.closed}.", "closed")
        self.listeners.append(listener)
        listener.send(self.welcome(listener.seat))
        self._publish_to(listener)
        if self.social is not None:
            self.social.changed_presence()

    def detach(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)
            if self.social is not None:
                self.social.changed_presence()

    def names(self) -> list[str]:
        """What the table calls each seat (a chosen name, else its number)."""
        return [self.words.seat_name(s) for s in range(self.game.players)]

    def welcome(self, seat) -> dict:
        edition = self.game.edition
        message = {"type": "welcome", "room": self.id, "seat": seat, "edition": edition.name,
                   "variant": edition.variant, "players": self.game.players, "names": self.names(),
                   "bots": [self.labels[s] != "person" for s in range(self.game.players)],
                   "cards": self.cards, "answer_seconds": self.answer_seconds}
        if self.social is not None:
            message.update(self.social.welcome())
        return message

    def act(self, seat, prompt_id, choice) -> None:
        """A person at ``seat`` picks option ``choice`` of the prompt ``prompt_id``;
        :class:`ActError` (and nothing changes) when that is not theirs to do now."""
        if self.closed is not None:
            raise ActError(f"This table has closed: {self.closed}.", "closed")
        if seat is SPECTATOR:
            raise ActError("spectators watch: open a seat's link to play", "spectator")
        if self.error is not None:
            raise ActError(f"this game has stopped: {self.error}", "stopped")
        if self.finished:
            raise ActError("the game is over", "finished")
        if self.waiting:
            raise ActError("the game starts once everyone is ready", "waiting")
        if self.round is not None:
            self._answer(seat, prompt_id, choice)
            return
        pending = self.state.decision()
        if pending is None or pending.seat != seat or seat in self.bots or self.released < len(self.state.events):
            raise ActError("it is not your turn to choose", "not-your-turn")
        if prompt_id != self._decision_id():
            raise ActError("that choice was for an earlier question", "stale")
        option = _pick(pending.options, choice)
        try:
            self._apply(option)
        except RuleRuntimeError as exc:
            raise ActError(f"the rules broke down on that choice, so it was not made: {exc}",
                           "rules") from None
        self.step()

    def _answer(self, seat, prompt_id, choice) -> None:
        round_ = self.round
        if seat not in round_.eligible:
            raise ActError("this window is not yours to answer", "not-your-turn")
        if prompt_id != round_.id:
            raise ActError("that answer was for an earlier window", "stale")
        if seat in round_.chosen:
            raise ActError("you have answered in this round already", "answered")
        option = _pick(round_.options[seat], choice)
        round_.chosen[seat] = option
        if option != PASS and round_.first is None:
            round_.first = (seat, option)
        if round_.first is not None or len(round_.chosen) == len(round_.eligible):
            self._close_round()
        else:
            self.publish()

    def ready(self, seat) -> None:
        """The person at ``seat`` is ready to play (the waiting room: seating.py)."""
        self._seating(seating.ready, seat)

    def start(self, seat) -> None:
        """The host starts the table now, bots standing in for those not ready."""
        self._seating(seating.start, seat)

    def take_over(self, seat) -> None:
        """The person at ``seat`` plays it again, instead of the bot standing in."""
        self._seating(seating.take_over, seat)

    def _seating(self, action, seat) -> None:
        try:
            action(self, seat)
        except seating.SeatingError as exc:
            raise ActError(str(exc), exc.code) from None

    def new_bot(self, seat: int, name: str):
        """A bot of kind ``name`` for ``seat``, started on this game (a stand-in)."""
        kinds = [name if s == seat else "person" for s in range(self.game.players)]
        return seat_bots(self.game, kinds, self.seed)[seat]

    def _time_the_decision(self) -> None:
        """The turn clock runs for a person's decision the table waits for, else not."""
        pending = None
        if not self.waiting and self.round is None and self.error is None and not self.finished \
                and self.released >= len(self.state.events):
            pending = self.state.decision()
        if pending is not None and pending.seat not in self.bots and pending.kind != "answer":
            seating.arm_clock(self, pending)
        else:
            seating.disarm(self)

    # -- the engine -------------------------------------------------------------
    def _decision_id(self) -> str:
        return f"d{len(self.state.history)}"

    def _apply(self, option) -> None:
        """Apply one action; on a rule breaking down the game is left as it was."""
        backup = self.state.clone()
        try:
            self.state.apply_action(option)
        except (RuleRuntimeError, GameError):
            self.state = backup
            raise
        self.last = (backup, option)
        self._new.append(option)
        self.active = self.clock.now()

    def _pump(self) -> None:
        """Show events up to the next reaction window (opening a round there), or all of
        them; let bots play without a delay; stop where a person or the clock is awaited."""
        while self.round is None and self.error is None:
            events = self.state.events
            at = next((i for i in range(self.released, len(events)) if events[i]["type"] in ROUND_OPENERS),
                      None)
            if at is not None:
                self.released = at + 1
                self._open_round(at)
                continue
            self.released = len(events)
            pending = self.state.decision()
            if pending is None or pending.seat not in self.bots:
                return
            if pending.kind == "answer":  # every window opens a round; this one was missed
                self._open_round(max(i for i, e in enumerate(events) if e["type"] in ROUND_OPENERS))
                continue
            if self.bot_delay > 0:
                self._schedule_bot()
                return
            self._bot_plays(pending)

    def _bot_plays(self, pending) -> None:
        try:
            self._apply(self._bot_choice(pending))
        except (RuleRuntimeError, GameError) as exc:
            self.error = f"the rules broke down when {self.words.seat_name(pending.seat)} chose: {exc}"

    def _bot_choice(self, decision):
        """The bot's option, from a generator seeded by the game and the decision's number:
        a room replayed after a restart gets the same choices."""
        seat = decision.seat
        if len(decision.options) == 1:
            return decision.options[0]
        bot = self.bots[seat]
        bot.rng.seed(f"kittens-web/{self.seed}/{seat}/{len(self.state.history)}")
        return bot.choose(view_for(bot, self.state, seat), decision_for(decision))  # the player protocol

    def _schedule_bot(self) -> None:
        if self._bot_timer is not None:
            return
        expected = len(self.state.history)

        def move():
            self._bot_timer = None
            pending = self.state.decision()
            if (len(self.state.history) != expected or self.round is not None or pending is None
                    or pending.seat not in self.bots or self.error is not None):
                return
            self._bot_plays(pending)
            self.step()

        self._bot_timer = self.clock.later(self.bot_delay, move)

    # -- reaction windows ---------------------------------------------------------
    def _open_round(self, at: int) -> None:
        events, state = self.state.events, self.state
        event = events[at]
        pending = state.decision()
        real = (pending is not None and pending.kind == "answer"
                and not any(e["type"] == "window_closed" for e in events[at + 1:]))
        frozen = None
        if not real and at + 1 < len(events) and self.last is not None:
            frozen = frozen_at(self.last[0], self.last[1], at + 1)
        table = (frozen or state).table
        last = event["seat"]
        eligible = [seat for seat in table.seats_from(last)
                    if (seat != last or self.own) and seat not in self.bots]
        holders = self._holders() if real else {}
        if not eligible:  # no person to ask: the bots answer at once, whatever they hold
            if real:
                self._resolve(None)
            return
        options = {seat: holders.get(seat, [PASS]) for seat in eligible}
        self.round = Round(at, event, real, eligible, options, self.clock.now() + self.answer_seconds, frozen)
        self.round.timer = self.clock.later(self.answer_seconds, self._round_timeout(self.round))

    def _round_timeout(self, round_: Round):
        def fire():
            if self.round is round_:
                self._close_round()
        return fire

    def _holders(self) -> dict:
        """Each seat the engine will ask in this round, with its options: found on a copy
        of the game by passing for everyone in turn."""
        copy = self.state.clone()
        start, found = len(copy.events), {}
        while True:
            decision = copy.decision()
            if decision is None or decision.kind != "answer" or \
                    any(e["type"] in ("window_closed",) + ROUND_OPENERS for e in copy.events[start:]):
                return found
            found[decision.seat] = list(decision.options)
            copy.apply_action(PASS)

    def _close_round(self) -> None:
        round_, self.round = self.round, None
        if round_.timer is not None:
            round_.timer.cancel()
        if round_.real:
            self._resolve(round_.first)
        self.step()

    def _resolve(self, first) -> None:
        """Answer the engine's questions of this round: the first person to play an answer
        plays it and everyone before them passes; with no such person the bots answer,
        in the engine's order, and people pass."""
        state = self.state
        start = len(state.events)
        while self.error is None:
            decision = state.decision()
            if decision is None or decision.kind != "answer" or \
                    any(e["type"] in ("window_closed",) + ROUND_OPENERS for e in state.events[start:]):
                return
            seat = decision.seat
            if first is not None:
                option = first[1] if seat == first[0] else PASS
            elif seat in self.bots:
                option = self._bot_choice(decision)
            else:
                option = PASS
            try:
                self._apply(option)
            except (RuleRuntimeError, GameError) as exc:
                self.error = f"the rules broke down in a reaction window: {exc}"

    # -- storing ------------------------------------------------------------------
    def _save(self) -> None:
        round_at = self.round.at if self.round is not None else None
        progress = (self.released, round_at, self.finished)
        if self.storage is None or self.closed is not None or (not self._new and progress == self._saved):
            self._new.clear()
            return
        first = len(self.state.history) - len(self._new)
        self.storage.add_actions(self.id, first, self._new, *progress)
        self._new.clear()
        self._saved = progress

    # -- what each listener sees -------------------------------------------------------
    def publish(self) -> None:
        """Send every listener what changed for it since it was last sent something."""
        for listener in list(self.listeners):
            self._publish_to(listener)

    def _publish_to(self, listener: Listener) -> None:
        message = self.update(listener.seat, listener.cursor)
        key = json.dumps({k: v for k, v in message.items() if k not in ("log", "remaining_ms", "clock_ms")},
                         sort_keys=True, default=str)
        if key == listener.last and not message["log"]:
            return
        listener.last = key
        listener.cursor = self.released
        listener.send(message)

    def display_state(self):
        """The game as the table shows it: as it stood when the open window opened, while
        the engine is ahead of what is shown."""
        if self.round is not None and self.round.frozen is not None:
            return self.round.frozen
        return self.state

    def update(self, seat, cursor: int) -> dict:
        """What ``seat`` (or a spectator) is shown now, with the log from event ``cursor``."""
        round_ = self.round
        message = {"type": "update", "view": table_view(self.display_state(), seat),
                   "log": log_entries(self.words, self.state.events, cursor, self.released, seat),
                   "arrivals": arrivals(self.state.events, cursor, self.released, seat),
                   "prompt": self.prompt(seat), "window": None, "error": self.error,
                   "waiting": seating.waiting_view(self, seat), "standins": sorted(self.standins),
                   "clock": seating.clock_view(self)}
        if message["clock"] is not None:
            message["clock_ms"] = message["clock"].pop("remaining_ms")
        if self.finished and self.released >= len(self.state.events):  # the end told: its summary
            message["summary"] = self.summary(seat)
        pending = self.state.decision() if round_ is None and self.error is None else None
        if pending is not None and pending.seat != seat and self._seen_deciding(pending.seat):
            message["waiting_for"] = self.words.seat_name(pending.seat)  # who the table waits for
        if round_ is not None:
            message["window"] = {"id": round_.id, "question": self.words.round_question(round_.event, seat),
                                 "asked": seat in round_.options, "answered": seat in round_.chosen}
            message["remaining_ms"] = max(0, int((round_.deadline - self.clock.now()) * 1000))
        return message

    def _seen_deciding(self, seat: int) -> bool:
        """Whether everyone may know that ``seat`` is deciding: it is their turn, or a play
        this turn named them in public (a Favor's target gives a card). A choice a rule
        asks of one seat in secret is not told (the engine shows a decision to its seat
        only)."""
        if seat == self.state.table.current:
            return True
        for row in reversed(self.state.events[-40:]):
            event = as_dict(row)
            if event["type"] == "turn":
                return False
            value = event.get("value")
            if event["type"] == "chose" and type(value) is int and value == seat and "only" not in event:
                return True
        return False

    def summary(self, seat) -> dict:
        """The finished game in plain words from ``seat``'s side (web/summary.py), with the
        results of this table's earlier games (its rematches)."""
        return summary(self.words, self.state.events, self.game.players, seat, self.config.get("series"))

    def game_log(self) -> str:
        """The game as a log ``kittens replay`` reads: a header line, then every event."""
        config = self.config
        # named as a player can use them (a shipped name, an upload's file name), never by
        # where the server keeps them: the server's folders are no business of the table's
        fields = {"edition": config["given"]}
        if config.get("with"):
            fields["with"] = config["given_with"]
        header = game_header(self.game, self.seed, self.labels, **fields)
        return dumps(header) + "\n" + dumps_lines(self.state.events) + "\n"

    def prompt(self, seat) -> dict | None:
        """The question ``seat`` must answer now, with its buttons (None: nothing to do)."""
        if seat is SPECTATOR or self.error is not None or self.waiting:
            return None
        round_ = self.round
        if round_ is not None:
            if seat not in round_.options or seat in round_.chosen:
                return None
            return round_prompt(self.words, round_.event, round_.id, seat, round_.options[seat])
        pending = self.state.decision()
        if pending is None or pending.seat != seat or seat in self.bots or \
                self.released < len(self.state.events):
            return None
        return decision_prompt(self.words, pending, self._decision_id(), self.state)


def closed_message(reason: str) -> dict:
    """What each page at a table is told when the server retires it (then let go)."""
    return {"type": "error", "code": "closed", "message": f"This table has closed: {reason}."}


def open_room(room_id: str, config: dict, seed: int, tokens: dict, edition, *, storage, clock: Clock,
              answer_seconds: float, bot_delay: float, wall) -> Room:
    """A room of a compiled edition, from its config (rules, players, seats), with its people
    (names and chat, as stored): in the server, or in a process running uploaded rules."""
    game = Game(edition, config["players"])
    room = Room(room_id, config, game, seed, tokens, storage=storage, clock=clock,
                bots=seat_bots(game, config["seats"], seed), answer_seconds=answer_seconds, bot_delay=bot_delay)
    Social(room, storage, wall).attach()
    return room


def seat_bots(game, seats: list, seed: int) -> dict:
    """The bots of a table's seats (``seats``: "person" or a bot's name per seat), each
    started on the game: seat -> bot."""
    names = [name for name in seats if name != "person"] or ["random"]
    made = make_bots([name if name != "person" else names[0] for name in seats], game.players, seed)
    bots = {seat: made[seat] for seat, name in enumerate(seats) if name != "person"}
    for seat, bot in bots.items():
        start = getattr(bot, "start", None)
        if start is not None:
            start(game, seat)
    return bots


def _pick(options: list, choice):
    if type(choice) is not int or not 0 <= choice < len(options):
        raise ActError(f"choose one of the {len(options)} buttons", "bad-choice")
    return options[choice]
