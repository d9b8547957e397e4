"""The rules a table may be played with, and house rules uploaded in the page.

A table plays a shipped edition, an installed expansion, one of the rule files
the server was started with, or a house rule uploaded in the page. Uploaded
files are written, under safe names, to a folder of their own that is marked
as a project (``kittens.toml``), and loaded exactly as ``kittens validate``
loads any untrusted file (bounded size, depth, values and effects; plain
data only). Their references (``extends``, ``include``, ...) may reach that
folder, the kittens package and installed expansions, and nothing else: not
the folder the server runs in, whatever the environment allows elsewhere.
The check runs in a process of its own (this module run as a program, the texts
handed over in memory), stopped after a time limit, so a file that asks much of
the checker holds up no table; only an upload that can be played is written to
disk, and quotas.py decides which older uploads make room for a new one.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import subprocess
import sys
import threading
from collections import OrderedDict

from ..about import EDITIONS_DIR, PACKAGE_DIR
from ..interpreter.lang.loader import MAX_FILE_BYTES
from ..interpreter.rules import plugins
from ..interpreter.rules.catalog import catalog, installed_catalog, shipped_editions, teams_entry
from ..interpreter.rules.check import check_file
from ..interpreter.rules.load import RuleError, UsageError, load_edition
from ..interpreter.rules.workspace import Workspace
from . import quotas

log = logging.getLogger("kittens.web")

#: how many files one upload may hold
MAX_UPLOAD_FILES = 8
#: a file name as it is kept: letters, digits, dot, dash and underscore, a rule file's suffix
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\.(yaml|yml)$")
#: an upload's folder name, as the server makes them
UPLOAD_ID = re.compile(r"^[A-Za-z0-9_-]{12}$")
#: how a lobby key of an uploaded file starts
UPLOAD_KEY = "upload:"
#: compiled editions kept in memory
EDITIONS_KEPT = 32
#: uploads a server keeps, and their bytes on disk, at most (an upload a live table plays
#: is kept: its room replays from it after a restart; past these the least lately used
#: other ones expire, see quotas.py)
MAX_UPLOADS = 500
MAX_UPLOAD_BYTES = 100 * 1024 * 1024
#: what one device (address) may keep of them
CLIENT_UPLOADS = 20
CLIENT_UPLOAD_BYTES = 10 * 1024 * 1024
#: seconds the check of one upload may take (in a process of its own, stopped after that)
CHECK_SECONDS = 30.0
#: uploads checked at once (each in a process of its own)
CHECKS_AT_ONCE = 2
#: what an upload sent while the server stops is told
STOPPING = "the server is stopping: send these files again in a moment"


class UploadError(Exception):
    """An upload refused as a whole (too many files, a bad name); the message says why.
    ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class ConfinedWorkspace(Workspace):
    """A workspace for uploaded files: references may reach the folders of the files
    named (each upload's own folder) and the kittens package and installed expansions,
    never the server's working project, and the environment cannot widen that."""

    def __init__(self) -> None:
        super().__init__(allow_outside=False)
        self.allow_outside = False

    def trust(self, path: str) -> None:
        """An uploaded file may reach its own folder (its upload) and no folder above it,
        whatever markers lie there; the folder need not exist yet (see check_upload)."""
        self.roots.add(os.path.realpath(os.path.dirname(os.path.abspath(path))))

    def outside(self, target: str) -> bool:
        if plugins.confined(target, self.roots):
            return False
        return not plugins.confined(target, _shared_folders())

    def refusal(self, doc, path: tuple, target: str) -> str | None:
        """Why a reference may not be followed, told for a file uploaded in the page: the
        server's flags and folders mean nothing to its person, the way to fix it does."""
        if not self.outside(target):
            return None
        message = (f"'{doc.value_at(path)}' leads outside this upload: an uploaded file may name the "
                   "files uploaded with it, and shipped or installed editions and expansions by name")
        stem = os.path.splitext(os.path.basename(str(target)))[0]
        if os.path.isfile(os.path.join(EDITIONS_DIR, stem + ".yaml")):
            return message + f": to build on the shipped one, write '{stem}' here"
        return message + ": upload the file it names with this one"


def _shared_folders() -> list[str]:
    folders = [os.path.realpath(PACKAGE_DIR)]
    for item in plugins.installed():
        if item.path is not None:
            folders.append(os.path.dirname(os.path.realpath(item.path)))
    return folders


