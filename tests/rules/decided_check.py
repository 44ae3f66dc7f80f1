"""The property of issue 24: what the table calls *decided* stays so, whatever comes next.

For a generated legal game, every deal is cut after each of its events.  At each cut:

- every item the table's state calls decided (with a side) is among the items of that
  deal at its end, for the recorded continuation and for a few random legal
  continuations: the cards nobody has seen yet are dealt again at random among the
  hands that hold unseen cards (as many to each as it holds), and the deal is played
  out with legal cards;
- a game the cut record declares won (the cut closed as the end of the record) is won
  by the same side at the same moment in the full record, and in each continuation.

``python -m bench.decided`` runs it on more games; the suite runs a Hypothesis sample
(``tests/rules/test_rules_decided.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from allfours_notation.cards import FULL_PACK, Card
from allfours_notation.reading.records import ClaimItem, Deal, Game, Play
from allfours_notation.referee.deal import DealOver, Event, Phase, Table
from allfours_notation.referee.decided import Status
from allfours_notation.referee.play import legal_cards
from allfours_notation.referee.replay import replay
from allfours_notation.referee.state import DealResult

__all__ = ["Figures", "check_game", "cut_events"]


@dataclass(slots=True)
class Figures:
    games: int = 0
    cuts: int = 0
    continuations: int = 0
    decided_items: int = 0
    wins_at_a_cut: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        self.games += other.games
        self.cuts += other.cuts
        self.continuations += other.continuations
        self.decided_items += other.decided_items
        self.wins_at_a_cut += other.wins_at_a_cut
        self.problems.extend(other.problems)


def cut_events(deal: Deal) -> list[Event]:
    """A deal's events in table order, its plays one by one (no trick records: a trick
    ends with its last card, so that a continuation can be played after any cut)."""
    events: list[Event] = [deal, *deal.opening]
    for trick in deal.tricks:
        events.extend(trick.plays)
    events.extend(deal.penalties)
    for last in (deal.ending, deal.claim, deal.total):
        if last is not None:
            events.append(last)
    return events


_Item = tuple[ClaimItem, str, int]


def final_items(result: DealResult) -> list[_Item]:
    """The items of a deal at its end: (item, side, points), an item Foster's cap cut
    at what it added."""
    found = [(p.item, p.side, p.points) for p in result.points]
    found += [(p.item, p.side, p.points) for p in result.unscored]
    return found


def missing(decided: Sequence[_Item], result: DealResult) -> list[_Item]:
    """The decided items the deal's end does not show with the same points (an item
    called decided at +1 that Foster's cap cuts to 0 was not decided)."""
    left = list(final_items(result))
    absent = []
    for item, side, points in decided:
        match = next((entry for entry in left if entry[0] is item and entry[1] == side and
                      entry[2] == points), None)
        if match is None:
            absent.append((item, side, points))
        else:
            left.remove(match)
    return absent


def check_game(game: Game, rng: random.Random, *, continuations: int = 2,
               every: int = 1) -> Figures:
    """The property on one game: every deal cut after each ``every``-th event."""
    figures = Figures(games=1)
    full = replay(game, record_states=False)
    options = full.options
    name = f"game {game.index} ({game.tag('Rules')}, seed-dependent)"
    before = Table(game, options, keep_steps=False)
    for position, deal in enumerate(game.deals):
        if position >= len(full.deals):
            break
        events = cut_events(deal)
        final = full.deals[position]
        for k in range(1, len(events) + 1):
            if k % every and k != len(events):
                continue
            table = before.snapshot()
            for event in events[:k]:
                table.feed(event)
            figures.cuts += 1
            where = f"{name} deal {deal.number} after event {k} of {len(events)}"
            state = table.state
            decided: list[_Item] = []
            if state is not None and state.deal == deal.number:
                decided = [(i.item, i.side, i.points) for i in state.items
                           if i.status is Status.DECIDED and i.side and i.points]
            figures.decided_items += len(decided)
            for absent in missing(decided, final):
                figures.problems.append(f"{where}: decided {absent} but the deal ends with "
                                        f"{final_items(final)}")
            worlds = [("the record", full.winner, full.decided)]
            for number in range(continuations if table.expects().kind is Phase.PLAY
                                else 0):
                alternative = played_on(table, rng)
                if alternative is None:
                    continue
                figures.continuations += 1
                result = alternative.deals[-1]
                for absent in missing(decided, result):
                    figures.problems.append(
                        f"{where}, continuation {number + 1}: decided {absent} but the deal "
                        f"ends with {final_items(result)}")
                worlds.append((f"continuation {number + 1}", alternative.winner,
                               alternative.decided))
            closed = table.snapshot()
            closed.end_game()
            if closed.winner is not None:
                figures.wins_at_a_cut += 1
                for world, winner, moment in worlds:
                    if (winner, moment) != (closed.winner, closed.decided):
                        figures.problems.append(
                            f"{where}: the cut declares {closed.winner} won ({closed.decided})"
                            f", {world}: {winner} ({moment})")
        for event in events:
            before.feed(event)
        before.feed(DealOver())
    return figures


def played_on(table: Table, rng: random.Random) -> Table | None:
    """The deal of ``table`` played out at random: the unseen cards dealt again among the
    hands that hold unseen cards, then legal cards to the end; closed."""
    state = table.state
    if state is None or state.trump is None:
        return None
    copy = table.snapshot()
    hands = {seat: list(state.hand(seat)) for seat in state.seats}
    seen: set[Card] = {*state.turnups, *(c for held in hands.values() for c in held)}
    deal = copy.current
    assert deal is not None
    seen |= deal.ledger.out  # played, turned up, discarded
    pool = [c for c in FULL_PACK if c not in seen]
    rng.shuffle(pool)
    for seat in state.seats:
        wanted = state.unknown_count(seat)
        hands[seat].extend(pool[:wanted])
        del pool[:wanted]
    for _ in range(60):  # a deal has at most 15 tricks of 4 cards
        expect = copy.expects()
        if expect.kind is not Phase.PLAY or expect.seat is None:
            break
        seat = expect.seat
        now = copy.state
        assert now is not None
        on_table = list(now.trick) if len(now.trick) < len(now.seats) else []
        hand = hands.get(seat, [])
        if not hand:
            return None
        legal = sorted(legal_cards(hand, on_table, now.trump, copy.options), key=str)
        card = rng.choice(legal or hand)
        hand.remove(card)
        copy.feed(Play(seat=seat, card=card))
    copy.feed(DealOver())
    return copy


def games_for(seed: int, count: int) -> Iterator[Game]:
    """A mix of generated games: every profile, hands written or not, offences now and
    then (a revoke, an undertrump, a call without a trump)."""
    from allfours_notation.generate import Knobs, generate_game, profile_options

    rng = random.Random(seed)
    profiles = ("hoffmann1909", "trinidad14", "foster", "english10")
    for index in range(count):
        profile = profiles[index % len(profiles)]
        players = rng.choice((2, 3, 4)) if profile != "trinidad14" else 4
        knobs = Knobs(hands=rng.choice((0.0, 0.5, 1.0)), offences=0.05, bad_calls=0.1,
                      claims=0.3, totals=0.3)
        yield generate_game(rng, profile_options(profile, players), knobs, profile=profile,
                            index=index + 1)

