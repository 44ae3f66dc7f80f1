"""The viewer's non-Textual parts: batch indexing, file checks, step navigation."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from allfours_notation import Seat, parse, scan_headers
from allfours_notation.referee.replay import StepKind, replay
from allfours_notation.viewer import model
from allfours_notation.viewer.loader import NotAfnError, check_path, index_in_batches, read_text
from tests.viewer.viewer_helpers import BROKEN, FOUR, TWO

TEXTS = [read_text(path) for path in (TWO, FOUR, BROKEN)]
MANY = "% AFN 1\n" + "".join(
    TWO.read_text().replace("% AFN 1\n", "").replace("Arima club night", f"Night {i}")
    + ("{ a comment with the word end in it }\n" if i % 3 == 0 else "")
    for i in range(30)
)


@settings(deadline=None)
@given(text=st.sampled_from([*TEXTS, MANY]), first=st.integers(1, 3000),
       size=st.integers(1, 5000))
def test_batches_find_the_same_games_as_one_scan(text: str, first: int, size: int) -> None:
    batches = list(index_in_batches(text, first=first, size=size))
    found = [header for batch in batches for header in batch.headers]
    assert found == scan_headers(text)
    assert batches[-1].fraction == 1.0
    assert [b.done for b in batches] == sorted(b.done for b in batches)


def test_the_first_batch_of_a_big_text_is_small() -> None:
    first = next(index_in_batches(MANY, first=2000))
    assert 0 < len(first.headers) < len(scan_headers(MANY))


def test_an_empty_text_yields_one_empty_batch() -> None:
    assert [(b.headers, b.fraction) for b in index_in_batches("")] == [((), 1.0)]


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda tmp: tmp / "missing.afn", "no such file"),
        (lambda tmp: tmp, "is a directory"),
        (lambda tmp: _write(tmp / "x.bin", b"\x00\x01\x02PK"), "not an AFN file"),
        (lambda tmp: _write(tmp / "notes.txt", b"shopping list\nmilk\n"), "not an AFN file"),
        (lambda tmp: _write(tmp / "empty.afn", b""), "not an AFN file"),
    ],
)
def test_check_path_refuses_what_cannot_be_viewed(tmp_path: Path, make: object,
                                                  expected: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(NotAfnError, match=expected):
        check_path(path)


def test_check_path_accepts_a_file_with_errors() -> None:
    check_path(BROKEN)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# --- navigation over a real replay ---------------------------------------------------------

GAME = parse(TWO.read_text()).games[0]
REPLAY = replay(GAME)
STEPS = REPLAY.steps


def test_next_trick_stops_only_at_deal_and_trick_edges() -> None:
    index, seen = 0, []
    while True:
        after = model.next_trick(STEPS, index)
        if after == index:
            break
        seen.append(STEPS[after].kind)
        index = after
    assert set(seen) <= model.TRICK_STOPS
    assert seen.count(StepKind.TRICK_END) == sum(len(d.tricks) for d in GAME.deals)


def test_previous_trick_walks_back_to_the_start() -> None:
    index = len(STEPS) - 1
    for _ in range(len(STEPS)):
        index = model.previous_trick(STEPS, index)
    assert index == 0


def test_deal_moves_use_the_replayers_deal_bounds() -> None:
    second = REPLAY.deals[1]
    middle = (second.first_step + second.last_step) // 2
    assert model.deal_of(REPLAY, middle) == 1
    assert model.deal_start(REPLAY, middle) == second.first_step
    assert model.deal_end(REPLAY, middle) == second.last_step
    assert model.previous_deal(REPLAY, middle) == REPLAY.deals[0].first_step
    assert model.next_deal(REPLAY, 0) == second.first_step
    assert model.next_deal(REPLAY, middle) == middle  # no third deal


def test_find_deal_and_trick() -> None:
    assert model.find_deal(REPLAY, 2) == REPLAY.deals[1].first_step
    found = model.find_deal(REPLAY, 2, 5)
    assert found is not None and STEPS[found].trick == 5 and STEPS[found + 1].trick != 5
    assert model.find_deal(REPLAY, 3) is None
    assert model.find_deal(REPLAY, 1, 9) is None


def test_every_replayer_diagnostic_leads_to_its_step() -> None:
    broken = parse(BROKEN.read_text()).games[2]
    result = replay(broken)
    located = [d for s in result.steps for d in s.diagnostics]
    assert located
    for diagnostic in located:
        step = model.step_of_diagnostic(result, diagnostic)
        assert step is not None and diagnostic in result.steps[step].diagnostics


def test_a_claim_or_total_finding_leads_to_its_own_step() -> None:
    """Issue 37: Enter on a claim's or a total's finding went to the deal's first step."""
    from allfours_notation.checking import check

    game = parse((Path(__file__).parents[2] / "samples" / "disputed-claim.afn")
                 .read_text(encoding="utf-8")).games[0]
    result = replay(game)
    found = {(d.code, d.deal): d for d in check(game).diagnostics}
    claim = model.step_of_diagnostic(result, found["AFN401", 2])
    assert claim is not None and result.steps[claim].kind is StepKind.AWARD
    span = result.steps[claim].span
    assert span is not None and span.line == found["AFN401", 2].line
    total = model.step_of_diagnostic(result, found["AFN402", 1])
    assert total is not None and result.steps[total].kind is StepKind.DEAL_END


