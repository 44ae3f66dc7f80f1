"""The fixed cost per game (issue 16): a file of thousands of tiny games is checked
in a few bytes and microseconds per game, with the same output as before."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from allfours_notation import checking as check
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.parser import read_games
from allfours_notation.reading.slicer import GameSlice, Slices, slice_games
from allfours_notation.referee.profiles import PROFILES

EMPTY_GAMES = ["end\n", "% AFN 1\nend\n", "{a comment} end"]


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_a_game_with_no_tags_and_no_deals_has_nothing_to_referee(profile: str,
                                                                 players: str) -> None:
    """What the fast path of check skips is what the referee would have found: nothing."""
    for text in EMPTY_GAMES:
        game = parse(text).games[0]
        assert not game.deals and not game.tags
        rules = (profile, {"players": players})
        refereed = check.rules_diagnostics(game, rules, list(game.diagnostics))
        fast = check.check(game, rules)
        assert [(d.code, d.line, d.column, d.id) for d in fast.diagnostics] == \
            [(d.code, d.line, d.column, d.id) for d in refereed]
        assert fast.has_errors is any(d.is_error for d in refereed)


def test_tiny_games_go_to_the_workers_in_runs() -> None:
    words = list(check._chunks(read_games("end\n" * 10_000), (None, {})))
    # 4,096 games a run, not one task per game
    assert [index for _, _, index, _, _, _ in words] == [1, 4_097, 8_193]
    text = "% AFN 1\n" + "deal 1 dealer N\nend\n" * 10_000
    reader = read_games(text)
    chunks = list(check._chunks(reader, (None, {})))
    # 20 characters a game: a run is as many games as fit in 64 KB
    assert [index for _, _, index, _, _, _ in chunks] == [1, 3_277, 6_553, 9_829]
    assert all(len(body) <= check.CHUNK_CHARS for body, *_ in chunks)
    body, base, _, pieces, _, _ = chunks[1]
    assert body[pieces[0].start - base : pieces[0].end - base] == \
        text[pieces[0].start : pieces[0].end]


def test_a_big_game_is_a_run_of_its_own() -> None:
    big = "deal 1 dealer N\n" + "; a comment line\n" * 5000 + "end\n"  # 85 KB
    reader = read_games("% AFN 1\n" + "end\n" + big + "end\n")
    assert [len(pieces) for *_, pieces, _, _ in check._chunks(reader, None)] == [1, 1, 1]


pieces = st.builds(
    GameSlice, start=st.integers(0, 2**40), end=st.integers(0, 2**40),
    line=st.integers(1, 2**30), column=st.integers(1, 2**30),
    tags=st.lists(st.tuples(st.text(max_size=3), st.text(max_size=3)), max_size=2),
    has_end=st.booleans(), deals=st.integers(0, 10**6),
    tag_blocks=st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=2),
    too_many_tags=st.booleans())


@given(st.lists(pieces, max_size=8))
def test_compact_slices_give_back_what_was_put_in(written: list[GameSlice]) -> None:
    kept = Slices(written)
    assert len(kept) == len(written) and list(kept) == written and kept == written
    assert kept[1:3] == written[1:3]
    if written:
        assert kept[-1] == written[-1]


@given(st.lists(st.tuples(st.integers(1, 50), st.booleans()), max_size=30),
       st.integers(1, 120), st.integers(1, 5))
def test_windows_cut_the_games_in_order_into_bounded_runs(
        games: list[tuple[int, bool]], max_chars: int, max_games: int) -> None:
    """What a worker is sent: every game once, in order, tags and all, in runs of at
    most ``max_games`` games spanning at most ``max_chars`` (or one longer game)."""
    written, offset = [], 0
    for number, (length, tagged) in enumerate(games):
        tags = [("Event", str(number))] if tagged else []
        written.append(GameSlice(offset, offset + length, number + 1, 1, tags,
                                 tag_blocks=[(offset, offset + 1)] if tagged else []))
        offset += length + 1
    windows = list(Slices(written).windows(max_chars, max_games))
    assert [piece for _, part in windows for piece in part] == written
    assert [first for first, _ in windows] == \
        [sum(len(part) for _, part in windows[:n]) for n in range(len(windows))]
    for _, part in windows:
        start, end = part.text_span
        assert (start, end) == (part[0].start, part[-1].end)
        assert len(part) <= max_games and (len(part) == 1 or end - start <= max_chars)


def test_the_slicer_keeps_games_as_numbers() -> None:
    games = slice_games("end " * 1000).games
    assert isinstance(games, Slices) and len(games) == 1000
    assert games[999].column == 3996 and games[999].has_end


def test_a_game_lists_at_most_a_thousand_structure_findings() -> None:
    """Memory: a few MB of deals whose every card repeats held millions of findings."""
    from allfours_notation.limits import LIMIT_CODE, MAX_FINDINGS_PER_GAME

    unit = "deal {n} dealer N\nturn 2H\n" + "N:JS S:JS\n" * 40
    game = parse("% AFN 1\n" + "".join(unit.format(n=n) for n in range(1, 40)) + "end\n").games[0]
    listed = [d for d in game.diagnostics if d.code != LIMIT_CODE]
    (summary,) = [d for d in game.diagnostics if d.code == LIMIT_CODE]
    assert len(listed) == MAX_FINDINGS_PER_GAME == 1_000  # the cards, and missing tags
    dropped = int(summary.message.split()[0].replace(",", ""))
    assert dropped > 100 and (summary.line, summary.column) == (1, 1)
    small = parse("% AFN 1\n" + "".join(unit.format(n=n) for n in range(1, 5)) + "end\n").games[0]
    assert not any(d.code == LIMIT_CODE for d in small.diagnostics)


def test_a_game_of_too_many_cards_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from allfours_notation.limits import LIMIT_CODE
    from allfours_notation.reading import assembler

    monkeypatch.setattr(assembler, "MAX_CARDS_PER_GAME", 50)
    deal = "deal {n} dealer N\nturn 2H\nN:JS S:2S\n"
    fine = parse("% AFN 1\n" + "".join(deal.format(n=n) for n in range(1, 10)) + "end\n")
    assert not fine.games[0].broken
    text = "% AFN 1\n" + "".join(deal.format(n=n) for n in range(1, 30)) + "end\n"
    (game,) = parse(text).games
    assert game.broken and not game.deals
    assert [d.message for d in game.diagnostics if d.code == LIMIT_CODE] == [
        "this game has more than 50 cards; the game is not read (see 'Limits' in NOTATION.md)"]


@pytest.mark.parametrize("shape", ["many-tags", "duplicate-tags"])
def test_a_huge_header_block_is_scanned_in_constant_memory(shape: str) -> None:
    """The regular expression that reads a header block kept a backtracking state per
    tag: 1.2 GB for 10 MB of tags.  Its repetitions are possessive now."""
    import tracemalloc

    from fuzz.shapes import SHAPES

    text = SHAPES[shape](200_000)
    tracemalloc.start()
    try:
        sliced = slice_games(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(sliced.games) == 1 and sliced.games[0].too_many_tags
    assert peak < 2_000_000  # was about 25 MB at this size


def test_a_game_of_too_many_comments_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every comment is kept in the records: 50 MB of comment lines held 1.3 GB."""
    from allfours_notation.limits import LIMIT_CODE
    from allfours_notation.reading import assembler, lalr

    monkeypatch.setattr(lalr, "MAX_COMMENTS_PER_GAME", 20)
    monkeypatch.setattr(assembler, "MAX_COMMENTS_PER_GAME", 20)

    def game(comments: int) -> str:  # line comments and one brace comment
        return "deal 1 dealer N\n" + "; a remark\n" * (comments - 1) + "{ one more }\nend\n"

    fine = parse("% AFN 1\n" + game(20)).games[0]
    assert not fine.broken and LIMIT_CODE not in {d.code for d in fine.diagnostics}
    first, second = parse("% AFN 1\n" + game(21) + game(3)).games
    assert first.broken and not first.deals
    assert [(d.message, d.line, d.column) for d in first.diagnostics if d.code == LIMIT_CODE] \
        == [("this game has more than 20 comments; the game is not read (see 'Limits' in "
             "NOTATION.md)", 1, 1)]  # where the game starts, as for the other limits
    assert not second.broken  # the next game is read as usual
