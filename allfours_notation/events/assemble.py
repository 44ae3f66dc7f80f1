"""The games of a folder placed in the event: each at its round, match and table, checked
against the event file, and counted under the match rule.

Every game is placed by its tags (``[Round]``, ``[Match]``, ``[Table]``, ``[HomeTeam]``,
``[AwayTeam]``) and its seats (the pairs' players).  What does not fit is a diagnostic
(AFN650-AFN669, at the game's first line) and the game is kept and shown, never dropped:
a game naming an unknown team, round or table is listed apart, two files for one table
are reported with both files, and a table that has not reported is named (the director's
"who has not reported").  A game counts toward its match when the referee passed every
deal and it was finished; the match rule then says which games count:

* ``race``: the first team to ``target`` bullseye points wins.  Without clock times the
  games of a match are taken in turns, every table's first game, then every table's
  second, tables in number order; the race ends at the game that takes a team to the
  target, and later games do not count (unless ``count_after_end``).
* ``games``: each table plays ``games`` games; more are reported and do not count.
* ``best_of``: each table is a best of ``target`` games, over when a pair has won the
  majority; the match goes to the team with more tables, then more bullseye points.

A game's bullseye points are the event's scoring (``game`` for the game won, ``hang_jack``
for each Hang Jack of each side); a renege forfeits the game when the event says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from .eventfile import Event, ScheduledMatch, Team
from .games import SIDES, FolderRead, PlayedGame

NO_ROUND = "1"  # the round of every game when the event file has no schedule


@frozen
class Counted:
    """One game at its table: which side each team sat on, who won it (after a
    forfeit), its bullseye points per team, and whether it counts (``why_not``)."""

    game: PlayedGame
    home_side: str  # "NS" or "EW"
    winner_side: str | None
    forfeit: str | None  # "renege by EW in deal 4"
    home_points: int
    away_points: int
    home_hang_jacks: int
    away_hang_jacks: int
    why_not: str | None  # None: it counts

    @property
    def counts(self) -> bool:
        return self.why_not is None

    def pair(self, home: bool) -> tuple[str, ...]:
        side = self.home_side if home else _other(self.home_side)
        return tuple(sorted(self.game.pair(side)))

    @property
    def winner_home(self) -> bool | None:
        if self.winner_side is None:
            return None
        return self.winner_side == self.home_side


@frozen
class TableResult:
    """One table of a match: its number, the file(s) its games came from, its games."""

    number: int
    files: tuple[str, ...]
    games: tuple[Counted, ...]

    def total(self, home: bool, *, hang_jacks: bool = False,
              upto: int | None = None) -> int:
        """The table's counted bullseye points (or Hang Jacks) for one team, over its
        first ``upto`` games (all when None)."""
        chosen = [g for g in self.games[:upto] if g.counts]
        if hang_jacks:
            return sum(g.home_hang_jacks if home else g.away_hang_jacks for g in chosen)
        return sum(g.home_points if home else g.away_points for g in chosen)


@frozen
class Lateness:
    """A forfeit for lateness applied to a match: the late team (or one table of it), the
    director's reason, and its cost by the event's rule: bullseye points credited to the
    other team's total (the race starts from them), or the match itself."""

    team: str
    table: int | None
    reason: str | None
    bullseyes: int
    match: bool

    def text(self, other: str) -> str:
        who = self.team + (f" (table {self.table})" if self.table is not None else "")
        cost = ("forfeits the match" if self.match else
                f"forfeits {self.bullseyes} bullseye{'s' if self.bullseyes != 1 else ''} "
                f"to {other}")
        return f"{who} late: {cost}" + (f" ({self.reason})" if self.reason else "")

    def as_json(self) -> dict[str, object]:
        return {"team": self.team, "table": self.table, "reason": self.reason,
                "bullseyes": self.bullseyes, "match": self.match}


