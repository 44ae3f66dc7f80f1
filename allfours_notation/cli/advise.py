"""``allfours advise``: stand or beg, give or run, from a hand, the turn-up and the score."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from ..cards import Seat, parse_card
from ..checking.analysis.advisor import (
    ADVISOR_CAVEAT,
    DEFAULT_DEALER_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_TIME_LIMIT,
    Advice,
    AdviceError,
    Estimate,
    advise,
    position,
)
from ..checking.analysis.advisor_play import deal_order, header_game
from ..checking.analysis.advisor_race import LATER_DEALS
from ..checking.analysis.advisor_text import advice_text
from ..reading.table import SEATS_FOR_PLAYERS
from ..referee.profiles import DEFAULT_PROFILE, PROFILES, Profile
from ..visible import for_stdout
from .inputs import console, fail
from .rules import add_rules_arguments, options_for, rules_overrides

NAME = "advise"
HELP = "stand or beg, give or run: each option's points and chance of winning the game"
DESCRIPTION = """\
Advise the elder hand whether to stand or beg, or the dealer whether to give or
run the cards after a beg, from what that player can know: the hand, the
turn-up, the score before the deal, the seats and the rules.

  allfours advise JS TS 2S 3H 4D 5C --turn 9S --score "N 6 S 6"

The cards the player cannot see are dealt at random --samples times (the other
hands and the stock, the same deals for every option); each deal is played out
at the referee's table (kicks, the gift, running the pack, a bunch, a side going
out: as the rules say) with the play solved double dummy.  Per option: each
side's expected points in this deal and each side's chance of winning the game,
each with its standard error and K, the deals it rests on.

The dealer's answer to a beg is modelled, not read off the sampled deal: in each
deal the dealer takes the advisor's own best answer from the dealer's hand alone
(--dealer-samples deals of its own).  After a deal that does not decide the game,
the later deals are a model: a race of random deals, the elder standing, the
play double dummy (--later deals).  See docs/analysis.md, "The advisor".

  --seat SEAT       whose call it is: the elder hand (the default) or the dealer
  --dealer SEAT     who deals (default N); the elder hand is the next in turn
  --players N       2, 3 or 4 (default: the profile's)
  --score TEXT      each side's score before the deal, "N 6 S 5" or "NS 13 EW 12"
  --seed S          the same seed gives the same advice
  --json            the advice as JSON data

Errors name a code: AFN701 a hand of the wrong size, AFN702 a card twice,
AFN703 the turn-up in the hand, AFN704 a seat that neither begs nor answers,
AFN705 a score that cannot be, AFN706 a count below 1 or a time limit not
above 0, AFN707 a card or seat that cannot be read.

exit status: 0 advised, 2 a position or option that cannot be used.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", nargs="+", metavar="CARD",
                        help="the player's six cards as dealt, e.g. JS TS 2S 3H 4D 5C")
    parser.add_argument("--turn", required=True, metavar="CARD", help="the card turned up")
    parser.add_argument("--score", default="", metavar="TEXT",
                        help='each side\'s score before the deal, e.g. "N 6 S 5"')
    parser.add_argument("--dealer", default="N", metavar="SEAT", help="who deals (default N)")
    parser.add_argument("--seat", metavar="SEAT",
                        help="the seat advised: the elder hand (default) or the dealer")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), metavar="N",
                        help="players at the table (default: the profile's)")
    add_rules_arguments(parser)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="K",
                        help=f"sampled deals per option (default {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="the seed of the sampling (default 0)")
    parser.add_argument("--dealer-samples", type=int, default=DEFAULT_DEALER_SAMPLES,
                        metavar="K", help="deals the modelled dealer samples to answer a beg "
                        f"(default {DEFAULT_DEALER_SAMPLES})")
    parser.add_argument("--later", type=int, default=LATER_DEALS, metavar="N",
                        help=f"random deals in the model of the later deals "
                        f"(default {LATER_DEALS})")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="S",
                        help="CPU seconds for one sampled deal's play; a deal not solved is "
                        f"left out and counted (default {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--json", action="store_true", help="print the advice as JSON")


def _problem(code: str, message: str) -> int:
    return fail(f"{code}: {message}")


def _seat(text: str) -> Seat | None:
    try:
        return Seat.from_letter(text.strip().upper())
    except (KeyError, ValueError):
        return None


