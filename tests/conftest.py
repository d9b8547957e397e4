"""Shared paths for the test suite (the checkout, its shipped rule files)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def write(tmp_path):
    """Write a rule file into tmp_path and return its path as a string."""

    def _write(name: str, text: str) -> str:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return str(path)

    return _write

# Scenario files (tests/scenarios/**) are collected by kittens' own pytest plugin
# (kittens/pytest_plugin.py, the `pytest11` entry point), as in a designer's repository:
# pyproject.toml's `kittens_scenarios` says where they are.
