"""No traceback, ever: an internal fault is an AFN901 diagnostic at its game."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from allfours_notation import parse
from allfours_notation.cli import main
from allfours_notation.guard import BUG_TEXT, INTERNAL_ERROR, guarded

structure_module = importlib.import_module("allfours_notation.referee.structure")
assembler_module = importlib.import_module("allfours_notation.reading.assembler")
check_module = importlib.import_module("allfours_notation.cli.check")
checking_module = importlib.import_module("allfours_notation.checking")

TWO_GAMES = (
    '% AFN 1\n[Event "one"]\ndeal 1 dealer N\nturn 4S\n1. N:JS S:2D\nend\n\n'
    '[Event "two"]\ndeal 1 dealer N\nturn 4S\n1. N:JS S:2D\nend\n'
)


def fail_on_second_game(monkeypatch: pytest.MonkeyPatch) -> None:
    real = assembler_module._GameAssembler.read

    def read(self: Any) -> Any:
        if self.index == 2:
            raise ZeroDivisionError("a planted bug")
        return real(self)

    monkeypatch.setattr(assembler_module._GameAssembler, "read", read)


def fail_on_second_game_s_structure(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stage after reading a game (its structure checks) fails instead."""
    real = structure_module.check_structure

    def check_structure(game: Any, **kwargs: Any) -> Any:
        if game.index == 2:
            raise ZeroDivisionError("a planted bug")
        return real(game, **kwargs)

    monkeypatch.setattr(structure_module, "check_structure", check_structure)


FAULTS = [fail_on_second_game, fail_on_second_game_s_structure]


@pytest.mark.parametrize("plant", FAULTS)
def test_a_parser_fault_is_a_diagnostic_at_its_game(
        plant: Callable[[pytest.MonkeyPatch], None], monkeypatch: pytest.MonkeyPatch) -> None:
    plant(monkeypatch)
    result = parse(TWO_GAMES)
    first, second = result.games
    assert not first.broken and first.tag("Event") == "one"
    assert second.broken
    (fault,) = [d for d in result.diagnostics if d.code == INTERNAL_ERROR]
    assert (fault.game, fault.line, fault.column) == (2, 6, 4)
    assert BUG_TEXT in fault.message and "ZeroDivisionError" in fault.message


@pytest.mark.parametrize("plant", FAULTS)
@pytest.mark.parametrize("command", [["check"], ["check", "--quiet"], ["score"], ["fmt"],
                                     ["export"]])
def test_every_command_exits_1_without_a_traceback(
        command: list[str], plant: Callable[[pytest.MonkeyPatch], None],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    plant(monkeypatch)
    path = tmp_path / "two.afn"
    path.write_text(TWO_GAMES, encoding="utf-8")
    assert main([*command, str(path)]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    if "--quiet" in command:  # counts only: both games counted, the broken one with errors
        assert captured.out.startswith("2 games, 2 with errors")
    else:
        assert INTERNAL_ERROR in captured.out + captured.err


@pytest.mark.parametrize("stage", ["resolve_options", "replay", "explain"])
def test_a_rules_fault_in_check_is_reported_and_the_next_game_checked(
        stage: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Whichever stage of refereeing a run fails for one game (its rules, its replay,
    the explanation of its findings), that game gets an AFN901 and the next is checked."""
    real = getattr(checking_module, stage)

    def planted(first: Any, *args: Any, **kwargs: Any) -> Any:
        game = first.game if stage == "explain" else first  # explain takes the replay
        if game.index == 1:
            raise KeyError("planted")
        return real(first, *args, **kwargs)

    monkeypatch.setattr(checking_module, stage, planted)
    path = tmp_path / "two.afn"
    path.write_text(TWO_GAMES, encoding="utf-8")
    assert main(["check", "--json", str(path)]) == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    faults = [d for d in found if d["code"] == INTERNAL_ERROR]
    assert [(d["game"], d["line"]) for d in faults] == [(1, 1)]
    assert any(d["game"] == 2 for d in found)  # the second game was still checked


def test_the_last_resort_in_main(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: Any) -> int:
        raise RuntimeError("planted")

    monkeypatch.setattr(check_module, "run", broken)
    monkeypatch.delenv("AFN_TRACEBACK", raising=False)
    assert main(["check", "x.afn"]) == 1
    err = capsys.readouterr().err
    assert INTERNAL_ERROR in err and BUG_TEXT in err and "Traceback" not in err


def test_guarded_passes_interrupts_through() -> None:
    def interrupted() -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        guarded(interrupted, lambda d: 0, doing="nothing")
    assert guarded(lambda: 1 // 0, lambda d: d.line, doing="dividing") == 1
