"""The referee: rule profiles, the replayer, the scorer and the dispute report.

``replay(game)`` re-plays a parsed game under the rules it names and returns
every intermediate table state; ``check_game(game)`` returns the rules and
dispute diagnostics; ``fill_seats(game)`` names the player of every card.
"""

from .profiles import (
    DEFAULT_PROFILE,
    OPTION_NAMES,
    PROFILES,
    Direction,
    Options,
    Profile,
    resolve_options,
)
from .replay import (
    DealResult,
    GameReplay,
    Point,
    Step,
    StepKind,
    TableState,
    check_game,
    fill_seats,
    legal_cards,
    replay,
    trick_winner,
)

__all__ = [
    "DEFAULT_PROFILE",
    "OPTION_NAMES",
    "PROFILES",
    "DealResult",
    "Direction",
    "GameReplay",
    "Options",
    "Point",
    "Profile",
    "Step",
    "StepKind",
    "TableState",
    "check_game",
    "fill_seats",
    "legal_cards",
    "replay",
    "resolve_options",
    "trick_winner",
]
