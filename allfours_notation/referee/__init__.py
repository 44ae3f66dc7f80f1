"""The referee: rule profiles, the replayer, the scorer and the dispute report.

``replay(game)`` re-plays a parsed game under the rules it names and returns
every intermediate table state; ``check_game(game)`` returns the rules and
dispute diagnostics; ``fill_seats(game)`` names the player of every card.
"""

from .disputes import find_disputes, rules_name
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
    Referee,
    Step,
    StepKind,
    TableState,
    check_game,
    fill_seats,
    legal_cards,
    max_runs,
    replay,
    replay_plain,
    trick_winner,
    turnup_position,
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
    "Referee",
    "Step",
    "StepKind",
    "TableState",
    "check_game",
    "fill_seats",
    "find_disputes",
    "legal_cards",
    "max_runs",
    "replay",
    "replay_plain",
    "resolve_options",
    "rules_name",
    "trick_winner",
    "turnup_position",
]
