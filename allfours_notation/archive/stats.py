"""``allfours stats``: standings and the game's own statistics over a set of games.

Per rule profile, and within it per player and per side (a side is a player in
the two- and three-handed games, a partnership in the four-handed one): games,
wins, points for and against, deals; how often each took High, Low, Jack and
Game, Jacks hanged, kicks and their points, gifts received, penalty points;
begs (and how often a beg won the deal), how the player answered a beg as
dealer (gave or ran), turned Jacks, revokes; average points per deal.

Everything is counted from the referee's replay, not from the claims written in
the record, so a wrong claim does not skew the figures.  Games that cannot be
parsed are counted apart (``unreadable``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..cards import Rank, Seat
from ..frozen import frozen
from ..reading.records import CallKind, ClaimItem, Game, PenaltyKind, TurnUp
from ..reading.table import side_of
from ..referee.disputes import rules_name
from .analysis import Analysed
from .select import date_key

# The columns of a row, in order, with their headings (JSON keys are the names).
COLUMNS: tuple[tuple[str, str], ...] = (
    ("games", "Games"),
    ("wins", "Wins"),
    ("points_for", "For"),
    ("points_against", "Against"),
    ("deals", "Deals"),
    ("points_per_deal", "Pts/deal"),
    ("high", "High"),
    ("low", "Low"),
    ("jack", "Jack"),
    ("game", "Game"),
    ("hang_jack", "Hanged"),
    ("kicks", "Kicks"),
    ("kick_points", "Kick pts"),
    ("gifts", "Gifts"),
    ("penalty_points", "Pen pts"),
    ("begs", "Begs"),
    ("begs_won", "Begs won"),
    ("gave", "Gave"),
    ("ran", "Ran"),
    ("turned_jacks", "Turned J"),
    ("revokes", "Revokes"),
)

_ITEM_COLUMN = {
    ClaimItem.HIGH: "high",
    ClaimItem.LOW: "low",
    ClaimItem.JACK: "jack",
    ClaimItem.GAME: "game",
    ClaimItem.HANG_JACK: "hang_jack",
    ClaimItem.KICK: "kicks",
    ClaimItem.GIFT: "gifts",
}


@dataclass(slots=True)
class _Tally:
    """Counts for one player or side, filled game by game (a builder, not a record)."""

    counts: Counter[str] = field(default_factory=Counter)

    def row(self, name: str) -> Row:
        deals = self.counts["deals"]
        per_deal = round(self.counts["points_for"] / deals, 3) if deals else 0.0
        values = tuple((key, per_deal if key == "points_per_deal" else self.counts[key])
                       for key, _ in COLUMNS)
        return Row(name, values)


@frozen
class Row:
    """One line of a statistics table: a name and its named values, in column order."""

    name: str
    values: tuple[tuple[str, int | float], ...]

    def get(self, key: str) -> int | float:
        return dict(self.values)[key]

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, **dict(self.values)}


@frozen
class ProfileStats:
    """The statistics of the games played under one rule profile."""

    rules: str
    games: int
    deals: int
    points: int
    players: tuple[Row, ...]
    sides: tuple[Row, ...]  # partnerships of the four-handed games only

    @property
    def points_per_deal(self) -> float:
        return round(self.points / self.deals, 3) if self.deals else 0.0

    def as_json(self) -> dict[str, object]:
        return {"rules": self.rules, "games": self.games, "deals": self.deals,
                "points": self.points, "points_per_deal": self.points_per_deal,
                "players": [row.as_json() for row in self.players],
                "sides": [row.as_json() for row in self.sides]}


@frozen
class GameLine:
    """One game's course, for the plots: the running score per side after each deal."""

    label: str
    date: str | None
    sides: tuple[tuple[str, str], ...]  # side → its name
    progression: tuple[tuple[tuple[str, int], ...], ...]
    winner: str | None  # the winning side's name


@frozen
class Summary:
    """What a statistics run found: each rule profile's figures, how many files were unreadable
    and one line per game."""

    profiles: tuple[ProfileStats, ...]
    unreadable: int
    games: tuple[GameLine, ...]

    def as_json(self) -> dict[str, object]:
        return {"profiles": [p.as_json() for p in self.profiles], "unreadable": self.unreadable}


def player_name(game: Game, seat: Seat) -> str:
    return game.tag(seat.tag_name) or f"({seat.tag_name})"


def side_names(game: Game, seats: tuple[Seat, ...]) -> dict[str, str]:
    """Each side's name: its player, or the partners joined by ``&``."""
    names: dict[str, list[str]] = {}
    for seat in seats:
        names.setdefault(side_of(seat, seats), []).append(player_name(game, seat))
    return {side: " & ".join(members) for side, members in names.items()}


