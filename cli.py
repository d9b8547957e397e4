"""The `kittens` command line: thin typer commands over the library.

Library errors become exit statuses here, at the boundary: 0 when all is well
(warnings allowed), 1 when rule files have errors, 2 for usage problems, 3 for
an internal error (a bug in kittens; reported without a traceback).
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated, List

import typer

from . import __version__

app = typer.Typer(
    name="kittens",
    help="A rules-as-data engine for Exploding Kittens: editions, cards and combos written in YAML.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kittens {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Exploding Kittens editions, cards and combos written as data."""


@app.command()
def validate(
    paths: Annotated[List[str], typer.Argument(help="Rule files or folders (searched for *.yaml).",
                                               show_default=False)],
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text for people, json for tools.")]
    = OutputFormat.text,
) -> None:
    """Check rule files: YAML, schema, effects, and the rules a schema cannot express."""
    from .interpreter.diagnostics import render_json
    from .interpreter.validate import UsageError, validate_paths

    try:
        report = validate_paths(paths)
    except UsageError as exc:
        typer.echo(f"kittens validate: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    if output is OutputFormat.json:
        typer.echo(render_json(report.diagnostics, report.files))
    else:
        color = sys.stdout.isatty()
        for diagnostic in report.diagnostics:
            text = diagnostic.render()
            if color:
                word = diagnostic.severity
                text = text.replace(f" {word}: ", " " + typer.style(
                    f"{word}:", fg="red" if diagnostic.is_error else "yellow", bold=True) + " ", 1)
            typer.echo(text)
        files = len(report.files)
        typer.echo(f"checked {files} file{'s' if files != 1 else ''}: "
                   f"{report.errors} error{'s' if report.errors != 1 else ''}, "
                   f"{report.warnings} warning{'s' if report.warnings != 1 else ''}")
    raise typer.Exit(EXIT_ERRORS if report.errors else EXIT_OK)


def main() -> None:
    """Console-script entry point: run the app, never show a traceback."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # a bug in kittens: say so plainly, no traceback
        typer.echo(f"kittens: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in kittens; please report it with the command you ran.", err=True)
        sys.exit(EXIT_INTERNAL)
