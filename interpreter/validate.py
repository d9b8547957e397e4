"""`kittens validate` as a library call: paths in, diagnostics out."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .diagnostics import WARNING, Diagnostic
from .edition import compile_edition
from .library import load_library
from .model import Edition
from .workspace import Workspace

RULE_FILE_SUFFIXES = (".yaml", ".yml")


class UsageError(Exception):
    """A path that names nothing to validate (exit status 2 at the CLI)."""


@dataclass
class Report:
    files: list[str]
    diagnostics: list[Diagnostic]

    @property
    def errors(self) -> int:
        return sum(d.is_error for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return len(self.diagnostics) - self.errors


def expand(paths: list[str]) -> list[str]:
    """Files named directly, plus every ``*.yaml``/``*.yml`` below named folders, sorted."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [os.path.join(root, n) for n in names if n.endswith(RULE_FILE_SUFFIXES)]
            files += sorted(found)
        elif os.path.exists(path):
            files.append(path)
        else:
            raise UsageError(f"no such file or folder: {path}")
    if not files:
        raise UsageError(f"no rule files (*.yaml, *.yml) in {', '.join(paths)}")
    return list(dict.fromkeys(os.path.normpath(f) for f in files))


_KIND_LINE = re.compile(r"^kind:\s*['\"]?([A-Za-z_]+)", re.MULTILINE)


def scenario_files(paths: list[str]) -> list[str]:
    """Scenario files: those named, plus those below named folders whose `kind` is
    scenario (or unreadable, so a broken scenario still fails); rule files beside
    them, such as the house rule a scenario tests, are skipped."""
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files += expand([path])
            continue
        for found in expand([path]):
            try:
                with open(found, encoding="utf-8", errors="replace") as handle:
                    match = _KIND_LINE.search(handle.read(64 * 1024))
            except OSError:
                match = None
            if match is None or match.group(1) == "scenario":
                files.append(found)
    if not files:
        raise UsageError(f"no scenario files in {', '.join(paths)}")
    return files


def validate_paths(paths: list[str], *, allow_outside: bool | None = None) -> Report:
    """Check every rule file under ``paths``; never raises for bad file content.

    ``allow_outside``: let references leave the rule folders (default: what the
    environment says, see :mod:`workspace`)."""
    files = expand(paths)
    ws = Workspace(allow_outside=allow_outside)
    for path in files:
        check_file(ws, path)
    return Report(files, ws.diagnostics)


def check_file(ws: Workspace, path: str) -> None:
    doc, kind = ws.load(path)
    if kind in ("edition", "expansion"):
        edition = compile_edition(ws, path)
        if edition is not None:
            _text_mismatches(ws, edition)
            _large_values(ws, edition)
    elif kind in ("cards", "combos"):
        load_library(ws, path)
    elif kind == "scenario":
        from .scenario import check_layout, check_scenario
        edition = check_scenario(ws, doc)
        if edition is not None:
            check_layout(ws, doc, edition)


def _text_mismatches(ws: Workspace, edition: Edition) -> None:
    """Warn where a card's text and effect disagree on a number (see rulesheet.py).

    The warning points at the change that made them disagree when there is one:
    the card's last patch, or a parameter it reads that another file set."""
    from . import syntax
    from .textcheck import number_mismatches

    for view in [edition, *edition.variants.values()]:
        for finding in number_mismatches(view):
            record = view.cards.get(finding.card_id) or next(
                (combo for combo in view.combos if combo.id == finding.card_id), None)
            where = finding.origin
            if getattr(record, "changed_at", ()):
                where = record.changed_at[-1]
            else:
                trees = [getattr(record, name, None) for name in ("effect", "on_draw", "requires")]
                for node in syntax.walk(tuple(t for t in trees if t is not None)):
                    origin = view.origins.get(f"params.{getattr(node, 'name', '')}") \
                        if isinstance(node, syntax.RuleRef) else None
                    if origin is not None and origin.path != finding.origin.path:
                        where = origin
                        break
            suffix = f" (variant '{view.variant}')" if view.variant else ""
            ws.report(Diagnostic(where.path, where.line, where.column or 1, WARNING, "text-mismatch",
                                 f"'{finding.card_id}'{suffix}: {finding.message}: make the text and "
                                 "the effect agree (`patch_cards` can change the text)",
                                 _source_line(where)))


def _large_values(ws: Workspace, edition: Edition) -> None:
    """Warn at a rule or parameter set beyond the numbers effects may use (see cost.py)."""
    from .cost import MAY_OVERFLOW, value_findings

    for where, message in value_findings(edition):
        ws.report(Diagnostic(where.path, where.line, where.column or 1, WARNING, MAY_OVERFLOW,
                             message, _source_line(where)))


def _source_line(origin) -> str:
    try:
        with open(origin.path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        return lines[origin.line - 1] if 0 < origin.line <= len(lines) else ""
    except OSError:
        return ""


def load_edition(path: str, variant: str | None = None, expansions: tuple = ()) -> Edition:
    """Compile an edition (or an expansion on its base) for play, with ``expansions``
    applied in order; raise :class:`RuleError` with the diagnostics if it cannot be."""
    ws = Workspace()
    for extra in expansions:
        doc, kind = ws.load(extra)
        if doc is not None and kind not in (None, "expansion"):
            raise RuleError([], f"{extra} is not an expansion (its kind is {kind})")
    edition = compile_edition(ws, path, tuple(expansions))
    errors = [d for d in ws.diagnostics if d.is_error]
    if edition is None or errors:
        if not errors:  # e.g. the file is a card library, not an edition
            doc, kind = ws.load(path)
            raise RuleError([], f"{path} is not an edition (its kind is {kind or 'unknown'})")
        raise RuleError(errors)
    if variant is not None:
        if variant in edition.unavailable:
            owner, why = edition.unavailable[variant]
            raise RuleError([], f"the variant '{variant}' of {owner} does not apply here, once "
                                f"{path} is built on it:\n{why}")
        if variant not in edition.variants:
            raise RuleError([], f"{path} has no variant '{variant}' "
                                f"(it has: {', '.join(edition.variants) or 'none'})")
        return edition.variants[variant]
    return edition


class RuleError(Exception):
    """Rule files that cannot be compiled; ``diagnostics`` says why."""

    def __init__(self, diagnostics: list[Diagnostic], message: str | None = None):
        self.diagnostics = diagnostics
        super().__init__(message or "\n".join(d.render() for d in diagnostics))