@pytest.mark.parametrize(
    ("text", "expected"),
    [("3", (3, None)), ("3.2", (3, 2)), ("3 2", (3, 2)), ("deal 3 trick 2", (3, 2)),
     ("d3 t2", (3, 2)), ("Deal 4", (4, None)), ("", None), ("x", None), ("1.2.3", None)],
)
def test_parse_goto(text: str, expected: tuple[int, int | None] | None) -> None:
    assert model.parse_goto(text) == expected


def test_kibitz_cycles_every_seat_then_back_to_all() -> None:
    seats = (Seat.NORTH, Seat.SOUTH)
    order: list[Seat | None] = [None]
    for _ in range(3):
        order.append(model.kibitz_cycle(seats, order[-1]))
    assert order == [None, Seat.NORTH, Seat.SOUTH, None]


def test_library_parses_a_game_only_when_asked() -> None:
    text = read_text(BROKEN)
    library = model.Library(str(BROKEN), text)
    library.add(scan_headers(text))
    assert not any(library.is_loaded(i) for i in range(len(library)))
    entry = library.entry(1)
    assert library.is_loaded(1) and not library.is_loaded(0)
    assert entry.has_errors and entry.game.broken
    assert library.entry(1) is entry  # replayed once, kept


def test_notes_hold_comments_and_glyphs_by_position() -> None:
    notes = model.collect_notes(GAME)
    texts = [c.text.strip() for note in notes.values() for c in note.comments]
    assert "ten of trumps makes Game" in texts
    assert any(note.glyph is not None and note.glyph.value == "!!" for note in notes.values())


def test_comments_are_reflowed_for_the_panel_to_wrap() -> None:
    from allfours_notation.viewer.widgets.panels import reflow

    written = "trinidad14: play goes\n  anticlockwise,  so North deals.\n\n  West begs. "
    assert reflow(written) == "trinidad14: play goes anticlockwise, so North deals.\nWest begs."


def test_a_kibitzer_learns_of_a_revoke_when_the_deal_ends() -> None:
    text = read_text(BROKEN)
    library = model.Library(str(BROKEN), text)
    library.add(scan_headers(text))
    entry = library.entry(2)  # the game with revokes
    offences = [(d, at) for d, at in zip(entry.diagnostics, entry.diagnostic_steps, strict=True)
                if d.code in model.HIDDEN_HAND_CODES and at is not None]
    assert offences
    for diagnostic, at in offences:
        deal_end = entry.replay.deals[model.deal_of(entry.replay, at)].last_step
        assert at < deal_end  # shown at the offending card with hindsight...
        assert diagnostic not in entry.diagnostics_until(at)  # ...not to a kibitzer
        assert diagnostic in entry.diagnostics_until(deal_end)


def test_library_keeps_only_the_most_recently_shown_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays bounded on a huge file: visiting every game keeps only the last few."""
    monkeypatch.setattr(model, "KEPT_ENTRIES", 3)
    text = "% AFN 1\n" + "deal 1 dealer N\nturn 2H\nend\n" * 10
    library = model.Library("many.afn", text)
    library.add(scan_headers(text))
    for position in range(len(library)):
        library.entry(position)
    assert library.kept == 3
    assert [library.is_loaded(i) for i in range(len(library))] == [False] * 7 + [True] * 3
    library.entry(7)  # shown again: now the most recent, so game 8 goes next
    library.entry(0)
    assert library.is_loaded(7) and library.is_loaded(9) and not library.is_loaded(8)
    assert library.entry(0).game.index == 1  # a dropped game is simply read again


def test_a_kibitzer_learns_of_a_stand_without_a_trump_when_the_deal_ends() -> None:
    from tests.rules.helpers import EXAMPLE_C, game_text

    text = game_text(EXAMPLE_C, tags={"StandRequiresTrump": "yes"})
    library = model.Library("stand.afn", text)
    library.add(scan_headers(text))
    entry = library.entry(0)
    [(stand, at)] = [(d, at) for d, at in zip(entry.diagnostics, entry.diagnostic_steps,
                                               strict=True) if d.code == "AFN308"]
    assert model.hides_a_hand(stand, entry.replay) and at is not None
    assert not model.hides_a_hand(stand)  # the referee's mark, not the words, tells
    deal_end = entry.replay.deals[0].last_step
    assert stand not in entry.diagnostics_until(at)
    assert stand in entry.diagnostics_until(deal_end)
