"""The golden corpus: every file in tests/broken/ is wrong in a known way.

Each top-level ``tests/broken/*.yaml`` file starts with comment lines that say
exactly which diagnostics the validator must report for it::

    # expect: CODE LINE:COL
    # expect: CODE LINE:COL in support/OTHER.yaml

LINE and COL are 1-based positions in the file itself, or (with ``in``) in a
helper file it includes, relative to the broken file's folder. The positions
were decided by hand (where the mistake is), not copied from the validator.
Files in ``tests/broken/support/`` are helpers that are not broken on their
own; they carry no expectations and are only validated through the files
that include them.

Every file is validated on its own. The diagnostics reported for that file
(and for the helper files its header names) must match its expectations
exactly: nothing missing, nothing extra. Diagnostics in other included files,
such as the shipped rulebook, must not appear at all.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.lang.diagnostics import CODES
from kittens.interpreter.rules.check import Report, validate_paths

BROKEN = Path(__file__).parent / "broken"
SUPPORT = BROKEN / "support"
FILES = sorted(BROKEN.glob("*.yaml"))

#: codes that no committed file can produce; they have unit tests of their own
UNCOMMITTABLE = {"io-error", "file-too-large"}
#: codes reported as warnings: a file expecting only these exits with status 0
WARNING_CODES = {"unused-value", "unplayable-card", "schema-modeline", "text-mismatch", "not-in-deck",
                 "dead-card", "may-overflow", "too-much-work", "shadows-primitive", "card-not-loaded",
                 "patches-replaced-card"}

_EXPECT = re.compile(r"#\s*expect:\s*(?P<code>\S+)\s+(?P<line>\d+):(?P<column>\d+)"
                     r"(?:\s+in\s+(?P<other>\S+))?\s*")


@dataclass(frozen=True, order=True)
class Expected:
    path: str  # normalised, as the validator reports it
    code: str
    line: int
    column: int

    def show(self, base: Path) -> str:
        return f"{os.path.relpath(self.path, base)}:{self.line}:{self.column}: [{self.code}]"


def _key(path) -> str:
    return os.path.normpath(str(path))


def header_lines(path: Path) -> list[str]:
    """The leading comment block (the file may not be valid UTF-8, on purpose)."""
    text = path.read_bytes().decode("utf-8", errors="replace").lstrip("\ufeff")
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        lines.append(stripped)
    return lines


def expectations(path: Path) -> set[Expected]:
    found = set()
    for line in header_lines(path):
        if not re.match(r"#\s*expect\b", line):
            continue
        match = _EXPECT.fullmatch(line)
        assert match, f"{path.name}: malformed expectation {line!r}"
        where = path if match["other"] is None else path.parent / match["other"]
        found.add(Expected(_key(where), match["code"], int(match["line"]), int(match["column"])))
    return found


@lru_cache(maxsize=None)
def report_for(path: str) -> Report:
    return validate_paths([path])


def _ids(paths):
    return [p.name for p in paths]


def test_corpus_is_there():
    assert len(FILES) >= 40, f"only {len(FILES)} files in {BROKEN}"


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_file_reports_exactly_what_its_header_says(path: Path):
    expected = expectations(path)
    assert expected, f"{path.name} has no `# expect:` header"
    unknown = sorted(e.code for e in expected if e.code not in CODES)
    assert not unknown, f"{path.name} expects codes that do not exist: {unknown}"

    report = report_for(str(path))
    watched = {_key(path)} | {e.path for e in expected}
    ours = [d for d in report.diagnostics if d.path in watched]
    actual = {Expected(d.path, d.code, d.line, d.column) for d in ours}
    # shipped or helper files that the header does not name must stay clean
    strays = [d for d in report.diagnostics if d.path not in watched]

    if actual != expected or strays:
        lines = [f"{path.name}: the validator disagrees with the expectations", "expected:"]
        lines += [f"  {e.show(BROKEN)}" for e in sorted(expected)]
        lines.append("actual:")
        lines += [f"  {d.render()}".replace("\n", "\n  ") for d in ours] or ["  (nothing)"]
        if missing := sorted(expected - actual):
            lines.append("missing: " + ", ".join(e.show(BROKEN) for e in missing))
        if extra := sorted(actual - expected):
            lines.append("unexpected: " + ", ".join(e.show(BROKEN) for e in extra))
        if strays:
            lines.append("in files the header does not name:")
            lines += [f"  {d.render()}".replace("\n", "\n  ") for d in strays]
        pytest.fail("\n".join(lines), pytrace=False)


def test_every_code_has_a_corpus_file():
    covered = set()
    for path in FILES:
        covered |= {e.code for e in expectations(path)}
    missing = sorted(set(CODES) - UNCOMMITTABLE - covered)
    assert not missing, f"no file in {BROKEN.name}/ expects these codes: {missing}"


def test_support_files_expect_nothing():
    for path in sorted(SUPPORT.glob("*.yaml")):
        assert not any(re.match(r"#\s*expect\b", line) for line in header_lines(path)), (
            f"support/{path.name} is a helper: move its expectations to the file that includes it")


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_cli_exit_status_and_no_traceback(path: Path):
    codes = {e.code for e in expectations(path)}
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"the CLI raised {result.exception!r} on {path.name}")
    wanted = 1 if codes - WARNING_CODES else 0
    assert result.exit_code == wanted, (
        f"{path.name}: exit status {result.exit_code}, expected {wanted}\n{result.output}")