class Editions:
    """Compiled editions, kept for the next table (an uploaded file compiled confined): what
    a server compiles, and what a process running uploaded rules compiles (lane_worker.py)."""

    def __init__(self, uploads: str) -> None:
        self.uploads = uploads
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()  # editions compile in worker threads

    def is_upload(self, path: str) -> bool:
        return plugins.confined(path, [os.path.realpath(self.uploads)])

    def load(self, path: str, variant: str | None, expansions: tuple = ()):
        """The compiled edition (kept for the next table): RuleError or UsageError."""
        key = (path, variant, tuple(expansions))
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        workspace = ConfinedWorkspace() if self.is_upload(path) else None
        edition = load_edition(path, variant, tuple(expansions), workspace=workspace)
        with self._lock:
            self._kept[key] = edition
            while len(self._kept) > EDITIONS_KEPT:
                self._kept.popitem(last=False)
        return edition

    def rulesheet(self, path: str, variant: str | None, expansions: tuple, players: int) -> str:
        """The table's rulesheet as an HTML page, with what it changes against its base."""
        from ..interpreter.words.resolved import against_base
        from ..interpreter.words.rulesheet import render_rulesheet

        edition = self.load(path, variant, expansions)
        whole = self.load(path, None, expansions)
        try:
            base, changes = against_base(edition, whole, lambda other: self.load(other, None))
        except (RuleError, UsageError):
            base, changes = None, []
        lines = None
        if base is not None:
            label = f"Against {base.name}" + (f" ({base.variant})" if base.variant else "")
            lines = [f"{label}:"] + [change.render() for change in changes] if changes else \
                [f"{label}: no differences in the rules"]
        return render_rulesheet(edition, players, "html", changes=lines)


