"""A seeded generator of random, legal All Fours games, as records or AFN text.

For property tests and benchmarks.  Every game is played out card by card under
a rule profile: the cards are shuffled and dealt, the elder stands or begs, the
dealer gives or runs the cards (a bunch is redealt), every card played is legal,
and the game stops the moment a side reaches the target.  Claims and totals are
those the scorer computes, so a generated game checks clean.  The knobs of
:class:`Knobs` set how often each feature appears.

    >>> games = list(generate_games(seed=1, n_games=3, profile="trinidad14"))
    >>> text = generate_corpus(seed=1, n_deals=1000)     # AFN text, ~1000 deals

The same seed and arguments always give the same games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from .cards import DEALT, FULL_PACK, RUN_BATCH, Card, Rank, Seat, Suit
from .reading.records import (
    Call,
    CallKind,
    Comment,
    CommentStyle,
    Deal,
    Discard,
    Game,
    Glyph,
    Hand,
    OpeningEvent,
    Pack,
    Play,
    Redeal,
    RedealReason,
    Tag,
    Trick,
    TurnUp,
)
from .reading.table import SEATS_FOR_PLAYERS, next_seat, side_of, turn_order
from .referee.profiles import (
    PROFILES,
    BegsPerDeal,
    DealPattern,
    GiftAtTargetMinusOne,
    HandAfterRun,
    JackOnRun,
    Options,
    YesNo,
    seated,
)
from .referee.replay import Referee, legal_cards, max_runs

_NAMES = ("Ann", "Ben", "Cora", "Dev", "Eli", "Fay", "Gus", "Hal", "Ida", "Joe", "Kay", "Lou")
_REMARKS = ("a quiet deal", "E thought long here", "the Jack is out", "good lead",
            "chalk it up", "close game", "he begs again", "run the pack")


@dataclass(frozen=True, slots=True)
class Knobs:
    """How often each feature appears (each a probability, 0 to 1)."""

    beg: float = 0.35  # the elder begs
    gift: float = 0.5  # the dealer answers a beg with a gift (else he runs)
    beg_again: float = 0.3  # another beg after a run, where the rules allow it
    turned_jack: float = 0.08  # the first turn-up is forced to be a Jack
    comments: float = 0.1  # a comment on a deal header and on a play
    glyphs: float = 0.03  # a glyph after a played card
    claims: float = 1.0  # the deal has a claim
    totals: float = 1.0  # the deal has a running total
    hands: float = 0.5  # the hands (and run cards) are recorded
    unseen: float = 0.0  # a recorded card is written ?? instead
    seat_labels: float = 1.0  # plays carry seat labels
    trick_numbers: float = 1.0  # tricks carry numbers
    stands_written: float = 0.9  # 'S stands' is written (it may be left out)
    # an offence where one is possible: a card the rules forbid (a revoke, an undertrump),
    # a stand or a gift without the trump the options require (for differential tests)
    offences: float = 0.0
    bad_calls: float = 0.0  # the same for a stand or a gift without a required trump
    discards: float = 0.5  # the cards put out after a run are written (where the rules say so)
    pack: float = 0.0  # the deal is written as the order of the pack (``pack …``), no hands
    max_deals: int = 200  # safety stop for one game


@dataclass(slots=True)
class _Table:
    options: Options
    seats: tuple[Seat, ...]
    rng: random.Random
    knobs: Knobs
    referee: Referee
    deals: list[Deal] = field(default_factory=list)


def profile_options(profile: str, players: int | None = None,
                    options: Options | None = None) -> Options:
    """The options of a named profile, with the number of players set."""
    if options is not None:
        return replace(options, players=players) if players is not None else options
    base = PROFILES[profile].options
    return seated(replace(base, players=players)) if players is not None else base


def generate_games(
    seed: int,
    n_games: int,
    *,
    profile: str = "hoffmann1909",
    players: int | None = None,
    options: Options | None = None,
    knobs: Knobs | None = None,
) -> Iterator[Game]:
    """``n_games`` random legal games under ``profile`` (or ``options``).

    ``players`` (2, 3 or 4) overrides the profile's number of players.  Each game
    carries the tags of a real record: Event, Site, Date, Rules, the players by
    seat, Result, and an option tag for every option that differs from the
    profile (so that the record alone tells the rules).
    """
    rng = random.Random(seed)
    chosen = profile_options(profile, players, options)
    for index in range(1, n_games + 1):
        yield generate_game(rng, chosen, knobs or Knobs(), profile=profile, index=index)


def generate_corpus(
    seed: int,
    *,
    n_games: int | None = None,
    n_deals: int | None = None,
    profile: str = "hoffmann1909",
    players: int | None = None,
    knobs: Knobs | None = None,
) -> str:
    """AFN text of random games: ``n_games`` of them, or games until ``n_deals`` deals."""
    if n_games is None and n_deals is None:
        n_games = 1
    parts = ["% AFN 1\n"]
    rng = random.Random(seed)
    chosen = profile_options(profile, players)
    made = deals = 0
    while (n_games is not None and made < n_games) or \
            (n_games is None and n_deals is not None and deals < n_deals):
        made += 1
        game = generate_game(rng, chosen, knobs or Knobs(), profile=profile, index=made)
        deals += len(game.deals)
        parts.append("\n" + write_afn(game, version_line=False))
    return "".join(parts)


def generate_game(rng: random.Random, options: Options, knobs: Knobs, *,
                  profile: str = "hoffmann1909", index: int = 1) -> Game:
    """One complete game played out at random under ``options``."""
    seats = SEATS_FOR_PLAYERS[options.players]
    header = Game(tags=_tags(rng, seats, options, profile), index=index)
    table = _Table(options, seats, rng, knobs, Referee(header, options, record_states=False))
    dealer = rng.choice(seats)
    number = 0
    while table.referee.winner is None and number < knobs.max_deals:
        number += 1
        deal = _play_deal(table, number, dealer)
        result = table.referee.add_deal(deal)
        deal = _with_claim_and_total(table, deal, result.points, result.scores_after)
        table.deals.append(deal)
        following = table.referee.expected_dealer
        dealer = following if following is not None else next_seat(
            dealer, seats, clockwise=options.clockwise)
    winner = table.referee.winner
    tags = tuple(
        replace(tag, value=winner or "*") if tag.name == "Result" else tag for tag in header.tags
    )
    return Game(tags=tags, deals=tuple(table.deals), index=index)


def _tags(rng: random.Random, seats: tuple[Seat, ...], options: Options,
          profile: str) -> tuple[Tag, ...]:
    names = rng.sample(_NAMES, len(seats))
    tags = [
        Tag(name="Event", value=f"Generated game {rng.randrange(10**6)}"),
        Tag(name="Site", value="Generator"),
        Tag(name="Date", value=f"2026.{rng.randrange(1, 13):02d}.{rng.randrange(1, 29):02d}"),
        Tag(name="Rules", value=profile),
    ]
    tags.extend(Tag(name=seat.tag_name, value=name) for seat, name in zip(seats, names,
                                                                          strict=True))
    tags.append(Tag(name="Result", value="*"))
    from .referee.profiles import camel_case

    base = seated(replace(PROFILES[profile].options, players=options.players))

    for option, value in options.changes_from(base).items():
        if option != "players":
            tags.append(Tag(name=camel_case(option), value=value))
    return tuple(tags)


# --- one deal ---------------------------------------------------------------------------------


def _deal_order(dealer: Seat, table: _Table) -> tuple[Seat, ...]:
    order = turn_order(table.seats, clockwise=table.options.clockwise)
    start = order.index(next_seat(dealer, table.seats, clockwise=table.options.clockwise))
    return order[start:] + order[:start]


def _deal_cards(pack: list[Card], order: Sequence[Seat], each: int,
                pattern: DealPattern) -> dict[Seat, list[Card]]:
    """Deal ``each`` cards to every seat from the top of ``pack`` (3+3 or one at a time)."""
    hands: dict[Seat, list[Card]] = {seat: [] for seat in order}
    packet = RUN_BATCH if pattern is DealPattern.THREE_THREE and each % RUN_BATCH == 0 else 1
    for _ in range(each // packet):
        for seat in order:
            for _ in range(packet):
                hands[seat].append(pack.pop())
    return hands


def _play_deal(table: _Table, number: int, dealer: Seat) -> Deal:
    rng, knobs, options = table.rng, table.knobs, table.options
    order = _deal_order(dealer, table)
    elder = order[0]
    pack = list(FULL_PACK)
    rng.shuffle(pack)
    if rng.random() < knobs.turned_jack:
        position = len(pack) - 1 - 6 * len(order)  # the card turned after dealing
        jacks = [i for i, c in enumerate(pack[: position]) if c.rank is Rank.JACK]
        if jacks:
            swap = rng.choice(jacks)
            pack[swap], pack[position] = pack[position], pack[swap]
    top_first = tuple(reversed(pack))  # the deal takes cards from the end of the list
    hands = _deal_cards(pack, order, 6, options.deal_pattern)
    record_hands = rng.random() < knobs.hands
    opening: list[OpeningEvent] = []
    # a run deals as the deal did (deal_pattern) where the pack is written; else one card at
    # a time, as this generator always has (the same seed gives the same games)
    run_pattern = DealPattern.ONE_AT_A_TIME
    pack_written = knobs.pack > 0 and rng.random() < knobs.pack
    if pack_written:
        opening.append(Pack(cards=top_first))
        record_hands = False
        run_pattern = options.deal_pattern
    if record_hands:
        opening.extend(_hand(seat, hands[seat], rng, knobs) for seat in order)
    original = pack.pop()
    opening.append(TurnUp(card=original))
    scores = table.referee.scores
    kick = _kick_decides(table, dealer, original, scores)
    if kick:
        return Deal(number=number, dealer=dealer, opening=tuple(opening))
    trump = original.suit
    runs = 0
    begged = False
    while True:
        may_beg = (not begged or options.begs_per_deal is BegsPerDeal.UNLIMITED) and (
            runs < max_runs(len(order)) or
            _may_give(table, elder, dealer, scores, hands[dealer], trump))
        chance = knobs.beg if not begged else knobs.beg_again
        if may_beg and _must_beg(options, hands[elder], trump, runs) and \
                not _offends(rng, knobs.bad_calls):
            chance = 1.0  # stand_requires_trump: the elder without a trump begs
        if not may_beg or rng.random() >= chance:
            if not begged and rng.random() < knobs.stands_written:
                opening.append(Call(seat=elder, kind=CallKind.STANDS))
            break
        begged = True
        opening.append(Call(seat=elder, kind=CallKind.BEGS))
        lax = runs < max_runs(len(order)) and _offends(rng, knobs.bad_calls)
        if _may_give(table, elder, dealer, scores, hands[dealer], trump, lax=lax) and \
                rng.random() < knobs.gift:
            opening.append(Call(seat=dealer, kind=CallKind.GIVES))
            # a gift the rules forbid (a dealer without the trump required) scores nothing
            forbidden = options.give_requires_trump is YesNo.YES and \
                not any(c.suit is trump for c in hands[dealer])
            # where the dealer's hand is not written, only the play can show the gift
            # allowed (give_requires_trump): the deal is played on
            shown = options.give_requires_trump is YesNo.NO or record_hands or pack_written
            if _opening_decides(table, opening, dealer, elder, gift_forbidden=forbidden) \
                    and shown:
                return Deal(number=number, dealer=dealer, opening=tuple(opening))
            break
        if runs >= max_runs(len(order)):
            # cannot run: he must give (only reached when a gift is forbidden)
            opening.append(Call(seat=dealer, kind=CallKind.GIVES))
            break
        opening.append(Call(seat=dealer, kind=CallKind.RUNS))
        while True:
            runs += 1
            extra = _deal_cards(pack, order, 3, run_pattern)
            for seat in order:
                hands[seat].extend(extra[seat])
            if record_hands:
                opening.extend(_hand(seat, extra[seat], rng, knobs) for seat in order)
            turned = pack.pop()
            opening.append(TurnUp(card=turned))
            if _opening_decides(table, opening, dealer, elder):
                return Deal(number=number, dealer=dealer, opening=tuple(opening))
            if turned.suit is not original.suit:
                trump = turned.suit
                break
            if runs >= max_runs(len(order)):
                return Deal(number=number, dealer=dealer, opening=tuple(opening),
                            ending=Redeal(reason=RedealReason.EXHAUSTED))
        if options.begs_per_deal is BegsPerDeal.ONE:
            break
    if options.hand_after_run is HandAfterRun.DISCARD_TO_SIX or \
            (options.hand_after_run is HandAfterRun.KEEP_IF_ONE_RUN and runs >= 2):
        written = runs > 0 and knobs.discards > 0 and rng.random() < knobs.discards
        for seat in order:
            kept = rng.sample(hands[seat], DEALT)
            if written:
                put = tuple(c for c in hands[seat] if c not in kept)
                opening.append(Discard(seat=seat, cards=put))
            hands[seat] = kept
    tricks = _play_tricks(table, hands, elder, trump)
    return Deal(number=number, dealer=dealer, opening=tuple(opening), tricks=tricks,
                leading=(), trailing=_maybe_comment(rng, knobs))


def _opening_decides(table: _Table, opening: Sequence[OpeningEvent], dealer: Seat,
                     elder: Seat, *, gift_forbidden: bool = False) -> bool:
    """Whether the turn-ups and the gift so far put a side out: the deal stops there
    (a gift the rules forbid scores nothing)."""
    from .referee.scoring import count_in_order, gift_points, turnup_points

    scores = table.referee.scores
    options = table.options
    turnups = [e.card for e in opening if isinstance(e, TurnUp)]
    for event in opening:
        if isinstance(event, TurnUp):
            first = turnups[0]
            from_run = event.card is not first
            ran = any(isinstance(e, Call) and e.kind is CallKind.RUNS for e in opening)
            if not from_run and ran and options.jack_on_run is JackOnRun.FINAL_ONLY:
                continue  # the run cancels the first turn-up's points
            points = turnup_points(event.card, dealer=dealer, seats=table.seats, options=options,
                                   from_run=from_run,
                                   becomes_trump=not from_run or event.card.suit is not first.suit)
        elif isinstance(event, Call) and event.kind is CallKind.GIVES and not gift_forbidden:
            points, _ = gift_points(dealer=dealer, elder=elder, seats=table.seats,
                                    options=options, scores=scores)
        else:
            continue
        if count_in_order(points, scores, options)[1] is not None:
            return True
    return False


def _kick_decides(table: _Table, dealer: Seat, turned: Card, scores: dict[str, int]) -> bool:
    """Whether the first turn-up alone puts the dealer's side out (no beg, no play)."""
    from .referee.scoring import kick_value

    side = side_of(dealer, table.seats)
    return scores.get(side, 0) + kick_value(turned, table.options) >= table.options.target


