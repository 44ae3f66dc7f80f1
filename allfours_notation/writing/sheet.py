"""The score sheet: what the referee computed beside what the record claims, deal by deal.

A sheet is meant to settle an argument at the table, so for every item it shows
who scored it and why, and next to it what the record claimed (✓ when they
agree); for Game, the counting cards each side took and their pips, not only
the totals; and the written running total against the computed one.  Sides are
always listed in one order, the table's (N E S W; NS before EW).

:func:`game_sheet` builds the sheet as data; :func:`text_lines`,
:func:`markdown` and :func:`html_document` write it for a terminal, for a
Markdown page and as a printable, self-contained HTML page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence

from ..cards import Card, Seat, Suit, card
from ..diagnostics import Diagnostic
from ..frozen import frozen
from ..reading.records import ClaimItem, Deal, Game
from ..reading.table import side_of
from ..referee.deal import table_seats
from ..referee.disputes import rules_name, tally_claim, tally_points
from ..referee.replay import DealResult, GameReplay
from ..referee.start import score_tag, start_text, starting_scores
from ..visible import visible

ITEM_NAMES = {
    ClaimItem.KICK: "Kick",
    ClaimItem.GIFT: "Gift",
    ClaimItem.HIGH: "High",
    ClaimItem.LOW: "Low",
    ClaimItem.JACK: "Jack",
    ClaimItem.HANG_JACK: "HangJack",
    ClaimItem.GAME: "Game",
    ClaimItem.PENALTY: "Penalty",
}
AGREES = "✓"
_CARD_WORD = re.compile(r"(?<![A-Za-z0-9])[AKQJT2-9][SHDC](?![A-Za-z0-9])")


@frozen
class ItemLine:
    """One scored item (or one the record claims that was not scored)."""

    item: ClaimItem
    side: str  # "" when nobody scored it
    points: int | None  # None: not scored (claimed only, or after the game was decided)
    reason: str
    claimed: str  # "✓", "claimed N", "not claimed", or "" when the deal has no claim
    # would score if the deal still being played ended now; counted nowhere yet
    provisional: bool = False
    counted: bool = True  # False: not (yet) in the totals (provisional, or waiting)

    @property
    def name(self) -> str:
        return ITEM_NAMES[self.item]

    @property
    def points_text(self) -> str:
        if self.points is None:
            return "—"
        text = f"+{self.points}" if self.points >= 0 else str(self.points)
        return text if self.counted else f"({text})"

    @property
    def status(self) -> str:
        """``decided`` or ``provisional`` (the word every reader shows)."""
        return PROVISIONAL if self.provisional else "decided"


PROVISIONAL = "provisional"
OPEN_NOTE = "still being played: the points and totals are the decided ones; a provisional " \
    "item counts for nobody until it is decided"
IF_IT_ENDED_NOW = "provisional, if the deal ended now"
WAITS = "decided, counted when the items before it are"


@frozen
class Counting:
    """The counting cards one side took in tricks, and their pips toward Game."""

    side: str
    cards: tuple[Card, ...]
    pips: int


@frozen
class DealSheet:
    """One deal of the score sheet, as printed."""

    number: int
    heading: str  # "deal 1, dealer N, turn J♠ (spades trumps), S stands"
    items: tuple[ItemLine, ...]
    counting: tuple[Counting, ...]  # empty when no trick was played
    deal_points: tuple[tuple[str, int], ...]  # every side, table order
    totals: tuple[tuple[str, int], ...]
    written_total: str | None  # "N 1 S 3" as written, None when the deal has no total
    total_check: str  # "✓", "S +1" (written minus computed), or ""
    problems: tuple[Diagnostic, ...]  # roots found in this deal
    open: bool = False  # still being played: its provisional items count for nobody yet


@frozen
class GameSheet:
    """One game's score sheet: its deals, scores, winner and problems, as printed."""

    index: int
    title: str
    rules: str  # "hoffmann1909, target 7, 2 players"
    sides: tuple[str, ...]
    deals: tuple[DealSheet, ...]
    scores: tuple[tuple[str, int], ...]
    winner: str | None
    decided: str | None
    problems: tuple[Diagnostic, ...]  # roots not in any deal (rules, [Result])


