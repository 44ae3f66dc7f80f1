"""``allfours list``: one entry per game, from the headers-only scan.

Everything an entry shows except the diagnostics comes from the header tags and
the game's last written ``total`` line, both found without running the grammar,
so a catalogue of a large archive costs little more than reading it.  The
error, warning and dispute counts need the referee: :func:`with_counts` adds
them from an :class:`~.analysis.Analysed` game.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..cards import CLOCKWISE
from ..frozen import frozen
from ..reading.headers import GameHeader
from ..visible import spreadsheet_cell, visible
from .analysis import Analysed

DEFAULT_RULES = "hoffmann1909"
# a score of more digits than a record may hold is no score (the game is not read): the
# listing shows no final score rather than converting it (issue 41)
_TOTAL = re.compile(r"total((?:[ \t]+[NESWnesw][ \t]+-?\d{1,9}(?!\d))+)")
_SCORE = re.compile(r"([NESWnesw])[ \t]+(-?\d{1,9})")


@frozen
class Entry:
    """One game of an archive, as ``allfours list`` prints it."""

    file: str
    game: int
    line: int
    date: str | None
    event: str | None
    players: tuple[tuple[str, str], ...]  # (seat letter, name), clockwise from North
    rules: str
    deals: int
    result: str | None
    final: tuple[tuple[str, int], ...]  # the last total written: (seat letter, points)
    errors: int | None = None
    warnings: int | None = None
    disputes: int | None = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.game}"

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "game": self.game,
            "line": self.line,
            "date": self.date,
            "event": self.event,
            "players": dict(self.players),
            "rules": self.rules,
            "deals": self.deals,
            "result": self.result,
            "final": dict(self.final),
            "errors": self.errors,
            "warnings": self.warnings,
            "disputes": self.disputes,
        }


CSV_COLUMNS = ("file", "game", "line", "date", "event", "north", "east", "south", "west",
               "rules", "deals", "result", "final", "errors", "warnings", "disputes")


def csv_row(entry: Entry) -> list[object]:
    """The entry's CSV cells; text no spreadsheet takes for a formula."""
    players = dict(entry.players)
    return [spreadsheet_cell(cell) for cell in _csv_cells(entry, players)]


def _csv_cells(entry: Entry, players: dict[str, str]) -> list[object]:
    return [entry.file, entry.game, entry.line, entry.date or "", entry.event or "",
            *(players.get(seat.letter, "") for seat in CLOCKWISE),
            entry.rules, entry.deals, entry.result or "", final_text(entry.final),
            *("" if count is None else count
              for count in (entry.errors, entry.warnings, entry.disputes))]


def entry_of(file: str, text: str, header: GameHeader) -> Entry:
    """The entry of the game ``header`` points at in ``text``."""
    tags: dict[str, str] = {}
    for name, value in header.tags:
        tags.setdefault(name, value)  # the first of a repeated tag, as Game.tag
    players = tuple((seat.letter, tags[seat.tag_name]) for seat in CLOCKWISE
                    if seat.tag_name in tags)
    return Entry(
        file=file,
        game=header.index,
        line=header.line,
        date=tags.get("Date"),
        event=tags.get("Event"),
        players=players,
        rules=tags.get("Rules") or DEFAULT_RULES,
        deals=header.deals,
        result=tags.get("Result"),
        final=last_total(text, header.start, header.end),
    )


def with_counts(entry: Entry, analysed: Analysed) -> Entry:
    return replace(entry, errors=analysed.errors, warnings=analysed.warnings,
                   disputes=analysed.disputes)


def last_total(text: str, start: int, end: int) -> tuple[tuple[str, int], ...]:
    """The scores of the last ``total`` statement in ``text[start:end]``: searched
    backwards from the end, so only the game's tail is read."""
    at = end
    while (at := text.rfind("total", start, at)) >= 0:
        match = _TOTAL.match(text, at, end)
        if match is not None and (at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")):
            return tuple((seat.upper(), int(points))
                         for seat, points in _SCORE.findall(match.group(1)))
    return ()


def final_text(final: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{seat} {points}" for seat, points in final)


def entry_line(entry: Entry) -> str:
    """One line: where, date, event, players, rules, deals, result, final total, counts."""
    players = " v ".join(f"{seat} {name}" for seat, name in entry.players) or "-"
    deals = f"{entry.deals} deal{'s' if entry.deals != 1 else ''}"
    bits = [entry.where, entry.date or "-", entry.event or "-", players, entry.rules, deals,
            f"result {entry.result or '-'}", f"total {final_text(entry.final) or '-'}"]
    if entry.errors is not None:
        bits.append(f"{entry.errors} err {entry.warnings} warn {entry.disputes} disp")
    return visible("  ".join(bits))  # a terminal shows a record's text, never obeys it