def _must_beg(options: Options, hand: Sequence[Card], trump: Suit, runs: int) -> bool:
    """``stand_requires_trump``: the elder holding no trump must beg (where a beg is
    still his to make: at the first turn-up, or after a run with unlimited begs)."""
    return options.stand_requires_trump is YesNo.YES and \
        not any(c.suit is trump for c in hand) and \
        (runs == 0 or options.begs_per_deal is BegsPerDeal.UNLIMITED)


def _offends(rng: random.Random, chance: float) -> bool:
    """Whether a player breaks a rule here (never when ``chance`` is 0: the same seed
    then gives the same games as before the knob existed)."""
    return chance > 0 and rng.random() < chance


def _may_give(table: _Table, elder: Seat, dealer: Seat, scores: dict[str, int],
              hand: Sequence[Card], trump: Suit, *, lax: bool = False) -> bool:
    """Whether the dealer may answer a beg with a gift; ``lax``: a dealer who gives
    without the trump the options require (an offence)."""
    if not lax and table.options.give_requires_trump is YesNo.YES and \
            not any(c.suit is trump for c in hand):
        return False  # a dealer without a trump must run
    if table.options.gift_at_target_minus_one is GiftAtTargetMinusOne.ALLOWED:
        return True
    receivers = [s for s in table.seats if s is not dealer] if len(table.seats) == 3 else [elder]
    return all(scores.get(side_of(s, table.seats), 0) + 1 < table.options.target
               for s in receivers)


