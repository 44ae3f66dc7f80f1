"""The event file (``EVENT.toml``): the event, its teams, match rule, schedule and prizes.

Read with :mod:`tomllib`; every mistake becomes a :class:`~..diagnostics.Diagnostic`
with the file, the line and column of the key (found by :mod:`.positions`), a stable
code in the AFN6xx range (AFN601-AFN619: the event file; the games' are in
:mod:`.assemble`) and a hint.  A file with errors still yields what could be read, so
that every mistake is reported in one run; the commands refuse to compute results from
it.  The file's format is documented in ``docs/events.md``; nothing here knows a rule of
All Fours (the rules are named and handed to the referee through ``checking.check``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path as FilePath
from typing import Any

from ..cards import Suit, parse_card
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..limits import overlong_number
from ..referee.house import load_house_rules
from ..referee.profiles import PROFILES, Profile
from .positions import Path, Place, key_places, place_of, value_place

FORMAT_VERSION = 1
MATCH_RULES = ("race", "games", "best_of")
TIEBREAKS = {  # specifier → (what it counts, whether more is better)
    "bullseyes_for": ("bullseye points won", True),
    "bullseyes_against": ("bullseye points conceded", False),
    "bullseye_difference": ("bullseye points won less conceded", True),
    "wins": ("matches won", True),
    "hang_jacks": ("Hang Jacks won", True),
    "hang_jacks_against": ("Hang Jacks conceded", False),
}
DEFAULT_TIEBREAKS = ("bullseyes_for", "bullseyes_against", "wins", "hang_jacks",
                     "hang_jacks_against")
PRIZE_KINDS = {  # kind → its parameters (name: "suit" | "card" | "by")
    "first_hang_jack": ("suit",),
    "first_hang_with": ("cards",),
    "named_kick": ("card",),
    "highest_game_count": (),
    "most_bullseyes": ("by",),
    "most_hang_jacks": ("by",),
    "most_straight_games": (),
}
_BY = ("pair", "team")
_TOP = {"format", "event", "match", "bye", "standings", "knockout", "team", "round", "prize",
        "forfeit"}
_KNOCKOUT = {"teams", "from", "rounds"}
_EVENT = {"name", "venue", "dates", "rules", "rules_file", "scoring", "forfeits"}
_SCORING = {"game", "hang_jack"}
_FORFEITS = {"renege", "late"}
_FORFEIT = {"team", "round", "table", "reason"}
_MATCH = {"rule", "target", "games", "half_time", "count_after_end"}
_BYE = {"bullseyes", "hang_jacks", "win"}
_STANDINGS = {"tiebreaks"}
_TEAM = {"name", "division", "players", "pairs", "substitutes"}
_ROUND = {"name", "match", "byes"}
_ROUND_MATCH = {"home", "away", "tables", "name", "seating"}
_SEATING = {"table", "home", "away"}
_PRIZE = {"name", "kind", "suit", "card", "cards", "by"}


@frozen
class Team:
    """A team: its name, division, players, optional fixed pairs and substitutes."""

    name: str
    division: str
    players: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...] = ()
    substitutes: tuple[str, ...] = ()

    @property
    def members(self) -> tuple[str, ...]:
        return (*self.players, *self.substitutes)


@frozen
class ScheduledMatch:
    """A match of the schedule: its round, home and away teams, its tables."""

    round: str
    home: str
    away: str
    tables: int | None  # None: as many as the games show
    name: str | None = None
    line: int = 1  # where the event file schedules it
    # an explicit seating: (table, the home pair, the away pair) for the tables it names
    seating: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...] = ()

    def seated(self, table: int) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The home and away pairs the schedule seats at ``table``, if it says."""
        return next(((home, away) for number, home, away in self.seating
                     if number == table), None)


@frozen
class Forfeit:
    """A forfeit for lateness (``[[forfeit]]``): the late team, in a round (None: the one
    round it plays, or the games' tags' when there is no schedule), at a table (None: the
    team), the director's reason; what it costs is the event's ``[event.forfeits] late``."""

    team: str
    round: str | None
    table: int | None
    reason: str | None
    line: int


