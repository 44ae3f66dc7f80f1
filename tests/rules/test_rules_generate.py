"""The seeded generator of legal games (used by property tests and benchmarks)."""

from __future__ import annotations

from dataclasses import replace

from allfours_notation.checking.parsing import parse
from allfours_notation.generate import Knobs, generate_corpus, generate_games, write_afn
from allfours_notation.reading.records import Call, CallKind, Hand, Redeal, TurnUp
from allfours_notation.referee import Options, replay
from allfours_notation.referee.profiles import GameTie


def test_same_seed_same_games() -> None:
    first = [write_afn(g) for g in generate_games(42, 3, profile="foster", players=3)]
    again = [write_afn(g) for g in generate_games(42, 3, profile="foster", players=3)]
    other = [write_afn(g) for g in generate_games(43, 3, profile="foster", players=3)]
    assert first == again and first != other


def test_games_name_their_rules_and_result() -> None:
    [game] = generate_games(7, 1, profile="trinidad14")
    assert game.tag("Rules") == "trinidad14"
    assert [seat.letter for seat in game.seats] == ["N", "E", "S", "W"]
    result = replay(game)
    assert game.tag("Result") == (result.winner or "*")
    assert result.winner is not None  # games are played out to the target


def test_options_that_differ_from_the_profile_become_tags() -> None:
    options = replace(Options(), game_tie=GameTie.NOBODY, target=10)
    [game] = generate_games(1, 1, options=options)
    assert (game.tag("GameTie"), game.tag("Target")) == ("nobody", "10")
    assert replay(game).options == options


def test_corpus_by_deals() -> None:
    text = generate_corpus(3, n_deals=60)
    parsed = parse(text)
    assert parsed.ok and text.startswith("% AFN 1\n")
    deals = sum(len(game.deals) for game in parsed.games)
    assert 60 <= deals < 60 + 200
    assert len(parse(generate_corpus(3, n_games=4)).games) == 4


def test_knobs_switch_features_off_and_on() -> None:
    bare = Knobs(beg=0.0, claims=0.0, totals=0.0, hands=0.0, comments=0.0, glyphs=0.0,
                 stands_written=0.0, turned_jack=0.0)
    [game] = generate_games(5, 1, knobs=bare)
    assert all(deal.claim is None and deal.total is None for deal in game.deals)
    assert not any(isinstance(e, (Hand, Call)) for d in game.deals for e in d.opening)
    busy = Knobs(beg=1.0, gift=0.0, hands=1.0, comments=1.0, turned_jack=1.0)
    [game] = generate_games(5, 1, knobs=busy)
    assert any(isinstance(e, Call) and e.kind is CallKind.RUNS
               for d in game.deals for e in d.opening)
    turnups = [e for d in game.deals for e in d.opening if isinstance(e, TurnUp)]
    assert any(t.card.is_jack for t in turnups)
    assert any(d.trailing for d in game.deals)
    assert replay(parse(write_afn(game)).games[0]).diagnostics == ()


def test_bunches_are_generated_and_redealt() -> None:
    runs = Knobs(beg=1.0, gift=0.0)
    games = list(generate_games(1, 10, players=4, knobs=runs))
    bunches = [d for g in games for d in g.deals if isinstance(d.ending, Redeal)]
    assert bunches, "ten four-handed games of runs should hold at least one exhausted pack"
    assert all(replay(g).diagnostics == () for g in games[:5])
