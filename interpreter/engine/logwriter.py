"""The log writer: events as the lines of a JSON log, byte for byte as ``json.dumps``
writes them (compact, keys sorted, non-ASCII escaped).

events.py records; this module writes. An :class:`~.events.EventLog` keeps its busiest
kinds of event as rows (a :class:`~.events.Shape` and the values), and
:func:`write_rows` writes a log straight from them, mostly by looking up text written
before; an event kept as a dict goes to orjson. The masks an EventLog records
(:class:`~.events.Seats`, :class:`~.events.Secret`) are written as lists of seats
without copying the event (see :func:`encode_lines`).
"""

from __future__ import annotations

import json

from .events import _SEAT_LISTS, Seats, Secret, to_json


def _written(value):
    """orjson's ``default`` for a log: a recorded mask or secret as it is written, and any
    other subclass of a JSON type as that type (as orjson writes it unasked)."""
    kind = type(value)
    if kind is Seats:
        return _SEAT_LISTS[value]
    if kind is Secret:
        return value.written
    for base in (int, str, dict, list):
        if isinstance(value, base):
            return base.__int__(value) if base is int else base.__str__(value) if base is str \
                else base.copy(value)
    raise TypeError(f"Type is not JSON serializable: {kind.__name__}")


def dumps(event: dict) -> str:
    """One event as one line of a log: compact JSON, keys sorted, non-ASCII escaped."""
    return encode(to_json(event))


def dumps_lines(events: list) -> str:
    """Events as lines of a log, one event per line (each as :func:`dumps` writes it)."""
    return encode_lines(events).decode()


def encode_lines(events: list) -> bytes:
    """:func:`dumps_lines` as ASCII bytes, ready for a file (a log written in bytes
    is not decoded and encoded again).

    Written for speed, since a logged run writes every event. orjson writes the whole
    list in one call; the list's separators between events then become line breaks.
    That is exact only when ``},{`` occurs nowhere but between events, which the count
    of line breaks proves (JSON text holds none of its own); otherwise, and for text
    that is not ASCII, each event is written on its own."""
    if not events:
        return b""
    # an event whose masks an EventLog recorded (Seats, Secret) goes to orjson as it is,
    # and _written writes its masks; any other event with masks is converted first
    converted = [to_json(event) if _has_plain_masks(event) else event for event in events]
    try:
        data = _orjson.dumps(converted, default=_written, option=_SORTED | _SUBCLASSES)
    except TypeError:  # past orjson (a number beyond 64 bits): each event on its own below
        data = b"\xff"
    if _as_json_writes(data):
        lines = data[1:-1].replace(b"},{", b"}\n{")
        if lines.count(b"\n") == len(events) - 1:
            return lines
    return "\n".join(encode(to_json(event)) for event in events).encode()


def write_rows(rows: list) -> bytes:
    """The events of an :class:`EventLog` (rows and dicts) as the lines of a log, exactly
    as :func:`encode_lines` writes them, without making a dict of any row.

    Values are written as json.dumps writes them (keys sorted, compact, non-ASCII
    escaped). A row is written a field at a time from the texts its shape remembers
    (see :class:`Shape`): nearly every field of a game is one written before, so a
    log is mostly looked up in small tables, faster than orjson writes dicts.

    The pieces are str (ASCII, as json.dumps writes them), joined once and encoded:
    str.join copies each piece straight, where bytes.join first fills in a buffer of
    80 bytes for each of some 1,300 pieces a game, memory that misses the cache."""
    out: list = []
    write_lines(rows, out)
    return "".join(out)[:-1].encode()  # without the last line break


def write_lines(rows: list, out: list) -> None:
    """Append the text of :func:`write_rows` to ``out`` in pieces (str), every line ended
    by a line break (a caller that joins them with more text copies the log only once)."""
    for row in rows:
        if type(row) is dict:
            out.append(_dict_text(row))
            out.append("\n")
        else:
            _write_row(row, out)


def _write_row(values: tuple, out: list) -> None:
    """Append a row's line to ``out``, its line break included, a field at a time: each
    piece is a field's remembered text, its head (and the tail) included (see Shape).

    The pieces go straight into ``out``, one join for the whole game. (Whole lines were
    remembered by row for a while: fewer instructions, but some 2,000 remembered lines
    and their rows are cold after a game, and on a shared machine the misses cost more
    than the instructions saved: see benchmarks/instructions.py --ll-cache.)"""
    shape = values[0]
    heads, optional, kept, texts = shape.heads, shape.optional, shape.kept, shape.texts
    last = len(heads) - 1
    for i in range(last + 1):
        value = values[i + 1]
        if value is None and optional[i]:
            continue
        if kept[i]:
            key = value
        else:  # a mixed field: strings, ints and lists of strings are remembered (see _text_key)
            key = _text_key(value)
        if key is None:
            out.append(heads[i] + _value_text(value) + (shape.tail if i == last else ""))
        else:
            known = texts[i]
            text = known.get(key)
            if text is None:
                text = heads[i] + _value_text(value) + (shape.tail if i == last else "")
                if len(known) < _FIELD_TEXTS_BOUND:
                    known[key] = text
            out.append(text)


