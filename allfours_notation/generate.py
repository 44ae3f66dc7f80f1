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

from .cards import DEALT, FULL_PACK, RUN_BATCH, Card, Rank, Seat
from .frozen import frozen
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
from .reading.table import SEATS_FOR_PLAYERS, next_seat, turn_order
from .referee.deal import DealOver, DealStart, Expect, Phase, Table
from .referee.play import packet_size, turnup_position
from .referee.profiles import PROFILES, Options, seated
from .referee.replay import Referee

_NAMES = ("Ann", "Ben", "Cora", "Dev", "Eli", "Fay", "Gus", "Hal", "Ida", "Joe", "Kay", "Lou")
_REMARKS = ("a quiet deal", "E thought long here", "the Jack is out", "good lead",
            "chalk it up", "close game", "he begs again", "run the pack")


@frozen
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
    referee: Referee  # the game as written: its scores, claims and totals
    deals: list[Deal] = field(default_factory=list)
    # the deal as played, every hand seen: the generator asks it what may come next
    sees_all: Table | None = None

    def show(self, event: OpeningEvent | Play | DealStart) -> Expect:
        """Tell the table that sees every card what happened; its answer: what may come
        next."""
        assert self.sees_all is not None
        self.sees_all.feed(event)
        return self.sees_all.expects()

    def asks(self, event: OpeningEvent) -> Expect:
        """What the table would expect after ``event``, leaving it as it is."""
        assert self.sees_all is not None
        trial = self.sees_all.snapshot()
        trial.feed(event)
        return trial.expects()


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
    table = _Table(options, seats, rng, knobs, Referee(header, options, record_states=False),
                   sees_all=Table(header, options, keep_steps=False))
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
                packet: int) -> dict[Seat, list[Card]]:
    """Deal ``each`` cards to every seat from the top of ``pack``, ``packet`` at a time."""
    hands: dict[Seat, list[Card]] = {seat: [] for seat in order}
    packet = packet if each % packet == 0 else 1
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
        position = len(pack) - turnup_position(len(order))  # the card turned after dealing
        jacks = [i for i, c in enumerate(pack[: position]) if c.rank is Rank.JACK]
        if jacks:
            swap = rng.choice(jacks)
            pack[swap], pack[position] = pack[position], pack[swap]
    top_first = tuple(reversed(pack))  # the deal takes cards from the end of the list
    hands = _deal_cards(pack, order, DEALT, packet_size(options))
    record_hands = rng.random() < knobs.hands
    opening: list[OpeningEvent] = []
    # a run deals as the deal did where the pack is written; else one card at a time, as
    # this generator always has (the same seed gives the same games)
    run_packet = 1
    pack_written = knobs.pack > 0 and rng.random() < knobs.pack
    if pack_written:
        opening.append(Pack(cards=top_first))
        record_hands = False
        run_packet = packet_size(options)
    if record_hands:
        opening.extend(_hand(seat, hands[seat], rng, knobs) for seat in order)
    table.show(DealStart(number=number, dealer=dealer))
    for seat in order:
        table.show(Hand(seat=seat, cards=tuple(hands[seat])))
    original = pack.pop()
    opening.append(TurnUp(card=original))
    expect = table.show(TurnUp(card=original))
    if _written_decides(table, number, dealer, opening, stand=elder):
        return _ended(table, Deal(number=number, dealer=dealer, opening=tuple(opening)))
    runs = 0
    begged = False
    while True:
        may_beg = expect.kind is Phase.CALL or expect.may_beg_again
        if may_beg:  # a beg the dealer could not answer is not made
            answer = table.asks(Call(seat=elder, kind=CallKind.BEGS))
            may_beg = answer.may_run or answer.may_give
        chance = knobs.beg if not begged else knobs.beg_again
        if may_beg and expect.must_beg and not _offends(rng, knobs.bad_calls):
            chance = 1.0  # the elder without the trump the rules require begs
        if not may_beg or rng.random() >= chance:
            if not begged and rng.random() < knobs.stands_written:
                expect = _say(table, opening, Call(seat=elder, kind=CallKind.STANDS))
            break
        begged = True
        answer = _say(table, opening, Call(seat=elder, kind=CallKind.BEGS))
        lax = answer.may_run and _offends(rng, knobs.bad_calls)
        if (answer.may_give or (lax and answer.gift_lacks_trump)) and \
                rng.random() < knobs.gift:
            expect = _say(table, opening, Call(seat=dealer, kind=CallKind.GIVES))
            if _written_decides(table, number, dealer, opening):
                return _ended(table, Deal(number=number, dealer=dealer, opening=tuple(opening)))
            break
        if not answer.may_run:
            # cannot run: he must give (only reached when a gift is forbidden)
            expect = _say(table, opening, Call(seat=dealer, kind=CallKind.GIVES))
            break
        _say(table, opening, Call(seat=dealer, kind=CallKind.RUNS))
        while True:
            runs += 1
            extra = _deal_cards(pack, order, RUN_BATCH, run_packet)
            for seat in order:
                hands[seat].extend(extra[seat])
                table.show(Hand(seat=seat, cards=tuple(extra[seat])))
            if record_hands:
                opening.extend(_hand(seat, extra[seat], rng, knobs) for seat in order)
            expect = _say(table, opening, TurnUp(card=pack.pop()))
            if _written_decides(table, number, dealer, opening):
                return _ended(table, Deal(number=number, dealer=dealer, opening=tuple(opening)))
            if expect.kind is not Phase.RUN and not expect.exhausted:
                break  # a new suit is turned: it is trumps
            if expect.exhausted:
                return _ended(table, Deal(number=number, dealer=dealer, opening=tuple(opening),
                                          ending=Redeal(reason=RedealReason.EXHAUSTED)))
    if expect.discard:
        written = runs > 0 and knobs.discards > 0 and rng.random() < knobs.discards
        for seat in order:
            kept = rng.sample(hands[seat], DEALT)
            put = tuple(c for c in hands[seat] if c not in kept)
            if written:
                opening.append(Discard(seat=seat, cards=put))
            if put:
                table.show(Discard(seat=seat, cards=put))
            hands[seat] = kept
    tricks = _play_tricks(table, hands, elder)
    return _ended(table, Deal(number=number, dealer=dealer, opening=tuple(opening),
                              tricks=tricks, leading=(), trailing=_maybe_comment(rng, knobs)))


