"""A pytest plugin: scenario files are tests (registered as the `pytest11` entry point).

Installing kittens installs the plugin, but it collects nothing until a
repository says where its scenarios live, so other projects' test runs are
left alone. Say it in the pytest configuration (``pyproject.toml``)::

    [tool.pytest.ini_options]
    kittens_scenarios = ["scenarios", "house-rules"]

or on the command line (``pytest --kittens-scenarios scenarios``). Every file
below those folders whose ``kind`` is ``scenario`` (or that cannot be read,
so a broken scenario fails rather than vanishes) is then one test, named after
the file, and a failure reads as ``kittens test`` prints it: the step, its
file position, what was expected and what happened. Rule files beside the
scenarios (the house rule a scenario tests) are not tests and are skipped.
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import pytest

_KIND_LINE = re.compile(r"^kind:\s*['\"]?([A-Za-z_]+)", re.MULTILINE)
_SUFFIXES = (".yaml", ".yml")


def pytest_addoption(parser) -> None:
    parser.addini("kittens_scenarios", type="args", default=[],
                  help="kittens: folders (or files) whose scenario files are collected as tests, "
                       "relative to the configuration file.")
    group = parser.getgroup("kittens")
    group.addoption("--kittens-scenarios", action="append", default=[], metavar="PATH",
                    help="collect the scenario files below PATH as tests (repeatable; adds to the "
                         "kittens_scenarios setting).")


def _roots(config) -> list[Path]:
    base = Path(config.inipath).parent if config.inipath else Path(config.rootpath)
    named = [base / p for p in config.getini("kittens_scenarios")]
    named += [Path(p).resolve() for p in config.getoption("kittens_scenarios") or ()]
    return [Path(os.path.realpath(p)) for p in named]


def _is_scenario(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            match = _KIND_LINE.search(handle.read(64 * 1024))
    except OSError:
        return True
    return match is None or match.group(1) == "scenario"


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix not in _SUFFIXES:
        return None
    roots = parent.config.stash.get(_ROOTS, None)
    if roots is None:
        roots = parent.config.stash[_ROOTS] = _roots(parent.config)
    if not roots:
        return None
    real = Path(os.path.realpath(file_path))
    if not any(real == root or root in real.parents for root in roots):
        return None
    if not _is_scenario(file_path):
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


def pytest_collect_directory(path: Path, parent):
    """kittens' own checkout is its package folder, with an ``__init__.py`` at the top
    whose folder name (a clone's, a worktree's) need not be a valid module name: collect
    it as a plain folder rather than importing it as a test package."""
    from .about import PACKAGE_DIR

    if (path / "__init__.py").is_file() and os.path.realpath(path) == os.path.realpath(PACKAGE_DIR):
        return pytest.Dir.from_parent(parent, path=path)
    return None


_ROOTS = pytest.StashKey[list]()
_RUNNER = pytest.StashKey[object]()


def _runner(config):
    runner = config.stash.get(_RUNNER, None)
    if runner is None:  # one per session: each edition compiles once for all scenarios
        from .authoring.scenario import ScenarioRunner
        runner = config.stash[_RUNNER] = ScenarioRunner()
    return runner


class ScenarioFile(pytest.File):
    """A scenario file: one test."""

    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioDeprecation(DeprecationWarning):
    """A scenario passed using something deprecated (`kittens upgrade` rewrites it)."""


class ScenarioFailed(Exception):
    """A scenario did not come out as it says; the message is the scenario's own."""


class ScenarioItem(pytest.Item):
    """One scenario, run by kittens' scenario runner."""

    def runtest(self) -> None:
        outcome = _runner(self.config).run(str(self.path))
        for warning in outcome.warnings:  # deprecations: the scenario passes, and is told
            warnings.warn(warning, ScenarioDeprecation, stacklevel=1)
        if not outcome.passed:
            head = f"scenario {self.path.name}" + (f": {outcome.description}" if outcome.description else "")
            raise ScenarioFailed(f"{head}\n{outcome.message}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.name}"
