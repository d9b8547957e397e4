"""Files written whole: the one way kittens writes a file a person asked for (a
rulesheet, a PDF, a lab report, the JSON Schemas).

The text goes to a temporary file beside the target, which replaces the target
in one rename once every byte is on disk, so a reader never sees half a file
and an error leaves the old one as it was. A temporary file is created
readable by its owner alone (``mkstemp``), so before the rename it is given
the mode any other tool would give the file: the mode of the file it replaces,
or for a new file what the umask allows of ``0666`` (``0644`` under the usual
umask 022).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

#: the prefix of the temporary files (a crash between writing and renaming leaves one)
TEMPORARY_PREFIX = ".kittens-"


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux);
    elsewhere set and put back at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def mode_for(path: str) -> int:
    """The permission bits a file written to ``path`` gets: those of the file already
    there, else ``0666`` less the umask."""
    try:
        found = os.stat(path)
    except OSError:
        return 0o666 & ~current_umask()
    if stat.S_ISREG(found.st_mode):
        return stat.S_IMODE(found.st_mode)
    return 0o666 & ~current_umask()


@contextlib.contextmanager
def written_whole(path: str, binary: bool = False):
    """A file to write ``path`` through (bytes with ``binary``, else UTF-8 text): it
    replaces ``path`` when the block ends, or is removed when the block raises (OSError
    included: the disk filled up, the folder went away), leaving ``path`` as it was."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=TEMPORARY_PREFIX, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as handle:
            if hasattr(os, "fchmod"):  # POSIX: mkstemp made it 0600
                os.fchmod(handle.fileno(), mode_for(path))
            yield handle
            handle.flush()
            os.fsync(handle.fileno())  # on disk before the rename: a crash leaves old or new
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
