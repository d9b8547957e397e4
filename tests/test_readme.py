"""The README's Python example runs as written."""

import re

from conftest import ROOT


def test_the_python_examples_in_the_readme_run(capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README shows the Python API"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert capsys.readouterr().out.strip()
