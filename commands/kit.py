"""The conventions every `kittens` command follows, in one place.

* One output switch, ``--format`` (``--json`` is short for ``--format json``).
* Exit codes: 0 fine, 1 findings or failures, 2 usage errors, 3 internal error,
  130 on Ctrl-C.
* With ``--format json`` everything printed on standard output parses as JSON,
  errors too: ``{"error": "...", "code": 2, "command": "run"}``.
* Shipped files are shown by name (``<kittens>/editions/original.yaml``), never
  by the site-packages path they happen to be installed at.

Commands call :func:`start` first with the format they were given; the error
helpers below then print in that format. :func:`run_app` is the console
script's body: it catches what typer would otherwise print its own way.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from enum import Enum
from typing import Annotated

import typer

from ..about import display_path
from ..interpreter.lang.diagnostics import printable

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class Format(str, Enum):
    """Output of most commands: text for people, json for tools."""

    text = "text"
    json = "json"


class ValidateFormat(str, Enum):
    """`kittens validate`: also GitHub annotations and SARIF for code scanning."""

    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


class SheetFormat(str, Enum):
    """`kittens rules`: a rulesheet as Markdown or HTML, or its blocks as JSON."""

    markdown = "markdown"
    html = "html"
    json = "json"
    text = "text"  # the Markdown, which reads as plain text


FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="text for people, json for tools.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Short for --format json.")]


class _State:
    command = "kittens"
    json = False


STATE = _State()


def start(command: str, fmt=None, as_json: bool = False) -> str:
    """Note the running command and its output format; returns the format's value."""
    value = "json" if as_json else (getattr(fmt, "value", fmt) or "text")
    STATE.command, STATE.json = command, value in ("json", "sarif")
    return value


def echo(message="", *, err: bool = False, nl: bool = True) -> None:
    """Print ``message``, made safe for a terminal (see diagnostics.printable): every
    command prints through this, and much of what it prints comes from rule files."""
    typer.echo(printable(message), err=err, nl=nl)


def emit(data) -> None:
    """One JSON document on standard output."""
    echo(json.dumps(data, indent=2, default=str))


def fail(message: str, code: int = EXIT_USAGE, **extra) -> None:
    """Stop the command with ``code``, saying ``message`` in the command's format."""
    if STATE.json:
        emit({"error": message, "code": code, "command": STATE.command, **extra})
    else:
        echo(f"kittens {STATE.command}: {message}", err=True)
    raise typer.Exit(code)


def shown(diagnostic):
    """A diagnostic whose path is shown as a person should read it."""
    return dataclasses.replace(diagnostic, path=display_path(diagnostic.path))


def fail_rules(exc) -> None:
    """Stop with exit 1 for rule files that do not compile (a RuleError)."""
    diagnostics = [shown(d) for d in exc.diagnostics]
    # a caller may have said what it was doing (the lab names the ruleset it changed):
    # keep that line above the diagnostics
    plain = "\n".join(d.render() for d in exc.diagnostics)
    headline = str(exc) if str(exc) != plain else ""
    if headline and diagnostics:
        headline = headline.split("\n", 1)[0]
    text = "\n".join(d.render() for d in diagnostics) if diagnostics else str(exc)
    if headline and diagnostics:
        text = f"{headline}\n{text}"
    if STATE.json:
        emit({"error": headline or ("the rule files have errors" if diagnostics else str(exc)),
              "code": EXIT_ERRORS, "command": STATE.command,
              "diagnostics": [d.to_json() for d in diagnostics]})
    else:
        echo(text, err=True)
    raise typer.Exit(EXIT_ERRORS)


def _wants_json(argv: list[str]) -> bool:
    for i, arg in enumerate(argv):
        if arg == "--json" or arg in ("--format=json", "-fjson", "--format=sarif"):
            return True
        if arg in ("--format", "-f") and i + 1 < len(argv) and argv[i + 1] in ("json", "sarif"):
            return True
    return False


def _command_of(argv: list[str]) -> str:
    words = [a for a in argv if not a.startswith("-")]
    return words[0] if words else "kittens"


class _Exceptions:
    """click's exception classes as typer raises them: newer typer carries its own copy
    of click, older typer uses click itself; both are caught."""

    def __init__(self) -> None:
        modules = []
        for name in ("typer._click.exceptions", "click.exceptions"):
            try:
                modules.append(__import__(name, fromlist=["x"]))
            except ImportError:
                pass
        def pick(attr, *extra):
            return tuple(getattr(m, attr) for m in modules if hasattr(m, attr)) + extra
        self.Exit = pick("Exit", typer.Exit)
        self.Abort = pick("Abort", typer.Abort)
        self.ClickException = pick("ClickException")


def _click_exceptions() -> _Exceptions:
    return _Exceptions()


def run_app(app, argv: list[str] | None = None) -> int:
    """Run the typer ``app`` and return the exit code, whatever happens inside."""
    click = _click_exceptions()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        result = app(args=argv, prog_name="kittens", standalone_mode=False)
        return result if isinstance(result, int) else EXIT_OK
    except click.Exit as exc:
        return getattr(exc, "exit_code", EXIT_OK)
    except click.Abort as exc:
        return EXIT_INTERRUPTED if isinstance(exc.__cause__, KeyboardInterrupt) or \
            exc.__cause__ is None else EXIT_ERRORS
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except click.ClickException as exc:
        no_args = type(exc).__name__ == "NoArgsIsHelpError"
        if _wants_json(argv) and not no_args:
            STATE.json, STATE.command = True, _command_of(argv)
            emit({"error": exc.format_message(), "code": EXIT_USAGE, "command": STATE.command})
        else:
            exc.show()
        return EXIT_OK if no_args and not argv else exc.exit_code
    except Exception as exc:  # a bug in kittens: say so plainly, no traceback
        if os.environ.get("KITTENS_DEBUG", "") not in ("", "0"):  # for whoever fixes it
            import traceback
            traceback.print_exc()
        message = f"internal error: {type(exc).__name__}: {exc}"
        hint = ("This is a bug in kittens; please report it with the command you ran "
                "(KITTENS_DEBUG=1 shows where it happened).")
        if STATE.json or _wants_json(argv):
            emit({"error": message, "code": EXIT_INTERNAL, "command": _command_of(argv), "hint": hint})
        else:
            echo(f"kittens: {message}\n{hint}", err=True)
        return EXIT_INTERNAL
