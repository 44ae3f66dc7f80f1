"""Adversarial AFN files of any size, one per shape the fuzzing campaign found costly.

Each shape is a function of a target size in bytes that returns text of about
that size (never less than one repetition of its unit).  The shapes are the
ones that once cost super-linear time or memory: runs of white space or blank
lines that made a regular expression backtrack, deals that are only a header
and a claim (the quadratic dispute report), long runs of one keyword, very many
tags or games, one huge deal, and a deal whose cards repeat (thousands of
diagnostics to print); and small games whose numbers, dealers and turn-ups vary
(the costliest per byte we know of: a fixed cost per game, and no two alike).
"""

from __future__ import annotations

import random
from collections.abc import Callable

HEADER = "% AFN 1\n"


def _repeat(unit: str, size: int, prefix: str = "", suffix: str = "") -> str:
    count = max(1, (size - len(prefix) - len(suffix)) // max(1, len(unit)))
    return prefix + unit * count + suffix


def spaces_then_word(size: int) -> str:
    """A long run of spaces, then a word that is not AFN."""
    return " " * max(1, size - 2) + "x\n"


def blank_lines_then_brace(size: int) -> str:
    """A version line, a long run of blank lines and an unclosed comment."""
    return _repeat("\n", size, HEADER, "{")


def semicolons(size: int) -> str:
    """Lines of semicolons (line comments in a row), then a word."""
    return _repeat(";" * 60 + "\n", size, "", "x\n")


def open_brackets(size: int) -> str:
    """Brackets that never make a tag."""
    return _repeat("[", size, HEADER, "\n")


def quotes(size: int) -> str:
    """Double quotes that never close on their line."""
    return _repeat('[A "' + '"' * 40 + "\n", size, HEADER)


def braces(size: int) -> str:
    """Comment openers, each closed at once, then one left open."""
    return _repeat("{{", size, HEADER, "{")


def digits(size: int) -> str:
    """One long run of digits inside a deal."""
    return HEADER + "deal 1 dealer N\n" + "9" * max(1, size - 30) + "\nend\n"


def end_words(size: int) -> str:
    """A file of only ``end end end …``."""
    return _repeat("end ", size)


def deal_words(size: int) -> str:
    """A file of only ``deal deal deal …``."""
    return _repeat("deal ", size)


def disputed_deals(size: int) -> str:
    """One game whose deals are only a header and a claim."""
    unit = "deal {n} dealer N\nclaim N high\n"
    count = max(1, size // len(unit.format(n=1000)))
    body = "".join(unit.format(n=number) for number in range(1, count + 1))
    return HEADER + '[Rules "hoffmann1909"]\n' + body + "end\n"


def many_tags(size: int) -> str:
    """One game with a huge header block of different tags."""
    count = max(1, size // 20)
    tags = "".join(f'[T{number} "value"]\n' for number in range(count))
    return HEADER + tags + "deal 1 dealer N\nend\n"


def duplicate_tags(size: int) -> str:
    """One game whose header block repeats the same tag."""
    return _repeat('[Event "x"]\n', size, HEADER, "deal 1 dealer N\nend\n")


def tiny_games(size: int) -> str:
    """Very many games of one empty deal each."""
    return _repeat("deal 1 dealer N\nend\n", size, HEADER)


_CARDS = [rank + suit for rank in "23456789TJQKA" for suit in "SHDC"]


def varied_small_games(size: int, seed: int = 2026) -> str:
    """Small games an adversary might write instead of one repeated text: deal numbers
    and dealers vary, a third have a turn-up, a third a turn-up and a stand."""
    rng = random.Random(seed)
    parts, length = [HEADER], len(HEADER)
    while length < size:
        number, dealer, card = rng.randrange(1, 99), rng.choice("NESW"), rng.choice(_CARDS)
        game = [f"deal {number} dealer {dealer}\nend\n",
                f"deal {number} dealer {dealer}\nturn {card}\nend\n",
                f"deal {number} dealer N\nturn {card}\nS stands\nend\n"][rng.randrange(3)]
        parts.append(game)
        length += len(game)
    return "".join(parts)


def unnumbered_plays(size: int) -> str:
    """One deal with a huge number of unnumbered plays."""
    return _repeat("N:JS S:2D\n", size, HEADER + "deal 1 dealer N\n", "end\n")


def numbered_tricks(size: int) -> str:
    """One deal with a huge number of numbered tricks."""
    unit = "{n}. N:JS S:2D\n"
    count = max(1, size // len(unit.format(n=100000)))
    body = "".join(unit.format(n=number) for number in range(1, count + 1))
    return HEADER + "deal 1 dealer N\n" + body + "end\n"


def comment_lines(size: int) -> str:
    """A game made mostly of comment lines."""
    return _repeat("; a comment line about nothing at all\n", size,
                   HEADER + "deal 1 dealer N\n", "end\n")


def repeated_cards(size: int) -> str:
    """Deals whose cards repeat: a diagnostic per card, all printed (within the limits:
    games of ten such deals, 800 cards and under a thousand findings each)."""
    unit = "deal {n} dealer N\nturn 2H\n" + "N:JS S:JS\n" * 40
    count = max(1, size // len(unit.format(n=10)))
    body = "".join(unit.format(n=number % 10 + 1) + ("end\n" if number % 10 == 9 else "")
                   for number in range(count))
    return HEADER + body + ("" if count % 10 == 0 else "end\n")


def huge_deal_repeated(size: int) -> str:
    """One deal of repeated cards past the cards-per-deal limit."""
    return _repeat("N:JS S:JS\n", size, HEADER + "deal 1 dealer N\nturn 2H\n", "end\n")


def long_line(size: int) -> str:
    """One very long line of words that are not AFN."""
    return _repeat("xyzzy ", size, HEADER + "deal 1 dealer N\n", "\nend\n")


_RESULTS_HEADER = HEADER + '[Event "club night"]\n[Rules "trinidad14"]\n\n'


def results_only_games(size: int) -> str:
    """Games written as a club's score sheet: each deal only its turn-up, a line of
    results and a total (as in ``samples/club-results.afn``), ten deals a game."""
    unit = ("deal {n} dealer N\n  turn 6D\n  W stands\n"
            "  scored N kick W high low N jack game\n  total N {a} W {b}\n")
    count = max(1, size // len(unit.format(n=10, a=10, b=10)))
    body = "".join(unit.format(n=number % 10 + 1, a=number % 10, b=number % 7)
                   + ("end\n\n" + _RESULTS_HEADER.removeprefix(HEADER) if number % 10 == 9
                      else "")
                   for number in range(count))
    return _RESULTS_HEADER + body + "end\n"


def long_scored_line(size: int) -> str:
    """One line of results of very many items (the 94-bytes-per-byte line of issue 41)."""
    return _repeat(" N high W low", size, _RESULTS_HEADER + "deal 1 dealer N\n  scored",
                   "\nend\n")


def long_claim_line(size: int) -> str:
    """One claim of very many items with points."""
    return _repeat(" N kick 3", size, _RESULTS_HEADER + "deal 1 dealer N\n  claim", "\nend\n")


def long_total_line(size: int) -> str:
    """One total of very many scores."""
    return _repeat(" N 4 W 2", size, _RESULTS_HEADER + "deal 1 dealer N\n  total", "\nend\n")


def many_scored_deals(size: int) -> str:
    """Results-only deals, each line of results just under the words limit, in games of
    at most the deals allowed: the most items a game may hold, game after game."""
    unit = "deal {n} dealer N\n  scored" + " N high W low" * 49 + "\n"
    count = max(1, size // len(unit.format(n=1000)))
    body = "".join(unit.format(n=number % 500 + 1) + ("end\n" if number % 500 == 499 else "")
                   for number in range(count))
    return _RESULTS_HEADER + body + "end\n"


def huge_numbers(size: int) -> str:
    """Deal numbers, trick numbers, points and totals of thousands of digits (Python's
    int() refuses more than 4,300), game after game."""
    big = "9" * 5_000
    unit = (f"deal {big} dealer N\n  scored N kick {big}\n  total N {big} W 1\nend\n"
            f"deal 1 dealer N\n  {big}. N:JS\nend\n")
    return _repeat(unit, size, _RESULTS_HEADER)


def recursion_turn(size: int) -> str:
    """The RecursionError reproducer, repeated: a deal, then ``turn`` and a backquote."""
    return _repeat("deal 3 dealer N\nturn`\nend\n", size, HEADER)


SHAPES: dict[str, Callable[[int], str]] = {
    "spaces-then-word": spaces_then_word,
    "blank-lines-then-brace": blank_lines_then_brace,
    "semicolons": semicolons,
    "open-brackets": open_brackets,
    "quotes": quotes,
    "braces": braces,
    "digits": digits,
    "end-words": end_words,
    "deal-words": deal_words,
    "disputed-deals": disputed_deals,
    "many-tags": many_tags,
    "duplicate-tags": duplicate_tags,
    "tiny-games": tiny_games,
    "varied-small-games": varied_small_games,
    "unnumbered-plays": unnumbered_plays,
    "numbered-tricks": numbered_tricks,
    "comment-lines": comment_lines,
    "repeated-cards": repeated_cards,
    "huge-deal-repeated": huge_deal_repeated,
    "long-line": long_line,
    "recursion-turn": recursion_turn,
    "results-only-games": results_only_games,
    "long-scored-line": long_scored_line,
    "long-claim-line": long_claim_line,
    "long-total-line": long_total_line,
    "many-scored-deals": many_scored_deals,
    "huge-numbers": huge_numbers,
}
