"""JSON Schema validation of rule documents, reported at YAML positions.

The schemas in ``schema/`` are the formal definition of each document kind.
This module validates a loaded :class:`~loader.Document` against the schema of
its kind and turns each jsonschema error into a :class:`Diagnostic` with a
code, a message in YAML terms (mapping, list, text) and the position of the
offending key or value.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ...about import SCHEMA_DIR
from .diagnostics import Diagnostic, did_you_mean, nearest_name, quote
from .loader import Document

KINDS = ("cards", "combos", "edition", "expansion", "scenario")
FORMAT_VERSION = 1

_YAML_TYPES = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
               "number": "a number", "boolean": "true or false", "null": "empty"}


def schema_path(kind: str) -> Path:
    return SCHEMA_DIR / f"{kind}.schema.json"


@lru_cache(maxsize=None)
def validator(kind: str) -> Draft202012Validator:
    schema = json.loads(schema_path(kind).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


@lru_cache(maxsize=None)
def longest_list() -> int:
    """The most items any list in a rule file may hold: the largest ``maxItems`` of the
    schemas, which bounds the lists they leave unbounded too."""
    return max(int(n) for kind in KINDS
               for n in re.findall(r'"maxItems":\s*(\d+)', schema_path(kind).read_text(encoding="utf-8")))


def _clipped(data, path: tuple, lengths: dict):
    """``data`` with every list longer than :func:`longest_list` cut to one item more
    (their true lengths in ``lengths`` by path), or ``data`` itself when none is: the
    schema then reports a long list once, and checks a bounded number of its items
    (a 190,000-item list took 25 seconds and gave a finding per item)."""
    most = longest_list()
    if isinstance(data, list):
        items = data
        if len(data) > most + 1:
            lengths[path] = len(data)
            items = data[:most + 1]
        inner = [_clipped(item, path + (index,), lengths) for index, item in enumerate(items)]
        same = len(items) == len(data) and all(a is b for a, b in zip(inner, data))
        return data if same else inner
    if isinstance(data, dict):
        kept = {key: _clipped(value, path + (key,), lengths) for key, value in data.items()}
        return data if all(kept[key] is value for key, value in data.items()) else kept
    return data


def validate(doc: Document, kind: str) -> list[Diagnostic]:
    """Every schema violation of ``doc``, one diagnostic each, in file order; past the
    longest list allowed anywhere, a list's items are not checked one by one."""
    found: list[Diagnostic] = []
    lengths: dict[tuple, int] = {}  # list path -> its length, for lists past the longest
    data = _clipped(doc.data, (), lengths)
    told = set()  # where the schema found something: a long list there needs no more words
    for error in validator(kind).iter_errors(data):
        told.add(tuple(error.absolute_path))
        found.extend(_to_diagnostics(doc, error, lengths))
    for path, length in lengths.items():
        if path not in told:
            found.append(doc.diagnostic(path, "bad-value", f"this list has {length:,} items; a list in "
                                                           f"a rule file holds at most {longest_list():,}: shorten it"))
    unique = {(d.line, d.column, d.code, d.message): d for d in found}
    return sorted(unique.values())


def invalid_records(doc: Document, kind: str) -> set | None:
    """The entries of a library's list (``cards`` or ``combos``) that break the schema, as
    indexes, when every violation lies inside one; None when one lies elsewhere. A
    library can then be checked further without them, so one bad card does not hide
    what is wrong with the others."""
    bad: set[int] = set()
    lengths: dict[tuple, int] = {}
    data = _clipped(doc.data, (), lengths)
    if lengths:  # a list too long to check: nothing can be trusted
        return None
    for error in validator(kind).iter_errors(data):
        path = tuple(error.absolute_path)
        if len(path) < 2 or path[0] != kind or not isinstance(path[1], int):
            return None
        bad.add(path[1])
    return bad


def _yaml_type(value) -> str:
    if isinstance(value, bool):
        return _YAML_TYPES["boolean"]
    if isinstance(value, int):
        return _YAML_TYPES["integer"]
    if isinstance(value, float):
        return _YAML_TYPES["number"]
    if value is None:
        return "empty"
    named: dict[type, str] = {dict: "object", list: "array", str: "string"}
    return _YAML_TYPES.get(named.get(type(value), ""), "a value")


def _wanted(types) -> str:
    """The types a schema accepts, in words, each once: "a whole number or a mapping"."""
    words = []
    for item in [types] if isinstance(types, str) else types:
        for name in [item] if isinstance(item, str) else item:  # a branch may list types
            word = _YAML_TYPES.get(name, name)
            if word not in words:
                words.append(word)
    return _either(words)


