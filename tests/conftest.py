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


# -- scenario files: every tests/scenarios/**/*.yaml is a test ------------------
from kittens.interpreter.tools.scenario import ScenarioRunner  # noqa: E402

_RUNNER = ScenarioRunner()


def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def runtest(self):
        outcome = _RUNNER.run(str(self.path))
        if not outcome.passed:
            raise ScenarioFailed(outcome.message)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.name}"
