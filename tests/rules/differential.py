"""A second scorer, deliberately simple, to check the referee against (issue 10).

It shares no code with ``allfours_notation.rules``: it reads a generated record
(plain records: cards, seats, turn-ups, calls, tricks) and the rule options as
plain text (``{"target": "7", "game_tie": "elder", ...}``), and scores every
deal from the rules as written in RULES.md, in the counting order of rule 25.
It is written to be obviously right, not fast, and only for what the generator
produces: legal play with no penalties, every play labelled with its seat.

:func:`compare` says where it and the referee disagree: the awards of each
deal in counting order, the totals, the winner and the moment of decision.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from allfours_notation.cards import Card, Rank
from allfours_notation.records import Call, CallKind, Deal, Game, Redeal, RedealReason, TurnUp

# What is compared and the list of values to try; the scoring above uses none of it.
from allfours_notation.rules.profiles import (
    OPTION_NAMES,
    PROFILES,
    Options,
    option_choices,
    parse_option_value,
)

if TYPE_CHECKING:
    from allfours_notation.rules import GameReplay

CLOCKWISE = "NESW"
PIPS = {Rank.TEN: 10, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
KICKS = {
    "jack1": {Rank.JACK: 1},
    "trinidad": {Rank.ACE: 1, Rank.SIX: 2, Rank.JACK: 3},
    "tobago": {Rank.ACE: 1, Rank.TWO: 2, Rank.JACK: 3},
    "none": {},
}
LABELS = {"kick": "the turn-up", "gift": "the gift", "high": "High", "low": "Low",
          "jack": "Jack", "hangjack": "Hang Jack", "game": "Game", "penalty": "a penalty"}

Award = tuple[str, str, int]  # (item, side, points)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the simple scorer makes of a game."""

    awards: tuple[tuple[Award, ...], ...]  # per deal, the points actually scored
    totals: tuple[tuple[str, int], ...]
    winner: str | None
    decided: str | None  # "deal 3, at Game"


class Seating:
    """Seats, sides and turn order of one table, from first principles."""

    def __init__(self, letters: str, clockwise: bool) -> None:
        self.letters = letters
        order = letters if clockwise else letters[0] + letters[:0:-1]
        self.order = order

    def side(self, letter: str) -> str:
        if len(self.letters) == 4:
            return "NS" if letter in "NS" else "EW"
        return letter

    def sides(self) -> list[str]:
        found: list[str] = []
        for letter in self.letters:
            if self.side(letter) not in found:
                found.append(self.side(letter))
        return found

    def after(self, letter: str) -> str:
        return self.order[(self.order.index(letter) + 1) % len(self.order)]


def score_game(game: Game, options: Mapping[str, str]) -> Outcome:
    """Every deal of ``game`` scored under ``options`` (option name → value text)."""
    letters = "".join(c for c in CLOCKWISE if any(s.letter == c for s in game.seats))
    table = Seating(letters, options["direction"] == "clockwise")
    target = int(options["target"])
    scores = {side: 0 for side in table.sides()}
    winner: str | None = None
    decided: str | None = None
    per_deal: list[tuple[Award, ...]] = []
    for deal in game.deals:
        scored: list[Award] = []
        if winner is None:
            for item, side, points in deal_awards(deal, table, options, scores):
                scores[side] += points
                scored.append((item, side, points))
                if scores[side] >= target:
                    winner, decided = side, f"deal {deal.number}, at {LABELS[item]}"
                    break
        per_deal.append(tuple(scored))
    return Outcome(tuple(per_deal), tuple(scores.items()), winner, decided)


