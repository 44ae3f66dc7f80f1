"""Ratings of the event's players and partnerships with ``openskill`` (Weng-Lin, the
Plackett-Luce model with its defaults: a newcomer's mean 25, uncertainty 25/3).

Each game is one result of two teams of two: the winning pair ranked first.  A partnership
is rated apart, as one competitor in a game of two.  The games are taken in the order they
were played as far as the records tell it: rounds in the event file's order, matches in the
schedule's order, and within a match every table's first game, then every second, tables in
number order.  Every game the referee passed and that has a winner counts, also one played
after a race was won (it was played all the same); a game of a second file for one table
does not.  The displayed ordinal is openskill's, the mean less three uncertainties: a
player's rating that it is 99.7% sure to exceed.

``openskill`` is imported when ratings are asked for, not by the other event commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..frozen import frozen
from .assemble import Assembled, Counted, MatchResult

if TYPE_CHECKING:
    from .eventfile import Event


@frozen
class Rating:
    """One player's or partnership's rating after the event's games."""

    name: str
    team: str
    games: int
    wins: int
    mean: float
    uncertainty: float
    ordinal: float

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "team": self.team, "games": self.games, "wins": self.wins,
                "mean": round(self.mean, 4), "uncertainty": round(self.uncertainty, 4),
                "ordinal": round(self.ordinal, 4)}


@frozen
class Ratings:
    """Every player's and every partnership's rating, best ordinal first."""

    players: tuple[Rating, ...]
    pairs: tuple[Rating, ...]
    games: int  # the games rated

    def as_json(self) -> dict[str, object]:
        return {"model": "openskill PlackettLuce", "games": self.games,
                "players": [r.as_json() for r in self.players],
                "pairs": [r.as_json() for r in self.pairs]}


def games_in_order(event: Event, assembled: Assembled) -> list[tuple[MatchResult, Counted]]:
    """The games to rate, in the order they were played as far as the records tell."""
    rounds = {r.name: index for index, r in enumerate(event.rounds)}
    ordered = sorted(enumerate(assembled.matches),
                     key=lambda item: (rounds.get(item[1].round, len(rounds)), item[0]))
    found = []
    for _, match in ordered:
        longest = max((len(t.games) for t in match.tables), default=0)
        for position in range(longest):
            for table in match.tables:
                if position < len(table.games):
                    game = table.games[position]
                    if _rated(game):
                        found.append((match, game))
    return found


def _rated(game: Counted) -> bool:
    return (game.winner_side is not None and not game.game.errors
            and not (game.why_not or "").startswith("conflicts"))


def rate(event: Event, assembled: Assembled) -> Ratings:
    """Rate every player and partnership over the event's games."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players: dict[str, Any] = {}
    pairs: dict[str, Any] = {}
    teams: dict[str, str] = {}
    tally: dict[str, list[int]] = {}
    games = games_in_order(event, assembled)
    for match, game in games:
        sides = []
        for home in (True, False):
            team = match.home if home else match.away
            pair = game.pair(home)
            won = game.winner_home is home
            names = [*pair, " & ".join(pair)]
            for name in names:
                teams.setdefault(name, team)
                counts = tally.setdefault(name, [0, 0])
                counts[0] += 1
                counts[1] += won
            sides.append((pair, " & ".join(pair), won))
        ranks: list[float] = [1.0 if won else 2.0 for _, _, won in sides]
        rated = model.rate([[_get(model, players, n) for n in pair] for pair, _, _ in sides],
                           ranks=ranks)
        for (pair, _, _), after in zip(sides, rated, strict=True):
            for name, rating in zip(pair, after, strict=True):
                players[name] = rating
        paired = model.rate([[_get(model, pairs, name)] for _, name, _ in sides], ranks=ranks)
        for (_, name, _), after in zip(sides, paired, strict=True):
            pairs[name] = after[0]
    return Ratings(_table(players, teams, tally), _table(pairs, teams, tally), len(games))


def _get(model: Any, ratings: dict[str, Any], name: str) -> Any:
    if name not in ratings:
        ratings[name] = model.rating(name=name)
    return ratings[name]


def _table(ratings: dict[str, Any], teams: dict[str, str],
           tally: dict[str, list[int]]) -> tuple[Rating, ...]:
    rows = [Rating(name, teams[name], tally[name][0], tally[name][1], float(r.mu),
                   float(r.sigma), float(r.ordinal())) for name, r in ratings.items()]
    return tuple(sorted(rows, key=lambda row: (-round(row.ordinal, 9), row.name)))
