"""A mistyped command gets a suggestion (issue 37): 'allfours chek' is most likely 'check'."""

from __future__ import annotations

import pytest

from allfours_notation.cli import main


@pytest.mark.parametrize(("typed", "meant"), [
    ("chek", "check"), ("Check", "check"), ("scroe", "score"), ("evnt", "event"),
    ("analyze", "analyse"), ("recrod", "record"),
])
def test_a_mistyped_command_is_named(typed: str, meant: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main([typed, "samples/revoke.afn"]) == 2
    err = capsys.readouterr().err
    assert f"did you mean '{meant}'?" in err
    assert err.count("\n") == 2  # the usage line and the error, nothing else


def test_a_word_like_no_command_gets_argparse_s_list(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["zzzz"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and "choose from" in err


def test_a_control_character_in_the_word_is_shown_escaped(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chek\x1b"]) == 2
    assert "\x1b" not in capsys.readouterr().err
