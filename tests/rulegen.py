"""Rule files written by Hypothesis, for tests/test_fuzz_rules.py.

A generated file is a house rule on the Original that adds a card, ``fuzz_card``,
with a random `when` (from the edition schema's enum), random `requires`,
`choose` and `effect`, plus the pieces that run the same kind of code elsewhere:
a card that plays it through `play_as`, a trigger at a random moment (the
schema's enum again) and a free action. Effects are built from the primitive
table (interpreter/lang/primitives.py, documented in docs/effects.md) and the
grammar's statements (effects.lark: `let`, `if`/`else`, `for`, calls), typed the
way the checker types them, so most files validate; the rest must be refused
with a positioned error.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import strategies as st

from kittens.interpreter.lang import primitives as P

ROOT = Path(__file__).resolve().parent.parent
_SCHEMA = json.loads((ROOT / "schema" / "edition.schema.json").read_text(encoding="utf-8"))["$defs"]
#: the values the schema allows, read from it so a new one is generated at once
WHENS = _SCHEMA["card"]["properties"]["when"]["enum"]
#: who may play a card: the players still in, those out, or both
WHOS = _SCHEMA["card"]["properties"]["who"]["enum"]
MOMENTS = _SCHEMA["trigger"]["properties"]["on"]["enum"]
CARD_IDS = ["tacocat", "defuse", "nope", "skip", "attack", "fuzz_card", "exploding_kitten"]
TAGS = ["cat", "kitten", "action"]
COUNTER, STASH = "tally", "stash"  # the counter and the per-player zone every file declares
#: leaves of each type: literals and names every context has
LEAVES = {
    P.INT: ["0", "1", "2", "3", "0 - 1"],
    P.BOOL: ["true", "false"],
    P.STR: ['"Go on?"'],
    P.PLAYER: ["me"],
    P.ZONE: ["draw_pile", "discard_pile", "removed", "hand(me)"],
    P.CARD_ID: [f'"{card}"' for card in CARD_IDS],
    P.TAG: [f'"{tag}"' for tag in TAGS],
    P.COUNTER_NAME: [f'"{COUNTER}"'],
    P.ZONE_NAME: [f'"{STASH}"'],
}
OPERATORS = {P.INT: ["+", "-", "*", "/"], P.BOOL: ["and", "or"]}
COMPARISONS = ["==", "!=", "<", ">", "<=", ">="]


class Scope:
    """What an expression may use where it is written: its names and their types,
    whether it must be pure (queries only), whether `cancel()` is allowed."""

    def __init__(self, names: dict, *, pure: bool = False, reaction: bool = False, moment: bool = False):
        self.names, self.pure, self.reaction = dict(names), pure, reaction
        self.moment = moment  # a game_end trigger: no choices or chance
        self.fresh = 0

    def new_name(self, kind: str) -> str:
        self.fresh += 1
        name = f"v{self.fresh}"
        self.names[name] = kind
        return name

    def allows(self, prim) -> bool:
        if prim.name == "cancel":
            return self.reaction
        if prim.kind in (P.CHOICE, P.CHANCE):
            return not (self.pure or self.moment)
        return prim.kind == P.QUERY or not self.pure


def _returning(wanted: str, scope: Scope) -> list:
    return [p for p in P.PRIMITIVES.values()
            if p.returns and P.accepts(wanted, p.returns) and scope.allows(p) and P.PLAY in p.contexts]


def expression(draw, wanted, scope: Scope, depth: int) -> str:
    """An expression of type ``wanted`` (a type or a tuple of them)."""
    if isinstance(wanted, tuple):
        wanted = draw(st.sampled_from(wanted))
    names = [n for n, kind in scope.names.items() if P.accepts(wanted, kind)]
    leaves = LEAVES.get(wanted, []) + names
    calls = _returning(wanted, scope)
    if wanted in (P.CARDS, P.CARD, P.PLAYERS):  # reached through calls and names only
        leaves = leaves or [f"hand({expression(draw, P.PLAYER, scope, 0)})"] if wanted == P.CARDS else leaves
    if depth <= 0 or not calls or draw(st.integers(0, 3)) == 0:
        if leaves:
            return draw(st.sampled_from(leaves))
    choice = draw(st.integers(0, 5))
    if wanted in OPERATORS and choice == 0:
        op = draw(st.sampled_from(OPERATORS[wanted]))
        return f"({expression(draw, wanted, scope, depth - 1)} {op} {expression(draw, wanted, scope, depth - 1)})"
    if wanted == P.BOOL and choice == 1:
        op = draw(st.sampled_from(COMPARISONS))
        return f"{expression(draw, P.INT, scope, depth - 1)} {op} {expression(draw, P.INT, scope, depth - 1)}"
    if wanted == P.BOOL and choice == 2:
        return f"not {expression(draw, P.BOOL, scope, depth - 1)}"
    if not calls:
        return draw(st.sampled_from(leaves))
    return call(draw, draw(st.sampled_from(calls)), scope, depth - 1)


def call(draw, prim, scope: Scope, depth: int) -> str:
    """A call of ``prim`` with each required argument, and some optional ones by name."""
    args = []
    for param in prim.params:
        if param.required:
            args.append(expression(draw, param.type, scope, depth))
        elif draw(st.booleans()):
            args.append(f"{param.name}={expression(draw, param.type, scope, depth)}")
    return f"{prim.name}({', '.join(args)})"


def program(draw, scope: Scope, depth: int = 2, length: int = 3) -> str:
    """Statements: actions, `let`, `if`/`else` and `for` over players or cards."""
    lines = []
    for _ in range(draw(st.integers(1, length))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            value_type = draw(st.sampled_from([P.INT, P.PLAYER, P.CARDS, P.BOOL]))
            value = expression(draw, value_type, scope, depth)
            lines.append(f"let {scope.new_name(value_type)} = {value}")
        elif kind == 1 and depth > 0:
            condition = expression(draw, P.BOOL, scope, depth - 1)
            then = program(draw, Scope(scope.names, reaction=scope.reaction, moment=scope.moment), depth - 1, 2)
            otherwise = program(draw, Scope(scope.names, reaction=scope.reaction, moment=scope.moment),
                                depth - 1, 1)
            lines.append(f"if {condition} {{\n{then}\n}} else {{\n{otherwise}\n}}")
        elif kind == 2 and depth > 0:
            walked = draw(st.sampled_from([P.PLAYERS, P.CARDS]))
            inner = Scope(scope.names, reaction=scope.reaction, moment=scope.moment)
            inner.fresh = scope.fresh + 50
            name = inner.new_name(P.PLAYER if walked == P.PLAYERS else P.CARD)
            body = program(draw, inner, depth - 1, 2)
            lines.append(f"for {name} in {expression(draw, walked, scope, depth - 1)} {{\n{body}\n}}")
        else:
            actions = [p for p in P.PRIMITIVES.values() if p.returns is None and scope.allows(p)]
            lines.append(call(draw, draw(st.sampled_from(actions)), scope, depth))
    return "\n".join(lines)


def _block(text: str, indent: int) -> str:
    pad = " " * indent
    return "|\n" + "\n".join(pad + line for line in text.splitlines())


@st.composite
def rule_files(draw) -> tuple[str, dict]:
    """(the text of a generated house rule, what it holds: its `when`, `who`, moment). The
    text says `extends: EXTENDS`: :func:`written` puts the path to the Original there."""
    when = draw(st.sampled_from(WHENS))
    who = draw(st.sampled_from(WHOS))
    card_names = {**P.BUILTIN_NAMES, "this": P.CARD}
    requires = expression(draw, P.BOOL, Scope(card_names, pure=True), 2) if draw(st.booleans()) else None
    choose = {}
    names = dict(card_names)
    for index in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from([P.PLAYER, P.CARD, P.INT, P.CARD_ID, P.BOOL]))
        choose[f"pick_{index}"] = expression(draw, kind, Scope(names), 2)
        names[f"pick_{index}"] = kind
    effect = program(draw, Scope(names, reaction=when == "reaction"))
    moment = draw(st.sampled_from(MOMENTS))
    trigger_names = dict(P.BUILTIN_NAMES)
    if moment in ("card_enters", "card_leaves"):
        trigger_names["this"] = P.CARD
    trigger = program(draw, Scope(trigger_names, moment=moment == "game_end"), 1, 2)
    action = program(draw, Scope(dict(P.BUILTIN_NAMES)), 1, 2)
    lines = [
        "format: 1", "kind: edition", "id: fuzz_rule", "name: Fuzz rule",
        "description: A generated house rule.",
        "extends: EXTENDS",
        "counters:", f"  {COUNTER}: {{text: A generated tally.}}",
        "zones:", f"  {STASH}: {{public: false, per_player: true, description: A generated zone.}}",
        "add_cards: {fuzz_card: 2, copycat: 1}",
        "define_cards:",
        "  - id: fuzz_card", "    title: Fuzz Card", "    tags: [action]", "    text: Generated.",
        f"    when: {when}",
        f"    who: {who}",
    ]
    if requires is not None:
        lines.append(f"    requires: {_block(requires, 6)}")
    if choose:
        lines.append("    choose:")
        lines += [f"      {name}: {_block(text, 8)}" for name, text in choose.items()]
    lines += [
        f"    effect: {_block(effect, 6)}",
        "  - id: copycat", "    title: Copycat", "    tags: [action]",
        "    text: Does what the Fuzz Card does.", "    when: own_turn",
        '    effect: play_as("fuzz_card", this)',
        "triggers:", "  - id: fuzz_moment", f"    on: {moment}", "    text: Generated.",
    ]
    if moment in ("card_enters", "card_leaves"):
        lines.append("    zone: discard_pile")
    lines += [f"    effect: {_block(trigger, 6)}",
              "actions:", "  - id: fuzz_act", "    title: Fuzz act", "    text: Generated.",
              f"    effect: {_block(action, 6)}"]
    return "\n".join(lines) + "\n", {"when": when, "who": who, "moment": moment}


def written(folder: str, text: str, name: str = "fuzz_rule.yaml") -> str:
    """Write a generated file into ``folder``; its path."""
    path = os.path.join(folder, name)
    original = os.path.relpath(ROOT / "editions" / "original.yaml", folder)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text.replace("extends: EXTENDS", f"extends: {original}", 1))
    return path