def game_title(game: Game) -> str:
    players = " v ".join(f"{seat.letter} {game.tag(seat.tag_name)}" for seat in game.seats
                         if game.tag(seat.tag_name))
    bits = [game.tag("Event") or "", game.tag("Site") or "", game.tag("Date") or "", players]
    return " — ".join(bit for bit in bits if bit)


def game_sheet(replayed: GameReplay, diagnostics: Sequence[Diagnostic], *,
               unicode: bool = True, deal: int | None = None) -> GameSheet:
    """The sheet of one replayed game; ``deal`` keeps only that deal's section.

    ``diagnostics`` are the game's, linked to their causes: a deal shows its roots."""
    game = replayed.game
    sides = tuple(side for side, _ in replayed.scores)
    roots = [d for d in diagnostics if d.cause is None]
    deals = []
    for position, computed in enumerate(replayed.deals):
        if deal is not None and computed.number != deal:
            continue
        record = game.deals[position] if position < len(game.deals) else None
        deals.append(_deal_sheet(replayed, record, computed, sides, unicode,
                                 tuple(d for d in roots if d.deal == computed.number)))
    options = replayed.options
    return GameSheet(
        index=game.index,
        title=game_title(game),
        rules=f"{rules_name(options)}, target {options.target}, {options.players} players"
        + _start_text(replayed),
        sides=sides,
        deals=tuple(deals),
        scores=replayed.scores,
        winner=replayed.winner,
        decided=replayed.decided,
        problems=tuple(d for d in roots if d.deal is None),
    )


def _start_text(replayed: GameReplay) -> str:
    """``, from N 12 S 13`` when the record starts part-way through a game."""
    if score_tag(replayed.game) is None:
        return ""
    start, problems = starting_scores(replayed.game, table_seats(replayed.game, replayed.options),
                                      replayed.options)
    return "" if problems else f", from {start_text(start)}"


def _deal_sheet(replayed: GameReplay, record: Deal | None, computed: DealResult,
                sides: tuple[str, ...], unicode: bool,
                problems: tuple[Diagnostic, ...]) -> DealSheet:
    seats = tuple(seat for seat, _ in computed.held) or replayed.game.seats
    gained = dict.fromkeys(sides, 0)
    for point in computed.points:
        gained[point.side] = gained.get(point.side, 0) + point.points
    return DealSheet(
        number=computed.number,
        heading=deal_heading(computed, unicode=unicode),
        items=tuple(_items(replayed, record, computed, seats, unicode)),
        counting=_counting(computed, sides, seats),
        deal_points=tuple(gained.items()),
        totals=computed.scores_after,
        written_total=_written_total(record),
        total_check=_total_check(record, computed, seats),
        problems=problems,
        open=computed.open,
    )


def _written_total(record: Deal | None) -> str | None:
    """The written total in table order (N E S W), whatever order it was written in."""
    if record is None or record.total is None:
        return None
    order = list(Seat)
    scores = sorted(record.total.scores, key=lambda score: order.index(score.seat))
    return " ".join(f"{score.seat.letter} {score.points}" for score in scores)


