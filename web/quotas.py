"""How much of the server's upload folder one device may hold, and which uploads go when
it is full.

Each upload's folder holds a small note, ``upload.json``: a digest of the address
that sent it (the address itself is not written down) and its bytes. The note's
modification time is when the upload was last used: sent, or a table made from
it. Before a new upload is written, :func:`expire_for_upload` expires what must go, oldest
use first and never an upload a live table plays (its rooms replay from it):

- the sender's own uploads, past ``per_client`` of them or ``per_client_bytes``;
- anyone's, past the server's ``most`` uploads or ``most_bytes``.

When nothing may go, the upload is refused with the reason. So one device sending
uploads in a loop only ever replaces its own, and nobody has to wipe ``--data``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass

#: the note an upload's folder holds about it
NOTE = "upload.json"


class QuotaError(Exception):
    """No room for an upload: ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Kept:
    """One kept upload: its folder's name, sender (digest), bytes and last use."""

    id: str
    client: str
    size: int
    used: float


def client_key(address: str) -> str:
    """What the note says of a sender: a digest of its address."""
    return hashlib.sha256(f"kittens-upload/{address}".encode()).hexdigest()[:16]


def write_note(folder: str, client: str, size: int) -> None:
    with open(os.path.join(folder, NOTE), "w", encoding="utf-8") as handle:
        json.dump({"client": client, "bytes": size}, handle)


def touch(folder: str) -> None:
    """The upload was used now (a table was made from it)."""
    try:
        os.utime(os.path.join(folder, NOTE))
    except OSError:  # an upload of an older kittens, without a note: its folder's time counts
        try:
            os.utime(folder)
        except OSError:
            pass


def kept(uploads: str) -> list[Kept]:
    """Every kept upload, least lately used first. An upload without a note (an older
    kittens kept it) counts as nobody's, with its files' bytes and its folder's time."""
    found = []
    if not os.path.isdir(uploads):
        return found
    for entry in os.scandir(uploads):
        if not entry.is_dir(follow_symlinks=False) or ".gone-" in entry.name:  # being removed
            continue
        note = os.path.join(entry.path, NOTE)
        try:
            with open(note, encoding="utf-8") as handle:
                data = json.load(handle)
            client, size, used = str(data["client"]), int(data["bytes"]), os.stat(note).st_mtime
        except (OSError, ValueError, KeyError, TypeError):
            client, used = "", entry.stat(follow_symlinks=False).st_mtime
            size = sum(item.stat(follow_symlinks=False).st_size for item in os.scandir(entry.path)
                       if item.is_file(follow_symlinks=False))
        found.append(Kept(entry.name, client, size, used))
    found.sort(key=lambda item: item.used)
    return found


@dataclass
class Quota:
    """The limits: the server's, and one device's."""

    most: int
    most_bytes: int
    per_client: int
    per_client_bytes: int


def expire_for_upload(uploads: str, quota: Quota, client: str, size: int, in_use: set) -> list[str]:
    """Expire the uploads that must go for a new one of ``size`` bytes from ``client``
    (never one in ``in_use``): the ids expired. QuotaError when it still does not fit."""
    if size > quota.per_client_bytes or size > quota.most_bytes:
        raise QuotaError(f"an upload may be at most {min(quota.per_client_bytes, quota.most_bytes):,} bytes "
                         "on this server", 413)
    every = kept(uploads)
    gone: list[str] = []
    mine = [item for item in every if item.client == client]
    _expire(mine, quota.per_client - 1, quota.per_client_bytes - size, in_use, gone, uploads)
    if len(mine) >= quota.per_client or sum(item.size for item in mine) + size > quota.per_client_bytes:
        raise QuotaError(f"this device's uploads are all in tables still in play ({len(mine)} uploads, "
                         f"{sum(item.size for item in mine):,} bytes; a device may keep {quota.per_client} "
                         f"or {quota.per_client_bytes:,} bytes): try again when a table ends", 429)
    every = [item for item in every if item.id not in gone]
    _expire(every, quota.most - 1, quota.most_bytes - size, in_use, gone, uploads)
    if len(every) >= quota.most or sum(item.size for item in every) + size > quota.most_bytes:
        raise QuotaError(f"this server's uploads are all in tables still in play ({len(every)} uploads, "
                         f"{sum(item.size for item in every):,} bytes): try again when a table ends", 507)
    return gone


def _expire(items: list[Kept], count: int, size: int, in_use: set, gone: list, uploads: str) -> None:
    """Remove from ``items`` (least lately used first), and from disk, those not in use
    until at most ``count`` are left with at most ``size`` bytes."""
    for item in list(items):
        if len(items) <= count and sum(i.size for i in items) <= size:
            return
        if item.id in in_use:
            continue
        remove(os.path.join(uploads, item.id))
        items.remove(item)
        gone.append(item.id)


def remove(folder: str) -> None:
    """An upload's folder gone (renamed first, so a half-removed one is never read)."""
    doomed = f"{folder}.gone-{time.monotonic_ns()}"
    try:
        os.rename(folder, doomed)
    except OSError:
        return
    shutil.rmtree(doomed, ignore_errors=True)
