"""A replay page made from the referee's changes is the page made from its whole states.

The site's replay pages and ``allfours html`` take each step as what it changed at the
table (``replay_changes``), not as a whole table state that the page then compares with
the step before's (issue 38).  Both must give the same data, to the byte: every part of
every step, the hands completed from the whole record where the play showed cards nobody
saw, the legal cards of a hand so completed, an offence shown at its card.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from allfours_notation.checking import changes_of, replay_of
from allfours_notation.checking.parsing import parse
from allfours_notation.generate import Knobs, generate_game, profile_options
from allfours_notation.reading.records import Game
from allfours_notation.referee.replay import replay, replay_changes
from allfours_notation.writing.html_replay import replay_data
from allfours_notation.writing.html_replay.page import script_json

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SAMPLE_FILES = sorted(path.name for path in SAMPLES.glob("*.afn"))

# hands written or not (the play completes them), offences a later card proves, a pack's
# order, plays without seat labels: each profile under each
KNOBS = (Knobs(), Knobs(hands=0.0), Knobs(offences=0.3, bad_calls=0.3, unseen=0.2, hands=0.3),
         Knobs(pack=0.5, discards=0.2, seat_labels=0.3, offences=0.2, hands=0.0))
PROFILES = ("hoffmann1909", "english10", "foster", "trinidad14")


def same_page_data(game: Game) -> None:
    whole = replay(game)
    replayed, changes = replay_changes(game)
    assert replayed.diagnostics == whole.diagnostics
    assert (replayed.deals, replayed.scores, replayed.winner, replayed.decided) == \
        (whole.deals, whole.scores, whole.winner, whole.decided)
    assert len(changes) == len(whole.steps)
    before = replay_data(whole, whole.diagnostics)
    after = replay_data(replayed, replayed.diagnostics, changes=changes)
    for index, (was, now) in enumerate(zip(before["steps"], after["steps"], strict=True)):
        assert now == was, (game.index, index)
    assert after == before
    assert script_json(after) == script_json(before)  # the same page, key order too


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_every_samples_page_data_is_the_whole_states(name: str) -> None:
    games = [g for g in parse((SAMPLES / name).read_bytes(), filename=name).games
             if not g.broken]
    assert games
    for game in games:
        same_page_data(game)


@pytest.mark.parametrize("profile", PROFILES)
def test_generated_games_page_data_is_the_whole_states(profile: str) -> None:
    rng = random.Random(f"changes-{profile}")
    options = profile_options(profile)
    for knobs in KNOBS:
        for _ in range(2):
            same_page_data(generate_game(rng, options, knobs, profile=profile))


def test_the_completed_hands_are_in_the_changes() -> None:
    """A record without hands: the page shows every card from the deal's start (the
    whole record's hindsight), and the legal cards of the player to move."""
    game = parse((SAMPLES / "no-hands.afn").read_bytes(), filename="no-hands.afn").games[0]
    _, changes = replay_changes(game)
    first = changes[0].changed
    assert sum(len(held) for held in first["hands"].values()) > 0
    assert any(step.changed.get("legal") for step in changes)


def test_the_door_gives_the_changes_as_replay_of_gives_the_replay() -> None:
    game = parse((SAMPLES / "revoke.afn").read_bytes(), filename="revoke.afn").games[0]
    refereed = changes_of(game, ("trinidad14", {}))
    whole = replay_of(game, ("trinidad14", {}))
    assert refereed is not None and whole is not None
    replayed, changes = refereed
    assert replayed.diagnostics == whole.diagnostics
    assert json.dumps(replay_data(replayed, changes=changes)) == \
        json.dumps(replay_data(whole))
    broken = next(g for g in parse((SAMPLES / "one-broken-game.afn").read_bytes()).games
                  if g.broken)
    assert changes_of(broken) is None and replay_of(broken) is None
