"""The director's outputs: the match sheets, the standings and the prize list as text, and
the same as data: the ``results.json`` exchange file (``docs/events.md`` describes it;
``events/results.schema.json`` is its schema).

Every name and file name a record wrote goes through :func:`~..visible.visible`, so no
control character of a record reaches a terminal.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..frozen import frozen
from ..visible import visible
from .assemble import Assembled, Counted, MatchResult, assemble
from .eventfile import Event
from .games import FolderRead
from .prizes import Award, prize_list
from .standings import Bracket, Table, bracket, chain_text, entrant_text, standings

RESULTS_FORMAT = "allfours-event-results"
RESULTS_VERSION = 1
SCHEMA = Path(__file__).with_name("results.schema.json")


@frozen
class EventReport:
    """Everything the event's commands show, computed once."""

    event: Event
    assembled: Assembled
    standings: tuple[Table, ...]
    prizes: tuple[Award, ...]
    bracket: Bracket | None = None  # the knock-out seeded from the standings, if asked for


def build_report(event: Event, read: FolderRead) -> EventReport:
    assembled = assemble(event, read)
    ranked = standings(event, assembled)
    return EventReport(event, assembled, ranked, prize_list(event, assembled),
                       bracket(event, ranked, assembled.matches))


def rule_text(event: Event) -> str:
    if event.match_rule == "race":
        return f"race to {event.target}"
    if event.match_rule == "best_of":
        return f"best of {event.target} a table"
    return f"{event.games} games a table"


def _scoring_text(event: Event) -> str:
    parts = [f"game {event.game_value}"]
    if event.hang_jack_value:
        parts.append(f"Hang Jack {event.hang_jack_value}")
    return "bullseye points: " + ", ".join(parts)


def _heading(event: Event) -> list[str]:
    lines = [visible(event.name)]
    details = [visible(x) for x in (event.venue, ", ".join(event.dates)) if x]
    rules = event.house.name if event.house is not None else event.rules
    details.append(f"rules {visible(rules or '?')}")
    lines.append("  " + " · ".join(details))
    lines.append(f"  {rule_text(event)}; {_scoring_text(event)}")
    return lines


# --- the sheet ----------------------------------------------------------------------------


def _running(match: MatchResult) -> dict[tuple[str, int], tuple[int, int]]:
    """The team totals after each counted game, the games taken in turns (every table's
    first game, then every second, …), as the race counts them."""
    totals = [0, 0]
    after: dict[tuple[str, int], tuple[int, int]] = {}
    longest = max((len(t.games) for t in match.tables), default=0)
    for position in range(longest):
        for table in match.tables:
            if position < len(table.games) and table.games[position].counts:
                game = table.games[position]
                totals[0] += game.home_points
                totals[1] += game.away_points
                after[(game.game.file, game.game.index)] = (totals[0], totals[1])
    return after


def _game_line(number: int, game: Counted, match: MatchResult,
               running: dict[tuple[str, int], tuple[int, int]]) -> str:
    scores = dict(game.game.scores)
    home, away = scores.get(game.home_side, 0), scores.get(
        "EW" if game.home_side == "NS" else "NS", 0)
    if game.winner_home is None:
        won = "no winner"
    else:
        won = f"won by {visible(match.home if game.winner_home else match.away)}"
    parts = [f"    game {number}  {home}-{away}  {won}",
             f"bullseyes {game.home_points}-{game.away_points}",
             f"HJ {game.home_hang_jacks}-{game.away_hang_jacks}"]
    total = running.get((game.game.file, game.game.index))
    if total is not None:
        parts.append(f"running {total[0]}-{total[1]}")
    extras = []
    if game.forfeit:
        extras.append(f"forfeit: {game.forfeit}")
    if game.game.disputes:
        extras.append(f"{game.game.disputes} disputed")
    if game.game.rulings:
        extras.append("director's ruling in deal "
                      + ", ".join(map(str, game.game.rulings)))
    if not game.counts:
        extras.append(f"not counted: {game.why_not}")
    line = "  ".join(parts) + f"  [{visible(game.game.where)}]"
    return line + ("  " + "; ".join(extras) if extras else "")


def match_sheet(event: Event, match: MatchResult) -> list[str]:
    home, away = visible(match.home), visible(match.away)
    lines = [f"Round {visible(match.round)}: {home} v {away}"
             + (f" ({visible(match.name)})" if match.name else "")]
    running = _running(match)
    for table in match.tables:
        first = table.games[0] if table.games else None
        pairs = (f"{' & '.join(map(visible, first.pair(True)))} v "
                 f"{' & '.join(map(visible, first.pair(False)))}") if first else ""
        lines.append(f"  table {table.number}  {pairs}")
        lines.extend(_game_line(n, g, match, running) for n, g in enumerate(table.games, 1))
        lines.append(f"    table total: bullseyes {table.total(True)}-{table.total(False)}, "
                     f"HJ {table.total(True, hang_jacks=True)}-"
                     f"{table.total(False, hang_jacks=True)}")
    if event.half_time:
        h = match.half(event.half_time)
        lines.append(f"  half time (after {event.half_time} games a table): {home} {h[0]} / "
                     f"{away} {h[1]}, HJ {h[2]}/{h[3]}")
    if match.missing:
        lines.append(f"  not reported: table{'s' if len(match.missing) > 1 else ''} "
                     + ", ".join(map(str, match.missing)))
    for late in match.lateness:
        other = match.away if late.team == match.home else match.home
        lines.append(f"  forfeit: {visible(late.text(other))}")
    outcome = ("drawn" if match.finished and match.winner is None else
               f"{visible(match.winner)} wins" if match.finished and match.winner else
               "not over")
    if match.ended_at:
        outcome += f" (the race ended at {match.ended_at})"
    lines.append(f"  result: {home} {match.home_points}, {away} {match.away_points}; "
                 f"Hang Jacks {match.home_hang_jacks}/{match.away_hang_jacks}; {outcome}")
    return lines


