"""`kittens upgrade FILE...`: rewrite what kittens deprecated, as ruff --fix does.

The rewrites themselves are authoring/upgrade.py's table; this is the command: which
files, `--diff` and `--check`, the atomic write, the exit status (0: nothing left to
do; 1: with `--check` or `--diff`, files would change, or a deprecation must be fixed
by hand; 2: a usage problem, such as a file that cannot be written)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Annotated, List

import typer

from ..about import display_path
from .app import app
from .kit import EXIT_ERRORS, EXIT_OK, Format, FormatOpt, JsonOpt, echo, emit, fail, start
from .shared import _atomic_text

PANEL = "Write rules"


@app.command(rich_help_panel=PANEL)
def upgrade(
    paths: Annotated[List[str], typer.Argument(help="Scenario files or folders (searched for *.yaml).",
                                               show_default=False)],
    diff: Annotated[bool, typer.Option("--diff", help="Print what would change as a unified diff; write nothing.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 if a file would change.")] = False,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Rewrite files that use something deprecated (a scenario step answering a choice
    kittens now makes by itself, ...), keeping comments and layout; each rewritten
    file must still pass as before."""
    from ..authoring.scenario import ScenarioRunner
    from ..interpreter.rules.check import scenario_files
    from ..interpreter.rules.load import UsageError

    as_json = start("upgrade", output, as_json) == "json"
    try:
        files = scenario_files(paths)
    except UsageError as exc:
        fail(str(exc))
    results, write = [], not (diff or check)
    for path in files:
        result = _upgraded(ScenarioRunner(), path)
        results.append(result)
        if write and result.changed and result.error is None:
            with _atomic_text(path, "upgrade") as handle:
                handle.write(result.new)
        if not as_json:
            _say(result, diff, write)
    changed = [r for r in results if r.changed and r.error is None]
    left = [r for r in results if r.left or r.error]
    if as_json:
        emit({"files": [{"path": r.path, "changed": r.changed and r.error is None, "fixed": r.fixed,
                         "left": r.left, "error": r.error} for r in results],
              "changed": len(changed), "written": write})
    else:
        verb = "upgraded" if write else "would upgrade"
        echo(f"{len(changed)} {'file' if len(changed) == 1 else 'files'} {verb}, "
             f"{len(results) - len(changed)} unchanged")
    raise typer.Exit(EXIT_ERRORS if left or (changed and not write) else EXIT_OK)


def _say(result, diff: bool, write: bool) -> None:
    shown = display_path(result.path)
    for line in result.left:
        echo(line)
    if result.error is not None:
        echo(f"{shown}: not upgraded: {result.error}")
    elif result.changed:
        if diff:
            echo(result.diff(), nl=False)
        for line in result.fixed:
            echo(("fixed " if write else "would fix ") + line)


def _upgraded(runner, path: str):
    """The file's upgrade, checked: the new text is run too, and kept only if it does as
    well as the old one with no deprecation left."""
    from ..authoring.upgrade import Upgraded, upgrade

    before = runner.run(path)
    doc, _kind = runner.ws.load(os.path.normpath(path))
    if doc is None or not before.deprecations:
        return Upgraded(path, getattr(doc, "text", ""), getattr(doc, "text", ""))
    result = upgrade(doc, before.deprecations)
    if result.changed:
        after = _run_text(path, result.new)
        if after.passed < before.passed or after.deprecations:
            result.error = ("the rewritten file does not pass as the old one does "
                            f"({'; '.join(after.failures or after.warnings)[:300]}): fix it by hand")
    return result


def _run_text(path: str, text: str):
    """The outcome of ``text`` run as if it were the scenario at ``path`` (a file beside it,
    so that its references lead where the original's do), by a fresh runner."""
    from ..authoring.scenario import ScenarioRunner

    folder = os.path.dirname(os.path.abspath(path))
    fd, trial = tempfile.mkstemp(dir=folder, prefix=".kittens-upgrade-", suffix=".yaml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        return ScenarioRunner().run(trial)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(trial)
