"""The pre-commit hooks, run by the real `pre-commit` on a scratch git repository that
holds a house rule and its scenario, as a designer's repository would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")


# A hook's environment is kittens installed by pre-commit (on first use, by `pre-commit run`
# or by the `git commit` that runs the hooks): in pure Python, since the hooks are under
# test here, not the compiled core, whose build took minutes on a slow day (a `git commit`
# that installed it timed out at 120 s); and with the time an install may take.
_HOOK_ENV = {"KITTENS_PURE_PYTHON": "1"}


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org", **_HOOK_ENV)
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, env=env, timeout=900)


def _pre_commit(folder: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), **_HOOK_ENV)
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=folder, capture_output=True,
                          text=True, env=env, timeout=900)


def test_the_hooks_pass_a_good_house_rule_and_stop_a_broken_one(tmp_path):
    pytest.importorskip("pre_commit", reason="pre-commit is in kittens-engine[test]")
    head = _git(ROOT, "rev-parse", "HEAD")
    if head.returncode != 0:
        pytest.skip("the kittens checkout is not a git repository, so pre-commit cannot fetch its hooks")
    if _git(ROOT, "cat-file", "-e", "HEAD:.pre-commit-hooks.yaml").returncode != 0:
        pytest.skip(".pre-commit-hooks.yaml is not committed yet")
    repo = tmp_path / "house-rules"
    repo.mkdir()
    assert _git(repo, "init", "-q").returncode == 0
    made = subprocess.run([sys.executable, "-m", "kittens", "new", "house-rule", "Short Hands"],
                          cwd=repo, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {ROOT}\n"
        f"    rev: {head.stdout.strip()}\n"
        "    hooks:\n      - id: kittens-validate\n      - id: kittens-test\n")
    _git(repo, "add", "-A")
    home = tmp_path / "pre-commit-home"
    good = _pre_commit(repo, home, "run", "--all-files")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "kittens validate" in good.stdout and "kittens test" in good.stdout
    assert good.stdout.count("Passed") == 2, good.stdout

    # a misspelt card: the commit is refused, with the validator's own finding
    rule = repo / "short_hands.yaml"
    rule.write_text(rule.read_text().replace("extends: original",
                                             "extends: original\nset_counts: {nop: 7}"))
    assert _pre_commit(repo, home, "install").returncode == 0
    _git(repo, "add", "-A")
    committed = _git(repo, "commit", "-q", "-m", "more nopes")
    assert committed.returncode != 0
    output = committed.stdout + committed.stderr
    assert "short_hands.yaml" in output, output
    assert "[nothing-to-change]" in output or "[unknown-card]" in output, output
    assert "Failed" in output