@dataclass(slots=True)
class _Profile:
    games: int = 0
    deals: int = 0
    points: int = 0
    players: dict[str, _Tally] = field(default_factory=dict)
    sides: dict[str, _Tally] = field(default_factory=dict)


class StatsBuilder:
    """Adds games one at a time (memory does not grow with the games, only with
    the players), then :meth:`summary`."""

    def __init__(self) -> None:
        self._profiles: dict[str, _Profile] = {}
        self._unreadable = 0
        self._lines: list[GameLine] = []

    def add(self, analysed: Analysed, label: str) -> None:
        replayed = analysed.replay
        if replayed is None:
            self._unreadable += 1
            return
        game = analysed.game
        seats = game.seats
        if len(seats) < 2:
            self._unreadable += 1
            return
        profile = self._profiles.setdefault(rules_name(replayed.options), _Profile())
        sides = side_names(game, seats)
        four = len(seats) == 4
        player = {seat: profile.players.setdefault(player_name(game, seat), _Tally())
                  for seat in seats}
        # Sides are counted apart only where they are partnerships; a lone player's
        # side is the player.
        side = ({key: profile.sides.setdefault(name, _Tally()) for key, name in sides.items()}
                if four else {})
        scores = dict(replayed.scores)
        profile.games += 1
        profile.deals += len(replayed.deals)
        profile.points += sum(scores.values())
        for seat in seats:
            key = side_of(seat, seats)
            self._standing(player[seat].counts, key, scores, replayed.winner,
                           len(replayed.deals))
        for key, tally in side.items():
            self._standing(tally.counts, key, scores, replayed.winner, len(replayed.deals))
        self._count_deals(analysed, seats, player, side)
        self._lines.append(GameLine(
            label, game.tag("Date"), tuple(sides.items()),
            tuple(deal.scores_after for deal in replayed.deals),
            sides.get(replayed.winner) if replayed.winner else None))

    @staticmethod
    def _standing(counts: Counter[str], key: str, scores: dict[str, int], winner: str | None,
                  deals: int) -> None:
        counts["games"] += 1
        counts["wins"] += winner == key
        counts["points_for"] += scores.get(key, 0)
        counts["points_against"] += sum(v for k, v in scores.items() if k != key)
        counts["deals"] += deals

    def _count_deals(self, analysed: Analysed, seats: tuple[Seat, ...],
                     player: dict[Seat, _Tally], side: dict[str, _Tally]) -> None:
        assert analysed.replay is not None
        four = len(seats) == 4

        def credit(seat: Seat | None, side_key: str, column: str, amount: int = 1) -> None:
            if seat is not None and seat in player:
                player[seat].counts[column] += amount
            if side_key in side:
                side[side_key].counts[column] += amount

        for deal, result in zip(analysed.game.deals, analysed.replay.deals, strict=False):
            gained: Counter[str] = Counter()
            for point in result.points:
                gained[point.side] += point.points
                column = _ITEM_COLUMN.get(point.item)
                if column is not None:
                    credit(point.seat, point.side, column)
                if point.item is ClaimItem.KICK:
                    credit(point.seat, point.side, "kick_points", point.points)
                if point.item is ClaimItem.PENALTY:
                    credit(None if four else point.seat, point.side, "penalty_points",
                           point.points)
            for event in deal.opening:
                if isinstance(event, TurnUp) and event.card.rank is Rank.JACK:
                    credit(deal.dealer, side_of(deal.dealer, seats), "turned_jacks")
            for call in deal.calls:
                if call.seat not in player:
                    continue
                key = side_of(call.seat, seats)
                if call.kind is CallKind.BEGS:
                    credit(call.seat, key, "begs")
                    best = max(gained.values(), default=0)
                    if gained[key] == best and best > 0 and list(gained.values()).count(best) == 1:
                        credit(call.seat, key, "begs_won")
                elif call.kind is CallKind.GIVES:
                    credit(call.seat, key, "gave")
                elif call.kind is CallKind.RUNS:
                    credit(call.seat, key, "ran")
            for penalty in deal.penalties:
                if penalty.kind is PenaltyKind.REVOKE and penalty.offender in player:
                    credit(penalty.offender, side_of(penalty.offender, seats), "revokes")

    def summary(self) -> Summary:
        profiles = []
        for name in sorted(self._profiles):
            profile = self._profiles[name]
            profiles.append(ProfileStats(
                name, profile.games, profile.deals, profile.points,
                _ranked(profile.players), _ranked(profile.sides)))
        lines = sorted(self._lines, key=lambda line: date_key(line.date) or "")
        return Summary(tuple(profiles), self._unreadable, tuple(lines))


def _ranked(tallies: dict[str, _Tally]) -> tuple[Row, ...]:
    rows = [tally.row(name) for name, tally in tallies.items()]
    return tuple(sorted(rows, key=lambda r: (-r.get("wins"), -r.get("points_for"), r.name)))
