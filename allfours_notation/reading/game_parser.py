"""One game's text → its tokens: the loop over the shipped parse table (:mod:`.lalr`),
and Lark's own loop for a game it cannot read.

Only the successful parse is done without Lark.  At anything unusual the text is parsed
again from the start by Lark's own loop (:func:`.lark_parser.lark_parse`, imported
then), which raises exactly what Lark raises.  In the source tree,
``tests/parser/test_fast_lexer.py`` and the benchmark's ``lexer_check`` module compare the
tokens, the callbacks' tokens and where each parse fails with Lark's.  Where the table
file does not match the grammar beside it (a checkout whose grammar was edited), the
table is made from Lark at the first game instead: slower to start, never wrong.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any, cast

from .lalr import TABLE_FILE, Collector, Table, direct_parse, grammar_checksum, grammar_file

_table_lock = threading.Lock()
_tables: list[Table] = []


def table() -> Table:
    """The parse table: the shipped file's, or made from Lark where that file does not
    match the grammar beside it."""
    if not _tables:
        with _table_lock:
            if not _tables:
                _tables.append(Table(_table_data()))
    return _tables[0]


def _table_data() -> dict[str, Any]:
    data = cast(dict[str, Any], json.loads(grammar_file(TABLE_FILE)))
    if data.get("grammar_crc32") == grammar_checksum(grammar_file("allfours.lark")):
        return data
    from .lark_parser import table_data  # a table not made again after an edit

    return table_data()


_local = threading.local()

GameParser = tuple[Callable[[str], Any], Collector]


def game_parser() -> GameParser:
    """This thread's parse of one game's text, and its comment collector (asked for once
    per game: kept ready on the thread)."""
    found = getattr(_local, "game_parser", None)
    if found is None:
        collector = Collector()

        def by_lark(text: str) -> Any:  # a game the table's loop does not read
            from .lark_parser import lark_parse

            return lark_parse(collector, text)

        found = _local.game_parser = (direct_parse(table(), collector, by_lark), collector)
    return cast(GameParser, found)


def build_parser() -> None:
    """Make this thread's parser now, every state's expression compiled, rather than at
    the first game (a forkserver does, so that every process it forks starts with the
    parser made)."""
    game_parser()
    made = table()
    for state in range(len(made.actions)):
        made.match_of(state)
