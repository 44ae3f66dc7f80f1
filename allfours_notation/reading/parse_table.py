"""Where Lark keeps the grammar's parse table between runs.

Building the LALR table from the grammar costs more than reading a one-game file, so
Lark is given a cache file (its ``cache=`` option): the first run builds the table
and writes it, every later run loads it.  Lark heads the file with a hash of the
grammar, the options, Lark's version and Python's, and builds afresh when the hash
differs (a stale table) or the file does not load (a corrupt one), writing it again;
a file it cannot write leaves it building each time, which is slower, never wrong.

The file is a pickle, and loading a pickle runs what it says, so it lives only in
this user's own cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, ``%LOCALAPPDATA%``
on Windows), which nobody else can write: never in a shared temporary folder, where
another user could leave a file under the expected name.  Its name holds a hash of
the grammar and the versions too, so two installs (or two checkouts) never take turns
rewriting one file.  ``AFN_NO_PARSER_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

FOLDER_NAME = "allfours-notation"
OFF = "AFN_NO_PARSER_CACHE"


def cache_folder() -> Path | None:
    """This user's cache folder for allfours, or None where there is none to trust."""
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / FOLDER_NAME if base else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / FOLDER_NAME


def _ours(folder: Path) -> bool:
    """Whether ``folder`` is a folder this user owns and nobody else may write."""
    try:
        facts = folder.stat()
    except OSError:
        return False
    if os.name == "nt":
        return True
    group_or_others_write = 0o022
    return facts.st_uid == os.getuid() and not facts.st_mode & group_or_others_write


def table_file(grammar: str, lark_version: str) -> str | None:
    """The cache file for ``grammar`` under this Lark and this Python (its folder made
    if need be), or None: no cache (turned off, or no folder of this user's own)."""
    if os.environ.get(OFF):
        return None
    folder = cache_folder()
    if folder is None:
        return None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if not _ours(folder):
        return None
    python = f"{sys.version_info[0]}{sys.version_info[1]}"
    key = hashlib.sha256(f"{grammar}\0{lark_version}\0{python}".encode()).hexdigest()[:20]
    return str(folder / f"parser-{key}-lark{lark_version}-py{python}.lark-cache")
