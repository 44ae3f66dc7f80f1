"""Rule options and the named rule profiles (docs/rules.md sections 6 and 7).

Every point on which the sources disagree is one named option; a profile pins
every option and names the source of each.  A record picks its profile with the
``[Rules]`` tag and may override single options with tags named after the
option in CamelCase (``[Target "10"]``, ``[GameTie "nobody"]``).  The command
line (``--rules``, ``--set``) overrides the file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import fields, replace
from enum import Enum
from types import MappingProxyType
from typing import Any, TypeVar

from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..limits import MAX_NUMBER_DIGITS
from ..reading.records import Game, Span, Tag, diagnostic_at
from ..reading.table import SEATS_FOR_PLAYERS, seats_of_game


class Direction(Enum):
    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"


class GameTie(Enum):
    ELDER = "elder"
    NOBODY = "nobody"
    ELDEST_OF_TIED = "eldest_of_tied"  # of the tied sides, the first from the elder


class GameWhenNoCounters(Enum):
    """Who scores Game when no counting card was won (rule 24), apart from a tie."""

    AS_GAME_TIE = "as_game_tie"
    ELDER = "elder"
    NOBODY = "nobody"


class LowOwner(Enum):
    ORIGINAL_HOLDER = "original_holder"
    TRICK_WINNER = "trick_winner"


class JackOnRun(Enum):
    ANY_TURNED_JACK = "any_turned_jack"
    ONLY_IF_TRUMP = "only_if_trump"
    NEVER = "never"
    FINAL_ONLY = "final_only"  # only the turn-up that finally makes trumps, the first included


class GiftAtTargetMinusOne(Enum):
    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class GiftRecipients(Enum):
    BEGGAR_ONLY = "beggar_only"
    EACH_OPPONENT = "each_opponent"


class BegsPerDeal(Enum):
    ONE = "1"
    UNLIMITED = "unlimited"


class HandAfterRun(Enum):
    KEEP_ALL = "keep_all"
    DISCARD_TO_SIX = "discard_to_six"
    KEEP_IF_ONE_RUN = "keep_if_one_run"  # keep all after one run, discard to six after more


class PackExhausted(Enum):
    REDEAL_SAME_DEALER = "redeal_same_dealer"
    REDEAL_NEXT_DEALER = "redeal_next_dealer"


class YesNo(Enum):
    YES = "yes"
    NO = "no"


class DealPattern(Enum):
    THREE_THREE = "3+3"
    ONE_AT_A_TIME = "1"


class FollowRule(Enum):
    FOLLOW_OR_TRUMP = "follow_or_trump"
    NO_UNDERTRUMP = "follow_or_trump_no_undertrump"
    MUST_FOLLOW = "must_follow"  # no trumping while holding the suit led


class UndertrumpException(Enum):
    """Under ``follow_or_trump_no_undertrump``: when a player is free to undertrump."""

    ONLY_TRUMPS = "only_trumps"  # bound unless holding nothing but trumps
    VOID_IN_LED_SUIT = "void_in_led_suit"  # bound only while holding the suit led


class TurnupPoints(Enum):
    JACK1 = "jack1"
    TRINIDAD = "trinidad"  # ace 1, six 2, jack 3
    TOBAGO = "tobago"  # ace 1, two 2, jack 3
    NONE = "none"  # no turn-up scores


class HangJack(Enum):
    OFF = "off"
    THREE = "3"


class RevokePenalty(Enum):
    OPPONENT_PLUS_1 = "opponent_plus_1"
    FOSTER_GRADED = "foster_graded"
    OPPONENT_PLUS_14 = "opponent_plus_14"
    GAME_LOST = "game_lost"
    NONE = "none"  # the card stands, nothing is scored


class FosterCap(Enum):
    """Under ``foster_graded``: when the revoker's side may not go out that deal."""

    ALWAYS = "always"
    JACK_IN_PLAY = "jack_in_play"


class PenaltyTiming(Enum):
    AFTER_GAME = "after_game"
    BEFORE_HIGH = "before_high"


class MisdealRule(Enum):
    """Rule 29: what a declared misdeal costs (an added option, docs/rules.md section 6.6)."""

    REDEAL_SAME_DEALER = "redeal_same_dealer"  # [FWK]: a new deal, nobody scores
    OPPONENT_PLUS_1_AND_PASS = "opponent_plus_1_and_pass"  # Trinidad tournaments


