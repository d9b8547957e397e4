"""kittens as it is published: the sdist and a wheel built by the PyPA front end, a
wheel built without a C compiler being pure (py3-none-any), and that wheel installed
into a fresh virtual environment, where `kittens validate` and `kittens run` work and
kittens says once that its compiled core is missing.

Only the pure wheel is built here (a few seconds, no compiling); the compiled core's
install is what CI's `pip install '.[test]'` does, and tests/test_compiled_core.py
checks it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

from kittens.about import DISTRIBUTION, __version__

pytest.importorskip("build", reason="the build front end is in kittens-engine[test]")


def source_copy(tmp_path: Path) -> Path:
    """The checkout's files, as git knows them, away from the checkout (a build writes
    egg-info and build/ where it runs)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    copy = tmp_path / "source"
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, copy / name)
    return copy


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    """The sdist and, built from it as `python -m build` does, a wheel made where the C
    compiler fails on everything (the build's own environment, for speed: no downloads)."""
    tmp = tmp_path_factory.mktemp("packaging")
    source, out = source_copy(tmp), tmp / "dist"
    env = {**os.environ, "CC": "/bin/false", "CXX": "/bin/false"}
    env.pop("KITTENS_PURE_PYTHON", None)
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return {"log": done.stdout + done.stderr, "sdists": sorted(out.glob("*.tar.gz")),
            "wheels": sorted(out.glob("*.whl")), "tmp": tmp}


def test_the_distribution_is_ours_and_its_version_has_one_source():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION == "kittens-engine"
    assert "version" not in project and "version" in project["dynamic"]
    assert project["scripts"] == {"kittens": "kittens.cli:main"}
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(__version__)}\b", changelog, re.M), "CHANGELOG.md has no entry for " \
        f"{__version__}"


