"""The advisor (stand or beg, give or run): sanity on built hands, what the rules decide
outright, determinism, and a dealer who answers a beg from his own cards alone.

Cheap: a few sampled deals each, two players, a small pool of later deals."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import pytest

from allfours_notation.cards import Card, Seat, card, cards
from allfours_notation.checking.analysis.advisor import (
    Advice,
    AdviceError,
    Estimate,
    Position,
    advise,
    dealer_answer,
    position,
)
from allfours_notation.checking.analysis.advisor_play import World, table_at_turnup
from allfours_notation.checking.analysis.advisor_race import LaterDeals, Race
from allfours_notation.reading.records import Call, CallKind
from allfours_notation.reading.table import SEATS_FOR_PLAYERS
from allfours_notation.referee.deal import Table
from allfours_notation.referee.profiles import PROFILES, HandAfterRun, Options

# Foster's "usual practice" of cutting the hands back to six after a run keeps every
# sampled deal's play small (six cards each), so these tests stay cheap; a test of its own
# plays on with every card kept.
HOFFMANN = replace(PROFILES["hoffmann1909"].options, hand_after_run=HandAfterRun.DISCARD_TO_SIX)
FOSTER = replace(PROFILES["foster"].options, hand_after_run=HandAfterRun.DISCARD_TO_SIX)
KEEP_ALL = PROFILES["hoffmann1909"].options
TWO = SEATS_FOR_PLAYERS[2]
SAMPLES = 6


def cheap(pos: Position, seed: int, samples: int = SAMPLES) -> Advice:
    """Few sampled deals, a dealer who samples two, a small pool of later deals."""
    return advise(pos, samples=samples, seed=seed, dealer_samples=2, later=8, time_limit=2.0)


def elder(hand: str, turnup: str, scores: dict[str, int], options: Options = HOFFMANN,
          seat: Seat = Seat.SOUTH) -> Position:
    return position(options, TWO, Seat.NORTH, seat, cards(hand), card(turnup), scores)


def win(advice: Advice, option: str, side: str) -> float:
    return dict(advice.option(option).win)[side].mean


def test_an_elder_with_the_jack_and_ten_of_trumps_one_short_of_the_target_stands() -> None:
    """At 6 for 7 against 6 with J♠ T♠ 2♠: standing wins unless the dealer holds a higher
    trump (High is counted first); begging only lets the dealer run (a gift would put the
    elder out) and take the trumps away."""
    advice = cheap(elder("JS TS 2S 3H 4D 5C", "9S", {"N": 6, "S": 6}), 1, samples=40)
    assert [o.option for o in advice.options] == ["stands", "begs"]
    assert advice.best == "stands"
    stands, begs = (dict(advice.option(name).win)["S"] for name in ("stands", "begs"))
    assert stands.mean - begs.mean > 2 * math.hypot(stands.se, begs.se)
    # the modelled dealer never gives the point that would put the elder out
    assert dict(advice.option("begs").answers).get("gives", 0) == 0


def test_an_elder_who_holds_high_one_short_of_the_target_wins_by_standing() -> None:
    """A♠ is High, counted before anything the dealer can make: standing wins every
    sampled deal (probability 1, standard error 0); begging gives that away."""
    advice = cheap(elder("AS JS TS 3H 4D 5C", "9S", {"N": 6, "S": 6}), 1)
    assert advice.best == "stands"
    assert dict(advice.option("stands").win)["S"] == Estimate(1.0, 0.0, SAMPLES)
    assert win(advice, "begs", "S") < 1.0


def test_an_elder_without_a_trump_far_from_the_target_does_better_to_beg() -> None:
    """No trump, small cards, both sides at 0: standing hands the dealer High, Low and
    Jack and Game; a beg either scores the gift or deals new cards."""
    advice = cheap(elder("2H 3H 4D 5D 6C 7C", "AS", {}), 1)
    assert advice.best == "begs"
    stands = dict(advice.option("stands").points)
    begs = dict(advice.option("begs").points)
    assert begs["S"].mean > stands["S"].mean


def test_a_gift_that_puts_the_elder_out_wins_the_game_with_probability_one() -> None:
    """The dealer's 'give' at the elder's 6 for 7: the referee scores the gift and the game
    ends; every sampled deal agrees, so the standard error is 0."""
    dealer_pos = elder("9H 8H 7D 6D 5C 4C", "3S", {"S": 6, "N": 2}, seat=Seat.NORTH)
    advice = cheap(dealer_pos, 2)
    gives = advice.option("gives")
    assert dict(gives.win)["S"].mean == 1.0
    assert dict(gives.win)["S"].se == 0.0
    assert dict(gives.win)["N"].mean == 0.0
    assert gives.decided == SAMPLES
    assert advice.best == "runs"


def test_the_rules_decide_which_answers_there_are() -> None:
    """Under Foster's rules a gift may not put the elder out: the dealer can only run."""
    dealer_pos = elder("9H 8H 7D 6D 5C 4C", "3S", {"S": 6, "N": 2}, FOSTER, seat=Seat.NORTH)
    advice = cheap(dealer_pos, 2)
    assert [o.option for o in advice.options] == ["runs"]