def run(args: argparse.Namespace) -> int:
    chosen = rules_overrides(args)
    if isinstance(chosen, int):
        return chosen
    profile, overrides, house = chosen
    words = [word for text in args.hand for word in text.replace(",", " ").split()]
    hand = []
    for word in words:
        found = parse_card(word)
        if found is None:
            return _problem("AFN707", f"{word!r} is not a card (write e.g. JS, TS or 10S, 4H)")
        hand.append(found)
    turnup = parse_card(args.turn)
    if turnup is None:
        return _problem("AFN707", f"--turn {args.turn!r} is not a card")
    dealer = _seat(args.dealer)
    if dealer is None:
        return _problem("AFN707", f"--dealer {args.dealer!r} is not a seat (N, E, S or W)")
    seats = SEATS_FOR_PLAYERS[args.players or _players(profile, house)]
    options, problems = options_for(header_game(seats, ()), profile, overrides, house)
    for diagnostic in problems:
        return _problem(diagnostic.code, diagnostic.message)
    scores = _scores(args.score, seats)
    if isinstance(scores, str):
        return _problem("AFN705", scores)
    seat = _seat(args.seat) if args.seat is not None else None
    if args.seat is not None and seat is None:
        return _problem("AFN707", f"--seat {args.seat!r} is not a seat (N, E, S or W)")
    try:
        if dealer not in seats:
            raise AdviceError("AFN704", f"{dealer.letter} is not a seat at this table "
                              f"({' '.join(s.letter for s in seats)})")
        advised = seat or deal_order(options, seats, dealer)[0]
        pos = position(options, seats, dealer, advised, hand, turnup, scores)
        advice = advise(pos, samples=args.samples, seed=args.seed,
                        dealer_samples=args.dealer_samples, later=args.later,
                        time_limit=args.time_limit)
    except AdviceError as error:
        return _problem(error.code, error.message)
    if args.json:
        sys.stdout.write(for_stdout(json.dumps(advice_json(advice), indent=2) + "\n"))
    else:
        console().print(advice_text(advice), markup=False)
    return 0


def _players(profile: str | None, house: Profile | None) -> int:
    """The players the chosen rules are for: the profile's, the house rules', or the
    default profile's."""
    if profile is not None and profile in PROFILES:
        return PROFILES[profile].options.players
    if house is not None:
        return house.options.players
    return PROFILES[DEFAULT_PROFILE].options.players


def _scores(text: str, seats: tuple[Seat, ...]) -> dict[str, int] | str:
    """``N 6 S 5`` as each side's score; a seat letter stands for its side."""
    from ..reading.table import side_of, sides

    words = text.split()
    if len(words) % 2:
        return f"--score {text!r}: give each side and its score, e.g. \"N 6 S 5\""
    found: dict[str, int] = {}
    for name, number in zip(words[::2], words[1::2], strict=True):
        side = name.upper()
        if side not in sides(seats):
            seat = _seat(side) if len(side) == 1 else None
            if seat is None or seat not in seats:
                return f"{name!r} is not a side at this table ({', '.join(sides(seats))})"
            side = side_of(seat, seats)
        if not (number.isascii() and number.isdigit()) or len(number) > 6:
            return f"{number!r} is not a score"
        found[side] = int(number)
    return found


def _estimate_json(value: Estimate) -> dict[str, Any]:
    return {"mean": None if math.isnan(value.mean) else round(value.mean, 6),
            "se": None if math.isnan(value.se) else round(value.se, 6), "k": value.samples}


def advice_json(advice: Advice) -> dict[str, Any]:
    """The advice as JSON data (``allfours advise --json``)."""
    pos = advice.position
    return {
        "caveat": ADVISOR_CAVEAT,
        "seat": pos.seat.letter,
        "role": pos.role,
        "dealer": pos.dealer.letter,
        "hand": [str(c) for c in pos.hand],
        "turnup": str(pos.turnup),
        "scores": dict(pos.scores),
        "target": pos.options.target,
        "decided": advice.decided,
        "best": advice.best,
        "samples": advice.samples,
        "seed": advice.seed,
        "dealer_samples": advice.dealer_samples,
        "later_deals": advice.later,
        "later_left_out": advice.later_left_out,
        "options": [{
            "option": option.option,
            "points": {side: _estimate_json(e) for side, e in option.points},
            "win": {side: _estimate_json(e) for side, e in option.win},
            "unsolved": option.unsolved,
            "decided_in_deal": option.decided,
            "dealer_answers": dict(option.answers),
        } for option in advice.options],
    }
