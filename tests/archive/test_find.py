"""``allfours find``: filters, original bytes, split and dedupe."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation import parse
from allfours_notation.writing.formatter import format_result

from .conftest import RECORDS, ROOT, SAMPLES, Cli


def _records(text: str | bytes) -> list[object]:
    return [game for game in parse(text).games]


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.afn")))
def test_every_game_comes_out_byte_for_byte(cli: Cli, sample: str, tmp_path: Path) -> None:
    """Each game's bytes stand in the sample as they are; the output re-parses to
    the same records, comments included."""
    data = (SAMPLES / sample).read_bytes()
    run = cli(["find", f"samples/{sample}", "--split", str(tmp_path)])
    assert run.code == 0
    pieces = sorted(tmp_path.iterdir())
    assert len(pieces) == len(parse(data).games)
    for piece in pieces:
        body = piece.read_bytes().removeprefix(b"% AFN 1\n")
        assert body.rstrip(b"\n") in data
    whole = cli(["find", f"samples/{sample}", "-o", str(tmp_path / "all.afn")])
    assert whole.code == 0
    assert _records((tmp_path / "all.afn").read_bytes()) == _records(data)


def test_crlf_and_bad_bytes_are_kept(cli: Cli, tmp_path: Path) -> None:
    source = (SAMPLES / "club-night.afn").read_bytes().replace(b"\n", b"\r\n")
    source = source.replace(b"last game", b"last \xff game")  # not UTF-8, in a comment
    path = tmp_path / "crlf.afn"
    path.write_bytes(b"\xef\xbb\xbf" + source)
    run = cli(["find", "--tag", "Round=3", str(path), "-o", str(tmp_path / "out.afn")])
    out = (tmp_path / "out.afn").read_bytes()
    assert run.code == 0
    assert b"last \xff game" in out and b"\r\n" in out and out.count(b"[Round") == 1
    body = out.removeprefix(b"% AFN 1\n").rstrip(b"\n")
    assert body in source


def test_header_filters(cli: Cli) -> None:
    def games(*args: str) -> list[str]:
        run = cli(["find", "--list", *args, *RECORDS])
        return [line.split()[0] for line in run.out.splitlines()]

    assert games("--player", "ann baptiste") == [
        "samples/club-night.afn:1", "samples/club-night.afn:2",
        "samples/turned-jack-wins.afn:1", "samples/two-player-to-seven.afn:1"]
    assert games("--player", "~^ann", "--deals", "4") == [
        "samples/club-night.afn:2", "samples/turned-jack-wins.afn:1",
        "samples/two-player-to-seven.afn:1"]
    assert games("--rules", "trinidad14") == [
        "samples/club-results.afn:1", "samples/four-handed-trinidad.afn:1",
        "samples/tobago-options.afn:1"]
    assert games("--from", "2026.10", "--to", "2026.10.31") == [
        "samples/four-handed-trinidad.afn:1"]
    assert games("--tag", "Event~(?i)sunday", "--result", "N") == ["samples/disputed-claim.afn:1"]
    assert games("--tag", "Round=3") == ["samples/club-night.afn:3"]
    assert games("--result", "*") == ["samples/discards-after-a-run.afn:1",
                                      "samples/pack-order.afn:1", "samples/single-dummy.afn:1",
                                      "samples/unfinished.afn:1",
                                      "samples/worked-example-a.afn:1"]


def test_content_filters(cli: Cli) -> None:
    def games(*args: str) -> list[str]:
        run = cli(["find", "--list", *args, *RECORDS])
        return [line.split()[0] for line in run.out.splitlines()]

    assert games("--has", "revoke") == ["samples/revoke.afn:1"]
    assert games("--has", "dispute") == ["samples/disputed-claim.afn:1"]
    assert games("--has", "errors") == ["samples/disputed-claim.afn:1",
                                        "samples/one-broken-game.afn:2"]
    assert games("--has", "undertrump") == ["samples/tobago-options.afn:1"]
    assert "samples/turned-jack-wins.afn:1" in games("--has", "turned-jack")
    hanged = games("--has", "hang-jack")
    assert hanged and all(g in games("--rules", "trinidad14") for g in hanged)
    everything = games()
    assert sorted(games("--has", "run") + games("--without", "run")) == sorted(everything)


def test_no_match_exits_1_and_a_bad_filter_exits_2(cli: Cli) -> None:
    assert cli(["find", "--player", "Nobody", *RECORDS]).code == 1
    bad = cli(["find", "--tag", "Event~(", *RECORDS])
    assert bad.code == 2 and "not a regular expression" in bad.err
    assert cli(["find", "--deals", "x", *RECORDS]).code == 2
    assert cli(["find", "--from", "yesterday", *RECORDS]).code == 2


def test_dedupe_drops_the_same_records_laid_out_otherwise(cli: Cli, tmp_path: Path) -> None:
    original = (SAMPLES / "club-night.afn").read_text(encoding="utf-8")
    (tmp_path / "a.afn").write_text(original, encoding="utf-8")
    laid_out = original.replace("\n  ", "\n      ")  # the same records, indented otherwise
    assert laid_out != original and format_result(parse(laid_out)) == original
    (tmp_path / "b.afn").write_text(laid_out, encoding="utf-8")
    changed = original.replace("total N 7 S 6", "total N 7 S 5", 1)
    (tmp_path / "c.afn").write_text(changed, encoding="utf-8")
    run = cli(["find", "--dedupe", "--list", str(tmp_path)])
    assert [line.split()[0].split("/")[-1] for line in run.out.splitlines()] == [
        "a.afn:1", "a.afn:2", "a.afn:3", "c.afn:1"]
    assert len(cli(["find", "--list", str(tmp_path)]).out.splitlines()) == 9


def test_split_names_are_unique(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = cli(["find", "--split", str(out), "samples/club-night.afn", "samples/club-night.afn"])
    assert run.code == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "club-night-001+.afn", "club-night-001.afn", "club-night-002+.afn",
        "club-night-002.afn", "club-night-003+.afn", "club-night-003.afn"]
    assert str(ROOT) not in (out / "club-night-001.afn").read_text(encoding="utf-8")
