"""The benchmark corpus from the package's legal-game generator.

Two- and four-player games under every rule profile, in equal turns, with the
generator's default knobs (its realistic shares of begs, gifts, runs, turned
Jacks, comments and claims).  One seed gives the same file every time.
"""

from __future__ import annotations

import random


def mixes() -> list[tuple[str, int]]:
    """(profile, players) pairs the corpus cycles through."""
    from allfours_notation.referee.profiles import PROFILES

    return [(profile, players) for profile in sorted(PROFILES) for players in (2, 4)]


def generated_corpus(deals: int, seed: int) -> str:
    """AFN text of whole games, cycling through :func:`mixes`, until ``deals`` deals."""
    from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn

    rng = random.Random(seed)
    knobs = Knobs()
    options = {mix: profile_options(mix[0], mix[1]) for mix in mixes()}
    order = list(options)
    parts = ["% AFN 1\n"]
    made = written = 0
    while written < deals:
        profile, players = order[made % len(order)]
        made += 1
        game = generate_game(rng, options[profile, players], knobs, profile=profile, index=made)
        written += len(game.deals)
        parts.append("\n" + write_afn(game, version_line=False))
    return "".join(parts)
