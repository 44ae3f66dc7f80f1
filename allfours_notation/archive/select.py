"""``allfours find``: which games of an archive match, and their original bytes.

Filters on the header (tags, players, rules, date, result, number of deals) are
answered by the headers-only scan; content filters (``--has revoke`` …) need the
referee and are asked only of games that passed the header filters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import field

from ..cards import Rank, Seat
from ..frozen import frozen
from ..reading.headers import GameHeader
from ..reading.records import CallKind, ClaimItem, PenaltyKind, TurnUp
from ..reading.slicer import slice_games
from ..reading.source import BOM
from .analysis import Analysed
from .catalog import DEFAULT_RULES


class CriteriaError(ValueError):
    """A filter that cannot be understood (a bad regular expression, a bad range)."""


@frozen
class TextTest:
    """Exact (case-sensitive for tags, case-insensitive for players) or a regular
    expression searched anywhere in the value."""

    text: str
    pattern: re.Pattern[str] | None = None

    def matches(self, value: str | None, *, fold: bool = False) -> bool:
        if value is None:
            return False
        if self.pattern is not None:
            return self.pattern.search(value) is not None
        return value.casefold() == self.text.casefold() if fold else value == self.text


def text_test(spec: str, *, regex: bool, fold: bool = False) -> TextTest:
    if not regex:
        return TextTest(spec)
    try:
        return TextTest(spec, re.compile(spec, re.IGNORECASE if fold else 0))
    except re.error as error:
        raise CriteriaError(f"{spec!r} is not a regular expression: {error}") from error


def tag_test(spec: str) -> tuple[str, TextTest]:
    """``Name=value`` (exact) or ``Name~regex``."""
    equals, tilde = spec.find("="), spec.find("~")
    cuts = [at for at in (equals, tilde) if at > 0]
    if not cuts:
        raise CriteriaError(f"--tag {spec!r}: write NAME=VALUE or NAME~REGEX, "
                            'e.g. --tag Event="Arima club night"')
    at = min(cuts)
    return spec[:at].strip(), text_test(spec[at + 1 :], regex=spec[at] == "~")


def player_test(spec: str) -> TextTest:
    """A player's full name (any case), or ``~regex``."""
    if spec.startswith("~"):
        return text_test(spec[1:], regex=True, fold=True)
    return TextTest(spec)


_DATE = re.compile(r"(\d{4})(?:[.\-/](\d{1,2}|\?\?)(?:[.\-/](\d{1,2}|\?\?))?)?$")


def date_key(text: str | None) -> str | None:
    """``2026.11.20`` (or ``2026-11-20``, ``2026.11``, ``2026.11.??``) as ``20261120``;
    unknown parts count as the lowest, so a partial date sorts first."""
    if text is None:
        return None
    match = _DATE.match(text.strip())
    if match is None:
        return None
    year, month, day = match.groups()
    parts = [year] + [p.zfill(2) if p and p.isdigit() else "00" for p in (month, day)]
    return "".join(parts)


def deals_range(spec: str) -> tuple[int, int | None]:
    """``5`` exactly five, ``5-`` at least five, ``-5`` at most five, ``3-8``."""
    low, dash, high = spec.partition("-")
    try:
        if not dash:
            return int(low), int(low)
        return (int(low) if low else 0), (int(high) if high else None)
    except ValueError:
        raise CriteriaError(f"--deals {spec!r}: write N, N-, -N or N-M") from None


# --- content features ---------------------------------------------------------------------------


def _points(analysed: Analysed) -> list[ClaimItem]:
    if analysed.replay is None:
        return []
    return [point.item for deal in analysed.replay.deals for point in deal.points]


def _codes(analysed: Analysed) -> set[str]:
    return {d.code for d in analysed.diagnostics}


def _penalties(analysed: Analysed) -> set[PenaltyKind]:
    return {p.kind for deal in analysed.game.deals for p in deal.penalties}


def _turned_jack(analysed: Analysed) -> bool:
    return any(isinstance(event, TurnUp) and event.card.rank is Rank.JACK
               for deal in analysed.game.deals for event in deal.opening)


def _calls_in_deal(analysed: Analysed, *wanted: CallKind) -> bool:
    for deal in analysed.game.deals:
        kinds = {call.kind for call in deal.calls}
        if all(kind in kinds for kind in wanted):
            return True
    return False


def _ending(analysed: Analysed, word: str) -> bool:
    return analysed.replay is not None and any(
        (deal.ending or "").startswith(word) or (deal.ending or "").endswith(word)
        for deal in analysed.replay.deals)


