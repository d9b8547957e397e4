"""The replay viewer's data: a finished game, step by step, as one seat saw it or as
everyone.

A game is replayed from its log (a finished table's own, or a ``kittens run --log``
file someone uploads): the engine plays it again from the header's seed, answering
each logged decision, and every event it writes must be the logged one (else the
viewer says where they part). After the deal and after every decision the viewer
keeps a *step*: the table as the chosen viewer sees it then (``render.table_view``,
the same a seat is sent while playing) and how many events had happened. The log is
put in words once for the whole game, for that viewer (``render.log_entries``), each
line with its event's number, so the page highlights the lines of a step.

"As one seat" shows only what that seat could see: its view, and the log filtered by
``events.for_seat``. "As everyone" shows every hand and the whole log; it is offered
only for a finished game (a log is only handed out once its game is over).

A header is untrusted: its rule files are looked up only as shipped editions and
expansions, the server's own rule files, or files uploaded to this server, by name,
never as paths.
"""

from __future__ import annotations

import glob
import os

import orjson

from ..interpreter.engine.game import Game, GameError, RuleRuntimeError
from ..interpreter.engine.logwriter import dumps_lines
from ..interpreter.engine.simulate import replay_event
from ..interpreter.rules import plugins
from ..interpreter.rules.load import RuleError, UsageError
from .render import SPECTATOR, card_list, log_entries, table_view
from .rulesets import SAFE_NAME
from .summary import summary
from .words import Words

#: bytes of a log the viewer reads, and steps it shows (a lab game is far shorter)
MAX_LOG_BYTES = 8 * 1024 * 1024
MAX_STEPS = 5000
#: the viewer's name for "every seat at once"
EVERYONE = "all"


class ReplayError(Exception):
    """A log the viewer cannot show; the message says where and why."""


def parse_log(text: str) -> list[tuple[int, dict, list]]:
    """The games of a log: (header's line number, header, its events)."""
    if len(text.encode("utf-8", "replace")) > MAX_LOG_BYTES:
        raise ReplayError(f"the viewer reads logs of at most {MAX_LOG_BYTES // (1024 * 1024)} MB")
    games: list = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise ReplayError(f"line {number}: not a JSON object: is this a log of `kittens run --log`?") from None
        if not isinstance(record, dict) or not isinstance(record.get("type"), str):
            raise ReplayError(f"line {number}: not an event (a JSON object with a type)")
        if record["type"] == "game":
            games.append((number, record, []))
        elif not games:
            raise ReplayError(f"line {number}: a log starts with a 'game' header line")
        else:
            games[-1][2].append(record)
    if not games:
        raise ReplayError("the file holds no game")
    return games


def rule_files(header: dict, rulesets) -> tuple[str, list[str]]:
    """The edition file and expansion files a header names, found by name only."""
    edition = _find(header.get("edition"), rulesets, "edition")
    extras = header.get("with") or []
    if not isinstance(extras, list) or len(extras) > 6:
        raise ReplayError("the game header's 'with' is not a list of expansions")
    return edition, [_find(name, rulesets, "expansion") for name in extras]


def _find(name, rulesets, what: str) -> str:
    if not isinstance(name, str) or not name or len(name) > 200:
        raise ReplayError(f"the game header names no {what}")
    found = plugins.shipped(name) if "/" not in name and "\\" not in name else None
    if found is None and rulesets is not None:
        # the server's own rule files (by their path or file name), then uploads (newest)
        for path in rulesets.server_files():
            if name in (path, os.path.basename(path)):
                found = path
                break
        if found is None and SAFE_NAME.match(name):
            uploaded = glob.glob(os.path.join(glob.escape(rulesets.uploads), "*", name))
            if uploaded:
                found = max(uploaded, key=os.path.getmtime)
    if found is None:
        shown = name if len(name) <= 60 else name[:60] + "..."
        raise ReplayError(f"the {what} '{shown}' is not on this server: play its rule file here "
                          "(upload it in the lobby) or replay the log with `kittens replay`")
    return found


def variant_of(header: dict) -> str | None:
    """The variant a header names (None: the edition itself)."""
    variant = header.get("variant")
    if variant is not None and (not isinstance(variant, str) or len(variant) > 100):
        raise ReplayError("the game header's variant is not a name")
    return variant


def load_game(header: dict, rulesets, edition_path: str, extras: list):
    """The compiled edition of a header's rule files (through a rulesets cache)."""
    try:
        return rulesets.load(edition_path, variant_of(header), tuple(extras))
    except (RuleError, UsageError) as exc:
        raise ReplayError(f"the rules this game was played with do not load: {exc}") from None


