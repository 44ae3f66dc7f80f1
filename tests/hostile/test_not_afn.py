"""Issue 41, finding 9: a file that is not text AFN gets one clear line and exit status 2
from every command, as ``view`` always did; ``fmt`` never writes binary to the terminal.

Before: ``check`` on a 4 KB binary file printed 179 lines (56 KB) of escaped bytes, ``fmt``
echoed the binary to standard output and an empty file exited 0.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from allfours_notation.cli import main
from allfours_notation.reading.files import SNIFF_BYTES, not_afn_reason

ROOT = Path(__file__).resolve().parents[2]


def _binary(size: int) -> bytes:
    return random.Random(41).randbytes(size)


NOT_AFN: dict[str, bytes] = {
    "binary": _binary(4096),
    "nul-heavy": "deal 1 dealer N\nend\n".encode("utf-16-le"),
    "not-utf-8": bytes(random.Random(9).choice(range(0x80, 0x100)) for _ in range(3000)),
    "png": b"\x89PNG\r\n\x1a\n" + _binary(500),
    "empty": b"",
    "white-space": b" \n\t\r\n  \n",
    "bom-only": b"\xef\xbb\xbf\n",
}

COMMANDS = [["check"], ["check", "--json"], ["score"], ["fmt"], ["fmt", "--check"],
            ["fmt", "--write"], ["export"], ["export", "--csv", "{out}"], ["list"],
            ["find", "--list"], ["stats"], ["html", "-o", "{out}/page.html"], ["analyse"]]


@pytest.fixture
def quiet_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
              ) -> Iterator[pytest.CaptureFixture[str]]:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    yield capsys


@pytest.mark.parametrize("kind", sorted(NOT_AFN))
def test_the_judgement_names_each_kind(kind: str) -> None:
    reason = not_afn_reason("x.afn", NOT_AFN[kind])
    assert reason is not None and reason.startswith("x.afn: not an AFN file")
    if kind in ("empty", "white-space", "bom-only"):
        assert "(no games)" in reason


@pytest.mark.parametrize("sample", ["annotated.afn", "club-results.afn", "lax-input.afn"])
def test_afn_text_is_afn(sample: str) -> None:
    assert not_afn_reason(sample, (ROOT / "samples" / sample).read_bytes()) is None


def test_a_record_with_a_few_latin_1_bytes_is_still_read() -> None:
    """An odd byte that is not UTF-8 is an AFN102 at its place, not a refusal."""
    text = ('% AFN 1\n[Event "Fête à Arima"]\n[North "José"]\n[South "Zoë"]\n'
            "deal 1 dealer N\nend\n" * 20).encode("latin-1")
    assert not_afn_reason("x.afn", text) is None


def test_a_record_with_a_nul_in_a_name_is_still_read() -> None:
    """A control character in a record is an AFN111 warning at its place (kept as
    written): one NUL does not make a record binary."""
    text = b'% AFN 1\n[Event "x"]\n[North "A\x00nn"]\ndeal 1 dealer N\nend\n'
    assert not_afn_reason("x.afn", text) is None


def test_only_the_head_is_judged() -> None:
    """A large file is judged by its first 64 KiB: a NUL far into it is the record's
    (an AFN111 at its place), and a multi-byte character cut at 64 KiB is no fault."""
    text = b"; " + "é".encode() * (SNIFF_BYTES // 2) + b"\n\x00\n"
    assert not_afn_reason("x.afn", text) is None


@pytest.mark.parametrize("command", COMMANDS, ids=lambda words: " ".join(words[:2]))
def test_every_command_gives_one_line_and_status_2(
        tmp_path: Path, quiet_cli: pytest.CaptureFixture[str], command: list[str]) -> None:
    args = [word.format(out=tmp_path / "out") for word in command]
    for kind, data in NOT_AFN.items():
        path = tmp_path / f"{kind}.afn"
        path.write_bytes(data)
        status = main([*args, str(path)])
        said = quiet_cli.readouterr()
        assert status == 2, (kind, said.err)
        assert said.err.count("\n") == 1 and "not an AFN file" in said.err, (kind, said.err)
        if "--json" in command:  # the JSON report stands, and says the file was not read
            assert '"files_not_read": 1' in said.out
        else:
            assert said.out == "", (kind, said.out[:200])  # fmt: no binary written back
        assert path.read_bytes() == data  # fmt --write left it alone


def test_a_folder_command_reports_the_file_and_reads_the_others(
        tmp_path: Path, quiet_cli: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-picture.afn").write_bytes(NOT_AFN["png"])
    (tmp_path / "b-game.afn").write_bytes((ROOT / "samples" / "club-results.afn").read_bytes())
    status = main(["list", str(tmp_path)])
    said = quiet_cli.readouterr()
    assert status == 2
    assert "a-picture.afn: not an AFN file (binary data)" in said.err
    assert "b-game.afn:1" in said.out


def test_the_recorder_never_appends_to_a_binary_file(tmp_path: Path) -> None:
    from allfours_notation.recording.opening import NewGame, Refused, inspect

    picture = tmp_path / "picture.afn"
    picture.write_bytes(NOT_AFN["png"])
    opened = inspect(picture)
    assert isinstance(opened, Refused) and "not an AFN file (binary data)" in opened.message
    assert opened.not_text  # exit 2, as from every command
    empty = tmp_path / "new.afn"
    empty.write_bytes(b"")
    assert isinstance(inspect(empty), NewGame)  # an empty file: a record starts in it