def _text_key(value):
    """What a mixed field's value is remembered by, or None when it is not: a string or
    an int as it is, a list or tuple of strings as a tuple (both are written alike). Two
    keys are equal only where their values are written alike: no key is a bool or a
    float (True == 1 == 1.0, but one is written true), nor holds one."""
    kind = type(value)
    if kind is str or kind is int:
        return value
    if kind is list or kind is tuple:
        for item in value:
            if type(item) is not str:
                return None
        return tuple(value)
    return None


def _dict_text(event: dict) -> str:
    """An event kept as a dict, as one line of a log (orjson writes dicts fastest)."""
    try:
        data = _orjson.dumps(to_json(event) if _has_plain_masks(event) else event, default=_written,
                             option=_SORTED | _SUBCLASSES)
    except TypeError:  # past orjson (a number beyond 64 bits): as json.dumps writes it
        data = b"\xff"
    return data.decode() if _as_json_writes(data) else encode(to_json(event))


def _value_text(value) -> str:
    out: list = []
    _write(value, out)
    return "".join(out)


def _has_plain_masks(event: dict) -> bool:
    """Whether an event's masks are plain ints and dicts (not as an EventLog records them)."""
    secret, only = event.get("secret"), event.get("only")
    return (secret is not None and type(secret) is not Secret) or (only is not None and type(only) is not Seats)


def _write(value, out: list) -> None:
    """Append the JSON text of ``value`` to ``out``, as json.dumps(sort_keys=True,
    separators=(",", ":")) writes it, a recorded mask or secret as its seats."""
    kind = type(value)
    if kind is str:
        text = _TEXTS.get(value)
        if text is None:
            text = _remember(value)
        out.append(text)
    elif kind is int:
        if 0 <= value < _NUMBERS_KEPT:
            out.append(_NUMBERS[value])
        else:
            out.append(str(value))
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        out.append("[")
        first = True
        for item in value:
            if first:
                first = False
            else:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif kind is Seats:  # (the writer remembers the text of each: see Shape)
        _write(_SEAT_LISTS[value], out)
    elif kind is Secret:
        _write(value.written, out)
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        keys = sorted(value) if _all_text(value) else None
        if keys is None:  # json.dumps turns other keys into text, or refuses them
            out.append(json.dumps(value, sort_keys=True, separators=(",", ":")))
            return
        first = True
        for key in keys:
            if first:
                out.append("{")
                first = False
            else:
                out.append(",")
            text = _TEXTS.get(key)
            if text is None:
                text = _remember(key)
            out.append(text)
            out.append(":")
            _write(value[key], out)
        out.append("}")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    else:  # anything else (floats, subclasses of JSON types) as json.dumps writes it
        out.append(json.dumps(value, sort_keys=True, separators=(",", ":")))


def _all_text(mapping: dict) -> bool:
    for key in mapping:
        if type(key) is not str:
            return False
    return True


def _remember(text: str) -> str:
    """A string's JSON text, kept (a game writes the same ids and words again and again;
    past the bound a string is written afresh each time)."""
    written = json.dumps(text)
    if len(_TEXTS) < _TEXTS_BOUND:
        _TEXTS[text] = written
    return written


_TEXTS: dict = {}
_TEXTS_BOUND = 1 << 13
_FIELD_TEXTS_BOUND = 1 << 10  # values remembered per field of a shape (a few MB at most)
_NUMBERS_KEPT = 1024
_NUMBERS = [str(number) for number in range(_NUMBERS_KEPT)]


def encode(value) -> str:
    """A JSON value as compact text, keys sorted, exactly as json.dumps(separators=(",",
    ":"), sort_keys=True) writes it. orjson does the work where it can: it writes a log
    several times faster, which is most of what logging costs."""
    try:
        text = _orjson.dumps(value, option=_SORTED).decode()
    except TypeError:  # past orjson (a number beyond 64 bits): json.dumps writes it, or says why not
        text = "\xff"
    return text if text.isascii() and "\x7f" not in text else \
        json.dumps(value, separators=(",", ":"), sort_keys=True)


def _as_json_writes(data: bytes) -> bool:
    """Whether orjson's text is what json.dumps writes: it is when it is ASCII without
    DEL (json.dumps escapes everything beyond ASCII and DEL too; orjson writes DEL as it is)."""
    return data.isascii() and b"\x7f" not in data


# orjson is a required dependency (pyproject.toml): a log is written by it or by json.dumps
# where it refuses a value (a number beyond 64 bits), never by a stand-in for it
import orjson as _orjson  # noqa: E402

_SORTED = _orjson.OPT_SORT_KEYS
_SUBCLASSES = _orjson.OPT_PASSTHROUGH_SUBCLASS  # Seats and Secret go to _written