def _hand(seat: Seat, cards: Sequence[Card], rng: random.Random, knobs: Knobs) -> Hand:
    shown = tuple(None if rng.random() < knobs.unseen else c for c in cards)
    return Hand(seat=seat, cards=shown)


def _play_tricks(table: _Table, hands: dict[Seat, list[Card]], elder: Seat,
                 trump: object) -> tuple[Trick, ...]:
    from .referee.replay import trick_winner

    assert isinstance(trump, Suit)
    rng, knobs, options = table.rng, table.knobs, table.options
    labels = rng.random() < knobs.seat_labels
    numbers = rng.random() < knobs.trick_numbers
    leader = elder
    tricks: list[Trick] = []
    count = len(hands[elder])
    for number in range(1, count + 1):
        played: list[tuple[Seat, Card]] = []
        plays: list[Play] = []
        seat = leader
        for _ in table.seats:
            legal = sorted(legal_cards(hands[seat], played, trump, options),
                           key=lambda c: (c.suit.value, c.rank))
            illegal = sorted(set(hands[seat]) - set(legal), key=lambda c: (c.suit.value, c.rank))
            choice = rng.choice(illegal if illegal and _offends(rng, knobs.offences) else legal)
            hands[seat].remove(choice)
            played.append((seat, choice))
            glyph = rng.choice(list(Glyph)) if rng.random() < knobs.glyphs else None
            plays.append(Play(card=choice, seat=seat if labels else None, glyph=glyph,
                              trailing=_maybe_comment(rng, knobs, 0.2)))
            seat = next_seat(seat, table.seats, clockwise=options.clockwise)
        leader = trick_winner(played, trump)
        tricks.append(Trick(number=number, plays=tuple(plays), numbered=numbers))
    return tuple(tricks)


