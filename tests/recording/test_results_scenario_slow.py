"""The whole club night of :mod:`tests.recording.test_results_scenario` through the real
recorder screen (issue 37): five deals of a four-handed Trinidad game to 14, typed one
key at a time, the file checked after every key that writes it (about 10 s: the slow
set; the default suite types two of its deals).  ``pytest -s`` prints the keys per deal
for the closing note."""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from allfours_notation.checking import check_text
from allfours_notation.checking.parsing import parse
from allfours_notation.referee import replay
from tests.recording.test_results_scenario import GAME, chalked, errors_in, play, trinidad_file


def test_a_trinidad_night_through_the_screen_checks_clean_and_scores_the_chalk(
        tmp_path: Path) -> None:
    path = tmp_path / "night.afn"
    trinidad_file(path)
    per_deal, written = play(path, GAME)
    text = path.read_text(encoding="utf-8")
    game = parse(text).games[0]
    replayed = replay(game)
    assert dict(replayed.scores) == chalked(GAME) == {"NS": 14, "EW": 13}
    assert game.tag("Result") == "NS" and replayed.winner == "NS"
    assert [deal.claim is not None for deal in game.deals] == [d.claim is not None
                                                               for d in GAME]
    assert "{ Game tied }" in text and "S runs" in text and "W gives" in text
    disputes = [d for g in check_text(text).games for d in g.diagnostics if d.is_dispute]
    assert len(disputes) == 2  # one item changed in each claim: one dispute each
    assert errors_in(text) == []
    assert written >= len(GAME) * 4  # the file was written (and checked) at every entry
    print(f"\nkeys per deal: {per_deal}, mean {mean(per_deal):.1f}; "
          f"the file written {written} times")


