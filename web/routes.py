"""The web table's HTTP routes, in two groups, each given the server's :class:`~kittens.web.site.Site`.

:class:`Pages`: ``/`` (the lobby), ``/room/ID`` (a table), ``/room/ID/rules`` (its
rulesheet) and ``/room/ID/log`` (its finished game's log). :class:`LobbyApi`: the
JSON the lobby sends and reads: ``/api/lobby``, ``POST /api/uploads``, ``POST
/api/rooms``, ``POST /api/uploads/kept``, ``POST /api/qr``, ``/api/open`` and ``POST
/api/open/join``. Every form but the lobby's listing is limited per device
(``Site.too_fast``).
"""

from __future__ import annotations

import os

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..interpreter.engine.bots import BOTS
from ..interpreter.engine.game import GameError
from ..interpreter.rules.load import RuleError, UsageError
from . import open_tables
from .invite import InviteError, qr_svg
from .lanes import LaneError
from .remote import RemoteRoom
from .rulesets import UploadError
from .runner import Stopping
from .site import STATIC, Site, error, note_page, parse_json, read_body, read_json

#: upload keys one device may ask about at once (it remembers at most this many)
KEPT_ASKED = 50


class Pages:
    """The pages a browser opens, and the log it downloads."""

    def __init__(self, site: Site) -> None:
        self.site = site

    def routes(self) -> list:
        return [Route("/", self.lobby), Route("/room/{room}", self.table), Route("/room/{room}/rules", self.rules),
                Route("/room/{room}/log", self.game_log)]

    async def lobby(self, request: Request):
        return FileResponse(os.path.join(STATIC, "index.html"))

    async def table(self, request: Request):
        if request.path_params["room"] not in self.site.tables.rooms:
            return self.site.missing(request.path_params["room"], page=True)
        return FileResponse(os.path.join(STATIC, "table.html"))

    async def rules(self, request: Request):
        tables = self.site.tables
        room = tables.rooms.get(request.path_params["room"])
        if room is None:
            return self.site.missing(request.path_params["room"], page=True)
        try:
            sheet = await tables.rulesheet(room)
        except LaneError as exc:
            return HTMLResponse(note_page("No rulesheet", f"This table's rulesheet could not be written: {exc}."),
                                status_code=422)
        return HTMLResponse(sheet)

    async def game_log(self, request: Request):
        tables = self.site.tables
        room = tables.rooms.get(request.path_params["room"])
        if room is None:
            return self.site.missing(request.path_params["room"], page=False)
        if not room.finished:
            return error("the log can be downloaded once the game is over", 409)
        try:
            text = await tables.game_log(room)
        except LaneError as exc:
            return error(f"the log could not be written: {exc}", 422)
        return Response(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="kittens-{room.id}.jsonl"'})


class LobbyApi:
    """The lobby's JSON: what it offers, uploads, new tables, QR codes and open tables."""

    def __init__(self, site: Site) -> None:
        self.site = site

    def routes(self) -> list:
        return [Route("/api/lobby", self.lobby), Route("/api/uploads", self.upload, methods=["POST"]),
                Route("/api/rooms", self.create_room, methods=["POST"]),
                Route("/api/uploads/kept", self.kept_uploads, methods=["POST"]),
                Route("/api/qr", self.qr, methods=["POST"]), Route("/api/open", self.open_list),
                Route("/api/open/join", self.open_join, methods=["POST"])]

    async def lobby(self, request: Request):
        return JSONResponse({**self.site.tables.rulesets.lobby(), "bots": list(BOTS),
                             "answer_seconds": self.site.settings.answer_seconds})

    async def upload(self, request: Request):
        if (refused := self.site.too_fast(request)) is not None:
            return refused
        limit = self.site.settings.max_body
        body = await read_body(request, limit)
        if body is None:
            return error(f"an upload may be at most {limit:,} bytes", 413)
        data = parse_json(body)
        if not isinstance(data, dict):
            return error("send a JSON object with a list of files", 400)
        tables = self.site.tables
        try:
            result = await run_in_threadpool(tables.rulesets.upload, data.get("files"),
                                             request.client.host if request.client else "",
                                             tables.uploads_in_use())
        except UploadError as exc:
            return error(str(exc), exc.status)
        return JSONResponse(result)

    async def kept_uploads(self, request: Request):
        """Which of a device's uploads (their lobby keys, remembered by the page) the server
        still keeps: the page lists those again and forgets the others."""
        if (refused := self.site.too_fast(request)) is not None:
            return refused
        data = await read_json(request, 16 * 1024)
        keys = data.get("keys") if isinstance(data, dict) else None
        if not isinstance(keys, list) or len(keys) > KEPT_ASKED:
            return error(f"send a list of at most {KEPT_ASKED} upload keys", 400)
        return JSONResponse({"kept": self.site.tables.rulesets.kept(keys)})

    async def open_list(self, request: Request):
        return JSONResponse({"tables": open_tables.listing(self.site.tables)})

    async def open_join(self, request: Request):
        if (refused := self.site.too_fast(request)) is not None:
            return refused
        data = await read_json(request, 4 * 1024)
        if not isinstance(data, dict):
            return error("send the table and the seat to take", 400)
        try:
            return JSONResponse(open_tables.join(self.site.tables, data.get("room"), data.get("seat")))
        except UsageError as exc:
            return error(str(exc), 409)

    async def qr(self, request: Request):
        if (refused := self.site.too_fast(request)) is not None:
            return refused
        data = await read_json(request, 4 * 1024)
        try:
            svg = qr_svg(data.get("text") if isinstance(data, dict) else None)
        except InviteError as exc:
            return error(str(exc), 400)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def create_room(self, request: Request):
        if (refused := self.site.too_fast(request)) is not None:
            return refused
        data = await read_json(request, 64 * 1024)
        if not isinstance(data, dict):
            return error("send the table's rules and seats as a JSON object", 400)
        tables, room = self.site.tables, None
        try:
            # in the event loop, which keeps the list of rooms: a room closed to make room
            # tells its listeners; the rules compile meanwhile, in a worker thread or, for
            # an uploaded house rule, in a lane (stopped at its limit)
            tables.retire_for_new_table()
            room, result = await tables.prepare_async(data)
            tables.admit(room)
        except (UsageError, RuleError, LaneError, GameError) as exc:
            if isinstance(room, RemoteRoom):  # set up in its lane, but not kept: let go there
                room.close("it could not be kept")
            return not_made(exc)
        try:
            await tables.runner.call(room.id, room.step)  # the first bot moves
        except (LaneError, Stopping):  # its first move took too long (its game stopped), or the server stops
            pass
        return JSONResponse(result)


def not_made(exc: Exception) -> JSONResponse:
    """What the lobby is told when a table could not be made: a bad form (400), a table
    that could not be set up (422), or rules that do not compile (422, with the findings)."""
    if isinstance(exc, UsageError):
        return error(str(exc), 400)
    if isinstance(exc, (LaneError, GameError)):  # GameError: its deal stopped at the step budget
        return error(f"this table could not be made: {exc}", 422)
    return JSONResponse({"error": "the rules do not compile", "code": 422,
                         "diagnostics": [d.render() for d in exc.diagnostics] or [str(exc)]}, status_code=422)