def test_the_package_list_names_every_package_of_the_checkout():
    """The root is the `kittens` package, which setuptools cannot discover on its own
    (it would find `interpreter` and `lab` as packages of their own), so pyproject.toml
    lists the packages: a package added to the checkout and not to that list would be
    missing from every wheel while the tests, run from the checkout, still pass."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "*__init__.py"], capture_output=True, text=True,
                            check=True).stdout.split()
    folders = sorted(str(Path(name).parent) for name in listed if not name.startswith(("examples/", "tests/")))
    on_disk = {"kittens" if folder == "." else "kittens." + folder.replace("/", ".") for folder in folders}
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    assert sorted(declared) == sorted(on_disk), "add the missing packages to [tool.setuptools] packages"


def test_no_install_hint_names_the_other_kittens():
    """An install hint naming the bare distribution `kittens` (with or without an
    extra) would install the index's unrelated kittens: every hint, in code, docs,
    templates and tests, names kittens-engine."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    wrong = re.compile(r"(?<![\w-])kittens\[(lab|cluster|rl|web|print|lsp|test)|pipx? install '?kittens(?![\w-])")
    found = []
    for name in filter(None, listed.decode().split("\0")):
        path = ROOT / name
        if path.suffix in (".py", ".md", ".toml", ".yaml", ".yml", ".txt", ".cfg", ".html", ".js") and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")  # a test corpus holds non-UTF-8 files
            found += [f"{name}: {m.group(0)}" for m in wrong.finditer(text)]
    assert found == []


def test_the_sdist_and_the_wheel_name_the_distribution_and_version(built):
    assert [p.name for p in built["sdists"]] == [f"kittens_engine-{__version__}.tar.gz"]
    with tarfile.open(built["sdists"][0]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    # what a wheel is built from: the build script, the declarations the compiled core
    # needs, the rule files, the docs the package installs, and the changelog
    for needed in ("setup.py", "pyproject.toml", "interpreter/engine/table.pxd", "editions/original.yaml",
                   "rulebook/original.yaml", "schema/edition.schema.json", "docs/format.md", "CHANGELOG.md"):
        assert needed in names, needed
    with zipfile.ZipFile(built["wheels"][0]) as wheel:
        metadata = wheel.read(f"kittens_engine-{__version__}.dist-info/METADATA").decode()
    assert f"\nName: {DISTRIBUTION}\n" in metadata and f"\nVersion: {__version__}\n" in metadata


def test_a_wheel_built_without_a_compiler_is_pure(built):
    assert "could not compile the engine: no working C compiler was found" in built["log"]
    assert [p.name for p in built["wheels"]] == [f"kittens_engine-{__version__}-py3-none-any.whl"]
    with zipfile.ZipFile(built["wheels"][0]) as wheel:
        tags = wheel.read(f"kittens_engine-{__version__}.dist-info/WHEEL").decode()
        names = wheel.namelist()
        note = json.loads(wheel.read("kittens/_core_build.json"))
    assert "Root-Is-Purelib: true" in tags and "Tag: py3-none-any" in tags
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
    assert note["core"] == "fallback" and note["why"] == "no working C compiler was found"


def fresh_venv(where: Path, wheel: Path, env: dict) -> tuple[Path, Path]:
    """A new virtual environment with ``wheel`` installed (python, its scripts folder).
    It gets no pip and no index: the wheel goes in with this interpreter's pip, and
    only then are the dependencies read from this environment's site-packages, listed
    in a .pth file after the venv's own (before, pip would find the kittens installed
    here and install nothing). A .pth line only adds a folder: the .pth files there,
    an editable kittens among them, are not run."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    scripts = where / ("Scripts" if os.name == "nt" else "bin")
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                          "--no-index", str(wheel)], capture_output=True, text=True, env=env, timeout=300)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert (Path(site) / "kittens" / "about.py").is_file(), "the wheel went elsewhere"
    ours = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    Path(site, "dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    return python, scripts


def test_the_pure_wheel_installs_and_plays_in_a_fresh_venv(built):
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "KITTENS_PURE_PYTHON", "VIRTUAL_ENV")}
    env.update(CC="/bin/false", CXX="/bin/false")  # nothing may need a compiler from here on
    python, scripts = fresh_venv(built["tmp"] / "venv", built["wheels"][0], env)
    kittens = str(scripts / "kittens")

    def run(*args, **extra):
        return subprocess.run([kittens, *args], capture_output=True, text=True, env={**env, **extra},
                              timeout=300, cwd=built["tmp"])

    where = subprocess.run([str(python), "-c", "import kittens; print(kittens.__file__)"], capture_output=True,
                           text=True, env=env, check=True).stdout.strip()
    assert Path(where).resolve().is_relative_to((built["tmp"] / "venv").resolve()), where
    shown = run("--version")
    assert shown.returncode == 0 and shown.stdout.startswith(f"kittens {__version__} ({DISTRIBUTION}, ")
    assert "python engine core: the install could not compile it" in shown.stdout

    shipped = Path(where).parent / "editions" / "original.yaml"
    checked = run("validate", str(shipped))
    assert checked.returncode == 0 and "0 errors" in checked.stdout, checked.stdout + checked.stderr
    played = run("run", "original", "-p", "4", "-g", "5", "--json")
    assert played.returncode == 0, played.stdout + played.stderr
    assert json.loads(played.stdout)["games"] == 5  # the warning stays off standard output
    # said once, on stderr, with what to do about it
    assert played.stderr.count("the engine runs as pure Python here") == 1, played.stderr
    assert f"--no-binary {DISTRIBUTION}" in played.stderr and "no working C compiler was found" in played.stderr
    quiet = run("run", "original", "-p", "4", "-g", "2", KITTENS_PURE_PYTHON="1")
    assert quiet.returncode == 0 and "pure Python" not in quiet.stderr, quiet.stderr


def _git(where, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, check=True,
                          env=env).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_a_copy_made_by_git_archive_names_the_commit_it_was_made_from(tmp_path):
    # a compiled build for a benchmark is made this way (git archive | tar -x), and its results
    # must name the engine's commit, not the checkout the benchmark script ran from
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD", "about.py"],
                             capture_output=True, check=True).stdout
    (tmp_path / "copy.tar").write_bytes(archive)
    with tarfile.open(tmp_path / "copy.tar") as tar:
        tar.extractall(tmp_path, filter="data")
    text = (tmp_path / "about.py").read_text()
    written = re.search(r'^_ARCHIVED_COMMIT = "([^"]*)"', text, re.M)
    assert written and written.group(1) == _git(ROOT, "rev-parse", "--short", "HEAD")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_source_commit_is_the_archives_or_the_checkouts_and_none_elsewhere(tmp_path):
    from kittens.about import source_commit

    assert source_commit("abc1234") == "abc1234"  # written in by git archive
    checkout, elsewhere = tmp_path / "checkout", tmp_path / "elsewhere"
    (checkout / "inner").mkdir(parents=True)
    elsewhere.mkdir()
    _git(checkout, "init", "-q")
    (checkout / "about.py").write_text("")
    _git(checkout, "add", "about.py")
    _git(checkout, "commit", "-q", "-m", "a commit")
    placeholder = "$" + "Format:%h$"  # as it stays in a copy that git archive did not make
    assert source_commit(placeholder, checkout) == _git(checkout, "rev-parse", "--short", "HEAD")
    assert source_commit(placeholder, checkout / "inner") is None  # inside someone else's repository
    assert source_commit(placeholder, elsewhere) is None  # an installed copy
