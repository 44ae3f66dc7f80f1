"""The information set of a card decision and the worlds drawn from it.

Every world must be one the play allows (each card the hidden seats played legal for the
hand the world gives them then, replayed here with the referee's ``legal_cards`` card by
card, not with the module's own check), the real deal must be among them, and on a small
information set every consistent world must come up about equally often."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from allfours_notation.cards import Seat, Suit
from allfours_notation.checking.analysis.deals import PlayedDeal
from allfours_notation.checking.analysis.information import (
    PACK,
    Information,
    World,
    WorldSampler,
    information_at,
    world_layout,
)
from allfours_notation.referee.play import legal_cards
from allfours_notation.referee.profiles import FollowRule, Options, UndertrumpException

from .cases import VARIANTS, generated_deals, option_sets


def replays_legally(information: Information, world: World) -> bool:
    """The world's deal, replayed card by card up to the decision: every card legal for
    the hand its seat holds at that moment, by the referee; the hands of their sizes; no
    card the player saw in a hidden hand."""
    layout = world_layout(information, world)
    hands = {seat: set(cards) for seat, cards in layout.hands}
    for (_, count), hand in zip(information.hidden, world, strict=True):
        if len(hand) != count or hand & information.seen:
            return False
    size = len(layout.seats)
    for i, (seat, c) in enumerate(information.prefix):
        trick = information.prefix[i - i % size:i]
        if c not in legal_cards(hands[seat], trick, layout.trump, layout.options):
            return False
        hands[seat].remove(c)
    return True


def _deals() -> list[PlayedDeal]:
    out = []
    for profile, players in (("hoffmann1909", 2), ("hoffmann1909", 3), ("trinidad14", 4)):
        out.extend(generated_deals(17, profile, players, 3))
    return out


VARIANT_OPTIONS = [v for v in VARIANTS if "follow_rule" in v]


@pytest.mark.parametrize("variant", [{}, *VARIANT_OPTIONS], ids=str)
def test_every_sampled_world_replays_legally_and_the_real_deal_is_one(
        variant: dict[str, object]) -> None:
    rng = random.Random(5)
    drawn = 0
    for played in _deals():
        assert played.layout is not None
        layout = replace(played.layout, options=replace(played.layout.options, **variant))  # type: ignore[arg-type]
        if not _legal_line(layout.options, played):
            continue  # the line breaks this variant's rule: not a play it allows
        for index in range(0, len(played.line), 3):
            information = information_at(layout, played.line, index, played.result.turnups)
            assert replays_legally(information, information.actual_world())
            sampler = WorldSampler(information)
            for _ in range(4):
                assert replays_legally(information, sampler.sample(rng))
                drawn += 1
    assert drawn > 10


def _legal_line(options: Options, played: PlayedDeal) -> bool:
    assert played.layout is not None
    layout = replace(played.layout, options=options)
    information = information_at(layout, played.line, len(played.line) - 1)
    return replays_legally(information, information.actual_world())


def test_a_trump_on_a_plain_lead_proves_no_void_but_a_discard_does() -> None:
    """Asked of the referee: under follow-or-trump, the seat that trumped may still hold
    the suit led; the seat that discarded holds none of it (nor, under must_follow,
    anything but that void proves)."""
    played = next(d for d in generated_deals(3, "hoffmann1909", 2, 40)
                  if _trumped_and_discarded(d))
    assert played.layout is not None
    trump = played.layout.trump
    for index in range(2, len(played.line), 2):
        (_, lead), (follower, answer) = played.line[index - 2:index]
        if lead.suit is trump or answer.suit is lead.suit:
            continue
        information = information_at(played.layout, played.line, index)
        position = [seat for seat, _ in information.hidden].index(follower) \
            if follower != information.seat else None
        if position is None:
            continue
        excluded = information.excluded[position]
        unseen_led = {c for c in information.unseen if c.suit is lead.suit}
        if answer.suit is trump:
            assert not excluded & unseen_led
        else:
            assert unseen_led <= excluded


def _trumped_and_discarded(played: PlayedDeal) -> bool:
    assert played.layout is not None
    trump = played.layout.trump
    kinds = set()
    for index in range(2, len(played.line) + 1, 2):
        (_, lead), (_, answer) = played.line[index - 2:index]
        if lead.suit is not trump and answer.suit is not lead.suit:
            kinds.add(answer.suit is trump)
    return kinds == {True, False}


def _every_world(information: Information) -> list[World]:
    """Every deal of the unseen cards to the hidden hands (the rest out of play)."""
    worlds: list[World] = [()]
    for _, count in information.hidden:
        worlds = [(*world, frozenset(hand)) for world in worlds
                  for hand in itertools.combinations(
                      [c for c in information.unseen if not any(c in h for h in world)], count)]
    return worlds


@pytest.mark.parametrize(("profile", "players", "extras", "indices"),
                         [("hoffmann1909", 2, 4, (5, 7, 9)),
                          ("hoffmann1909", 3, 2, (10, 11, 13, 14)),
                          ("hoffmann1909", 3, 4, (12, 13, 14))])
def test_worlds_are_drawn_uniformly_on_a_small_information_set(
        profile: str, players: int, extras: int, indices: tuple[int, ...]) -> None:
    """The unseen cards narrowed (the rest declared seen) to the hidden hands and a few
    more of different suits: every deal of them is enumerated and replayed; the sampler
    draws only the consistent ones, never has to reject one (the exclusions hold all the
    play proves), and each card lands in each hand as often as among all of them."""
    for played, index in itertools.product(generated_deals(8, profile, players, 12), indices):
        assert played.layout is not None
        layout = played.layout
        held = {c for _, cards in layout.hands for c in cards}
        extra = [next(c for c in PACK if c.suit is suit and c not in held)
                 for suit in Suit][:extras]
        seen = [c for c in PACK if c not in held and c not in extra]
        information = information_at(layout, played.line, index, (), seen)
        every = _every_world(information)
        allowed = [world for world in every if replays_legally(information, world)]
        if len(allowed) < 3 or len(allowed) == len(every):
            continue  # nothing proved: try a deal whose play excluded some hands
        sampler = WorldSampler(information)
        assert sampler.worlds_possible() == len(allowed)
        rng = random.Random(2)
        draws = 4000
        drawn = [sampler.sample(rng) for _ in range(draws)]
        assert sampler.rejected == 0
        assert set(drawn) <= set(allowed)
        if len(allowed) <= 40:
            assert set(drawn) == set(allowed)
        for h in range(len(information.hidden)):
            for c in information.unseen:
                exact = sum(c in world[h] for world in allowed) / len(allowed)
                sampled = sum(c in world[h] for world in drawn) / draws
                assert abs(exact - sampled) < 0.04, (c, h, exact, sampled)
        return
    pytest.fail("no generated deal had a small information set with a proven void")


def test_the_referees_follow_rules_are_monotone() -> None:
    """The one-card exclusions are necessary only if a card illegal for a hand stays
    illegal for every larger hand: held here for every profile and follow rule."""
    rng = random.Random(9)
    seats = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
    checked = 0
    for _, options in option_sets():
        for _ in range(12):
            cards = rng.sample(PACK, 9)
            trick = tuple(zip(seats, cards[:rng.randint(1, 3)], strict=False))
            hand, more = set(cards[3:7]), cards[7:]
            trump = rng.choice(cards).suit
            allowed = legal_cards(hand, trick, trump, options)
            for c in hand - allowed:
                for extra in more:
                    assert c not in legal_cards(hand | {extra}, trick, trump, options)
                    checked += 1
    assert checked > 100
    assert {FollowRule.NO_UNDERTRUMP, FollowRule.MUST_FOLLOW} <= {
        o.follow_rule for _, o in option_sets()}
    assert UndertrumpException.VOID_IN_LED_SUIT in {
        o.undertrump_exception for _, o in option_sets()}


def test_a_record_no_world_fits_is_said_not_looped_on() -> None:
    played = generated_deals(4, "hoffmann1909", 2, 1)[0]
    assert played.layout is not None
    information = information_at(played.layout, played.line, 3)
    hidden = information.hidden[0][0]
    impossible = replace(information, excluded=(frozenset(information.unseen),),
                         hidden=((hidden, information.hidden[0][1]),))
    sampler = WorldSampler(impossible)
    assert sampler.worlds_possible() == 0
    with pytest.raises(ValueError, match="no deal"):
        sampler.sample(random.Random(1))



def test_discards_named_aloud_are_seen_and_in_no_world() -> None:
    from pathlib import Path

    from allfours_notation.checking.analysis.deals import played_deals
    from allfours_notation.checking.analysis.single_dummy import discards_named
    from allfours_notation.checking.parsing import parse
    from allfours_notation.referee.profiles import resolve_options
    from allfours_notation.referee.replay import replay

    path = Path(__file__).resolve().parents[2] / "samples" / "discards-after-a-run.afn"
    game = parse(path.read_text(), filename=str(path)).games[0]
    options, _ = resolve_options(game)
    played = played_deals(replay(game, options, record_states=False))[0]
    assert played.layout is not None
    discards = discards_named(game, 1)
    assert len(discards) == 6  # South's three clubs and North's three
    information = information_at(played.layout, played.line, 3, played.result.turnups,
                                 discards)
    assert set(discards) <= information.seen
    assert not set(discards) & set(information.unseen)
    sampler = WorldSampler(information)
    rng = random.Random(4)
    for _ in range(20):
        world = sampler.sample(rng)
        assert replays_legally(information, world)
        assert not set(discards) & set().union(*world)


def test_a_revoke_proves_nothing_and_the_real_deal_stays_a_world() -> None:
    """samples/revoke.afn, deal 2: South plays 8S on a club lead holding 8C.  Taken as a
    proof, that card would say South has no club, and the real deal would not be among
    the worlds."""
    from pathlib import Path

    from allfours_notation.checking.analysis.deals import played_deals
    from allfours_notation.checking.analysis.information import consistent
    from allfours_notation.checking.parsing import parse
    from allfours_notation.referee.replay import replay

    path = Path(__file__).resolve().parents[2] / "samples" / "revoke.afn"
    game = parse(path.read_text(), filename=str(path)).games[0]
    played = next(d for d in played_deals(replay(game)) if d.number == 2)
    assert played.layout is not None
    revoke = next(i for i, (seat, c) in enumerate(played.line)
                  if seat is Seat.SOUTH and str(c) == "8S")
    information = information_at(played.layout, played.line, revoke + 1,
                                 played.result.turnups)
    assert information.broken == {revoke}
    assert consistent(information, information.actual_world())
    south = [seat for seat, _ in information.hidden].index(Seat.SOUTH)
    assert not any(c.suit is Suit.CLUBS for c in information.excluded[south])
    WorldSampler(information).sample(random.Random(1))
