"""The parse table's cache (issue 27): built once, loaded after, never trusted blindly.

Each case parses in a thread of its own, with the cache folder pointed at a temporary one
through ``XDG_CACHE_HOME``: the parser is built once per thread (a Lark of the thread's
own, made from the cache file or the grammar), so a new thread builds or loads it just
as a new interpreter does, without the interpreter's start and imports (a quarter of a
second of CPU each).  What a parse prints and the table it writes are made once for the
module (:func:`reference`): the cases that only need "the same output" or "a good table
to spoil" take them from there instead of building the table again (half a second of
CPU each), and the case that loads a written table loads the reference's.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from lark import Lark

from allfours_notation.reading import lark_parser
from allfours_notation.reading.lalr import Collector
from allfours_notation.reading.parser import parse

pytestmark = [pytest.mark.skipif(os.name == "nt", reason="the cache folder is XDG's here"),
              # one worker builds the module's reference once
              pytest.mark.xdist_group("parse-table")]

# A game with a comment (the lexer's callbacks) and a syntax error (the parser's state:
# Lark reads it).
_SOURCE = ('% AFN 1\n[Event "x"] { hello }\ndeal 1 dealer N\nturn 4S\nS stands\n'
           'end\n[Event "y"]\ndeal 1 dealer Q\nend\n')


def _parse(cache_home: Path, **env: str) -> str:
    """What a parse in a new thread reads, with the cache folder under ``cache_home``;
    the thread makes a Lark of its own (from the cache file or the grammar), once."""
    read: list[str] = []
    made: list[Lark] = []
    make = lark_parser._build

    def counted(collector: Collector) -> Lark:
        made.append(make(collector))
        return made[-1]

    def in_a_new_thread() -> None:
        r = parse(_SOURCE)
        read.append(f"{len(r.games)} {r.games[0]} {sorted(d.code for d in r.diagnostics)}")

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache_home))
        patch.delenv("AFN_NO_PARSER_CACHE", raising=False)
        for name, value in env.items():
            patch.setenv(name, value)
        patch.setattr(lark_parser, "_build", counted)
        thread = threading.Thread(target=in_a_new_thread)
        thread.start()
        thread.join()
    assert len(read) == 1, "the parse raised (its traceback is printed above)"
    assert len(made) == 1  # not the Lark of the thread that runs the tests
    return read[0]


def _tables(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "allfours-notation").glob("parser-*.lark-cache"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """What a parse reads, from a thread that built the table and wrote it into an empty
    cache folder of the module's own, and that table (left as written)."""
    home = tmp_path_factory.mktemp("reference-cache")
    output = _parse(home)
    (table,) = _tables(home)
    return output, table


def test_the_table_is_written_once_and_then_read(reference: tuple[str, Path]) -> None:
    # The reference's thread started with an empty folder: it built the table and wrote
    # it (one file, in a folder only this user may open).  A second thread loads it.
    # (The reference is that first run, rather than one more of this test's own, which
    # cost half a second of CPU to build the same table again.)
    first, table = reference
    folder = table.parent
    assert _tables(folder.parent) == [table]
    assert folder.stat().st_mode & 0o777 == 0o700
    written = table.stat().st_mtime_ns
    assert _parse(folder.parent) == first
    assert table.stat().st_mtime_ns == written  # loaded, not built and written again
    assert _tables(folder.parent) == [table]


@pytest.mark.parametrize("garbage", [b"", b"not a cache\n", b"0" * 64 + b"\n\x80\x04trunc"])
def test_a_corrupt_or_stale_table_is_built_again(
        tmp_path: Path, garbage: bytes, reference: tuple[str, Path]) -> None:
    expected, good = reference
    folder = tmp_path / "allfours-notation"
    folder.mkdir(mode=0o700)
    table = folder / good.name  # where a parse looks for it: the good table's name
    table.write_bytes(garbage)
    assert _parse(tmp_path) == expected
    assert table.stat().st_size > 1000  # written afresh


def test_a_folder_others_may_write_is_not_trusted(
        tmp_path: Path, reference: tuple[str, Path]) -> None:
    folder = tmp_path / "allfours-notation"
    folder.mkdir()
    folder.chmod(0o777)
    expected = reference[0]
    assert _parse(tmp_path) == expected
    assert _tables(tmp_path) == []


def test_no_cache_folder_still_parses(tmp_path: Path, reference: tuple[str, Path]) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    expected = reference[0]
    assert _parse(blocked) == expected  # the folder cannot be made: Lark builds each time
    assert _parse(tmp_path, AFN_NO_PARSER_CACHE="1") == expected
    assert _tables(tmp_path) == []