@frozen
class MatchResult:
    """One match: its tables, totals per team, winner and where a race ended."""

    round: str
    home: str
    away: str
    tables: tuple[TableResult, ...]
    missing: tuple[int, ...]  # tables scheduled that have not reported
    home_points: int
    away_points: int
    home_hang_jacks: int
    away_hang_jacks: int
    winner: str | None  # a team's name; None: drawn or not decided
    finished: bool
    ended_at: str | None  # "table 3, game 5": where a race reached its target
    name: str | None = None
    lateness: tuple[Lateness, ...] = ()  # forfeits for lateness, in the event file's order

    def half(self, upto: int) -> tuple[int, int, int, int]:
        """Bullseye points and Hang Jacks each team after ``upto`` games a table."""
        return (sum(t.total(True, upto=upto) for t in self.tables),
                sum(t.total(False, upto=upto) for t in self.tables),
                sum(t.total(True, hang_jacks=True, upto=upto) for t in self.tables),
                sum(t.total(False, hang_jacks=True, upto=upto) for t in self.tables))


@frozen
class Assembled:
    """The event's games placed: every match, the games no match could take, and every
    diagnostic about the games (the event file's own are in its :class:`EventFile`)."""

    matches: tuple[MatchResult, ...]
    unplaced: tuple[PlayedGame, ...]
    byes: tuple[tuple[str, str], ...]  # (round, team)
    diagnostics: tuple[Diagnostic, ...]


def _other(side: str) -> str:
    return "EW" if side == "NS" else "NS"


class _Found:
    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def game(self, code: str, game: PlayedGame, message: str, hint: str, *,
             severity: Severity = Severity.ERROR) -> None:
        self.diagnostics.append(Diagnostic(code, severity, message, game.file, game.line, 1,
                                           game=game.index, hint=hint))

    def at(self, code: str, file: str, line: int, message: str, hint: str, *,
           severity: Severity = Severity.WARNING) -> None:
        self.diagnostics.append(Diagnostic(code, severity, message, file, line, 1, hint=hint))


_Key = tuple[str, str, str]  # (round, home, away)


def assemble(event: Event, read: FolderRead) -> Assembled:
    """Place every game of ``read`` in ``event`` and count the matches."""
    found = _Found()
    found.diagnostics.extend(read.unreadable)
    scheduled = {(m.round, m.home, m.away): m for r in event.rounds for m in r.matches}
    placed: dict[_Key, dict[int, list[PlayedGame]]] = defaultdict(lambda: defaultdict(list))
    unplaced: list[PlayedGame] = []
    sides: dict[tuple[str, int], str] = {}
    for game in read.games:
        where = _place(event, scheduled, game, found)
        if where is None:
            unplaced.append(game)
            continue
        key, table, home_side = where
        placed[key][table].append(game)
        sides[(game.file, game.index)] = home_side
    keys = list(scheduled) + [k for k in placed if k not in scheduled]
    matches = [_match(event, key, scheduled.get(key), placed.get(key, {}), sides, found)
               for key in keys]
    for forfeit in event.forfeits:
        if event.late_forfeits is not None and not any(
                forfeit.team in key[1:] and forfeit.round in (None, key[0]) for key in keys):
            found.at("AFN663", event.file, forfeit.line, f"the forfeit of {forfeit.team}"
                     + (f" in round {forfeit.round}" if forfeit.round else "")
                     + " falls on no match", "check the forfeit's team and round against "
                     "the schedule or the games' tags")
    byes = tuple((r.name, team) for r in event.rounds for team in r.byes)
    return Assembled(tuple(matches), tuple(unplaced), byes, tuple(found.diagnostics))


