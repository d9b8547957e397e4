"""Quality gates: ruff over the whole tree, mypy over the rule language and the rules.

mypy needs the import name ``kittens``, and the repository root *is* that package
under whatever name the checkout has, so the check runs in a scratch folder
where a link named ``kittens`` leads to the root.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TYPED_PACKAGES = ("kittens.interpreter.lang", "kittens.interpreter.rules")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def linked(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("typed")
    os.symlink(ROOT, folder / "kittens")
    return folder


def test_mypy_finds_no_error_in_the_language_and_the_rules(linked):
    pytest.importorskip("mypy")
    args = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
            "--cache-dir", str(linked / ".mypy_cache")]
    for package in TYPED_PACKAGES:
        args += ["-p", package]
    done = _run(args, linked)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_would_catch_a_type_error_there(linked, tmp_path):
    """The gate can fail: the same run over a copy with one wrong annotation reports it."""
    pytest.importorskip("mypy")
    copy = tmp_path / "kittens"
    copy.mkdir()
    for name in ("__init__.py", "about.py"):
        (copy / name).write_text((ROOT / name).read_text())
    (copy / "interpreter").mkdir()
    (copy / "interpreter" / "__init__.py").write_text("")
    lang = copy / "interpreter" / "lang"
    lang.mkdir()
    (lang / "__init__.py").write_text("")
    (lang / "limits.py").write_text((ROOT / "interpreter" / "lang" / "limits.py").read_text()
                                    + "\n\ndef broken() -> int:\n    return 'not a number'\n")
    done = _run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                 "--cache-dir", str(tmp_path / ".mypy_cache"), "-m", "kittens.interpreter.lang.limits"],
                tmp_path)
    assert done.returncode != 0 and "limits.py" in done.stdout, done.stdout + done.stderr


def test_ruff_finds_nothing_in_the_whole_tree():
    pytest.importorskip("ruff")
    done = _run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_would_catch_unsorted_imports_and_an_unused_name(tmp_path):
    """The gate can fail: the repository's settings reject a file with both faults."""
    pytest.importorskip("ruff")
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nimport os\n\nprint(os.sep)\n")
    done = _run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
                 str(bad)], tmp_path)
    assert done.returncode != 0 and "I001" in done.stdout and "F401" in done.stdout, done.stdout