def deal_heading(deal: DealResult, *, unicode: bool = True) -> str:
    """``deal 2, dealer S, turn J♠, J♣ (clubs trumps), N begs; S runs``: no trumps named
    where none were settled (a run that turned the original suit and stopped, an
    exhausted pack), ``no turn-up`` where none was written."""
    turnups = deal.turnups
    settled = deal.trump is not None and bool(turnups) and \
        (len(turnups) == 1 or turnups[-1].suit is not turnups[0].suit)
    if turnups:
        turned = "turn " + ", ".join(card.pretty(unicode=unicode) for card in turnups)
        if settled and deal.trump is not None:
            turned += f" ({deal.trump.noun} trumps)"
        elif len(turnups) > 1:
            turned += " (no trumps settled)"
    else:
        turned = "no turn-up"
    bits = [f"deal {deal.number}", f"dealer {deal.dealer.letter if deal.dealer else '?'}",
            turned]
    if deal.time is not None:  # when it began, as recorded ("deal 3 dealer N at 20:41")
        bits.insert(2, f"at {deal.time}")
    if deal.by_results:
        if not turnups:
            bits.pop()
        bits.append("by results")
    if deal.calls:
        bits.append("; ".join(deal.calls))
    if deal.ending:
        bits.append(deal.ending)
    if deal.open:
        bits.append("still being played")
    return ", ".join(bits)


def pretty_cards(text: str, *, unicode: bool = True) -> str:
    """The cards named in a sentence as the table writes them (``QS`` → ``Q♠``, ``TS``
    → ``10♠``; without Unicode ``10S``)."""
    return _CARD_WORD.sub(lambda m: card(m.group()).pretty(unicode=unicode), text)


def _items(replayed: GameReplay, record: Deal | None, computed: DealResult,
           seats: tuple[Seat, ...], unicode: bool) -> Iterator[ItemLine]:
    """Every point scored, then every item claimed that nobody scored, each with the
    claim's verdict on the first line of its item."""
    scored = tally_points(computed.points)
    has_claim = record is not None and record.claim is not None
    claimed = tally_claim(record, seats, scored, replayed.options, computed.points) \
        if has_claim and record is not None else {}
    shown: set[ClaimItem] = set()
    late = tally_points(computed.unscored)
    for point in (*computed.points, *computed.unscored):
        after = point not in computed.points
        verdict = ""
        if has_claim and point.item not in shown:
            verdict = _verdict(claimed.get(point.item, {}), scored.get(point.item, {}))
        shown.add(point.item)
        reason = "not scored: the game was already decided" if after else point.reason
        yield ItemLine(point.item, point.side, None if after else point.points,
                       pretty_cards(reason, unicode=unicode), verdict)
    for point in computed.provisional:
        waits = point in computed.waiting
        why = WAITS if waits else IF_IT_ENDED_NOW
        yield ItemLine(point.item, point.side, point.points,
                       f"{why}: {pretty_cards(point.reason, unicode=unicode)}", "",
                       provisional=not waits, counted=False)
    for item in ClaimItem:
        if item in shown or item not in claimed:
            continue
        why = "not scored: the game was already decided" if item in late else "nobody scored it"
        yield ItemLine(item, "", None, why, _verdict(claimed[item], {}))


def _verdict(claimed: dict[str, int], scored: dict[str, int]) -> str:
    if claimed == scored:
        return AGREES
    if not claimed:
        return "not claimed"
    parts = []
    for side, points in claimed.items():
        parts.append(side if points == 1 else f"{side} {points}")
    return "claimed " + ", ".join(parts)


def _counting(computed: DealResult, sides: tuple[str, ...],
              seats: tuple[Seat, ...]) -> tuple[Counting, ...]:
    if not computed.tricks:
        return ()
    taken: dict[str, list[Card]] = {side: [] for side in sides}
    for _, winner, plays in computed.tricks:
        side = side_of(winner, seats) if winner in seats else winner.letter
        taken.setdefault(side, []).extend(card for _, card in plays if card.pips)
    return tuple(
        Counting(side, tuple(sorted(cards, key=lambda c: (-c.pips, c.suit.value))),
                 sum(c.pips for c in cards))
        for side, cards in taken.items()
    )


