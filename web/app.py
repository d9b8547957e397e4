"""The web table as an ASGI application (Starlette), served by uvicorn.

Pages: ``/`` (the lobby: make a table), ``/room/ID`` (a table; a seat's link
carries its token after ``#``, so it never reaches a server log),
``/room/ID/rules`` (the rulesheet), ``/room/ID/log`` (the finished game's log,
as ``kittens replay`` reads it). JSON: ``/api/lobby``, ``POST /api/uploads``,
``POST /api/rooms``. Websocket: ``/ws/ID``.

The websocket protocol, client to server, one JSON object per text frame:
``{"type": "hello", "token": ...}`` (no token: a spectator), then
``{"type": "act", "prompt": ID, "choice": N}`` (the N-th button of the prompt
with that id), or ``{"type": "ping"}``. Server to client: ``welcome`` (the
seat, the names, every card's title and text), ``update`` (the view, new log
lines, the prompt, the reaction window), ``error`` (``code``, ``message``),
``pong``; an ``error`` with code ``closed`` says the table has closed (the
connection closes after it, code 4410). Every frame is checked: its size, JSON,
type and fields, the rate (a token bucket per connection), that the prompt is
the seat's current one and the choice one of its buttons. A refused frame gets
an ``error`` and changes nothing. A connection cut off for flooding gets an
``error`` with code ``flooded``; its device's new connections are refused (code
``backoff``, saying how long to wait) for a while that doubles with each cut-off
(backoff.py). Rules run off the event loop (runner.py); uploaded rules in processes of
their own, stopped at their time limits (lanes.py): a move stopped so gets an ``error``
with code ``too-slow``.

This module puts the application together from its parts, each given the server's
shared state (``site.Site``): the pages and the lobby's JSON (routes.py), the replay
viewer (replay_view.py) and the websocket (connection.py).
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles

from . import connection, replay_view
from .routes import LobbyApi, Pages
from .site import STATIC, Settings, Site
from .tables import Tables

__all__ = ["SHUTDOWN_SECONDS", "Settings", "Tables", "create_app", "serve"]

#: seconds a stopping server waits for the requests and connections in flight before it
#: cancels them (uvicorn's graceful shutdown): a page waiting for a slow move is not
#: worth a server that will not stop
SHUTDOWN_SECONDS = 2.0


def create_app(settings: Settings | None = None) -> Starlette:
    """The web table's ASGI application; rooms stored in ``settings.data`` come back
    when it starts."""
    site = Site(settings or Settings())
    routes = [
        *Pages(site).routes(),
        *LobbyApi(site).routes(),
        *replay_view.routes(lambda: site.tables, site.limiter, STATIC),
        WebSocketRoute("/ws/{room}", lambda websocket: connection.serve(websocket, site)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=site.lifespan)


def serve(application: Starlette, sockets: list, **options) -> None:
    """Run the application with uvicorn until it is told to stop (Ctrl-C, SIGTERM). The
    processes running uploaded rules are stopped first, so that nothing in flight waits
    for them; what is still in flight after SHUTDOWN_SECONDS is cancelled."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            stop = getattr(application.state, "stop_rules", None)
            if stop is not None:
                stop()
            await super().shutdown(sockets=sockets)

    config = uvicorn.Config(application, lifespan="on", timeout_graceful_shutdown=SHUTDOWN_SECONDS, **options)
    Server(config).run(sockets=sockets)