class Rulesets(Editions):
    """What the lobby offers, compiled editions (kept), and uploads."""

    def __init__(self, uploads: str, extra: list[str] = (), *, max_uploads: int = MAX_UPLOADS,
                 max_upload_bytes: int = MAX_UPLOAD_BYTES, client_uploads: int = CLIENT_UPLOADS,
                 client_upload_bytes: int = CLIENT_UPLOAD_BYTES, check_seconds: float = CHECK_SECONDS) -> None:
        super().__init__(uploads)
        self.quota = quotas.Quota(max_uploads, max_upload_bytes, client_uploads, client_upload_bytes)
        self.check_seconds = check_seconds
        self._checks = threading.BoundedSemaphore(CHECKS_AT_ONCE)
        self._checking: set = set()  # the checker processes running now (stopped when the server stops)
        self.closed = False
        self.entries: list[dict] = []
        self.expansions: list[dict] = []
        self._paths: dict[str, str] = {}  # key -> absolute path
        found = catalog([shipped_editions()]) + installed_catalog() + (catalog(list(extra)) if extra else [])
        self._index(found, source="server")

    def close(self) -> None:
        """The server stops: the uploads being checked are refused at once."""
        self.closed = True
        for process in list(self._checking):
            process.kill()

    def _index(self, found: list[dict], source: str, folder: str | None = None) -> list[dict]:
        """Lobby entries (editions and expansions, their variants inside) of catalog entries."""
        added = []
        by_path: dict[str, dict] = {}
        for entry in found:
            if entry.get("errors") or entry.get("path") is None:
                continue
            path = os.path.abspath(entry["path"])
            if entry["kind"] == "variant":
                owner = by_path.get(path)
                if owner is not None:
                    owner["variants"].append({"name": entry["variant"], "players": entry["players"],
                                              "description": entry.get("description") or ""})
                continue
            if folder is None:
                key = f"k{len(self._paths)}"
                self._paths[key] = path
            else:  # an upload's files are found again from their key, after a restart too
                key = f"{UPLOAD_KEY}{os.path.basename(folder)}/{os.path.basename(path)}"
            item = {"key": key, "name": entry["name"], "kind": entry["kind"], "players": entry["players"],
                    "description": entry.get("description") or "", "variants": [],
                    "advice": entry.get("advice", {}), "teams": entry.get("teams"), "source": source}
            by_path[path] = item
            if source == "server":
                self.entries.append(item)
                if entry["kind"] == "expansion":
                    self.expansions.append({"key": key, "name": entry["name"], "players": entry["players"]})
            added.append(item)
        return added

    def lobby(self) -> dict:
        return {"rulesets": self.entries, "expansions": self.expansions}

    def server_files(self) -> list[str]:
        """The server's own rule files the lobby offers (shipped, installed, given to
        ``kittens serve``), as absolute paths in the lobby's order."""
        return list(self._paths.values())

    def path(self, key: str) -> str:
        """The rule file a lobby key stands for: UsageError when it names none."""
        if isinstance(key, str) and key.startswith(UPLOAD_KEY):
            upload_id, _, name = key[len(UPLOAD_KEY):].partition("/")
            path = os.path.join(self.uploads, upload_id, name)
            if UPLOAD_ID.match(upload_id) and SAFE_NAME.match(name) and os.path.isfile(path):
                return os.path.abspath(path)
        elif isinstance(key, str) and key in self._paths:
            return self._paths[key]
        raise UsageError("no such ruleset: choose one from the list, or upload it again")

    def kept(self, keys: list) -> list[str]:
        """Those of ``keys`` (lobby keys of uploaded files) that still name a kept file."""
        found = []
        for key in keys:
            if isinstance(key, str) and key.startswith(UPLOAD_KEY) and key not in found:
                try:
                    self.path(key)
                except UsageError:
                    continue
                found.append(key)
        return found

    # -- uploads --------------------------------------------------------------------
    def upload(self, files: list, client: str = "", in_use: set = frozenset()) -> dict:
        """Check uploaded rule files as ``kittens validate`` does (in a process of its own,
        on a time limit, the texts held in memory as if they lay in the upload's folder)
        and keep them, in a folder of their own, if something can be played from them;
        the findings, and what can be played. ``client`` names the sender (quotas.py), whose
        own uploads expire first to make room; ``in_use``: the upload ids live tables play,
        which never expire. An upload that cannot be played never touches the disk."""
        names = _names(files)
        texts = {name: item["text"] for name, item in zip(names, files)}
        size = sum(len(text.encode("utf-8")) for text in texts.values())
        upload_id = secrets.token_urlsafe(9)
        folder = os.path.join(self.uploads, upload_id)
        key = quotas.client_key(client)
        self._expire_for_upload(key, size, in_use)  # before the check: a full quota costs no checker time
        result = self._check(upload_id, folder, texts)
        result["kept"] = bool(result["playable"])
        if not result["kept"]:  # nothing to play: nothing to keep (the findings say why)
            return result
        with self._lock:  # counted and written at once: two uploads cannot both take the last room
            self._expire_for_upload_locked(key, size, in_use)
            os.makedirs(folder, exist_ok=False)
            try:
                with open(os.path.join(folder, "kittens.toml"), "w", encoding="utf-8") as handle:
                    handle.write("# the folder of one upload: its files' references stay inside it\n")
                for name, text in texts.items():
                    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as handle:
                        handle.write(text)
                quotas.write_note(folder, key, size)
            except BaseException:  # a full disk: no half-written upload is left behind
                quotas.remove(folder)
                raise
        return result

    def _expire_for_upload(self, key: str, size: int, in_use) -> None:
        with self._lock:
            self._expire_for_upload_locked(key, size, in_use)

    def _expire_for_upload_locked(self, key: str, size: int, in_use) -> None:
        try:
            quotas.expire_for_upload(self.uploads, self.quota, key, size, set(in_use))
        except quotas.QuotaError as exc:
            raise UploadError(str(exc), exc.status) from None

    def used(self, path: str) -> None:
        """A table was made from this rule file: an upload's last use is now."""
        if self.is_upload(path):
            quotas.touch(os.path.dirname(os.path.abspath(path)))

    def upload_of(self, path: str) -> str | None:
        """The id of the upload a rule file belongs to (None: not an upload)."""
        if not self.is_upload(path):
            return None
        return os.path.basename(os.path.dirname(os.path.abspath(path)))

    def _check(self, upload_id: str, folder: str, texts: dict[str, str]) -> dict:
        """Check the files in a process of their own, stopped after ``check_seconds``:
        a file that takes the checker long holds up no table, and cannot run for ever.
        The texts go to it on its standard input, as if they lay in ``folder``."""
        names = list(texts)
        given = json.dumps({"folder": folder, "files": texts}).encode("utf-8")
        with self._checks:
            if self.closed:
                raise UploadError(STOPPING, 503)
            process = subprocess.Popen([sys.executable, "-m", "kittens.web.rulesets"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE)
            self._checking.add(process)
            try:
                out, err = process.communicate(given, timeout=self.check_seconds)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                raise UploadError(f"checking these files took longer than {self.check_seconds:g} s, as "
                                  "long as this server gives one upload: they ask too much work of the "
                                  "checker (very long lists, deeply nested effects?)", 422) from None
            finally:
                self._checking.discard(process)
        if self.closed:  # stopped half-way by close(): not a bug
            raise UploadError(STOPPING, 503)
        try:
            found = json.loads(out) if process.returncode == 0 else None
        except ValueError:
            found = None
        if found is None:  # the checker broke down: the server's log says how
            log.error("checking upload %s failed (exit %s): %s", upload_id, process.returncode,
                      err.decode("utf-8", "replace")[-4000:])
            raise UploadError("these files could not be checked (a bug in kittens): the server's log "
                              "says more", 500)
        playable = []
        if not any(d["severity"] == "error" for d in found["diagnostics"]):
            for entry in self._index(found["entries"], source="upload", folder=folder):
                entry["file"] = entry["key"].rpartition("/")[2]
                playable.append(entry)
        return {"upload": upload_id, "files": names, "diagnostics": found["diagnostics"], "playable": playable}


def _names(files) -> list[str]:
    """The names uploaded files are kept under; UploadError for a bad list."""
    if not isinstance(files, list) or not 1 <= len(files) <= MAX_UPLOAD_FILES:
        raise UploadError(f"upload one to {MAX_UPLOAD_FILES} rule files")
    names = []
    for item in files:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) \
                or not isinstance(item.get("text"), str):
            raise UploadError("each file needs a name and a text")
        name = os.path.basename(item["name"].replace("\\", "/"))
        if not SAFE_NAME.match(name):
            raise UploadError(f"'{name[:80]}' is not a name kittens keeps: use letters, digits, "
                              "'.', '-' and '_', ending in .yaml or .yml")
        if name in names:
            raise UploadError(f"two files are called '{name}'")
        if len(item["text"].encode("utf-8")) > MAX_FILE_BYTES:
            raise UploadError(f"{name} is larger than {MAX_FILE_BYTES:,} bytes")
        names.append(name)
    return names


