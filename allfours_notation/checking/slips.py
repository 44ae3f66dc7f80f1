"""Recording slips: what was probably written wrong, found by trying the likely fixes.

One slip of the pen in a trick (a card left out, an extra card, a card written
twice, two plays swapped, a wrong seat label) makes the referee see a different
game from the one played: later leads are "out of turn", cards are "not held",
tricks have the wrong size, a revoke appears, the claim and the totals disagree.
Each of those findings is true of the text, but none of them says what to fix.

This module looks at a deal the way a person checking the score sheet would: it
tries each small edit of the deal's plays (delete one, insert the card that is
missing, swap two neighbours, drop a seat label; where none of those does, write
another card of the same suit for one) and replays the edited deal on its own.
An edit after which the deal checks clean is the probable slip; it becomes one
root diagnostic (AFN221–AFN226) at the statement to fix, with a hint naming the
fix.  Everything else the deal reported then follows from it (see
:mod:`allfours_notation.checking.causes`).

A running total with one digit wrong (AFN402) gets a hint saying which number
and what it should read.  Only public replay results are read; the referee is
not changed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from ..cards import FULL_PACK, Card, Seat, Suit
from ..diagnostics import Diagnostic, Severity, sort_key
from ..frozen import frozen
from ..reading.records import Deal, Game, Hand, Play, Span, Trick, diagnostic_at
from ..reading.table import side_of
from ..referee.disputes import read_result, tally_claim, tally_points
from ..referee.profiles import Options
from ..referee.replay import replay_plain
from ..referee.state import DealResult, GameReplay
from ..referee.structure import check_structure
from .slip_codes import (
    NOT_FROM_A_DEAL_SLIP,
    OFFENCES,
    RECORDING_CODES,
    SEARCHED_CODES,
    SlipKind,
)

__all__ = ["NOT_FROM_A_DEAL_SLIP", "RECORDING_CODES", "SEARCHED_CODES", "Findings", "SlipKind",
           "find_slips", "may_find_slips"]


# Plays searched on either side of the first trouble before the whole deal is tried.
_WINDOW = 2
# A deal with more plays than a pack holds is not searched (hostile input stays cheap).
MAX_PLAYS = 52
# Replays of a fixed deal tried per game at most: one slipped deal needs some tens
# (about 30 on the slip corpus, where this budget never runs out); a game full of broken
# deals gets hints for its first ones and stays quick.
MAX_TRIALS = 250


@dataclass(slots=True)
class _Budget:
    """The trials left for one game's search."""

    left: int = MAX_TRIALS

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


@frozen
class _Edit:
    """One candidate fix of a deal's play sequence."""

    kind: SlipKind
    at: int  # index in the deal's plays of the play it is about
    plays: tuple[Play, ...]  # the deal's plays after the fix
    card: Card | None = None  # the card inserted (MISSING), or written instead (CHANGED)
    hands_known: bool = False  # CHANGED: the card comes from the hands written
    partner: int | None = None  # the other play of a swap


@frozen
class _Verdict:
    """What replaying a deal with one slip fixed shows."""

    problems: int  # structure and rules findings of the fixed deal
    claim_wrong: bool
    result: DealResult | None


@frozen
class Findings:
    """A game's diagnostics with the slips named, and what each slip explains.

    ``follows`` pairs a finding outside the slipped deal (a later total, the
    ``[Result]``) with the slip root, when replaying the game with the fix makes
    that finding go away."""

    diagnostics: tuple[Diagnostic, ...]
    follows: tuple[tuple[Diagnostic, Diagnostic], ...] = ()