def _say(table: _Table, opening: list[OpeningEvent], event: OpeningEvent) -> Expect:
    """Write ``event`` into the deal and tell the table; its answer: what may come next."""
    opening.append(event)
    return table.show(event)


def _ended(table: _Table, deal: Deal) -> Deal:
    """The deal is over at the table that sees every card too."""
    assert table.sees_all is not None
    table.sees_all.feed(DealOver())
    return deal


def _written_decides(table: _Table, number: int, dealer: Seat,
                     opening: Sequence[OpeningEvent], *, stand: Seat | None = None) -> bool:
    """Whether the deal as written so far puts a side out: asked of a copy of the
    written game's table (a gift the rules forbid scores nothing, one the record cannot
    judge yet waits for the play).  ``stand``: asked as if that elder stood (the first
    turn-up counts unless the cards are run)."""
    trial = table.referee.table.snapshot()
    trial.feed(DealStart(number=number, dealer=dealer))
    for event in opening:
        trial.feed(event)
    if stand is not None and not trial.expects().decided:
        trial.feed(Call(seat=stand, kind=CallKind.STANDS))
    return trial.expects().decided


def _offends(rng: random.Random, chance: float) -> bool:
    """Whether a player breaks a rule here (never when ``chance`` is 0: the same seed
    then gives the same games as before the knob existed)."""
    return chance > 0 and rng.random() < chance


def _hand(seat: Seat, cards: Sequence[Card], rng: random.Random, knobs: Knobs) -> Hand:
    shown = tuple(None if rng.random() < knobs.unseen else c for c in cards)
    return Hand(seat=seat, cards=shown)


def _play_tricks(table: _Table, hands: dict[Seat, list[Card]],
                 elder: Seat) -> tuple[Trick, ...]:
    """Every card as the table asks for it: who plays, and which cards are legal."""
    rng, knobs = table.rng, table.knobs
    labels = rng.random() < knobs.seat_labels
    numbers = rng.random() < knobs.trick_numbers
    assert table.sees_all is not None
    expect = table.sees_all.expects()
    tricks: list[Trick] = []
    for number in range(1, len(hands[elder]) + 1):
        plays: list[Play] = []
        for _ in table.seats:
            seat = expect.seat or elder
            allowed = expect.legal if expect.legal is not None else frozenset(hands[seat])
            legal = sorted(allowed, key=lambda c: (c.suit.value, c.rank))
            illegal = sorted(set(hands[seat]) - set(legal), key=lambda c: (c.suit.value, c.rank))
            choice = rng.choice(illegal if illegal and _offends(rng, knobs.offences) else legal)
            hands[seat].remove(choice)
            expect = table.show(Play(card=choice, seat=seat))
            glyph = rng.choice(list(Glyph)) if rng.random() < knobs.glyphs else None
            plays.append(Play(card=choice, seat=seat if labels else None, glyph=glyph,
                              trailing=_maybe_comment(rng, knobs, 0.2)))
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
