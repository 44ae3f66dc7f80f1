"""Properties over generated events: bullseyes summed over tables equal the match total; a
race stops at its target; standings are a total order under the chain; every prize's
evidence points at a deal that has what the prize names.

A pool of generated games is refereed once; each example seats some of them at the tables
of a match (their facts re-tagged, as a game file of that table would read), so an example
costs the assembling, not the refereeing."""

from __future__ import annotations

import functools
import itertools
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from allfours_notation.events.assemble import Assembled, assemble
from allfours_notation.events.eventfile import DEFAULT_TIEBREAKS, TIEBREAKS, Event, read_event_text
from allfours_notation.events.games import FolderRead, PlayedGame, games_of_text
from allfours_notation.events.prizes import prize_list
from allfours_notation.events.standings import BY_NAME, Row, ranked
from allfours_notation.generate import generate_game, profile_options, write_afn
from tests.conftest import examples
from tests.events.make_samples import KNOBS

POOL = 24
TABLES = 3
PLAYERS = {"Red": [f"R{n}" for n in range(2 * TABLES)],
           "Blue": [f"B{n}" for n in range(2 * TABLES)]}
CARDS = ("AS", "6H", "JD", "9C", "TS", "2H")


@functools.cache
def pool() -> tuple[PlayedGame, ...]:
    rng = random.Random(38)
    options = profile_options("trinidad14")
    text = "% AFN 1\n" + "\n".join(
        write_afn(generate_game(rng, options, KNOBS, profile="trinidad14", index=i),
                  version_line=False) for i in range(1, POOL + 1))
    return tuple(games_of_text(text, "pool.afn", ("trinidad14", {})))


def event_of(rule: str, target: int, games: int, hang_jack: int, card: str) -> Event:
    teams = "".join(f'[[team]]\nname = "{name}"\ndivision = "A"\nplayers = {players!r}\n'
                    .replace("'", '"') for name, players in PLAYERS.items())
    prizes = "".join(f'[[prize]]\nkind = "first_hang_jack"\nsuit = "{suit}"\n'
                     for suit in "SHDC")
    prizes += (f'[[prize]]\nkind = "named_kick"\ncard = "{card}"\n'
               '[[prize]]\nkind = "first_hang_with"\ncards = ["QS", "KH", "AD", "TC"]\n'
               '[[prize]]\nkind = "highest_game_count"\n')
    text = (f'[event]\nname = "E"\nrules = "trinidad14"\n[event.scoring]\n'
            f"hang_jack = {hang_jack}\n[match]\nrule = \"{rule}\"\ntarget = {target}\n"
            f"games = {games}\n{teams}{prizes}")
    found = read_event_text(text)
    assert found.diagnostics == () and found.event is not None, found.diagnostics
    return found.event


def seated(game: PlayedGame, table: int, position: int) -> PlayedGame:
    """A pool game as table ``table``'s game ``position`` of Red v Blue would read."""
    red = PLAYERS["Red"][2 * table - 2:2 * table]
    blue = PLAYERS["Blue"][2 * table - 2:2 * table]
    ns, ew = (red, blue) if table % 2 else (blue, red)
    return replace(game, file=f"t{table}.afn", index=position,
                   place=(("Table", str(table)), ("HomeTeam", "Red"), ("AwayTeam", "Blue")),
                   seats=(("N", ns[0]), ("E", ew[0]), ("S", ns[1]), ("W", ew[1])))


@st.composite
def events(draw: st.DrawFn) -> tuple[Event, Assembled]:
    rule = draw(st.sampled_from(("race", "games", "best_of")))
    target = draw(st.integers(1, 6)) * (1 if rule != "best_of" else 2) + (rule == "best_of")
    event = event_of(rule, target, draw(st.integers(1, 4)), draw(st.sampled_from((0, 0, 2))),
                     draw(st.sampled_from(CARDS)))
    tables = draw(st.integers(1, TABLES))
    games = []
    for table in range(1, tables + 1):
        picks = draw(st.lists(st.integers(0, POOL - 1), min_size=1, max_size=6))
        games += [seated(pool()[pick], table, n) for n, pick in enumerate(picks, 1)]
    return event, assemble(event, FolderRead(tuple(games), ()))