def _total_check(record: Deal | None, computed: DealResult, seats: tuple[Seat, ...]) -> str:
    if record is None or record.total is None:
        return ""
    actual = dict(computed.scores_after)
    off: dict[str, int] = {}
    for score in record.total.scores:
        side = side_of(score.seat, seats)
        difference = score.points - actual.get(side, 0)
        if difference:
            off[side] = difference
    if not off:
        return AGREES
    return ", ".join(f"{side} {d:+d}" for side, d in off.items())


def _check_text(check: str) -> str:
    """``✓``, or the difference in brackets: ``(S +1)`` means S wrote one point too many."""
    return check if check in (AGREES, "") else f"({check})"


# --- text ----------------------------------------------------------------------------------------


def counting_text(counting: Sequence[Counting], *, unicode: bool = True) -> str:
    """``N: 10♥ A♠ K♦ = 17 · S: Q♣ = 2``."""
    parts = []
    for side in counting:
        cards = " ".join(card.pretty(unicode=unicode) for card in side.cards) or "nothing"
        parts.append(f"{side.side}: {cards} = {side.pips}")
    return " · ".join(parts)


def sides_text(values: Sequence[tuple[str, int]]) -> str:
    return "  ".join(f"{side} {value}" for side, value in values)


def text_lines(sheet: GameSheet, *, unicode: bool = True) -> Iterator[tuple[str, str]]:
    """The sheet for a terminal, as (style, line) pairs; style is a Rich style or ""."""
    yield "bold", f"Game {sheet.index}: {sheet.title}"
    yield "", f"  rules: {sheet.rules}"
    for problem in sheet.problems:
        if problem.code.startswith("AFN5"):
            yield "red", f"  ! {problem.code} {problem.message}"
    for deal in sheet.deals:
        yield from _deal_text(deal, unicode)
    yield from _result_lines(sheet)
    for problem in sheet.problems:
        if not problem.code.startswith("AFN5"):
            yield "red", f"  ! {problem.code} {problem.message}"
    yield "", ""


def _deal_text(deal: DealSheet, unicode: bool) -> Iterator[tuple[str, str]]:
    yield "bold cyan", deal.heading
    claim_width = max((len(line.claimed) for line in deal.items), default=0)
    for line in deal.items:
        claimed = f"{line.claimed:<{claim_width}}  " if claim_width else ""
        style = "dim" if line.points is None else ("italic magenta" if not line.counted else
                                                   "" if line.claimed in (AGREES, "") else
                                                   "yellow")
        yield style, f"    {line.name:<8} {line.side or '—':<2} {line.points_text:<3} " \
            f"{claimed}{line.reason}"
    if deal.counting:
        yield "", f"    counting cards: {counting_text(deal.counting, unicode=unicode)}"
    total = f"    deal points: {sides_text(deal.deal_points)}    totals: {sides_text(deal.totals)}"
    if deal.written_total is not None:
        total += f"    written: {deal.written_total} {_check_text(deal.total_check)}"
    yield ("" if deal.total_check in (AGREES, "") else "yellow"), total
    if deal.open:
        yield "italic magenta", f"    {OPEN_NOTE}"
    for problem in deal.problems:
        colour = "red" if problem.is_error else "yellow"
        yield colour, f"    ! {problem.code} {problem.message}"


# --- Markdown ------------------------------------------------------------------------------------


# What user text could make into Markdown or HTML: a backslash before Markdown's
# inline specials, entities for < > & (no tag, no entity can come through), and
# control characters made visible.  Line-start syntax (#, -, 1.) cannot arise: every
# piece of user text is put after a prefix on its line.
_MD_SPECIAL = re.compile(r"[\\`*_\[\]|~]")
_MD_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def _md(text: str) -> str:
    """``text`` as literal text in a Markdown table cell or heading."""
    text = visible(text)
    text = _MD_SPECIAL.sub(lambda m: "\\" + m.group(), text)
    return re.sub("[<>&]", lambda m: _MD_ENTITIES[m.group()], text)


