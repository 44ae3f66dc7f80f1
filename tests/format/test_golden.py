"""Golden files: each ``golden/NAME.in.afn`` formats to ``golden/NAME.out.afn``.

The inputs cover lax writing (lowercase, ``10``, suit symbols, no trick numbers,
no seat labels, statements run together), comments everywhere, glyphs, four
players, runs with their hands, penalties, redeals, abandoned and conceded
deals.  ``pytest --update-goldens`` rewrites the expected files (then read the
diff before committing it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.writing.formatter import canonical_records, format_result
from tests.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
INPUTS = sorted(GOLDEN.glob("*.in.afn"))
SAMPLES = sorted((Path(__file__).parents[2] / "samples").glob("*.afn"))


def _expected_path(source: Path) -> Path:
    return source.with_name(source.name.replace(".in.afn", ".out.afn"))


def test_there_are_golden_cases() -> None:
    assert len(INPUTS) >= 6


@pytest.mark.parametrize("source", INPUTS, ids=lambda p: p.name.removesuffix(".in.afn"))
def test_input_formats_to_the_expected_text(source: Path, update_goldens: bool) -> None:
    formatted = format_result(parse(source.read_bytes(), filename=source.name))
    check_golden(formatted, _expected_path(source), update=update_goldens)


@pytest.mark.parametrize("source", INPUTS, ids=lambda p: p.name.removesuffix(".in.afn"))
def test_expected_text_is_a_fixed_point_with_the_same_records(source: Path) -> None:
    original = parse(source.read_bytes())
    expected_text = _expected_path(source).read_text(encoding="utf-8")
    reread = parse(expected_text)
    assert format_result(reread) == expected_text
    assert reread.games == tuple(canonical_records(game) for game in original.games)
    assert reread.trailing == original.trailing


def test_missing_seats_are_filled_from_the_play() -> None:
    """The four-handed input has no seat labels: every card gets one, and the
    leader of each trick is the winner of the one before."""
    game = parse((GOLDEN / "four-players.in.afn").read_bytes()).games[0]
    assert all(play.seat is None for play in game.deals[0].plays())
    text = _expected_path(GOLDEN / "four-players.in.afn").read_text(encoding="utf-8")
    assert "  2. N:2C W:2S S:7C E:8C\n" in text  # anticlockwise, North won trick 1 with QD


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_formats_to_a_fixed_point_without_loss(sample: Path) -> None:
    original = parse(sample.read_bytes())
    if any(game.broken for game in original.games):
        pytest.skip("a broken game is copied as written, not formatted")
    text = format_result(original)
    reread = parse(text)
    assert reread.games == tuple(canonical_records(game) for game in original.games)
    assert reread.trailing == original.trailing
    assert format_result(reread) == text


@pytest.mark.parametrize("source", INPUTS, ids=lambda p: p.name.removesuffix(".in.afn"))
def test_a_crlf_copy_with_a_bom_formats_to_the_same_text(source: Path) -> None:
    data = source.read_bytes()
    windows = b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")
    assert format_result(parse(windows)) == format_result(parse(data))
