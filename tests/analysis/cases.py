"""The deals the solver's tests run on: small random layouts under every profile and the
option variants that change the play or its scoring, and deals of generated games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from allfours_notation.checking.analysis import Layout
from allfours_notation.checking.analysis.deals import PlayedDeal, played_deals
from allfours_notation.generate import generate_games
from allfours_notation.reading.table import SEATS_FOR_PLAYERS
from allfours_notation.referee import PROFILES, replay
from allfours_notation.referee.profiles import (
    Direction,
    FollowRule,
    GameTie,
    GameWhenNoCounters,
    HangJack,
    LowOwner,
    Options,
    UndertrumpException,
)

from .brute import small_layouts

# Options that change what may be played, who wins, or what an item is worth.
VARIANTS: tuple[dict[str, object], ...] = (
    {},
    {"low_owner": LowOwner.TRICK_WINNER},
    {"follow_rule": FollowRule.NO_UNDERTRUMP},
    {"follow_rule": FollowRule.NO_UNDERTRUMP,
     "undertrump_exception": UndertrumpException.VOID_IN_LED_SUIT},
    {"follow_rule": FollowRule.MUST_FOLLOW},
    {"hang_jack": HangJack.THREE, "game_tie": GameTie.NOBODY,
     "low_owner": LowOwner.TRICK_WINNER},
    {"game_tie": GameTie.ELDEST_OF_TIED, "game_when_no_counters": GameWhenNoCounters.NOBODY,
     "game_value": 2, "direction": Direction.ANTICLOCKWISE},
)

PER_HAND = {2: 4, 3: 3, 4: 2}  # small enough for the plain brute force


def option_sets() -> Iterator[tuple[str, Options]]:
    """Every profile at every table size, and every variant on top of each profile."""
    for name, profile in PROFILES.items():
        for players in (2, 3, 4):
            for variant in VARIANTS:
                label = f"{name}/{players}p/" + ",".join(f"{k}={v}" for k, v in variant.items())
                yield label, replace(profile.options, players=players, **variant)  # type: ignore[arg-type]


def small_cases(seed: int, per_set: int,
                per_hand: dict[int, int] | None = None) -> Iterator[tuple[str, Layout]]:
    rng = random.Random(seed)
    sizes = per_hand or PER_HAND
    for label, options in option_sets():
        seats = SEATS_FOR_PLAYERS[options.players]
        for layout in small_layouts(rng, options, seats, sizes[options.players], per_set):
            yield label, layout


def perspectives(layout: Layout) -> list[str | None]:
    return [None] if len(layout.sides) == 2 else list(layout.sides)


def generated_deals(seed: int, profile: str, players: int, count: int,
                    cards: int | None = 6) -> list[PlayedDeal]:
    """``count`` complete deals of generated games (``cards`` a hand, or any)."""
    out: list[PlayedDeal] = []
    for game in generate_games(seed, 10_000, profile=profile, players=players):
        for deal in played_deals(replay(game, record_states=False)):
            if deal.layout is not None and (cards is None or
                                            len(deal.layout.hands[0][1]) == cards):
                out.append(deal)
                if len(out) == count:
                    return out
    return out
