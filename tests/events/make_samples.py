"""Writes the games of the worked events in ``samples/event/`` (their event files are
written by hand): ``python -m tests.events.make_samples``.

Every game is one of the generator's (:mod:`allfours_notation.generate`: legal, played
card by card, claims and totals as the referee computes them) under ``trinidad14``, with
the tags of its place in the event and the pairs' players in its seats; the club match's
deals carry the clock times a recorder writes (so that its "first" prizes are decided by
time across tables), the league's none.  The same seed gives the same files.
:func:`event_games` is also what the property tests use.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn
from allfours_notation.reading.records import Game, Tag

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "event"
KNOBS = Knobs(comments=0.0, glyphs=0.0, hands=0.0)
SEATS_HOME_NS = ("North", "East", "South", "West")


def tagged(game: Game, *, event: str, date: str, round_name: str | None, table: int,
           home: str, away: str, home_pair: Sequence[str], away_pair: Sequence[str],
           home_ns: bool) -> Game:
    """``game`` with the tags of its place and the pairs seated (home N/S or E/W)."""
    ns, ew = (home_pair, away_pair) if home_ns else (away_pair, home_pair)
    names = {"North": ns[0], "South": ns[1], "East": ew[0], "West": ew[1]}
    result = game.tag("Result") or "*"
    tags = [Tag(name="Event", value=event), Tag(name="Date", value=date),
            Tag(name="Rules", value="trinidad14")]
    if round_name is not None:
        tags.append(Tag(name="Round", value=round_name))
    tags += [Tag(name="Table", value=str(table)), Tag(name="HomeTeam", value=home),
             Tag(name="AwayTeam", value=away)]
    tags += [Tag(name=seat, value=names[seat]) for seat in SEATS_HOME_NS]
    tags.append(Tag(name="Result", value=result))
    return replace(game, tags=tuple(tags))


def table_games(rng: random.Random, count: int) -> Iterator[Game]:
    options = profile_options("trinidad14")
    for index in range(1, count + 1):
        yield generate_game(rng, options, KNOBS, profile="trinidad14", index=index)


def race_games(rng: random.Random, tables: int, target: int,
               ) -> dict[int, list[Game]]:
    """Games of a match raced to ``target`` (one bullseye a game): the tables play in
    turns; the turn in which a team reaches the target is finished at every table (those
    games then count for nothing), and no game is played after it."""
    options = profile_options("trinidad14")
    games: dict[int, list[Game]] = {table: [] for table in range(1, tables + 1)}
    wins = {True: 0, False: 0}
    reached = False
    while not reached:
        for table in range(1, tables + 1):
            game = generate_game(rng, options, KNOBS, profile="trinidad14",
                                 index=len(games[table]) + 1)
            games[table].append(game)
            if not reached:
                home_ns = table % 2 == 1
                wins[(game.tag("Result") == "NS") == home_ns] += 1
                reached = max(wins.values()) >= target
    return games


def write_table(path: Path, games: Sequence[Game]) -> None:
    text = "% AFN 1\n" + "\n".join(write_afn(game, version_line=False) for game in games)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


# --- the club match: 12 tables, six games a table ----------------------------------------

CLUB_TEAMS = {
    "Arima": ["Ann Baptiste", "Ben Charles", "Cora Daniel", "Dev Ramdass", "Eli Joseph",
              "Fay Mohammed", "Gus Pierre", "Hal Roberts", "Ida Sealy", "Joe Thomas",
              "Kay Williams", "Lou Alexis", "Mia Bissoon", "Ned Cooper", "Ola Dookie",
              "Pat Edwards", "Quinn Francis", "Ray George", "Sue Harris", "Tom Isaac",
              "Uma Jack", "Vic Khan", "Wes Lewis", "Zoe Mark"],
    "Couva": ["Abe Nurse", "Bea Ottley", "Cal Persad", "Dot Quamina", "Ed Rampersad",
              "Flo Samuel", "Gil Taylor", "Hope Unwin", "Ivan Vincent", "Jan Walker",
              "Ken Xavier", "Lin Young", "Max Zephyr", "Nia Ali", "Otis Boodoo",
              "Pam Clarke", "Rex Dyer", "Sal Emmanuel", "Ted Felix", "Uri Gomez",
              "Val Hosein", "Will Ince", "Xena James", "Yul Kelly"],
}


def timed(games: Sequence[Game], clock: random.Random, start: int) -> list[Game]:
    """``games`` with a clock time on every deal (``deal 3 dealer N at 19:42``), as the
    recorder writes them: from ``start`` minutes after midnight, two to five minutes a
    deal, four minutes between games.  ``clock`` is not the games' generator, so the
    games are the same with or without their times."""
    minutes = start
    out = []
    for game in games:
        deals = []
        for deal in game.deals:
            deals.append(replace(deal, time=f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"))
            minutes += clock.randint(2, 5)
        out.append(replace(game, deals=tuple(deals)))
        minutes += 4
    return out


def club_match() -> None:
    rng = random.Random(2026_11_21)
    clock = random.Random(1930)  # the tables start at 19:30, give or take a few minutes
    home, away = CLUB_TEAMS["Arima"], CLUB_TEAMS["Couva"]
    for table in range(1, 13):
        games = [tagged(game, event="Arima v Couva", date="2026.11.21", round_name=None,
                        table=table, home="Arima", away="Couva",
                        home_pair=home[2 * table - 2:2 * table],
                        away_pair=away[2 * table - 2:2 * table], home_ns=table % 2 == 1)
                 for game in table_games(rng, 6)]
        games = timed(games, clock, 19 * 60 + 30 + clock.randint(0, 8))
        write_table(SAMPLES / "club" / "games" / f"table{table:02d}.afn", games)


# --- the league division: five teams, race to 18 over three tables, three rounds --------

LEAGUE_TEAMS = {
    "Brooklyn": ["Andre Bailey", "Brian Cox", "Carl Diaz", "Dean Eve", "Earl Fox",
                 "Fred Grant"],
    "Flatbush": ["Gail Hunt", "Hugh Ivey", "Iris Joyce", "Jude Kirk", "Kurt Lamb",
                 "Lana Moss"],
    "Queens": ["Mona Nash", "Noel Orr", "Opal Pike", "Paul Quay", "Rita Ross",
               "Sean Shaw"],
    "Bronx": ["Tara Toms", "Umar Urry", "Vera Vale", "Wade Webb", "Yves Yard",
              "Zack Zane"],
    "Newark": ["Alma Abel", "Bo Bligh", "Cyd Cruz", "Dale Dunn", "Elsa Eady",
               "Finn Ford"],
}
LEAGUE_ROUNDS = (  # (round, [(home, away)], bye)
    ("1", [("Brooklyn", "Flatbush"), ("Queens", "Bronx")], "Newark"),
    ("2", [("Newark", "Brooklyn"), ("Flatbush", "Queens")], "Bronx"),
    ("3", [("Bronx", "Newark"), ("Queens", "Brooklyn")], "Flatbush"),
)
LEAGUE_TABLES = 3
LEAGUE_TARGET = 18


def league() -> None:
    rng = random.Random(19)  # a season where the tie-break chain decides two places
    for round_name, matches, _ in LEAGUE_ROUNDS:
        for home, away in matches:
            for table, games in race_games(rng, LEAGUE_TABLES, LEAGUE_TARGET).items():
                home_pair = LEAGUE_TEAMS[home][2 * table - 2:2 * table]
                away_pair = LEAGUE_TEAMS[away][2 * table - 2:2 * table]
                written = [tagged(game, event="Diaspora League, Division A",
                                  date=f"2026.10.{int(round_name) + 3:02d}",
                                  round_name=round_name, table=table, home=home, away=away,
                                  home_pair=home_pair, away_pair=away_pair,
                                  home_ns=table % 2 == 1) for game in games]
                name = f"round{round_name}-{home.lower()}-{away.lower()}-t{table}.afn"
                write_table(SAMPLES / "league" / "games" / name, written)


if __name__ == "__main__":
    club_match()
    league()
