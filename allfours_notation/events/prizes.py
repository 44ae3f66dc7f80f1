"""The prize list: each prize of the event file's catalogue with its winner and the
evidence (round, table, pair, game, deal), or why these records cannot decide it.

Prizes are read from every game placed at a table whose deals passed the referee, counted
or not by the match rule (a prize list covers every game played).  Ties go by time, then
table.  "First" is first in the earliest round: among candidates at one table, the table's
game and deal order; across tables, the clock times of the deals (``deal 3 dealer N at
20:41``), the lower table first at the same time.  A time earlier than the one before it
at the same table is taken to be after midnight.  Where some candidates across tables have
no time, the prize is "undecidable from these records: no clock times", with the
candidates shown.  A prize for the most of something (bullseyes, Hang Jacks, straight
games) goes to the pair at the lowest table number on a tie; a team prize tied is shared.
The highest count for Game is undecidable while a deal recorded by its results alone
without a count for Game (``count N 31 S 18``) could hide a higher one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ..frozen import frozen
from .assemble import Assembled, Counted, MatchResult, TableResult
from .eventfile import Event, Prize
from .games import DealFacts

_SUITS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


@frozen
class Evidence:
    """Where a prize was won: the match's round and teams, the table, the pair (names
    and team), the game (file:index) and the deal (None for a prize over many games)."""

    round: str
    match: str
    table: int
    team: str
    pair: tuple[str, ...]
    game: str | None
    deal: int | None
    line: int | None
    time: str | None = None  # the clock time the deal began, where recorded

    def as_json(self) -> dict[str, object]:
        return {"round": self.round, "match": self.match, "table": self.table,
                "team": self.team, "pair": list(self.pair), "game": self.game,
                "deal": self.deal, "line": self.line, "time": self.time}


@frozen
class Award:
    """One prize decided (``winner`` names a pair or a team, ``figure`` its count) or
    not (``undecidable`` says what is missing; ``candidates`` what the records show)."""

    prize: Prize
    winner: str | None
    figure: int | None
    evidence: tuple[Evidence, ...]
    undecidable: str | None = None
    note: str | None = None  # how a tie was settled

    def as_json(self) -> dict[str, object]:
        return {"name": self.prize.name, "kind": self.prize.kind, "winner": self.winner,
                "figure": self.figure, "evidence": [e.as_json() for e in self.evidence],
                "undecidable": self.undecidable, "note": self.note}


@frozen
class _Seen:
    """One candidate deal: its place and the game position at its table."""

    match: MatchResult
    table: TableResult
    position: int  # the game's place at its table, from 0
    counted: Counted
    deal: int
    line: int
    side: str  # the side that did it
    figure: int = 0
    time: str | None = None  # the deal's clock time as recorded
    clock: tuple[int, int] | None = None  # (days after the first, seconds): comparable


def _games(assembled: Assembled) -> list[tuple[MatchResult, TableResult, int, Counted]]:
    out = []
    for match in assembled.matches:
        for table in match.tables:
            for position, game in enumerate(table.games):
                if not game.game.errors and game.game.refereed:
                    out.append((match, table, position, game))
    return out


def prize_list(event: Event, assembled: Assembled) -> tuple[Award, ...]:
    rounds = {r.name: index for index, r in enumerate(event.rounds)}
    return tuple(_award(prize, assembled, rounds) for prize in event.prizes)


_Clocks = dict[tuple[int, int, int], tuple[int, int]]


def _clocks(games: list[tuple[MatchResult, TableResult, int, Counted]]) -> _Clocks:
    """Each timed deal's place in time, by (table, game position, deal number): (days after
    the first, seconds into the day).  Walking a table's games and deals in order, a time
    earlier than the one before it is on the next day (a club night goes past midnight)."""
    found: _Clocks = {}
    last: dict[int, tuple[int, int]] = {}
    for _, table, position, game in games:
        for deal in game.game.deals:
            seconds = _seconds(deal.time)
            if seconds is None:
                continue
            day, before = last.get(id(table), (0, seconds))
            day += seconds < before
            last[id(table)] = (day, seconds)
            found[(id(table), position, deal.number)] = (day, seconds)
    return found


def _seconds(time: str | None) -> int | None:
    """``20:41`` (or ``20:41:07``) as seconds into the day; None without a time."""
    if time is None:
        return None
    parts = [int(part) for part in time.split(":")]
    return parts[0] * 3600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0)


def _seen(match: MatchResult, table: TableResult, position: int, game: Counted,
          deal: DealFacts, side: str, clocks: _Clocks, figure: int = 0) -> _Seen:
    return _Seen(match, table, position, game, deal.number, deal.line, side, figure,
                 deal.time, clocks.get((id(table), position, deal.number)))


def _award(prize: Prize, assembled: Assembled, rounds: dict[str, int]) -> Award:
    games = _games(assembled)
    clocks = _clocks(games)
    if prize.kind == "first_hang_jack":
        seen = [_seen(m, t, p, g, d, h.side, clocks) for m, t, p, g in games
                for d in g.game.deals for h in d.hang_jacks if h.suit == (
                    prize.suit.value if prize.suit else "")]
        return _first(prize, seen, rounds, "Hang Jack")
    if prize.kind == "first_hang_with":
        seen = [_seen(m, t, p, g, d, h.side, clocks) for m, t, p, g in games
                for d in g.game.deals for h in d.hang_jacks if h.card in prize.cards]
        return _first(prize, seen, rounds, "Hang Jack with these cards")
    if prize.kind == "named_kick":
        seen = [_seen(m, t, p, g, d, d.dealer_side, clocks) for m, t, p, g in games
                for d in g.game.deals if prize.card in d.turnups and d.dealer_side]
        return _first(prize, seen, rounds, "kick")
    if prize.kind == "highest_game_count":
        return _highest_count(prize, games, rounds, clocks)
    if prize.kind == "most_straight_games":
        return _most(prize, _straights(games), "pair")
    item = "bullseyes" if prize.kind == "most_bullseyes" else "hang_jacks"
    return _most(prize, _tallies(games, item, prize.by), prize.by)


def _evidence(seen: _Seen) -> Evidence:
    home = seen.side == seen.counted.home_side
    return Evidence(seen.match.round, f"{seen.match.home} v {seen.match.away}",
                    seen.table.number, seen.match.home if home else seen.match.away,
                    seen.counted.pair(home), seen.counted.game.where, seen.deal, seen.line,
                    seen.time)


def _pair_name(evidence: Evidence) -> str:
    return f"{' & '.join(evidence.pair)} ({evidence.team})"


def _first(prize: Prize, seen: list[_Seen], rounds: dict[str, int], what: str) -> Award:
    if not seen:
        return Award(prize, None, None, (), None, f"no {what} of this kind was recorded")
    earliest = min(rounds.get(s.match.round, len(rounds)) for s in seen)
    first_round = [s for s in seen if rounds.get(s.match.round, len(rounds)) == earliest]
    places = {(s.match.round, s.match.home, s.match.away, s.table.number)
              for s in first_round}
    if len(places) == 1:  # one table: its games and deals are in order
        winner = min(first_round, key=lambda s: (s.position, s.deal))
        evidence = _evidence(winner)
        return Award(prize, _pair_name(evidence), None, (evidence,))
    untimed = sum(1 for s in first_round if s.clock is None)
    if untimed:
        return Award(prize, None, None, tuple(_evidence(s) for s in first_round),
                     f"no clock times: {len(first_round)} candidates at {len(places)} tables "
                     f"of round {first_round[0].match.round} cannot be put in order"
                     + (f" ({untimed} have none)" if untimed < len(first_round) else ""))
    ordered = sorted(first_round, key=lambda s: (s.clock, s.table.number, s.position, s.deal))
    winner = ordered[0]
    evidence = _evidence(winner)
    tied = sorted({s.table.number for s in ordered[1:]
                   if s.clock == winner.clock and s.table.number != winner.table.number})
    note = (f"at the same time as table {', '.join(map(str, tied))}: the lower table wins"
            if tied else None)
    return Award(prize, _pair_name(evidence), None, (evidence,), None, note)


def _highest_count(prize: Prize, games: list[tuple[MatchResult, TableResult, int, Counted]],
                   rounds: dict[str, int], clocks: _Clocks) -> Award:
    seen = [_seen(m, t, p, g, d, d.game_count[0], clocks, d.game_count[1])
            for m, t, p, g in games for d in g.game.deals if d.game_count is not None]
    unknown = sum(1 for _, _, _, g in games for d in g.game.deals
                  if d.by_results and not d.counted)
    if unknown:
        best = max((s.figure for s in seen), default=None)
        return Award(prize, None, best, (), f"{unknown} deal{'s' if unknown > 1 else ''} "
                     "recorded by results alone give no count for Game"
                     + (f" (the highest count recorded is {best})" if best else ""))
    if not seen:
        return Award(prize, None, None, (), None, "no count for Game was recorded")
    best = max(s.figure for s in seen)
    award = _first(prize, [s for s in seen if s.figure == best], rounds, "count")
    return Award(prize, award.winner, best, award.evidence, award.undecidable, award.note)


@frozen
class _Tally:
    """One pair's or team's figure for a prize of the most of something."""

    key: str  # "pair names (team)" or the team's name
    figure: int
    first: Evidence  # where the pair first played (its lowest table in the first round)


def _tallies(games: list[tuple[MatchResult, TableResult, int, Counted]], item: str,
             by: str) -> list[_Tally]:
    figures: dict[str, int] = defaultdict(int)
    first: dict[str, Evidence] = {}
    for match, table, _, game in games:
        for home in (True, False):
            side = game.home_side if home else ("EW" if game.home_side == "NS" else "NS")
            team = match.home if home else match.away
            evidence = Evidence(match.round, f"{match.home} v {match.away}", table.number,
                                team, game.pair(home), None, None, None)
            key = team if by == "team" else _pair_name(evidence)
            first.setdefault(key, evidence)
            if item == "bullseyes":
                figures[key] += int(game.counts and game.winner_side == side)
            else:
                figures[key] += game.home_hang_jacks if home else game.away_hang_jacks
    return [_Tally(key, figures[key], first[key]) for key in first]


def _straights(games: list[tuple[MatchResult, TableResult, int, Counted]]) -> list[_Tally]:
    """Each pair's longest run of games won in a row at its table (a run ends at a game
    lost, at a game unfinished, and at the end of the match)."""
    longest: dict[str, int] = defaultdict(int)
    first: dict[str, Evidence] = {}
    runs: dict[tuple[str, str, str, int, str], int] = defaultdict(int)
    for match, table, _, game in games:
        for home in (True, False):
            team = match.home if home else match.away
            evidence = Evidence(match.round, f"{match.home} v {match.away}", table.number,
                                team, game.pair(home), None, None, None)
            key = _pair_name(evidence)
            first.setdefault(key, evidence)
            run = (match.round, match.home, match.away, table.number, key)
            runs[run] = runs[run] + 1 if game.winner_home is home else 0
            longest[key] = max(longest[key], runs[run])
    return [_Tally(key, longest[key], first[key]) for key in first]


def _most(prize: Prize, tallies: Sequence[_Tally], by: str) -> Award:
    best = max((t.figure for t in tallies), default=0)
    if best == 0:
        return Award(prize, None, None, (), None, "nobody has one yet")
    top = sorted((t for t in tallies if t.figure == best),
                 key=lambda t: (t.first.table, t.key))
    if by == "team":
        note = "shared" if len(top) > 1 else None
        return Award(prize, " and ".join(t.key for t in top), best,
                     tuple(t.first for t in top), None, note)
    note = (f"tied with {', '.join(t.key for t in top[1:])}: the lower table wins"
            if len(top) > 1 else None)
    return Award(prize, top[0].key, best, (top[0].first,), None, note)
