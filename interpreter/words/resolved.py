"""A compiled edition as data again: `kittens show` and `kittens diff`.

``show`` prints the edition every file layered into it adds up to, as YAML,
each value followed by the file and line that set it. ``diff`` says what one
ruleset changes against another: deck counts, cards, combos, parameters,
rules, setup steps, turn and win, each change with the place that made it.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass

import yaml

from ..rules.model import Edition
from .answers import printed_text

_PARTS = ("players", "deck", "combos", "params", "rules", "setup", "turn", "win", "zones", "counters",
          "checks", "triggers", "actions", "restrictions")


def _where(origin, relative_to: str | None = None) -> str:
    if origin is None:
        return "engine default"
    path = os.path.relpath(origin.path, relative_to) if relative_to else _short(origin.path)
    return f"{path}:{origin.line}"


def _short(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _deck_value(ranges: tuple):
    """A deck count as a designer writes it: a number, or counts by player range."""
    if len(ranges) == 1:
        return ranges[0][2]
    return {(f"{lo}-{hi}" if lo != hi else str(lo)): count for lo, hi, count in ranges}


def card_data(card) -> dict:
    """A card's definition as written (patches and skins applied), without its id."""
    raw = dict(card.raw or {"id": card.id, "title": card.title, "text": card.text, "when": card.when})
    raw.pop("id", None)
    return raw


def as_data(edition: Edition) -> dict:
    """The resolved edition as plain data (what `show` prints and `diff` compares)."""
    data = edition.data
    out = {"id": edition.id, "name": edition.name}
    if edition.variant:
        out["variant"] = edition.variant
    out["players"] = {"min": edition.players[0], "max": edition.players[1]}
    out["deck"] = {card_id: _deck_value(ranges) for card_id, ranges in edition.deck.items()}
    out["combos"] = [combo.id for combo in edition.combos]
    out["params"] = dict(edition.params)
    out["rules"] = dict(edition.rules)
    out["setup"] = [dict(step) for step in data.get("setup", [])]
    out["turn"] = dict(data.get("turn", {}))
    out["win"] = data.get("win", edition.win)
    if edition.teams:
        out["teams"] = {"count": edition.teams, **({"together": True} if edition.teams_together else {}),
                        **({"dealt": edition.teams_dealt} if edition.teams_dealt != "in_turn" else {})}
    if data.get("zones"):
        out["zones"] = dict(data["zones"])
    if data.get("counters"):
        out["counters"] = dict(data["counters"])
    if data.get("procedures"):
        out["procedures"] = {name: dict(raw) for name, raw in data["procedures"].items()}
    for part in ("checks", "triggers", "actions", "restrictions"):
        if data.get(part):
            out[part] = {record["id"]: record for record in data[part]}
    in_play = set(edition.deck) | _named_in_setup(out["setup"])
    out["cards"] = {card_id: card_data(card) for card_id, card in sorted(edition.cards.items())
                    if card_id in in_play}
    out["combo_rules"] = {combo.id: dict(combo.raw or {}) for combo in edition.combos}
    return out


def _named_in_setup(steps: list) -> set:
    named = set()
    for step in steps:
        for key, value in step.items():
            if isinstance(value, list):
                named.update(v for v in value if isinstance(v, str))
            elif isinstance(value, dict):
                named.update(v for v in value.get("cards", []) if isinstance(v, str))
                if isinstance(value.get("card"), str):
                    named.add(value["card"])
    return named


# -- show -----------------------------------------------------------------------
def _flow(value) -> str:
    """A value on one line, as YAML flow style."""
    text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, allow_unicode=True,
                          width=1_000_000).strip()
    return text[:-3].strip() if text.endswith("\n...") or text.endswith("...") else text


def _multiline(value) -> bool:
    return isinstance(value, str) and "\n" in value.rstrip("\n")


def _entry(key, value, origin: str | None, indent: int) -> list[str]:
    """``key: value`` as block YAML, with ``# origin`` on its first line; leaves in flow style."""
    pad, comment = " " * indent, f"  # {origin}" if origin else ""
    if _multiline(value):
        chomp = "" if value.endswith("\n") else "-"
        return [f"{pad}{key}: |{chomp}{comment}"] + \
            [f"{pad}  {line}" if line else "" for line in value.rstrip("\n").split("\n")]
    if isinstance(value, dict) and value and any(isinstance(v, (dict, list)) or _multiline(v)
                                                 for v in value.values()):
        lines = [f"{pad}{key}:{comment}"]
        for child, child_value in value.items():
            lines += _entry(child, child_value, None, indent + 2)
        return lines
    return [f"{pad}{key}: {_flow(value)}{comment}"]