def test_a_turned_jack_that_puts_the_dealer_out_leaves_nothing_to_choose() -> None:
    advice = cheap(elder("9H 8H 7D 6D 5C 4C", "JS", {"N": 6}), 0)
    assert advice.decided == "N"
    assert advice.options == ()
    assert advice.best is None


def test_the_same_seed_gives_the_same_advice_and_another_seed_other_deals() -> None:
    pos = elder("AS 9S 3H 4D 5C KD", "7S", {"N": 3, "S": 4})
    first = cheap(pos, 11)
    again = cheap(pos, 11)
    assert first.options == again.options
    assert first.best == again.best
    other = cheap(pos, 12)
    assert other.options != first.options


def test_every_estimate_carries_its_k_and_a_standard_error() -> None:
    advice = cheap(elder("AS 9S 3H 4D 5C KD", "7S", {"N": 3, "S": 4}), 5)
    for option in advice.options:
        for _, estimate in (*option.points, *option.win):
            assert estimate.samples + option.unsolved == SAMPLES
            assert not math.isnan(estimate.se)
            assert estimate.se >= 0
        # each side's chance of winning the game adds up to one
        assert sum(e.mean for _, e in option.win) == pytest.approx(1.0)


def _beg_table(elder_hand: str, dealer_hand: str, turnup: Card,
               scores: dict[str, int]) -> Table:
    known = {*cards(elder_hand), *cards(dealer_hand), turnup}
    stock = tuple(c for c in cards(" ".join(f"{r}{s}" for s in "SHDC"
                                            for r in "AKQJT98765432")) if c not in known)
    world = World(((Seat.NORTH, cards(dealer_hand)), (Seat.SOUTH, cards(elder_hand))), stock)
    table = table_at_turnup(HOFFMANN, TWO, Seat.NORTH, tuple(scores.items()), world, turnup)
    table.feed(Call(seat=Seat.SOUTH, kind=CallKind.BEGS))
    return table


def test_the_dealer_answers_a_beg_from_his_own_cards_only() -> None:
    """Two deals with the same dealer's hand, turn-up and score but very different elder
    hands (all the high trumps; no trump at all): a dealer who saw the elder's cards would
    run against the one and give to the other.  The modelled dealer answers both alike."""
    from allfours_notation.checking.analysis import advisor

    turnup = card("4S")
    dealer_hand = "9H 8H 7D 6D 5C 4C"
    scores = {"N": 3, "S": 5}
    strong = _beg_table("AS KS QS JS TS 9S", dealer_hand, turnup, scores)
    weak = _beg_table("2H 3H 2D 3D 2C 3C", dealer_hand, turnup, scores)
    pos = elder("AS KS QS JS TS 9S", "4S", scores)
    settings = advisor._Settings(4, 7, 2, 8, 2.0, time.process_time)
    policy = advisor._policy(pos, settings)
    answer_strong = policy(strong)
    settings_again = advisor._Settings(4, 7, 2, 8, 2.0, time.process_time)
    answer_weak = advisor._policy(replace(pos, hand=cards("2H 3H 2D 3D 2C 3C")),
                                  settings_again)(weak)
    assert answer_strong is answer_weak
    # and it is the dealer's own advice from the dealer's seat
    dealer_pos = position(HOFFMANN, TWO, Seat.NORTH, Seat.NORTH, cards(dealer_hand), turnup,
                          scores)
    assert dealer_answer(dealer_pos, seed=7, samples=4, later=8, time_limit=2.0) is answer_weak


