"""The relational form of a game: the rows ``export --sqlite`` and ``--csv`` write.

One game becomes a row of ``games`` and rows of ``tags``, ``seats``, ``deals``,
``turnups``, ``calls``, ``tricks``, ``plays``, ``awards``, ``totals`` and
``diagnostics``; every child row starts with ``game_id`` (and, below a deal,
``deal``, the deal's place in the game), so tables join on those keys.  What is
played is the referee's view (seats worked out, points computed with their
reasons), so a query needs no knowledge of the rules.  The schema is
documented in ``docs/archive-schema.md``; a test holds the two together.
"""

from __future__ import annotations

from ..cards import Card, Seat
from ..frozen import frozen
from ..reading.records import Game
from ..reading.table import side_of
from .analysis import Analysed

SCHEMA_VERSION = 2  # 2: deals.time, totals.pips (issue 38)

# table → ((column, SQL type), ...), game_id first; the primary key after.
TABLES: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "games": ((
        ("game_id", "INTEGER"), ("digest", "TEXT NOT NULL UNIQUE"), ("file", "TEXT"),
        ("game_index", "INTEGER"), ("line", "INTEGER"), ("event", "TEXT"), ("site", "TEXT"),
        ("date", "TEXT"), ("rules", "TEXT"), ("target", "INTEGER"), ("players", "INTEGER"),
        ("result", "TEXT"), ("winner", "TEXT"), ("decided", "TEXT"), ("deals", "INTEGER"),
        ("errors", "INTEGER"), ("warnings", "INTEGER"), ("disputes", "INTEGER"),
        ("broken", "INTEGER"),
    ), ("game_id",)),
    "tags": ((("game_id", "INTEGER"), ("position", "INTEGER"), ("name", "TEXT"),
              ("value", "TEXT")), ("game_id", "position")),
    "seats": ((("game_id", "INTEGER"), ("seat", "TEXT"), ("side", "TEXT"),
               ("player", "TEXT")), ("game_id", "seat")),
    "deals": ((("game_id", "INTEGER"), ("deal", "INTEGER"), ("number", "INTEGER"),
               ("dealer", "TEXT"), ("elder", "TEXT"), ("trump", "TEXT"),
               ("complete", "INTEGER"), ("ending", "TEXT"), ("after_decision", "INTEGER"),
               ("entry", "TEXT"), ("time", "TEXT")),
              ("game_id", "deal")),
    "turnups": ((("game_id", "INTEGER"), ("deal", "INTEGER"), ("position", "INTEGER"),
                 ("card", "TEXT"), ("rank", "TEXT"), ("suit", "TEXT")),
                ("game_id", "deal", "position")),
    "calls": ((("game_id", "INTEGER"), ("deal", "INTEGER"), ("position", "INTEGER"),
               ("seat", "TEXT"), ("call", "TEXT")), ("game_id", "deal", "position")),
    "tricks": ((("game_id", "INTEGER"), ("deal", "INTEGER"), ("trick", "INTEGER"),
                ("leader", "TEXT"), ("winner", "TEXT")), ("game_id", "deal", "trick")),
    "plays": ((("game_id", "INTEGER"), ("deal", "INTEGER"), ("trick", "INTEGER"),
               ("position", "INTEGER"), ("seat", "TEXT"), ("card", "TEXT"), ("rank", "TEXT"),
               ("suit", "TEXT")), ("game_id", "deal", "trick", "position")),
    "awards": ((("game_id", "INTEGER"), ("deal", "INTEGER"), ("position", "INTEGER"),
                ("item", "TEXT"), ("side", "TEXT"), ("seat", "TEXT"), ("points", "INTEGER"),
                ("scored", "INTEGER"), ("reason", "TEXT")), ("game_id", "deal", "position")),
    "totals": ((("game_id", "INTEGER"), ("deal", "INTEGER"), ("side", "TEXT"),
                ("points", "INTEGER"), ("written", "INTEGER"), ("pips", "INTEGER")),
               ("game_id", "deal", "side")),
    "diagnostics": ((("game_id", "INTEGER"), ("position", "INTEGER"), ("code", "TEXT"),
                     ("severity", "TEXT"), ("message", "TEXT"), ("line", "INTEGER"),
                     ("column", "INTEGER"), ("deal", "INTEGER"), ("trick", "INTEGER")),
                    ("game_id", "position")),
}

