"""The event file: what it reads, and each of its diagnostics (AFN601-AFN615) fires at
the line and column of the mistake, with a hint and a caret snippet."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from allfours_notation.cards import Suit
from allfours_notation.events.eventfile import (
    DEFAULT_TIEBREAKS,
    read_event_file,
    read_event_text,
)
from allfours_notation.events.positions import key_places
from tests.conftest import examples

GOOD = """\
format = 1

[event]
name = "Test night"
venue = "Arima"
dates = ["2026-11-21"]
rules = "trinidad14"

[event.scoring]
game = 2
hang_jack = 6

[match]
rule = "race"
target = 22

[[team]]
name = "Red"
division = "A"
players = ["Ann", "Ben", "Cora", "Dev"]
pairs = [["Ann", "Ben"], ["Cora", "Dev"]]
substitutes = ["Sub"]

[[team]]
name = "Blue"
division = "A"
players = ["Eli", "Fay", "Gus", "Hal"]

[[round]]
name = "1"

[[round.match]]
home = "Red"
away = "Blue"
tables = 2

[[prize]]
name = "First Hang Jack of Clubs"
kind = "first_hang_jack"
suit = "C"
"""


def only(text: str) -> tuple[str, int | None, int | None, str]:
    """The one diagnostic ``text`` gives: code, line, column and its rendering."""
    found = read_event_text(text, "EVENT.toml")
    assert len(found.diagnostics) == 1, [d.render(text) for d in found.diagnostics]
    (diagnostic,) = found.diagnostics
    assert diagnostic.hint and diagnostic.file == "EVENT.toml"
    return diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.render(text)


def test_a_good_file_is_read_with_its_defaults() -> None:
    found = read_event_text(GOOD)
    assert found.diagnostics == () and not found.has_errors
    event = found.event
    assert event is not None
    assert (event.name, event.rules, event.game_value, event.hang_jack_value) == (
        "Test night", "trinidad14", 2, 6)
    assert (event.match_rule, event.target, event.bye_bullseyes) == ("race", 22, 22)
    assert event.tiebreaks == DEFAULT_TIEBREAKS and event.bye_hang_jacks is None
    red = event.team("Red")
    assert red is not None and red.pairs == (("Ann", "Ben"), ("Cora", "Dev"))
    assert red.members == ("Ann", "Ben", "Cora", "Dev", "Sub")
    assert [(m.round, m.home, m.away, m.tables, m.line) for r in event.rounds
            for m in r.matches] == [("1", "Red", "Blue", 2, 32)]
    assert event.prizes[0].suit is Suit.CLUBS
    assert event.given_rules == ("trinidad14", {})


def test_not_toml_is_afn601_at_its_position() -> None:
    code, line, column, shown = only(GOOD.replace('venue = "Arima"', "venue = Arima"))
    assert (code, line, column) == ("AFN601", 5, 9)
    assert "not valid TOML" in shown and "^" in shown


def test_a_number_too_long_to_convert_is_afn601_at_its_first_digit() -> None:
    """tomllib raises a bare ValueError past 4,300 digits: it was AFN901 (issue 41)."""
    text = GOOD.replace('venue = "Arima"', 'venue = "Arima"\nyear = ' + "9" * 5_000)
    code, line, column, shown = only(text)
    assert (code, line, column) == ("AFN601", 6, 8)
    assert "a number of 5,000 digits" in shown


def test_a_missing_file_is_afn601(tmp_path: Path) -> None:
    found = read_event_file(tmp_path / "nothing.toml")
    assert found.event is None and [d.code for d in found.diagnostics] == ["AFN601"]


@pytest.mark.parametrize(("old", "new", "code", "line", "column"), [
    # an unknown key, at the key (a typo is never ignored)
    ('venue = "Arima"', 'venu = "Arima"', "AFN602", 5, 1),
    ("target = 22", "target = 22\ntargett = 3", "AFN602", 16, 1),
    # a missing key: at its section
    ('home = "Red"\n', "", "AFN603", 32, 1),
    ('rules = "trinidad14"', "", "AFN603", 3, 1),
    ("target = 22", "", "AFN603", 13, 1),
    # a value of the wrong type: at its key
    ("game = 2", 'game = "two"', "AFN604", 10, 1),
    ('dates = ["2026-11-21"]', "dates = 2026", "AFN604", 6, 1),
    ('pairs = [["Ann", "Ben"], ["Cora", "Dev"]]', 'pairs = ["Ann"]', "AFN604", 21, 1),
    ('rules = "trinidad14"', 'rules = "trinidad14"\nforfeits = "yes"', "AFN604", 8, 1),
    # a value out of range or unknown
    ('rules = "trinidad14"', 'rules = "whist"', "AFN605", 7, 1),
    ('rules = "trinidad14"', 'rules = "hoffmann1909"', "AFN605", 7, 1),
    ('rule = "race"', 'rule = "sprint"', "AFN605", 14, 1),
    ("target = 22", "target = 0", "AFN605", 15, 1),
    ('rule = "race"\ntarget = 22', 'rule = "best_of"\ntarget = 4', "AFN605", 15, 1),
    ("format = 1", "format = 2", "AFN605", 1, 1),
    # two teams of one name; a player in two teams; a pair with a stranger
    ('players = ["Eli", "Fay", "Gus", "Hal"]', 'players = ["Eli", "Fay", "Gus", "Ann"]',
     "AFN607", 27, 33),
    ('pairs = [["Ann", "Ben"], ["Cora", "Dev"]]', 'pairs = [["Ann", "Ben"], ["Cora", "Zed"]]',
     "AFN608", 21, 35),
    # the schedule: an unknown team; a team twice in a round
    ('away = "Blue"', 'away = "Green"', "AFN609", 34, 1),
    ('away = "Blue"', 'away = "Red"', "AFN610", 34, 1),
    # a knock-out: not a power of two, from a division there is not, without its size
    ("[match]", "[knockout]\nteams = 6\n\n[match]", "AFN605", 14, 1),
    ("[match]", '[knockout]\nteams = 4\nfrom = "Z"\n\n[match]', "AFN605", 15, 1),
    ("[match]", '[knockout]\nfrom = "A"\n\n[match]', "AFN603", 13, 1),
    # its rounds: more than its halvings, one named twice, one the schedule does not have
    ("[match]", '[knockout]\nteams = 2\nrounds = ["1", "Final"]\n\n[match]', "AFN605", 15, 1),
    ("[match]", '[knockout]\nteams = 4\nrounds = ["1", "1"]\n\n[match]', "AFN610", 15, 1),
    ("[match]", '[knockout]\nteams = 4\nrounds = ["1", "Final"]\n\n[match]', "AFN605",
     15, 16),
    # an unknown tie-break
    ("[[team]]\nname = \"Red\"", '[standings]\ntiebreaks = ["wins", "luck"]\n\n[[team]]\n'
     'name = "Red"', "AFN611", 18, 22),
    # prizes: an unknown kind, a parameter it does not take, a bad suit, a bad card
    ('kind = "first_hang_jack"', 'kind = "best_dressed"', "AFN612", 39, 1),
    ('suit = "C"', 'suit = "C"\ncard = "9S"', "AFN612", 41, 1),
    ('suit = "C"', 'suit = "X"', "AFN612", 40, 1),
    ('kind = "first_hang_jack"\nsuit = "C"', 'kind = "named_kick"\ncard = "9Z"',
     "AFN612", 40, 1),
    ('kind = "first_hang_jack"\nsuit = "C"', 'kind = "first_hang_with"\ncards = ["QS", "Q"]',
     "AFN612", 40, 16),
])
def test_each_mistake_is_one_diagnostic_at_its_key(old: str, new: str, code: str, line: int,
                                                    column: int) -> None:
    assert old in GOOD
    found = only(GOOD.replace(old, new, 1))
    assert found[:3] == (code, line, column), found[3]
    assert found[3].splitlines()[0].startswith(f"EVENT.toml:{line}:{column}: ")


def test_an_unreadable_house_rules_file_is_afn613(tmp_path: Path) -> None:
    event = tmp_path / "EVENT.toml"
    event.write_text(GOOD.replace('rules = "trinidad14"', 'rules_file = "house.toml"'),
                     encoding="utf-8")
    found = read_event_file(event)
    assert [(d.code, d.line) for d in found.diagnostics] == [("AFN613", 7)]


def test_a_house_rules_file_is_read_and_its_own_mistakes_kept(tmp_path: Path) -> None:
    event = tmp_path / "EVENT.toml"
    event.write_text(GOOD.replace('rules = "trinidad14"', 'rules_file = "house.toml"'),
                     encoding="utf-8")
    (tmp_path / "house.toml").write_text(
        'name = "arima"\ndescription = "Arima club"\nbase = "trinidad14"\n[options]\n'
        'target = 10\n', encoding="utf-8")
    found = read_event_file(event)
    assert not found.has_errors and found.event is not None
    assert found.event.house is not None and found.event.house.options.target == 10
    (tmp_path / "house.toml").write_text('name = "arima"\nbase = "nowhere"\n',
                                         encoding="utf-8")
    assert {d.code[:4] for d in read_event_file(event).diagnostics} == {"AFN5"}


def test_a_team_named_twice_is_afn606_and_a_team_without_a_name_afn603() -> None:
    twice = GOOD + '\n[[team]]\nname = "Red"\nplayers = ["Ike"]\n'
    assert [(d.code, d.line) for d in read_event_text(twice).diagnostics] == [("AFN606", 43)]
    nameless = GOOD + '\n[[team]]\nplayers = ["Ike"]\n'
    assert [(d.code, d.line) for d in read_event_text(nameless).diagnostics] == [
        ("AFN603", 42)]


def test_no_teams_is_afn614() -> None:
    text = GOOD[:GOOD.index("[[team]]")]
    assert [d.code for d in read_event_text(text).diagnostics] == ["AFN614"]


def test_a_bye_that_plays_is_afn610_and_an_unknown_bye_afn609() -> None:
    plays = GOOD.replace('[[round]]\nname = "1"', '[[round]]\nname = "1"\nbyes = ["Red"]')
    assert [(d.code, d.line, d.column) for d in read_event_text(plays).diagnostics] == [
        ("AFN610", 31, 9)]
    unknown = GOOD.replace('[[round]]\nname = "1"', '[[round]]\nname = "1"\nbyes = ["Tan"]')
    assert [d.code for d in read_event_text(unknown).diagnostics] == ["AFN609"]


def test_several_mistakes_are_all_reported() -> None:
    text = GOOD.replace('venue = "Arima"', 'venu = "Arima"').replace("game = 2", "game = -1")
    assert [d.code for d in read_event_text(text).diagnostics] == ["AFN602", "AFN605"]


def test_key_places_follow_arrays_of_tables_and_multiline_values() -> None:
    text = ('[[round]]\nname = "1"\n[[round.match]]\nhome = "A"\n[[round.match]]\n'
            'home = "B"\nlist = [\n  "x = 1",\n]\n[[round]]\n[[round.match]]\nhome = "C"\n')
    places = key_places(text)
    assert places[("round", 0, "match", 1, "home")].line == 6
    assert places[("round", 1, "match", 0, "home")].line == 12
    assert ("round", 0, "match", 1, "x") not in places  # inside a multi-line value


@settings(max_examples=examples(200))
@given(st.data())
def test_any_text_gives_diagnostics_never_a_traceback(data: st.DataObject) -> None:
    """A good file cut, a piece of it pasted elsewhere, or a value swapped for another
    TOML value: read without an exception, every finding positioned in the text."""
    text = GOOD
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 40)))
        paste = data.draw(st.sampled_from([
            "", "1", "true", '"x"', "[]", "{}", "[1, 2]", '["Ann"]', "1979-05-27", "\n[x]\n",
            "\n[[team]]\n", "\n[[round.match]]\n", 'name = "Red"\n', text[start:end]]))
        text = text[:start] + paste + text[end:]
    found = read_event_text(text)
    lines = text.count("\n") + 1
    for diagnostic in found.diagnostics:
        assert diagnostic.code[:4] in ("AFN6", "AFN5") and diagnostic.hint is not None
        assert diagnostic.line is not None and 1 <= diagnostic.line <= lines
        diagnostic.render(text)


def test_a_knockout_is_read() -> None:
    text = GOOD.replace("[match]", '[knockout]\nteams = 8\nfrom = "A"\n\n[match]')
    found = read_event_text(text)
    assert found.diagnostics == () and found.event is not None
    assert (found.event.knockout_teams, found.event.knockout_from) == (8, "A")


SEATED = GOOD.replace("tables = 2\n", 'tables = 2\nseating = [\n'
                      '    { table = 1, home = ["Ann", "Ben"], away = ["Eli", "Fay"] },\n'
                      '    { table = 2, home = ["Cora", "Dev"], away = ["Gus", "Hal"] },\n]\n')


def test_an_explicit_seating_is_read() -> None:
    found = read_event_text(SEATED)
    assert found.diagnostics == () and found.event is not None
    (match,) = found.event.rounds[0].matches
    assert match.seated(1) == (("Ann", "Ben"), ("Eli", "Fay")) and match.seated(3) is None


@pytest.mark.parametrize(("old", "new", "code"), [
    ("{ table = 2,", "{", "AFN603"),
    ("{ table = 2,", "{ table = 3,", "AFN605"),
    ("{ table = 2,", "{ table = 1,", "AFN610"),
    ('home = ["Cora", "Dev"]', 'home = ["Cora"]', "AFN604"),
    ('away = ["Gus", "Hal"]', 'away = ["Gus", "Ann"]', "AFN608"),
])
def test_each_mistake_of_a_seating(old: str, new: str, code: str) -> None:
    found = read_event_text(SEATED.replace(old, new))
    assert [(d.code, d.line) for d in found.diagnostics] == [(code, 36)]  # at seating
