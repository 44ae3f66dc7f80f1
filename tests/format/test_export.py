"""JSON export: a golden file, the schema, and ``allfours export``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from allfours_notation.checking.parsing import parse
from allfours_notation.cli import main
from allfours_notation.reading.parser import ParseResult
from allfours_notation.writing.export import result_to_json
from allfours_notation.writing.schema import schema, schema_text
from tests.golden import check_golden

from .strategies import results

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
SCHEMA: dict[str, Any] = schema()
VALIDATOR = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)
BROKEN = b'% AFN 1\n[Event "x"]\ndeal 1 dealer N\n  turn 4X\nend\n[Event "y"] deal 1 dealer S end\n'


def _exported(result: ParseResult) -> Any:
    """Through real JSON text, as a reader of the file would see it."""
    return json.loads(json.dumps(result_to_json(result)))


def validate(instance: Any) -> list[str]:
    """Every way ``instance`` breaks the schema, each as 'path: message'."""
    return [
        f"{error.json_path}: {error.message}"
        for error in sorted(VALIDATOR.iter_errors(instance), key=lambda e: e.json_path)
    ]


def test_json_golden(
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
    update_goldens: bool,
) -> None:
    source = GOLDEN / "glyphs.in.afn"
    monkeypatch.chdir(GOLDEN)  # the JSON names the file as the command line did
    assert main(["export", "--json", source.name]) == 0
    written = capsysbinary.readouterr().out.decode("utf-8")
    check_golden(written, GOLDEN / "glyphs.json", update=update_goldens)


def test_export_writes_cards_seats_comments_and_positions() -> None:
    result = parse(
        b'% AFN 1\n[North "a"] [South "b"]\ndeal 1 dealer N\n'
        b"  S js ?? ; two cards\n  turn 4s\n  S stands\n  1. S:JS! {x} N:2D\nend\n"
    )
    deal = _exported(result)["games"][0]["deals"][0]
    hand = deal["opening"][0]
    assert hand["type"] == "hand" and hand["seat"] == "S" and hand["cards"] == ["JS", None]
    assert hand["trailing"] == [
        {
            "text": " two cards",
            "style": "line",
            "span": {
                "line": 4,
                "column": 11,
                "end_line": 4,
                "end_column": 22,
                "start": 58,
                "end": 69,
            },
        }
    ]
    first, second = deal["tricks"][0]["plays"]
    assert (first["card"], first["seat"], first["glyph"]) == ("JS", "S", "!")
    assert second["leading"][0]["text"] == "x"
    assert second["span"]["line"] == 7 and second["span"]["column"] == 16


def test_diagnostics_are_exported_with_the_file_and_each_game() -> None:
    data = _exported(parse(BROKEN, filename="b.afn"))
    assert data["games"][0]["broken"] is True and data["games"][0]["deals"] == []
    assert [d["code"] for d in data["games"][0]["diagnostics"]] == ["AFN101"]
    assert "AFN101" in [d["code"] for d in data["diagnostics"]]
    assert data["diagnostics"][0]["file"] == "b.afn"


@pytest.mark.parametrize(
    "source",
    sorted(GOLDEN.glob("*.afn")) + sorted((ROOT / "samples").glob("*.afn")),
    ids=lambda p: p.name,
)
def test_exported_files_conform_to_the_schema(source: Path) -> None:
    assert validate(_exported(parse(source.read_bytes(), filename=source.name))) == []


@pytest.mark.parametrize(
    "data",
    [BROKEN, b"\xff\xfe not utf-8", b"", b"{ never closed"],
    ids=["broken", "bad-bytes", "empty", "open-comment"],
)
def test_exported_bad_input_conforms_to_the_schema(data: bytes) -> None:
    assert validate(_exported(parse(data, filename="x.afn"))) == []


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(results)
def test_exported_generated_records_conform_to_the_schema(result: ParseResult) -> None:
    assert validate(_exported(result)) == []


def test_the_validator_finds_what_does_not_conform() -> None:
    """So that a passing schema test means something."""
    good = _exported(parse((GOLDEN / "glyphs.in.afn").read_bytes()))
    play = good["games"][0]["deals"][0]["tricks"][0]["plays"][0]
    play["card"] = "10C"
    del play["glyph"]
    play["colour"] = "red"
    good["games"][0]["deals"][0]["opening"][0]["type"] = "turnup"
    good["games"][0]["ended"] = 1
    errors = validate(good)
    assert any("'10C' does not match" in e for e in errors), errors
    assert any("'glyph' is a required property" in e for e in errors), errors
    assert any("('colour' was unexpected)" in e for e in errors), errors
    assert any(e.startswith("$.games[0].deals[0].opening[0]: ") for e in errors), errors
    assert "$.games[0].ended: 1 is not of type 'boolean'" in errors


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


def test_export_schema_prints_the_packaged_schema(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert main(["export", "--schema"]) == 0
    printed = capsysbinary.readouterr().out.decode("utf-8")
    assert printed == schema_text()
    assert printed == (ROOT / "grammar" / "afn-records.schema.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("args", [["export"], ["export", "--schema", "x.afn"]])
def test_export_without_a_file_or_with_both_is_a_usage_error(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err.startswith("allfours: ")


def test_the_schema_names_every_exported_definition() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for name in (
        "game",
        "deal",
        "hand",
        "turn",
        "call",
        "trick",
        "play",
        "claim",
        "total",
        "penalty",
        "redeal",
        "abandoned",
        "concede",
        "comment",
        "span",
        "diagnostic",
    ):
        assert SCHEMA["$defs"][name]["description"]


def test_export_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BROKEN)))
    assert main(["export", "--compact", "-"]) == 1  # the file has errors; JSON still written
    out = capsysbinary.readouterr().out
    assert out.count(b"\n") == 1
    assert json.loads(out)["file"] == "<stdin>"


def test_export_of_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["export", str(tmp_path / "nope.afn")]) == 2


def test_fill_seats_gives_every_card_its_seat(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = str(GOLDEN / "four-players.in.afn")
    assert main(["export", source]) == 0
    bare = json.loads(capsysbinary.readouterr().out)
    main(["export", "--fill-seats", source])
    filled = json.loads(capsysbinary.readouterr().out)
    bare_seats = [p["seat"] for t in bare["games"][0]["deals"][0]["tricks"] for p in t["plays"]]
    filled_seats = [p["seat"] for t in filled["games"][0]["deals"][0]["tricks"] for p in t["plays"]]
    assert set(bare_seats) == {None}
    assert filled_seats[:8] == ["W", "S", "E", "N", "N", "W", "S", "E"]


def _documents(text: str) -> list[Any]:
    """Concatenated JSON documents, as ``export`` writes them for several files."""
    decoder = json.JSONDecoder()
    found, at = [], 0
    while at < len(text):
        value, at = decoder.raw_decode(text, at)
        found.append(value)
        while at < len(text) and text[at].isspace():
            at += 1
    return found


def test_export_takes_many_files_and_stdin(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BROKEN)))
    names = ["samples/no-hands.afn", "-", "samples/revoke.afn"]
    assert main(["export", *names]) == 1  # the stdin game has an error
    documents = _documents(capsysbinary.readouterr().out.decode("utf-8"))
    assert [d["file"] for d in documents] == ["samples/no-hands.afn", "<stdin>",
                                              "samples/revoke.afn"]
    assert main(["export", "--compact", "samples/no-hands.afn", "samples/revoke.afn"]) == 0
    lines = capsysbinary.readouterr().out.decode("utf-8").splitlines()
    assert len(lines) == 2 and all(json.loads(line)["format"] == "afn-records" for line in lines)


def test_no_positions_drops_every_span_and_still_conforms(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["export", "samples/club-night.afn"]) == 0
    full = capsysbinary.readouterr().out.decode("utf-8")
    assert main(["export", "--no-positions", "samples/club-night.afn"]) == 0
    lean = capsysbinary.readouterr().out.decode("utf-8")
    assert '"span"' in full and '"span"' not in lean
    assert len(lean) < len(full) / 2
    assert validate(json.loads(lean)) == []
    kept = json.loads(lean)["games"][0]["deals"][0]["tricks"][0]["plays"][0]
    assert set(kept) == {"card", "seat", "glyph", "leading", "trailing"}


def test_exported_diagnostics_carry_their_id_and_cause() -> None:
    data = _exported(parse(BROKEN, filename="b.afn"))
    ids = [d["id"] for d in data["diagnostics"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids) and None not in ids
    assert all(d["cause"] is None or d["cause"] in ids for d in data["diagnostics"])
    # a game's list shows the same numbers as the file's
    game_ids = [d["id"] for d in data["games"][0]["diagnostics"]]
    assert set(game_ids) <= set(ids)


def test_each_game_carries_its_rules_with_typed_values() -> None:
    data = _exported(parse((ROOT / "samples" / "tobago-options.afn").read_bytes()))
    rules = data["games"][0]["rules"]
    assert rules["name"].startswith("trinidad14")
    assert rules["options"]["target"] == 14 and rules["options"]["game_value"] == 2
    assert rules["options"]["turnup_points"] == "tobago"
    broken = _exported(parse(BROKEN))
    assert broken["games"][0]["rules"] is None
