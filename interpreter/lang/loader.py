"""Safe, bounded YAML loading that remembers where every value came from.

Rule files are untrusted. This loader never constructs anything but plain
data (mappings, lists, strings, numbers, booleans, null), refuses tags that
would build program objects, and bounds the file size, the nesting depth and
the number of nodes (so an alias bomb cannot expand). It builds the data from
PyYAML's event stream with an explicit stack, so deep input cannot exhaust
Python's recursion limit.

Positions are kept beside the data, keyed by the JSON path of each value
(a tuple of keys and list indexes), so later stages that only see plain data
can still point at the exact line and column of a mistake.
"""

from __future__ import annotations

import bisect
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from .diagnostics import ERROR, Diagnostic

_EventLoader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:  # libyaml is much faster; fall back to the pure-Python parser when absent
    from yaml import CSafeLoader as _EventLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _EventLoader

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 48
_TOO_DEEP = f"the YAML nests more than {MAX_DEPTH} levels deep: flatten it"
MAX_NODES = 200_000

_CORE = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq")} | {"!"}

Path = tuple  # a JSON path: keys (str) and list indexes (int)

# The two keys every rule file starts with, as top-level lines of its text.
_RULE_KEYS = re.compile(r"^(format|kind)[ \t]*:", re.MULTILINE)

# What YAML counts as a line break; positions everywhere count lines the same way.
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def line_starts(text: str) -> list[int]:
    """The offset at which each line of ``text`` starts (YAML's line breaks)."""
    return [0] + [m.end() for m in _LINE_BREAK.finditer(text)]


def position(starts: list[int], index: int) -> Mark:
    """The 1-based line and column of character ``index``, given the line starts."""
    line = bisect.bisect_right(starts, index)
    return Mark(line, index - starts[line - 1] + 1)


