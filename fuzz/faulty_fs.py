"""A file system that fails: the safe writer's calls fail at random (ENOSPC, EIO,
EDQUOT, a short write first), or the process is killed at the N-th call.

:class:`FaultyFileSystem` is a :class:`allfours_notation.safe_write.FileSystem`;
:func:`installed` puts one in place of the real calls for a block (the writers of
every command use them), so a test or the fuzzer can run ``fmt --write``,
``export --csv`` or the recorder over a disk that fills up at any moment.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import signal
from collections.abc import Iterator

from allfours_notation.safe_write import FileSystem

FAILURES = (errno.ENOSPC, errno.EIO, errno.EDQUOT)
CALLS = ("write", "fsync", "reserve", "truncate", "replace", "link", "unlink")
# The real calls, taken before anything is installed over them.
_REAL = {name: FileSystem.__dict__[name] for name in CALLS}


class FaultyFileSystem(FileSystem):
    """Each call fails with probability ``rate`` (a write may first write part of its
    bytes); ``kill_at``: SIGKILL this process at that call instead (1-based)."""

    def __init__(self, rng: random.Random, *, rate: float = 0.2, kill_at: int | None = None,
                 fail_at: int | None = None, error: int = errno.ENOSPC) -> None:
        self.rng, self.rate, self.kill_at, self.fail_at, self.error = (rng, rate, kill_at,
                                                                       fail_at, error)
        self.calls = 0
        self.failed = 0

    def _fault(self) -> int | None:
        """The errno of this call's failure, or None; kills the process at ``kill_at``."""
        self.calls += 1
        if self.kill_at is not None and self.calls >= self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        if self.fail_at is not None:
            return self.error if self.calls == self.fail_at else None
        if self.rng.random() < self.rate:
            self.failed += 1
            return self.rng.choice(FAILURES)
        return None

    def write(self, fd: int, data: memoryview) -> int:
        code = self._fault()
        if code is not None:
            if len(data) > 1 and self.rng.random() < 0.5:  # part of it first, as a disk does
                return _REAL["write"](self, fd, data[: self.rng.randrange(1, len(data))])  # type: ignore[no-any-return]
            raise OSError(code, os.strerror(code))
        return _REAL["write"](self, fd, data)  # type: ignore[no-any-return]

    def fsync(self, fd: int) -> None:
        self._raise_if_fault()
        _REAL["fsync"](self, fd)

    def reserve(self, fd: int, size: int) -> None:
        self._raise_if_fault()
        _REAL["reserve"](self, fd, size)

    def truncate(self, fd: int, size: int) -> None:
        self._raise_if_fault()
        _REAL["truncate"](self, fd, size)

    def replace(self, source: str, target: str, folder: int) -> None:
        self._raise_if_fault()
        _REAL["replace"](self, source, target, folder)

    def link(self, source: str, target: str, folder: int) -> None:
        self._raise_if_fault()
        _REAL["link"](self, source, target, folder)

    def unlink(self, name: str, folder: int) -> None:
        self._raise_if_fault()
        _REAL["unlink"](self, name, folder)

    def _raise_if_fault(self) -> None:
        code = self._fault()
        if code is not None:
            raise OSError(code, os.strerror(code))


@contextlib.contextmanager
def installed(faulty: FaultyFileSystem) -> Iterator[FaultyFileSystem]:
    """Within the block, every safe write in this process goes through ``faulty``."""
    try:
        for name in CALLS:
            method = getattr(FaultyFileSystem, name)

            def call(self: FileSystem, *args: object, _method: object = method) -> object:
                return _method(faulty, *args)  # type: ignore[operator]

            setattr(FileSystem, name, call)
        yield faulty
    finally:
        for name, function in _REAL.items():
            setattr(FileSystem, name, function)