Row = tuple[object, ...]


def columns(table: str) -> tuple[str, ...]:
    return tuple(name for name, _ in TABLES[table][0])


@frozen
class GameRows:
    """One game's rows, each table's without its leading ``game_id``."""

    digest: str
    rows: dict[str, list[Row]]


def _letter(seat: Seat | None) -> str | None:
    return seat.letter if seat is not None else None


def _card_parts(card: Card) -> tuple[str, str, str]:
    text = str(card)
    return text, text[:-1], text[-1]


def game_rows(analysed: Analysed, file: str, digest: str) -> GameRows:
    """Every row of one game."""
    game, replayed = analysed.game, analysed.replay
    options = analysed.options
    rows: dict[str, list[Row]] = {name: [] for name in TABLES}
    rows["games"].append((
        digest, file, game.index, game.span.line if game.span else None, game.tag("Event"),
        game.tag("Site"), game.tag("Date"),
        _rules(analysed), options.target if options else None,
        len(game.seats) or None, game.tag("Result"),
        replayed.winner if replayed else None, replayed.decided if replayed else None,
        len(game.deals), analysed.errors, analysed.warnings, analysed.disputes,
        int(game.broken)))
    rows["tags"] = [(n, tag.name, tag.value) for n, tag in enumerate(game.tags, start=1)]
    seats = game.seats
    rows["seats"] = [(seat.letter, side_of(seat, seats), game.tag(seat.tag_name))
                     for seat in seats]
    rows["diagnostics"] = [
        (n, d.code, d.severity.value, d.message, d.line, d.column, d.deal, d.trick)
        for n, d in enumerate(analysed.diagnostics, start=1)]
    if replayed is not None:
        _deal_rows(game, analysed, seats, rows)
    return GameRows(digest, rows)


def _rules(analysed: Analysed) -> str | None:
    if analysed.replay is None:
        return analysed.game.tag("Rules")
    from ..referee.disputes import rules_name

    return rules_name(analysed.replay.options)


def _deal_rows(game: Game, analysed: Analysed, seats: tuple[Seat, ...],
               rows: dict[str, list[Row]]) -> None:
    assert analysed.replay is not None
    for position, (deal, result) in enumerate(
            zip(game.deals, analysed.replay.deals, strict=False), start=1):
        rows["deals"].append((position, deal.number, _letter(result.dealer),
                              _letter(result.elder), result.trump.letter if result.trump else None,
                              int(result.complete), result.ending, int(result.after_decision),
                              "results" if result.by_results else "cards", result.time))
        rows["turnups"].extend((position, n, *_card_parts(card))
                               for n, card in enumerate(result.turnups, start=1))
        rows["calls"].extend((position, n, call.seat.letter, call.kind.value)
                             for n, call in enumerate(deal.calls, start=1))
        for number, winner, plays in result.tricks:
            rows["tricks"].append((position, number, plays[0][0].letter if plays else None,
                                   winner.letter))
            rows["plays"].extend((position, number, n, seat.letter, *_card_parts(card))
                                 for n, (seat, card) in enumerate(plays, start=1))
        awards = [(p, 1, "") for p in result.points] + [(p, 0, "") for p in result.unscored]
        awards += [(p, 0, "provisional, if the deal ended now: ") for p in result.provisional]
        rows["awards"].extend(
            (position, n, point.item.value, point.side, _letter(point.seat), point.points,
             scored, why + point.reason)
            for n, (point, scored, why) in enumerate(awards, start=1))
        written: dict[str, int] = {}
        if deal.total is not None:
            for score in deal.total.scores:
                written.setdefault(side_of(score.seat, seats), score.points)
        pips = dict(result.pips)
        rows["totals"].extend((position, side, points, written.get(side), pips.get(side))
                              for side, points in result.scores_after)