def find_slips(replayed: GameReplay, diagnostics: Sequence[Diagnostic]) -> Findings:
    """``diagnostics`` plus a root for each deal whose problems one small fix explains,
    and hints on running totals that are one digit off."""
    if not may_find_slips(diagnostics):
        return Findings(tuple(sorted(diagnostics, key=sort_key)))
    game = replayed.game
    added: list[Diagnostic] = []
    follows: list[tuple[Diagnostic, Diagnostic]] = []
    budget = _Budget(MAX_TRIALS)
    by_deal: dict[int, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.deal is not None:
            by_deal.setdefault(diagnostic.deal, []).append(diagnostic)
    for position, deal in enumerate(game.deals):
        mine = by_deal.get(deal.number, [])
        if not _looks_slipped(mine):
            continue
        computed = replayed.deals[position] if position < len(replayed.deals) else None
        try:
            found = _diagnose_deal(game, replayed.options, deal, mine, computed, budget)
            if found is not None:
                root, fixed = found
                added.append(root)
                follows.extend((d, root) for d in _explained_elsewhere(
                    replayed, position, fixed, diagnostics))
        except Exception:  # a helper must never take a file down: no hint then
            continue
    hinted = [_safe_total_hint(game, replayed, d) if d.code == "AFN402" else d
              for d in diagnostics]
    return Findings(tuple(sorted([*hinted, *added], key=sort_key)), tuple(follows))


def may_find_slips(diagnostics: Sequence[Diagnostic]) -> bool:
    """Whether :func:`find_slips` could add or change anything: a deal worth searching
    or a total to hint on (most games, and every tiny one, have neither)."""
    return not SEARCHED_CODES.isdisjoint(d.code for d in diagnostics)


def _looks_slipped(found: Sequence[Diagnostic]) -> bool:
    """A deal worth searching: its text is not a possible deal, or it shows a revoke
    that nobody wrote down (no penalty claimed: the claim disagrees)."""
    codes = {d.code for d in found}
    return bool(codes & RECORDING_CODES) or (bool(codes & OFFENCES) and "AFN401" in codes)


def _explained_elsewhere(replayed: GameReplay, position: int, fixed: Deal,
                         diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The findings outside the slipped deal that the fix makes go away: the game is
    replayed with the fixed deal, and what it no longer finds followed from the slip.

    Claims, totals and the result are compared directly (the dispute report would also
    try every other profile on each claim, which says nothing here)."""
    game = replayed.game
    number = game.deals[position].number
    outside = [d for d in diagnostics if d.deal != number]
    if not outside:
        return []
    deals = list(game.deals)
    deals[position] = fixed
    fixed_game = replace(game, deals=tuple(deals))
    again = replay_plain(fixed_game, replayed.options, record_states=False)
    still = {(d.code, d.line, d.column) for d in again.diagnostics}
    gone = []
    for diagnostic in outside:
        if diagnostic.code in NOT_FROM_A_DEAL_SLIP:
            continue
        if diagnostic.code.startswith("AFN4"):
            if not _still_disputed(fixed_game, again, diagnostic):
                gone.append(diagnostic)
        elif diagnostic.code.startswith("AFN3") and \
                (diagnostic.code, diagnostic.line, diagnostic.column) not in still:
            gone.append(diagnostic)
    return gone


def _still_disputed(game: Game, again: GameReplay, diagnostic: Diagnostic) -> bool:
    """Whether a claim, total or result finding still holds in the fixed game's replay."""
    if diagnostic.code == "AFN403":
        tag = next((t for t in game.tags if t.name == "Result"), None)
        if tag is None:
            return False
        readable, side = read_result(tag.value, _seats_played(game, again))
        return not readable or side != again.winner
    position = next((i for i, d in enumerate(game.deals) if d.number == diagnostic.deal), None)
    if position is None or position >= len(again.deals):
        return True
    deal, computed = game.deals[position], again.deals[position]
    seats = _seats_played(game, again)
    claim_line = deal.claim.span.line if deal.claim is not None and deal.claim.span else None
    if diagnostic.code == "AFN401" or (diagnostic.code == "AFN408" and
                                       claim_line is not None and diagnostic.line == claim_line):
        # a claim disputed, or holding items counted after the decision (a note): both
        # go when the fixed game scores the claim as written
        scored = tally_points(computed.points)
        return tally_claim(deal, seats, scored, again.options, computed.points) != scored
    if diagnostic.code == "AFN402" and deal.total is not None:
        actual = dict(computed.scores_after)
        return any(actual.get(side_of(s.seat, seats)) != s.points for s in deal.total.scores)
    return True


def _seats_played(game: Game, again: GameReplay) -> tuple[Seat, ...]:
    """The seats the referee played the game with."""
    for computed in again.deals:
        if computed.held:
            return tuple(seat for seat, _ in computed.held)
    return game.seats


# --- the search ----------------------------------------------------------------------------------


def _flat(deal: Deal) -> tuple[Play, ...]:
    return tuple(play for trick in deal.tricks for play in trick.plays)


def _rebuilt(deal: Deal, plays: Sequence[Play], players: int) -> Deal:
    """``deal`` with ``plays`` grouped into tricks of ``players`` cards, numbered 1, 2 …"""
    tricks = []
    for number, start in enumerate(range(0, len(plays), players), start=1):
        chunk = tuple(plays[start:start + players])
        tricks.append(Trick(number=number, plays=chunk, span=chunk[0].span))
    return replace(deal, tricks=tuple(tricks))


def _verdict(game: Game, options: Options, deal: Deal) -> _Verdict:
    """Whether ``deal``, replayed on its own, has problems (how many, when its structure is
    sound) and whether its claim agrees."""
    alone = replace(game, deals=(deal,), diagnostics=())
    problems = sum(1 for d in check_structure(alone)
                   if d.deal is not None and d.code not in NOT_FROM_A_DEAL_SLIP)
    if problems:  # not a fix: the replay (five times dearer) would only add to the count
        return _Verdict(problems, False, None)
    replayed = replay_plain(alone, options, record_states=False)
    problems += sum(1 for d in replayed.diagnostics
                    if d.deal is not None and d.code not in NOT_FROM_A_DEAL_SLIP
                    and d.severity is not Severity.INFO)
    result = replayed.deals[0] if replayed.deals else None
    claim_wrong = False
    if result is not None and deal.claim is not None:
        scored = tally_points(result.points)
        seats = tuple(seat for seat, _ in result.held) or game.seats
        claim_wrong = tally_claim(deal, seats, scored, options, result.points) != scored
    return _Verdict(problems, claim_wrong, result)


def _first_trouble(plays: Sequence[Play], found: Sequence[Diagnostic]) -> int:
    """Index of the first play at or after the earliest recording finding of the deal."""
    lines = [(d.line, d.column or 0) for d in found
             if d.code in RECORDING_CODES and d.line is not None]
    if not lines:
        return 0
    first = min(lines)
    for index, play in enumerate(plays):
        if play.span is not None and (play.span.line, play.span.column) >= first:
            return index
    return len(plays)


def _candidate_cards(deal: Deal, plays: Sequence[Play], computed: DealResult | None,
                     suits: Sequence[Suit | None]) -> list[Card]:
    """Cards that may have been left out: those held but never played; when the hands
    are not written, the lowest and highest unseen card of each suit that matters
    here (the suit led, the suit of the next card, trumps)."""
    played = {play.card for play in plays}
    if computed is not None:
        held = [card for _, cards in computed.held for card in cards if card not in played]
        if held:
            return held
    seen = played | {t.card for t in deal.turnups}
    unseen = [card for card in FULL_PACK if card not in seen]
    chosen: list[Card] = []
    for suit in dict.fromkeys(s for s in suits if s is not None):
        same = sorted((card for card in unseen if card.suit is suit), key=lambda c: c.rank)
        chosen.extend(dict.fromkeys(same[:1] + same[-1:]))
    return chosen or unseen[:1]


def _edits(deal: Deal, plays: tuple[Play, ...], players: int, positions: Sequence[int],
           computed: DealResult | None) -> Iterator[_Edit]:
    """The candidate fixes at each position in turn, in the order of :class:`SlipKind`."""
    for i in positions:
        if i <= len(plays):
            lead_at = i - (i % players)
            led = plays[lead_at].card.suit if lead_at < i and lead_at < len(plays) else None
            following = plays[i].card.suit if i < len(plays) else None
            trump = computed.trump if computed is not None else None
            for card in _candidate_cards(deal, plays, computed, (led, following, trump)):
                inserted = Play(card=card, seat=None)
                yield _Edit(SlipKind.MISSING, i, (*plays[:i], inserted, *plays[i:]), card=card)
        if i < len(plays):
            kind = SlipKind.TWICE if any(p.card is plays[i].card for j, p in enumerate(plays)
                                          if j != i) else SlipKind.EXTRA
            yield _Edit(kind, i, plays[:i] + plays[i + 1:])
        if i + 1 < len(plays):
            swapped = (*plays[:i], plays[i + 1], plays[i], *plays[i + 2:])
            yield _Edit(SlipKind.SWAPPED, i, swapped, partner=i + 1)
        if i < len(plays) and plays[i].seat is not None:
            yield _Edit(SlipKind.SEAT, i, (*plays[:i], replace(plays[i], seat=None),
                                           *plays[i + 1:]))


def _diagnose_deal(game: Game, options: Options, deal: Deal, found: Sequence[Diagnostic],
                   computed: DealResult | None,
                   budget: _Budget) -> tuple[Diagnostic, Deal] | None:
    plays = _flat(deal)
    players = len(computed.held) if computed is not None and computed.held else len(game.seats)
    if players < 2 or not plays or len(plays) > MAX_PLAYS:
        return None  # more cards than a pack: not a slip of the pen, and too dear to search
    suspects = {(d.line, d.column or 0) for d in found if d.line is not None}
    trouble = _first_trouble(plays, found)
    near = range(max(0, trouble - players - _WINDOW), min(len(plays), trouble + _WINDOW) + 1)
    best = _best_edit(game, options, deal, plays, players, _closest(near, trouble), computed,
                      suspects, trouble, budget)
    if best is None:
        # a slip mostly shows at or after the place it was made: look back first
        rest = [i for i in range(len(plays) + 1) if i not in near]
        behind_first = sorted(rest, key=lambda i: (i > trouble, abs(i - trouble)))
        best = _best_edit(game, options, deal, plays, players, behind_first, computed,
                          suspects, trouble, budget)
    if best is None:
        # a card written for another of its suit (a rank miswritten): dearer to try (a
        # card per rank), so only where nothing else fixes the deal, and first at the
        # cards the findings point at (a card played twice: its first writing first)
        at = _changed_positions(plays, found, trouble)
        best = _best_edit(game, options, deal, plays, players, at, computed, suspects,
                          at[0] if at else trouble, budget, changed=True)
    if best is None:
        return None
    edit, verdict = best
    fixed = _rebuilt(deal, edit.plays, players)
    return _report(game, deal, plays, players, edit, verdict, computed), fixed


def _changed_positions(plays: Sequence[Play], found: Sequence[Diagnostic],
                       trouble: int) -> list[int]:
    """Where a miswritten card is likeliest: each card played twice (its first writing,
    then its second: without hands either may be the slip and both fixes check clean;
    on the slip corpus the first is the slip slightly more often), the plays a finding
    points at, then the rest nearest the first trouble."""
    seen: dict[Card, int] = {}
    twice: list[int] = []
    for index, play in enumerate(plays):
        first = seen.setdefault(play.card, index)
        if first != index:
            twice.extend(i for i in (first, index) if i not in twice)
    pointed = {(d.line, d.column or 0) for d in found if d.line is not None}
    at = [i for i, play in enumerate(plays) if play.span is not None and i not in twice
          and (play.span.line, play.span.column) in pointed]
    rest = [i for i in _closest(range(len(plays)), trouble) if i not in twice and i not in at]
    return [*twice, *at, *rest]


def _changed_edits(deal: Deal, plays: tuple[Play, ...],
                   positions: Sequence[int]) -> Iterator[_Edit]:
    """Each play's card replaced by another of its suit that the deal does not show
    elsewhere (one the hands written hold and nobody played, where hands are written)."""
    shown = {play.card for play in plays} | {t.card for t in deal.turnups}
    held = {card for event in deal.opening if isinstance(event, Hand)
            for card in event.cards if card is not None}
    for i in positions:
        written = plays[i].card
        for card in FULL_PACK:
            if card.suit is not written.suit or card in shown or (held and card not in held):
                continue
            yield _Edit(SlipKind.CHANGED, i, (*plays[:i], replace(plays[i], card=card),
                                              *plays[i + 1:]), card=card,
                        hands_known=bool(held))


def _closest(positions: Sequence[int], trouble: int) -> list[int]:
    """Positions nearest the first trouble first (the likeliest places of the slip)."""
    return sorted(positions, key=lambda i: (abs(i - trouble), i))


def _best_edit(game: Game, options: Options, deal: Deal, plays: tuple[Play, ...], players: int,
               positions: Sequence[int], computed: DealResult | None,
               suspects: set[tuple[int, int]], trouble: int,
               budget: _Budget, *, changed: bool = False) -> tuple[_Edit, _Verdict] | None:
    """The edit that leaves a clean deal; among several, the one that keeps the record's
    layout, agrees with its claim, is at a finding, is nearest the first trouble.

    Edits come nearest first, so the first that keeps the layout, agrees with the claim
    and sits at a finding is the best there is: the search stops there."""
    clean: list[tuple[tuple[int, int, int, int, int], _Edit, _Verdict]] = []
    edits = _changed_edits(deal, plays, positions) if changed else \
        _edits(deal, plays, players, positions, computed)
    for edit in edits:
        if not budget.spend():
            break
        verdict = _verdict(game, options, _rebuilt(deal, edit.plays, players))
        if verdict.problems:
            continue
        span = plays[edit.at].span if edit.at < len(plays) else None
        pointed = changed or (span is not None and (span.line, span.column) in suspects)
        rank = (_layout_breaks(deal, edit.plays, players), int(verdict.claim_wrong),
                int(not pointed), abs(edit.at - trouble), list(SlipKind).index(edit.kind))
        clean.append((rank, edit, verdict))
        if rank[:3] == (0, 0, 0):
            break
    if not clean:
        return None
    _, edit, verdict = min(clean, key=lambda item: item[0])
    return edit, verdict


def _layout_breaks(deal: Deal, plays: Sequence[Play], players: int) -> int:
    """How many tricks of the fixed deal cut across the record's layout: cards from two
    lines, or (when tricks are numbered) from two written tricks.  A fix that keeps each
    written trick together is the likelier one."""
    where: dict[int, tuple[int, int]] = {}
    for number, trick in enumerate(deal.tricks):
        for play in trick.plays:
            where[id(play)] = (number, play.span.line if play.span else -1)
    numbered = all(trick.numbered for trick in deal.tricks)
    breaks = 0
    for start in range(0, len(plays), players):
        known = [where[id(p)] for p in plays[start:start + players] if id(p) in where]
        if len({line for _, line in known}) > 1:
            breaks += 1
        if numbered and len({trick for trick, _ in known}) > 1:
            breaks += 1
    return breaks


# --- the diagnostic ------------------------------------------------------------------------------


def _seat_of(result: DealResult | None, index: int, players: int) -> Seat | None:
    """Who played the ``index``-th card of the fixed deal, as its replay seated it."""
    if result is None:
        return None
    trick, position = divmod(index, players)
    if trick < len(result.tricks) and position < len(result.tricks[trick][2]):
        return result.tricks[trick][2][position][0]
    return None


def _mates_span(plays: Sequence[Play], index: int, players: int) -> Span | None:
    """Where a card left out belongs: the plays of its trick in the fixed deal."""
    start = index - index % players
    mates = [plays[j] for j in range(start, start + players) if j != index and j < len(plays)]
    shifted = [p.span for p in mates if p.span is not None]
    if not shifted:
        return None
    first, last = shifted[0], shifted[-1]
    if first.line != last.line:
        last = first
    return Span(first.line, first.column, last.end_line, last.end_column, first.start, last.end)


@frozen
class _Found:
    """What a fix says about the record: where the slip is, in which trick, and how."""

    plays: tuple[Play, ...]
    players: int
    edit: _Edit
    fixed: DealResult | None  # the replay of the fixed deal
    computed: DealResult | None  # the replay of the deal as written
    trick: int

    @property
    def at(self) -> Play:
        return self.plays[self.edit.at] if self.edit.at < len(self.plays) else self.plays[-1]


_Words = tuple[str, str, Span | None]  # message, hint, where


def _report(game: Game, deal: Deal, plays: tuple[Play, ...], players: int, edit: _Edit,
            verdict: _Verdict, computed: DealResult | None) -> Diagnostic:
    at = plays[edit.at] if edit.at < len(plays) else plays[-1]
    # a card left out belongs to a trick of the fixed deal; any other slip is in a
    # trick as written
    trick = edit.at // players + 1 if edit.kind is SlipKind.MISSING else \
        next((t.number for t in deal.tricks if any(p is at for p in t.plays)),
             edit.at // players + 1)
    found = _Found(plays, players, edit, verdict.result, computed, trick)
    message, hint, span = _WORDING[edit.kind](found)
    diagnostic = diagnostic_at(game, span, edit.kind.value, message, deal=deal.number,
                               trick=trick, hint=hint)
    fix = _fix_text(found)
    return diagnostic if fix is None else replace(diagnostic, fix=fix)


def _fix_text(found: _Found) -> str | None:
    """What should stand in the slip's range, when one token is the whole fix: an extra
    or repeated card deleted, a seat label corrected.  (A missing card's place and a
    swapped pair's spelling are left to the hint and to the editor.)"""
    kind = found.edit.kind
    if kind in (SlipKind.EXTRA, SlipKind.TWICE):
        return ""
    if kind is SlipKind.SEAT:
        seat = _seat_of(found.fixed, found.edit.at, found.players)
        return None if seat is None else f"{seat.letter}:{found.at.card}"
    if kind is SlipKind.CHANGED and found.edit.card is not None and found.edit.hands_known:
        label = f"{found.at.seat.letter}:" if found.at.seat is not None else ""
        return f"{label}{found.edit.card}"
    return None


def _missing_words(found: _Found) -> _Words:
    seat = _seat_of(found.fixed, found.edit.at, found.players)
    who = f"{seat.letter}'s card" if seat else "a card"
    size = found.players - 1
    message = f"trick {found.trick} has {size} card{'s' if size != 1 else ''}: {who} seems " \
        "to be missing"
    card = found.edit.card
    if seat is not None and card is not None and _still_held(found.computed, seat, found.plays):
        hint = f"{seat.letter} still holds {card}: write {seat.letter}:{card} in trick " \
            f"{found.trick}"
    else:
        hint = f"write the card {seat.letter if seat else 'the missing player'} played in " \
            f"trick {found.trick}; with it the deal checks clean"
    span = _mates_span(found.edit.plays, found.edit.at, found.players) or found.at.span
    return message, hint, span


def _extra_words(found: _Found) -> _Words:
    card = found.at.card
    return (f"{card} seems to be an extra card in trick {found.trick}",
            f"delete {card}: without it every trick has {found.players} cards and the deal "
            "checks clean", found.at.span)


def _twice_words(found: _Found) -> _Words:
    card = found.at.card
    return (f"{card} seems to be written twice",
            f"delete this {card}: without it the deal checks clean", found.at.span)


def _swapped_words(found: _Found) -> _Words:
    at = found.at
    other = found.plays[found.edit.partner] if found.edit.partner is not None else at
    span = at.span
    if at.span is not None and other.span is not None and at.span.line == other.span.line:
        span = Span(at.span.line, at.span.column, other.span.end_line, other.span.end_column,
                    at.span.start, other.span.end)
    return (f"{at.card} and {other.card} seem to be written in the wrong order",
            f"write {_token(other)} before {_token(at)}: then the deal checks clean", span)


def _seat_words(found: _Found) -> _Words:
    at = found.at
    seat = _seat_of(found.fixed, found.edit.at, found.players)
    written = at.seat.letter if at.seat else "?"
    right = seat.letter if seat else "another seat"
    return (f"{at.card} is labelled {written}, but it seems to be {right}'s card",
            f"write {right}:{at.card}: with that label the deal checks clean", at.span)


def _changed_words(found: _Found) -> _Words:
    at, right = found.at, found.edit.card
    if found.edit.hands_known:
        return (f"{at.card} in trick {found.trick} seems to be written for {right}",
                f"write {right} for {at.card}: with it the deal checks clean", at.span)
    # no hands written: any card of the suit that the deal does not show fits as well
    return (f"{at.card} in trick {found.trick} seems to be written for another card of its "
            "suit", f"write the card played here ({right}, for one, makes the deal check "
            "clean)", at.span)


_WORDING = {
    SlipKind.MISSING: _missing_words,
    SlipKind.EXTRA: _extra_words,
    SlipKind.TWICE: _twice_words,
    SlipKind.SWAPPED: _swapped_words,
    SlipKind.SEAT: _seat_words,
    SlipKind.CHANGED: _changed_words,
}


def _token(play: Play) -> str:
    return f"{play.seat.letter}:{play.card}" if play.seat else str(play.card)


def _still_held(computed: DealResult | None, seat: Seat | None, plays: Sequence[Play]) -> bool:
    if computed is None or seat is None:
        return False
    played = {play.card for play in plays}
    return any(owner is seat and any(c not in played for c in cards)
               for owner, cards in computed.held)


# --- running totals ------------------------------------------------------------------------------


def _safe_total_hint(game: Game, replayed: GameReplay, diagnostic: Diagnostic) -> Diagnostic:
    try:
        return _total_hint(game, replayed, diagnostic)
    except Exception:  # a hint must never take a file down
        return diagnostic


def _total_hint(game: Game, replayed: GameReplay, diagnostic: Diagnostic) -> Diagnostic:
    """AFN402 with a hint when one written number is a digit away from the computed one
    and the next total agrees with the computed score again (a typo, not a scoring error)."""
    position = next((i for i, d in enumerate(game.deals) if d.number == diagnostic.deal), None)
    if position is None or position >= len(replayed.deals) or diagnostic.hint:
        return diagnostic
    deal = game.deals[position]
    if deal.total is None:
        return diagnostic
    seats = tuple(seat for seat, _ in replayed.deals[position].held) or game.seats
    actual = dict(replayed.deals[position].scores_after)
    wrong = [(s.seat, s.points, actual.get(side_of(s.seat, seats)))
             for s in deal.total.scores if actual.get(side_of(s.seat, seats)) != s.points]
    if len(wrong) != 1:
        return diagnostic
    seat, written, computed = wrong[0]
    if computed is None or not _one_digit_apart(str(written), str(computed)):
        return diagnostic
    later = next((d for d in game.deals[position + 1:] if d.total is not None), None)
    if later is not None and _total_wrong(later, replayed, game, seats):
        return diagnostic
    if _explained_otherwise(game, replayed, position, seats):
        return diagnostic
    hint = f"{seat.letter} {written} looks like a typo for {seat.letter} {computed}: write " \
        f"{seat.letter} {computed}"
    return replace(diagnostic, hint=hint)


def _explained_otherwise(game: Game, replayed: GameReplay, position: int,
                         seats: tuple[Seat, ...]) -> bool:
    """Whether the total's message already says where its difference comes from (the
    deal's disputed claim, or an earlier total it carries): a typo hint would contradict
    it."""
    deal, computed = game.deals[position], replayed.deals[position]
    if deal.claim is not None:
        scored = tally_points(computed.points)
        if tally_claim(deal, seats, scored, replayed.options, computed.points) != scored:
            return True
    earlier = next((d for d in reversed(game.deals[:position]) if d.total is not None), None)
    return earlier is not None and _total_wrong(earlier, replayed, game, seats)


def _total_wrong(deal: Deal, replayed: GameReplay, game: Game, seats: tuple[Seat, ...]) -> bool:
    position = game.deals.index(deal)
    if deal.total is None or position >= len(replayed.deals):
        return False
    actual = dict(replayed.deals[position].scores_after)
    return any(actual.get(side_of(s.seat, seats)) != s.points for s in deal.total.scores)


def _one_digit_apart(written: str, computed: str) -> bool:
    """One digit changed, added or left out."""
    if len(written) == len(computed):
        return sum(a != b for a, b in zip(written, computed, strict=True)) == 1
    short, long = sorted((written, computed), key=len)
    if len(long) - len(short) != 1:
        return False
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


__all__ = ["NOT_FROM_A_DEAL_SLIP", "RECORDING_CODES", "SlipKind", "find_slips"]
