"""Property tests on generated games: legal games replay clean, scores add up, the
race is won in counting order, and injected irregularities are found where they are.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from allfours_notation.cards import FULL_PACK, Card, Seat
from allfours_notation.checking.parsing import parse
from allfours_notation.diagnostics import Diagnostic
from allfours_notation.generate import Knobs, generate_games, write_afn
from allfours_notation.reading.records import Award, Deal, Game, Hand, Play, Redeal, Trick
from allfours_notation.reading.table import side_of
from allfours_notation.referee import (
    PROFILES,
    GameReplay,
    StepKind,
    check_game,
    fill_seats,
    replay,
    trick_winner,
)
from allfours_notation.referee.profiles import BegsPerDeal, HangJack, Options, TurnupPoints
from allfours_notation.referee.replay import max_runs, seats_from_replay
from allfours_notation.referee.scoring import kick_value

TABLES = [(name, players) for name in PROFILES for players in (2, 4)] + [("foster", 3)]
FAST = settings(deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

knobs_strategy = st.builds(
    Knobs,
    beg=st.floats(0, 1), gift=st.floats(0, 1), beg_again=st.floats(0, 1),
    turned_jack=st.floats(0, 0.5), comments=st.floats(0, 0.5), glyphs=st.floats(0, 0.2),
    claims=st.floats(0, 1), totals=st.floats(0, 1), hands=st.floats(0, 1),
    unseen=st.floats(0, 0.5), seat_labels=st.floats(0, 1), trick_numbers=st.floats(0, 1),
    stands_written=st.floats(0, 1),
)


def one_game(seed: int, profile: str, players: int, knobs: Knobs | None = None) -> Game:
    return next(generate_games(seed, 1, profile=profile, players=players, knobs=knobs))


def parse_one(text: str) -> Game:
    return parse(text).games[0]


def deal_bound(options: Options) -> int:
    """The most one side can score in a deal with no penalties under ``options``."""
    turnups = 1 + max_runs(options.players)
    best_kick = max(kick_value(card, options) for card in FULL_PACK)
    if options.turnup_points is TurnupPoints.JACK1:
        kicks = 2 if options.begs_per_deal is BegsPerDeal.ONE else 4
    else:
        kicks = turnups * best_kick
    jack = 3 if options.hang_jack is HangJack.THREE else 1
    return kicks + 1 + 1 + 1 + jack + options.game_value  # + gift, High, Low


@pytest.mark.parametrize(("profile", "players"), TABLES)
@FAST
@given(seed=st.integers(0, 2**32 - 1), knobs=knobs_strategy)
def test_generated_games_replay_clean(profile: str, players: int, seed: int,
                                      knobs: Knobs) -> None:
    text = write_afn(one_game(seed, profile, players, knobs))
    parsed = parse(text)
    assert parsed.diagnostics == (), [d.headline() for d in parsed.diagnostics]
    result = replay(parsed.games[0])
    assert result.option_diagnostics == ()
    assert result.diagnostics == (), [d.headline() for d in result.diagnostics]
    check_scores(result)
    check_steps(result)


def check_scores(result: GameReplay) -> None:
    options = result.options
    bound = deal_bound(options)
    running = {side: 0 for side, _ in result.scores}
    winner = None
    for deal in result.deals:
        gained = {side: 0 for side in running}
        for point in deal.points:
            assert winner is None, "a point was scored after the game was decided"
            gained[point.side] += point.points
            running[point.side] += point.points
            if running[point.side] >= options.target:
                winner = point.side
        assert dict(deal.scores_after) == running  # totals are the sum of deal points
        assert all(value <= bound for value in gained.values()), (gained, bound)
        if deal.ending is None:
            assert all(value >= 0 for value in gained.values())
        if options == PROFILES["hoffmann1909"].options.__class__(players=options.players):
            assert max(gained.values()) <= 5  # rule 30
    assert result.winner == winner
    assert result.game.tag("Result") == (winner or "*")


def check_steps(result: GameReplay) -> None:
    """Each card played was legal in the state before it, for the seat to move."""
    previous = None
    for step in result.steps:
        if step.kind is StepKind.PLAY and previous is not None:
            before = previous.state
            seat, played = step.state.trick[-1]
            assert before.to_move is seat
            if before.legal:
                assert played in before.legal
        previous = step
    assert result.steps[-1].kind is StepKind.GAME_END
    assert result.steps[-1].state.scores == result.scores


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_fill_seats_names_every_player(seed: int) -> None:
    game = one_game(seed, "trinidad14", 4)
    unlabelled = replace(game, deals=tuple(
        replace(deal, tricks=tuple(replace(trick, plays=tuple(replace(play, seat=None)
                                                              for play in trick.plays))
                                   for trick in deal.tricks))
        for deal in game.deals))
    parsed = parse_one(write_afn(unlabelled))
    assert all(play.seat is None for deal in parsed.deals for play in deal.plays())
    filled = fill_seats(parsed)
    assert [p.seat for d in filled.deals for p in d.plays()] == \
        [p.seat for d in game.deals for p in d.plays()]
    assert seats_from_replay(replay(parsed, record_states=False)) == filled


def _unlabel_some(game: Game, rng: random.Random) -> Game:
    """``game`` with the seat taken off about half of its plays."""
    return replace(game, deals=tuple(
        replace(deal, tricks=tuple(replace(trick, plays=tuple(
            replace(play, seat=None) if rng.random() < 0.5 else play for play in trick.plays))
            for trick in deal.tricks))
        for deal in game.deals))


def test_seats_from_a_replay_are_the_filled_seats_on_every_sample() -> None:
    """fmt reads seats off its check's replay: where that replay lines up with the
    record it must name exactly the seats fill_seats names; where it does not, it
    says so (None) rather than guess."""
    root = Path(__file__).resolve().parents[2]
    rng = random.Random(7)
    lined_up = 0
    for path in sorted([*(root / "samples").glob("*.afn"), *(root / "tests").rglob("*.afn")]):
        for game in parse(path.read_text(encoding="utf-8", errors="replace")).games:
            if game.broken:
                continue
            for candidate in (game, _unlabel_some(game, rng)):
                from_replay = seats_from_replay(replay(candidate, record_states=False))
                if from_replay is not None:
                    lined_up += 1
                    assert from_replay == fill_seats(candidate), path.name
    assert lined_up >= 20


def test_a_short_trick_is_left_to_fill_seats() -> None:
    """A trick of three cards at a four-handed table is never completed: the replay
    cannot say who played its cards, so nothing is read off it."""
    game = one_game(11, "trinidad14", 4)
    deal = game.deals[0]
    short = replace(deal.tricks[0], plays=deal.tricks[0].plays[:3])
    cut = replace(game, deals=(replace(deal, tricks=(short, *deal.tricks[1:])),
                               *game.deals[1:]))
    assert seats_from_replay(replay(cut, record_states=False)) is None


# --- injected irregularities ------------------------------------------------------------------

RECORDED = Knobs(hands=1.0, unseen=0.0, seat_labels=1.0, trick_numbers=1.0, comments=0.0,
                 glyphs=0.0)


def complete_deals(game: Game) -> list[int]:
    return [i for i, deal in enumerate(game.deals) if deal.tricks and deal.ending is None]


def with_plays(game: Game, index: int, tricks: list[list[Play]]) -> Game:
    deal = game.deals[index]
    new_tricks = tuple(replace(trick, plays=tuple(plays))
                       for trick, plays in zip(deal.tricks, tricks, strict=True))
    deals = list(game.deals)
    deals[index] = replace(deal, tricks=new_tricks)
    return replace(game, deals=tuple(deals))


def inject_revoke(game: Game) -> tuple[Game, int, int, int] | None:
    """Swap two cards of one player so that he fails to follow suit in trick t."""
    for index in complete_deals(game):
        deal = game.deals[index]
        trump = deal.turnups[-1].card.suit
        tricks = [list(trick.plays) for trick in deal.tricks]
        for t, plays in enumerate(tricks):
            led = plays[0].card.suit
            for p, play in enumerate(plays[1:], start=1):
                if led is trump or play.card.suit is not led:
                    continue
                for u in range(t + 1, len(tricks)):
                    q = next(i for i, x in enumerate(tricks[u]) if x.seat is play.seat)
                    other = tricks[u][q]
                    if other.card.suit in (led, trump):
                        continue
                    new_t = [*plays]
                    new_u = [*tricks[u]]
                    new_t[p] = replace(play, card=other.card)
                    new_u[q] = replace(other, card=play.card)
                    if _winner(new_t, trump) is _winner(plays, trump) and \
                            _winner(new_u, trump) is _winner(tricks[u], trump):
                        changed = [*tricks]
                        changed[t], changed[u] = new_t, new_u
                        return with_plays(game, index, changed), index, t, p
    return None


def _winner(plays: list[Play], trump: object) -> Seat:
    return trick_winner([(p.seat, p.card) for p in plays if p.seat is not None], trump)  # type: ignore[arg-type]


def located(result_game: Game, code: str, index: int, t: int, p: int,
            found: list[Diagnostic]) -> None:
    """A diagnostic ``code`` at the play (trick ``t``, position ``p``) of deal ``index``."""
    deal = result_game.deals[index]
    span = deal.tricks[t].plays[p].span
    assert span is not None
    hits = [d for d in found if d.code == code and d.deal == deal.number and d.trick == t + 1]
    assert hits, [d.headline() for d in found]
    assert any((d.line, d.column) == (span.line, span.column) for d in hits)


@pytest.mark.parametrize("players", [2, 4])
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_an_injected_revoke_is_reported_at_its_trick(players: int, seed: int) -> None:
    injected = inject_revoke(one_game(seed, "hoffmann1909", players, RECORDED))
    assume(injected is not None)
    assert injected is not None
    game, index, t, p = injected
    parsed = parse_one(write_afn(game))
    found = check_game(parsed)
    located(parsed, "AFN306", index, t, p, list(found))
    deal = replay(parsed).deals[index]  # penalised, unless the game was already decided
    assert any(point.item.value == "penalty" for point in (*deal.points, *deal.unscored))


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_a_card_not_held_is_reported(seed: int) -> None:
    game = one_game(seed, "hoffmann1909", 2, RECORDED)
    candidates = complete_deals(game)
    assume(candidates)
    index = candidates[0]
    deal = game.deals[index]
    seen = {c for hand in deal.opening if isinstance(hand, Hand) for c in hand.cards}
    seen |= {t.card for t in deal.turnups}
    stock = [c for c in FULL_PACK if c not in seen]
    tricks = [list(trick.plays) for trick in deal.tricks]
    last = tricks[-1][-1]
    tricks[-1][-1] = replace(last, card=stock[0])
    parsed = parse_one(write_afn(with_plays(game, index, tricks)))
    located(parsed, "AFN301", index, len(tricks) - 1, len(tricks[-1]) - 1,
            list(check_game(parsed)))


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_a_duplicate_card_is_reported_once(seed: int) -> None:
    game = one_game(seed, "hoffmann1909", 2, replace(RECORDED, hands=0.0))
    candidates = complete_deals(game)
    assume(candidates)
    index = candidates[0]
    tricks = [list(trick.plays) for trick in game.deals[index].tricks]
    tricks[-1][-1] = replace(tricks[-1][-1], card=tricks[0][0].card)
    parsed_all = parse(write_afn(with_plays(game, index, tricks)))
    parsed = parsed_all.games[0]
    located(parsed, "AFN201", index, len(tricks) - 1, len(tricks[-1]) - 1,
            list(parsed_all.diagnostics))
    rules = check_game(parsed)
    assert not any("twice" in d.message for d in rules)


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_a_wrong_claim_is_reported_at_the_claim(seed: int) -> None:
    game = one_game(seed, "english10", 2, RECORDED)
    index = next((i for i, d in enumerate(game.deals)
                  if d.claim is not None and d.claim.awards), None)
    assume(index is not None)
    assert index is not None
    deal = game.deals[index]
    assert deal.claim is not None
    first = deal.claim.awards[0]
    other = Seat.NORTH if first.seat is Seat.SOUTH else Seat.SOUTH
    awards = (Award(other, first.item, first.points), *deal.claim.awards[1:])
    deals = list(game.deals)
    deals[index] = replace(deal, claim=replace(deal.claim, awards=awards))
    parsed = parse_one(write_afn(replace(game, deals=tuple(deals))))
    found = [d for d in check_game(parsed) if d.code == "AFN401"]
    claim_span = parsed.deals[index].claim.span  # type: ignore[union-attr]
    assert claim_span is not None
    assert any(d.deal == deal.number and d.line == claim_span.line for d in found)


@FAST
@given(seed=st.integers(0, 2**32 - 1), mutation=st.integers(0, 2**32 - 1),
       profile=st.sampled_from(sorted(PROFILES)), players=st.sampled_from([2, 3, 4]))
def test_the_replayer_never_breaks_on_mutated_records(seed: int, mutation: int, profile: str,
                                                      players: int) -> None:
    text = write_afn(one_game(seed, profile, players))
    rng = random.Random(mutation)
    lines = text.splitlines()
    for _ in range(rng.randint(1, 6)):
        choice = rng.randrange(5)
        at = rng.randrange(len(lines))
        if choice == 0:
            del lines[at]
        elif choice == 1:
            lines.insert(at, lines[rng.randrange(len(lines))])
        elif choice == 2:
            words = lines[at].split(" ")
            rng.shuffle(words)
            lines[at] = " ".join(words)
        elif choice == 3:
            card = str(rng.choice(FULL_PACK))
            lines[at] = lines[at].replace(lines[at].split(":")[-1][:2], card, 1)
        else:
            lines[at] = lines[at].replace("N", "S", 1)
    for game in parse("\n".join(lines)).games:
        if game.broken:
            continue
        result = replay(game)
        assert not [d for d in result.diagnostics if d.code == "AFN399"], \
            [d.message for d in result.diagnostics if d.code == "AFN399"]
        filled = fill_seats(game)
        from_replay = seats_from_replay(result)
        assert from_replay is None or from_replay == filled


def test_sides_of_generated_four_handed_games() -> None:
    game = one_game(5, "trinidad14", 4)
    result = replay(game)
    assert {side for side, _ in result.scores} == {"NS", "EW"}
    assert side_of(Seat.WEST, game.seats) == "EW"
    assert not any(isinstance(d.ending, Redeal) and d.tricks for d in game.deals)
    assert all(isinstance(t, Trick) and isinstance(d, Deal) and isinstance(c, Card)
               for d in game.deals for t in d.tricks for c in (t.plays[0].card,))


@FAST
@given(cards=st.lists(st.sampled_from(FULL_PACK), min_size=2, max_size=4, unique=True),
       trump=st.sampled_from([*sorted({c.suit for c in FULL_PACK}, key=str), None]))
def test_a_trick_goes_to_the_card_that_beats_the_one_winning_so_far(
        cards: list[Card], trump: object) -> None:
    """Rule 19 as a fold: who wins a trick is found card by card from the card winning
    so far and the next card alone, whatever came before.  The compiled accelerator keeps
    the referee's answers per such pair (accel/allfours_accel/_referee.c, winner_of); a
    change to the rule that breaks this must change that too."""
    seats = [Seat(label) for label in "NESW"][:len(cards)]
    plays = list(zip(seats, cards, strict=True))
    winning = plays[0]
    for play in plays[1:]:
        duel = [winning, play]
        if trick_winner(duel, trump) == play[0]:  # type: ignore[arg-type]
            winning = play
    assert trick_winner(plays, trump) == winning[0]  # type: ignore[arg-type]