def steps(edition, header: dict, records: list, viewer, names: list | None = None,
          first_line: int = 1) -> dict:
    """The game of a log, step by step, as ``viewer`` (a seat, or ``EVERYONE``) saw it."""
    players, seed = header.get("players"), header.get("seed", 0)
    if type(players) is not int or not 0 < players <= 10 or type(seed) is not int:
        raise ReplayError(f"line {first_line}: the game header's players or seed is not a whole number")
    if viewer != EVERYONE and (type(viewer) is not int or not 0 <= viewer < players):
        raise ReplayError(f"choose a seat from 0 to {players - 1}, or everyone")
    try:
        state = Game(edition, players).new_state(seed, explicit_chance=header.get("explicit_chance") is True)
    except GameError as exc:
        raise ReplayError(f"this game cannot be set up again: {exc}") from None
    bots = header.get("bots")
    labels = bots if isinstance(bots, list) and len(bots) == players and all(isinstance(b, str) for b in bots) \
        else ["person"] * players
    words = Words(edition, labels)
    if names:
        words.chosen = {seat: str(name)[:40] for seat, name in enumerate(names[:players])}
    seat = SPECTATOR if viewer == EVERYONE else viewer
    shown, problem = [_step(state, words, viewer)], None
    for index, record in enumerate(records):
        before = len(state.history)
        try:
            problem = replay_event(state, record, index, first_line + 1 + index)
        except (RuleRuntimeError, GameError) as exc:
            problem = f"line {first_line + 1 + index}: {exc}"
        if problem is not None:
            break
        if len(state.history) > before:
            if len(shown) >= MAX_STEPS:
                problem = f"the viewer shows the first {MAX_STEPS} steps of a game"
                break
            shown.append(_step(state, words, viewer))
    events = state.events if viewer != EVERYONE else [_unmasked(e) for e in state.events]
    lines = log_entries(words, events, 0, len(events), seat)
    for entry in lines:
        entry["line"] = first_line + 1 + entry["n"]  # where the event is in the log file
    return {"players": players, "names": [words.seat_name(s) for s in range(players)],
            "edition": edition.name, "viewer": viewer, "steps": shown, "log": lines,
            "cards": card_list(edition), "problem": problem, "finished": state.is_terminal(),
            "winners": list(state.table.winners),
            # how it ended in words, from the public events (the same for every viewer but "you")
            "summary": summary(words, state.events, players, seat)["lines"] if state.is_terminal() else None}


def _step(state, words: Words, viewer) -> dict:
    """The table after a decision, as the viewer saw it, and who was to choose next."""
    if viewer == EVERYONE:
        view = table_view(state, SPECTATOR)
        table = state.table
        for entry in view["seats"]:  # every hand, face up
            entry["known"] = sorted(inst.id for inst in table.hands[entry["seat"]].cards)
        view["draw_pile"]["known"] = [{"place": i, "card": inst.id}
                                      for i, inst in enumerate(table.draw_pile.cards[:5])]
    else:
        view = table_view(state, viewer)
    decision = state.decision()
    step = {"upto": len(state.events), "view": view}
    if decision is not None:
        step["next"] = words.seat_name(decision.seat)
    return step


def _unmasked(event: dict) -> dict:
    return {k: v for k, v in event.items() if k not in ("secret", "only")}


def room_replay(room, viewer) -> dict:
    """A finished table's own game, step by step (ReplayError while it is played)."""
    if not room.finished:
        raise ReplayError("a table's game can be replayed once it is over")
    header = {"players": room.game.players, "seed": room.seed, "bots": room.labels}
    records = [orjson.loads(line) for line in dumps_lines(room.state.events).splitlines()]  # as logged
    result = steps(room.game.edition, header, records, viewer, room.names())
    result["room"] = room.id
    return result


def pick_game(games: list, game) -> tuple[int, dict, list]:
    """Game ``game`` (counting from 1) of a parsed log."""
    if type(game) is not int or not 1 <= game <= len(games):
        raise ReplayError(f"the log holds {len(games)} game(s): choose one from 1 to {len(games)}")
    return games[game - 1]


def log_replay(games: list, game: int, viewer, rulesets) -> dict:
    """A game of a parsed log, step by step, its rules compiled here."""
    line, header, records = pick_game(games, game)
    edition = load_game(header, rulesets, *rule_files(header, rulesets))
    result = steps(edition, header, records, viewer, first_line=line)
    result["games"] = len(games)
    result["game"] = game
    return result


# -- the viewer's pages and JSON (mounted by app.create_app) -------------------------
def routes(tables, limiter, static: str) -> list:
    """``/replay`` (the viewer, for an uploaded log), ``/room/ID/replay`` (a finished
    table's game), ``GET /api/replay/room/ID?seat=N|all`` and ``POST /api/replay``
    (``{"log": text, "seat": N or "all", "game": K}``)."""
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Route

    page = os.path.join(static, "replay.html")

    def error(message: str, status: int):
        return JSONResponse({"error": message, "code": status}, status_code=status)

    async def viewer_page(request):
        room_id = request.path_params.get("room")
        if room_id is not None and room_id not in tables().rooms:
            return error("no such table", 404)
        return FileResponse(page)

    async def of_room(request):
        room = tables().rooms.get(request.path_params["room"])
        if room is None:
            return error("no such table", 404)
        try:
            result = await tables().replay(room, _viewer(request.query_params.get("seat")))
        except ReplayError as exc:
            return error(str(exc), 409 if not room.finished else 400)
        return JSONResponse(result)

    async def of_upload(request):
        if not limiter.take(request):
            return error("too many replays from this device: wait a few seconds", 429)
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_LOG_BYTES + 4096:
                return error(f"the viewer reads logs of at most {MAX_LOG_BYTES // (1024 * 1024)} MB", 413)
            chunks.append(chunk)
        try:
            data = orjson.loads(b"".join(chunks))
        except orjson.JSONDecodeError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("log"), str):
            return error("send a JSON object with the log's text", 400)
        try:
            result = await tables().replay_log(data["log"], _viewer(data.get("seat")), data.get("game", 1))
        except ReplayError as exc:
            return error(str(exc), 400)
        return JSONResponse(result)

    return [Route("/replay", viewer_page), Route("/room/{room}/replay", viewer_page),
            Route("/api/replay/room/{room}", of_room), Route("/api/replay", of_upload, methods=["POST"])]


def _viewer(value):
    """A seat number or ``EVERYONE`` from a query or a form (a wrong one: ReplayError)."""
    if value in (None, "", EVERYONE):
        return EVERYONE
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ReplayError("choose a seat by its number, or everyone") from None
