"""The decided/provisional property on a bigger sample (marked slow: ``pytest -m slow``);
``python -m bench.decided`` runs it on more games still."""

from __future__ import annotations

import random

from bench.decided import main
from tests.rules.decided_check import Figures, check_game, games_for


def test_decided_items_stay_decided_on_forty_games() -> None:
    total = Figures()
    rng = random.Random(40)
    for game in games_for(40, 40):
        total.add(check_game(game, rng, continuations=3))
    assert total.problems == []
    assert total.games == 40 and total.continuations > total.games


def test_the_bench_command_reports_its_figures(capsys: object) -> None:
    assert main(["--games", "2", "--continuations", "1"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "2 games" in out and "0 problems" in out
