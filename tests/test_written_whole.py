"""Files a person asks for are written whole and with the mode any other tool gives them.

Issue 41: the rulesheet, the print-and-play PDF and the lab's reports were written
through a temporary file made with ``mkstemp``, readable by its owner alone, and
renamed as it was: mode 0600 under umask 022. Every writer now goes through
``lang/files.py``: 0666 less the umask for a new file, the old mode for a file
replaced, and still one rename (never half a file, and the old file kept on an error).
"""

from __future__ import annotations

import contextlib
import os
import stat

import pytest
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.lang.files import TEMPORARY_PREFIX, current_umask, written_whole

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOUSE_RULE = os.path.join(ROOT, "examples", "house-rules", "attack_three.yaml")


@contextlib.contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _rules(out):
    return ["rules", HOUSE_RULE, "--format", "html", "-o", str(out)]


def _print(out):
    pytest.importorskip("fpdf")
    return ["print", HOUSE_RULE, "-o", str(out)]


def _simulate(out):
    pytest.importorskip("matplotlib")
    return ["simulate", "original", "-g", "4", "-j", "1", "--report", str(out)]


def _schema(out):
    return ["schema", "--write", str(out.parent)]


@pytest.mark.parametrize("command, name", [
    (_rules, "sheet.html"), (_print, "cards.pdf"), (_simulate, "report.html"),
    (_schema, "edition.schema.json")])
@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_new_file_gets_what_the_umask_allows(tmp_path, command, name, mask, expected):
    out = tmp_path / name
    args = command(out)
    with umask(mask):
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert _mode(out) == expected, oct(_mode(out))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(TEMPORARY_PREFIX)] == []


def test_a_file_replaced_keeps_its_mode(tmp_path):
    out = tmp_path / "sheet.html"
    out.write_text("old")
    os.chmod(out, 0o640)
    with umask(0o022):
        result = CliRunner().invoke(app, _rules(out))
    assert result.exit_code == 0, result.output
    assert _mode(out) == 0o640 and "<html" in out.read_text(encoding="utf-8").lower()


def test_an_error_while_writing_leaves_the_old_file_and_no_temporary(tmp_path):
    out = tmp_path / "kept.txt"
    out.write_text("the old text")
    with pytest.raises(RuntimeError):
        with written_whole(str(out)) as handle:
            handle.write("half of the new")
            raise RuntimeError("the renderer broke down")
    assert out.read_text() == "the old text"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]
    with written_whole(str(out), binary=True) as handle:
        handle.write(b"new")
        assert out.read_text() == "the old text"  # nothing shows until the block ends
    assert out.read_bytes() == b"new"


def test_the_umask_is_read_without_changing_it():
    with umask(0o027):
        assert current_umask() == 0o027
        assert os.umask(0o027) == 0o027
