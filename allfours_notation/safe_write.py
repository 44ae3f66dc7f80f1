"""Writing files one safe way: every file the toolkit writes goes through here.

Nothing of All Fours is in this module; it promises, for any bytes:

* **whole or nothing** — the file on disk is always its complete old text or its
  complete new text, on ENOSPC, EIO, a full quota or a kill at any instant.  New
  text goes to a temporary file beside the target (``.NAME.PID.N.afn-tmp``), is
  fsynced and renamed over it, and the folder is fsynced.  A file with other hard
  links (or one another user owns) cannot be renamed over without splitting it, so
  it is rewritten in place, journalled: the new text is first written and fsynced
  in full beside it (``.NAME.PID.INODE.afn-new``), space for it is reserved
  (``posix_fallocate``), and a failed write puts the old text back; a process
  killed in the middle leaves the journal, and the next writer of that folder
  finishes the copy (rolls forward) before doing anything else;
* **links kept** — a symbolic link is written through to its target (resolved
  first); hard links, owner, group and mode are kept;
* **nobody's edit lost** — given the :class:`FileIdentity` of what was read, a file
  that has changed since (size, mtime_ns, inode or SHA-256 of its bytes) is not
  overwritten: :class:`ChangedOnDisk`;
* **no leftovers, and no other's word taken** — each temporary file and journal is
  locked (``flock``) by its writer from its creation to its end; the next writer in
  that folder removes those whose lock it can take (whatever their process id says:
  another PID namespace or NFS client does not show its processes) and finishes a
  journal only if it is a regular file owned by the target's owner (or by the
  recovering user), whose header binds it to the target's device and inode and to its
  own text; it says what it did, and names a journal it leaves alone
  (:func:`recover`; the recorder's lock file is :mod:`allfours_notation.file_lock`'s);
* **output folders** — :class:`OutputFolder` never follows a symbolic link already
  in the folder (``O_NOFOLLOW`` and ``dir_fd``), never writes outside it (a name is
  one plain path component), and never replaces an existing file unless asked to
  (``force``); :class:`OutputRefused` names the file and why.

The calls that can fail for want of space or a bad disk go through a
:class:`FileSystem`, which the tests and the fuzzer replace with one that fails.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "REAL",
    "ChangedOnDisk",
    "FileIdentity",
    "FileSystem",
    "OutputFolder",
    "OutputRefused",
    "Staged",
    "identity_of",
    "journal_header",
    "recover",
    "replace_file",
    "stage",
    "untrusted_owner",
]

TEMP_SUFFIX = ".afn-tmp"
JOURNAL_SUFFIX = ".afn-new"
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_counter = itertools.count(1)


class ChangedOnDisk(Exception):
    """The file is not what was read: someone saved it meanwhile.  Nothing was written."""


class OutputRefused(Exception):
    """An output that is not written: it exists (and no ``force``), it is a symbolic
    link or not a regular file, or its name would leave the folder."""


# A standard dataclass, not ``@frozen``: this module imports nothing of the package (the
# kill tests load it alone, by its path).
@dataclass(frozen=True, slots=True)
class FileIdentity:
    """What a file was when it was read or written: checked again before it is rewritten."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    digest: str


def identity(info: os.stat_result, data: bytes) -> FileIdentity:
    return FileIdentity(info.st_dev, info.st_ino, len(data), info.st_mtime_ns,
                        hashlib.sha256(data).hexdigest())


def identity_of(path: str | Path) -> FileIdentity | None:
    """The regular file at ``path`` as it is now, or None (missing, not a file)."""
    try:
        fd = os.open(path, os.O_RDONLY | _O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        return identity(info, _read_all(fd))
    except OSError:
        return None
    finally:
        os.close(fd)


class FileSystem:
    """The calls of a write that can fail (ENOSPC, EIO, EDQUOT): the real ones."""

    def write(self, fd: int, data: memoryview) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def reserve(self, fd: int, size: int) -> None:
        """Allocate ``size`` bytes for ``fd``'s file, so an in-place write cannot run out."""
        if not hasattr(os, "posix_fallocate"):
            return
        try:
            os.posix_fallocate(fd, 0, size)
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise

    def truncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)

    def replace(self, source: str, target: str, folder: int) -> None:
        os.replace(source, target, src_dir_fd=folder, dst_dir_fd=folder)

    def link(self, source: str, target: str, folder: int) -> None:
        os.link(source, target, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)

    def unlink(self, name: str, folder: int) -> None:
        os.unlink(name, dir_fd=folder)


