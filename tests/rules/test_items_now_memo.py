"""The items "if the deal ended now" that the referee keeps from step to step are the
items it would make afresh at that step.

``Closing.items_now`` makes them again only when its key changed, and then the play's
points each only when what it reads changed (``Closing.kept_play_points``; issue 38: a
replay page asks them at every step, and making them was a quarter of the page's cost).  A key
that misses something an item reads would show a stale item; here, at every step of the
samples and of generated games of the four profiles, the kept items are compared with
items made afresh.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.generate import Knobs, generate_game, profile_options
from allfours_notation.reading.records import Game, Play
from allfours_notation.referee.deal.closing import Closing
from allfours_notation.referee.deal.table import Table
from allfours_notation.referee.decided import ItemStatus
from allfours_notation.referee.profiles import resolve_options
from allfours_notation.referee.replay import deal_events, replay

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
PROFILES = ("hoffmann1909", "english10", "foster", "trinidad14")
# hands written or not (the play shows them), offences, a pack's order, discards
KNOBS = (Knobs(), Knobs(hands=0.0), Knobs(offences=0.3, bad_calls=0.3, unseen=0.2, hands=0.3),
         Knobs(pack=0.5, discards=0.2, offences=0.2, hands=0.0))


def afresh(deal: Closing) -> tuple[ItemStatus, ...]:
    """The items made with nothing kept (the play's points and the items made of them
    kept aside, then put back)."""
    kept, deal.points_memo = deal.points_memo, {}
    items, deal.item_memo = deal.item_memo, {}
    facts, deal.facts_memo = deal.facts_memo, None
    extremes, deal.ledger.extremes = deal.ledger.extremes, None
    try:
        return deal.make_items()
    finally:
        deal.points_memo, deal.item_memo = kept, items
        deal.facts_memo, deal.ledger.extremes = facts, extremes


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """``items_now`` checked against ``make_items`` at every call; yields the number of
    calls made and of those the memo answered.  A difference is noted and failed on at
    the end: the referee turns an exception inside it into a finding (AFN901).

    At every step, a trick's end among them: the trick just won is credited at its own
    step (its pips and the cards it took), so the items made afresh there credit it too."""
    counts = [0, 0]
    stale: list[tuple[int, int]] = []
    kept = Closing.items_now

    def checked(self: Closing) -> tuple[ItemStatus, ...]:
        before = self.items_cache
        found = kept(self)
        counts[0] += 1
        if self.items_cache is before:  # answered from the memo
            counts[1] += 1
        if found != afresh(self):
            stale.append((self.number, self.g.step_count))
        return found

    monkeypatch.setattr(Closing, "items_now", checked)
    yield counts
    assert not stale, f"stale items at (deal, step) {stale[:5]}"


def replay_all(games: list[Game]) -> None:
    for game in games:
        replay(game)


def test_the_kept_items_are_made_afresh_items_in_the_samples(compared: list[int]) -> None:
    for path in sorted(SAMPLES.glob("*.afn")):
        replay_all([g for g in parse(path.read_bytes(), filename=path.name).games
                    if not g.broken])
    assert compared[0] > 1000
    assert compared[1] > 0  # the memo answered some: the comparison tests it


@pytest.mark.parametrize("profile", PROFILES)
def test_the_kept_items_are_made_afresh_items_in_generated_games(
        profile: str, compared: list[int]) -> None:
    rng = random.Random(f"items-now-{profile}")
    options = profile_options(profile)
    replay_all([generate_game(rng, options, knobs, profile=profile)
                for knobs in KNOBS for _ in range(3)])
    assert compared[1] > 0


def test_a_gift_waiting_for_the_dealers_trump_is_decided_by_a_middle_trump(
        compared: list[int]) -> None:
    """Under ``give_requires_trump=yes`` a gift by a dealer whose hand was not written
    waits for the play to show a trump of the dealer's; here the dealer's first trump
    seen is neither the highest nor the lowest seen (both written in the elder's hand),
    and the gift is decided at that card, not at the trick's end."""
    text = """% AFN 1
[Rules "hoffmann1909"]
[GiveRequiresTrump "yes"]

deal 1 dealer N
  S AS 2S KH QH JD 9D
  turn 5S
  S begs
  N gives
  1. S:KH N:3H
  2. S:AS N:7S
  3. S:QH N:4H
  4. S:JD N:5D
  5. S:9D N:6D
  6. S:2S N:8C
"""
    replay_all(list(parse(text).games))
    assert compared[1] > 0

def test_a_snapshot_keeps_items_of_its_own_play() -> None:
    """A snapshot taken in the play (a recorder's undo) makes its items from its own
    tricks and pips, not from those of the table it was copied from, which played on."""
    rng = random.Random("items-now-snapshot")
    options = profile_options("trinidad14")
    checked = 0
    for _ in range(6):
        game = generate_game(rng, options, Knobs(hands=0.0), profile="trinidad14")
        table = Table(game, resolve_options(game)[0])
        events = [event for deal in game.deals for event in deal_events(deal)]
        plays = [index for index, event in enumerate(events) if isinstance(event, Play)]
        for at in plays[8::17]:  # now and then in the play
            table = Table(game, resolve_options(game)[0])
            for event in events[:at]:
                table.apply(event)
            copy = table.snapshot()
            for event in events[at:at + 8]:  # the table plays two tricks on
                table.apply(event)
            for event in events[at:at + 4]:  # its copy one
                copy.apply(event)
            deal = copy.current
            assert isinstance(deal, Closing)
            assert deal.items_now() == afresh(deal)
            checked += 1
    assert checked > 10
