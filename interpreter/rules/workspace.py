"""Loading rule files once each, and the checks every file gets.

A :class:`Workspace` is one validation or compilation run. It loads each file
at most once (editions share libraries), checks the document envelope
(`format`, `kind`) and the JSON Schema, collects every diagnostic without
duplicates, and offers the effect helpers that the library and edition
compilers share: parse effect text, check it, and report at file positions.

It also keeps references inside the rule folders: a file the caller loads
directly is one the user named, and its project (see
:func:`plugins.project_root`) joins the folders this run may read; a reference
(`include`, `uses`, `extends`, `apply`, `base`, a scenario's `edition`) must
lead into one of them, the kittens package folder or an installed expansion's,
unless the run allows reading outside (``allow_outside``, or the environment
variable ``KITTENS_ALLOW_OUTSIDE=1``).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from ...about import PACKAGE_DIR
from ..lang import checker, parser, syntax
from ..lang import primitives as P
from ..lang.diagnostics import ERROR, WARNING, Diagnostic, did_you_mean, with_article
from ..lang.loader import Document, load_file, load_text
from ..lang.names import SHADOWS, shadowed_primitive
from ..lang.schemas import FORMAT_VERSION, KINDS, invalid_records, validate, with_step_forms
from . import plugins
from .libraries import LibraryCache

_MODELINE = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")

#: effect text one file may hold; parsing is the costly step of validation, and
#: this keeps a hostile file to about a second (the Original holds about 2 KB)
MAX_EFFECT_TEXT_PER_FILE = 96 * 1024

#: findings of one code in one file that are told one by one; the rest are counted in one
#: more finding (a 190,000-item list gave 570,007 lines of findings)
MAX_FINDINGS_PER_KIND = 10

#: set to 1 (or anything but 0 or nothing) to let references leave the rule folders
ALLOW_OUTSIDE_ENV = "KITTENS_ALLOW_OUTSIDE"


#: the kittens package folder as messages may name it (a second place: "(file:line)")
_INSTALLED = os.path.join(str(PACKAGE_DIR), "")


def shipped_in_text(text: str) -> str:
    """``text`` with every path into the kittens package written ``<kittens>/...``, as a
    shipped file is always shown (docs/tools.md), never where kittens is installed."""
    return text.replace(_INSTALLED, "<kittens>/")


def allow_outside_default() -> bool:
    """Whether the environment allows references outside the rule folders."""
    return os.environ.get(ALLOW_OUTSIDE_ENV, "").strip() not in ("", "0")


class Sources:
    """Where rule text comes from. A path reads its file, unless a text is held for it in
    memory (an editor's unsaved buffer, the house rule a lab sweep generates): both are
    read the same way, checked the same way, and named by the same path in findings."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}  # real path -> text read instead of the file

    def put(self, path: str, text: str) -> None:
        """Read ``text`` wherever ``path`` is read, whether or not the file exists."""
        self._texts[os.path.realpath(path)] = text

    def update(self, texts: Mapping[str, str]) -> None:
        """:meth:`put` each path -> text of ``texts``."""
        for path, text in texts.items():
            self.put(path, text)

    def held(self, path: str) -> bool:
        """Whether ``path`` reads a text held in memory."""
        return os.path.realpath(path) in self._texts

    def exists(self, path: str) -> bool:
        """Whether ``path`` can be read: a held text or a file."""
        return self.held(path) or os.path.isfile(path)

    def load(self, path: str) -> tuple[Document | None, list[Diagnostic]]:
        """The document at ``path`` with the problems met reading and parsing it."""
        text = self._texts.get(os.path.realpath(path))
        return load_file(path) if text is None else load_text(text, path)


class Workspace:
    """One run over a set of rule files: loaded documents and their findings.

    Its collaborators own their state: :attr:`sources` says where text comes
    from, :attr:`libraries` holds the compiled libraries; the workspace itself
    keeps the loaded documents, the findings and the folders it may read.
    """

    def __init__(self, *, allow_outside: bool | None = None) -> None:
        #: read what references name wherever it is (the user said they trust it)
        self.allow_outside = allow_outside_default() if allow_outside is None else allow_outside
        #: folders references may lead into: the package's, and the projects of named files
        self.roots: set[str] = {os.path.realpath(PACKAGE_DIR)}
        self._trusted: list[str] | None = None  # the package's and installed expansions' folders
        self._docs: dict[str, tuple[Document | None, str | None]] = {}
        self._found: dict[tuple, Diagnostic] = {}
        self.libraries = LibraryCache()
        self.sources = Sources()
        self._effect_text: dict[str, int] = {}  # file -> effect characters parsed so far
        self._effect_counted: set[tuple] = set()  # (file, place in it) of each effect counted
        # (file, place in it, expression?, text) -> its syntax tree: an edition's own effects are
        # parsed once, not once for it and again for each variant (trees are frozen, so shared)
        self._trees: dict[tuple, object] = {}
        self._recorders: list[list[Diagnostic]] = []  # see recording()

    # -- diagnostics ----------------------------------------------------------
    def report(self, diagnostic: Diagnostic) -> None:
        if _INSTALLED in diagnostic.message:
            diagnostic = dataclasses.replace(diagnostic, message=shipped_in_text(diagnostic.message))
        key = (diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.code, diagnostic.message)
        self._found.setdefault(key, diagnostic)
        for recorder in self._recorders:
            recorder.append(diagnostic)

    @contextmanager
    def recording(self) -> Iterator[list[Diagnostic]]:
        """Within the block, every finding reported is also added to the list given: what
        a step reported, to report again where the step's result is reused."""
        found: list[Diagnostic] = []
        self._recorders.append(found)
        try:
            yield found
        finally:
            self._recorders.remove(found)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every finding in file order, at most :data:`MAX_FINDINGS_PER_KIND` of one code in
        one file; a last one counts the rest."""
        return bounded(sorted(self._found.values(), key=lambda d: (d.path, d.line, d.column, d.code)))

    def snapshot(self) -> dict:
        """The findings so far, to go back to with :meth:`restore` (a trial compilation)."""
        return dict(self._found)

    def restore(self, snapshot: dict) -> list[Diagnostic]:
        """Forget what was reported since ``snapshot``; return the errors among it."""
        new = [d for key, d in self._found.items() if key not in snapshot]
        self._found = dict(snapshot)
        return sorted((d for d in new if d.is_error), key=lambda d: (d.path, d.line, d.column))

    def has_errors(self, path: str | list | None = None) -> bool:
        paths = [path] if isinstance(path, str) else path
        return any(d.is_error and (paths is None or d.path in paths) for d in self._found.values())

    # -- documents ------------------------------------------------------------
    def load(self, path: str) -> tuple[Document | None, str | None]:
        """Load, envelope-check and schema-check a file once; returns (doc, kind).

        ``doc`` is None when the file could not be loaded; ``kind`` is None when
        the document is not schema-valid (later checks would only add noise).
        """
        key = os.path.realpath(path)  # one file is one file, however a path reaches it
        if key not in self._docs:
            if not plugins.confined(key, self.roots):
                # references are checked before they are loaded (see may_read), so a file
                # outside every root that gets here is one the caller was given to load
                self.trust(path)
            self._docs[key] = self._load(os.path.normpath(path))
        return self._docs[key]

    # -- the rule folders -------------------------------------------------------
    def trust(self, path: str) -> None:
        """Let references reach the project of ``path``, a file the user named."""
        self.roots.add(plugins.project_root(path))

    def outside(self, target: str) -> bool:
        """Whether ``target`` lies outside every folder this run may read from."""
        if self.allow_outside or plugins.confined(target, self.roots):
            return False
        if self._trusted is None:  # looked up only when needed: it lists installed packages
            self._trusted = plugins.trusted_folders()
        return not plugins.confined(target, self._trusted)

    def refusal(self, doc, path: tuple, target: str) -> str | None:
        """Why the reference at ``path`` of ``doc``, which leads to the file ``target``,
        may not be followed; None when it may."""
        if not self.outside(target):
            return None
        real = os.path.realpath(target)
        shown = f"'{doc.value_at(path)}'"
        if real != os.path.abspath(target):
            shown += f" (a link to {real})"
        named_in = doc.route(path)[0].path if hasattr(doc, "route") else doc.path
        return (f"{shown} leads outside the rule folders (the project {plugins.project_root(named_in)}, "
                "the kittens package and installed expansions), and kittens reads no file there: "
                "move the file into the project, or if you trust it, run with --allow-outside "
                f"(or set {ALLOW_OUTSIDE_ENV}=1)")

    def may_read(self, doc, path: tuple, target: str) -> bool:
        """Whether the file ``target``, named at ``path`` of ``doc``, may be read. When it
        may not, an `outside-project` error is reported at that reference."""
        problem = self.refusal(doc, path, target)
        if problem is None:
            return True
        self.report(doc.diagnostic(path, "outside-project", problem))
        return False

    def documents(self) -> list[tuple[Document | None, str | None]]:
        """Every document loaded so far, with its kind."""
        return list(self._docs.values())

    def _load(self, path: str) -> tuple[Document | None, str | None]:
        doc, problems = self.sources.load(path)
        for problem in problems:
            self.report(problem)
        if doc is None:
            return None, None
        kind = self._envelope(doc)
        if kind is None:
            return doc, None
        self._modeline(doc, kind)
        schema_problems = validate(doc, kind)
        if kind == "scenario":
            schema_problems = with_step_forms(doc, schema_problems)
        for problem in schema_problems:
            self.report(problem)
        if schema_problems and kind in ("cards", "combos"):
            # bad records are left out and the rest checked on (see library._compile_section)
            skipped = invalid_records(doc, kind)
            if skipped is not None and len(skipped) < len(doc.data.get(kind) or ()):
                doc.skipped = frozenset((kind, index) for index in skipped)
                return doc, kind
        return doc, (None if schema_problems else kind)

    def _envelope(self, doc: Document) -> str | None:
        data = doc.data
        if not isinstance(data, dict):
            self.report(doc.diagnostic((), "not-a-mapping",
                                       "a rule file must be a mapping with `format` and `kind` keys"))
            return None
        if "format" not in data:
            self.report(doc.diagnostic((), "format-missing",
                                       f"add `format: {FORMAT_VERSION}` to say which format this file uses"))
            return None
        version = data["format"]
        if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
            self.report(doc.diagnostic(("format",), "format-unsupported",
                                       f"this file needs format {version}, but this kittens reads "
                                       f"format {FORMAT_VERSION}: upgrade kittens"))
            return None
        kind = data.get("kind")
        if kind not in KINDS:
            where = ("kind",) if "kind" in data else ()
            shown = f"'{kind}'" if isinstance(kind, str) else "missing"
            self.report(doc.diagnostic(where, "unknown-kind",
                                       f"kind {shown} is not a document kind"
                                       f"{did_you_mean(str(kind), KINDS)} (known: {', '.join(KINDS)})"))
            return None
        return kind

    def _modeline(self, doc: Document, kind: str) -> None:
        for number, line in enumerate(doc.lines[:5], start=1):
            match = _MODELINE.search(line)
            if match:
                named = os.path.basename(match.group(1))
                wanted = f"{kind}.schema.json"
                if named != wanted:
                    message = f"the modeline names '{named}' but this is {with_article(kind)} file: use {wanted}"
                    self.report(Diagnostic(path=doc.path, line=number, column=match.start(1) + 1, severity=WARNING,
                                           code="schema-modeline", message=message, source_line=line))
                return

    # -- effects --------------------------------------------------------------
    def parse(self, doc: Document, path: tuple, *, expression: bool = False):
        """Parse the effect text at ``path``; report and return None on error. A text
        parsed before at the same place of the same file is not parsed again."""
        text = doc.value_at(path)
        if not isinstance(text, str):
            return self._parse(doc, path, text, expression)
        key = (*_place(doc, path), expression, text)
        tree = self._trees.get(key)
        if tree is not None:
            return tree
        tree = self._parse(doc, path, text, expression)
        if tree is not None:
            self._trees[key] = tree
        return tree

    def _parse(self, doc: Document, path: tuple, text, expression: bool):
        used = self._effect_text.get(doc.path, 0)
        if used > MAX_EFFECT_TEXT_PER_FILE:
            return None  # already reported for this file
        if (doc.path, path) not in self._effect_counted:  # an edition compiled again (another
            self._effect_counted.add((doc.path, path))    # scenario, variant) counts its text once
            used += len(text)
            self._effect_text[doc.path] = used
        if used > MAX_EFFECT_TEXT_PER_FILE:
            self._report_at(doc, path, 0, "effect-too-complex",
                            f"this file holds more than {MAX_EFFECT_TEXT_PER_FILE // 1024} KB of effect "
                            "text; the rest of its effects are not checked: split it into several files",
                            ERROR)
            return None
        try:
            if expression:
                return parser.parse_expression(text)
            return parser.parse_program(text)
        except parser.EffectError as exc:
            self._report_at(doc, path, exc.pos, exc.code, exc.message, ERROR)
            return None
        except RecursionError:  # belt and braces: the nesting limit should stop this first
            self._report_at(doc, path, 0, "effect-too-complex", "the effect nests too deeply", ERROR)
            return None

    def check(self, doc: Document, path: tuple, tree, env: checker.CheckEnv, context: str,
              names: dict, *, pure: bool = False, expect: str | None = None) -> str | None:
        """Check a parsed program or expression; report findings; return an expression's type."""
        if tree is None:
            return None
        run = checker.Checker(env, context, names, pure=pure, place=checker.place_words(path))
        found_type = None
        if isinstance(tree, syntax.Program):
            run.program(tree)
        else:
            found_type = run.expression(tree, expect)
        for finding in run.findings:
            self._report_at(doc, path, finding.pos, finding.code, finding.message, finding.severity)
        return found_type

    def _report_at(self, doc, path, offset, code, message, severity) -> None:
        if hasattr(doc, "route"):  # an edition with expansions applied: find the real file
            doc, path = doc.route(path)
        mark = doc.offset_mark(path, offset)
        self.report(Diagnostic(path=doc.path, line=mark.line, column=mark.column, severity=severity, code=code,
                               message=message, source_line=doc.source_line(mark.line)))


def _place(doc, path: tuple) -> tuple:
    """The file and the place in it that ``path`` of ``doc`` reaches: through the layers of
    a composed document, and into the variant a variant's document is part of."""
    if hasattr(doc, "route"):
        doc, path = doc.route(path)
    return doc.path, getattr(doc, "prefix", ()) + tuple(path)


def bounded(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` (in order) with the findings of one code in one file past
    :data:`MAX_FINDINGS_PER_KIND` replaced by one that says how many more there are."""
    groups: dict[tuple, list] = {}
    for diagnostic in diagnostics:
        groups.setdefault((diagnostic.path, diagnostic.code), []).append(diagnostic)
    if all(len(group) <= MAX_FINDINGS_PER_KIND for group in groups.values()):
        return diagnostics
    out = []
    for group in groups.values():
        out += group[:MAX_FINDINGS_PER_KIND]
        rest = group[MAX_FINDINGS_PER_KIND:]
        if rest:
            first = rest[0]
            severity = ERROR if any(d.is_error for d in rest) else WARNING
            out.append(Diagnostic(path=first.path, line=first.line, column=first.column, severity=severity,
                                  code=first.code,
                                  message=f"and {len(rest):,} more like this in this file, "
                                  "from here on: fix the ones above and check again",
                                  source_line=first.source_line))
    return sorted(out, key=lambda d: (d.path, d.line, d.column, d.code))


def base_names() -> dict:
    """The names every effect can use."""
    return dict(P.BUILTIN_NAMES)


def report_choice_name(ws: "Workspace", doc: Document, path: tuple, name: str, names: dict) -> None:
    """Report a `choose:` name that another name in scope already has (an error), or that
    a primitive also has (a warning: the file's name wins, see lang/names.py)."""
    if name in names:
        ws.report(doc.diagnostic(path, "redefined-name",
                                 f"'{name}' is already defined: pick another name", key=True))
    elif (shadowing := shadowed_primitive(name)) is not None:
        ws.report(doc.diagnostic(path, SHADOWS, shadowing, key=True, severity=WARNING))