def _read_as(edition: Edition, record) -> list[str]:
    """A comment under a card whose players read more than its `text` (one a house rule
    made unanswerable, a Nope that cannot cancel it), with what they read."""
    own, text = " ".join(record.text.split()), printed_text(edition, record)
    if text == own:
        return []
    return [f"    # players read after its text: {text[len(own):].strip()}"]


def render_show(edition: Edition) -> str:
    """The resolved edition as YAML, every value followed by ``# file:line``."""
    data, origins = as_data(edition), edition.origins
    lines = [f"# {edition.name}, resolved from {len(edition.sources)} file(s):"]
    lines += [f"#   {_short(path)}" for path in edition.sources]
    lines.append("# `# file:line` after a value says which file set it.")
    lines += _entry("id", data["id"], _where(origins.get("id")), 0)
    lines += _entry("name", data["name"], None, 0)
    if "variant" in data:
        lines += _entry("variant", data["variant"], None, 0)
    lines += _entry("players", data["players"], _where(origins.get("players")), 0)
    lines.append("deck:")
    for card_id, count in data["deck"].items():
        lines += _entry(card_id, count, _where(origins.get(f"deck.{card_id}")), 2)
    lines.append("combos:" if data["combos"] else "combos: []")
    for combo_id in data["combos"]:
        lines += [f"  - {combo_id}  # {_where(origins.get(f'combos.{combo_id}'))}"]
    for part in ("params", "rules"):
        lines.append(f"{part}:" if data[part] else f"{part}: {{}}")
        for name, value in data[part].items():
            lines += _entry(name, value, _where(origins.get(f"{part}.{name}")), 2)
    lines.append("setup:")
    for index, step in enumerate(data["setup"]):
        lines.append(f"  - {_flow(step)}  # {_where(origins.get(f'setup.{index}'))}")
    lines += _entry("turn", data["turn"], _where(origins.get("turn")), 0)
    lines += _entry("win", data["win"], _where(origins.get("win")), 0)
    if "teams" in data:
        lines += _entry("teams", data["teams"], _where(origins.get("teams")), 0)
    for part in ("zones", "counters", "procedures", "checks", "triggers", "actions", "restrictions"):
        if part in data:
            keyed = part in ("zones", "counters", "procedures")
            lines += _entry(part, data[part] if keyed else list(data[part].values()), None, 0)
    lines.append("cards:")
    for card_id, raw in data["cards"].items():
        card = edition.cards[card_id]
        said = f"defined at {_where(card.origin)}" + "".join(
            f", changed at {_where(origin)}" for origin in card.changed_at)
        lines += _entry(card_id, raw, said, 2) + _read_as(edition, card)
    if edition.combos:
        lines.append("combo_rules:")
        for combo in edition.combos:
            said = f"defined at {_where(combo.origin)}" + "".join(
                f", changed at {_where(origin)}" for origin in combo.changed_at)
            lines += _entry(combo.id, data["combo_rules"][combo.id], said, 2) + _read_as(edition, combo)
    return "\n".join(lines) + "\n"


# -- diff -----------------------------------------------------------------------
@dataclass(frozen=True)
class Change:
    """One difference: ``sign`` is + (only in the second), - (only in the first), ~
    (changed) or > (a setup step moved, unchanged: ``after`` says where to)."""

    sign: str
    path: str  # e.g. "deck.defuse", "cards.attack.effect", "setup.defuses"
    before: object
    after: object
    origin: str | None  # where the second ruleset set it

    def render(self) -> str:
        if _multiline(self.before) or _multiline(self.after):
            return self._render_lines()
        if self.sign == "+":
            text = f"+ {self.path}: {_brief(self.after)}"
        elif self.sign == "-":
            text = f"- {self.path} (was {_brief(self.before)})"
        elif self.sign == ">":
            text = f"> {self.path}: moved {self.after}"
        else:
            text = f"~ {self.path}: {_brief(self.before)} -> {_brief(self.after)}"
        return text + (f"  ({self.origin})" if self.origin else "")

    def _render_lines(self) -> str:
        """A change to code (an effect, the turn's draw): a heading, then the lines each
        side holds, marked as a line diff marks them (unchanged lines kept for context)."""
        where = f"  ({self.origin})" if self.origin else ""
        before, after = _lines(self.before), _lines(self.after)
        out = [f"{self.sign} {self.path}:{where}"]
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for op, a1, a2, b1, b2 in matcher.get_opcodes():
            if op == "equal":
                out += [f"      {line}" for line in before[a1:a2]]
                continue
            out += [f"    - {line}" for line in before[a1:a2]]
            out += [f"    + {line}" for line in after[b1:b2]]
        return "\n".join(out)

    def to_dict(self) -> dict:
        return {"change": {"+": "added", "-": "removed", "~": "changed", ">": "moved"}[self.sign],
                "path": self.path,
                "before": self.before, "after": self.after, "origin": self.origin}