def _place(event: Event, scheduled: dict[_Key, ScheduledMatch], game: PlayedGame,
           found: _Found) -> tuple[_Key, int, str] | None:
    """The game's match, table and the home team's side, or None (reported)."""
    home, away, table_text = game.tag("HomeTeam"), game.tag("AwayTeam"), game.tag("Table")
    missing = [name for name, value in (("HomeTeam", home), ("AwayTeam", away),
                                        ("Table", table_text)) if not value]
    if missing or home is None or away is None or table_text is None:
        found.game("AFN650", game, f"the game does not say its place in the event (no "
                   f"{', '.join(f'[{m}]' for m in missing)})",
                   'tag each game with [HomeTeam "..."], [AwayTeam "..."] and [Table "N"]')
        return None
    unknown = [team for team in (home, away) if event.team(team) is None]
    if unknown:
        names = ", ".join(map(repr, unknown))
        found.game("AFN651", game, f"no team of the event is called {names}",
                   f"the teams are: {', '.join(t.name for t in event.teams[:8])}")
        return None
    round_name = _round_of(event, scheduled, game, home, away, found)
    if round_name is None:
        return None
    if not table_text.isdigit() or int(table_text) < 1:
        found.game("AFN653", game, f"[Table \"{table_text}\"] is not a table number",
                   'number the tables from 1: [Table "3"]')
        return None
    table = int(table_text)
    match = scheduled.get((round_name, home, away))
    if match is not None and match.tables is not None and table > match.tables:
        found.game("AFN653", game, f"round {round_name}, {home} v {away} has "
                   f"{match.tables} tables, not a table {table}",
                   "check the [Table] tag against the schedule in the event file")
        return None
    if match is not None and match.name and game.tag("Match") not in (None, match.name):
        found.game("AFN652", game, f"[Match \"{game.tag('Match')}\"] is not the match the "
                   f"schedule names for {home} v {away} in round {round_name} "
                   f"(\"{match.name}\")", "correct the [Match] tag or leave it out")
        return None
    home_side = _home_side(event, game, home, away, found)
    if home_side is None:
        return None
    if match is not None:
        _seated_as_scheduled(match, table, game, home_side, found)
    _rules_differ(event, game, found)
    return (round_name, home, away), table, home_side


def _round_of(event: Event, scheduled: dict[_Key, ScheduledMatch], game: PlayedGame,
              home: str, away: str, found: _Found) -> str | None:
    written = game.tag("Round")
    if not event.rounds:
        return written or NO_ROUND
    meetings = [key[0] for key in scheduled if key[1:] == (home, away)]
    if written is None:
        if len(meetings) == 1:
            return meetings[0]
        found.game("AFN652", game, f"{home} v {away} is scheduled in "
                   f"{len(meetings)} rounds and the game names none",
                   'tag the game with its round: [Round "2"]')
        return None
    if written not in {r.name for r in event.rounds}:
        found.game("AFN652", game, f"the event has no round {written!r}",
                   f"the rounds are: {', '.join(r.name for r in event.rounds)}")
        return None
    if written not in meetings:
        found.game("AFN652", game, f"{home} v {away} is not scheduled in round {written}"
                   + (f" (it is in round {', '.join(meetings)})" if meetings else ""),
                   "check [Round], [HomeTeam] and [AwayTeam] against the schedule")
        return None
    return written


def _home_side(event: Event, game: PlayedGame, home: str, away: str,
               found: _Found) -> str | None:
    """The side ("NS"/"EW") the home team's pair sits on, the seats checked against the
    teams: each side one team's pair, a listed pair unless a substitute sits in it."""
    if len(game.seats) != 4:
        found.game("AFN654", game, "the game does not name its four players",
                   'name each seat with the pairs\' players: [North "..."] … [West "..."]')
        return None
    teams = {team.name: team for team in (event.team(home), event.team(away)) if team}
    by_side = {side: _team_of(game.pair(side), teams.values()) for side in SIDES}
    for side, team in by_side.items():
        if team is None:
            names = " and ".join(game.pair(side))
            found.game("AFN654", game, f"the {side} pair ({names}) is not a pair of "
                       f"{home} or of {away}", "seat each team's pair on one side; "
                       "a stand-in must be listed under the team's substitutes")
            return None
    if {by_side["NS"], by_side["EW"]} != {home, away}:
        found.game("AFN654", game, f"both pairs are of {by_side['NS']}",
                   "the home pair sits on one side, the away pair on the other")
        return None
    for side, team_name in by_side.items():
        seated = teams[team_name or ""]
        pair = game.pair(side)
        if seated.pairs and not set(pair) & set(seated.substitutes) and not any(
                set(pair) == set(listed) for listed in seated.pairs):
            found.game("AFN654", game, f"{' and '.join(pair)} are not one of {seated.name}'s "
                       "pairs", "seat a listed pair, or list the pair in the event file",
                       severity=Severity.WARNING)
    return "NS" if by_side["NS"] == home else "EW"


