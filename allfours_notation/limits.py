"""The documented resource limits on input (NOTATION.md, "Limits").

Past each limit the tools give one clear diagnostic instead of unbounded work:
a file larger than :data:`MAX_FILE_BYTES` is refused before it is read (exit 2);
a game with more than :data:`MAX_TAGS_PER_GAME` tags, more than
:data:`MAX_DEALS_PER_GAME` deals, :data:`MAX_CARDS_PER_GAME` cards or
:data:`MAX_COMMENTS_PER_GAME` comments, or a deal with more than
:data:`MAX_CARDS_PER_DEAL` cards is reported (AFN120) and not replayed.  The
figures are far above any real record (a game has a dozen tags and a few dozen
deals of at most 52 cards) and low enough that nothing a hostile file can write
makes a tool hang or exhaust memory.
"""

from __future__ import annotations

MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_TAGS_PER_GAME = 1_000
MAX_DEALS_PER_GAME = 10_000
MAX_CARDS_PER_DEAL = 1_000
# A real game plays about a thousand cards (a marathon a few thousand); 10 MB of plays
# in one game would be two million records held at once.
MAX_CARDS_PER_GAME = 100_000
# A richly annotated game has a few hundred comments; every comment is kept in the
# records (with its place), so a game of a million comment lines would hold a million
# records at once (1.3 GB for 50 MB of them).
MAX_COMMENTS_PER_GAME = 10_000
# Structure findings (cards written twice, tricks of the wrong size …) listed per game;
# the rest are counted in one more AFN120 warning.
MAX_FINDINGS_PER_GAME = 1_000
# A number written in a record (a deal or trick number, points, a total, the version in
# "% AFN 1", a [Score] or an option's value) has at most this many digits: a real one has
# one to three.  Past it the number is reported at its place (AFN120 in a game, which is
# then not read; the tag's own diagnostic for a tag) rather than converted: Python
# refuses to convert a number of more than 4,300 digits, and the work grows with the
# square of the length.
MAX_NUMBER_DIGITS = 9
# The words of one claim, line of results ('scored', 'director scored') or total, and the
# items and scores of all of them in one game.  A claim names each item once per seat (a
# few dozen words with points); each item read is a record of about 60 bytes, and the
# referee's points and reasons for it more, so that one line of 10 MiB of items took
# 942 MB before these limits (issue 41).  Past either, AFN120 at the word, the game not read.
MAX_WORDS_PER_STATEMENT = 200
MAX_ITEMS_PER_GAME = 100_000

# The language server checks a document of at most this many characters and games.
# It keeps every game's records to answer hovers and completions at once (about 40 MB
# per MB of well-formed games, more for tiny ones), so past either limit it publishes
# one AFN120 diagnostic at 1:1 and offers nothing else: ``allfours check`` reads any
# file up to MAX_FILE_BYTES a game at a time.
MAX_EDITOR_CHARS = 4 * 1024 * 1024
MAX_EDITOR_GAMES = 20_000

LIMIT_CODE = "AFN120"


def overlong_number(text: str) -> tuple[int, int, int] | None:
    """Where ``text`` (a TOML file: an event file or house rules) writes a number longer
    than Python will convert (4,300 digits, ``sys.get_int_max_str_digits``): the line and
    column (from 1) of its first digit and its number of digits; None if it writes none.

    ``tomllib`` raises a bare ValueError on such a number, not a TOMLDecodeError with a
    position (issue 41): the caller says where with this, as a diagnostic, not AFN901."""
    import re
    import sys

    limit = sys.get_int_max_str_digits() or 4_300
    for found in re.finditer(r"[0-9][0-9_]*", text):
        digits = len(found.group().replace("_", ""))
        if digits > limit:
            line = text.count("\n", 0, found.start()) + 1
            column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
            return line, column, digits
    return None
