"""An event file's rounds served: one game file per scheduled table, made when missing.

``allfours serve EVENT.toml --round R`` serves every table of round R's matches
(``--round`` repeated, or ``--all-rounds``: several rounds at once).  Each table scores
into ``GAMES/roundR-HOME-AWAY-tN.afn`` (the folder of the event's games, named as the
samples name theirs); a file that does not exist yet is written with the
game's header, as the recorder writes a new game's (:func:`..recording.opening.new_tags`
and the session's text): the event's name, venue and rules, today's date, the table's
place (``[Round]``, ``[Table]``, ``[HomeTeam]``, ``[AwayTeam]``, as ``allfours event``
reads it) and the seats: the home pair North–South, the away pair East–West.  A pair is
the round's seating for the table, else the team's fixed pairs in order, else its
players two by two in the order the event file lists them.  A file that exists is
served as it is (the director may have written its seats by hand).

No rule of All Fours here: the rules are named, and the header is judged when the table
is opened, as any game file is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..events.eventfile import Event, Round, ScheduledMatch, Team
from ..reading.records import Tag
from ..recording.opening import new_tags, today
from ..recording.session import Session
from ..referee.house import club_name
from ..safe_write import ChangedOnDisk, replace_file

__all__ = ["EventRefused", "EventTable", "event_report", "event_tables", "round_of",
           "rounds_to_serve", "write_missing"]


class EventRefused(Exception):
    """The event's round cannot be served (no such round, no pair for a table …)."""


@dataclass(frozen=True)
class EventTable:
    """One scheduled table: its name on the page, its game file, a new game's header,
    and its place (the round's name, the match as ``HOME v AWAY``) for the director."""

    name: str
    path: Path
    tags: tuple[Tag, ...]
    round: str = ""
    match: str = ""


def round_of(event: Event, name: str | None) -> Round:
    """The round named ``name``; without a name, the event's only round."""
    names = [r.name for r in event.rounds]
    if name is None:
        if len(event.rounds) == 1:
            return event.rounds[0]
        raise EventRefused("the event has " + (f"{len(names)} rounds: name the ones to "
                                               "serve: --round " + "|".join(names) +
                                               " (repeated for several), or --all-rounds"
                                               if names else "no round scheduled"))
    for scheduled in event.rounds:
        if scheduled.name == name:
            return scheduled
    raise EventRefused(f"no round {name!r} in the event (its rounds: "
                       f"{', '.join(names) or 'none'})")


def rounds_to_serve(event: Event, names: list[str], *, every: bool = False) -> list[Round]:
    """The rounds named (each once, in the order named), every round of the event
    (``every``), or without either the event's only round."""
    if every:
        if names:
            raise EventRefused("--all-rounds serves every round: name none with --round")
        if not event.rounds:
            raise EventRefused("the event has no round scheduled")
        return list(event.rounds)
    if not names:
        return [round_of(event, None)]
    return [round_of(event, name) for name in dict.fromkeys(names)]


def event_tables(event: Event, folder: Path, round_name: str | None) -> list[EventTable]:
    """Every table of the round's matches, in the event file's order."""
    scheduled = round_of(event, round_name)
    teams = {team.name: team for team in event.teams}
    if not scheduled.matches:
        raise EventRefused(f"round {scheduled.name} schedules no match")
    tables = []
    for match in scheduled.matches:
        for number in _table_numbers(match):
            home = _pair(match, teams[match.home], number, home=True)
            away = _pair(match, teams[match.away], number, home=False)
            tags = _header(event, match, number, home, away)
            file = f"round{_slug(match.round)}-{_slug(match.home)}-{_slug(match.away)}" \
                   f"-t{number}.afn"
            name = f"round {match.round} {match.home} v {match.away} table {number}"
            tables.append(EventTable(name, folder / file, tags, match.round,
                                     f"{match.home} v {match.away}"))
    return tables


def write_missing(tables: list[EventTable]) -> list[Path]:
    """Write each table's file that does not exist yet (its header, written whole);
    the files written."""
    written = []
    for table in tables:
        if table.path.exists():
            continue
        table.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            replace_file(table.path, Session(table.tags).text().encode("utf-8"),
                         create_only=True, notice=None)
        except ChangedOnDisk:  # made meanwhile by someone else: theirs is served
            continue
        written.append(table.path)
    return written


def _table_numbers(match: ScheduledMatch) -> list[int]:
    if match.tables is not None:
        return list(range(1, match.tables + 1))
    if match.seating:
        return sorted(table for table, _, _ in match.seating)
    raise EventRefused(f"round {match.round}: {match.home} v {match.away} does not say how "
                       "many tables it has: give the match 'tables = N' or a seating")


def _pair(match: ScheduledMatch, team: Team, number: int, *, home: bool) -> tuple[str, str]:
    """The team's pair at table ``number``: the seating's, the fixed pairs', or the
    players' two by two."""
    for table, home_pair, away_pair in match.seating:
        chosen = home_pair if home else away_pair
        if table == number and len(chosen) == 2:
            return chosen[0], chosen[1]
    if team.pairs:
        if number <= len(team.pairs):
            return team.pairs[number - 1]
    elif 2 * number <= len(team.players):
        return team.players[2 * number - 2], team.players[2 * number - 1]
    raise EventRefused(f"round {match.round}, table {number}: {team.name} has no pair for "
                       "it (its pairs or players run out): give the round's seating")


def _header(event: Event, match: ScheduledMatch, number: int, home: tuple[str, str],
            away: tuple[str, str]) -> tuple[Tag, ...]:
    rules = club_name(event.house) if event.house is not None else event.rules
    if rules is None:
        raise EventRefused("the event file names no rules ([event] rules): a table's game "
                           "needs them")
    players = {"North": home[0], "East": away[0], "South": home[1], "West": away[1]}
    tags = new_tags(event=event.name, site=event.venue or "", date=today(), rules=rules,
                    players=players)
    place = (Tag(name="Round", value=match.round), Tag(name="Table", value=str(number)),
             Tag(name="HomeTeam", value=match.home), Tag(name="AwayTeam", value=match.away))
    after_rules = next(i for i, tag in enumerate(tags) if tag.name == "Rules") + 1
    return (*tags[:after_rules], *place, *tags[after_rules:])


def _slug(text: str) -> str:
    """A name as a file name's part: lower case, runs of other characters one dash."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def event_report(event: Event, folder: Path, round_names: tuple[str, ...]) -> dict[str, Any]:
    """The live match sheets of the rounds served and the standings, as ``allfours
    event sheet`` and ``standings`` print them, from the games folder as it is now (the
    event layer's figures: nothing counted here)."""
    from ..events.games import read_folder
    from ..events.report import build_report, match_sheet, standings_text

    report = build_report(event, read_folder(folder, event.given_rules, shown_from=folder))
    rounds = [{"round": name,
               "sheets": "\n\n".join("\n".join(match_sheet(event, match))
                                     for match in report.assembled.matches
                                     if match.round == name)}
              for name in round_names]
    return {"rounds": rounds, "standings": standings_text(report)}
