"""``allfours advise``: the advice as text and JSON, and a position that cannot be refused
with its code (exit status 2)."""

from __future__ import annotations

import json

import pytest

from allfours_notation.cli import main

CHEAP = ["--samples", "4", "--dealer-samples", "2", "--later", "8",
         "--set", "hand_after_run=discard_to_six"]


def test_the_advice_as_json_names_each_option_with_its_estimates(
        capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["advise", "AS", "JS", "TS", "3H", "4D", "5C", "--turn", "9S",
                   "--score", "N 6 S 6", "--json", *CHEAP])
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == "S" and data["role"] == "elder" and data["target"] == 7
    assert [o["option"] for o in data["options"]] == ["stands", "begs"]
    stands = data["options"][0]
    assert stands["win"]["S"] == {"mean": 1.0, "se": 0.0, "k": 4}
    assert data["best"] == "stands"
    assert "hidden hands unknown" in data["caveat"]


def test_the_dealer_is_advised_from_his_seat(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["advise", "9H 8H 7D 6D 5C 4C", "--turn", "3S", "--score", "S 6 N 2",
                   "--seat", "N", *CHEAP])
    assert status == 0
    out = capsys.readouterr().out
    assert "N (dealer)" in out
    assert "gives:  N wins 0.0% ± 0.0 (K=4)" in out
    assert "runs" in out and "<- best" in out


@pytest.mark.parametrize(("words", "code"), [
    (["JS", "TS", "2S", "3H", "4D", "--turn", "9S"], "AFN701"),
    (["JS", "JS", "2S", "3H", "4D", "5C", "--turn", "9S"], "AFN702"),
    (["JS", "TS", "2S", "3H", "4D", "9S", "--turn", "9S"], "AFN703"),
    (["JS", "TS", "2S", "3H", "4D", "5C", "--turn", "9S", "--seat", "E"], "AFN704"),
    (["JS", "TS", "2S", "3H", "4D", "5C", "--turn", "9S", "--score", "N 7"], "AFN705"),
    (["JS", "TS", "2S", "3H", "4D", "5C", "--turn", "9S", "--score", "W 3"], "AFN705"),
    (["JS", "TS", "2S", "3H", "4D", "5C", "--turn", "9S", "--samples", "0"], "AFN706"),
    (["JS", "TS", "2S", "3H", "4D", "5C", "--turn", "9S", "--later", "0"], "AFN706"),
    (["JS", "TS", "2S", "3H", "4D", "5C", "--turn", "9S", "--time-limit", "0"], "AFN706"),
    (["JS", "TS", "2S", "3H", "4D", "XX", "--turn", "9S"], "AFN707"),
    (["JS", "TS", "2S", "3H", "4D", "5C", "--turn", "9S", "--dealer", "Q"], "AFN707"),
])
def test_a_position_that_cannot_be_is_a_coded_error(
        words: list[str], code: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", *words]) == 2
    err = capsys.readouterr().err
    assert f"{code}:" in err


def test_help_explains_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["advise", "--help"])
    out = capsys.readouterr().out
    assert "--samples" in out and "--seed" in out and "dealer" in out