@frozen
class Options:
    """Every rule option of docs/rules.md section 6; the defaults are Hoffmann's."""

    target: int = 7
    players: int = 2
    direction: Direction = Direction.CLOCKWISE
    game_tie: GameTie = GameTie.ELDER
    game_when_no_counters: GameWhenNoCounters = GameWhenNoCounters.AS_GAME_TIE
    game_value: int = 1
    low_owner: LowOwner = LowOwner.ORIGINAL_HOLDER
    jack_on_run: JackOnRun = JackOnRun.ANY_TURNED_JACK
    gift_at_target_minus_one: GiftAtTargetMinusOne = GiftAtTargetMinusOne.ALLOWED
    gift_recipients: GiftRecipients = GiftRecipients.BEGGAR_ONLY
    begs_per_deal: BegsPerDeal = BegsPerDeal.ONE
    hand_after_run: HandAfterRun = HandAfterRun.KEEP_ALL
    stand_requires_trump: YesNo = YesNo.NO
    give_requires_trump: YesNo = YesNo.NO
    pack_exhausted: PackExhausted = PackExhausted.REDEAL_SAME_DEALER
    keep_turnup_points_on_redeal: YesNo = YesNo.YES
    deal_pattern: DealPattern = DealPattern.THREE_THREE
    follow_rule: FollowRule = FollowRule.FOLLOW_OR_TRUMP
    undertrump_exception: UndertrumpException = UndertrumpException.ONLY_TRUMPS
    turnup_points: TurnupPoints = TurnupPoints.JACK1
    hang_jack: HangJack = HangJack.OFF
    revoke_penalty: RevokePenalty = RevokePenalty.OPPONENT_PLUS_1
    foster_cap: FosterCap = FosterCap.ALWAYS
    penalty_timing: PenaltyTiming = PenaltyTiming.AFTER_GAME
    wrong_score_penalty: int = 1
    misdeal: MisdealRule = MisdealRule.REDEAL_SAME_DEALER

    @property
    def clockwise(self) -> bool:
        return self.direction is Direction.CLOCKWISE

    def describe(self, name: str) -> str:
        """The value of option ``name`` as written in a tag or on the command line."""
        return value_text(getattr(self, name))

    def changes_from(self, other: Options) -> dict[str, str]:
        """``{option: value}`` for every option where ``self`` differs from ``other``."""
        return {
            f.name: self.describe(f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        }


# The customary values of the integer options (docs/rules.md section 6), default first.
INT_CHOICES: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {
        "target": (7, 10, 11, 14),
        "players": (2, 3, 4),
        "game_value": (1, 2),
        "wrong_score_penalty": (1, 4, 0),
    }
)
# Integer options that take any whole number in a range, not only the customary values:
# tables play to 5, 15, 21 ...
INT_RANGES: Mapping[str, tuple[int, int]] = MappingProxyType({"target": (1, 99)})

OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))


def value_text(value: object) -> str:
    return value.value if isinstance(value, Enum) else str(value)


def option_type(name: str) -> Any:
    """The enum class of an enum option, or ``int``."""
    default = getattr(Options(), name)
    return type(default)


def option_choices(name: str) -> tuple[str, ...]:
    """The values an option accepts, default first, as written."""
    kind = option_type(name)
    if kind is int:
        return tuple(str(v) for v in INT_CHOICES[name])
    default = getattr(Options(), name)
    return tuple(member.value for member in sorted(kind, key=lambda m: m is not default))


def choices_text(name: str) -> str:
    """The values of ``name`` for a message or a listing: ``7, 10, 11, 14 or any whole
    number from 1 to 99``."""
    text = ", ".join(option_choices(name))
    bounds = INT_RANGES.get(name)
    if bounds is not None:
        text += f" or any whole number from {bounds[0]} to {bounds[1]}"
    return text


def parse_option_value(name: str, text: str) -> object | None:
    """The typed value of ``text`` for option ``name``; ``None`` when not allowed."""
    kind = option_type(name)
    cleaned = text.strip().lower().replace("-", "_")
    if kind is int:
        if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > MAX_NUMBER_DIGITS:
            return None
        number = int(cleaned)
        low, high = INT_RANGES.get(name, (0, -1))
        return number if number in INT_CHOICES[name] or low <= number <= high else None
    members: list[Enum] = list(kind)
    for member in members:
        if cleaned == str(member.value).replace("-", "_"):
            return member
    return None


def camel_case(name: str) -> str:
    """``game_tie`` → ``GameTie``: the tag that overrides the option."""
    return "".join(part.capitalize() for part in name.split("_"))


TAG_TO_OPTION: Mapping[str, str] = MappingProxyType({camel_case(n): n for n in OPTION_NAMES})


@frozen
class Profile:
    """A named set of rules: every option pinned, each with its source."""

    name: str
    description: str
    options: Options
    sources: Mapping[str, str]