def sheet_text(report: EventReport) -> str:
    lines = _heading(report.event)
    for match in report.assembled.matches:
        lines.append("")
        lines.extend(match_sheet(report.event, match))
    for round_name, team in report.assembled.byes:
        lines.append("")
        lines.append(f"Round {visible(round_name)}: {visible(team)} has a bye")
    if report.assembled.unplaced:
        lines.append("")
        lines.append("Games no match could take (see 'allfours event check'):")
        lines.extend(f"  {visible(g.where)}" for g in report.assembled.unplaced)
    return "\n".join(lines) + "\n"


# --- standings and prizes -----------------------------------------------------------------

_COLUMNS = ("P", "W", "D", "L", "Bye", "BF", "BA", "HJ", "HJA")


def standings_text(report: EventReport) -> str:
    lines = _heading(report.event)
    lines.append(f"  ranked by: {chain_text(report.event.tiebreaks)}")
    width = max((len(visible(r.team)) for t in report.standings for r in t.rows), default=4)
    for table in report.standings:
        lines.append("")
        lines.append(table.title)
        lines.append(f"  {'#':>2}  {'team':<{width}}  " + " ".join(f"{c:>4}" for c in _COLUMNS)
                     + "  decided by")
        for place, row in enumerate(table.rows, 1):
            figures = (row.played, row.wins, row.draws, row.losses, row.byes,
                       row.bullseyes_for, row.bullseyes_against, row.hang_jacks,
                       row.hang_jacks_against)
            lines.append(f"  {place:>2}  {visible(row.team):<{width}}  "
                         + " ".join(f"{f:>4}" for f in figures)
                         + (f"  {row.decided_by}" if row.decided_by else ""))
    if report.bracket is not None:
        lines.append("")
        lines.extend(bracket_lines(report.bracket))
    return "\n".join(lines) + "\n"


def bracket_lines(seeded: Bracket) -> list[str]:
    """The knock-out's first round: "1 Bronx v 8 Newark", a missing seed a bye."""
    lines = [f"Knock-out, seeded from {seeded.source} ({len(seeded.pairs) * 2} teams)"]
    for (seed, team), (other_seed, other) in seeded.pairs:
        if team is None:
            lines.append(f"  {seed} v {other_seed}: no team holds either seed")
        elif other is None:
            lines.append(f"  {seed} {visible(team)}: a bye (no seed {other_seed})")
        else:
            lines.append(f"  {seed} {visible(team or '?')} v {other_seed} {visible(other)}")
    for name, ties in seeded.rounds if any(n for n, _ in seeded.rounds) else ():
        lines.append(f"  {visible(name) if name else 'a round the event file does not name'}")
        for tie in ties:
            one, two = (visible(entrant_text(e)) for e in tie.entrants)
            lines.append(f"    {one} v {two}: {visible(tie.outcome)}")
    champion = seeded.champion
    if champion is not None and champion[1] is not None:
        lines.append(f"  winner: {visible(champion[1])}")
    return lines


def prizes_text(report: EventReport) -> str:
    lines = _heading(report.event)
    lines.append("")
    if not report.prizes:
        lines.append("The event file names no prizes ([[prize]] sections).")
    for award in report.prizes:
        lines.extend(_award_lines(award))
    return "\n".join(lines) + "\n"


def _award_lines(award: Award) -> Iterator[str]:
    name = visible(award.prize.name)
    figure = f" ({award.figure})" if award.figure is not None and award.winner else ""
    if award.undecidable:
        yield f"{name}: undecidable from these records: {award.undecidable}"
    elif award.winner is None:
        yield f"{name}: not awarded ({award.note})"
    else:
        yield f"{name}{figure}: {visible(award.winner)}" + (
            f" ({award.note})" if award.note else "")
    for e in award.evidence:
        where = [f"round {visible(e.round)}", visible(e.match), f"table {e.table}",
                 f"{' & '.join(map(visible, e.pair))} ({visible(e.team)})"]
        if e.game:
            where.append(f"game {visible(e.game)}")
        if e.deal is not None:
            where.append(f"deal {e.deal}")
        if e.time is not None:
            where.append(f"at {e.time}")
        yield "    " + ", ".join(where)


