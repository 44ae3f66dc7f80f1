"""The worked events of ``samples/event/`` as golden files: each one's match sheets,
standings and prize list, and its ``results.json`` against the schema.

The club match (12 tables, six games a table, half time after three) and the league
division (five teams, races to 18 over three tables, a bye each round, the tie-break
chain deciding places).  Each event is read once per module."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from allfours_notation.events.eventfile import read_event_file
from allfours_notation.events.games import read_folder
from allfours_notation.events.report import (
    SCHEMA,
    EventReport,
    build_report,
    prizes_text,
    ratings_text,
    results_json,
    sheet_text,
    standings_text,
)
from tests.golden import check_golden

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "events"
EVENTS = ("club", "league")
OUTPUTS = {"sheet": sheet_text, "standings": standings_text, "prizes": prizes_text,
           "ratings": ratings_text}
# On one worker, where each event is read once (report()): spread over three, the league
# (0.5 s of CPU) and the club (0.2 s) were read on each.
pytestmark = pytest.mark.xdist_group("events-golden")


@functools.cache
def report(name: str) -> EventReport:
    loaded = read_event_file(Path("samples") / "event" / name / "EVENT.toml")
    assert loaded.diagnostics == () and loaded.event is not None
    games = ROOT / "samples" / "event" / name / "games"
    return build_report(loaded.event, read_folder(games, loaded.event.given_rules,
                                                  shown_from=ROOT))


@pytest.mark.parametrize("name", EVENTS)
@pytest.mark.parametrize("output", list(OUTPUTS))
def test_the_worked_events_outputs(name: str, output: str, update_goldens: bool) -> None:
    check_golden(OUTPUTS[output](report(name)), GOLDEN / f"{name}.{output}.txt",
                 update=update_goldens)


@pytest.mark.parametrize("name", EVENTS)
def test_the_worked_events_are_clean_and_their_results_follow_the_schema(name: str) -> None:
    found = report(name)
    assert found.assembled.diagnostics == () and found.assembled.unplaced == ()
    data = results_json(found)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(data)]
    assert errors == []
    assert (data["format"], data["version"]) == ("allfours-event-results", 1)


def test_the_schema_refuses_what_is_not_results() -> None:
    data = results_json(report("club"))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    data["matches"][0]["bullseyes"] = [1]  # type: ignore[index]
    assert list(Draft202012Validator(schema).iter_errors(data))


def test_the_club_match_in_figures() -> None:
    """What the golden files hold, said plainly: 72 games over 12 tables, every one
    counted, bullseyes summed over tables equal to the match total, the half-time line
    after three games a table."""
    (match,) = report("club").assembled.matches
    assert len(match.tables) == 12 and all(len(t.games) == 6 for t in match.tables)
    assert match.home_points + match.away_points == 72
    assert sum(t.total(True) for t in match.tables) == match.home_points
    half = match.half(3)
    assert half[0] + half[1] == 36


def test_the_league_race_stops_at_18_and_the_byes_are_credited() -> None:
    found = report("league")
    for match in found.assembled.matches:
        assert max(match.home_points, match.away_points) == 18 and match.finished
        assert min(match.home_points, match.away_points) < 18
    rows = {r.team: r for r in found.standings[0].rows}
    assert all(row.byes == 1 and row.played == 2 for name, row in rows.items()
               if name in ("Newark", "Bronx", "Flatbush"))
    bronx = [m for m in found.assembled.matches if "Bronx" in (m.home, m.away)]
    figures = [m.home_hang_jacks if m.home == "Bronx" else m.away_hang_jacks for m in bronx]
    assert rows["Bronx"].hang_jacks == sum(figures) + sum(figures) // len(figures)
    assert [r.decided_by for r in found.standings[0].rows].count("bullseyes_against") == 2
