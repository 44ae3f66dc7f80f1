"""Standings per division and overall, ranked by the event's tie-break chain.

Each team's row sums its matches (bullseye points and Hang Jacks for and against, matches
won, drawn and lost) and its byes.  A bye is credited ``[bye] bullseyes`` (default: the
race's target), ``[bye] hang_jacks`` or, by default, the floored average of the Hang Jacks
the team won in its other matches, and a win unless ``[bye] win = false``.  Only matches
that are over count a win, a draw or a loss; the bullseyes of a match still being played
count as they stand.

The chain (``[standings] tiebreaks``, default bullseyes for, bullseyes against (fewer
better), wins, Hang Jacks, Hang Jacks against (fewer better)) orders the rows; teams equal
on the whole chain are ordered by name, so the standings are a total order, and each row
says which specifier put it below the row above.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..frozen import frozen
from .assemble import Assembled, MatchResult
from .eventfile import TIEBREAKS, Event

BY_NAME = "name"  # the last resort: equal on the whole chain, by name


@frozen
class Row:
    """One team's line of the standings."""

    team: str
    division: str
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    bullseyes_for: int
    bullseyes_against: int
    hang_jacks: int
    hang_jacks_against: int
    decided_by: str | None = None  # the specifier that put it below the row above

    @property
    def bullseye_difference(self) -> int:
        return self.bullseyes_for - self.bullseyes_against

    def value(self, specifier: str) -> int:
        return int(getattr(self, specifier))

    def as_json(self) -> dict[str, object]:
        return {"team": self.team, "division": self.division, "played": self.played,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "byes": self.byes, "bullseyes_for": self.bullseyes_for,
                "bullseyes_against": self.bullseyes_against,
                "hang_jacks": self.hang_jacks, "hang_jacks_against": self.hang_jacks_against,
                "decided_by": self.decided_by}


@frozen
class Table:
    """One ranking: its title ("Division A", "Overall") and its rows, first place first."""

    title: str
    rows: tuple[Row, ...]


