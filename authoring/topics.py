"""`kittens docs`: the guides installed with the package, read offline.

The pages in ``docs/`` are package data, so they are there wherever kittens is
installed (a virtual environment, pipx, a wheel), and the starter files that
`kittens new` writes point to them by topic (`kittens docs effects`) rather
than by a path that changes with the installation. The same files build the
static site (mkdocs.yml).
"""

from __future__ import annotations

import os
import re

from ..about import DOCS_DIR


class NoTopic(Exception):
    """A topic that no page has."""


def topics() -> dict[str, str]:
    """Topic name (the page's file name without .md) -> the page's title."""
    found = {}
    for name in sorted(os.listdir(DOCS_DIR)):
        if name.endswith(".md"):
            found[name[:-3]] = title(read(name[:-3]))
    return found


def title(text: str) -> str:
    match = re.search(r"^# (.+)$", text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def read(topic: str) -> str:
    """The Markdown of one topic; :class:`NoTopic` with the topics there are."""
    name = topic[:-3] if topic.endswith(".md") else topic
    path = os.path.join(DOCS_DIR, f"{name}.md")
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", name) or not os.path.isfile(path):
        from ..interpreter.lang.diagnostics import did_you_mean
        names = sorted(n[:-3] for n in os.listdir(DOCS_DIR) if n.endswith(".md"))
        raise NoTopic(f"no topic '{topic}'{did_you_mean(name, names)} (the topics: {', '.join(names)})")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def plain(text: str) -> str:
    """Markdown as plain text for a terminal without rich: comments and link targets out."""
    text = re.sub(r"<!--.*?-->\n?", "", text, flags=re.DOTALL)
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1", text)
    return text