REAL = FileSystem()
Notice = Callable[[str], None]


def say_on_stderr(message: str) -> None:
    """Where :func:`recover` reports what it cleaned up, unless told otherwise."""
    sys.stderr.write(f"allfours: {message}\n")
    sys.stderr.flush()


# --- names beside a file ---------------------------------------------------------------------

def _temp_name(name: str) -> str:
    return f".{name}.{os.getpid()}.{next(_counter)}{TEMP_SUFFIX}"


def _journal_name(name: str, inode: int) -> str:
    return f".{name}.{os.getpid()}.{inode}{JOURNAL_SUFFIX}"


_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.(?P<n>\d+)"
                       rf"(?P<kind>{re.escape(TEMP_SUFFIX)}|{re.escape(JOURNAL_SUFFIX)})$")


def resolved(path: str | Path) -> Path:
    """The file ``path`` names, through every symbolic link (what is written and locked)."""
    return Path(os.path.realpath(path))


# --- low-level helpers -----------------------------------------------------------------------

def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _write_all(fs: FileSystem, fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = fs.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "the write made no progress")
        view = view[written:]


def _open_folder(folder: Path) -> int:
    return os.open(folder, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)


def _fsync_folder(fd: int) -> None:
    with contextlib.suppress(OSError):  # not every file system syncs a folder
        os.fsync(fd)


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _keep_owner(fd: int, info: os.stat_result) -> None:
    """Give the new file the old one's owner and group (a root-run rewrite must not
    hand the file to root); when that is not allowed, the group at least."""
    now = os.fstat(fd)
    if (now.st_uid, now.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.fchown(fd, info.st_uid, info.st_gid)
    except PermissionError:
        with contextlib.suppress(PermissionError):
            os.fchown(fd, -1, info.st_gid)
    os.fchmod(fd, stat.S_IMODE(info.st_mode))  # chown may clear set-id bits


# --- recovery --------------------------------------------------------------------------------
#
# What a dead writer leaves is acted on only when it is proven ours and proven abandoned:
# a regular file (opened with O_NOFOLLOW, one link), owned by the target file's owner or
# by this process's user, whose lock (``flock``, held by its writer from creation to the
# end) can be taken, and, for a journal, whose header binds it to the target's device and
# inode and to its own text's SHA-256.  A process id says nothing: another PID namespace
# or NFS client does not show its writers.

_recovered: set[tuple[int, int]] = set()
_JOURNAL_MAGIC = b"AFN-JOURNAL 1 "
_JOURNAL_HEADER = re.compile(rb"^AFN-JOURNAL 1 (\d+) (\d+) (\d+) ([0-9a-f]{64}) (\d+) "
                             rb"([0-9a-f]{64})\n")


def journal_header(target: os.stat_result, old: bytes, new: bytes) -> bytes:
    """The first line of a journal: the file it rewrites (device, inode), its old text
    and its new text (size, SHA-256 each); the new text follows."""
    return (_JOURNAL_MAGIC + f"{target.st_dev} {target.st_ino} {len(old)} "
            f"{hashlib.sha256(old).hexdigest()} {len(new)} "
            f"{hashlib.sha256(new).hexdigest()}\n".encode("ascii"))


def untrusted_owner(leftover: os.stat_result, target: os.stat_result | None,
                    user: int) -> str | None:
    """Why a leftover is not to be acted on by ``user`` (None: it may be): it must be a
    regular file, owned by the target's owner or by ``user`` itself."""
    if not stat.S_ISREG(leftover.st_mode):
        return "not a regular file"
    if leftover.st_uid == user or (target is not None and leftover.st_uid == target.st_uid):
        return None
    whose = "" if target is None else f", the file by user {target.st_uid}"
    return f"owned by user {leftover.st_uid}{whose}"


def _flock(fd: int, *, writer: bool) -> bool:
    """Take ``fd``'s lock without waiting: True if taken.  Where the platform or file
    system cannot lock, a writer goes on (False would stop every write there) and a
    recovery may not (nothing proves the writer gone)."""
    try:
        import fcntl
    except ImportError:
        return writer
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # ENOLCK and the like
        return writer
    return True


def _still_named(fd: int, name: str, folder: int) -> bool:
    try:
        now = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    info = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino)