def deal_awards(deal: Deal, table: Seating, options: Mapping[str, str],
                scores: Mapping[str, int]) -> Iterator[Award]:
    """The awards of one deal in counting order: turn-ups and gift as they happen, then
    High, Low, Jack, Game.  ``scores`` are read (never changed) for the gift rule."""
    dealer = deal.dealer.letter
    elder = table.after(dealer)
    turnups = [e.card for e in deal.opening if isinstance(e, TurnUp)]
    ran = any(isinstance(e, Call) and e.kind is CallKind.RUNS for e in deal.opening)
    running = dict(scores)
    kicks: list[Award] = []
    waiting: list[Award] = []
    seen_turnups = 0
    opening: list[Award] = []
    for event in deal.opening:
        if isinstance(event, TurnUp):
            award = kick(event.card, seen_turnups, turnups[0], table.side(dealer), options)
            seen_turnups += 1
            if award is None:
                continue
            if seen_turnups == 1 and options["jack_on_run"] == "final_only":
                waiting = [award]  # scored when it is known to stay trumps
                continue
            opening.append(award)
            kicks.append(award)
        elif isinstance(event, Call) and event.kind is not CallKind.BEGS:
            if waiting and not ran:
                opening.extend(waiting)
                kicks.extend(waiting)
            waiting = []
            if event.kind is CallKind.GIVES:
                opening.extend(gifts(elder, table, options, running_after(running, opening)))
    if waiting and not ran:
        opening.extend(waiting)
        kicks.extend(waiting)
    yield from opening
    ending = deal.ending
    if isinstance(ending, Redeal):
        if ending.reason is RedealReason.EXHAUSTED and \
                options["keep_turnup_points_on_redeal"] == "no":
            yield from (("kick", side, -points) for _, side, points in kicks)
        return
    if not deal.tricks:
        return
    yield from play_awards(deal, table, options, elder, turnups[-1])


def running_after(scores: Mapping[str, int], awards: Sequence[Award]) -> dict[str, int]:
    after = dict(scores)
    for _, side, points in awards:
        after[side] += points
    return after


def kick(card: Card, place: int, first: Card, side: str,
         options: Mapping[str, str]) -> Award | None:
    value = KICKS[options["turnup_points"]].get(card.rank, 0)
    if value == 0:
        return None
    if place > 0:
        rule = options["jack_on_run"]
        if rule == "never":
            return None
        if rule in ("only_if_trump", "final_only") and card.suit is first.suit:
            return None
    return ("kick", side, value)


def gifts(elder: str, table: Seating, options: Mapping[str, str],
          scores: Mapping[str, int]) -> list[Award]:
    if options["gift_recipients"] == "each_opponent" and len(table.letters) == 3:
        takers = [elder, table.after(elder)]
    else:
        takers = [elder]
    awards = [("gift", table.side(seat), 1) for seat in takers]
    if options["gift_at_target_minus_one"] == "forbidden" and \
            any(scores[side] + 1 >= int(options["target"]) for _, side, _ in awards):
        return []
    return awards


def play_awards(deal: Deal, table: Seating, options: Mapping[str, str], elder: str,
                last_turnup: Card) -> Iterator[Award]:
    trump = last_turnup.suit
    holder: dict[Card, str] = {}
    taken_by: dict[Card, str] = {}
    pips = {side: 0 for side in table.sides()}
    for trick in deal.tricks:
        plays = [(play.seat.letter if play.seat else "?", play.card) for play in trick.plays]
        led = plays[0][1].suit
        trumps = [p for p in plays if p[1].suit is trump]
        pool = trumps or [p for p in plays if p[1].suit is led]
        winner = max(pool, key=lambda p: int(p[1].rank))[0]
        for seat, card in plays:
            holder[card] = seat
            taken_by[card] = winner
            pips[table.side(winner)] += PIPS.get(card.rank, 0)
    in_play = sorted((c for c in holder if c.suit is trump), key=lambda c: int(c.rank))
    if in_play:
        high, low = in_play[-1], in_play[0]
        yield ("high", table.side(holder[high]), 1)
        low_seat = taken_by[low] if options["low_owner"] == "trick_winner" else holder[low]
        yield ("low", table.side(low_seat), 1)
    jack = Card(trump, Rank.JACK)
    if jack in holder and last_turnup != jack:
        side = table.side(taken_by[jack])
        if options["hang_jack"] == "3" and side != table.side(holder[jack]):
            yield ("hangjack", side, 3)
        else:
            yield ("jack", side, 1)
    game = game_side(pips, table, options, elder)
    if game is not None:
        yield ("game", game, int(options["game_value"]))