_HGM = "[HGM] Hoffmann 1909"
_HOFFMANN_SOURCES: dict[str, str] = {
    "target": "[HGM] first to seven points",
    "players": "[HGM] the basic game is for two",
    "direction": "[HGM] play passes to the left (clockwise)",
    "game_tie": "[HGM] equal pips, or no counting card: the elder hand scores Game",
    "game_when_no_counters": "[HGM] 'if there be no counting card, the elder hand scores "
    "Game': as game_tie",
    "game_value": "[HGM] Game scores one",
    "low_owner": "[HGM] [CAS] [FWK] Low to the player originally dealt it",
    "jack_on_run": "[HGM] 'he again scores one' for a knave turned while running",
    "gift_at_target_minus_one": "[HGM] is silent: the dealer may always give",
    "gift_recipients": "[HGM] two players: the gift goes to the elder hand",
    "begs_per_deal": "[FWK] [CAS] [FOS] one beg per deal",
    "hand_after_run": "Wikipedia: every card is kept and played",
    "stand_requires_trump": "[HGM] the elder hand may stand with any hand",
    "give_requires_trump": "[HGM] the dealer may give with any hand",
    "pack_exhausted": "[HGM] the same dealer deals again (a 'bunch')",
    "keep_turnup_points_on_redeal": "points scored for turn-ups before the redeal stand",
    "deal_pattern": "[HGM] six each, three at a time (takes effect where a deal is written "
    "as the order of the pack, 'pack …')",
    "follow_rule": "[HGM] follow suit or trump, trumping allowed while holding the suit",
    "undertrump_exception": "[TT] 'undertrump is an offence unless down to trump': bound "
    "unless holding nothing but trumps (matters only under no_undertrump)",
    "turnup_points": "[HGM] a turned Jack scores the dealer one",
    "hang_jack": "[HGM] Jack scores one to the winner of its trick",
    "revoke_penalty": "[FWK] [H1807] [EB1911] the adversary scores one",
    "foster_cap": "[FOS] the revoker 'cannot go out that deal', Jack in play or not",
    "penalty_timing": "sources silent: the penalty is counted after Game",
    "wrong_score_penalty": "[FWK] the adversary scores one",
    "misdeal": "[FWK] a misdeal before play: new deal by the same dealer",
}


# Where a value no profile uses comes from: `allfours rules NAME` prints it under the option.
VALUE_SOURCES: Mapping[tuple[str, str], str] = MappingProxyType(
    {
        ("target", "any"): "house rule: tables also play to 5, 15 or 21; any whole number "
        "from 1 to 99",
        ("game_tie", "eldest_of_tied"): "three players (the default there): of the tied "
        "players, the first from the elder; Hoffmann's 'the elder hand' was written for two",
        ("game_when_no_counters", "elder"): "[HGM] read literally: no counting card, the "
        "elder hand scores Game, whatever game_tie says",
        ("game_when_no_counters", "nobody"): "[TT] practice: no counting card, no Game",
        ("jack_on_run", "final_only"): "house rule: only the turn-up that finally makes "
        "trumps scores; a run cancels the first",
        ("turnup_points", "none"): "house rule: a turn-up scores nothing",
        ("revoke_penalty", "none"): "friendly play: the card stands and nothing is scored",
        ("foster_cap", "jack_in_play"): "a narrower reading of [FOS]: the revoker is kept "
        "from going out only when the Jack is in play",
        ("wrong_score_penalty", "0"): "friendly play: the sheet is corrected, no penalty",
        ("deal_pattern", "1"): "no printed source (docs/rules.md section 6.2): one card at a "
        "time, for the deal and for each run",
        ("hand_after_run", "keep_if_one_run"): "house rule: after one run every card is "
        "kept; after two or more each player discards to six",
        ("stand_requires_trump", "yes"): "[TT] Trinidad house rule (docs/rules.md section "
        "6.3): the elder hand without a trump must beg",
        ("give_requires_trump", "yes"): "[TT] Trinidad house rule (docs/rules.md section "
        "6.3): a dealer without a trump must run the cards; a gift he makes all the same "
        "scores nothing (as every gift the rules forbid) and the deal is played on",
        ("follow_rule", "must_follow"): "modern American tables and Pitch (docs/rules.md "
        "section 6.4): no trumping while holding the suit led",
        ("undertrump_exception", "void_in_led_suit"): "[TT] a narrower reading of the "
        "Trinidad rule without a printed source (docs/rules.md section 6.4): bound only "
        "while holding the suit led",
    }
)