@frozen
class Round:
    """A round of the schedule: its matches and the teams with a bye."""

    name: str
    matches: tuple[ScheduledMatch, ...]
    byes: tuple[str, ...] = ()


@frozen
class Prize:
    """A prize of the catalogue, with its parameters."""

    name: str
    kind: str
    suit: Suit | None = None
    card: str | None = None  # a card as AFN writes it ("9S")
    by: str = "pair"
    cards: tuple[str, ...] = ()  # first_hang_with: the cards a Jack may be hanged with


@frozen
class Event:
    """An event file read: what it says, with the defaults filled in."""

    file: str
    name: str
    venue: str | None
    dates: tuple[str, ...]
    rules: str | None  # a profile's name
    house: Profile | None  # a house-rules file's profile, when one is named
    game_value: int  # bullseye points for a game won
    hang_jack_value: int  # bullseye points for each Hang Jack
    renege_forfeits: bool
    match_rule: str
    target: int | None  # race: the bullseye points that win; best_of: games (N)
    games: int | None  # games: games per table
    half_time: int | None  # the sheet's half-time line after this many games a table
    count_after_end: bool
    bye_bullseyes: int
    bye_hang_jacks: int | None  # None: the floored average of the team's other matches
    bye_wins: bool
    tiebreaks: tuple[str, ...]
    knockout_teams: int | None  # a seeded knock-out of this many teams (a power of two)
    knockout_from: str | None  # the ranking it is seeded from (None: overall, or the one)
    teams: tuple[Team, ...]
    rounds: tuple[Round, ...]
    prizes: tuple[Prize, ...]
    # the rounds (as scheduled or as the games' [Round] tags name them) that hold the
    # knock-out's matches, its first round first; their matches are not in the standings
    knockout_rounds: tuple[str, ...] = ()
    # lateness: the late side forfeits this many bullseye points to the other team's
    # total, or ("match") the match; None: the event has no rule for it
    late_forfeits: int | str | None = None
    forfeits: tuple[Forfeit, ...] = ()

    def team(self, name: str) -> Team | None:
        return next((team for team in self.teams if team.name == name), None)

    @property
    def divisions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(team.division for team in self.teams))

    @property
    def given_rules(self) -> tuple[str | None, dict[str, str]] | tuple[
            str | None, dict[str, str], Profile | None]:
        """The rules every game is refereed under, as ``checking.check`` takes them."""
        return (None, {}, self.house) if self.house is not None else (self.rules, {})


@frozen
class EventFile:
    """What reading an event file gave: the event (None when it could not be read at
    all), every diagnostic, and the file's text (for caret snippets)."""

    event: Event | None
    diagnostics: tuple[Diagnostic, ...]
    text: str

    @property
    def has_errors(self) -> bool:
        return self.event is None or any(d.is_error for d in self.diagnostics)