def markdown(sheet: GameSheet, *, unicode: bool = True) -> str:
    out = [f"## Game {sheet.index}: {_md(sheet.title)}", "", f"Rules: {_md(sheet.rules)}", ""]
    for deal in sheet.deals:
        out += [f"### {_md(deal.heading[0].upper() + deal.heading[1:])}", "",
                "| item | side | points | claimed | why |", "|---|---|---:|---|---|"]
        for line in deal.items:
            reason = _md(line.reason) if line.counted else f"*{_md(line.reason)}*"
            out.append(f"| {line.name} | {line.side or '—'} | {line.points_text} | "
                       f"{_md(line.claimed)} | {reason} |")
        out.append("")
        if deal.counting:
            out += [f"Counting cards: {_md(counting_text(deal.counting, unicode=unicode))}", ""]
        total = f"Deal points: {sides_text(deal.deal_points)} · totals: {sides_text(deal.totals)}"
        if deal.written_total is not None:
            total += f" · written: {deal.written_total} {_check_text(deal.total_check)}"
        out += [total, ""]
        if deal.open:
            out += [f"*{_md(OPEN_NOTE[0].upper() + OPEN_NOTE[1:])}.*", ""]
        out += [f"- **{p.code}** {_md(p.message)}" for p in deal.problems]
        if deal.problems:
            out.append("")
    out.append(_result_sentence(sheet))
    out += [f"- **{p.code}** {_md(p.message)}" for p in sheet.problems]
    return "\n".join(out) + "\n"


def _result_sentence(sheet: GameSheet) -> str:
    totals = sides_text(sheet.scores)
    if sheet.winner is not None:
        return f"**Winner: {sheet.winner}** ({totals}), decided {sheet.decided or ''}."
    return f"**No winner yet** ({totals}).{_still_played(sheet)}"


def _still_played(sheet: GameSheet) -> str:
    """`` Deal 5 is still being played: …`` where the last deal has provisional items."""
    last = sheet.deals[-1] if sheet.deals else None
    if last is None or not last.open:
        return ""
    shown = [line for line in last.items if line.provisional]
    if not shown:
        return f" Deal {last.number} is still being played."
    items = ", ".join(f"{line.name} {line.side or '—'}" for line in shown)
    return f" Deal {last.number} is still being played ({PROVISIONAL}: {items})."


def _result_lines(sheet: GameSheet) -> Iterator[tuple[str, str]]:
    totals = sides_text(sheet.scores)
    if sheet.winner is not None:
        yield "bold green", f"Winner: {sheet.winner} ({totals}), decided {sheet.decided or ''}"
        return
    yield "bold", f"No winner yet ({totals})"
    still = _still_played(sheet).strip()
    if still:
        yield "italic magenta", f"  {still}"


# --- HTML ----------------------------------------------------------------------------------------

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 2em auto; max-width: 52em;
       color: #111; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin: 1.4em 0 0.3em; border-bottom: 1px solid #999; }