def _profile(name: str, description: str, options: Options, sources: dict[str, str]) -> Profile:
    return Profile(name, description, options, MappingProxyType({**_HOFFMANN_SOURCES, **sources}))


DEFAULT_PROFILE = "hoffmann1909"

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        "hoffmann1909": _profile(
            "hoffmann1909",
            "Hoyle's Games Modernized, ed. Hoffmann, 1909: two players, seven points (default)",
            Options(),
            {},
        ),
        "english10": _profile(
            "english10",
            "Laws of All-Fours (Facts Worth Knowing / Hoyle 1807): as Hoffmann, ten points",
            Options(target=10, wrong_score_penalty=4),
            {
                "target": "[FWK] [H1807] first to ten points",
                "wrong_score_penalty": "[FWK] scoring wrongly: the adversary scores four",
            },
        ),
        "foster": _profile(
            "foster",
            "Foster's Complete Hoyle, 'All Fours, Seven-up, or Old Sledge'",
            Options(
                gift_at_target_minus_one=GiftAtTargetMinusOne.FORBIDDEN,
                revoke_penalty=RevokePenalty.FOSTER_GRADED,
                gift_recipients=GiftRecipients.EACH_OPPONENT,
            ),
            {
                "gift_at_target_minus_one": "[FOS] the dealer may not give the point that "
                "puts the elder hand out; a gift made all the same scores nothing (as every "
                "gift the rules forbid, docs/rules.md section 6.3) and the deal is played on",
                "revoke_penalty": "[FOS] 1 point, 2 if the Jack is in play; the revoker scores "
                "neither Game nor Jack and cannot go out that deal",
                "gift_recipients": "[FOS] three players: a dealer who gives, gives each "
                "adversary a point",
                "target": "[FOS] seven points",
            },
        ),
        "trinidad14": _profile(
            "trinidad14",
            "All Fours in Trinidad: four in partnerships, anticlockwise, fourteen points",
            Options(
                target=14,
                players=4,
                direction=Direction.ANTICLOCKWISE,
                game_tie=GameTie.NOBODY,
                follow_rule=FollowRule.NO_UNDERTRUMP,
                turnup_points=TurnupPoints.TRINIDAD,
                hang_jack=HangJack.THREE,
                misdeal=MisdealRule.OPPONENT_PLUS_1_AND_PASS,
            ),
            {
                "target": "[TT] first to fourteen",
                "players": "[TT] four in two partnerships",
                "direction": "[TT] deal and play pass to the right",
                "game_tie": "[TT] equal pips: nobody scores Game",
                "game_value": "[TT] Game one (some tournaments: two)",
                "follow_rule": "[TT] undertrumping is an offence unless down to trumps",
                "turnup_points": "[TT] kicks: ace 1, six 2, jack 3, on every turn-up",
                "jack_on_run": "[TT] every turn-up of a run kicks",
                "hang_jack": "[TT] Hang Jack: 3 to the side that captures the opponents' Jack",
                "revoke_penalty": "[TT] local rules; default the adversary scores one",
                "misdeal": "[TT] tournaments: one point to the opponents, the deal passes",
            },
        ),
    }
)


# --- resolving the options of a game --------------------------------------------------------


def resolve_options(
    game: Game,
    *,
    profile: str | None = None,
    overrides: Mapping[str, str] = MappingProxyType({}),
    house: Profile | None = None,
) -> tuple[Options, list[Diagnostic]]:
    """The rules ``game`` is played under, and any problem naming them.

    Order of precedence, lowest first: the profile (``[Rules]`` tag, or
    ``profile`` from the command line, else the default), the option tags of the
    record, then ``overrides`` (``--set``).  The number of players follows the
    table when the record names its seats and no option says otherwise.
    ``house`` is a club's profile from a house-rules file (``--rules-file``): the
    profile of a record that names none, or names it as ``club:NAME``.
    """
    problems: list[Diagnostic] = []
    rules_tag = _find_tag(game, "Rules")
    name = profile
    if name is None and rules_tag is not None:
        name = rules_tag.value.strip()
    chosen = _lookup_profile(name, game, rules_tag if profile is None else None, problems,
                             house)
    options = chosen.options
    explicit: set[str] = set()
    for tag in game.tags:
        option = TAG_TO_OPTION.get(tag.name)
        if option is None:
            continue
        options = _apply(options, option, tag.value, game, tag.span, f"tag [{tag.name}]", problems)
        explicit.add(option)
    for key, value in overrides.items():
        option = key.strip().lower().replace("-", "_")
        option = TAG_TO_OPTION.get(key.strip(), option)
        if option not in OPTION_NAMES:
            problems.append(
                _diag(game, None, "AFN502", f"unknown rule option {key!r}; the options are "
                      + ", ".join(OPTION_NAMES))
            )
            continue
        options = _apply(options, option, value, game, None, f"--set {key}", problems)
        explicit.add(option)
    seats = seats_of_game(game)
    if "players" not in explicit and len(seats) in SEATS_FOR_PLAYERS and seats:
        options = _with_players(options, len(seats))
    elif seats and len(seats) != options.players and len(seats) in SEATS_FOR_PLAYERS:
        problems.append(
            _diag(game, None, "AFN504", f"the rules say {options.players} players but "
                  f"{len(seats)} sit at the table; playing with {len(seats)}",
                  severity=Severity.WARNING)
        )
        options = _with_players(options, len(seats))
    if "game_tie" not in explicit:
        options = seated(options)
    return options, problems