# --- results.json -------------------------------------------------------------------------


def _game_json(number: int, game: Counted) -> dict[str, object]:
    return {"game": number, "file": game.game.file, "index": game.game.index,
            "home_pair": list(game.pair(True)), "away_pair": list(game.pair(False)),
            "home_side": game.home_side,
            "scores": dict(game.game.scores), "winner": (
                None if game.winner_home is None else "home" if game.winner_home else "away"),
            "bullseyes": [game.home_points, game.away_points],
            "hang_jacks": [game.home_hang_jacks, game.away_hang_jacks],
            "forfeit": game.forfeit, "disputes": game.game.disputes,
            "rulings": list(game.game.rulings), "counts": game.counts,
            "not_counted": game.why_not}


def match_json(event: Event, match: MatchResult) -> dict[str, object]:
    data: dict[str, object] = {
        "round": match.round, "home": match.home, "away": match.away, "name": match.name,
        "tables": [{"table": t.number, "files": list(t.files),
                    "games": [_game_json(n, g) for n, g in enumerate(t.games, 1)],
                    "bullseyes": [t.total(True), t.total(False)],
                    "hang_jacks": [t.total(True, hang_jacks=True),
                                   t.total(False, hang_jacks=True)]}
                   for t in match.tables],
        "not_reported": list(match.missing),
        "bullseyes": [match.home_points, match.away_points],
        "hang_jacks": [match.home_hang_jacks, match.away_hang_jacks],
        "winner": match.winner, "finished": match.finished, "race_ended_at": match.ended_at,
        "half_time": None, "lateness": [x.as_json() for x in match.lateness]}
    if event.half_time:
        h = match.half(event.half_time)
        data["half_time"] = {"after_games": event.half_time, "bullseyes": [h[0], h[1]],
                             "hang_jacks": [h[2], h[3]]}
    return data


def event_json(event: Event) -> dict[str, object]:
    return {"name": event.name, "venue": event.venue, "dates": list(event.dates),
            "rules": event.house.name if event.house is not None else event.rules,
            "scoring": {"game": event.game_value, "hang_jack": event.hang_jack_value},
            "match_rule": {"rule": event.match_rule, "target": event.target,
                           "games": event.games},
            "tiebreaks": list(event.tiebreaks),
            "teams": [{"name": t.name, "division": t.division, "players": list(t.players),
                       "substitutes": list(t.substitutes),
                       "pairs": [list(p) for p in t.pairs]} for t in event.teams]}


def sheet_json(report: EventReport) -> dict[str, object]:
    return {"matches": [match_json(report.event, m) for m in report.assembled.matches],
            "byes": [{"round": r, "team": t} for r, t in report.assembled.byes],
            "unplaced": [g.where for g in report.assembled.unplaced]}


def standings_json(report: EventReport) -> list[dict[str, object]]:
    return [{"title": t.title, "rows": [r.as_json() for r in t.rows]}
            for t in report.standings]


def prizes_json(report: EventReport) -> list[dict[str, object]]:
    return [award.as_json() for award in report.prizes]


def results_json(report: EventReport) -> dict[str, object]:
    """The whole ``results.json``: what every scorer of an event can exchange."""
    return {"format": RESULTS_FORMAT, "version": RESULTS_VERSION,
            "event": event_json(report.event), **sheet_json(report),
            "standings": standings_json(report),
            "knockout": report.bracket.as_json() if report.bracket is not None else None,
            "prizes": prizes_json(report),
            "diagnostics": [{"code": d.code, "severity": d.severity.value,
                             "message": d.message, "file": d.file, "line": d.line,
                             "game": d.game} for d in report.assembled.diagnostics]}


# --- ratings --------------------------------------------------------------------------------


def ratings_text(report: EventReport) -> str:
    """Every player's and partnership's openskill rating, best ordinal first."""
    from .ratings import rate

    rated = rate(report.event, report.assembled)
    lines = _heading(report.event)
    lines.append(f"  openskill (Plackett-Luce) over {rated.games} games, in the order played; "
                 "ordinal = mean - 3 x uncertainty")
    for title, rows in (("Players", rated.players), ("Partnerships", rated.pairs)):
        width = max((len(visible(r.name)) for r in rows), default=4)
        team_width = max((len(visible(r.team)) for r in rows), default=4)
        lines.append("")
        lines.append(title)
        lines.append(f"  {'#':>3}  {'name':<{width}}  {'team':<{team_width}}  games  won"
                     "    mean  uncert.  ordinal")
        for place, row in enumerate(rows, 1):
            lines.append(f"  {place:>3}  {visible(row.name):<{width}}  "
                         f"{visible(row.team):<{team_width}}  {row.games:>5}  {row.wins:>3}  "
                         f"{row.mean:>6.2f}  {row.uncertainty:>7.2f}  {row.ordinal:>7.2f}")
    return "\n".join(lines) + "\n"


def ratings_json(report: EventReport) -> dict[str, object]:
    from .ratings import rate

    return rate(report.event, report.assembled).as_json()