def _seated_as_scheduled(match: ScheduledMatch, table: int, game: PlayedGame,
                         home_side: str, found: _Found) -> None:
    """The pairs at ``table`` against the schedule's seating of it, if it has one (a
    stand-in for a scheduled player is a warning, another pair an error)."""
    scheduled = match.seated(table)
    if scheduled is None:
        return
    for pair, side in ((scheduled[0], home_side), (scheduled[1], _other(home_side))):
        seated = game.pair(side)
        if set(seated) == set(pair):
            continue
        stand_in = len(set(seated) & set(pair)) == 1
        found.game("AFN654", game, f"table {table} seats {' and '.join(seated)}; the "
                   f"schedule seats {' and '.join(pair)} there",
                   "a stand-in is allowed with the director's approval; otherwise correct "
                   "the seat tags or the seating", severity=Severity.WARNING if stand_in
                   else Severity.ERROR)


def _team_of(pair: tuple[str, ...], teams: Iterable[Team]) -> str | None:
    for team in teams:
        if len(pair) == 2 and all(name in team.members for name in pair):
            return team.name
    return None


def _rules_differ(event: Event, game: PlayedGame, found: _Found) -> None:
    named = (event.house.name if event.house is not None else event.rules) or ""
    if game.rules_tag and game.rules_tag.strip().lower() not in (
            named.lower(), f"club:{named.lower()}"):
        found.game("AFN661", game, f"the game names the rules {game.rules_tag!r}; the event "
                   f"plays {named!r}, and the game is refereed under the event's",
                   "correct the [Rules] tag or the event's rules", severity=Severity.WARNING)


def _match(event: Event, key: _Key, scheduled: ScheduledMatch | None,
           tables: dict[int, list[PlayedGame]], sides: dict[tuple[str, int], str],
           found: _Found) -> MatchResult:
    round_name, home, away = key
    results = [_table(event, number, games, sides, found)
               for number, games in sorted(tables.items())]
    expected = (scheduled.tables if scheduled is not None and scheduled.tables else
                max(tables, default=0))
    missing = tuple(n for n in range(1, expected + 1) if n not in tables)
    line = scheduled.line if scheduled is not None else 1
    if not tables:
        found.at("AFN656", event.file, line, f"round {round_name}, {home} v {away}: no table "
                 "has reported", "put the tables' game files in the games folder")
    elif missing:
        found.at("AFN656", event.file, line, f"round {round_name}, {home} v {away}: table"
                 f"{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                 "ha" + ("ve" if len(missing) > 1 else "s") + " not reported",
                 "each table's game file must be in the games folder")
    late = _lateness(event, key)
    credit = [sum(x.bullseyes for x in late if x.team == team) for team in (away, home)]
    results, ended_at = _apply_rule(event, results, found, credit)
    points = [sum(t.total(home_) for t in results) + credit[index]
              for index, home_ in enumerate((True, False))]
    hangs = [sum(t.total(home_, hang_jacks=True) for t in results) for home_ in (True, False)]
    winner, finished = _winner(event, results, points, home, away, ended_at, bool(missing)
                               or not tables)
    losers = {x.team for x in late if x.match}
    if len(losers) == 1:  # the late team forfeits the match, whatever was played
        winner, finished = (away if home in losers else home), True
    return MatchResult(round_name, home, away, tuple(results), missing, points[0], points[1],
                       hangs[0], hangs[1], winner, finished, ended_at,
                       scheduled.name if scheduled is not None else None, late)


