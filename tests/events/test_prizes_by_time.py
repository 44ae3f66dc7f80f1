"""The prizes for a "first" decided by the deals' clock times across tables (ties by
table), undecidable without them, and the highest count for Game with a results-only
deal's count (issue 38: the two additions to AFN)."""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

from allfours_notation.checking import check
from allfours_notation.checking.parsing import parse
from allfours_notation.events.assemble import assemble
from allfours_notation.events.eventfile import Event, read_event_file
from allfours_notation.events.games import (
    DealFacts,
    FolderRead,
    PlayedGame,
    facts_of,
    read_folder,
)
from allfours_notation.events.prizes import Award, prize_list
from tests.rules.helpers import game_text

ROOT = Path(__file__).resolve().parents[2]
CLUB = ROOT / "samples" / "event" / "club"


@functools.cache
def club() -> tuple[Event, FolderRead]:
    loaded = read_event_file(CLUB / "EVENT.toml")
    assert loaded.event is not None
    return loaded.event, read_folder(CLUB / "games", loaded.event.given_rules, shown_from=ROOT)


def prizes(read: FolderRead) -> dict[str, Award]:
    event = club()[0]
    return {award.prize.name: award for award in prize_list(event, assemble(event, read))}


def with_deals(read: FolderRead, change: object) -> FolderRead:
    """Every deal of ``read`` passed through ``change`` (a function of a game and a deal)."""
    games = tuple(replace(game, deals=tuple(change(game, deal)  # type: ignore[operator]
                                            for deal in game.deals)) for game in read.games)
    return FolderRead(games, read.unreadable)


FIRSTS = ("1st Hang Jack of Clubs", "1st Hang Jack of Spades", "1st Hang Jack of Diamonds",
          "1st Hang with a Queen", "Kick 9♠")


def test_the_club_samples_firsts_are_decided_by_the_earliest_time_across_tables() -> None:
    found = prizes(club()[1])
    for name in FIRSTS:
        award = found[name]
        assert award.undecidable is None and award.winner is not None, name
        (evidence,) = award.evidence
        assert evidence.time is not None
    kick = found["Kick 9♠"].evidence[0]
    # every other 9♠ turned in the match was turned later
    times = [d.time for g in club()[1].games for d in g.deals if "9S" in d.turnups]
    assert kick.time == min(t for t in times if t is not None) and kick.table == 10


def test_without_clock_times_a_first_across_tables_is_undecidable() -> None:
    untimed = with_deals(club()[1], lambda game, deal: replace(deal, time=None))
    found = prizes(untimed)
    for name in FIRSTS:
        assert found[name].winner is None
        assert (found[name].undecidable or "").startswith("no clock times"), name
        assert len(found[name].evidence) > 1


def test_the_same_time_at_two_tables_goes_to_the_lower_table() -> None:
    """Every deal at 20:00: the first 9♠ kick goes to the lowest table that turned one,
    and the note says why."""
    same = with_deals(club()[1], lambda game, deal: replace(deal, time="20:00"))
    award = prizes(same)["Kick 9♠"]
    assert award.evidence[0].table == 1  # table 1's 9♠ (game 2) ties at 20:00 with others
    assert award.note is not None and "the lower table wins" in award.note


def test_a_time_earlier_than_the_one_before_at_its_table_is_after_midnight() -> None:
    """Table 10's 9♠ kick (the winner by time) moved to 00:05, after every deal before it
    at its table: it is past midnight, so the kick at table 1 (19:xx) comes first."""
    def moved(game: PlayedGame, deal: DealFacts) -> DealFacts:
        if game.file.endswith("table10.afn"):
            return replace(deal, time="00:05" if "9S" in deal.turnups else "23:50")
        return deal
    award = prizes(with_deals(club()[1], moved))["Kick 9♠"]
    assert award.evidence[0].table != 10


def test_a_results_deal_with_a_count_is_a_candidate_for_the_highest_count() -> None:
    """A results-only deal without a count makes the prize undecidable; with a count for
    Game above every played deal's, it wins."""
    read = club()[1]
    first = read.games[0]
    dark = replace(first.deals[0], by_results=True, counted=False, game_count=None)
    hidden = FolderRead((replace(first, deals=(dark, *first.deals[1:])), *read.games[1:]),
                        read.unreadable)
    assert "give no count for Game" in (prizes(hidden)["Highest Count for Game"].undecidable
                                        or "")
    lit = replace(dark, counted=True, game_count=("NS", 79))
    shown = FolderRead((replace(first, deals=(lit, *first.deals[1:])), *read.games[1:]),
                       read.unreadable)
    award = prizes(shown)["Highest Count for Game"]
    assert (award.figure, award.evidence[0].table, award.evidence[0].deal) == (79, 1, 1)


def test_the_facts_of_a_results_deal_carry_its_count_and_its_time() -> None:
    text = game_text("deal 1 dealer N at 21:05\n  scored N high game W low\n"
                     "  count N 44 E 20\n\ndeal 2 dealer W\n  scored W high\n",
                     players=4, rules="trinidad14")
    facts = facts_of(check(parse(text).games[0]), "t.afn")
    first, second = facts.deals
    assert (first.time, first.game_count, first.counted) == ("21:05", ("NS", 44), True)
    assert (second.time, second.game_count, second.counted) == (None, None, False)
    assert second.by_results
