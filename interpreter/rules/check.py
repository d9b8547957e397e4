"""`kittens validate` as a library call: paths in, diagnostics out."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..lang.diagnostics import ERROR, WARNING, Diagnostic
from .edition import compile_edition
from .library import load_library
from .load import UsageError, expand
from .model import Edition
from .workspace import ALLOW_OUTSIDE_ENV, Workspace


@dataclass
class Report:
    files: list[str]
    diagnostics: list[Diagnostic]
    #: (path, line, column, code, message) of a finding -> the file named for checking whose
    #: check found it (a finding in an extended, shipped edition has a cause in the repository)
    causes: dict = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(d.is_error for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return len(self.diagnostics) - self.errors


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
            kind = _kind_of(found)
            if kind is None or kind == "scenario":
                files.append(found)
    if not files:
        raise UsageError(f"no scenario files in {', '.join(paths)}")
    return files


def _kind_of(path: str) -> str | None:
    """The `kind` a file declares near its top, or None when it cannot be read."""
    if not os.path.isfile(path):  # a fifo or device would block the read: leave it to ws.load
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            match = _KIND_LINE.search(handle.read(64 * 1024))
    except OSError:
        return None
    return match.group(1) if match else None


def checking_order(files: list[str]) -> list[str]:
    """``files`` with the scenarios last. A finding is told on the first checked file that
    reaches it (``Report.causes``); a house rule checked before the scenarios that play it
    is then named for its own findings, rather than whichever scenario sorts first."""
    scenarios = [path for path in files if _kind_of(path) == "scenario"]
    last = set(scenarios)
    return [path for path in files if path not in last] + scenarios


def validate_paths(paths: list[str], *, allow_outside: bool | None = None) -> Report:
    """Check every rule file under ``paths``; never raises for bad file content.

    ``allow_outside``: let references leave the rule folders (default: what the
    environment says, see :mod:`workspace`)."""
    left_out: list[str] = []
    files = expand(paths, allow_outside=allow_outside, outside=left_out)
    ws = Workspace(allow_outside=allow_outside)
    for link in left_out:  # the outside file is not read: its lines are not ours to print
        ws.report(Diagnostic(path=os.path.normpath(link), line=1, column=1, severity=ERROR, code="outside-project",
                             message=f"this is a link to {os.path.realpath(link)}, outside the folders "
                             "checked (the project, the kittens package and installed expansions), "
                             "and kittens reads no file there: copy the file into the project, or "
                             f"if you trust it, run with --allow-outside (or set {ALLOW_OUTSIDE_ENV}=1)"))
    causes = {}
    for path in checking_order(files):
        before = ws.snapshot()
        check_file(ws, path)
        causes.update(dict.fromkeys(ws.snapshot().keys() - before.keys(), path))
    return Report(files, ws.diagnostics, causes)


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
        from .scenario_check import check_layout, check_scenario
        edition = check_scenario(ws, doc)
        if edition is not None:
            check_layout(ws, doc, edition)


def _text_mismatches(ws: Workspace, edition: Edition) -> None:
    """Warn where a card's text and effect disagree on a number (see rulesheet.py).

    The warning points at the words of the text that say the number, in the change that
    made them disagree when there is one: the card's last patch, or a parameter it reads
    that another file set. A variant that inherits the disagreement is not told again."""
    from ..lang import syntax
    from .textcheck import number_mismatches

    told = set()
    for view in [edition, *edition.variants.values()]:
        for finding in number_mismatches(view):
            record = view.cards.get(finding.card_id) or next(
                (combo for combo in view.combos if combo.id == finding.card_id), None)
            where = finding.origin
            changed = getattr(record, "changed_at", ())  # a card's patches (a combo has none)
            if changed:
                where = changed[-1]
            else:
                trees = [getattr(record, name, None) for name in ("effect", "on_draw", "requires")]
                for node in syntax.walk(tuple(t for t in trees if t is not None)):
                    origin = view.origins.get(f"params.{getattr(node, 'name', '')}") \
                        if isinstance(node, syntax.RuleRef) else None
                    if origin is not None and origin.path != finding.origin.path:
                        where = origin
                        break
            if (finding.card_id, finding.message, where) in told:
                continue
            told.add((finding.card_id, finding.message, where))
            if where is finding.origin or where in changed:
                where = _words_in_text(where, finding.card_id, finding.message) or where
            suffix = f" (variant '{view.variant}')" if view.variant else ""
            ws.report(Diagnostic(path=where.path, line=where.line, column=where.column or 1, severity=WARNING,
                                 code="text-mismatch",
                                 message=f"'{finding.card_id}'{suffix}: {finding.message}: make the text and "
                                 "the effect agree (`patch_cards` can change the text)",
                                 source_line=_source_line(where)))


def _words_in_text(where, card_id: str, message: str):
    """Where the text of ``card_id`` defined (or patched) at ``where`` says the words a
    text-mismatch quotes (“top three”): an Origin with their line and column, or None."""
    from ..lang.loader import load_file
    from .model import Origin

    quoted = re.search(r"“([^”]+)”", message)
    doc, _problems = load_file(where.path)
    if doc is None or quoted is None:
        return None
    texts = [path for path in doc.marks if path and path[-1] == "text" and len(path) >= 2
             and (path[-2] == card_id or _id_at(doc, path[:-1]) == card_id)]
    after = [path for path in texts if doc.marks[path].line >= where.line] or texts
    if not after:
        return None
    path = min(after, key=lambda p: doc.marks[p].line)
    value = doc.value_at(path)
    found = re.search(r"\s+".join(map(re.escape, quoted.group(1).split())), value or "", re.IGNORECASE)
    mark = doc.offset_mark(path, found.start() if found else 0)
    return Origin(where.path, mark.line, mark.column)


def _id_at(doc, path: tuple):
    node = doc.value_at(path)
    return node.get("id") if isinstance(node, dict) else None


def _large_values(ws: Workspace, edition: Edition) -> None:
    """Warn at a rule or parameter set beyond the numbers effects may use (see cost.py)."""
    from ..lang.cost import MAY_OVERFLOW, value_findings

    for where, message in value_findings(edition):
        ws.report(Diagnostic(path=where.path, line=where.line, column=where.column or 1, severity=WARNING,
                             code=MAY_OVERFLOW,
                             message=message, source_line=_source_line(where)))


def _source_line(origin) -> str:
    try:
        with open(origin.path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        return lines[origin.line - 1] if 0 < origin.line <= len(lines) else ""
    except OSError:
        return ""