@dataclass(frozen=True, slots=True)
class Mark:
    """A 1-based position in a source file."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class ScalarSpan:
    """Where a string scalar sits in the source, to map offsets inside it."""

    style: str | None  # None (plain), "'", '"', "|" or ">"
    start: Mark
    end: Mark


@dataclass
class Document:
    """A loaded YAML file: its data and the position of every value in it."""

    path: str
    text: str
    data: Any = None  # what the YAML holds: any mix of dicts, lists and scalars
    marks: dict = field(default_factory=dict)  # Path -> Mark of the value
    key_marks: dict = field(default_factory=dict)  # Path -> Mark of the mapping key
    scalars: dict = field(default_factory=dict)  # Path -> ScalarSpan (strings only)
    _lines: list | None = field(default=None, repr=False)
    _starts: list | None = field(default=None, repr=False)  # offset of each line's start
    _cursors: dict = field(default_factory=dict, repr=False)  # Path -> _ScalarCursor
    _looks_like_rule: bool | None = field(default=None, repr=False)
    #: (list key, index) of records the schema refused, left out of later checks
    skipped: frozenset = field(default=frozenset(), repr=False)

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = _LINE_BREAK.split(self.text)
        return self._lines

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = line_starts(self.text)
        return self._starts

    @property
    def is_rule_file(self) -> bool:
        """Whether this is a rule file: a mapping with `format` and `kind` keys. Before its
        data is built (or when it cannot be), whether its text has both keys at the top level."""
        if self.data is not None:
            return isinstance(self.data, dict) and "format" in self.data and "kind" in self.data
        if self._looks_like_rule is None:
            found = {match.group(1) for match in _RULE_KEYS.finditer(self.text)}
            self._looks_like_rule = found == {"format", "kind"}
        return self._looks_like_rule

    def source_line(self, line: int) -> str:
        """The text of a line, for the excerpt under a diagnostic. Empty for a file that is
        not a rule file: a reference may lead to any file, and its text is not ours to print."""
        if not self.is_rule_file:
            return ""
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def mark(self, path: Path, key: bool = False) -> Mark:
        """The mark of ``path`` (its key if ``key``), or of its nearest known parent."""
        path = tuple(path)
        if key and path in self.key_marks:
            return self.key_marks[path]
        while path:
            if path in self.marks:
                return self.marks[path]
            path = path[:-1]
        return self.marks.get((), Mark(1, 1))

    def _index(self, mark: Mark) -> int:
        line = min(max(mark.line, 1), len(self.starts)) - 1
        return self.starts[line] + mark.column - 1

    def offset_mark(self, path: Path, offset: int) -> Mark:
        """The file position of character ``offset`` inside the string at ``path``.

        YAML folds and indents strings, so the value's characters are matched to the
        source in order: every non-blank character of a value appears in the source
        in the same order (escapes decoded), which gives exact positions for effects.
        The match resumes where the last one for the same string stopped, so many
        findings in one long effect cost one pass, not one pass each.
        """
        path = tuple(path)
        span = self.scalars.get(path)
        value = self.value_at(path)
        if span is None or not isinstance(value, str):
            return self.mark(path)
        if span is _PLAIN_WORD:  # the source is the value itself, character for character
            start = self.marks[path]
            return Mark(start.line, start.column + max(0, min(offset, len(value))))
        cursor = self._cursors.get(path)
        if cursor is None or offset < cursor.value_pos:
            begin, end = self._index(span.start), self._index(span.end)
            if span.style in ("|", ">"):  # content starts on the line after the indicator
                begin = self.starts[min(span.start.line, len(self.starts) - 1)]
            cursor = self._cursors[path] = _ScalarCursor(self.text, value, begin, end, span.style == '"')
        return position(self.starts, cursor.source_index(offset))

    def value_at(self, path: Path):
        """The value at a JSON path, or None when the path leads nowhere."""
        node = self.data
        for key in path:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def diagnostic(self, path: Path, code: str, message: str, *, key: bool = False,
                   severity: str = ERROR, at: Mark | None = None) -> Diagnostic:
        """A diagnostic pointing at ``path`` (or at an explicit mark)."""
        mark = at or self.mark(path, key)
        return Diagnostic(path=self.path, line=mark.line, column=mark.column, severity=severity, code=code,
                          message=message,
                          source_line=self.source_line(mark.line))


#: the span of a plain one-line scalar without blanks (an id, a number-like word):
#: its characters are the source's, so one shared marker stands for every such span
_PLAIN_WORD = ScalarSpan(None, Mark(0, 0), Mark(0, 0))
_HAS_SPACE = re.compile(r"\s")


class _Budget(Exception):
    """Raised inside the builder to stop at the first hard limit."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def read_text(path: str) -> tuple[str | None, list[Diagnostic]]:
    """Read a rule file as UTF-8 text, refusing huge, special or undecodable files."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # a pipe or device would block or never end
            return None, [Diagnostic(path=path, line=1, column=1, severity=ERROR, code="io-error",
                                     message="not a regular file: rule files must be plain files")]
        if info.st_size > MAX_FILE_BYTES:
            return None, [Diagnostic(path=path, line=1, column=1, severity=ERROR, code="file-too-large",
                                     message=f"file is {info.st_size:,} bytes; rule files may be at most "
                                     f"{MAX_FILE_BYTES:,} bytes: split it into several files")]
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, [Diagnostic(path=path, line=1, column=1, severity=ERROR, code="io-error",
                                 message=f"cannot read file: {exc.strerror or exc}")]
    if raw.startswith(b"\xef\xbb\xbf"):  # a byte-order mark is not part of the text
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        # positions count characters and YAML's line breaks, as everywhere else
        before = raw[:exc.start].decode("utf-8", errors="replace")
        mark = position(line_starts(before), len(before))
        return None, [Diagnostic(path=path, line=mark.line, column=mark.column, severity=ERROR, code="encoding",
                                 message=f"byte 0x{raw[exc.start]:02x} is not valid UTF-8: "
                                 "save the file as UTF-8")]


def load_file(path: str) -> tuple[Document | None, list[Diagnostic]]:
    """Load one YAML rule file. Returns ``(None, errors)`` when it cannot be read."""
    text, problems = read_text(path)
    if text is None:
        return None, problems
    return load_text(text, path)


def load_text(text: str, path: str = "<string>") -> tuple[Document | None, list[Diagnostic]]:
    """Load YAML text into a :class:`Document` with positions, within the limits."""
    doc = Document(path=path, text=text)
    builder = _Builder(doc)
    try:
        for event in yaml.parse(text, Loader=_EventLoader):
            builder.feed(event)
    except _Budget as stop:
        return None, [stop.diagnostic]
    except yaml.MarkedYAMLError as exc:
        if "maximum nesting depth" in (exc.problem or ""):
            # PyYAML 6.0.4 stops at a nesting limit of its own (1,000 levels) while it scans
            # ahead, before a container reaches the builder: ours (MAX_DEPTH) is what to report
            found = _deeper_than(text, MAX_DEPTH)
            line, col = found or ((exc.problem_mark.line + 1, exc.problem_mark.column + 1)
                                  if exc.problem_mark else (1, 1))
            return None, [Diagnostic(path=path, line=line, column=col, severity=ERROR, code="yaml-too-deep",
                                     message=_TOO_DEEP,
                                     source_line=doc.source_line(line))]
        mark, message = _explain(exc, text)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return None, [Diagnostic(path=path, line=line, column=col, severity=ERROR, code="yaml-syntax",
                                 message=f"YAML syntax: {message}", source_line=doc.source_line(line))]
    except yaml.reader.ReaderError as exc:  # a control character: the error has an offset only
        # libyaml reports a byte offset into the UTF-8 text; count characters instead
        index = len(text.encode("utf-8")[:exc.position].decode("utf-8", errors="ignore")) \
            if _EventLoader is not yaml.SafeLoader else exc.position
        at = position(line_starts(text), index)
        line, column = at.line, at.column
        return None, [Diagnostic(path=path, line=line, column=column, severity=ERROR, code="yaml-syntax",
                                 message=f"YAML syntax: the control character U+{exc.character:04X} is not "
                                 "allowed in YAML: delete it", source_line=doc.source_line(line))]
    except yaml.YAMLError as exc:
        return None, [Diagnostic(path=path, line=1, column=1, severity=ERROR, code="yaml-syntax",
                                 message=f"YAML syntax: {exc}")]
    if builder.documents == 0:
        return None, [Diagnostic(path=path, line=1, column=1, severity=ERROR, code="empty-file",
                                 message="the file holds no YAML document: start it with `format: 1`")]
    doc.data = builder.result
    return doc, []


_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}


class _ScalarCursor:
    """Walks a string value and its source text side by side, forward only."""

    def __init__(self, text: str, value: str, begin: int, end: int, escapes: bool):
        self.text, self.value, self.end, self.escapes = text, value, end, escapes
        self.value_pos = 0  # next value character to match
        self.source_pos = begin  # next source character to look at
        self.found = begin  # source index of the last matched character

    def _next_source(self) -> tuple[int, str] | None:
        """The next (index, decoded character) of the source, or None at its end."""
        text, index = self.text, self.source_pos
        while index < self.end:
            char = text[index]
            if self.escapes and char == "\\" and index + 1 < self.end:
                code = text[index + 1]
                if code in "\r\n":  # an escaped line break stands for nothing
                    index += 2
                    continue
                self.source_pos = index + _ESCAPE_LENGTH.get(code, 2)
                # an escape stands for one character; only a few have a plain value
                return index, code if code in '"\\/' else " "
            self.source_pos = index + 1
            return index, char
        self.source_pos = self.end
        return None

    def source_index(self, offset: int) -> int:
        value = self.value
        if not value:
            return self.source_pos
        past_end = offset >= len(value)
        offset = min(max(offset, 0), len(value) - 1)
        while self.value_pos <= offset:
            char = value[self.value_pos]
            self.value_pos += 1
            if char.isspace():
                continue
            saved = self.source_pos
            while (pair := self._next_source()) is not None and pair[1] != char:
                pass
            if pair is None:  # not in the source (an escape): stay where we were
                self.source_pos = saved
            else:
                self.found = pair[0]
        if value[offset].isspace():
            return min(self.source_pos, self.end)
        return self.found + 1 if past_end else self.found


def _deeper_than(text: str, limit: int):
    """(line, column) of the first bracket or brace that opens a flow list or mapping
    more than ``limit`` levels deep (the first past the limit), counting outside quotes
    and comments; None if nothing nests that deep."""
    depth, line, start, quote = 0, 1, 0, None
    for index, char in enumerate(text):
        if char == "\n":
            line, start = line + 1, index + 1
            if quote is None or quote == "#":
                quote = None
        elif quote is not None:
            if char == quote and quote != "#":
                quote = None
        elif char in "'\"" or (char == "#" and (index == start or text[index - 1] in " \t")):
            quote = char
        elif char in "[{":
            depth += 1
            if depth > limit:
                return line, index - start + 1
        elif char in "]}":
            depth = max(0, depth - 1)
    return None


def _explain(exc: yaml.MarkedYAMLError, text: str):
    """Where a YAML syntax error really is, and what to do about it, in plain words: the
    likely cause (indentation, a missing colon, a tab, an unclosed quote or bracket)
    rather than the parser's own terms."""
    problem, context = exc.problem or "malformed YAML", exc.context or ""
    mark = exc.problem_mark or exc.context_mark
    opened = exc.context_mark
    where = f"line {opened.line + 1}, column {opened.column + 1}" if opened is not None else "above"
    if "end of stream" in problem and opened is not None:
        # an unclosed quote or bracket: the place to fix is where it opened
        what = context.replace("while scanning ", "").replace("while parsing ", "")
        what = {"a quoted scalar": "a quoted text", "a flow sequence": "a list in [brackets]",
                "a flow mapping": "a mapping in {braces}"}.get(what, what)
        return opened, f"{what} starts here but the file ends before it is closed"
    if "alias" in context or "anchor" in context:
        return opened or mark, ("a value starting with '*' or '&' is read as a YAML alias "
                                "or anchor: put the text in quotes")
    char = ""
    lines = _LINE_BREAK.split(text)
    if mark is not None and mark.line < len(lines) and mark.column < len(lines[mark.line]):
        char = lines[mark.line][mark.column]
    if "cannot start any token" in problem:
        if char == "\t":
            return mark, "a tab cannot indent YAML: use spaces"
        if char in "`@%":
            return mark, f"'{char}' cannot start a YAML value: put the text in quotes"
    if "tab character" in problem or (char == "\t" and "indent" in problem):
        return mark, "a tab indents this line, and YAML allows only spaces: replace it with spaces"
    if "could not find expected ':'" in problem:
        line = lines[opened.line].strip() if opened is not None and opened.line < len(lines) else ""
        return opened or mark, (f"a colon is missing: `{line[:40]}` is neither a `key: value` pair "
                                "nor a list item; write `key: value` (a space after the colon)")
    if "mapping values are not allowed" in problem:
        return mark, ("a second ': ' on one line: a text holding ': ' must be put in quotes "
                      "(\"like: this\"), and each key starts a line of its own")
    if "expected ',' or ']'" in problem or "expected ',' or '}'" in problem:
        closing = "]" if "]" in problem else "}"
        return mark, (f"the list or mapping opened at {where} is not closed with '{closing}' "
                      "(or a comma is missing between its entries)")
    if "expected '-' indicator" in problem or "expected key" in problem or "expected <block end>" in problem:
        return mark, ("the indentation does not match the lines above: line this up with the "
                      "other keys of the same mapping (or the dashes of the same list), using "
                      "spaces; a key written further left or right than its neighbours starts or "
                      "ends a mapping by mistake")
    if "unknown escape character" in problem or "expected escape sequence" in problem:
        return mark, ("a backslash in double quotes starts an escape: use single quotes, or "
                      "write a backslash as \\\\")
    return mark, problem + (f" ({context})" if context else "")


