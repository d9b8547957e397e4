"""Which rules a lab run plays, said in a form any process can load again.

A :class:`Ruleset` is plain data (picklable, JSON-able): the edition file or
shipped name, a variant, expansions, and changes (``set_params``,
``set_counts``) that a sweep makes. Loading one with changes composes a small
house rule that extends the edition, held in memory (no file is written), so
the changes go through the same composition and checks as a house rule a
person writes: a count the setup cannot deal is refused with the usual
diagnostics.

On the command line a ruleset is ``RULES[+EXPANSION...][@VARIANT]``, e.g.
``original``, ``original@older_printing``, ``original+imploding@two_player``,
``my_house_rule.yaml`` (a path that exists is always taken whole).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import yaml

from ..interpreter.rules.edition import compile_edition
from ..interpreter.rules.load import (
    RuleError,
    UsageError,
    load_edition,
    locate_expansions,
    locate_rules,
    select_variant,
)
from ..interpreter.rules.workspace import Workspace

CHANGE_KEYS = ("set_params", "set_counts")


@dataclass(frozen=True)
class Ruleset:
    """An edition, a variant, expansions and changes: what one arm of a lab run plays."""

    rules: str
    variant: str | None = None
    expansions: tuple = ()
    changes: tuple = field(default=())  # ((key, name, value), ...), key in CHANGE_KEYS

    @property
    def label(self) -> str:
        """How people name it: as they wrote it, with the changes after a colon."""
        text = self.rules + "".join(f"+{e}" for e in self.expansions)
        if self.variant:
            text += f"@{self.variant}"
        if self.changes:
            text += " " + ", ".join(f"{name}={value}" for _key, name, value in self.changes)
        return text

    def with_change(self, key: str, name: str, value) -> "Ruleset":
        if key not in CHANGE_KEYS:
            raise ValueError(f"unknown change {key}")
        kept = tuple(c for c in self.changes if c[:2] != (key, name))
        return Ruleset(self.rules, self.variant, self.expansions, kept + ((key, name, value),))

    def to_dict(self) -> dict:
        return {"rules": self.rules, "variant": self.variant, "expansions": list(self.expansions),
                "changes": [list(change) for change in self.changes], "label": self.label}

    @classmethod
    def from_dict(cls, data: dict) -> "Ruleset":
        return cls(data["rules"], data.get("variant"), tuple(data.get("expansions", ())),
                   tuple(tuple(change) for change in data.get("changes", ())))


def parse_ruleset(text: str, variant: str | None = None, expansions=()) -> Ruleset:
    """``RULES[+EXPANSION...][@VARIANT]`` as a Ruleset; a path that exists is taken whole.
    ``variant`` and ``expansions`` (the command's options) apply where the text names none."""
    if os.path.exists(text):
        return Ruleset(text, variant, tuple(expansions or ()))
    rules, at, named_variant = text.partition("@")
    parts = [part for part in rules.split("+")]
    if not parts[0] or (at and not named_variant) or any(not part for part in parts):
        raise UsageError(f"'{text}' is not a ruleset: write RULES[+EXPANSION...][@VARIANT], "
                         "e.g. original+imploding@two_player")
    return Ruleset(parts[0], named_variant or variant, tuple(parts[1:]) or tuple(expansions or ()))


def load_ruleset(ruleset: Ruleset):
    """Compile a ruleset (a compiled Edition). ``UsageError`` when a name names nothing,
    ``RuleError`` (with diagnostics) when the rules, or the changes, do not compile."""
    if not ruleset.changes:
        return load_edition(ruleset.rules, ruleset.variant, ruleset.expansions)
    base = os.path.abspath(locate_rules(ruleset.rules))
    expansions = [os.path.abspath(path) for path in locate_expansions(ruleset.expansions)]
    house = {"format": 1, "kind": "edition", "id": "lab_point",
             "name": f"{os.path.basename(ruleset.rules)} with " +
                     ", ".join(f"{name}={value}" for _key, name, value in ruleset.changes),
             "extends": base}
    if expansions:
        house["apply"] = expansions
    for key, name, value in ruleset.changes:
        house.setdefault(key, {})[name] = value
    # held in memory beside the edition, under a name no file has (see Sources)
    path = os.path.join(os.path.dirname(base), LAB_CHANGE_NAME)
    ws = Workspace()
    ws.sources.put(path, yaml.safe_dump(house, sort_keys=False))
    ws.trust(base)  # the edition the person named, and its project, may be read
    for extra in expansions:
        ws.trust(extra)
    edition = compile_edition(ws, path, ())
    errors = [d for d in ws.diagnostics if d.is_error]
    if edition is None or errors:
        shown = [d.render() for d in errors]
        raise RuleError(errors, f"{ruleset.label}: the change does not give a playable edition:\n"
                        + "\n".join(shown or ["(no diagnostic)"]))
    return select_variant(edition, ruleset.variant, ruleset.label)


#: the name findings give the house rule a sweep composes (it is never written to disk)
LAB_CHANGE_NAME = "(the lab's change).yaml"