def game_side(pips: Mapping[str, int], table: Seating, options: Mapping[str, str],
              elder: str) -> str | None:
    best = max(pips.values())
    leaders = [side for side, value in pips.items() if value == best]
    if best > 0 and len(leaders) == 1:
        return leaders[0]
    rule = options["game_tie"]
    if best == 0 and options["game_when_no_counters"] != "as_game_tie":
        rule = options["game_when_no_counters"]
    if rule == "nobody":
        return None
    if rule == "elder":
        return table.side(elder)
    seat = elder  # eldest_of_tied: the first tied player from the elder
    while table.side(seat) not in leaders:
        seat = table.after(seat)
    return table.side(seat)


def compare(game: Game, options: Mapping[str, str], referee: GameReplay) -> list[str]:
    """Where the simple scorer and the referee's replay of ``game`` disagree."""
    mine = score_game(game, options)
    theirs = tuple(tuple((p.item.value, p.side, p.points) for p in d.points)
                   for d in referee.deals)
    problems = []
    for number, (a, b) in enumerate(zip(mine.awards, theirs, strict=False), start=1):
        if a != b:
            problems.append(f"deal {number}: simple {a} referee {b}")
    if len(mine.awards) != len(theirs):
        problems.append(f"{len(mine.awards)} deals, the referee {len(theirs)}")
    if mine.totals != referee.scores:
        problems.append(f"totals: simple {mine.totals} referee {referee.scores}")
    if (mine.winner, mine.decided) != (referee.winner, referee.decided):
        problems.append(f"decision: simple {mine.winner} {mine.decided}, referee "
                        f"{referee.winner} {referee.decided}")
    return problems


# --- the games compared -------------------------------------------------------------------------


def variants(options_of: Callable[[str, int], Options]) -> Iterator[tuple[str, Options]]:
    """Every profile, player count and option value: the profile's options for the
    table, then each other value of each option on its own."""
    for profile in sorted(PROFILES):
        for players in (2, 3, 4):
            base = options_of(profile, players)
            yield f"{profile}/{players}", base
            for name in OPTION_NAMES:
                if name == "players":
                    continue
                for text in option_choices(name) + _extra_values(name):
                    value = parse_option_value(name, text)
                    if value is None or value == getattr(base, name):
                        continue
                    change: dict[str, Any] = {name: value}
                    changed = dataclasses.replace(base, **change)
                    yield f"{profile}/{players} {name}={text}", changed


def _extra_values(name: str) -> tuple[str, ...]:
    """Values beyond the customary ones worth a game: an odd target."""
    return ("3", "21") if name == "target" else ()


def option_texts(options: Options) -> dict[str, str]:
    """The options as plain text, all the simple scorer reads."""
    return {name: options.describe(name) for name in OPTION_NAMES}


@dataclass(frozen=True, slots=True)
class Run:
    """The result of comparing the two scorers on many games."""

    games: int
    deals: int
    variants: int
    disagreements: tuple[str, ...]


def run_differential(games_per_variant: int, seed: int = 10, *, every: int = 1) -> Run:
    """Generate ``games_per_variant`` games for each variant (``every``: only every
    n-th variant, for a quick sample), replay each with the referee and score it
    with the simple scorer; list every disagreement."""
    from allfours_notation.generate import generate_games, profile_options
    from allfours_notation.rules import replay

    games = deals = count = 0
    problems: list[str] = []
    for number, (label, options) in enumerate(variants(profile_options)):
        if number % every:
            continue
        count += 1
        profile = label.split("/")[0]
        for game in generate_games(seed * 100_003 + number, games_per_variant,
                                   profile=profile, options=options):
            games += 1
            deals += len(game.deals)
            replayed = replay(game, record_states=False)
            if replayed.options != options:
                problems.append(f"{label} game {game.index}: the record's tags say "
                                f"{replayed.options.changes_from(options)}")
                continue
            problems.extend(f"{label} game {game.index}: {p}"
                            for p in compare(game, option_texts(options), replayed))
    return Run(games, deals, count, tuple(problems))
