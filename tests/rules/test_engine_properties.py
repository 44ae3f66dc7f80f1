"""Properties of the incremental referee on generated games, clean and with slips:
feeding a game one event at a time gives what ``replay`` gives, and every dry run
foretells exactly what the event then gets."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allfours_notation.checking.parsing import parse
from allfours_notation.diagnostics import Diagnostic
from allfours_notation.generate import Knobs, generate_games, write_afn
from allfours_notation.reading.records import Game, Trick
from allfours_notation.referee import PROFILES, replay
from allfours_notation.referee.deal import GameOver, Table
from allfours_notation.referee.profiles import resolve_options
from allfours_notation.referee.replay import deal_events

TABLES = [(name, players) for name in PROFILES for players in (2, 3, 4)]
FAST = settings(deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def generated(seed: int, table: tuple[str, int], hands: float) -> Game:
    profile, players = table
    knobs = Knobs(hands=hands, unseen=0.2, seat_labels=0.6, trick_numbers=0.8)
    game = next(generate_games(seed, 1, profile=profile, players=players, knobs=knobs))
    return parse(write_afn(game)).games[0]


def with_slip(game: Game, where: int) -> Game:
    """``game`` with one card written a second time in a later trick (a recording slip)."""
    deals = list(game.deals)
    candidates = [i for i, d in enumerate(deals) if len(d.tricks) >= 2]
    if not candidates:
        return game
    index = candidates[where % len(candidates)]
    deal = deals[index]
    tricks = list(deal.tricks)
    first, later = tricks[0], tricks[1 + where % (len(tricks) - 1)]
    slipped = replace(later.plays[-1], card=first.plays[0].card)
    tricks[tricks.index(later)] = Trick(number=later.number,
                                        plays=(*later.plays[:-1], slipped))
    deals[index] = replace(deal, tricks=tuple(tricks))
    return replace(game, deals=tuple(deals))


@FAST
@given(seed=st.integers(0, 10_000), table=st.sampled_from(TABLES),
       hands=st.sampled_from([0.0, 0.5, 1.0]), slip=st.none() | st.integers(0, 50))
def test_events_one_by_one_match_the_replay_and_every_dry_run(
        seed: int, table: tuple[str, int], hands: float, slip: int | None) -> None:
    game = generated(seed, table, hands)
    if slip is not None:
        game = with_slip(game, slip)
    options, _ = resolve_options(game)
    referee = Table(game, options, keep_steps=False)
    seen: list[Diagnostic] = []
    events = [event for deal in game.deals for event in deal_events(deal)]
    for event in [*events, GameOver()]:
        foretold = referee.check(event)
        outcome = referee.apply(event)
        assert list(map(repr, foretold)) == list(map(repr, outcome.diagnostics))
        seen.extend(outcome.diagnostics)
    result = replay(game, options)
    rules = [d for d in result.diagnostics if not d.code.startswith("AFN4")]
    assert sorted(map(repr, seen)) == sorted(map(repr, rules))
    assert tuple(referee.scores.items()) == result.scores
    assert [d.points for d in referee.deals] == [d.points for d in result.deals]
    assert referee.winner == result.winner
    if slip is None:
        assert rules == []  # a generated game is legal
    else:
        assert all(d.code != "AFN399" for d in rules)