@settings(max_examples=examples(100))
@given(events())
def test_bullseyes_summed_over_tables_equal_the_match_total(found: tuple[Event, Assembled],
                                                           ) -> None:
    _, assembled = found
    assert assembled.diagnostics == () or all(
        d.code in ("AFN656", "AFN660") for d in assembled.diagnostics)
    for match in assembled.matches:
        for home in (True, False):
            total = match.home_points if home else match.away_points
            assert sum(t.total(home) for t in match.tables) == total
            assert sum(g.home_points if home else g.away_points
                       for t in match.tables for g in t.games if g.counts) == total


@settings(max_examples=examples(100))
@given(events())
def test_a_race_stops_at_its_target(found: tuple[Event, Assembled]) -> None:
    event, assembled = found
    if event.match_rule != "race":
        return
    target = event.target or 0
    for match in assembled.matches:
        turns = sorted(((n, t.number, g) for t in match.tables for n, g in enumerate(t.games)),
                       key=lambda item: (item[0], item[1]))
        totals = [0, 0]
        ended = False
        for _, _, game in turns:
            if ended:
                assert not game.counts  # nothing counts after the race is won
                continue
            if game.counts:
                totals[0] += game.home_points
                totals[1] += game.away_points
                ended = max(totals) >= target
        assert ended == match.finished == (match.ended_at is not None)
        assert (max(match.home_points, match.away_points) >= target) == match.finished
        if match.finished and match.winner is not None:
            assert match.winner == ("Red" if match.home_points > match.away_points else "Blue")


small = st.integers(0, 2)  # narrow, so that teams tie on links of the chain, often on all
rows = st.builds(
    Row, team=st.text("ABCDEFGH", min_size=1, max_size=3), division=st.just("A"),
    played=small, wins=small, draws=small, losses=small, byes=small, bullseyes_for=small,
    bullseyes_against=small, hang_jacks=small, hang_jacks_against=small)


@settings(max_examples=examples(400))
@given(st.lists(rows, max_size=12, unique_by=lambda r: r.team),
       st.permutations(list(TIEBREAKS)).map(lambda chain: tuple(chain[:4])), st.randoms())
def test_standings_are_a_total_order_under_the_chain(teams: list[Row], chain: tuple[str, ...],
                                                     rng: random.Random) -> None:
    first = ranked(teams, chain)
    shuffled = list(teams)
    rng.shuffle(shuffled)
    assert [r.team for r in ranked(shuffled, chain)] == [r.team for r in first]
    for above, below in itertools.pairwise(first):
        decided = below.decided_by
        assert decided is not None
        for specifier in chain:  # equal on every link before the one that decided
            if specifier == decided:
                more = TIEBREAKS[specifier][1]
                assert (above.value(specifier) > below.value(specifier)) == more
                assert above.value(specifier) != below.value(specifier)
                break
            assert above.value(specifier) == below.value(specifier)
        else:
            assert decided == BY_NAME and above.team < below.team
    assert first == () or first[0].decided_by is None
    assert ranked(teams, DEFAULT_TIEBREAKS) == ranked(shuffled, DEFAULT_TIEBREAKS)


@settings(max_examples=examples(100))
@given(events())
def test_every_prizes_evidence_points_at_a_deal_that_has_it(
        found: tuple[Event, Assembled]) -> None:
    event, assembled = found
    games = {g.game.where: g for m in assembled.matches for t in m.tables for g in t.games}
    for award in prize_list(event, assembled):
        prize = award.prize
        assert award.winner is None or award.evidence
        for evidence in award.evidence:
            assert evidence.game is not None and evidence.deal is not None
            counted = games[evidence.game]
            (deal,) = [d for d in counted.game.deals if d.number == evidence.deal]
            side = counted.home_side if evidence.team == "Red" else (
                "EW" if counted.home_side == "NS" else "NS")
            assert tuple(sorted(counted.game.pair(side))) == evidence.pair
            if prize.kind == "first_hang_jack":
                assert any(h.suit == prize.suit.value and h.side == side  # type: ignore[union-attr]
                           for h in deal.hang_jacks)
            elif prize.kind == "first_hang_with":
                assert any(h.card in prize.cards and h.side == side for h in deal.hang_jacks)
            elif prize.kind == "named_kick":
                assert prize.card in deal.turnups and deal.dealer_side == side
            else:
                assert deal.game_count == (side, award.figure)