def _lateness(event: Event, key: _Key) -> tuple[Lateness, ...]:
    """The event file's forfeits for lateness that fall on the match ``key``."""
    round_name, home, away = key
    return tuple(
        Lateness(f.team, f.table, f.reason,
                 event.late_forfeits if isinstance(event.late_forfeits, int) else 0,
                 event.late_forfeits == "match")
        for f in event.forfeits
        if f.team in (home, away) and f.round in (None, round_name)
        and event.late_forfeits is not None)


def _table(event: Event, number: int, games: list[PlayedGame],
           sides: dict[tuple[str, int], str], found: _Found) -> TableResult:
    files = tuple(dict.fromkeys(g.file for g in games))
    if len(files) > 1:
        first = games[0]
        for other in files[1:]:
            game = next(g for g in games if g.file == other)
            found.game("AFN655", game, f"two files for one table: {files[0]} and {other} "
                       f"both record table {number} of {first.tag('HomeTeam')} v "
                       f"{first.tag('AwayTeam')}; only {files[0]} counts",
                       "keep one file per table; remove or correct the other")
    counted = [_counted(event, game, sides[(game.file, game.index)],
                        None if game.file == files[0] else f"conflicts with {files[0]}", found)
               for game in games]
    return TableResult(number, files, tuple(counted))


def _counted(event: Event, game: PlayedGame, home_side: str, conflict: str | None,
             found: _Found) -> Counted:
    winner, forfeit = game.winner, None
    why_not = conflict
    if game.errors and why_not is None:
        first = game.errors[0]
        why_not = f"fails the referee ({first.code})"
        found.game("AFN657", game, f"the game does not pass the referee: {len(game.errors)} "
                   f"error{'s' if len(game.errors) > 1 else ''}, the first {first.code} at "
                   f"line {first.line}: it does not count",
                   f"run 'allfours check {game.file}' and correct the record")
    if event.renege_forfeits and game.reneges and why_not is None:
        deal, offender = game.reneges[0]
        winner, forfeit = _other(offender), f"renege by {offender} in deal {deal}"
        found.game("AFN659", game, f"a renege by {offender} in deal {deal} forfeits the game "
                   f"to {winner}", "the event's rule: [event.forfeits] renege = true",
                   severity=Severity.INFO)
    if winner is None and why_not is None:
        why_not = "unfinished"
        found.game("AFN658", game, "the game is not finished: it does not count",
                   "record the game to its end, or a director's ruling",
                   severity=Severity.WARNING)
    home_hj, away_hj = game.hang_jacks(home_side), game.hang_jacks(_other(home_side))
    return Counted(
        game, home_side, winner, forfeit,
        (event.game_value if winner == home_side else 0) + home_hj * event.hang_jack_value,
        (event.game_value if winner == _other(home_side) else 0)
        + away_hj * event.hang_jack_value,
        home_hj, away_hj, why_not)


def _stop(game: Counted, why: str) -> Counted:
    return game if not game.counts else Counted(
        game.game, game.home_side, game.winner_side, game.forfeit, game.home_points,
        game.away_points, game.home_hang_jacks, game.away_hang_jacks, why)