def check_upload(folder: str, texts: dict[str, str]) -> dict:
    """What the server's checker process finds in an upload (file name -> text, read as
    if it lay in ``folder``, which need not exist): every finding (placed in the upload,
    without the server's folders) and the catalog entries of what compiles."""
    held = {os.path.join(folder, name): text for name, text in texts.items()}
    paths = list(held)
    ws = ConfinedWorkspace()
    ws.sources.update(held)
    for path in paths:
        check_file(ws, path)
    diagnostics = [{"file": _relative(d.path, folder), "line": d.line, "column": d.column,
                    "severity": d.severity, "code": d.code, "message": _unplaced(d.message, folder)}
                   for d in ws.diagnostics]
    entries = [] if any(d["severity"] == "error" for d in diagnostics) else catalog_confined(paths, held)
    return {"diagnostics": diagnostics, "entries": entries}


def catalog_confined(paths: list[str], held: dict[str, str] | None = None) -> list[dict]:
    """The catalog entries of uploaded files, each compiled in a confined workspace
    (``held``: path -> text read instead of the file, as in check_upload)."""

    def workspace() -> ConfinedWorkspace:
        ws = ConfinedWorkspace()
        ws.sources.update(held or {})
        return ws

    entries = []
    for path in paths:
        doc, kind = workspace().load(path)
        if kind not in ("edition", "expansion"):
            continue
        try:
            edition = load_edition(path, workspace=workspace())
        except (RuleError, UsageError):
            continue
        entries.append({"name": edition.name, "kind": kind, "path": path, "players": list(edition.players),
                        "description": " ".join(str(doc.data.get("description", "")).split()),
                        **({"teams": teams_entry(edition)} if getattr(edition, "teams", 0) else {})})
        for name, variant in edition.variants.items():
            entries.append({"name": f"{edition.name}: {name}", "kind": "variant", "path": path,
                            "players": list(variant.players), "variant": name,
                            "description": variant.variant_description})
    return entries


def _unplaced(message: str, folder: str) -> str:
    """A finding's message without the server's folders in it: the page needs none. A
    shipped file is named inside the kittens package (``kittens/editions/original.yaml``)."""
    for top in {os.path.realpath(folder), os.path.abspath(folder)}:
        message = message.replace(top + os.sep, "").replace(top, "the upload's folder")
    for top in {os.path.realpath(PACKAGE_DIR), os.path.abspath(PACKAGE_DIR)}:
        message = message.replace(top + os.sep, "kittens/")
    return message


def _relative(path: str, folder: str) -> str:
    real, top = os.path.realpath(path), os.path.realpath(folder)
    if real.startswith(top + os.sep):
        return os.path.relpath(real, top)
    return os.path.basename(path)  # a file outside the upload (a shipped file): its name only


if __name__ == "__main__":  # the server's checker process: {"folder", "files"} on stdin -> JSON
    given = json.load(sys.stdin)
    sys.stdout.write(json.dumps(check_upload(given["folder"], given["files"])))
