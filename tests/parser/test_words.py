"""The notation's words (``reading/words.py``) are the grammar's: read from the terminals
of ``grammar/allfours.lark``, so that a word added to, dropped from or respelt in
either fails here (issue 22: one vocabulary for the syntax errors, highlighting and
completion)."""

from __future__ import annotations

import re

from allfours_notation.cards import parse_card
from allfours_notation.reading import words
from allfours_notation.reading.lark_parser import grammar_text

_TERMINAL = re.compile(r"^(_?[A-Z][A-Z_]*)(?:\.-?[0-9]+)?:\s*(.*?)\s*(?://.*)?$")


def _terminals(text: str) -> dict[str, str]:
    """Each terminal's definition as written (one line each in this grammar)."""
    found = {}
    for line in text.splitlines():
        match = _TERMINAL.match(line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def _words_of(definition: str) -> list[str]:
    """The words in a definition's case-insensitive groups ``(?i:…)``, in order."""
    groups = re.findall(r"\(\?i:((?:[^()]|\([^()]*\))*)\)", definition)
    return [word for group in groups for word in re.findall(r"[a-z]+", re.sub(r"\\.", "",
                                                                               group))]


TERMINALS = _terminals(grammar_text())


def test_the_card_seat_and_glyph_patterns_are_the_grammars() -> None:
    assert TERMINALS["_CARD"] == f"/{words.CARD_PATTERN}/"
    assert TERMINALS["_SEAT"] == f"/{words.SEAT_PATTERN}/"
    assert TERMINALS["_GLYPH"] == f"/{words.GLYPH_PATTERN}/"
    assert f'"{words.UNKNOWN_CARD}"' in TERMINALS["_HAND_CARD"]


def test_the_ranks_and_suits_spell_every_card_the_pattern_reads() -> None:
    ranks = (*words.RANKS, "10")
    suits = (*words.SUITS, *words.SUIT_SYMBOLS, *words.SUIT_OUTLINES)
    spelt = {rank + suit for rank in (*ranks, *map(str.lower, ranks))
             for suit in (*suits, *map(str.lower, suits))}  # any case, on input
    assert all(parse_card(text) is not None for text in spelt)
    pattern = re.compile(words.CARD_PATTERN)
    candidates = {a + b for a in "AKQJT1098765432akqjtxX0" for b in "SHDCshdcX♠♥♦♣♤♡♢♧"}
    assert {text for text in candidates | spelt if pattern.fullmatch(text)} == spelt


def test_each_list_of_words_is_a_terminals() -> None:
    assert _words_of(TERMINALS["_ITEM"]) == list(words.CLAIM_ITEMS)
    assert _words_of(TERMINALS["CALL"]) == list(words.CALLS)
    assert _words_of(TERMINALS["DISCARD"]) == [words.DISCARDS]
    assert _words_of(TERMINALS["PENALTY"]) == ["penalty", *words.PENALTY_KINDS]
    assert _words_of(TERMINALS["REDEAL"]) == ["redeal", *words.REDEAL_REASONS]


def test_the_keywords_are_every_other_word_of_the_grammar() -> None:
    every = [word for definition in TERMINALS.values() for word in _words_of(definition)]
    listed = (*words.CLAIM_ITEMS, *words.CALLS, words.DISCARDS, *words.PENALTY_KINDS,
              *words.REDEAL_REASONS)
    assert set(every) == set(listed) | set(words.KEYWORDS)
    assert set(words.KEYWORDS) - set(listed) == set(words.KEYWORDS) - {"penalty"}
    assert len(every) > 30  # the reading of the grammar found its words


def test_a_changed_terminal_is_caught() -> None:
    """The reading of a definition is not blind: a call added to the grammar's CALL
    terminal, or a respelt card, no longer matches the vocabulary."""
    changed = _terminals(grammar_text().replace("stands|begs", "stands|passes|begs")
                         .replace("[SHDCshdc", "[SHDCXshdc"))
    assert _words_of(changed["CALL"]) != list(words.CALLS)
    assert changed["_CARD"] != f"/{words.CARD_PATTERN}/"


def test_either_spells_a_case_insensitive_choice() -> None:
    assert re.fullmatch(words.either(words.CALLS), "BEGS")
    assert not re.fullmatch(words.either(words.CALLS), "beg")