def _apply_rule(event: Event, tables: list[TableResult], found: _Found,
                credit: list[int]) -> tuple[list[TableResult], str | None]:
    """The tables with the games the match rule does not count marked; and where a
    race reached its target ("table 3, game 5")."""
    if event.match_rule == "games" and event.games is not None:
        out = []
        for table in tables:
            kept, seen = [], 0
            for game in table.games:
                seen += game.counts
                if game.counts and seen > event.games:
                    found.game("AFN660", game.game, f"table {table.number} has more than "
                               f"{event.games} games: this one does not count",
                               "the match rule: [match] games", severity=Severity.WARNING)
                    game = _stop(game, f"beyond {event.games} games")
                kept.append(game)
            out.append(TableResult(table.number, table.files, tuple(kept)))
        return out, None
    if event.match_rule == "best_of" and event.target is not None:
        need = _majority(event)
        out = []
        for table in tables:
            kept, wins = [], [0, 0]
            for game in table.games:
                if max(wins) >= need:
                    game = _stop(game, f"best of {event.target} already decided")
                elif game.counts and game.winner_home is not None:
                    wins[0 if game.winner_home else 1] += 1
                kept.append(game)
            out.append(TableResult(table.number, table.files, tuple(kept)))
        return out, None
    return _race(event, tables, credit)


def _race(event: Event, tables: list[TableResult],
          credit: list[int]) -> tuple[list[TableResult], str | None]:
    """The race, from the bullseyes ``credit``ed by forfeits for lateness."""
    target = event.target or 0
    games = {t.number: list(t.games) for t in tables}
    totals = list(credit)
    ended_at: str | None = None
    longest = max((len(g) for g in games.values()), default=0)
    for position in range(longest):  # every table's first game, then every second, …
        for number in sorted(games):
            if position >= len(games[number]):
                continue
            game = games[number][position]
            if ended_at is not None:
                if not event.count_after_end:
                    games[number][position] = _stop(game, "after the race was won")
                continue
            if game.counts:
                totals[0] += game.home_points
                totals[1] += game.away_points
                if max(totals) >= target:
                    ended_at = f"table {number}, game {position + 1}"
    return [TableResult(t.number, t.files, tuple(games[t.number])) for t in tables], ended_at


def _winner(event: Event, tables: list[TableResult], points: list[int], home: str,
            away: str, ended_at: str | None, incomplete: bool) -> tuple[str | None, bool]:
    """The match's winner (None: drawn or not decided) and whether it is over."""
    if event.match_rule == "race":
        if ended_at is None:
            return None, False
        if points[0] == points[1]:  # both reached the target in the same game, level
            return None, True
        return (home if points[0] > points[1] else away), True
    if event.match_rule == "best_of":
        need = _majority(event)
        won = [0, 0]
        for table in tables:
            wins = [sum(1 for g in table.games if g.counts and g.winner_home is side)
                    for side in (True, False)]
            for index in (0, 1):
                won[index] += wins[index] >= need
        finished = not incomplete and sum(won) == len(tables)
        if won[0] != won[1]:
            return (home if won[0] > won[1] else away), finished
    else:
        played = [sum(1 for g in t.games if g.counts) for t in tables]
        finished = not incomplete and all(n >= (event.games or 0) for n in played)
    if points[0] == points[1]:
        return None, finished
    return (home if points[0] > points[1] else away), finished


def _majority(event: Event) -> int:
    """``best_of``: the games a pair must win at its table."""
    return (event.target or 1) // 2 + 1


def table_over(event: Event, match: MatchResult, number: int) -> str | None:
    """Why table ``number`` of ``match`` plays no further game under the match rule (the
    race won, its games played, its best of decided), or None while it plays on: what
    ``allfours serve`` asks before it offers a table the next game."""
    if match.finished:
        return "the match is over" + (f": {match.winner} wins" if match.winner else
                                      ": drawn") + (f" ({match.ended_at})" if match.ended_at
                                                    else "")
    table = next((t for t in match.tables if t.number == number), None)
    if table is None:
        return None
    counted = [game for game in table.games if game.counts]
    if event.match_rule == "games" and event.games is not None and \
            len(counted) >= event.games:
        return f"table {number} has played its {event.games} games"
    if event.match_rule == "best_of":
        wins = [sum(1 for g in counted if g.winner_home is side) for side in (True, False)]
        if max(wins) >= _majority(event):
            return f"the best of {event.target} at table {number} is decided"
    return None