def recover(folder: str | Path, *, notice: Notice | None = say_on_stderr,
            again: bool = False) -> list[str]:
    """Clean up after writers of ``folder`` that died: remove their temporary files and
    finish their journalled in-place rewrites; a journal this toolkit did not write (or
    another user's) is left alone and named.  A lock file is cleaned by the next
    :class:`FileLock` of its own file, not here.  Each is said in one line (to
    ``notice``, and returned).  Done once per folder per process unless ``again``."""
    try:
        folder_fd = _open_folder(Path(folder))
    except OSError:
        return []
    try:
        info = os.fstat(folder_fd)
        key = (info.st_dev, info.st_ino)
        if key in _recovered and not again:
            return []
        _recovered.add(key)
        # Temporary files first: a journal killed as it was linked in has its temporary
        # name too, which goes first.
        names = sorted(os.listdir(folder_fd), key=lambda n: (n.endswith(JOURNAL_SUFFIX), n))
        said: list[str] = []
        for entry in names:
            match = _LEFTOVER.match(entry)
            if match is None or int(match["pid"]) == os.getpid():
                continue  # this process's own are its writers'
            with contextlib.suppress(OSError):
                message = _recover_one(Path(folder), folder_fd, entry, match)
                if message:
                    said.append(message)
                    if notice is not None:
                        notice(message)
        return said
    finally:
        os.close(folder_fd)


def _recover_one(folder: Path, folder_fd: int, entry: str, match: re.Match[str]) -> str | None:
    """Act on one leftover if it is proven a dead writer's; None if it is left, unsaid."""
    name, pid = match["name"], match["pid"]
    journal = match["kind"] == JOURNAL_SUFFIX
    if not stat.S_ISREG(os.stat(entry, dir_fd=folder_fd, follow_symlinks=False).st_mode):
        # never opened: a link is not followed, a device or a pipe not touched
        return _left_alone(folder / entry, folder / name, "a symbolic link or not a "
                           "regular file") if journal else None
    fd = os.open(entry, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC | _O_NONBLOCK, dir_fd=folder_fd)
    try:
        if not _flock(fd, writer=False) or not _still_named(fd, entry, folder_fd):
            return None  # its writer holds it: alive, wherever it runs
        target = _stat_or_none(name, folder_fd)
        info = os.fstat(fd)
        why = untrusted_owner(info, target, os.geteuid())
        if why is None and journal and info.st_nlink != 1:
            why = f"it has {info.st_nlink} links"
        if why is not None:
            return _left_alone(folder / entry, folder / name, why) if journal else None
        if not journal:
            os.unlink(entry, dir_fd=folder_fd)
            return (f"removed {folder / entry}, a temporary file left by process {pid}, "
                    "which no longer runs")
        return _roll_forward(folder, folder_fd, entry, name, pid, fd)
    finally:
        os.close(fd)


def _left_alone(journal: Path, target: Path, why: str) -> str:
    return (f"{journal}: left alone, not trusted as a journal of {target} ({why}); "
            "nothing was written")


def _stat_or_none(name: str, folder_fd: int) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except OSError:
        return None


def _roll_forward(folder: Path, folder_fd: int, entry: str, name: str, pid: str,
                  journal_fd: int) -> str | None:
    """Finish a dead writer's in-place rewrite from its journal (locked by us), if the
    journal is whole and written for the file now at ``name``."""
    text = _read_all(journal_fd)
    header = _JOURNAL_HEADER.match(text)
    new = text[header.end():] if header is not None else b""
    if header is None or int(header[5]) != len(new) or \
            hashlib.sha256(new).hexdigest().encode() != header[6]:
        return _left_alone(folder / entry, folder / name,
                           "no journal header, or its text is not the header's")
    try:
        fd = os.open(name, os.O_RDWR | _O_NOFOLLOW | _O_CLOEXEC | _O_NONBLOCK,
                     dir_fd=folder_fd)
    except OSError:
        fd = -1
    try:
        info = os.fstat(fd) if fd >= 0 else None
        ours = info is not None and stat.S_ISREG(info.st_mode) and \
            (info.st_dev, info.st_ino) == (int(header[1]), int(header[2]))
        if info is None or not ours:
            if os.fstat(journal_fd).st_uid != os.geteuid():
                return None  # another user's, for a file gone: theirs to clean
            os.unlink(entry, dir_fd=folder_fd)
            return (f"removed {folder / entry}, the unfinished rewrite of a file that has "
                    "changed since")
        why = untrusted_owner(os.fstat(journal_fd), info, os.geteuid())
        if why is not None:  # the file at the name now is not the one first looked at
            return _left_alone(folder / entry, folder / name, why)
        _write_all(REAL, fd, new)
        os.ftruncate(fd, len(new))
        os.fsync(fd)
    finally:
        if fd >= 0:
            os.close(fd)
    os.unlink(entry, dir_fd=folder_fd)
    _fsync_folder(folder_fd)
    return (f"{folder / name}: finished the rewrite that process {pid} was making when it "
            "stopped (its new text was complete beside the file)")


