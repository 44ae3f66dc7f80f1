"""bench.reading_path (issue 22): the code that runs for one finding, counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import reading_path

ROOT = Path(__file__).resolve().parents[2]


def test_the_revoke_path_runs_through_every_floor(capsys: pytest.CaptureFixture[str]) -> None:
    seen = reading_path.functions_run(["check", "-j", "1", str(ROOT / "samples" / "revoke.afn")])
    modules = {module for module, _ in seen}
    for floor in ("cli/", "checking/", "reading/", "referee/deal/"):
        assert any(module.startswith(floor) for module in modules), floor
    assert any(name.endswith("check_follow") for _, name in seen)  # where a revoke is found
    assert reading_path.main([str(ROOT / "samples" / "revoke.afn")]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith("allfours check revoke.afn: ") and head.endswith(" lines")


def test_nested_code_is_counted_with_its_function() -> None:
    assert reading_path._nested("check.<locals>.helper")
    assert reading_path._nested("Table.feed_deal.<listcomp>")
    assert not reading_path._nested("Table.feed_deal")