def _either(words: list[str]) -> str:
    """Alternatives in a sentence: "a, b or c"; "a, or true or false" when one of them
    holds an "or" of its own."""
    if len(words) < 2:
        return "".join(words)
    last = ", or " if any(" or " in word for word in words) else " or "
    return ", ".join(words[:-1]) + last + words[-1]


#: the patterns of the schemas' text values, as a designer names what they take
_PATTERN_WORDS = {
    r"^rules\.[a-z][a-z0-9_]*$": "a `rules.NAME` parameter",
    r"^[a-z][a-z0-9_]*$": "an id in lower_case_with_underscores",
    r"^[a-z_]+$": "a name in lower_case_with_underscores",
    r"^[0-9]+$": "a number",
    r"^[0-9]+(-[0-9]+)?$": "a player count or a range such as \"2-3\"",
}


def _branch_words(branch) -> str | None:
    """What one branch of an ``anyOf``/``oneOf`` takes, in words (None: too intricate
    to say in a few words, such as a mapping with keys of its own)."""
    if not isinstance(branch, dict):
        return None
    if "const" in branch:
        return quote(branch["const"])
    if "enum" in branch:
        return "one of " + _either([quote(option) for option in branch["enum"]])
    kind = branch.get("type")
    if kind == "string" and "pattern" in branch:
        return _PATTERN_WORDS.get(branch["pattern"])
    if kind in ("boolean", "integer", "number", "string"):
        return _YAML_TYPES[kind]
    return None


