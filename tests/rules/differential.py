"""A second scorer, deliberately simple, to check the referee against (issue 10).

It shares no code with ``allfours_notation.referee``: it reads a generated record
(plain records: cards, seats, turn-ups, calls, tricks) and the rule options as
plain text (``{"target": "7", "game_tie": "elder", ...}``), and scores every
deal from the rules as written in docs/rules.md, in the counting order of rule 25.
It is written to be obviously right, not fast, and only for what the generator
produces: legal play with no penalties, every play labelled with its seat.

:func:`compare` says where it and the referee disagree: the awards of each
deal in counting order, the totals, the winner and the moment of decision.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from allfours_notation.cards import Card, Rank
from allfours_notation.reading.records import (
    Call,
    CallKind,
    Deal,
    Discard,
    Game,
    Hand,
    Pack,
    Redeal,
    RedealReason,
    TurnUp,
)

# What is compared and the list of values to try; the scoring above uses none of it.
from allfours_notation.referee.profiles import (
    OPTION_NAMES,
    PROFILES,
    Options,
    option_choices,
    parse_option_value,
)

if TYPE_CHECKING:
    from allfours_notation.referee import GameReplay

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
        capped = capped_sides(deal, table, options)
        if winner is None:
            for item, side, points in deal_awards(deal, table, options, scores):
                after = scores[side] + points
                if side in capped and after >= target:
                    after = max(scores[side], target - 1)  # Foster: no going out this deal
                # the item as the cap leaves it (0 when cut): the points add up to the totals
                scored.append((item, side, after - scores[side]))
                scores[side] = after
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
            if event.kind is CallKind.GIVES and not gift_lacks_trump(deal, table, options):
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
    yield from play_awards(deal, table, options, elder, turnups[-1],
                           running_after(running, opening))


def gift_lacks_trump(deal: Deal, table: Seating, options: Mapping[str, str]) -> bool:
    """A gift by a dealer holding no trump under ``give_requires_trump=yes``: forbidden,
    so it scores nothing (the decision of issue 24: whichever rule forbids a gift)."""
    return any(code == "AFN309" for _, code, _, _ in call_findings(deal, table, options))


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
                last_turnup: Card, scores: Mapping[str, int]) -> Iterator[Award]:
    """High, Low, Jack, Game and the penalties for the revokes and undertrumps the play
    shows (``scores``: the totals before High, for ``game_lost``)."""
    items = list(hand_awards(deal, table, options, elder, last_turnup))
    offenders = [seat for _, code, seat, _ in play_findings(deal, table, options, last_turnup)
                 if code in ("AFN306", "AFN307")]
    jack_in_play = any(play.card == Card(last_turnup.suit, Rank.JACK)
                       for trick in deal.tricks for play in trick.plays)
    if options["revoke_penalty"] == "foster_graded":
        barred = {table.side(seat) for seat in offenders}
        items = [a for a in items if not (a[0] in ("jack", "hangjack", "game") and a[1] in barred)]
    if options["penalty_timing"] == "before_high":
        fines = penalties(offenders, table, options, scores, jack_in_play)
        yield from fines + items
    else:
        yield from items
        yield from penalties(offenders, table, options, running_after(scores, items),
                             jack_in_play)


def penalties(offenders: Sequence[str], table: Seating, options: Mapping[str, str],
              scores: Mapping[str, int], jack_in_play: bool) -> list[Award]:
    """Rule 27: each offence, in the order played, scores each adversary side."""
    rule = options["revoke_penalty"]
    value = {"opponent_plus_1": 1, "opponent_plus_14": 14, "none": 0,
             "foster_graded": 2 if jack_in_play else 1}.get(rule, 0)
    running = dict(scores)
    awards: list[Award] = []
    for offender in offenders:
        for side in table.sides():
            if side == table.side(offender):
                continue
            amount = max(1, int(options["target"]) - running[side]) if rule == "game_lost" \
                else value
            running[side] += amount
            if amount > 0:
                awards.append(("penalty", side, amount))
    return awards


def capped_sides(deal: Deal, table: Seating, options: Mapping[str, str]) -> set[str]:
    """Foster: a revoker's side cannot go out that deal (with ``jack_in_play``, only
    when the Jack of trumps is in play)."""
    if options["revoke_penalty"] != "foster_graded" or not deal.tricks:
        return set()
    turnups = [e.card for e in deal.opening if isinstance(e, TurnUp)]
    trump = turnups[-1]
    offenders = {table.side(seat) for _, code, seat, _ in
                 play_findings(deal, table, options, trump) if code in ("AFN306", "AFN307")}
    jack = Card(trump.suit, Rank.JACK)
    if options["foster_cap"] == "jack_in_play" and not any(
            play.card == jack for trick in deal.tricks for play in trick.plays):
        return set()
    return offenders


def hand_awards(deal: Deal, table: Seating, options: Mapping[str, str], elder: str,
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


# --- the offences a record shows (rules 17, 18 and 20; stand/give_requires_trump) ------------

Finding = tuple[int, str, str, int | None]  # (deal, code, seat letter, trick)


def findings(game: Game, options: Mapping[str, str]) -> list[Finding]:
    """Every offence of ``game`` the referee must report: each deal's calls, then its play.

    The generated deals that are played are played out, so every card a seat held
    when the play began is seen by the end: what the seat plays is its hand.
    """
    letters = "".join(c for c in CLOCKWISE if any(s.letter == c for s in game.seats))
    table = Seating(letters, options["direction"] == "clockwise")
    found: list[Finding] = []
    for deal in game.deals:
        found.extend(call_findings(deal, table, options))
        turnups = [e.card for e in deal.opening if isinstance(e, TurnUp)]
        if deal.tricks and turnups:
            found.extend(play_findings(deal, table, options, turnups[-1]))
    return found


def play_findings(deal: Deal, table: Seating, options: Mapping[str, str],
                  last_turnup: Card) -> list[Finding]:
    """Revokes (must_follow: a trump while holding the suit led is one) and undertrumps."""
    trump = last_turnup.suit
    held: dict[str, list[Card]] = {}
    for trick in deal.tricks:
        for play in trick.plays:
            held.setdefault(play.seat.letter if play.seat else "?", []).append(play.card)
    rule = options["follow_rule"]
    narrow = options["undertrump_exception"] == "void_in_led_suit"
    found: list[Finding] = []
    for trick in deal.tricks:
        on_table: list[Card] = []
        for play in trick.plays:
            seat = play.seat.letter if play.seat else "?"
            card = play.card
            hand = held[seat]
            if on_table:
                led = on_table[0].suit
                has_led = any(c.suit is led for c in hand)
                if card.suit is not led and has_led and \
                        (card.suit is not trump or rule == "must_follow"):
                    found.append((deal.number, "AFN306", seat, trick.number))
                elif card.suit is trump and led is not trump and \
                        rule == "follow_or_trump_no_undertrump":
                    top = max((int(c.rank) for c in on_table if c.suit is trump), default=0)
                    bound = has_led if narrow else any(c.suit is not trump for c in hand)
                    if int(card.rank) < top and bound:
                        found.append((deal.number, "AFN307", seat, trick.number))
            hand.remove(card)
            on_table.append(card)
    return found


def call_findings(deal: Deal, table: Seating, options: Mapping[str, str]) -> list[Finding]:
    """A stand or gift without a trump, where the options require one; judged on the hand
    at the call: the cards written so far, else (a played deal) every card played."""
    dealer = deal.dealer.letter
    elder = table.after(dealer)
    discard = {"keep_all": 99, "discard_to_six": 1, "keep_if_one_run": 2}[
        options["hand_after_run"]]
    written: dict[str, list[Card]] = {}
    played: dict[str, list[Card]] = {}
    for trick in deal.tricks:
        for play in trick.plays:
            played.setdefault(play.seat.letter if play.seat else "?", []).append(play.card)
    put_out: dict[str, list[Card | None]] = {}
    for event in deal.opening:
        if isinstance(event, Discard):
            put_out.setdefault(event.seat.letter, []).extend(event.cards)
    turnups: list[Card] = []
    trump: Card | None = None
    called = False
    found: list[Finding] = []

    def lacks(seat: str) -> bool:
        """The seat holds no trump: its written hand, else every card it played and put
        out (when the cards it put out after the run are all written)."""
        hand = written.get(seat)
        if not hand and played.get(seat):
            hand = list(played[seat])
            if len(turnups) - 1 >= discard:
                known = [c for c in put_out.get(seat, []) if c is not None]
                if len(known) != 3 * (len(turnups) - 1):
                    return False
                hand += known
        if trump is None or not hand:
            return False
        return not any(c.suit is trump.suit for c in hand)

    pack: list[Card | None] = []
    for event in deal.opening:
        if isinstance(event, Pack):
            pack = list(event.cards)
            for seat, cards in from_pack(pack, table, elder, options, 0).items():
                written.setdefault(seat, []).extend(cards)
        if isinstance(event, Hand):
            written.setdefault(event.seat.letter, []).extend(
                c for c in event.cards if c is not None)
        elif isinstance(event, TurnUp):
            if not turnups or event.card.suit is not turnups[0].suit:
                trump = event.card
            turnups.append(event.card)
            if pack and len(turnups) > 1:
                for seat, cards in from_pack(pack, table, elder, options,
                                             len(turnups) - 1).items():
                    written.setdefault(seat, []).extend(cards)
        elif isinstance(event, Call):
            may_beg = not called or (len(turnups) > 1 and options["begs_per_deal"] == "unlimited")
            called = True
            if event.kind is CallKind.STANDS and options["stand_requires_trump"] == "yes" \
                    and may_beg and lacks(event.seat.letter):
                found.append((deal.number, "AFN308", event.seat.letter, None))
            if event.kind is CallKind.GIVES and options["give_requires_trump"] == "yes" \
                    and lacks(event.seat.letter):
                found.append((deal.number, "AFN309", event.seat.letter, None))
    if not called and deal.tricks and options["stand_requires_trump"] == "yes" and lacks(elder):
        found.append((deal.number, "AFN308", elder, None))  # playing with no call is standing
    return found


def from_pack(pack: Sequence[Card | None], table: Seating, elder: str,
              options: Mapping[str, str], run: int) -> dict[str, list[Card]]:
    """The cards a pack (top first) gives each seat as dealt (``run`` 0) or in a run:
    six each (three at a time, or one at a time under ``deal_pattern=1``) from the elder,
    then the turn-up; each run three each the same way, then its turn-up."""
    seats = [elder]
    while len(seats) < len(table.letters):
        seats.append(table.after(seats[-1]))
    players = len(seats)
    size = 6 if run == 0 else 3
    start = 0 if run == 0 else 6 * players + 1 + (run - 1) * (3 * players + 1)
    packet = 3 if options["deal_pattern"] == "3+3" else 1
    got: dict[str, list[Card]] = {seat: [] for seat in seats}
    cards = list(pack[start:start + size * players])
    while cards:
        for seat in seats:
            got[seat].extend(c for c in cards[:packet] if c is not None)
            cards = cards[packet:]
    return got


_SEAT_WORD = re.compile(r"\b([NESW]) (?:plays|stands|gives)\b")


def referee_findings(referee: GameReplay) -> list[Finding]:
    """The same offences as the referee reports them."""
    found: list[Finding] = []
    for d in referee.diagnostics:
        if d.code in ("AFN306", "AFN307", "AFN308", "AFN309") and d.deal is not None:
            match = _SEAT_WORD.search(d.message)
            found.append((d.deal, d.code, match.group(1) if match else "?", d.trick))
    return found


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
    mine_found, theirs_found = sorted(findings(game, options), key=_order), \
        sorted(referee_findings(referee), key=_order)
    if mine_found != theirs_found:
        problems.append(f"offences: simple {mine_found} referee {theirs_found}")
    stray = [f"{d.code} {d.message}" for d in referee.diagnostics
             if d.is_error and d.code not in ("AFN308", "AFN309")]
    if stray:  # a generated record is right but for the offences above (a pack, discards)
        problems.append(f"the referee also reports: {stray}")
    if (mine.winner, mine.decided) != (referee.winner, referee.decided):
        problems.append(f"decision: simple {mine.winner} {mine.decided}, referee "
                        f"{referee.winner} {referee.decided}")
    return problems


def _order(finding: Finding) -> tuple[int, str, str, int]:
    deal, code, seat, trick = finding
    return deal, code, seat, trick or 0


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
                    label = f"{profile}/{players} {name}={text}"
                    needed = NEEDS.get(name)
                    if needed is not None and base.describe(needed[0]) != needed[1]:
                        change[needed[0]] = parse_option_value(*needed)
                        label += f" {needed[0]}={needed[1]}"
                    yield label, dataclasses.replace(base, **change)


# An option that matters only beside another value: varied together with it.
NEEDS: Mapping[str, tuple[str, str]] = {
    "undertrump_exception": ("follow_rule", "follow_or_trump_no_undertrump"),
    "foster_cap": ("revoke_penalty", "foster_graded"),
}


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
    offences: int = 0  # offences found by the simple scorer (and so by the referee)
    packs: int = 0  # deals written as the order of the pack
    discards: int = 0  # deals with discards after a run written


def run_differential(games_per_variant: int, seed: int = 10, *, every: int = 1,
                     offences: float = 0.05) -> Run:
    """Generate ``games_per_variant`` games for each variant (``every``: only every
    n-th variant, for a quick sample), replay each with the referee and score it
    with the simple scorer; list every disagreement.

    ``offences``: how often a player breaks a rule where one can (a revoke, an
    undertrump, a stand or a gift without a trump), so that both sides find and
    penalise the same offences.
    """
    from allfours_notation.generate import Knobs, generate_games, profile_options
    from allfours_notation.referee import replay

    games = deals = count = found = packs = put_out = 0
    problems: list[str] = []
    for number, (label, options) in enumerate(variants(profile_options)):
        if number % every:
            continue
        count += 1
        profile = label.split("/")[0]
        for game in generate_games(seed * 100_003 + number, games_per_variant,
                                   profile=profile, options=options,
                                   knobs=Knobs(offences=offences, bad_calls=0.5, pack=0.3,
                                               beg=0.5, discards=0.7)):
            games += 1
            deals += len(game.deals)
            replayed = replay(game, record_states=False)
            if replayed.options != options:
                problems.append(f"{label} game {game.index}: the record's tags say "
                                f"{replayed.options.changes_from(options)}")
                continue
            texts = option_texts(options)
            problems.extend(f"{label} game {game.index}: {p}"
                            for p in compare(game, texts, replayed))
            found += len(findings(game, texts))
            packs += sum(any(isinstance(e, Pack) for e in d.opening) for d in game.deals)
            put_out += sum(any(isinstance(e, Discard) for e in d.opening) for d in game.deals)
    return Run(games, deals, count, tuple(problems), found, packs, put_out)
