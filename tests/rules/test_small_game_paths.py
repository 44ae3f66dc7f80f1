"""The referee's short ways for small games give what the long ways give.

A file of thousands of tiny games is mostly per-game fixed cost (issue 16), so the
seats are looked up instead of sorted, a game with nothing claimed skips the dispute
report's set-up, options for a number of players are made once per rule set, and a
game whose findings need no linking is numbered directly.  Each is held here to the
code it stands in for, on games of every small shape an adversary could vary.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from allfours_notation.cards import CLOCKWISE
from allfours_notation.checking.causes import _causes, _root_of, explain, link_causes, settled_kind
from allfours_notation.checking.parsing import parse
from allfours_notation.checking.slips import may_find_slips
from allfours_notation.diagnostics import Diagnostic, sort_key
from allfours_notation.reading.records import Game
from allfours_notation.reading.table import seats_of_game
from allfours_notation.referee.disputes import find_disputes
from allfours_notation.referee.profiles import PROFILES, resolve_options, seated
from allfours_notation.referee.replay import replay
from tests.conftest import examples

SAMPLES = Path(__file__).resolve().parents[2] / "samples"

_SEAT_WORDS = ("North", "East", "South", "West")
_CARDS = ("4S", "JH", "AD", "6C", "TS")
_OTHER_TAGS = ("Event", "Rules", "Result", "Score", "Target")


def _reference_seats(game: Game) -> tuple[object, ...]:
    """What ``seats_of_game`` was before it looked seats up: named, or used, sorted."""
    names = {tag.name for tag in game.tags}
    named: set[object] = {seat for seat in CLOCKWISE if seat.tag_name in names}
    if not named:
        for deal in game.deals:
            named.add(deal.dealer)
            named.update(getattr(event, "seat", None) for event in deal.opening)
            named.update(play.seat for play in deal.plays())
    return tuple(seat for seat in CLOCKWISE if seat in named)


@st.composite
def small_games(draw: st.DrawFn) -> str:
    """A tiny game: maybe a few tags, one or two deal headers with a dealer, maybe a
    turn-up, a call, a card or two played by a named seat, a claim or a total."""
    lines = []
    for name in draw(st.lists(st.sampled_from(_SEAT_WORDS + _OTHER_TAGS), max_size=3,
                              unique=True)):
        value = {"Rules": draw(st.sampled_from(["allfours", "trinidad14", "nosuch", ""])),
                 "Result": draw(st.sampled_from(["N", "*", "NS", "?"])),
                 "Score": draw(st.sampled_from(["N 3 S 2", "N x", ""])),
                 "Target": draw(st.sampled_from(["10", "x"]))}.get(name, "someone")
        lines.append(f'[{name} "{value}"]')
    for number in range(1, draw(st.integers(1, 2)) + 1):
        dealer = draw(st.sampled_from("NESW"))
        lines.append(f"deal {draw(st.integers(1, 99)) if number == 1 else number} "
                     f"dealer {dealer}")
        if draw(st.booleans()):
            lines.append(f"turn {draw(st.sampled_from(_CARDS))}")
            if draw(st.booleans()):
                lines.append(f"{draw(st.sampled_from('NESW'))} stands")
        for _ in range(draw(st.integers(0, 2))):
            lines.append(f"{draw(st.sampled_from('NESW'))}:{draw(st.sampled_from(_CARDS))}")
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["claim N high", "total N 1 S 0",
                                               "abandoned"])))
    lines.append("end")
    return "\n".join(lines) + "\n"


def _games(text: str) -> tuple[Game, ...]:
    return parse(text, filename="small.afn").games


@settings(max_examples=examples(60), deadline=None)
@given(small_games())
def test_seats_looked_up_are_the_seats_sorted(text: str) -> None:
    for game in _games(text):
        assert seats_of_game(game) == _reference_seats(game)


@settings(max_examples=examples(60), deadline=None)
@given(small_games())
def test_a_game_with_nothing_claimed_has_no_disputes_and_the_others_are_unchanged(
        text: str) -> None:
    for game in _games(text):
        if game.broken:
            continue
        replayed = replay(game, record_states=False)
        found = find_disputes(replayed)
        claimed = game.tag("Result") is not None or any(
            deal.claim is not None or deal.total is not None for deal in game.deals)
        if not claimed:
            assert found == []
        assert [d for d in replayed.diagnostics if d.code.startswith("AFN4")] == found


def test_options_for_a_number_of_players_are_the_profile_replaced() -> None:
    for profile in PROFILES.values():
        for players in (2, 3, 4):
            text = "".join(f'[{word} "x"]\n' for word in _SEAT_WORDS[:players]
                           if players != 3 or word != "West")
            game = _games(f'{text}[Rules "{profile.name}"]\ndeal 1 dealer N\nend\n')[0]
            options, _ = resolve_options(game)
            assert options == seated(replace(profile.options, players=players))
            assert resolve_options(game)[0] is options  # made once, then reused


def _reference_links(diagnostics: list[Diagnostic], replayed: object,
                     first_id: int) -> tuple[Diagnostic, ...]:
    """Every finding sorted, the linking rules asked, each numbered: the long way."""
    ordered = sorted(diagnostics, key=sort_key)
    causes = _causes(ordered, replayed, ()) if len(ordered) > 1 else {}  # type: ignore[arg-type]
    return tuple((d if p not in causes else
                  d.located(severity=settled_kind(d, ordered[_root_of(p, causes)])))
                 .linked(first_id + p, first_id + _root_of(p, causes) if p in causes else None)
                 for p, d in enumerate(ordered))


@settings(max_examples=examples(60), deadline=None)
@given(small_games(), st.integers(1, 50), st.booleans())
def test_findings_numbered_directly_are_the_findings_linked(text: str, first_id: int,
                                                            reverse: bool) -> None:
    for game in _games(text):
        if game.broken:
            continue
        replayed = replay(game, record_states=False)
        found = [*game.diagnostics, *replayed.diagnostics]
        if reverse:
            found.reverse()  # the order given must not matter
        expected = _reference_links(found, replayed, first_id)
        assert link_causes(found, replayed, first_id=first_id) == expected
        if not may_find_slips(found):
            assert explain(replayed, found, first_id=first_id) == expected


def test_the_samples_are_linked_as_the_long_way_links_them() -> None:
    for path in sorted(SAMPLES.glob("*.afn")):
        for game in parse(path.read_bytes(), filename=path.name).games:
            if game.broken:
                continue
            replayed = replay(game, record_states=False)
            found = [*game.diagnostics, *replayed.diagnostics]
            expected = _reference_links(found, replayed, 7)
            assert link_causes(found, replayed, first_id=7) == expected