def _multiline(value) -> bool:
    return isinstance(value, str) and "\n" in value.strip()


def _lines(value) -> list[str]:
    """The lines of a value shown line by line (none for a value that is not there)."""
    if value is None:
        return []
    return [line.rstrip() for line in str(value).strip("\n").splitlines()]


def _brief(value) -> str:
    if isinstance(value, str):
        text = " ".join(value.split())
        return text if len(text) <= 70 else text[:67] + "..."
    text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10_000,
                          allow_unicode=True).strip()
    if text.endswith("..."):
        text = text[:-3].strip()
    return text if len(text) <= 90 else text[:87] + "..."


def diff(first: Edition, second: Edition) -> list[Change]:
    """What ``second`` changes against ``first``, part by part."""
    a, b, origins = as_data(first), as_data(second), second.origins
    changes = []
    if a["players"] != b["players"]:
        changes.append(Change("~", "players", a["players"], b["players"], _where(origins.get("players"))))
    for part in ("deck", "params", "rules"):
        changes += _mapping(part, a[part], b[part], lambda k, p=part: _where(origins.get(f"{p}.{k}")))
    combos_b = {combo.id: combo for combo in second.combos}
    for combo_id in b["combos"]:
        if combo_id not in a["combos"]:
            combo = combos_b[combo_id]
            shown = f"on ({combo.title}: {combo.size} cards, {_combo_match(combo)})"
            changes.append(Change("+", f"combos.{combo_id}", None, shown,
                                  _where(origins.get(f"combos.{combo_id}"))))
        elif a["combo_rules"].get(combo_id) != b["combo_rules"][combo_id]:
            changes += _keys(f"combos.{combo_id}", a["combo_rules"][combo_id], b["combo_rules"][combo_id],
                             _where(_last_change(combos_b[combo_id])))
    for combo_id in a["combos"]:
        if combo_id not in b["combos"]:
            changes.append(Change("-", f"combos.{combo_id}", "on", None, None))
    changes += _steps(a["setup"], b["setup"], origins)
    if isinstance(a.get("turn"), dict) and isinstance(b.get("turn"), dict):
        changes += _keys("turn", a["turn"], b["turn"], _where(origins.get("turn")))
    for part in ("win", "teams") if isinstance(a.get("turn"), dict) and isinstance(b.get("turn"), dict) \
            else ("turn", "win", "teams"):
        if a.get(part) != b.get(part):
            changes.append(Change("~", part, a.get(part), b.get(part), _where(origins.get(part))))
    for part, records in (("checks", second.checks), ("triggers", second.triggers),
                          ("actions", second.actions), ("restrictions", second.restrictions)):
        changes += _records(part, a.get(part, {}), b.get(part, {}),
                            {record.id: _where(record.origin) for record in records})
    changes += _records("procedures", a.get("procedures", {}), b.get("procedures", {}), {})
    if a.get("counters") != b.get("counters"):
        changes.append(Change("~", "counters", a.get("counters"), b.get("counters"), None))
    changes += _cards(first, second, a["cards"], b["cards"])
    return changes


def _records(part: str, first: dict, second: dict, origins: dict) -> list[Change]:
    """Checks or triggers added, changed or gone, by id."""
    changes = []
    for record_id, record in second.items():
        if record_id not in first:
            changes.append(Change("+", f"{part}.{record_id}", None, record.get("text", record_id),
                                  origins.get(record_id)))
        else:
            changes += _keys(f"{part}.{record_id}", first[record_id], record, origins.get(record_id))
    changes += [Change("-", f"{part}.{record_id}", record.get("text", record_id), None, None)
                for record_id, record in first.items() if record_id not in second]
    return changes


def _mapping(part: str, a: dict, b: dict, origin) -> list[Change]:
    changes = []
    for key, value in b.items():
        if key not in a:
            changes.append(Change("+", f"{part}.{key}", None, value, origin(key)))
        elif a[key] != value:
            changes.append(Change("~", f"{part}.{key}", a[key], value, origin(key)))
    for key, value in a.items():
        if key not in b:
            changes.append(Change("-", f"{part}.{key}", value, None, None))
    return changes


