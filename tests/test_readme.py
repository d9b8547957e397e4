"""The README's Python examples, and those of the tour in depth it links to
(docs/guide.md, where the longer ones moved), run as written."""

import re

import pytest
from conftest import ROOT


@pytest.mark.parametrize("page", ["README.md", "docs/guide.md"])
def test_the_python_examples_run(capsys, page):
    text = (ROOT / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, f"{page} shows the Python API"
    for block in blocks:
        exec(compile(block, page, "exec"), {})
    assert capsys.readouterr().out.strip()


def test_the_readme_starts_with_the_two_lines_and_stays_short():
    """The README opens with the two set-up lines (the first installs and plays, the
    second installs the tests into the same venv and runs them, as CI does), says
    what they cost, and leaves the long references to docs/."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.match(r"# kittens\n\n```sh\n(.*?)```", text, re.S)
    assert first, "README.md starts with the set-up commands"
    install, tests = first.group(1).strip().splitlines()
    assert "python3 -m venv .venv" in install and "pip install ." in install and "kittens run" in install
    assert "python3 -m venv .venv" in tests and "pip install '.[test]'" in tests and tests.endswith("&& pytest")
    assert "pip install -q '.[test]' && pytest" in (ROOT / ".ci" / "run").read_text()  # CI runs that line
    for line in ("first", "second, install", "second, `pytest`"):  # what each line costs
        assert re.search(rf"^\| {re.escape(line)} \|.*\| [\d.]+ min \|$", text, re.M), line
    assert len(text.splitlines()) < 200, "the README is an entrance: references go to docs/"
    links = re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)", text)
    assert "docs/install.md" in links and "docs/speed.md" in links
    assert [link for link in links if not (ROOT / link).is_file()] == []
    assert "kittens-engine" in text