def _shown(value) -> str:
    """A value as a message names it: "the text 'flase'", "the number 1.5", "true"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the whole number {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {quote(value if len(value) <= 40 else value[:37] + '...')}"
    return _yaml_type(value)


def _slip(value, branches: list) -> str:
    """"; did you mean false?" when a text value is a slip for a word the branches take:
    true or false (written without quotes), or one of their listed words."""
    if not isinstance(value, str):
        return ""
    words = [str(o) for b in branches if isinstance(b, dict) for o in b.get("enum", [])]
    words += [str(b["const"]) for b in branches if isinstance(b, dict) and "const" in b]
    near = nearest_name(value.lower(), words)
    if near is not None:
        return f"; did you mean {quote(near)}?"
    if any(isinstance(b, dict) and b.get("type") == "boolean" for b in branches):
        near = nearest_name(value.lower(), ["true", "false", "yes", "no"])
        if near is not None:
            return f"; did you mean {'true' if near in ('true', 'yes') else 'false'}?"
    return ""


def _to_diagnostics(doc: Document, error: ValidationError, lengths: dict | None = None) -> list[Diagnostic]:
    path = tuple(error.absolute_path)
    rule = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    if "propertyNames" in error.absolute_schema_path:  # a key, checked as if it were a value
        key = error.instance
        return [doc.diagnostic(path + (key,), "bad-value",
                               f"the key {quote(key)} is not a valid name here: use lower_case_with_underscores "
                               "(or a player count such as \"4\" or range such as \"2-3\" in counts)",
                               key=True)]
    if rule == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key in allowed or not schema.get("properties"):
                continue
            near, keys = did_you_mean(key, allowed), _closest_keys(str(key), allowed)
            keys = f" {keys[:1].upper()}{keys[1:]}" if near.endswith("?") else f"; {keys}"
            out.append(doc.diagnostic(path + (key,), "unknown-key",
                                      f"unknown key {quote(key)}{near}{_key_hint(key)}{keys}", key=True))
        return out or [doc.diagnostic(path, "unknown-key", error.message)]
    if rule == "unevaluatedProperties" and isinstance(error.instance, dict):
        return _unevaluated(doc, path, schema, error.instance)
    if rule == "required":  # from the error's fields, never from jsonschema's English
        present = error.instance if isinstance(error.instance, dict) else {}
        missing = [key for key in error.validator_value if key not in present]
        record = present.get("id")
        where = f" in '{record}'" if isinstance(record, str) else ""
        return [doc.diagnostic(path, "missing-key", f"missing required key '{key}'{where}: add it")
                for key in missing[:1]]
    if rule == "type":
        return [_wrong_type(doc, path, error.validator_value, error.instance)]
    if rule in ("enum", "const"):
        options = error.validator_value if rule == "enum" else [error.validator_value]
        text = _either([quote(o) for o in options])
        hint = did_you_mean(str(error.instance), [str(o) for o in options]) \
            if isinstance(error.instance, (str, int, float)) else ""
        return [doc.diagnostic(path, "bad-value", f"should be {'one of ' if len(options) > 1 else ''}{text}, "
                                                  f"not {_shown(error.instance)}{hint}")]
    if rule == "maxProperties" and isinstance(error.instance, dict):
        return [_too_many_keys(doc, path, schema, error.validator_value, error.instance)]
    if rule == "maxItems" and isinstance(error.instance, list):
        return [doc.diagnostic(path, "bad-value",
                               f"this list has {(lengths or {}).get(path, len(error.instance)):,} items; at most "
                               f"{error.validator_value:,} are allowed here")]
    if rule == "minProperties":
        return [doc.diagnostic(path, "bad-value", "this mapping must not be empty")]
    if rule in ("oneOf", "anyOf"):
        return _one_of(doc, path, error, lengths)
    if rule == "uniqueItems" and isinstance(error.instance, list):
        seen = []
        for index, item in enumerate(error.instance):
            if item in seen:
                return [doc.diagnostic(path + (index,), "bad-value",
                                       f"{quote(item)} is listed twice: remove the repeat")]
            seen.append(item)
    messages = {
        "minimum": f"{quote(error.instance)} is too small (the least allowed is {error.validator_value})",
        "maximum": f"{quote(error.instance)} is too large (the most allowed is {error.validator_value})",
        "minLength": "must not be empty",
        "maxLength": f"is too long (at most {error.validator_value} characters)",
        "pattern": f"{quote(error.instance)} is not a valid id: use lower_case_with_underscores",
        "minItems": f"needs at least {error.validator_value} item(s)",
        "uniqueItems": "lists the same item twice: remove the repeat",
    }
    return [doc.diagnostic(path, "bad-value", messages.get(rule, error.message))]


def _unevaluated(doc: Document, path: tuple, schema: dict, value: dict) -> list[Diagnostic]:
    """Keys of a mapping whose allowed keys depend on a condition (``if``/``then``/``else``:
    a house rule gives change keys, a whole edition whole parts). A key the other branch
    allows is left to the checks after the schema, which say why it does not belong here
    (`ambiguous-key`, `needs-extends`); any other is an unknown key."""
    branches = [schema.get(name, {}) for name in ("then", "else")]
    taken = branches[0] if Draft202012Validator(schema.get("if", {})).is_valid(value) else branches[1]
    allowed = set(schema.get("properties", {})) | set(taken.get("properties", {}))
    elsewhere = {key for branch in branches for key in branch.get("properties", {})}
    out = []
    for key in value:
        if key in allowed or key in elsewhere:
            continue
        near, keys = did_you_mean(key, allowed), _closest_keys(str(key), allowed)
        keys = f" {keys[:1].upper()}{keys[1:]}" if near.endswith("?") else f"; {keys}"
        out.append(doc.diagnostic(path + (key,), "unknown-key",
                                  f"unknown key {quote(key)}{near}{_key_hint(key)}{keys}", key=True))
    return out


def _one_of(doc: Document, path: tuple, error: ValidationError, lengths: dict | None = None) -> list[Diagnostic]:
    """Report a failed oneOf (or anyOf): a plain value by what each branch takes, in
    words ("should be true or false, or a `rules.NAME` parameter, not the text
    'flase'"); anything else through the branch whose type fits the value."""
    branches = error.validator_value
    types = [b.get("type") for b in branches if isinstance(b, dict) and "type" in b]
    fits = not types or any(_fits_type(error.instance, t) for t in types)
    said = [_branch_words(branch) for branch in branches]
    words = [word for word in said if word is not None]
    plain = error.instance is not None and not (fits and isinstance(error.instance, (dict, list)))
    if plain and words and len(words) == len(said):  # every branch said in a few words
        return [doc.diagnostic(path, "bad-value" if fits else "wrong-type",
                               f"should be {_either(list(dict.fromkeys(words)))}, "
                               f"not {_shown(error.instance)}{_slip(error.instance, branches)}")]
    if not fits:
        return [_wrong_type(doc, path, types, error.instance)]
    for index, branch in enumerate(branches):
        if isinstance(branch, dict) and _fits_type(error.instance, branch.get("type", "")):
            nested = [e for e in error.context if e.schema_path and e.schema_path[0] == index]
            if nested:
                return [d for e in nested for d in _to_diagnostics(doc, e, lengths)]
    inner = best_match(error.context) if error.context else None
    return _to_diagnostics(doc, inner, lengths) if inner is not None else [
        doc.diagnostic(path, "bad-value", error.message)]


def _wrong_type(doc: Document, path: tuple, wanted, value) -> Diagnostic:
    hint = ""
    if isinstance(value, bool) and "string" in wanted:
        hint = ": quote it, YAML reads yes/no/on/off/true/false as true or false"
    elif value is None:  # `key:` with nothing after it; the key is the useful place to point
        return doc.diagnostic(path, "wrong-type", f"has no value; it should be {_wanted(wanted)}",
                              key=path in doc.key_marks)
    elif "boolean" in wanted:
        hint = _slip(value, [{"type": "boolean"}])
    return doc.diagnostic(path, "wrong-type", f"should be {_wanted(wanted)}, not {_shown(value)}{hint}")


def _too_many_keys(doc: Document, path: tuple, schema: dict, most: int, value: dict) -> Diagnostic:
    keys = quote(list(value))
    if most == 2 and "name" in schema.get("properties", {}):  # a setup step: one action, a name
        actions = [key for key in value if key != "name"]
        return doc.diagnostic(path, "bad-value",
                              f"a setup step has one key besides `name`; this one has "
                              f"{quote(actions)}: split it into separate steps")
    return doc.diagnostic(path, "bad-value", f"this mapping has {len(value):,} keys ({keys}); at most "
                                             f"{most:,} are allowed here")


def _closest_keys(key: str, allowed) -> str:
    """The few allowed keys nearest to ``key`` (all of them when there are few)."""
    import difflib

    names = sorted(str(name) for name in allowed)
    if len(names) <= 6:
        return f"allowed here: {', '.join(names)}"
    near = difflib.get_close_matches(key, names, n=4, cutoff=0.0)
    return (f"nearest allowed keys here: {', '.join(near)} (of {len(names)}; "
            "`kittens docs format` lists them all)")


def _key_hint(key: str) -> str:
    if key == "<<":
        return ": YAML merge keys are not supported, write the keys out"
    if any(c in key for c in "()"):
        return ": an expression with a comma inside `{...}` must be quoted"
    return ""


def _fits_type(value, json_type) -> bool:
    if isinstance(json_type, list):  # a branch that allows several types
        return any(_fits_type(value, one) for one in json_type)
    return {
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "string": isinstance(value, str),
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
        "boolean": isinstance(value, bool),
    }.get(json_type, False)


# -- scenario steps written in the wrong form ------------------------------------------
_SEAT_WORDS = ("seat", "player", "who", "by", "as")
_DO_WORDS = ("do", "play", "action", "decision", "choose", "does")


def _flow(seat, do) -> str:
    return f"- {{seat: {seat}, do: {do}}}"


def step_form(step) -> str | None:
    """The right form of a scenario step written another way, or None when it is in
    one of the known forms (or too far from them to guess)."""
    if isinstance(step, str):
        words = step.split()
        if len(words) >= 3 and words[0] == "seat" and words[1].isdigit():
            verb = words[2][:-1] if words[2].endswith("s") else words[2]
            return _flow(words[1], " ".join([verb, *words[3:]]))
        return _flow(0, step)
    if not isinstance(step, dict):
        return None
    keys = set(map(str, step))
    if "expect" in keys and keys & {"seat", "do"}:
        seat, do = step.get("seat", 0), step.get("do", "...")
        return f"{_flow(seat, do)}` and then, as a step of its own, `- expect: {{...}}"
    if "chance" in keys or "expect" in keys or {"seat", "do"} <= keys:
        return None
    if len(step) == 1:
        (key, value), = step.items()
        if isinstance(key, int) or str(key).isdigit():
            return _flow(key, value)
    seat = next((step[k] for k in step if str(k) in _SEAT_WORDS), 0)
    for key in step:
        if str(key) in _DO_WORDS:
            value = step[key]
            if isinstance(value, list):
                value = " ".join(map(str, value))
            do = f"play {value}" if str(key) == "play" and not str(value).startswith("play") else value
            return _flow(seat, do)
    return None


def with_step_forms(doc: Document, problems: list[Diagnostic]) -> list[Diagnostic]:
    """Schema findings on a scenario, a wrongly written step's findings replaced by one
    that shows the step in its right form."""
    steps = doc.data.get("steps") if isinstance(doc.data, dict) else None
    if not isinstance(steps, list) or not problems:
        return problems
    starts = [doc.mark(("steps", i)).line for i in range(len(steps))] + [10 ** 9]
    out, hinted = [], set()
    for problem in problems:
        index = next((i for i in range(len(steps)) if starts[i] <= problem.line < max(starts[i + 1],
                                                                                    starts[i] + 1)), None)
        form = step_form(steps[index]) if index is not None else None
        if form is None:
            out.append(problem)
        elif index not in hinted:
            hinted.add(index)
            out.append(doc.diagnostic(("steps", index), problem.code,
                                      f"this step is not in a form kittens reads: write it as "
                                      f"`{form}` (a decision names the seat that decides and what it "
                                      f"does; a check is `- expect: {{...}}`); `kittens docs scenarios` "
                                      "has every form"))
    return out
