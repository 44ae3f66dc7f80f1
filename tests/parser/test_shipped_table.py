"""The parse table shipped beside the grammar (``grammar/allfours.table.json``, read by
:mod:`allfours_notation.reading.game_parser`) is the one Lark builds of the grammar now:
a grammar edited without making the table again fails here, with the command to run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from allfours_notation.reading import game_parser, lalr
from allfours_notation.reading.build_table import table_json
from allfours_notation.reading.lalr import REGENERATE, TABLE_FILE

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "grammar" / TABLE_FILE


def test_the_shipped_table_is_what_lark_builds_of_the_grammar() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == table_json(), \
        f"{SHIPPED.relative_to(ROOT)} is not the grammar's table: run {REGENERATE}"


def test_the_table_is_plain_data() -> None:
    """JSON that names only terminals, rules and states (loading it runs no code)."""
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert {rule["shape"] for rule in data["rules"]} <= {
        "first", "statement", "one_or_list", "as_is", "one_more", "splice"}
    assert len(data["states"]) == len(data["lexer_of_state"])
    assert set(data["terminals"]) == {name for names in data["lexers"] for name in names}
    assert set(data["callbacks"]) == {*lalr.COMMENT_TERMINALS, *lalr.OPENING_TERMINALS}


def test_a_table_that_does_not_match_the_grammar_is_made_from_lark(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout whose grammar was edited and its table not made again reads with the
    grammar's table, made from Lark, not the stale one: slower to start, never wrong."""
    real = lalr.grammar_file
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    stale = {**shipped, "grammar_crc32": shipped["grammar_crc32"] ^ 1, "states": []}

    def edited(name: str) -> str:
        return json.dumps(stale) if name == TABLE_FILE else real(name)

    monkeypatch.setattr(game_parser, "grammar_file", edited)
    made: dict[str, Any] = game_parser._table_data()
    assert made == shipped


def test_a_lexer_ending_with_another_s_terminals_matches_as_the_one_alternation() -> None:
    """A lexer that is another's terminals with more in front compiles only those and
    tries the other's expression next (issue 27): the same token at every position of
    every sample, whichever state's lexer reads it."""
    import re

    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    table = lalr.Table(data)
    shared = [lexer for lexer, tail in enumerate(table.tails) if tail is not None]
    assert len(shared) >= 3  # after a hand, a claim and a total: the statements' lexer
    assert sum(pattern.count("(?P<PLAYS>") for pattern in table.patterns) == 1
    texts = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "samples").glob("*.afn"))]
    for lexer in shared:
        whole = re.compile("|".join(f"(?P<{name}>{data['terminals'][name]})"
                                    for name in data["lexers"][lexer]), data["flags"]).match
        state = table.lexer_of_state.index(lexer)
        split = table.match_of(state)
        for text in texts:
            for pos in range(0, len(text), 3):
                one, two = whole(text, pos), split(text, pos)
                assert (one and (one.lastgroup, one.span())) == (
                    two and (two.lastgroup, two.span()))


def test_whitespace_tried_first_changes_no_token() -> None:
    """Each lexer tries the whitespace between tokens first (issue 38): no other terminal
    matches at a whitespace character, so every lexer, as the table compiles it, finds
    the token the one alternation in the grammar's order finds, at every position of
    every sample."""
    import re

    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    table = lalr.Table(data)
    blank = [name for name in data["ignore"] if data["terminals"][name] == r"\s+"]
    assert blank and all(pattern.startswith(f"(?P<{blank[0]}>") for pattern in table.patterns)
    flags = data["flags"]
    texts = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "samples").glob("*.afn"))]
    for name, expression in data["terminals"].items():
        if name in blank:
            continue
        terminal = re.compile(expression, flags)
        for space in " \t\n\r\x0b\x0c\x85\xa0\u2003\u3000":
            for after in ("JS", "1. S:JS", "deal 1 dealer N", "claim N high", "{ c }", "end"):
                assert terminal.match(space + after) is None, (name, space, after)
    for lexer, names in enumerate(data["lexers"]):
        whole = re.compile("|".join(f"(?P<{name}>{data['terminals'][name]})" for name in names),
                           flags).match
        split = table.match_of(table.lexer_of_state.index(lexer))
        for text in texts:
            for pos in range(len(text)):
                one, two = whole(text, pos), split(text, pos)
                assert (one and (one.lastgroup, one.span())) == (
                    two and (two.lastgroup, two.span())), (lexer, pos)