# --- one staged file -------------------------------------------------------------------------

class Staged:
    """New contents for ``name`` in a folder, written to a temporary file beside it and
    switched in by :meth:`commit` (or thrown away by :meth:`abort`).

    ``overwrite``: replace an existing file (its mode, owner and group are kept);
    without it an existing file (or one that appears meanwhile) is refused.
    """

    def __init__(self, folder_fd: int, folder: Path, name: str, *, overwrite: bool,
                 fs: FileSystem = REAL, expected: FileIdentity | None = None,
                 check_existing: bool = True) -> None:
        self.folder_fd, self.folder, self.name = folder_fd, folder, name
        self.overwrite, self.fs, self.expected = overwrite, fs, expected
        self.path = folder / name
        self.existing = _existing(folder_fd, folder, name) if check_existing else None
        if self.existing is not None and not overwrite:
            raise OutputRefused(f"{self.path}: already exists; not overwritten "
                                "(give --force to replace it)")
        self.temp, fd = _locked_temp(folder_fd, name)
        self.fd: int | None = fd
        self.held: int | None = None

    @property
    def temp_path(self) -> Path:
        return self.folder / self.temp

    def write(self, data: bytes) -> None:
        assert self.fd is not None, "written after commit or abort"
        try:
            _write_all(self.fs, self.fd, data)
        except BaseException:
            self.abort()
            raise

    def commit(self, *, hold: bool = False) -> None:
        """fsync, give the old file's mode (or the umask's), switch it in, sync the folder.
        The file stays locked until it is in place (``hold``: until :meth:`release`)."""
        fd = self.fd
        assert fd is not None
        try:
            self.fs.fsync(fd)
            if self.existing is not None:
                os.fchmod(fd, stat.S_IMODE(self.existing.st_mode))
                _keep_owner(fd, self.existing)
            else:
                os.fchmod(fd, _umask_mode())
            if self.expected is not None:
                now = identity_of(self.path)
                if now != self.expected:
                    raise ChangedOnDisk(f"{self.path}: the file changed on disk after it was "
                                        "read (another program saved it?); it is left as it is")
            if self.existing is not None:
                self.fs.replace(self.temp, self.name, self.folder_fd)
            else:
                _link_new(self)
        except BaseException:
            self.abort()
            raise
        _fsync_folder(self.folder_fd)
        self.fd = None
        if hold:
            self.held = fd
        else:
            os.close(fd)

    def release(self) -> None:
        """Let go of the lock a ``hold`` commit kept."""
        if self.held is not None:
            os.close(self.held)
            self.held = None

    def abort(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None
        with contextlib.suppress(OSError):
            os.unlink(self.temp, dir_fd=self.folder_fd)

    def __enter__(self) -> Staged:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None and self.fd is not None:
            self.commit()
        else:
            self.abort()


def _locked_temp(folder_fd: int, name: str) -> tuple[str, int]:
    """A new temporary file beside ``name``, locked before anything is written to it.
    A recovery that took the lock in the instant between (and so removes the file) is
    seen by the name no longer being this file: another name is taken."""
    while True:
        temp = _temp_name(name)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC,
                     0o600, dir_fd=folder_fd)
        if _flock(fd, writer=True) and _still_named(fd, temp, folder_fd):
            return temp, fd
        with contextlib.suppress(OSError):  # ours, if the recovery that locked it left it
            if _still_named(fd, temp, folder_fd):
                os.unlink(temp, dir_fd=folder_fd)
        os.close(fd)


def _existing(folder_fd: int, folder: Path, name: str) -> os.stat_result | None:
    try:
        info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise OutputRefused(f"{folder / name}: is a symbolic link; it is not followed, "
                            "nothing is written there")
    if not stat.S_ISREG(info.st_mode):
        raise OutputRefused(f"{folder / name}: exists and is not a regular file; "
                            "nothing is written there")
    return info


