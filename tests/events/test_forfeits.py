"""Forfeits for lateness: ``[[forfeit]]`` entries costed by the event's
``[event.forfeits] late`` rule (bullseyes credited to the other team, or the match), applied
in the sheet and the standings with their reason; each mistake in them a diagnostic."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.events.eventfile import Event, read_event_text
from allfours_notation.events.report import EventReport, match_sheet
from allfours_notation.events.standings import standings
from tests.events.test_assemble import EVENT, games, run, write


def late_event(rule: str, forfeits: str, match_rule: str = "games",
               target: int = 3) -> Event:
    text = EVENT.format(rule=match_rule, target=target, games=2).replace(
        "renege = true", f"renege = true\nlate = {rule}") + forfeits
    found = read_event_text(text)
    assert found.diagnostics == () and found.event is not None, found.diagnostics
    return found.event


LATE = '\n[[forfeit]]\nteam = "Blue"\nround = "1"\nreason = "arrived at 8.40"\n'


def played(tmp_path: Path) -> Path:
    write(tmp_path, "t1.afn", games(1, 2, 1))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    return tmp_path


def test_the_late_side_forfeits_bullseyes_to_the_other_team(tmp_path: Path) -> None:
    plain = run(late_event("3", ""), played(tmp_path)).matches[0]
    event = late_event("3", LATE)
    (match,) = run(event, tmp_path).matches
    assert (match.home_points, match.away_points) == (plain.home_points + 3,
                                                      plain.away_points)
    assert match.lateness[0].bullseyes == 3 and not match.lateness[0].match
    sheet = "\n".join(match_sheet(event, match))
    assert "forfeit: Blue late: forfeits 3 bullseyes to Red (arrived at 8.40)" in sheet
    red = next(r for r in standings(event, run(event, tmp_path))[0].rows if r.team == "Red")
    assert red.bullseyes_for == plain.home_points + 3


def test_a_race_starts_from_the_bullseyes_forfeited(tmp_path: Path) -> None:
    whole = run(late_event("2", "", "race", 99), played(tmp_path)).matches[0]
    totals, expected = [2, 0], None  # Red starts with Blue's 2 bullseyes
    for position in range(2):  # the games in turns, as the race takes them
        for table in whole.tables:
            game = table.games[position]
            totals[0] += game.home_points
            totals[1] += game.away_points
            if expected is None and max(totals) >= 3:
                expected = f"table {table.number}, game {position + 1}"
    (match,) = run(late_event("2", LATE, "race", 3), tmp_path).matches
    assert match.ended_at == expected and expected is not None
    counted = [g for t in match.tables for g in t.games if g.counts]
    assert match.home_points == 2 + sum(g.home_points for g in counted)


def test_the_late_team_forfeits_the_match_and_a_match_unplayed_is_in_the_standings(
        tmp_path: Path) -> None:
    event = late_event('"match"', LATE.replace("Blue", "Red"))
    (match,) = run(event, tmp_path).matches  # no game reported at all
    assert match.winner == "Blue" and match.finished
    assert match.lateness[0].text("Blue") == "Red late: forfeits the match (arrived at 8.40)"
    report = EventReport(event, run(event, tmp_path), (), ())
    rows = {r.team: r for r in standings(event, report.assembled)[0].rows}
    assert (rows["Blue"].wins, rows["Red"].losses, rows["Red"].played) == (1, 1, 1)
    (match,) = run(event, played(tmp_path)).matches  # and whatever was played
    assert match.winner == "Blue" and match.finished


def test_a_forfeit_that_falls_on_no_match_is_afn663(tmp_path: Path) -> None:
    text = EVENT.format(rule="games", target=3, games=2).split("[[round]]")[0]
    found = read_event_text(text.replace("renege = true", "late = 2")
                            + '\n[[forfeit]]\nteam = "Blue"\nround = "7"\n')
    assert found.event is not None and found.diagnostics == ()
    assembled = run(found.event, played(tmp_path))
    assert [(d.code, d.line) for d in assembled.diagnostics] == [("AFN663", 26)]


@pytest.mark.parametrize(("late", "forfeit", "code", "line", "column"), [
    ("2", 'team = "Green"\nround = "1"', "AFN615", 31, 8),  # a team the event lacks
    ("2", 'team = "Blue"\nround = "2"', "AFN615", 32, 1),  # a round it does not play
    (None, 'team = "Blue"', "AFN615", 29, 1),  # no rule for lateness
    ("0", 'team = "Blue"', "AFN605", 7, 1),  # a rule that costs nothing
    ('"game"', 'team = "Blue"', "AFN605", 7, 1),
    ("2", 'round = "1"', "AFN603", 30, 1),  # no team
    ("2", 'team = "Blue"\ntable = "one"', "AFN604", 32, 1),
    ("2", 'team = "Blue"\nlate = true', "AFN602", 32, 1),
])
def test_each_mistake_in_a_forfeit_is_one_diagnostic_at_its_key(
        late: str | None, forfeit: str, code: str, line: int, column: int) -> None:
    text = EVENT.format(rule="games", target=3, games=2)
    if late is not None:
        text = text.replace("renege = true", f"renege = true\nlate = {late}")
    text += f"\n[[forfeit]]\n{forfeit}\n"
    found = read_event_text(text)
    assert [(d.code, d.line, d.column) for d in found.diagnostics] == [(code, line, column)]
    assert found.diagnostics[0].hint
