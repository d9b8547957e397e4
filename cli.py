"""The `kittens` command line: thin typer commands over the library.

Library errors become exit statuses here, at the boundary: 0 when all is well
(warnings allowed), 1 when rule files have errors, 2 for usage problems, 3 for
an internal error (a bug in kittens; reported without a traceback), 130 when
stopped by Ctrl-C. Every command takes ``--format`` (``--json`` is short for
``--format json``), and with JSON every output parses, errors included: see
clikit.py, which holds these conventions.

The commands live in commands/, grouped as `kittens --help` shows them: authoring.py,
play.py, lab.py and servers.py; the option types they share in options.py.
"""

from __future__ import annotations

import sys

from .commands import authoring, lab, play, servers, upgrade  # noqa: F401  (each registers its commands)
from .commands.app import app
from .commands.kit import EXIT_ERRORS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE  # noqa: F401

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point: run the app, never show a traceback (clikit.run_app)."""
    from .commands.kit import run_app

    sys.exit(run_app(app))
