"""Streaming and the headers-only scan agree with the whole-file parse."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from allfours_notation import iter_games, parse, parse_indexed, scan_headers

GAMES = """% AFN 1
[Event "one"] [North "A"] [South "B"]
deal 1 dealer N { opening } S JS 9H N 2D 3D turn 4S S stands
  1. S:JS N:2D 2. S:9H N:3D ; line comment
end
[Event "two \\"quoted\\""]
deal 1 dealer N turn 4X end
[Event "three"] deal 1 dealer S turn 5S N begs S gives
[Event "four"] deal 1 dealer N turn 6S
  { a comment
    over lines } end
"""


@pytest.mark.parametrize("chunk_size", [1, 7, 64, 1 << 20])
def test_stream_yields_the_same_games_and_positions(chunk_size: int) -> None:
    from allfours_notation.reading.stream import stream_games
    from allfours_notation.referee.structure import check_read_game

    whole = parse(GAMES)
    streamed = list(stream_games(io.BytesIO(GAMES.encode()), chunk_size=chunk_size,
                                 finish=check_read_game))
    assert streamed == list(whole.games)
    assert [g.diagnostics for g in streamed] == [g.diagnostics for g in whole.games]


def test_iter_games_reads_a_path(tmp_path: Path) -> None:
    path = tmp_path / "g.afn"
    path.write_text(GAMES, encoding="utf-8")
    assert [g.tag("Event") for g in iter_games(path)] == ["one", 'two "quoted"', "three", "four"]
    assert all(g.source == str(path) for g in iter_games(path))


def test_headers_scan_matches_the_parse() -> None:
    headers = scan_headers(GAMES)
    games = parse(GAMES).games
    assert [h.tags for h in headers] == [tuple((t.name, t.value) for t in g.tags) for g in games]
    assert [h.deals for h in headers] == [1, 1, 1, 1]


def test_parse_indexed_gives_the_same_game() -> None:
    games = parse(GAMES).games
    for header, game in zip(scan_headers(GAMES), games, strict=True):
        one = parse_indexed(GAMES, header)
        assert one == game
        assert one.diagnostics == game.diagnostics