def _steps(a: list, b: list, origins: dict) -> list[Change]:
    """Setup steps aligned as sequences (difflib); a step is named by its `name` or place."""
    def label(step, index):
        return f"setup.{step['name']}" if step.get("name") else f"setup step {index + 1}"

    changes = []
    matcher = difflib.SequenceMatcher(None, [_flow(s) for s in a], [_flow(s) for s in b], autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            continue
        names = {a[i].get("name"): i for i in range(a1, a2) if a[i].get("name")}
        paired = set()
        for index in range(b1, b2):
            name = b[index].get("name")
            where = _where(origins.get(f"setup.{index}"))
            if name in names:  # the same named step, changed
                paired.add(names[name])
                changes.append(Change("~", label(b[index], index), a[names[name]], b[index], where))
            else:
                changes.append(Change("+", label(b[index], index), None, b[index], where))
        for index in range(a1, a2):
            if index not in paired:
                changes.append(Change("-", label(a[index], index), a[index], None, None))
    return _moves(changes, b, origins)


def _moves(changes: list[Change], b: list, origins: dict) -> list[Change]:
    """A named step removed in one place and added in another: one move (unchanged) or
    one change (changed too)."""
    removed = {c.path: c.before for c in changes if c.sign == "-" and c.path.startswith("setup.")}
    moved = {c.path for c in changes if c.sign == "+" and removed.get(c.path, c) == c.after}
    changed = {c.path for c in changes if c.sign == "+" and c.path in removed} - moved
    out = []
    for change in changes:
        if change.path in changed:  # changed and moved too: one change
            if change.sign == "+":
                out.append(Change("~", change.path, removed[change.path], change.after, change.origin))
        elif change.path not in moved:
            out.append(change)
        elif change.sign == "+":
            name = change.after["name"]
            at = [step.get("name") for step in b].index(name)
            where = "to the start" if at == 0 else f"after {_step_label(b[at - 1], at - 1)}"
            origin = origins.get(f"setup.moved.{name}")
            out.append(Change(">", change.path, None, where, _where(origin) if origin else change.origin))
    return out


def _step_label(step: dict, index: int) -> str:
    return f"'{step['name']}'" if step.get("name") else f"step {index + 1}"


def _last_change(record):
    """Where a card or combo was last changed: its last patch, else its definition."""
    return record.changed_at[-1] if record.changed_at else record.origin


def _cards(first: Edition, second: Edition, a: dict, b: dict) -> list[Change]:
    changes = []
    for card_id, raw in b.items():
        card = second.cards[card_id]
        where = _where(_last_change(card))
        if card_id not in a:
            changes.append(Change("+", f"cards.{card_id}", None, raw.get("title", card_id), where))
            continue
        changes += _keys(f"cards.{card_id}", a[card_id], raw, where)
    return changes


def _keys(path: str, before: dict, after: dict, where: str) -> list[Change]:
    """The keys of a definition that differ."""
    changes = []
    for key in list(before) + [k for k in after if k not in before]:
        if before.get(key) != after.get(key):
            sign = "~" if key in before and key in after else ("+" if key in after else "-")
            changes.append(Change(sign, f"{path}.{key}", before.get(key), after.get(key), where))
    return changes


def render_diff(changes: list[Change], first: Edition, second: Edition) -> str:
    lines = [f"--- {first.name}" + (f" ({first.variant})" if first.variant else ""),
             f"+++ {second.name}" + (f" ({second.variant})" if second.variant else "")]
    lines += [change.render() for change in changes] or ["(no differences in the rules)"]
    return "\n".join(lines) + "\n"


def against_base(edition: Edition, whole: Edition, load) -> tuple[Edition | None, list[Change]]:
    """The ruleset ``edition`` builds on, and what it changes against it.

    A variant is compared with ``whole`` (the same files without the variant),
    a house rule with the edition it extends, an edition with expansions with
    the bare base. ``load(path)`` compiles a ruleset file.
    """
    if edition.variant:
        base = whole
    elif edition.extends:
        base = load(edition.extends)
    elif edition.expansions:
        base = load(edition.sources[0])
    else:
        return None, []
    return base, diff(base, edition)


def _combo_match(combo) -> str:
    """How a combo's cards relate, as `kittens diff` shows it: "same title", "titles may
    repeat", with its slots if it has them ("different titles, slots [favor, tag cat]")."""
    shown = "titles may repeat" if combo.match == "any" else combo.match.replace("_", " ")
    if combo.slots is None:
        return shown
    places = [" or ".join(sorted(titles)) if titles is not None and tag is None else
              f"tag {tag}" if titles is None else f"{' or '.join(sorted(titles))} with tag {tag}"
              for titles, tag in combo.slots]
    return f"{shown}, slots [{', '.join(places)}]"
