"""Game files on disk, written safely: atomic saves, the lock beside a game file, and JSON laid
out for people to read.

Saving is atomic: the file is written to a temporary file in the same directory, flushed to
disk and renamed over the old one, so a crash leaves either the old file or the new one.
Changing a game file holds an exclusive lock on a file beside it, ``<game>.lock``, from reading
the game to saving it, so that two changes made at once both land (:func:`locked`). Nothing
here knows what a game is: :mod:`calhamer.game` uses it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def dumps_pretty(value: Any, indent: int = 2, width: int = 100) -> str:
    """JSON indented like ``json.dumps(indent=2)``, but an object of plain values (an order's
    result) stays on one line, and so does a list of plain values that fits in ``width``
    (``"ENGLAND": ["F EDI", "F LON", "A LVP"]``)."""

    def fmt(v: Any, level: int, room: int) -> str:
        if isinstance(v, list | dict):
            values = v.values() if isinstance(v, dict) else v
            if not any(isinstance(x, dict | list) for x in values):
                flat = json.dumps(v)
                if isinstance(v, dict) or len(flat) <= room:
                    return flat
        if isinstance(v, dict) and v:
            pad = " " * (indent * (level + 1))
            items = []
            for key, item in v.items():
                head = f"{json.dumps(str(key))}: "
                items.append(f"{pad}{head}{fmt(item, level + 1, width - len(pad) - len(head))}")
            return "{\n" + ",\n".join(items) + "\n" + " " * (indent * level) + "}"
        if isinstance(v, list) and v:
            pad = " " * (indent * (level + 1))
            items = [f"{pad}{fmt(item, level + 1, width - len(pad))}" for item in v]
            return "[\n" + ",\n".join(items) + "\n" + " " * (indent * level) + "]"
        return json.dumps(v)

    return fmt(value, 0, width)


@contextlib.contextmanager
def locked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the lock of the game file ``path`` for the block: an exclusive lock on the file
    beside it, ``<path>.lock`` (created if need be, and left in place).

    The lock is not taken on the game file itself because saving renames a new file over it:
    a second process would lock the old file, and both would write. Every change to a game
    file (:meth:`Game.update`, the ``calhamer game`` commands) reads, changes and saves under
    this lock, so one change waits for the other instead of undoing it. Readers need no
    lock: a save is atomic. The lock is advisory: ``flock`` on POSIX systems, byte locking
    (``msvcrt``) on Windows, both released by the system when the process ends, however it
    ends; on a system with neither, a marker file created exclusively (:func:`_marker`).
    Raises ``OSError`` when the lock file cannot be opened, as when the directory is missing
    or not writable (a save there would fail too).
    """
    target = Path(path)
    lock_path = target.with_name(target.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        with _holding(fd, lock_path):
            yield
    finally:
        os.close(fd)


if sys.platform == "win32":
    import msvcrt

    @contextlib.contextmanager
    def _holding(fd: int, lock_path: Path) -> Iterator[None]:
        while True:
            try:
                # Waits about ten seconds for the first byte, then gives up: wait again.
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
                break
            except OSError:
                continue
        try:
            yield
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    try:
        import fcntl

        _flock: Callable[[int, int], None] | None = fcntl.flock
    except ImportError:  # a POSIX-like system without file locks (WebAssembly builds)
        _flock = None

    @contextlib.contextmanager
    def _holding(fd: int, lock_path: Path) -> Iterator[None]:
        if _flock is None:
            with _marker(lock_path):
                yield
            return
        _flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            _flock(fd, fcntl.LOCK_UN)


# A lock marker older than this was left by a process that died, not one still at work.
STALE_MARKER_SECONDS = 120


@contextlib.contextmanager
def _marker(lock_path: Path) -> Iterator[None]:
    """The lock where the system has none: held by whoever creates ``<game>.lock.held``
    (creating a file with ``O_EXCL`` is atomic); the others wait for it to go."""
    marker = lock_path.with_name(lock_path.name + ".held")
    while True:
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            break
        except FileExistsError:
            with contextlib.suppress(OSError):
                if time.time() - os.stat(marker).st_mtime > STALE_MARKER_SECONDS:
                    os.unlink(marker)
            time.sleep(0.01)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(marker)


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` so that readers see the old file or the new, never half.

    The text goes to a temporary file in the same directory, which is flushed and synced to
    disk, then renamed over ``path`` (``os.replace`` is atomic on one file system). On any
    failure the temporary file is removed and ``path`` is left as it was.
    """
    target = Path(path)
    directory = target.parent
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            if hasattr(os, "fchmod"):  # mkstemp makes the file private; keep the usual mode
                os.fchmod(f.fileno(), _file_mode(target))
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sync_directory(directory)


def _file_mode(target: Path) -> int:
    """The old file's permissions, or those a newly created file would get."""
    try:
        return os.stat(target).st_mode & 0o777
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    # Read, not set: os.umask() would change it for every thread for a moment.
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable (best effort: not every system can open a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