def _maybe_comment(rng: random.Random, knobs: Knobs, scale: float = 1.0) -> tuple[Comment, ...]:
    if rng.random() < knobs.comments * scale:
        return (Comment(f" {rng.choice(_REMARKS)} ", CommentStyle.BRACE),)
    return ()


def _with_claim_and_total(table: _Table, deal: Deal, points: Sequence[object],
                          scores_after: Sequence[tuple[str, int]]) -> Deal:
    from .referee.scoring import Point
    from .referee.sheet import claim_for, total_for

    rng, knobs = table.rng, table.knobs
    claim = None
    if rng.random() < knobs.claims:
        claim = claim_for([p for p in points if isinstance(p, Point)], table.seats,
                          table.options)
    total = None
    if rng.random() < knobs.totals:
        total = total_for(scores_after, table.seats)
    return replace(deal, claim=claim, total=total)


# --- a plain AFN writer for generated games ---------------------------------------------------


def write_afn(game: Game, *, version_line: bool = True) -> str:
    """AFN text of a generated game as recorded: seat labels and trick numbers only
    where the generator put them, so corpora hold realistic lax input too."""
    from .writing.formatter import format_game

    text = format_game(game, as_recorded=True)
    return "% AFN 1\n" + text if version_line else text


__all__ = ["Knobs", "generate_corpus", "generate_game", "generate_games", "profile_options",
           "write_afn"]