class _Builder:
    """Turns a YAML event stream into plain data plus marks, iteratively."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.stack: list[list] = []  # frames: [container, path, pending key or None]
        self.anchors: dict[str, tuple[object, int]] = {}  # anchor -> (value, node count)
        self.nodes = 0
        self.aliased = 0  # how many of the nodes came from aliases
        self.documents = 0
        self.result: object = None
        self.constructor = SafeConstructor()
        self.resolver = Resolver()
        #: plain scalar text -> its value: a long list repeats a few words (ids, numbers),
        #: and resolving each anew made a 190,000-item list take seconds to load
        self.plain: dict[str, object] = {}

    # -- helpers -------------------------------------------------------------
    def _mark(self, event) -> Mark:
        return Mark(event.start_mark.line + 1, event.start_mark.column + 1)

    def _fail(self, event, code: str, message: str):
        mark = self._mark(event)
        raise _Budget(Diagnostic(path=self.doc.path, line=mark.line, column=mark.column, severity=ERROR, code=code,
                                 message=message,
                                 source_line=self.doc.source_line(mark.line)))

    def _count(self, event, amount: int = 1) -> None:
        self.nodes += amount
        if isinstance(event, yaml.AliasEvent):
            self.aliased += amount
        if self.nodes > MAX_NODES:
            if self.aliased:  # say what the limit is about: a long list is no alias bomb
                self._fail(event, "yaml-too-large",
                           f"the document expands to more than {MAX_NODES:,} values, "
                           f"{self.aliased:,} of them through aliases (each use of an alias counts "
                           "every value it stands for): use fewer aliases or write the values out")
            self._fail(event, "yaml-too-large",
                       f"the file holds more than {MAX_NODES:,} values (every key, list item and "
                       f"value counts), and a rule file may hold at most {MAX_NODES:,}: "
                       "make it smaller or split it into several files")

    def _check_tag(self, event) -> None:
        tag = getattr(event, "tag", None)
        if tag is None or tag == "!":
            return
        implicit = getattr(event, "implicit", True)
        if implicit is True or (isinstance(implicit, tuple) and any(implicit)):
            return
        if tag not in _ALLOWED_TAGS:
            self._fail(event, "yaml-tag",
                       f"the tag '{tag}' is not allowed in rule files: remove it and write plain data")
        fits = {yaml.MappingStartEvent: {_CORE + "map"}, yaml.SequenceStartEvent: {_CORE + "seq"}}
        allowed = fits.get(type(event), _ALLOWED_TAGS - {_CORE + "map", _CORE + "seq"})
        if tag not in allowed:
            what = {yaml.MappingStartEvent: "a mapping", yaml.SequenceStartEvent: "a list"}.get(
                type(event), "a plain value")
            self._fail(event, "yaml-tag", f"the tag '{tag}' does not fit {what}: remove it")

    def _next_path(self) -> Path | None:
        """The path of the value about to be added, or None when it is a key."""
        if not self.stack:
            return ()
        container, path, key = self.stack[-1][:3]
        if isinstance(container, list):
            return path + (len(container),)
        return None if key is None else path + (key,)

    # -- event handling ------------------------------------------------------
    def feed(self, event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self._fail(event, "multiple-documents",
                           "a rule file holds exactly one YAML document: remove the second `---`")
        elif isinstance(event, yaml.ScalarEvent):
            self._scalar(event)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self._start(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self._end()
        elif isinstance(event, yaml.AliasEvent):
            self._alias(event)

    def _scalar(self, event) -> None:
        self._check_tag(event)
        self._count(event)
        path = self._next_path()
        if path is None:  # a mapping key: keep its source text, JSON keys are strings
            self._set_key(event, event.value)
            return
        value = self._construct(event)
        start = self._mark(event)
        self.doc.marks[path] = start
        if isinstance(value, str):
            if not event.style and not _HAS_SPACE.search(value) \
                    and event.end_mark.line == event.start_mark.line:
                self.doc.scalars[path] = _PLAIN_WORD  # no span object per card id in a long pile
            else:
                end = Mark(event.end_mark.line + 1, event.end_mark.column + 1)
                self.doc.scalars[path] = ScalarSpan(event.style, start, end)
        if event.anchor:
            self.anchors[event.anchor] = (value, 1)
        self._place(value)

    def _construct(self, event):
        plain = not event.style and event.tag is None and event.implicit[0] and len(event.value) <= 64
        if plain and event.value in self.plain:
            return self.plain[event.value]
        value = self._construct_new(event)
        if plain:
            self.plain[event.value] = value
        return value

    def _construct_new(self, event):
        if event.tag and event.tag != "!" and not (event.implicit and event.implicit[0]):
            tag = event.tag
        else:
            tag = self.resolver.resolve(yaml.ScalarNode, event.value, event.implicit)
        node = yaml.ScalarNode(tag, event.value)
        try:
            if tag == _CORE + "null":
                return None
            if tag == _CORE + "bool":
                return self.constructor.construct_yaml_bool(node)
            if tag == _CORE + "int":
                return self.constructor.construct_yaml_int(node)
            if tag == _CORE + "float":
                return self.constructor.construct_yaml_float(node)
        except Exception:  # PyYAML's scalar constructors raise assorted errors on odd text
            self._fail(event, "yaml-syntax",
                       f"'{event.value}' is not a valid {tag.rsplit(':', 1)[-1]}: quote it if it is text")
        # strings, and timestamps kept as the text the author wrote; ids repeat a lot in
        # piles and decks, so short ones are shared rather than stored once per use
        return sys.intern(event.value) if len(event.value) <= 64 else event.value

    def _start(self, event) -> None:
        self._check_tag(event)
        self._count(event)
        if len(self.stack) >= MAX_DEPTH:
            self._fail(event, "yaml-too-deep", _TOO_DEEP)
        path = self._next_path()
        if path is None:
            self._fail(event, "yaml-syntax",
                       "a mapping key must be a plain value, not a list or mapping")
        self.doc.marks[path] = self._mark(event)
        container: dict | list = {} if isinstance(event, yaml.MappingStartEvent) else []
        self.stack.append([container, path, None, event.anchor, self.nodes])

    def _end(self) -> None:
        container, path, _key, anchor, nodes_before = self.stack.pop()
        if anchor:
            self.anchors[anchor] = (container, self.nodes - nodes_before)
        self._place(container)

    def _alias(self, event) -> None:
        if event.anchor not in self.anchors:
            self._fail(event, "yaml-syntax", f"alias *{event.anchor} refers to no finished anchor")
        value, size = self.anchors[event.anchor]
        # Count the alias as if it were expanded, but share the value: no copy is made.
        self._count(event, size)
        path = self._next_path()
        if path is None:
            self._fail(event, "yaml-syntax", "an alias cannot be used as a mapping key")
        self.doc.marks[path] = self._mark(event)
        self._place(value)

    def _set_key(self, event, key: str) -> None:
        container, path, _key = self.stack[-1][:3]
        if key in container:
            self._fail(event, "duplicate-key",
                       f"the key '{key}' appears twice in this mapping: keep one")
        self.stack[-1][2] = key
        self.doc.key_marks[path + (key,)] = self._mark(event)

    def _place(self, value) -> None:
        if not self.stack:
            self.result = value
            return
        frame = self.stack[-1]
        container = frame[0]
        if isinstance(container, list):
            container.append(value)
        else:
            container[frame[2]] = value
            frame[2] = None
