"""The items "if the deal ended now" at a trick's end credit the trick just won.

The step of a trick's end shows its winner and the pips it took; the items shown there
must say the same (the Jack or Low it took, its pips toward Game), not wait for the next
lead (a replay page, the viewer's panels, ``score``'s steps all show them).
"""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path

import pytest

from allfours_notation.cards import Card, Rank
from allfours_notation.checking.parsing import parse
from allfours_notation.generate import Knobs, generate_game, profile_options
from allfours_notation.reading.records import ClaimItem, Game
from allfours_notation.reading.table import side_of
from allfours_notation.referee.decided import ItemStatus, Status
from allfours_notation.referee.replay import replay
from allfours_notation.referee.state import Step, StepKind

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def sample_game(name: str) -> Game:
    return parse((SAMPLES / name).read_bytes(), filename=name).games[0]


def jacks(step: Step) -> list[ItemStatus]:
    """The Jack items shown at ``step`` (Trinidad's hang Jack among them)."""
    return [item for item in step.state.items
            if item.item in (ClaimItem.JACK, ClaimItem.HANG_JACK)]


def jack_item(step: Step) -> ItemStatus:
    found = jacks(step)
    assert len(found) == 1, step.state.items
    return found[0]


def jack_trick_ends(game: Game) -> list[tuple[Step, Step]]:
    """Each trick-end step whose trick took the Jack of trumps, with the step before it
    (the trick's last card), in a game not yet decided there."""
    steps = replay(game).steps
    found = []
    for before, step in pairwise(steps):
        state = step.state
        if step.kind is not StepKind.TRICK_END or state.trump is None or state.winner:
            continue
        if Card(state.trump, Rank.JACK) in (card for _, card in state.trick):
            found.append((before, step))
    return found


def test_the_jack_is_credited_at_the_end_of_the_trick_that_took_it() -> None:
    """Worked example A: South leads the lone Jack of spades to trick 1 and wins it."""
    ends = jack_trick_ends(sample_game("worked-example-a.afn"))
    assert [step.trick for _, step in ends] == [1]
    before, end = ends[0]
    assert end.state.last_trick_winner is not None
    assert end.state.last_trick_winner.letter == "S"
    assert jack_item(end).side == "S"
    assert jack_item(end).status is Status.DECIDED
    # the step before, the trick's last card: the trick is not won yet, nobody has the Jack
    assert jacks(before) == []
    assert dict(end.state.pips)["S"] == 1


def test_game_counts_the_pips_of_the_trick_just_won() -> None:
    """Worked example A again: the Jack's one pip is South's at trick 1's end, so Game
    is South's there (before, no trick was won and nobody has Game)."""
    before, end = jack_trick_ends(sample_game("worked-example-a.afn"))[0]
    games = [item for item in end.state.items if item.item is ClaimItem.GAME]
    assert [item.side for item in games] == ["S"]
    assert all(item.side is None for item in before.state.items
               if item.item is ClaimItem.GAME)


@pytest.mark.parametrize("profile", ["hoffmann1909", "english10", "trinidad14"])
def test_in_generated_games_the_jack_is_the_trick_winners_at_its_trick_end(
        profile: str) -> None:
    """Games without offences (a revoke may bar the Jack, Foster): at the end of every
    trick that took the Jack of trumps, the Jack item is its winner's side's."""
    rng = random.Random(f"trick-end-{profile}")
    options = profile_options(profile)
    checked = 0
    for knobs in (Knobs(), Knobs(hands=0.0)):
        for _ in range(3):
            for _, end in jack_trick_ends(generate_game(rng, options, knobs, profile=profile)):
                winner = end.state.last_trick_winner
                assert winner is not None
                assert jack_item(end).side == side_of(winner, end.state.seats), end.text
                checked += 1
    assert checked > 0
