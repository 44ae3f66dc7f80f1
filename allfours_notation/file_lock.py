"""Locking a file for a long write (the recorder's): one advisory lock (``flock``) on
the file a path resolves to, held in a lock file beside it (``.NAME.lock``, holding the
process id), removed at release; a lock file nobody holds is cleaned by the next lock.

Split from :mod:`allfours_notation.safe_write` (whose writers it uses for cleaning up
a folder first); nothing of All Fours is here either.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .safe_write import Notice, recover, resolved, say_on_stderr

__all__ = ["FileLock", "Locked", "LockingUnavailable", "lock_name"]

LOCK_SUFFIX = ".lock"
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Locked(Exception):
    """Another process holds the file's lock."""


class LockingUnavailable(Locked):
    """This platform cannot lock a file (no ``fcntl``, as on Windows): whoever needs the
    lock is refused, since a second writer could not be kept out.  Everything else of
    this module works there, and every module imports."""



def lock_name(name: str) -> str:
    return f".{name}{LOCK_SUFFIX}"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _stale_lock(path: Path) -> str | None:
    """A lock file nobody holds, of a process that no longer runs: removed."""
    try:
        fd = os.open(path, os.O_RDWR | _O_NOFOLLOW | _O_CLOEXEC)
    except OSError:
        return None
    try:
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None  # held: alive
        text = os.read(fd, 32).decode("ascii", "replace").strip()
        if not text.isdigit() or _alive(int(text)):
            return None
        with contextlib.suppress(FileNotFoundError):
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                path.unlink()
                return f"removed {path}, the lock of process {text}, which no longer runs"
        return None
    finally:
        os.close(fd)


# --- locks -----------------------------------------------------------------------------------

class FileLock:
    """An advisory lock (``flock``) on the file ``path`` resolves to, held in a lock file
    beside it (``.NAME.lock``, holding the process id), removed at :meth:`release`."""

    def __init__(self, path: str | Path) -> None:
        self.target = resolved(path)
        self.path = self.target.with_name(lock_name(self.target.name))
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, *, notice: Notice | None = say_on_stderr) -> None:
        """Take the lock, or raise :class:`Locked`; stale leftovers are cleaned first."""
        try:
            import fcntl
        except ImportError:  # not POSIX
            raise LockingUnavailable(f"{self.target}: this platform has no file locking "
                                     "(fcntl), which recording needs; record on Linux or "
                                     "macOS") from None

        recover(self.target.parent, notice=notice, again=True)
        stale = _stale_lock(self.path)
        if stale is not None and notice is not None:
            notice(stale)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | _O_NOFOLLOW | _O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise Locked(f"{self.target}: another recorder is writing this file "
                             f"(lock {self.path.name}); close it first") from None
            # The holder before us may have removed the lock file as it let go: then
            # our lock is on a file nobody else can find, so take the new one.
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self._fd = fd
                return
            os.close(fd)

    def release(self) -> None:
        import fcntl

        if self._fd is None:
            return
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