class _Reader:
    """Reads the dictionaries ``tomllib`` gave, noting each problem at its key."""

    def __init__(self, file: str, text: str) -> None:
        self.file, self.text = file, text
        self.places = key_places(text)
        self.found: list[Diagnostic] = []

    def add(self, code: str, message: str, path: Path, hint: str, *,
            value: str | None = None, severity: Severity = Severity.ERROR) -> None:
        place = place_of(self.places, path) or Place(1, 1, 2)
        if value is not None and path in self.places:
            place = value_place(self.text, place, value)
        self.found.append(Diagnostic(code, severity, message, self.file, place.line,
                                     place.column, place.end_column, hint=hint))

    def table(self, data: Mapping[str, Any], key: str, path: Path,
              allowed: set[str]) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.add("AFN604", f"'{key}' must be a table", (*path, key),
                     f"write it as a [{'.'.join(map(str, (*path, key)))}] section")
            return {}
        self.unknown_keys(value, (*path, key), allowed)
        return value

    def tables(self, data: Mapping[str, Any], key: str, path: Path,
               allowed: set[str]) -> list[tuple[Path, dict[str, Any]]]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.add("AFN604", f"'{key}' must be an array of tables", (*path, key),
                     f"write each entry as a [[{'.'.join(map(str, (*path, key)))}]] section")
            return []
        found = []
        for index, entry in enumerate(value):
            self.unknown_keys(entry, (*path, key, index), allowed)
            found.append(((*path, key, index), entry))
        return found

    def unknown_keys(self, data: Mapping[str, Any], path: Path, allowed: set[str]) -> None:
        for key in data:
            if key not in allowed:
                self.add("AFN602", f"unknown key '{key}'", (*path, key),
                         f"the keys here are: {', '.join(sorted(allowed))}")

    def text_value(self, data: Mapping[str, Any], key: str, path: Path, *,
                   required: bool = False) -> str | None:
        value = data.get(key)
        if value is None:
            if required:
                self.add("AFN603", f"'{key}' is missing", path,
                         f"add {key} = \"...\" to this section")
            return None
        if not isinstance(value, str) or not value.strip():
            self.add("AFN604", f"'{key}' must be a non-empty string", (*path, key),
                     f"write {key} = \"...\"")
            return None
        return value.strip()

    def number(self, data: Mapping[str, Any], key: str, path: Path, *, default: int | None,
               least: int = 0) -> int | None:
        value = data.get(key)
        if value is None:
            return default
        if not isinstance(value, int) or isinstance(value, bool):
            self.add("AFN604", f"'{key}' must be a whole number", (*path, key),
                     f"write {key} = {default if default is not None else 1}")
            return default
        if value < least:
            self.add("AFN605", f"'{key}' must be at least {least}, not {value}", (*path, key),
                     f"write a number from {least} up")
            return default
        return value

    def flag(self, data: Mapping[str, Any], key: str, path: Path, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.add("AFN604", f"'{key}' must be true or false", (*path, key),
                     f"write {key} = {'true' if default else 'false'}")
            return default
        return value

    def names(self, data: Mapping[str, Any], key: str, path: Path, *,
              required: bool = False) -> tuple[str, ...]:
        value = data.get(key)
        if value is None:
            if required:
                self.add("AFN603", f"'{key}' is missing", path,
                         f"add {key} = [\"...\", \"...\"] to this section")
            return ()
        if not isinstance(value, list) or not all(
                isinstance(v, str) and v.strip() for v in value):
            self.add("AFN604", f"'{key}' must be a list of non-empty strings", (*path, key),
                     f"write {key} = [\"...\", \"...\"]")
            return ()
        return tuple(v.strip() for v in value)


def read_event_file(path: str | FilePath) -> EventFile:
    """Read and check the event file at ``path`` (a missing or unreadable file is one
    AFN601 at its first line)."""
    name = str(path)
    try:
        text = FilePath(path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        return EventFile(None, (Diagnostic("AFN601", Severity.ERROR,
                                           f"cannot read the event file: {why}", name, 1, 1,
                                           hint="name an event file (EVENT.toml) that exists"),),
                         "")
    return read_event_text(text, name)


def read_event_text(text: str, file: str = "EVENT.toml") -> EventFile:
    """Read and check an event file's text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line, column = _toml_position(str(error))
        message = str(error).split(" (at line")[0]
        return EventFile(None, (Diagnostic(
            "AFN601", Severity.ERROR, f"not valid TOML: {message}", file, line, column,
            column + 1, hint="see https://toml.io for the syntax; strings need quotes"),), text)
    except ValueError:  # a number too long to convert: tomllib gives no position
        line, column, digits = overlong_number(text) or (1, 1, 0)
        return EventFile(None, (Diagnostic(
            "AFN601", Severity.ERROR, f"a number of {digits:,} digits: too long to read",
            file, line, column, column + 1, hint="a count in an event file has a few digits"),),
            text)
    reader = _Reader(file, text)
    event = _event(reader, data, FilePath(file).parent)
    return EventFile(event, tuple(reader.found), text)


def _toml_position(message: str) -> tuple[int, int]:
    import re

    found = re.search(r"at line (\d+), column (\d+)", message)
    return (int(found.group(1)), int(found.group(2))) if found else (1, 1)


def _event(reader: _Reader, data: Mapping[str, Any], folder: FilePath) -> Event:
    reader.unknown_keys(data, (), _TOP)
    version = reader.number(data, "format", (), default=FORMAT_VERSION, least=1)
    if version != FORMAT_VERSION:
        reader.add("AFN605", f"event file format {version} is not known (this version reads "
                   f"{FORMAT_VERSION})", ("format",), f"write format = {FORMAT_VERSION}")
    head = reader.table(data, "event", (), _EVENT)
    if "event" not in data:
        reader.add("AFN603", "the [event] section is missing", (),
                   "add [event] with name = \"...\" and rules = \"...\"")
    path: Path = ("event",)
    name = reader.text_value(head, "name", path, required="event" in data) or "Event"
    rules, house = _rules(reader, head, folder)
    scoring = reader.table(head, "scoring", path, _SCORING)
    forfeits = reader.table(head, "forfeits", path, _FORFEITS)
    match = reader.table(data, "match", (), _MATCH)
    rule, target, games = _match_rule(reader, match)
    bye = reader.table(data, "bye", (), _BYE)
    bye_bullseyes = reader.number(bye, "bullseyes", ("bye",), default=None)
    if bye_bullseyes is None:
        bye_bullseyes = target if rule == "race" and target else 0
    teams = _teams(reader, data)
    knockout = _knockout(reader, data, teams)
    rounds = _scheduled(reader, _rounds(reader, data, teams), knockout["knockout_rounds"])
    late = _late_rule(reader, forfeits)
    return Event(
        file=reader.file, name=name, venue=reader.text_value(head, "venue", path),
        dates=reader.names(head, "dates", path), rules=rules, house=house,
        game_value=reader.number(scoring, "game", (*path, "scoring"), default=1) or 0,
        hang_jack_value=reader.number(scoring, "hang_jack", (*path, "scoring"),
                                      default=0) or 0,
        renege_forfeits=reader.flag(forfeits, "renege", (*path, "forfeits"), False),
        match_rule=rule, target=target, games=games,
        half_time=reader.number(match, "half_time", ("match",), default=None, least=1),
        count_after_end=reader.flag(match, "count_after_end", ("match",), False),
        bye_bullseyes=bye_bullseyes,
        bye_hang_jacks=reader.number(bye, "hang_jacks", ("bye",), default=None),
        bye_wins=reader.flag(bye, "win", ("bye",), True),
        tiebreaks=_tiebreaks(reader, data), **knockout, teams=teams,
        rounds=rounds, prizes=_prizes(reader, data),
        late_forfeits=late,
        forfeits=_forfeits(reader, data, late, "late" in forfeits, teams, rounds))


def _late_rule(reader: _Reader, forfeits: Mapping[str, Any]) -> int | str | None:
    """``[event.forfeits] late``: a number of bullseye points, or "match"."""
    value = forfeits.get("late")
    if value is None or value == "match":
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    reader.add("AFN605" if isinstance(value, (int, str)) else "AFN604",
               f"the rule for lateness must be a number of bullseyes or \"match\", not "
               f"{value!r}", ("event", "forfeits", "late"),
               'write late = 2 (the late side forfeits 2 bullseyes) or late = "match"')
    return None


def _forfeits(reader: _Reader, data: Mapping[str, Any], late: int | str | None,
              late_written: bool, teams: tuple[Team, ...],
              rounds: tuple[Round, ...]) -> tuple[Forfeit, ...]:
    """``[[forfeit]]``: each a late team (or a table of it) in a round, with a reason."""
    found = []
    names = {team.name for team in teams}
    for path, entry in reader.tables(data, "forfeit", (), _FORFEIT):
        team = reader.text_value(entry, "team", path, required=True)
        raw_round = entry.get("round")
        round_name = (str(raw_round).strip() if isinstance(raw_round, (str, int))
                      and not isinstance(raw_round, bool) else
                      reader.text_value(entry, "round", path))
        table = reader.number(entry, "table", path, default=None, least=1)
        reason = reader.text_value(entry, "reason", path)
        place = place_of(reader.places, path)
        if team is None:
            continue
        if late is None and not late_written:
            reader.add("AFN615", "a forfeit for lateness, and the event has no rule for it",
                       path, 'say what lateness costs: [event.forfeits] late = 2 (bullseyes) '
                       'or late = "match"')
        if team not in names:
            reader.add("AFN615", f"the forfeit names no team of the event ('{team}')",
                       (*path, "team"), _known_teams(names), value=team)
            continue
        if rounds:
            playing = [r.name for r in rounds for m in r.matches if team in (m.home, m.away)]
            if round_name is None and len(playing) != 1:
                reader.add("AFN615", f"'{team}' plays in {len(playing)} rounds and the "
                           "forfeit names none", path, 'name its round: round = "2"')
                continue
            if round_name is not None and round_name not in playing:
                reader.add("AFN615", f"'{team}' plays no match in round '{round_name}'",
                           (*path, "round"), "the rounds it plays: "
                           + (", ".join(playing) or "none"))
                continue
            round_name = round_name or playing[0]
        found.append(Forfeit(team, round_name, table, reason, place.line if place else 1))
    return tuple(found)


def _scheduled(reader: _Reader, rounds: tuple[Round, ...],
               knockout_rounds: tuple[str, ...]) -> tuple[Round, ...]:
    """The rounds, once each knock-out round is found among them (when a schedule is
    written: without one, the games' tags name the rounds)."""
    have = {r.name for r in rounds}
    for name in knockout_rounds if rounds else ():
        if name not in have:
            reader.add("AFN605", f"the knock-out names a round the schedule does not have "
                       f"('{name}')", ("knockout", "rounds"),
                       f"the rounds are: {', '.join(r.name for r in rounds)}", value=name)
    return rounds


def _rules(reader: _Reader, head: Mapping[str, Any],
           folder: FilePath) -> tuple[str | None, Profile | None]:
    path: Path = ("event",)
    rules = reader.text_value(head, "rules", path)
    rules_file = reader.text_value(head, "rules_file", path)
    if rules and rules_file:
        reader.add("AFN605", "name either 'rules' or 'rules_file', not both",
                   (*path, "rules_file"), "keep the one the event plays by")
    if rules_file:
        try:
            house_text = (folder / rules_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            reader.add("AFN613", f"cannot read the house-rules file '{rules_file}'",
                       (*path, "rules_file"), "the path is read from the event file's folder")
            return None, None
        house = load_house_rules(house_text, str(folder / rules_file))
        reader.found.extend(house.diagnostics)
        if house.profile is not None and house.profile.options.players != 4:
            reader.add("AFN605", "the house rules are not for four players in pairs",
                       (*path, "rules_file"), "an event of pairs plays four-handed rules")
        return None, house.profile
    if rules is None:
        reader.add("AFN603", "the event's rules are not named", path,
                   f"add rules = \"trinidad14\" (profiles: {', '.join(PROFILES)}) or "
                   "rules_file = \"house.toml\"")
        return None, None
    profile = PROFILES.get(rules.lower())
    if profile is None:
        reader.add("AFN605", f"unknown rule profile '{rules}'", (*path, "rules"),
                   f"the profiles are: {', '.join(PROFILES)}; or name a rules_file")
        return None, None
    if profile.options.players != 4:
        reader.add("AFN605", f"'{rules}' is not played four-handed in pairs", (*path, "rules"),
                   "teams play in pairs: name a four-handed profile such as trinidad14")
    return profile.name, None


def _match_rule(reader: _Reader, match: Mapping[str, Any]) -> tuple[str, int | None, int | None]:
    rule = reader.text_value(match, "rule", ("match",)) or "race"
    target = reader.number(match, "target", ("match",), default=None, least=1)
    games = reader.number(match, "games", ("match",), default=None, least=1)
    if rule not in MATCH_RULES:
        reader.add("AFN605", f"unknown match rule '{rule}'", ("match", "rule"),
                   f"the rules are: {', '.join(MATCH_RULES)}")
        return "race", target, games
    if rule in ("race", "best_of") and target is None and "target" not in match:
        reader.add("AFN603", f"a '{rule}' match needs its target", ("match",),
                   "add target = 18 (race: bullseye points that win; best_of: N games)")
    if rule == "games" and games is None and "games" not in match:
        reader.add("AFN603", "a 'games' match needs the games each table plays", ("match",),
                   "add games = 7")
    if rule == "best_of" and target is not None and target % 2 == 0:
        reader.add("AFN605", f"best of {target}: an even number can end level",
                   ("match", "target"), "write an odd number: best of 3, 5 or 7")
    return rule, target, games


def _tiebreaks(reader: _Reader, data: Mapping[str, Any]) -> tuple[str, ...]:
    standings = reader.table(data, "standings", (), _STANDINGS)
    chain = reader.names(standings, "tiebreaks", ("standings",))
    if not chain:
        return DEFAULT_TIEBREAKS
    known = []
    for specifier in chain:
        if specifier not in TIEBREAKS:
            reader.add("AFN611", f"unknown tie-break '{specifier}'", ("standings", "tiebreaks"),
                       f"the tie-breaks are: {', '.join(TIEBREAKS)}", value=specifier)
        elif specifier in known:
            reader.add("AFN611", f"tie-break '{specifier}' named twice",
                       ("standings", "tiebreaks"), "name each tie-break once", value=specifier)
        else:
            known.append(specifier)
    return tuple(known)


def _knockout(reader: _Reader, data: Mapping[str, Any],
              teams: tuple[Team, ...]) -> dict[str, Any]:
    """``[knockout] teams = 8`` (and ``from = "A"``, a division): the bracket seeded from
    the standings, 1 v 8, 4 v 5, 3 v 6, 2 v 7."""
    knockout = reader.table(data, "knockout", (), _KNOCKOUT)
    size = reader.number(knockout, "teams", ("knockout",), default=None, least=2)
    if knockout and size is None and "teams" not in knockout:
        reader.add("AFN603", "the knock-out does not say how many teams it takes",
                   ("knockout",), "add teams = 8")
    if size is not None and size & (size - 1):
        reader.add("AFN605", f"a knock-out of {size} teams cannot be halved round by round",
                   ("knockout", "teams"), "write a power of two: 2, 4, 8, 16")
        size = None
    source = reader.text_value(knockout, "from", ("knockout",))
    divisions = {team.division for team in teams}
    if source is not None and source not in divisions:
        reader.add("AFN605", f"the knock-out is seeded from a division the event does not "
                   f"have ('{source}')", ("knockout", "from"),
                   f"the divisions are: {', '.join(sorted(divisions))}; leave it out to "
                   "seed from the overall standings")
        source = None
    rounds = reader.names(knockout, "rounds", ("knockout",))
    if len(set(rounds)) < len(rounds):
        reader.add("AFN610", "a knock-out round is named twice", ("knockout", "rounds"),
                   "name each of the knock-out's rounds once, the first round first")
        rounds = tuple(dict.fromkeys(rounds))
    if size is not None and len(rounds) > size.bit_length() - 1:
        reader.add("AFN605", f"a knock-out of {size} teams has {size.bit_length() - 1} "
                   f"round{'s' if size > 2 else ''}, not {len(rounds)}",
                   ("knockout", "rounds"), "name one round for each halving, the final last")
        rounds = rounds[:size.bit_length() - 1]
    return {"knockout_teams": size, "knockout_from": source, "knockout_rounds": rounds}


def _teams(reader: _Reader, data: Mapping[str, Any]) -> tuple[Team, ...]:
    teams: list[Team] = []
    seen_players: dict[str, str] = {}
    for path, entry in reader.tables(data, "team", (), _TEAM):
        name = reader.text_value(entry, "name", path, required=True)
        division = reader.text_value(entry, "division", path) or "Open"
        players = reader.names(entry, "players", path, required=True)
        substitutes = reader.names(entry, "substitutes", path)
        if name is None:
            continue
        if any(team.name == name for team in teams):
            reader.add("AFN606", f"team '{name}' is named twice", (*path, "name"),
                       "give each team its own name")
            continue
        for player in (*players, *substitutes):
            other = seen_players.setdefault(player, name)
            if other != name:
                reader.add("AFN607", f"'{player}' plays for '{other}' and '{name}'",
                           (*path, "players" if player in players else "substitutes"),
                           "a player is on one team; spell namesakes apart", value=player)
        teams.append(Team(name, division, players, _pairs(reader, entry, path,
                                                          (*players, *substitutes)),
                          substitutes))
    if not teams and "team" not in data:
        reader.add("AFN614", "the event has no teams", (),
                   "add a [[team]] section with name, division and players for each team")
    return tuple(teams)


def _pairs(reader: _Reader, entry: Mapping[str, Any], path: Path,
           members: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    value = entry.get("pairs")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(n, str) for n in p)
            for p in value):
        reader.add("AFN604", "'pairs' must be a list of two-name lists", (*path, "pairs"),
                   'write pairs = [["Ann", "Ben"], ["Cora", "Dev"]]')
        return ()
    pairs = []
    for first, second in value:
        for player in (first, second):
            if player not in members:
                reader.add("AFN608", f"the pair names '{player}', who is not in the team",
                           (*path, "pairs"), "list the player under players or substitutes",
                           value=player)
        pairs.append((first, second))
    return tuple(pairs)


def _rounds(reader: _Reader, data: Mapping[str, Any],
            teams: tuple[Team, ...]) -> tuple[Round, ...]:
    names = {team.name for team in teams}
    by_name = {team.name: team for team in teams}
    rounds: list[Round] = []
    for index, (path, entry) in enumerate(reader.tables(data, "round", (), _ROUND)):
        label = entry.get("name", str(index + 1))
        label = str(label) if isinstance(label, (str, int)) else str(index + 1)
        playing: dict[str, Path] = {}
        matches = []
        for match_path, match in reader.tables(entry, "match", path, _ROUND_MATCH):
            home = reader.text_value(match, "home", match_path, required=True)
            away = reader.text_value(match, "away", match_path, required=True)
            tables = reader.number(match, "tables", match_path, default=None, least=1)
            for side, team in (("home", home), ("away", away)):
                if team is None:
                    continue
                if team not in names:
                    reader.add("AFN609", f"round {label}: no team is called '{team}'",
                               (*match_path, side), _known_teams(names))
                elif team in playing:
                    reader.add("AFN610", f"round {label}: '{team}' plays twice",
                               (*match_path, side), "a team plays one match a round")
                playing.setdefault(team or "", match_path)
            if home is not None and away is not None:
                place = place_of(reader.places, match_path)
                matches.append(ScheduledMatch(
                    label, home, away, tables, reader.text_value(match, "name", match_path),
                    place.line if place else 1,
                    _seating(reader, match, match_path, by_name.get(home),
                             by_name.get(away), tables)))
        byes = reader.names(entry, "byes", path)
        for team in byes:
            if team not in names:
                reader.add("AFN609", f"round {label}: the bye names no team '{team}'",
                           (*path, "byes"), _known_teams(names), value=team)
            elif team in playing:
                reader.add("AFN610", f"round {label}: '{team}' has a bye and plays",
                           (*path, "byes"), "a team with a bye plays no match that round",
                           value=team)
        if any(r.name == label for r in rounds):
            reader.add("AFN610", f"round '{label}' is named twice", (*path, "name"),
                       "give each round its own name")
        rounds.append(Round(label, tuple(matches), byes))
    return tuple(rounds)


def _seating(reader: _Reader, match: Mapping[str, Any], path: Path, home: Team | None,
             away: Team | None, tables: int | None,
             ) -> tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]:
    """``seating = [{ table = 1, home = ["Ann", "Ben"], away = ["Eli", "Fay"] }, …]``: the
    pairs the schedule seats at each table it names."""
    seated = []
    seen: set[int] = set()
    for entry_path, entry in reader.tables(match, "seating", path, _SEATING):
        table = reader.number(entry, "table", entry_path, default=None, least=1)
        if table is None:
            if "table" not in entry:
                reader.add("AFN603", "a seating does not name its table", entry_path,
                           "add table = 1 to each seating")
            continue
        if tables is not None and table > tables:
            reader.add("AFN605", f"the match has {tables} tables, not a table {table}",
                       (*entry_path, "table"), "seat the tables the match has")
            continue
        if table in seen:
            reader.add("AFN610", f"table {table} is seated twice", (*entry_path, "table"),
                       "seat each table once")
            continue
        seen.add(table)
        pairs = []
        for side, team in (("home", home), ("away", away)):
            pair = reader.names(entry, side, entry_path, required=True)
            if len(pair) != 2:
                if pair:
                    reader.add("AFN604", f"a seating's {side} pair must name two players",
                               (*entry_path, side), f'write {side} = ["...", "..."]')
                break
            for player in pair:
                if team is not None and player not in team.members:
                    reader.add("AFN608", f"the seating names '{player}', who is not in "
                               f"{team.name}", (*entry_path, side),
                               "list the player under the team's players or substitutes",
                               value=player)
            pairs.append(pair)
        if len(pairs) == 2:
            seated.append((table, pairs[0], pairs[1]))
    return tuple(seated)


def _known_teams(names: set[str]) -> str:
    shown = ", ".join(sorted(names)[:8])
    return f"the teams are: {shown}{', …' if len(names) > 8 else ''}"


def _prizes(reader: _Reader, data: Mapping[str, Any]) -> tuple[Prize, ...]:
    prizes = []
    for path, entry in reader.tables(data, "prize", (), _PRIZE):
        kind = reader.text_value(entry, "kind", path, required=True)
        if kind is None:
            continue
        if kind not in PRIZE_KINDS:
            reader.add("AFN612", f"unknown prize '{kind}'", (*path, "kind"),
                       f"the prizes are: {', '.join(PRIZE_KINDS)}")
            continue
        for key in ("suit", "card", "cards", "by"):
            if key in entry and key not in PRIZE_KINDS[kind]:
                reader.add("AFN612", f"a '{kind}' prize takes no '{key}'", (*path, key),
                           f"its parameters: {', '.join(PRIZE_KINDS[kind]) or 'none'}")
        suit = card = None
        by = "pair"
        if "suit" in PRIZE_KINDS[kind]:
            text = reader.text_value(entry, "suit", path, required=True) or ""
            suit = next((s for s in Suit if s.value == text.upper()[:1]), None)
            if text and (suit is None or len(text) != 1):
                suit = None
                reader.add("AFN612", f"'{text}' is not a suit", (*path, "suit"),
                           "write S, H, D or C")
        if "card" in PRIZE_KINDS[kind]:
            text = reader.text_value(entry, "card", path, required=True) or ""
            parsed = parse_card(text) if text else None
            if text and parsed is None:
                reader.add("AFN612", f"'{text}' is not a card", (*path, "card"),
                           "write a card as AFN does: 9S, JD, TH")
            card = str(parsed) if parsed else None
        cards: list[str] = []
        if "cards" in PRIZE_KINDS[kind]:
            for text in reader.names(entry, "cards", path, required=True):
                parsed = parse_card(text)
                if parsed is None:
                    reader.add("AFN612", f"'{text}' is not a card", (*path, "cards"),
                               "write cards as AFN does: QS, KD, AH", value=text)
                else:
                    cards.append(str(parsed))
            if not cards:
                continue
        if "by" in PRIZE_KINDS[kind]:
            by = reader.text_value(entry, "by", path) or "pair"
            if by not in _BY:
                reader.add("AFN612", f"'by' must be pair or team, not '{by}'", (*path, "by"),
                           "write by = \"pair\" or by = \"team\"")
                by = "pair"
        if (suit is None and "suit" in PRIZE_KINDS[kind]) or (
                card is None and "card" in PRIZE_KINDS[kind]):
            continue
        name = reader.text_value(entry, "name", path) or kind.replace("_", " ")
        prizes.append(Prize(name, kind, suit, card, by, tuple(cards)))
    return tuple(prizes)
