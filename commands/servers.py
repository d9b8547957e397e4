"""The servers: the web table (``kittens serve``) and the language server
(``kittens lsp``)."""

from __future__ import annotations

import json
import os
from typing import Annotated, List, Optional

import typer

from . import completion as complete
from .app import app
from .kit import (
    EXIT_ERRORS,
    EXIT_USAGE,
    Format,
    JsonOpt,
    echo,
    fail,
    start,
)

#: where `kittens --help` lists these commands
PANEL = "Servers"


@app.command(rich_help_panel=PANEL)
def lsp(
    stdio: Annotated[bool, typer.Option("--stdio", help="Speak over standard input and output (the default; editors often pass it).")] = True,
    output: Annotated[Format, typer.Option("--format", "-f", help="How an error starting the server is said (the server itself speaks LSP).")] = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Run the kittens language server over stdio: the validator's diagnostics as you
    type, completion, hover and go-to-definition (needs `pip install 'kittens-engine[lsp]'`)."""
    start("lsp", output, as_json)
    try:
        from ..lsp.server import serve
    except ImportError as exc:
        fail(f"the language server needs pygls: pip install 'kittens-engine[lsp]' ({exc})")
    serve()


# -- kittens serve (issue 16: the web table) -----------------------------------------------
@app.command(rich_help_panel=PANEL)
def serve(
    rules: Annotated[Optional[List[str]], typer.Argument(help="Rule files (or folders) the lobby offers besides the shipped editions, e.g. your house rules.", show_default=False, autocompletion=complete.rule_files)] = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on: 127.0.0.1 for this computer only, 0.0.0.0 for every device on your network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port to listen on (0: any free port).")] = 8000,
    data: Annotated[str, typer.Option("--data", help="Where rooms, their decisions (SQLite) and uploaded house rules are kept.")] = ".kittens-serve",
    answer_seconds: Annotated[float, typer.Option("--answer-seconds", min=0.05, max=600, help="How long every reaction window stays open for answers (the same for everyone).")] = 6.0,
    bot_delay: Annotated[float, typer.Option("--bot-delay", min=0, max=60, help="Seconds a bot waits before it plays, so people can follow.")] = 0.8,
    keep_finished_hours: Annotated[float, typer.Option("--keep-finished-hours", min=0.01, max=8760, help="Hours a finished table stays open, to look at the end and download the log; then it closes and its data is deleted.")] = 24.0,
    idle_hours: Annotated[float, typer.Option("--idle-hours", min=0.01, max=8760, help="Hours after its last move a table closes and its data is deleted, finished or not.")] = 168.0,
    output: Annotated[Format, typer.Option("--format", "-f", help="text for people, json for tools (one line with the addresses).")] = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Serve a playtest table in the browser: people on their own phones or laptops, bots in
    the empty seats, any edition or uploaded house rule. Rooms are kept in --data, and a
    restarted server brings every game back where it was, until the table closes: a day after
    its game ends, or a week after its last move (--keep-finished-hours, --idle-hours)."""
    import socket

    as_json = start("serve", output, as_json) == "json"

    try:
        import uvicorn  # noqa: F401  (the web extra: serve_app runs it)

        from ..web.app import Settings, create_app
        from ..web.app import serve as serve_app
    except ImportError as exc:
        fail(f"the web table needs the web extra ({exc.name} is missing): pip install 'kittens-engine[web]'",
             EXIT_USAGE)
    from ..interpreter.rules.catalog import catalog
    from ..interpreter.rules.load import RuleError, UsageError

    for path in rules or ():
        try:
            entries = catalog([path])
        except UsageError as exc:
            fail(str(exc), EXIT_USAGE)
        bad = [entry for entry in entries if entry.get("errors")]
        if bad or not entries:
            fail(f"{path}: " + ("has errors: run kittens validate on it" if bad else
                                "holds no edition or expansion to play"), EXIT_ERRORS)
    try:
        os.makedirs(data, exist_ok=True)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections wait from now on, while the rooms load
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}", EXIT_USAGE)
    port = sock.getsockname()[1]
    settings = Settings(data=data, rules=tuple(rules or ()), answer_seconds=answer_seconds, bot_delay=bot_delay,
                        keep_finished=keep_finished_hours * 3600, idle_seconds=idle_hours * 3600, freeze_gc=True)
    try:
        application = create_app(settings)
    except RuleError as exc:
        fail(str(exc), EXIT_ERRORS)
    urls = _serve_urls(host, port)
    if as_json:
        echo(json.dumps({"urls": urls, "host": host, "port": port, "data": os.path.abspath(data),
                               "keep_finished_hours": keep_finished_hours, "idle_hours": idle_hours}))
    else:
        echo(f"kittens serve: the table is at {urls[0]} (Ctrl-C stops it; rooms are kept in {data})")
        for url in urls[1:]:
            echo(f"  on your network: {url}")
        if host in ("127.0.0.1", "localhost", "::1"):
            echo("  only this computer can reach it; with --host 0.0.0.0 every device on your network can")
        from ..web.retire import span

        echo(f"  a table closes {span(settings.keep_finished)} after its game ends, or "
                   f"{span(settings.idle_seconds)} after its last move (--keep-finished-hours, --idle-hours)")
    serve_app(application, [sock], log_level="warning", ws_max_size=1 << 20)


def _serve_urls(host: str, port: int) -> list[str]:
    """The addresses to open: this computer's own first, then its network addresses when
    the server listens on every interface."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127.") and address not in found:
                found.append(address)
    except OSError:
        pass
    return [f"http://127.0.0.1:{port}/"] + [f"http://{address}:{port}/" for address in found]
