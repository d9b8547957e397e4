"""Docs that travel: installed with the package, read offline with `kittens docs`, and
built into a static site (mkdocs, warnings as errors) from the same files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT

from kittens.about import DOCS_DIR
from kittens.cli import app
from kittens.commands.kit import run_app


def test_the_docs_are_installed_with_the_package_and_listed(capsys):
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    installed = sorted(p.stem for p in DOCS_DIR.glob("*.md"))
    assert installed == pages  # DOCS_DIR is the package's own folder, wherever it is installed
    assert run_app(app, ["docs", "--json"]) == 0
    topics = {t["topic"]: t["title"] for t in json.loads(capsys.readouterr().out)["topics"]}
    assert sorted(topics) == pages and topics["effects"] == "Effect primitives"
    assert run_app(app, ["docs"]) == 0
    assert "effects" in capsys.readouterr().out


def test_one_topic_reads_in_the_terminal(capsys):
    assert run_app(app, ["docs", "effects"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Effect primitives") and "choose_player" in out
    assert "<!--" not in out  # the generator's comment is not for readers
    assert run_app(app, ["docs", "efects"]) == 2
    assert "did you mean 'effects'?" in capsys.readouterr().err


def test_the_starter_files_point_to_the_installed_docs(tmp_path, capsys):
    assert run_app(app, ["new", "house-rule", "Mine", "--dir", str(tmp_path)]) == 0
    assert run_app(app, ["new", "expansion", "Theirs", "--dir", str(tmp_path)]) == 0
    texts = [p.read_text() for p in tmp_path.rglob("*.yaml")]
    mentioned = {word for text in texts for word in ("kittens docs house-rules", "kittens docs scenarios",
                                                     "kittens docs effects") if word in text}
    assert mentioned == {"kittens docs house-rules", "kittens docs scenarios", "kittens docs effects"}
    assert not any("docs/" in text for text in texts)  # no path into a checkout or site-packages


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is in kittens-engine[test]")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(site)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "effects/index.html", "tools/index.html", "format/index.html"):
        assert (site / page).is_file(), page
    assert "Effect primitives" in (site / "effects" / "index.html").read_text(encoding="utf-8")


def test_every_guide_is_in_the_sites_menu():
    """A guide added to docs/ is reachable from the site's menu, not only by its address
    (mkdocs --strict does not count a page left out of the nav as an error)."""
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    listed = {page for entry in nav for page in entry.values()}
    assert listed == {p.name for p in (ROOT / "docs").glob("*.md")}