def test_a_position_that_cannot_be_is_refused_with_a_code() -> None:
    cases: list[tuple[str, str, dict[str, int], Seat]] = [
        ("AFN701", "JS TS 2S 3H 4D", {}, Seat.SOUTH),
        ("AFN702", "JS JS 2S 3H 4D 5C", {}, Seat.SOUTH),
        ("AFN703", "JS TS 2S 3H 4D 9S", {}, Seat.SOUTH),
        ("AFN704", "JS TS 2S 3H 4D 5C", {}, Seat.EAST),
        ("AFN705", "JS TS 2S 3H 4D 5C", {"N": 7}, Seat.SOUTH),
        ("AFN705", "JS TS 2S 3H 4D 5C", {"EW": 1}, Seat.SOUTH),
    ]
    for code, hand, scores, seat in cases:
        with pytest.raises(AdviceError) as raised:
            elder(hand, "9S", scores, seat=seat)
        assert raised.value.code == code
    with pytest.raises(AdviceError) as raised:
        advise(elder("JS TS 2S 3H 4D 5C", "9S", {}), samples=0)
    assert raised.value.code == "AFN706"


def test_the_race_after_the_deal_follows_the_counting_order() -> None:
    """A pool of one deal, a point to one side then a point to the other, each side
    first half the time (sides are swapped for later deals): from 6–6 with the target 7
    each goes out half the time; from 6–0 N wins either way."""
    race = Race(("N", "S"), 7, LaterDeals(((("N", 1), ("S", 1)),), 0))
    assert race.chances((("N", 6), ("S", 6))) == (0.5, 0.5)
    assert race.chances((("N", 6), ("S", 0))) == (1.0, 0.0)
    assert race.chances((("N", 7), ("S", 0))) == (1.0, 0.0)
    # N 2 then S 1, or (sides swapped) S 2 then N 1: from 4–5, S is out at once half the
    # time; otherwise 6–6, and the next deal's first item decides
    lopsided = Race(("N", "S"), 7, LaterDeals(((("N", 2), ("S", 1)),), 0))
    assert lopsided.chances((("N", 4), ("S", 5))) == (0.25, 0.75)


def test_with_every_card_kept_after_a_run_the_longer_hands_are_played_too() -> None:
    """hoffmann1909 keeps every card after a run: a run's deal is played with nine cards
    or more each, and each estimate says how many deals it rests on."""
    advice = advise(elder("JS TS 2S 3H 4D 5C", "9S", {"N": 5, "S": 6}, KEEP_ALL), seed=3,
                    samples=2, dealer_samples=1, later=4, time_limit=0.5)
    begs = advice.option("begs")
    assert sum(dict(begs.answers).values()) == 2 - begs.unsolved
    assert dict(begs.answers).get("gives", 0) == 0  # the gift would put the elder out
    assert dict(begs.win)["S"].samples == 2 - begs.unsolved


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_for_any_dealer_hand_a_gift_at_one_short_puts_the_elder_out(seed: int) -> None:
    """The property over random hands and scores: whatever the dealer holds and whatever
    the dealer's own score, 'gives' at the elder's one short of the target is a certain
    win for the elder."""
    import random

    from allfours_notation.cards import FULL_PACK

    rng = random.Random(seed)
    pack = list(FULL_PACK)
    rng.shuffle(pack)
    dealer_hand, turnup = pack[:6], pack[6]
    if turnup.rank.name == "JACK":  # a turned Jack scores first: not this property
        turnup = pack[7]
    pos = position(HOFFMANN, TWO, Seat.NORTH, Seat.NORTH, dealer_hand, turnup,
                   {"S": HOFFMANN.target - 1, "N": rng.randrange(HOFFMANN.target - 1)})
    gives = advise(pos, samples=2, seed=seed, dealer_samples=1, later=4,
                   time_limit=0.5).option("gives")
    assert dict(gives.win)["S"] == Estimate(1.0, 0.0, 2)
    assert gives.certain


def test_the_dealer_s_shortcut_answers_as_his_full_advice_would() -> None:
    """A gift that would put the elder out: the modelled dealer runs without sampling, as
    his own advice, sampled in full, says too."""
    from allfours_notation.checking.analysis import advisor

    dealer_pos = elder("AS KS 7D 6D 5C 4C", "3S", {"S": 6, "N": 5}, seat=Seat.NORTH)
    assert advisor._gift_loses_outright(dealer_pos, 4, time.process_time)
    assert dealer_answer(dealer_pos, seed=4, samples=4, later=8) is CallKind.RUNS
    assert cheap(dealer_pos, 4).best == "runs"
    # one point short of nothing: at 5 for 7 the gift does not end the game
    not_out = elder("AS KS 7D 6D 5C 4C", "3S", {"S": 5, "N": 5}, seat=Seat.NORTH)
    assert not advisor._gift_loses_outright(not_out, 4, time.process_time)
