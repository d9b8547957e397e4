"""The text/effect check: a card whose printed text and effect disagree on a number.

A house rule that makes Attack hand on three turns but leaves its text saying
"two turns" is flagged; so is a text that says "the top 3 cards" over an
effect that looks at 5. `kittens validate` reports the findings as warnings
(`text-mismatch`) and the rulesheet lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lang import syntax as s
from .model import Edition, Origin


@dataclass(frozen=True)
class Finding:
    """A card or combo whose printed text and effect disagree."""

    card_id: str
    origin: Origin
    message: str

    def __str__(self) -> str:
        return f"{self.origin}: '{self.card_id}': {self.message}"


def effect_trees(record) -> list:
    """Every effect tree of a card, combo or check."""
    found = [getattr(record, key, None) for key in ("requires", "effect", "on_draw", "instead_of_draw",
                                                    "condition")]
    found += [tree for _name, tree in getattr(record, "choose", ())]
    return [tree for tree in found if tree is not None]


def numbers_in(tree, params: dict | None = None) -> set[int]:
    """The numbers an effect uses: its integer literals and the values of the
    ``rules.NAME`` integers it reads (``params``: the edition's rules and parameters)."""
    params = params or {}
    found = set()
    for node in s.walk(tree):
        if isinstance(node, s.IntLit):
            found.add(node.value)
        elif isinstance(node, s.RuleRef):
            value = params.get(node.name)
            if isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
        elif isinstance(node, s.Sum):  # arithmetic of fixed numbers: `2 * rules.attack_turns` is 4
            value = _fixed(node, params)
            if value is not None:
                found.add(value)
    return found


def _fixed(node, params: dict) -> int | None:
    """The value of an expression of literals and rule numbers only, else None."""
    if isinstance(node, s.IntLit):
        return node.value
    if isinstance(node, s.RuleRef):
        value = params.get(node.name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if not isinstance(node, s.Sum):
        return None
    total = _fixed(node.first, params)
    for op, term in zip(node.ops, node.terms):
        value = _fixed(term, params)
        if total is None or value is None or (op == "/" and value == 0):
            return None
        total = total + value if op == "+" else total - value if op == "-" else \
            total * value if op == "*" else total // value
    return total


def places_in(tree) -> set[int]:
    """The places an effect names, counted from one as a text counts them: `at=2` is the
    third place from the top ("among the top three"), for a number written as a place."""
    from ..lang import primitives as P

    found = set()
    for node in s.walk(tree):
        prim = P.PRIMITIVES.get(node.name) if isinstance(node, s.Call) else None
        if prim is None:
            continue
        given = dict(zip((param.name for param in prim.params), node.args))
        given.update((keyword.name, keyword.value) for keyword in node.kwargs)
        place = given.get(PLACE_PARAMETER)
        if isinstance(place, s.IntLit) and place.value >= 0:
            found.add(place.value + 1)
    return found


#: the argument that names a place in a zone, counted from 0 at the top (`move(..., at=2)`)
PLACE_PARAMETER = "at"


def repeated_steps(tree) -> set[int]:
    """How many times the effect repeats one action or choice, when more than once:
    "up to two cards" may be written as two moves rather than as ``top(x, 2)``."""
    from ..lang import primitives as P

    calls: dict[str, int] = {}
    for node in s.walk(tree):
        prim = P.PRIMITIVES.get(node.name) if isinstance(node, s.Call) else None
        if prim is not None and prim.kind in (P.ACTION, P.CHOICE):
            calls[node.name] = calls.get(node.name, 0) + 1
    return {count for count in calls.values() if count > 1}


def answered_numbers(record, edition: Edition, params: dict) -> set[int]:
    """The numbers of the other cards a card played in answer names in its text: "instead
    of its two turns" on a card that answers an Attack speaks of the Attack's number."""
    if getattr(record, "when", None) not in ("reaction", "any_time"):
        return set()
    text = " ".join(record.text.lower().split())
    found = set()
    for other in edition.cards.values():
        if other.id == record.id or not other.title:
            continue
        if re.search(r"\b" + re.escape(other.title.lower()) + r"\b", text):
            for tree in effect_trees(other):
                found |= numbers_in(tree, params)
    return found


_NUMBER_WORDS = dict(one=1, two=2, three=3, four=4, five=5, six=6, seven=7, eight=8, nine=9, ten=10)
_NUMBER = r"(\d+|" + "|".join(_NUMBER_WORDS) + r")"
#: a number counting cards or turns: "the top 3", "three cards", "two more turns"; a
#: number after "the" ("the two cards") points at cards rather than counting them
_COUNTED = (re.compile(r"\b(?:top|bottom)\s+" + _NUMBER + r"\b"),
            re.compile(r"(?<!the )\b" + _NUMBER + r"\s+(?:[a-z-]+\s+){0,2}?(?:cards?|turns?)\b"))


def text_numbers(text: str) -> dict[int, str]:
    """The counting numbers of a printed text: number -> the words that say it."""
    found: dict[int, str] = {}
    lowered = " ".join(text.lower().split())
    for pattern in _COUNTED:
        for match in pattern.finditer(lowered):
            word = match.group(1)
            found.setdefault(int(word) if word.isdigit() else _NUMBER_WORDS[word], match.group(0))
    return found


def number_mismatches(edition: Edition) -> list[Finding]:
    """Cards and combos whose printed text counts something (a number above one, next
    to cards, turns, top or bottom) that their effect never uses.

    The effect's numbers are its integer literals, the values of the ``rules.NAME``
    numbers it reads, how many times it repeats one action or choice and, for a
    combo, its size; a card played in answer may also say the numbers of the cards
    its text names (those it answers). Cards with no effect at all are not checked:
    their text describes what other cards do with them.
    """
    params = {**edition.rules, **edition.params}
    in_deck = [c for c, ranges in edition.deck.items() if any(n for _lo, _hi, n in ranges)]
    records = [edition.cards[c] for c in in_deck if c in edition.cards] + list(edition.combos)
    findings = []
    for record in records:
        trees = effect_trees(record)
        if not trees:
            continue
        written = set().union(*(numbers_in(tree, params) | repeated_steps(tree) for tree in trees))
        if hasattr(record, "size"):
            written.add(record.size)
        used = written | set().union(*(places_in(tree) for tree in trees))
        answered = None  # worked out only for a number the card's own effect lacks
        for number, said in sorted(text_numbers(record.text).items()):
            if number > 1 and number not in used:
                if answered is None:
                    answered = answered_numbers(record, edition, params)
                if number in answered:
                    continue
                shown = ", ".join(str(n) for n in sorted(written)) or "no number"
                findings.append(Finding(record.id, record.origin,
                                        f"the text says “{said}” ({number}), but the effect uses {shown}"))
    return findings