# ``replace(options, players=n)`` per rule set and number of players.  A rule set is a
# profile changed by a few option tags, so a file has a handful; the bound keeps a file
# of many differently tagged games from growing it without end.
_SEATED: dict[tuple[Options, int], Options] = {}
_SEATED_LIMIT = 256
_Key = TypeVar("_Key")


def _with_players(options: Options, players: int) -> Options:
    """``options`` for ``players`` at the table, made once per rule set:
    ``dataclasses.replace`` of the options cost more than refereeing a tiny game."""
    if options.players == players:
        return options
    found = _SEATED.get((options, players))
    if found is None:
        found = _kept(_SEATED, (options, players), replace(options, players=players))
    return found


def _kept(memo: dict[_Key, Options], key: _Key, options: Options) -> Options:
    """``options`` kept in ``memo`` under ``key``; a full memo is emptied first."""
    if len(memo) >= _SEATED_LIMIT:
        memo.clear()
    memo[key] = options
    return options


def seated(options: Options) -> Options:
    """``options`` with the defaults that depend on the number of players.

    Three players: a Game tie goes to the first of the *tied* players from the elder
    (``eldest_of_tied``), not to an elder who may have taken no pips at all; Hoffmann's
    "the elder hand scores Game" was written for two.  An explicit ``game_tie`` (tag or
    ``--set``) is kept.
    """
    if options.players == 3 and options.game_tie is GameTie.ELDER:
        found = _TIED.get(options)
        if found is None:  # made once per rule set, as :func:`_with_players` is
            found = _kept(_TIED, options, replace(options, game_tie=GameTie.ELDEST_OF_TIED))
        return found
    return options


_TIED: dict[Options, Options] = {}  # seated() of a three-player rule set


def profile_named(name: str) -> Profile | None:
    return PROFILES.get(name.strip().lower())


def _lookup_profile(
    name: str | None, game: Game, tag: Tag | None, problems: list[Diagnostic],
    house: Profile | None = None,
) -> Profile:
    if name is None or not name.strip():
        return house or PROFILES[DEFAULT_PROFILE]
    found = profile_named(name)
    if found is not None:
        return found
    club = name.strip().lower()
    if club.startswith("club:"):
        if house is not None and club == f"club:{house.name}":
            return house
        loaded = f" (the file given is club:{house.name})" if house is not None else ""
        problems.append(
            _diag(game, tag.span if tag else None, "AFN501",
                  f"house rules {name!r} are not loaded{loaded}; give their file with "
                  f"--rules-file; using {DEFAULT_PROFILE}")
        )
        return PROFILES[DEFAULT_PROFILE]
    problems.append(
        _diag(
            game,
            tag.span if tag else None,
            "AFN501",
            f"unknown rule profile {name!r}; the profiles are {', '.join(PROFILES)}; "
            f"using {DEFAULT_PROFILE}",
        )
    )
    return PROFILES[DEFAULT_PROFILE]


def _apply(
    options: Options,
    option: str,
    text: str,
    game: Game,
    span: Span | None,
    where: str,
    problems: list[Diagnostic],
) -> Options:
    value = parse_option_value(option, text)
    if value is None:
        problems.append(
            _diag(
                game,
                span,
                "AFN503",
                f"{where}: {text!r} is not a value of {option}; the values are "
                + choices_text(option),
            )
        )
        return options
    changes: dict[str, Any] = {option: value}
    return dataclasses.replace(options, **changes)


def _find_tag(game: Game, name: str) -> Tag | None:
    for tag in game.tags:
        if tag.name == name:
            return tag
    return None


def _diag(
    game: Game,
    span: Span | None,
    code: str,
    message: str,
    *,
    severity: Severity = Severity.ERROR,
) -> Diagnostic:
    return diagnostic_at(game, span, code, message, severity=severity)