def _link_new(staged: Staged) -> None:
    """Switch a new file in without replacing one that appeared meanwhile: a hard link
    fails if the name exists.  Where links are not allowed, check then rename."""
    fd = staged.folder_fd
    try:
        staged.fs.link(staged.temp, staged.name, fd)
    except FileExistsError:
        raise OutputRefused(f"{staged.path}: appeared while it was written; not overwritten "
                            "(give --force to replace it)") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK,
                               errno.EXDEV):
            raise
        if _existing(fd, staged.folder, staged.name) is not None:
            raise OutputRefused(f"{staged.path}: appeared while it was written; not "
                                "overwritten (give --force to replace it)") from None
        staged.fs.replace(staged.temp, staged.name, fd)
        return
    _remove(staged.fs, staged.temp, fd)  # the file is in place: the temporary name goes


def _remove(fs: FileSystem, name: str, folder: int) -> None:
    """Remove a name the write no longer needs; the write has succeeded, so a failure
    here is not the write's (the plain call is tried again, then :func:`recover`'s)."""
    try:
        fs.unlink(name, folder)
    except FileNotFoundError:
        pass
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=folder)


@contextlib.contextmanager
def stage(path: str | Path, *, overwrite: bool = True,
          fs: FileSystem = REAL) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become the file ``path`` (a symlink's target) when
    the block ends without an exception, whole; nothing changes if it raises."""
    target = resolved(path)
    recover(target.parent)
    folder = _open_folder(target.parent)
    try:
        staged = Staged(folder, target.parent, target.name, overwrite=overwrite, fs=fs)
        stream = _StagedStream(staged)
        try:
            yield stream  # type: ignore[misc]
            stream.flush()
        except BaseException:
            staged.abort()
            raise
        staged.commit()
    finally:
        os.close(folder)


class _StagedStream:
    """The small part of a binary file's interface that writers of output use."""

    def __init__(self, staged: Staged, buffer_size: int = 1 << 16) -> None:
        self.staged = staged
        self.pending: list[bytes] = []
        self.size = 0
        self.limit = buffer_size

    def write(self, data: bytes) -> int:
        self.pending.append(bytes(data))
        self.size += len(data)
        if self.size >= self.limit:
            self.flush()
        return len(data)

    def flush(self) -> None:
        if self.pending:
            data = b"".join(self.pending)
            self.pending, self.size = [], 0
            self.staged.write(data)


# --- replacing one file ----------------------------------------------------------------------

def replace_file(path: str | Path, data: bytes, *, expected: FileIdentity | None = None,
                 create_only: bool = False, fs: FileSystem = REAL,
                 notice: Notice | None = say_on_stderr) -> FileIdentity:
    """Make ``data`` the contents of the file ``path`` names (through symlinks), whole
    or not at all; returns what the file is now (to pass as ``expected`` next time).

    ``expected``: the file must still be this (else :class:`ChangedOnDisk`, nothing
    written); None writes whatever is there, or creates the file.  ``create_only``:
    the file did not exist when it was read, and must not now.
    """
    target = resolved(path)
    recover(target.parent, notice=notice)
    folder = _open_folder(target.parent)
    try:
        try:
            info: os.stat_result | None = os.stat(target.name, dir_fd=folder,
                                                  follow_symlinks=False)
        except FileNotFoundError:
            info = None
        if info is None:
            if expected is not None:
                raise ChangedOnDisk(f"{target}: the file was removed after it was read")
            staged = Staged(folder, target.parent, target.name, overwrite=False, fs=fs)
            staged.write(data)
            staged.commit()
            return _identity_now(folder, target.name, data)
        if create_only:
            raise ChangedOnDisk(f"{target}: the file was created by someone else meanwhile")
        if not stat.S_ISREG(info.st_mode):
            raise OutputRefused(f"{target}: not a regular file; nothing written")
        others = info.st_uid != os.geteuid() and os.geteuid() != 0
        if info.st_nlink > 1 or others:
            return _rewrite_in_place(folder, target, data, info, expected, fs)
        staged = Staged(folder, target.parent, target.name, overwrite=True, fs=fs,
                        expected=expected)
        staged.write(data)
        staged.commit()
        return _identity_now(folder, target.name, data)
    finally:
        os.close(folder)


def _identity_now(folder: int, name: str, data: bytes) -> FileIdentity:
    return identity(os.stat(name, dir_fd=folder, follow_symlinks=False), data)


def _rewrite_in_place(folder: int, target: Path, data: bytes, info: os.stat_result,
                      expected: FileIdentity | None, fs: FileSystem) -> FileIdentity:
    """Rewrite a hard-linked file (or another user's) where it is, journalled (see the
    module's text): complete old text or complete new, whatever fails."""
    fd = os.open(target.name, os.O_RDWR | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=folder)
    try:
        old = _read_all(fd)
        if expected is not None and identity(os.fstat(fd), old) != expected:
            raise ChangedOnDisk(f"{target}: the file changed on disk after it was read "
                                "(another program saved it?); it is left as it is")
        journal = _journal_name(target.name, info.st_ino)
        staged = Staged(folder, target.parent, journal, overwrite=False, fs=fs,
                        check_existing=False)
        try:
            staged.write(journal_header(os.fstat(fd), old, data))
            staged.write(data)
            staged.commit(hold=True)  # whole and synced beside the file, locked to the end
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(journal, dir_fd=folder)
            raise
        try:
            _copy_in(fd, data, old, fs)
            _remove(fs, journal, folder)
        except _NotRestored:
            raise  # the journal stays: the next writer of the folder finishes the copy
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(journal, dir_fd=folder)
            raise
        finally:
            staged.release()  # only now: the journal is gone, or stays for the next run
        _fsync_folder(folder)
        return identity(os.fstat(fd), data)
    finally:
        os.close(fd)


class _NotRestored(OSError):
    """An in-place rewrite failed and so did putting the old text back."""


def _copy_in(fd: int, data: bytes, old: bytes, fs: FileSystem) -> None:
    """Write ``data`` over the file, space reserved first; on a failure put ``old`` back
    (it fits: it held that space) and raise."""
    try:
        if len(data) > len(old):
            fs.reserve(fd, len(data))
        os.lseek(fd, 0, os.SEEK_SET)
        _write_all(fs, fd, data)
        fs.truncate(fd, len(data))
        fs.fsync(fd)
    except BaseException:
        # The old text back, with the plain calls (not ``fs``): it fits in the blocks it
        # held, so a full disk cannot refuse it.
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            view = memoryview(old)
            while view:
                view = view[os.write(fd, view):]
            os.ftruncate(fd, len(old))
            os.fsync(fd)
        except OSError as error:
            raise _NotRestored(error.errno, f"{error.strerror}; the new text is complete "
                               "beside the file and the next run puts it in place") from error
        raise


# --- output folders --------------------------------------------------------------------------

class OutputFolder:
    """A folder that outputs are written into (created if needed), by plain names only."""

    def __init__(self, path: str | Path, *, force: bool = False, fs: FileSystem = REAL) -> None:
        self.path = Path(path)
        self.force, self.fs = force, fs
        self.path.mkdir(parents=True, exist_ok=True)
        recover(self.path)
        self.fd = _open_folder(self.path)

    def check_name(self, name: str) -> None:
        if (not name or name in (".", "..") or "/" in name or os.sep in name
                or "\0" in name or (os.altsep is not None and os.altsep in name)):
            raise OutputRefused(f"{self.path / name}: not a plain file name in "
                                f"{self.path}; nothing is written outside it")

    def staged(self, name: str) -> Staged:
        """A new file ``name`` (refused if it exists, unless ``force``), switched in at
        its commit."""
        self.check_name(name)
        return Staged(self.fd, self.path, name, overwrite=self.force, fs=self.fs)

    def refuse_existing(self, names: list[str]) -> None:
        """Before anything is written: each of ``names`` that would be refused."""
        for name in names:
            self.check_name(name)
            existing = _existing(self.fd, self.path, name)
            if existing is not None and not self.force:
                raise OutputRefused(f"{self.path / name}: already exists; not overwritten "
                                    "(give --force to replace it)")

    def write(self, name: str, data: bytes) -> None:
        """``data`` as the file ``name``, whole; an existing file (with ``force``) that
        has other hard links is rewritten in place, so that they all see it."""
        self.check_name(name)
        existing = _existing(self.fd, self.path, name)
        if existing is not None and self.force and (
                existing.st_nlink > 1 or (existing.st_uid != os.geteuid() and os.geteuid() != 0)):
            _rewrite_in_place(self.fd, self.path / name, data, existing, None, self.fs)
            return
        with self.staged(name) as staged:
            staged.write(data)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> OutputFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