p.rules, p.meta { margin: 0.2em 0; color: #333; }
table { border-collapse: collapse; width: 100%; margin: 0.3em 0; }
th, td { border: 1px solid #bbb; padding: 0.15em 0.45em; text-align: left;
         vertical-align: top; }
th { background: #eee; }
td.points { text-align: right; white-space: nowrap; }
.ok { color: #176117; } .off { color: #a01010; font-weight: bold; }
tr.late td { color: #777; font-style: italic; }
tr.provisional td, p.provisional { color: #6a3d8f; font-style: italic; }
.red { color: #c00000; }
.problem { color: #a01010; }
.winner { font-size: 1.1em; font-weight: bold; margin-top: 1em; }
@media print { body { margin: 0; max-width: none; } section.deal { break-inside: avoid; }
               th { background: #eee !important; -webkit-print-color-adjust: exact; } }
@media screen and (max-width: 40em) {
  body { margin: 0.5em 0.6em; font-size: 16px; line-height: 1.35; }
  h1 { font-size: 1.3em; } h2 { font-size: 1.1em; }
  th, td { padding: 0.2em 0.3em; }
  td:first-child { white-space: nowrap; }
  td:last-child { font-size: 0.9em; overflow-wrap: anywhere; }
}
"""


def _h(text: str) -> str:
    return html.escape(text, quote=True)


def _card_html(card: Card, unicode: bool) -> str:
    text = _h(card.pretty(unicode=unicode))
    return f'<span class="red">{text}</span>' if card.suit in (Suit.HEARTS, Suit.DIAMONDS) \
        else text


def _counting_html(counting: Sequence[Counting], unicode: bool) -> str:
    parts = []
    for side in counting:
        cards = " ".join(_card_html(c, unicode) for c in side.cards) or "nothing"
        parts.append(f"<b>{_h(side.side)}</b>: {cards} = {side.pips}")
    return " · ".join(parts)


def html_document(sheets: Sequence[GameSheet], *, title: str, unicode: bool = True) -> str:
    """A printable page holding every sheet: one file, no scripts, no outside resources."""
    body = "\n".join(_game_html(sheet, unicode) for sheet in sheets)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{_h(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n"
        "<p class=\"meta\">Computed by allfours score: every deal replayed under the rules "
        "named; ✓ where the record's claim or total agrees.</p>\n</body>\n</html>\n"
    )


def _game_html(sheet: GameSheet, unicode: bool) -> str:
    out = [f"<article class=\"game\">\n<h1>Game {sheet.index}: {_h(sheet.title)}</h1>",
           f"<p class=\"rules\">Rules: {_h(sheet.rules)}</p>"]
    for deal in sheet.deals:
        out.append(f"<section class=\"deal\">\n<h2>{_h(deal.heading)}</h2>")
        out.append("<table>\n<tr><th>item</th><th>side</th><th>points</th><th>claimed</th>"
                   "<th>why</th></tr>")
        for line in deal.items:
            late = ' class="late"' if line.points is None else (
                ' class="provisional"' if not line.counted else "")
            verdict = "ok" if line.claimed == AGREES else ("off" if line.claimed else "")
            out.append(f"<tr{late}><td>{_h(line.name)}</td><td>{_h(line.side or '—')}</td>"
                       f"<td class=\"points\">{_h(line.points_text)}</td>"
                       f"<td class=\"{verdict}\">{_h(line.claimed)}</td>"
                       f"<td>{_h(line.reason)}</td></tr>")
        out.append("</table>")
        if deal.counting:
            out.append(f"<p>Counting cards: {_counting_html(deal.counting, unicode)}</p>")
        total = f"Deal points: {_h(sides_text(deal.deal_points))} · totals: " \
            f"{_h(sides_text(deal.totals))}"
        if deal.written_total is not None:
            check = "ok" if deal.total_check == AGREES else "off"
            total += f" · written: {_h(deal.written_total)} <span class=\"{check}\">" \
                f"{_h(_check_text(deal.total_check))}</span>"
        out.append(f"<p>{total}</p>")
        if deal.open:
            out.append(f"<p class=\"provisional\">{_h(OPEN_NOTE[0].upper() + OPEN_NOTE[1:])}"
                       ".</p>")
        out += [f"<p class=\"problem\">{_h(p.code)} {_h(p.message)}</p>" for p in deal.problems]
        out.append("</section>")
    out.append(f"<p class=\"winner\">{_h(_result_sentence(sheet).replace('**', ''))}</p>")
    out += [f"<p class=\"problem\">{_h(p.code)} {_h(p.message)}</p>" for p in sheet.problems]
    out.append("</article>")
    return "\n".join(out)


__all__ = ["Counting", "DealSheet", "GameSheet", "ItemLine", "counting_text", "deal_heading",
           "game_sheet", "game_title", "html_document", "markdown", "text_lines"]
