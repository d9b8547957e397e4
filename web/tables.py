"""Every table of a server: making them from the lobby's form, bringing them back when
the server starts, and what the pages ask of them besides moves (rulesheet, log, replay).

A table of the shipped editions or of the server's own rule files is a
:class:`~kittens.web.room.Room` in the server's process (runner.py runs its jobs). A
table of a house rule uploaded in the page is a :class:`~kittens.web.remote.RemoteRoom`
whose rules run in a lane (lanes.py), from the first compile on: making it, setting it
up again after a restart, its moves, its rulesheet and its replay are jobs there, each
stopped at its time limit. Without lanes (a test's own rooms, ``rule_lanes=0``) an
uploaded table is a Room like the others.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import secrets
import time

from starlette.concurrency import run_in_threadpool

from ..about import EDITIONS_DIR

# a browser names only the plain built-in bots: a bot spec could name a class to import
# (code on this server) or a search budget that stalls every table
from ..interpreter.engine.bots import BOTS
from ..interpreter.engine.game import GameError
from ..interpreter.rules.load import RuleError, UsageError
from . import replay_view, seating
from .lanes import LaneError, raise_failure
from .remote import RemoteRoom
from .render import SPECTATOR
from .retire import Retiring, expiry
from .room import ActError, Clock, Room, open_room
from .rulesets import Rulesets
from .runner import Runner
from .storage import Storage

log = logging.getLogger("kittens.web")


class LoopClock(Clock):
    """The running event loop's time; a timer's failure is logged, never raised."""

    def now(self) -> float:
        return time.monotonic()

    def later(self, delay: float, fn):
        def guarded():
            try:
                fn()
            except Exception:  # a room keeps going; the bug is logged
                log.exception("a room's timer failed")
        return asyncio.get_running_loop().call_later(delay, guarded)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Tables(Retiring):
    """Every room of a server, its storage and its rulesets (closing them: ``Retiring``)."""

    def __init__(self, settings, clock: Clock | None = None, wall=time.time) -> None:
        self.settings = settings
        os.makedirs(settings.data, exist_ok=True)
        self.storage = Storage(os.path.join(settings.data, "kittens.sqlite3"), wall=wall)
        self.rulesets = Rulesets(os.path.join(settings.data, "uploads"), list(settings.rules),
                                 max_uploads=settings.max_uploads, max_upload_bytes=settings.max_upload_bytes,
                                 client_uploads=settings.client_uploads,
                                 client_upload_bytes=settings.client_upload_bytes,
                                 check_seconds=settings.upload_seconds)
        self.rooms: dict = {}  # id -> Room or RemoteRoom
        self.clock = clock or LoopClock()
        self.wall = wall  # what the database's times are measured in
        self.runner: Runner | None = None  # a running server's lanes (a test's rooms run in the test)
        self._sweeper = None

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.rulesets.close()
        self.storage.close()

    def run(self, room) -> None:
        """Keep a room, and hand its rules to the server's runner (an uploaded house rule
        without lanes starts in the slow thread: nobody knows yet how much work its cards do)."""
        self.rooms[room.id] = room
        if self.runner is not None:
            remote = isinstance(room, RemoteRoom)
            self.runner.add(room, slow=not remote and self._uploaded(room.config), remote=remote)

    def _uploaded(self, config: dict) -> bool:
        return any(self.rulesets.is_upload(path) for path in [config["rules"], *config.get("with", ())])

    def _in_lane(self, config: dict) -> bool:
        """Whether a table of this config plays in a lane (its rules were uploaded)."""
        return self.runner is not None and self.runner.lanes is not None and self._uploaded(config)

    def uploads_in_use(self) -> set:
        """The ids of the uploads live tables play (they never expire). In the loop."""
        found = set()
        for room in self.rooms.values():
            for path in [room.config["rules"], *room.config.get("with", ())]:
                upload = self.rulesets.upload_of(path)
                if upload is not None:
                    found.add(upload)
        return found

    def _close(self, reasons: dict) -> None:
        super()._close(reasons)
        if self.runner is not None:
            for room_id in reasons:
                self.runner.forget(room_id)

    def _let_go(self, room: RemoteRoom, why: str) -> None:
        """A table of a lane that cannot be set up again: gone from memory (its pages told),
        still stored, so a restart tries again."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            if self.runner is not None:
                self.runner.forget(room.id)
        room.close(why)

    # -- rooms ------------------------------------------------------------------
    def build(self, room_id: str, config: dict, seed: int, tokens: dict) -> Room:
        """A room from its stored config (compiling its rules), in this process."""
        edition = self.rulesets.load(config["rules"], config.get("variant"), tuple(config.get("with", ())))
        clock = self.runner.clock(room_id) if self.runner is not None else self.clock
        return open_room(room_id, config, seed, tokens, edition, storage=self.storage, clock=clock,
                         answer_seconds=self.settings.answer_seconds, bot_delay=self.settings.bot_delay,
                         wall=self.wall)

    def remote_room(self, room_id: str, config: dict, seed: int, tokens: dict, lane=None, **state) -> RemoteRoom:
        """A table of a lane, not set up yet (``state``: where its game stands, if stored)."""
        lanes = self.runner.lanes
        state.setdefault("active", self.clock.now())
        return RemoteRoom(lanes, lane or lanes.pick(), room_id, config, seed, tokens, on_lost=self._let_go,
                          **state)

    async def open_remote(self, room_id: str, config: dict, seed: int, tokens: dict, lane=None) -> RemoteRoom:
        """A new table of a lane, set up there (its rules compiled and its cards dealt)."""
        room = self.remote_room(room_id, config, seed, tokens, lane)
        try:
            await room.open(restore=False)
        except BaseException:
            room.close("it could not be set up")
            raise
        return room

    def restore(self) -> int:
        """Every stored room back where it was, but those whose time is up, which are
        deleted unplayed; those whose rules no longer load are skipped (and logged). A
        table of a lane comes back at once and is set up there in the background. How
        many came back."""
        count, expired = 0, {}
        wall, now, settings = self.wall(), self.clock.now(), self.settings
        for stored in self.storage.rooms():
            # the stored times are wall-clock; a room counts on its clock, so both move
            # back by how long ago they were
            active = now - (wall - (stored["active_at"] or wall))  # no time (written by hand?): now
            ended = None if stored["finished_at"] is None else now - (wall - stored["finished_at"])
            why = expiry(active, ended, now, settings.keep_finished, settings.idle_seconds)
            if why is not None:
                expired[stored["id"]] = why
                continue
            if self._in_lane(stored["config"]):
                held = self.remote_room(stored["id"], stored["config"], stored["seed"], stored["tokens"],
                                        active=active, ended=ended, finished=stored["finished"])
                self.run(held)
                self.runner.submit(held.id, held.ensure)
                count += 1
                continue
            try:
                room = self.build(stored["id"], stored["config"], stored["seed"], stored["tokens"])
                room.active, room.ended = active, ended
                room.restore(self.storage.actions(stored["id"]), stored["released"], stored["round_at"])
            except (RuleError, UsageError, GameError, OSError, ValueError) as exc:
                log.warning("room %s could not be restored: %s", stored["id"], exc)
                continue
            self.run(room)
            count += 1
        self.storage.retire(expired)
        if expired:
            log.info("%d expired table(s) closed", len(expired))
        return count

    def create(self, request: dict) -> dict:
        """A new room from the lobby's form: its seat links. UsageError for a bad form,
        RuleError when the rules do not compile. Call it in the thread that runs the
        rooms (their listeners are told when one closes to make room)."""
        self.retire_for_new_table()
        room, result = self.prepare(request)
        self.admit(room)
        return result

    def prepare(self, request: dict) -> tuple[Room, dict]:
        """A new room from the lobby's form, not yet kept (any thread: it compiles the
        rules): the room and what the lobby is told (its seat links)."""
        path, variant, extras = self._rules_of(request)
        edition = self.rulesets.load(path, variant, extras)
        config, seed, tokens, digests = self._seating(request, path, variant, extras, edition.name, edition.players)
        room = self.build(secrets.token_urlsafe(9), config, seed, digests)
        return room, _made(room.id, edition.name, seed, config["seats"], tokens)

    async def prepare_async(self, request: dict):
        """:meth:`prepare` off the event loop: an uploaded house rule in a lane (on its
        time limit, LaneError past it), any other rules in a worker thread."""
        path, variant, extras = self._rules_of(request)
        if not self._in_lane({"rules": path, "with": extras}):
            return await run_in_threadpool(self.prepare, request)
        lanes = self.runner.lanes
        lane = lanes.pick()
        reply = await lane.run("edition", {"rules": path, "variant": variant, "with": list(extras)},
                               lanes.setup_seconds, "compile")
        if "error" in reply:
            raise_failure(reply["error"])
        name, players = reply["value"]["name"], tuple(reply["value"]["players"])
        config, seed, tokens, digests = self._seating(request, path, variant, extras, name, players)
        room = await self.open_remote(secrets.token_urlsafe(9), config, seed, digests, lane)
        return room, _made(room.id, name, seed, config["seats"], tokens)

    def _rules_of(self, request: dict) -> tuple[str, str | None, tuple]:
        """The rule file, variant and expansion files the lobby's form names (UsageError)."""
        rulesets = self.rulesets
        path = rulesets.path(request.get("ruleset"))
        variant = request.get("variant") or None
        if variant is not None and (not isinstance(variant, str) or len(variant) > 100):
            raise UsageError("choose a variant from the list")
        extras = request.get("expansions") or []
        if not isinstance(extras, list) or len(extras) > 6:
            raise UsageError("choose at most six expansions")
        return path, variant, tuple(rulesets.path(key) for key in extras)

    def _seating(self, request: dict, path: str, variant, extras: tuple, name: str, allowed) -> tuple:
        """The table's config and seed from the form's players, seats and seed, checked
        against the edition (``name``, ``allowed``: its players), with the seats' tokens
        and their digests."""
        lo, hi = allowed
        players = request.get("players")
        if type(players) is not int or not lo <= players <= hi:
            raise UsageError(f"{name} is for {lo} to {hi} players")
        seats = request.get("seats")
        if not isinstance(seats, list) or len(seats) != players or \
                any(seat != "person" and seat not in BOTS for seat in seats):
            raise UsageError(f"say for each of the {players} seats: a person, or a bot "
                             f"({', '.join(BOTS)})")
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbelow(1 << 31)
        elif type(seed) is not int or not 0 <= seed < 1 << 63:
            raise UsageError("a seed is a whole number from 0")
        wait, listed = request.get("wait", False), request.get("open", False)
        if not isinstance(wait, bool) or not isinstance(listed, bool):
            raise UsageError("say whether the table waits for everyone, and whether it is open, with true or false")
        try:
            clock = seating.turn_seconds(request.get("turn_seconds"))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        config = {"rules": path, "variant": variant, "with": list(extras), "players": players,
                  "seats": seats, "given": _given(path, self.rulesets),
                  "given_with": [_given(p, self.rulesets) for p in extras], "wait": wait,
                  "turn_seconds": clock, "standins": [], "open": listed, "name": name}
        tokens = {seat: secrets.token_urlsafe(18) for seat, kind in enumerate(seats) if kind == "person"}
        return config, seed, tokens, {seat: digest(token) for seat, token in tokens.items()}

    def admit(self, room) -> None:
        """Keep a prepared room (making room for it first: UsageError when the server is full)."""
        self.retire_for_new_table()
        self.storage.create_room(room.id, room.config, room.seed, room.tokens)
        self.run(room)
        for path in [room.config["rules"], *room.config.get("with", ())]:
            self.rulesets.used(path)

    def seat_of(self, room, token) -> int | None:
        """The seat a token opens (SPECTATOR for no token); ActError for a wrong one."""
        if token is None or token == "":
            return SPECTATOR
        if not isinstance(token, str) or len(token) > 200:
            raise ActError("this seat link is not valid", "bad-token")
        wanted = digest(token)
        for seat, stored in room.tokens.items():
            if hmac.compare_digest(stored, wanted):
                return int(seat)
        raise ActError("this seat link is not valid", "bad-token")

    # -- what a page asks of a table besides its moves ----------------------------------
    async def game_log(self, room) -> str:
        """The finished game as a log ``kittens replay`` reads: a header line, then every event."""
        if isinstance(room, RemoteRoom):
            return await room.game_log()
        return room.game_log()

    async def rulesheet(self, room) -> str:
        """The table's rulesheet as an HTML page (an uploaded rule's written in its lane)."""
        config = room.config
        args = (config["rules"], config.get("variant"), tuple(config.get("with", ())), config["players"])
        if not isinstance(room, RemoteRoom):
            return await run_in_threadpool(self.rulesets.rulesheet, *args)
        lanes = self.runner.lanes
        reply = await room.lane.run("rulesheet", {"rules": args[0], "variant": args[1], "with": list(args[2]),
                                                  "players": args[3]}, lanes.setup_seconds, "write the rulesheet")
        if "error" in reply:
            raise_failure(reply["error"])
        return reply["value"]

    async def replay(self, room, viewer) -> dict:
        """A finished table's own game, step by step (ReplayError while it is played)."""
        if isinstance(room, RemoteRoom):
            if not room.finished:
                raise replay_view.ReplayError("a table's game can be replayed once it is over")
            return await _replayed(room.replay(viewer))
        return await run_in_threadpool(replay_view.room_replay, room, viewer)

    async def replay_log(self, text: str, viewer, game) -> dict:
        """A game of a log someone sent, step by step; played in a lane when its rules
        were uploaded to this server."""
        games = await run_in_threadpool(replay_view.parse_log, text)
        line, header, records = replay_view.pick_game(games, game)
        edition_path, extras = replay_view.rule_files(header, self.rulesets)
        if not self._in_lane({"rules": edition_path, "with": extras}):
            return await run_in_threadpool(replay_view.log_replay, games, game, viewer, self.rulesets)
        lanes = self.runner.lanes
        reply = await _replayed(lanes.pick().run("replay_log", {
            "rules": edition_path, "with": extras, "header": header, "records": records, "viewer": viewer,
            "line": line}, lanes.setup_seconds, "replay this game"))
        if "error" in reply:
            raise_failure(reply["error"])
        result = reply["value"]
        result["games"], result["game"] = len(games), game
        return result


async def _replayed(job):
    """A replay's job in a lane: a ReplayError (what the viewer shows) when it was stopped."""
    try:
        return await job
    except LaneError as exc:
        raise replay_view.ReplayError(str(exc)) from None


def _made(room_id: str, name: str, seed: int, seats: list, tokens: dict) -> dict:
    """What the lobby is told of a new table: its seat links."""
    return {"room": room_id, "name": name, "seed": seed, "spectate": f"/room/{room_id}",
            "seats": [{"seat": seat, "kind": kind,
                       "link": f"/room/{room_id}#seat={tokens[seat]}" if seat in tokens else None}
                      for seat, kind in enumerate(seats)]}


def _given(path: str, rulesets: Rulesets) -> str:
    """How a log names a rule file: a shipped edition by its name, an uploaded file by its
    file name (a log kept beside it replays), any other file by its path."""
    if os.path.dirname(os.path.realpath(path)) == os.path.realpath(EDITIONS_DIR):
        return os.path.splitext(os.path.basename(path))[0]
    if rulesets.is_upload(path):
        return os.path.basename(path)
    return path
