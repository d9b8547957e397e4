"""Shell completion for `kittens`: edition names, variants, bots and expansions.

Typer calls these while a shell completes a word (`kittens --install-completion`
sets the shell up). They must be quick and must never fail: a completion that
raises would print a traceback into the person's prompt, so each one gives
nothing rather than an error.
"""

from __future__ import annotations

import os

import typer

from ..about import EDITIONS_DIR


def _shipped(kind: str | None = None) -> list[str]:
    """Names of the shipped rule files, optionally only those of one kind."""
    names = []
    for name in sorted(os.listdir(EDITIONS_DIR)):
        if not name.endswith(".yaml"):
            continue
        if kind is not None:
            with open(EDITIONS_DIR / name, encoding="utf-8") as handle:
                if f"kind: {kind}" not in handle.read(4096):
                    continue
        names.append(name[:-5])
    return names


def _files(incomplete: str) -> list[str]:
    folder, _sep, stem = incomplete.rpartition("/")
    try:
        entries = os.listdir(folder or ".")
    except OSError:
        return []
    found = []
    for entry in sorted(entries):
        path = f"{folder}/{entry}" if folder else entry
        if entry.startswith(stem) and not entry.startswith("."):
            if entry.endswith((".yaml", ".yml")):
                found.append(path)
            elif os.path.isdir(path):
                found.append(path + "/")
    return found


def editions(incomplete: str = "") -> list[str]:
    """Shipped editions and expansions by name, and rule files below the working folder."""
    try:
        names = [n for n in _shipped() if n.startswith(incomplete)]
        return names + _files(incomplete)
    except OSError:
        return []


def expansions(incomplete: str = "") -> list[str]:
    """Shipped and installed expansions by name, and rule files or folders."""
    try:
        names = _shipped("expansion")
        from ..interpreter.rules.plugins import installed
        names += [item.name for item in installed() if item.path]
        return [n for n in dict.fromkeys(names) if n.startswith(incomplete)] + _files(incomplete)
    except Exception:  # noqa: BLE001 - a completion never fails
        return []


def bots(incomplete: str = "") -> list[str]:
    """Bot names; in a comma-separated list, the last name is completed."""
    from ..interpreter.engine.players import builtin_bots

    head, _comma, last = incomplete.rpartition(",")
    prefix = head + "," if head else ""
    return [prefix + name for name in builtin_bots() if name.startswith(last)]


def _named_edition(ctx) -> str | None:
    """The edition named earlier on the command line. The context's parameters have it
    when click parsed it; otherwise the words the shell passed are searched for the
    first that is a shipped edition's name or a rule file."""
    params = getattr(ctx, "params", None) or {}
    if params.get("edition") or params.get("second"):
        return params.get("edition") or params.get("second")
    if params.get("rulesets"):  # compare: the baseline's variants (RULES@VARIANT names its own)
        return str(params["rulesets"][0]).split("@", 1)[0].split("+", 1)[0]
    import shlex

    words = os.environ.get("_TYPER_COMPLETE_ARGS") or os.environ.get("COMP_WORDS") or ""
    try:
        words = shlex.split(words)
    except ValueError:
        words = words.split()
    shipped = set(_shipped())
    for word in words[2:]:
        if not os.path.isfile(word):  # compare's RULES@VARIANT and RULES+EXPANSION
            word = word.split("@", 1)[0].split("+", 1)[0]
        if word in shipped or (word.endswith((".yaml", ".yml")) and os.path.isfile(word)):
            return word
    return None


def variants(ctx: typer.Context, incomplete: str = "") -> list[str]:
    """The variants of the edition named earlier on the command line."""
    edition = _named_edition(ctx)
    if not edition:
        return []
    try:
        from ..interpreter.rules.load import load_edition
        names = list(load_edition(edition).variants)
    except Exception:  # noqa: BLE001 - a broken file completes nothing
        return []
    return [name for name in names if name.startswith(incomplete)]


def topics(incomplete: str = "") -> list[str]:
    """The guides `kittens docs` can show."""
    try:
        from ..authoring.topics import topics as found
        return [name for name in found() if name.startswith(incomplete)]
    except Exception:  # noqa: BLE001 - a completion never fails
        return []


def schema_kinds(incomplete: str = "") -> list[str]:
    """The kinds `kittens schema` can print."""
    from ..authoring.schemas_out import KINDS

    return [kind for kind in KINDS if kind.startswith(incomplete)]


def rule_files(incomplete: str = "") -> list[str]:
    """Rule files and folders below the working folder (what `kittens serve` offers)."""
    try:
        return _files(incomplete)
    except OSError:
        return []