def rows_of(event: Event, assembled: Assembled) -> list[Row]:
    """Every team's totals (before ranking), in the event file's team order."""
    sums: dict[str, list[int]] = {t.name: [0] * 9 for t in event.teams}
    # played, wins, draws, losses, byes, bf, ba, hj, hja
    hang_jack_figures: dict[str, list[int]] = {t.name: [] for t in event.teams}
    for match in assembled.matches:
        if match.round in event.knockout_rounds:
            continue  # the knock-out's matches carry its bracket, not the standings
        for name, own, other, hj, hja in (
                (match.home, match.home_points, match.away_points, match.home_hang_jacks,
                 match.away_hang_jacks),
                (match.away, match.away_points, match.home_points, match.away_hang_jacks,
                 match.home_hang_jacks)):
            row = sums.get(name)
            if row is None:
                continue
            if not match.lateness and not any(
                    game.counts for table in match.tables for game in table.games):
                continue  # nothing of this match is recorded yet
            row[0] += 1
            if match.finished:
                if match.winner is None:
                    row[2] += 1
                else:
                    row[1 if match.winner == name else 3] += 1
            row[5] += own
            row[6] += other
            row[7] += hj
            row[8] += hja
            hang_jack_figures[name].append(hj)
    for round_name, team in assembled.byes:
        if round_name in event.knockout_rounds:
            continue
        row = sums.get(team)
        if row is None:
            continue
        figures = hang_jack_figures[team]
        row[4] += 1
        row[1] += event.bye_wins
        row[5] += event.bye_bullseyes
        row[7] += (event.bye_hang_jacks if event.bye_hang_jacks is not None
                   else (sum(figures) // len(figures) if figures else 0))
    return [_row(t.name, t.division, sums[t.name]) for t in event.teams]


def _row(team: str, division: str, s: list[int]) -> Row:
    return Row(team, division, played=s[0], wins=s[1], draws=s[2], losses=s[3], byes=s[4],
               bullseyes_for=s[5], bullseyes_against=s[6], hang_jacks=s[7],
               hang_jacks_against=s[8])


def ranked(rows: Sequence[Row], chain: Sequence[str]) -> tuple[Row, ...]:
    """``rows`` ordered by the chain (then by name), each with what decided its place."""
    def key(row: Row) -> tuple[object, ...]:
        return (*(-row.value(s) if TIEBREAKS[s][1] else row.value(s) for s in chain),
                row.team)

    ordered = sorted(rows, key=key)
    out = []
    for index, row in enumerate(ordered):
        decided = None
        if index:
            above = ordered[index - 1]
            decided = next((s for s in chain if row.value(s) != above.value(s)), BY_NAME)
        out.append(Row(row.team, row.division, row.played, row.wins, row.draws, row.losses,
                       row.byes, row.bullseyes_for, row.bullseyes_against, row.hang_jacks,
                       row.hang_jacks_against, decided))
    return tuple(out)


def standings(event: Event, assembled: Assembled) -> tuple[Table, ...]:
    """One table per division (in the event file's order), then the overall one when
    there is more than one division."""
    rows = rows_of(event, assembled)
    tables = [Table(f"Division {division}", ranked([r for r in rows
                                                     if r.division == division],
                                                    event.tiebreaks))
              for division in event.divisions]
    if len(tables) > 1:
        tables.append(Table("Overall", ranked(rows, event.tiebreaks)))
    return tuple(tables)


def chain_text(chain: Sequence[str]) -> str:
    """The chain as people read it: "bullseyes_for, bullseyes_against (fewer better), …"."""
    return ", ".join(s if TIEBREAKS[s][1] else f"{s} (fewer better)" for s in chain) + \
        ", then name"


def seed_order(size: int) -> list[int]:
    """The seeds of a knock-out of ``size`` (a power of two) in bracket order, so that
    neighbours meet in the first round and the top seeds meet last: for 8, 1 8 4 5 3 6 2 7
    (1 v 8, 4 v 5, 3 v 6, 2 v 7)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for index, own in enumerate(order)
                 for seed in ((own, total - own) if index % 2 == 0 else (total - own, own))]
    return order


Entrant = tuple[int | None, str | None]  # (seed, team): None, None is a place not yet known


@frozen
class Tie:
    """One tie of a knock-out round: its two entrants (the higher seed first), the match
    that settled it (None: a bye, or not played yet) and the entrant going through (None:
    not decided yet)."""

    entrants: tuple[Entrant, Entrant]
    match: MatchResult | None
    winner: Entrant | None

    @property
    def outcome(self) -> str:
        (_, one), (_, two) = self.entrants
        if one is None and two is None:
            return "no team holds either seed" if self.winner is not None else "waiting"
        if self.winner is not None and (one is None or two is None):
            return "a bye"
        if self.match is None:
            return "not played yet" if one and two else "waiting"
        m = self.match
        score = f"{m.home} {m.home_points}–{m.away_points} {m.away}"
        if self.winner is None:
            return f"{score}: drawn" if m.finished else f"{score}: not over"
        return f"{score}: {self.winner[1]} goes through"

    def as_json(self) -> dict[str, object]:
        m = self.match
        return {"entrants": [{"seed": seed, "team": team} for seed, team in self.entrants],
                "match": None if m is None else {
                    "round": m.round, "home": m.home, "away": m.away,
                    "bullseyes": [m.home_points, m.away_points], "finished": m.finished},
                "winner": None if self.winner is None else {
                    "seed": self.winner[0], "team": self.winner[1]}}


@frozen
class Bracket:
    """A knock-out seeded from a ranking.  ``pairs`` is its first round: (seed, team)
    pairs, the higher seed first; a seed no team holds is ``None`` (a bye for its
    opponent).  ``rounds`` carry the winners forward round by round to the final, from
    the matches played in the rounds the event file names as the knock-out's (a round it
    does not name is ``None``: its ties are known, their results are not looked for)."""

    source: str
    pairs: tuple[tuple[tuple[int, str | None], tuple[int, str | None]], ...]
    rounds: tuple[tuple[str | None, tuple[Tie, ...]], ...] = ()

    @property
    def champion(self) -> Entrant | None:
        if not self.rounds or len(self.rounds[-1][1]) != 1:
            return None
        return self.rounds[-1][1][0].winner

    def as_json(self) -> dict[str, object]:
        champion = self.champion
        return {"seeded_from": self.source, "first_round": [
            [{"seed": seed, "team": team} for seed, team in pair] for pair in self.pairs],
            "rounds": [{"name": name, "ties": [tie.as_json() for tie in ties]}
                       for name, ties in self.rounds],
            "champion": None if champion is None else {"seed": champion[0],
                                                       "team": champion[1]}}


def bracket(event: Event, tables: Sequence[Table],
            matches: Sequence[MatchResult] = ()) -> Bracket | None:
    """The knock-out the event file asks for, seeded from its ranking and carried
    forward by the knock-out rounds' ``matches``; None if none."""
    if not event.knockout_teams or not tables:
        return None
    title = f"Division {event.knockout_from}" if event.knockout_from else tables[-1].title
    ranking = next((t for t in tables if t.title == title), tables[-1])
    teams = [row.team for row in ranking.rows]
    order = seed_order(event.knockout_teams)
    placed = [(seed, teams[seed - 1] if seed <= len(teams) else None) for seed in order]
    pairs = tuple((min(a, b), max(a, b)) for a, b in zip(placed[::2], placed[1::2],
                                                         strict=True))
    entrants: list[Entrant] = [entrant for pair in pairs for entrant in pair]
    rounds = []
    names = event.knockout_rounds
    for number in range(event.knockout_teams.bit_length() - 1):
        name = names[number] if number < len(names) else None
        played = [m for m in matches if name is not None and m.round == name]
        ties = tuple(_tie(one, two, played)
                     for one, two in zip(entrants[::2], entrants[1::2], strict=True))
        rounds.append((name, ties))
        entrants = [tie.winner or (None, None) for tie in ties]
    return Bracket(ranking.title, pairs, tuple(rounds))


def entrant_text(entrant: Entrant) -> str:
    """ "1 Bronx", "seed 8 (no team)", or "to be decided"."""
    seed, team = entrant
    if team is not None:
        return f"{seed} {team}" if seed is not None else team
    return f"seed {seed} (no team)" if seed is not None else "to be decided"


def _tie(one: Entrant, two: Entrant, played: Sequence[MatchResult]) -> Tie:
    """A tie between two entrants, settled by the match between their teams in the round
    (either at home), a bye when only one of them is there."""
    if one[0] is not None and two[0] is not None and two[0] < one[0]:
        one, two = two, one
    if one[1] is None and two[1] is None:  # no team holds either seed: an empty place
        seeded = one[0] is not None and two[0] is not None
        return Tie((one, two), None, (one[0], None) if seeded else None)
    if one[1] is None or two[1] is None:
        alone = two if one[1] is None else one
        # a bye only against a seed no team holds, not against a place still undecided
        empty = one if alone is two else two
        if alone[1] is not None and empty[0] is not None:
            return Tie((one, two), None, alone)
        return Tie((one, two), None, None)
    match = next((m for m in played if {m.home, m.away} == {one[1], two[1]}), None)
    winner = None
    if match is not None and match.finished and match.winner is not None:
        winner = one if match.winner == one[1] else two
    return Tie((one, two), match, winner)