# name → (what it means, test); the names are what ``--has``/``--without`` take.
FEATURES: Mapping[str, tuple[str, Callable[[Analysed], bool]]] = {
    "errors": ("any error of the record (syntax, structure, rules, a wrong total or result)",
               lambda a: a.errors > 0),
    "warnings": ("any warning", lambda a: a.warnings > 0),
    "dispute": ("a claim the cards or the rules do not give, recorded as made, and the totals "
                "or result that follow from it (severity dispute)",
                lambda a: a.disputes > 0),
    "revoke": ("a revoke, found in the play (AFN306) or declared as a penalty",
               lambda a: "AFN306" in _codes(a) or PenaltyKind.REVOKE in _penalties(a)),
    "undertrump": ("an undertrump, found (AFN307) or declared",
                   lambda a: "AFN307" in _codes(a) or PenaltyKind.UNDERTRUMP in _penalties(a)),
    "penalty": ("points scored for a penalty", lambda a: ClaimItem.PENALTY in _points(a)),
    "turned-jack": ("a Jack turned up", _turned_jack),
    "kick": ("points for a turned-up card (a turned Jack, or Trinidad's kicks)",
             lambda a: ClaimItem.KICK in _points(a)),
    "hang-jack": ("a Jack hanged (Hang Jack scored)",
                  lambda a: ClaimItem.HANG_JACK in _points(a)),
    "beg": ("a player begged", lambda a: _calls_in_deal(a, CallKind.BEGS)),
    "gift": ("a player begged and the dealer gave one",
             lambda a: _calls_in_deal(a, CallKind.BEGS, CallKind.GIVES)
             or ClaimItem.GIFT in _points(a)),
    "run": ("a player begged and the dealer ran the cards",
            lambda a: _calls_in_deal(a, CallKind.BEGS, CallKind.RUNS)),
    "gift-won": ("the gift took the winner to the target",
                 lambda a: a.deciding_item is ClaimItem.GIFT),
    "redeal": ("a deal redealt (pack exhausted or misdeal)", lambda a: _ending(a, "redeal")),
    "abandoned": ("a deal abandoned", lambda a: _ending(a, "abandoned")),
    "concede": ("a player conceded", lambda a: _ending(a, "concedes")),
    "results": ("a deal recorded by its results alone ('scored …')",
                lambda a: a.replay is not None and any(d.by_results for d in a.replay.deals)),
    "cards": ("a deal recorded by its cards (its tricks)",
              lambda a: a.replay is not None and any(not d.by_results and d.tricks
                                                     for d in a.replay.deals)),
    "unfinished": ("nobody reached the target",
                   lambda a: a.replay is None or a.replay.winner is None),
}


@frozen
class Criteria:
    """Every filter of one ``find``; a game matches when it passes all of them."""

    tags: tuple[tuple[str, TextTest], ...] = ()
    players: tuple[TextTest, ...] = ()
    rules: tuple[str, ...] = ()
    date_from: str | None = None
    date_to: str | None = None
    results: tuple[str, ...] = ()
    deals: tuple[int, int | None] | None = None
    has: frozenset[str] = field(default_factory=frozenset)
    without: frozenset[str] = field(default_factory=frozenset)

    @property
    def needs_content(self) -> bool:
        return bool(self.has or self.without)

    def header_matches(self, header: GameHeader) -> bool:
        if any(not test.matches(header.tag(name)) for name, test in self.tags):
            return False
        names = [header.tag(seat.tag_name) for seat in Seat]
        if any(not any(test.matches(name, fold=True) for name in names)
               for test in self.players):
            return False
        if self.rules and (header.tag("Rules") or DEFAULT_RULES).lower() not in self.rules:
            return False
        if self.results and header.tag("Result") not in self.results:
            return False
        if not self._date_matches(date_key(header.tag("Date"))):
            return False
        if self.deals is not None:
            low, high = self.deals
            if header.deals < low or (high is not None and header.deals > high):
                return False
        return True

    def _date_matches(self, key: str | None) -> bool:
        if self.date_from is None and self.date_to is None:
            return True
        if key is None:
            return False
        if self.date_from is not None and key < self.date_from:
            return False
        return self.date_to is None or key <= self.date_to

    def content_matches(self, analysed: Analysed) -> bool:
        return (all(FEATURES[name][1](analysed) for name in self.has)
                and not any(FEATURES[name][1](analysed) for name in self.without))


# --- original bytes -----------------------------------------------------------------------------


_DIRECTIVES = re.compile(r"(?:[ \t\r\n]*%[^\n]*(?:\n|\Z))+")


def game_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where a game sliced as ``text[start:end]`` begins once the version line
    (``% AFN 1``), which the slicer counts into the first game, is cut off: so
    that games from several files can follow one version line in one file."""
    match = _DIRECTIVES.match(text, start, end)
    return (match.end() if match else start), end


def game_bytes(text: str, start: int, end: int) -> bytes:
    """A game's original bytes, from a text that decoded without a replacement."""
    start, end = game_span(text, start, end)
    return text[start:end].encode("utf-8")


@frozen
class RawGames:
    """A file with bytes that are not UTF-8, its games as their original bytes.

    The parser reads text with every such byte replaced; here the file is decoded
    with ``surrogateescape`` instead, so that encoding a game's text gives back
    exactly the bytes that were read (a BOM aside).
    """

    text: str
    spans: tuple[tuple[int, int], ...]

    def game_bytes(self, index: int) -> bytes:
        start, end = self.spans[index - 1]
        return self.text[start:end].encode("utf-8", "surrogateescape")


def raw_games(data: bytes) -> RawGames:
    text = data.decode("utf-8", "surrogateescape").removeprefix(BOM)
    spans = tuple(game_span(text, piece.start, piece.end) for piece in slice_games(text).games)
    return RawGames(text, spans)
