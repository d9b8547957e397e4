"""The typer application and its global options (``--version``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..about import DISTRIBUTION, __version__, core_fallback, core_warning, engine_core
from .kit import (
    echo,
)

app = typer.Typer(
    name="kittens",
    help="A rules-as-data engine for Exploding Kittens: editions, cards and combos written in YAML.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # help is Markdown: `code` shows as code, and brackets stay text (rich markup ate the
    # "[lsp]" of "pip install 'kittens-engine[lsp]'")
    rich_markup_mode="markdown",
)


def _version(value: bool) -> None:
    if value:
        import platform

        fallback = core_fallback()
        echo(f"kittens {__version__} ({DISTRIBUTION}, Python {platform.python_version()}, "
             f"{engine_core()} engine core{': the install could not compile it' if fallback else ''})")
        raise typer.Exit()


#: whether this process has said that the compiled core is missing (it says it once)
_CORE_TOLD = []


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version, with the distribution, the Python "
                                          "and the engine core in use, and exit.")] = False,
) -> None:
    """Exploding Kittens editions, cards and combos written as data."""
    if not _CORE_TOLD:
        _CORE_TOLD.append(True)
        warning = core_warning()
        if warning:  # on stderr: standard output stays what the command prints (JSON included)
            typer.echo(warning, err=True)
