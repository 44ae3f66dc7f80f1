"""Resuming a file: the entries that record a written game again.

What ``allfours record`` starts from when a file's last game is unfinished: the
session is rebuilt from these entries and writes the same game again.
"""

from __future__ import annotations

from dataclasses import replace

from ..checking.parsing import parse
from ..reading.records import ClaimItem, Game, Results
from ..referee.profiles import Options
from ..referee.sheet import claim_for
from .building import AGREED_NOTE, COMPUTED_NOTE, RECORDED_NOTE, TIE_NOTE
from .entries import Agreed, DealStart, Entry, GameTied, Item, ResultsDone, Ruling
from .referee import Judge

__all__ = ["entries_of_game"]


def entries_of_game(game: Game, options: Options) -> tuple[Entry, ...]:
    """The entries that record ``game`` again: what resuming a file starts from.

    Claims equal to what the rules compute and every total are left out (the
    session writes them again); a claim that differs is the players' and is kept.
    """
    judged = Judge(options).judge(replace(game, deals=tuple(replace(d, claim=None, total=None)
                                                            for d in game.deals)))
    seats = game.seats
    entries: list[Entry] = []
    results = judged.replayed.deals  # the deals that are over (not one still being played)
    for position, deal in enumerate(game.deals):
        entries.append(DealStart(dealer=deal.dealer, leading=deal.leading,
                                 trailing=deal.trailing, time=deal.time))
        entries.extend(deal.opening)
        entries.extend(deal.plays())
        entries.extend(deal.penalties)
        if deal.ending is not None:
            entries.append(deal.ending)
        line = deal.results
        if line is not None:
            scorer: Results | None = line
            if line.director:
                scorer = _recorded_results(line)
            if scorer is not None:
                entries.extend(_items(scorer))
                if deal.total is not None:
                    entries.append(ResultsDone())
        claim = deal.claim
        if claim is not None:
            points = results[position].points if position < len(results) else ()
            computed = claim_for(points, seats, options)
            mine = replace(claim, trailing=tuple(c for c in claim.trailing
                                                 if not c.text.startswith(COMPUTED_NOTE)))
            if deal.results is not None or computed is None or \
                    mine.awards != computed.awards or mine.leading or mine.trailing:
                entries.append(mine)
        if line is not None and line.director:
            entries.append(Ruling(awards=line.awards, trailing=line.trailing))
        agreed = deal.total is not None and any(_is_note(c.text, AGREED_NOTE)
                                                for c in deal.total.trailing)
        if agreed or (position < len(game.deals) - 1 and deal.ending is None):
            entries.append(Agreed())  # said so, or a later deal began: the table agreed
    return tuple(entries)


def _items(results: Results) -> list[Entry]:
    """The entries of a results line: its items, the comments typed after them kept on
    the first, and a Game tied (:data:`.building.TIE_NOTE`) with the Game the rules gave
    the tie, if any."""
    tied = any(_is_tie(comment.text) for comment in results.trailing)
    game = next((a for a in results.awards if a.item is ClaimItem.GAME), None) if tied else None
    notes = tuple(c for c in results.trailing if not _is_tie(c.text))
    entries: list[Item | GameTied] = [Item(award=a) for a in results.awards if a is not game]
    if tied:
        entries.append(GameTied(award=game))
    if notes and entries:
        entries[0] = replace(entries[0], trailing=notes)
    return list(entries)


def _is_tie(text: str) -> bool:
    """The recorder's note of a Game tied, however spaced or cased (``{Game tied}``)."""
    return _is_note(text, TIE_NOTE)


def _is_note(text: str, note: str) -> bool:
    """Whether a comment is the recorder's ``note``, however spaced or cased."""
    return " ".join(text.split()).lower() == note.strip().lower()


def _recorded_results(ruling: Results) -> Results | None:
    """The scorer's results a director's ruling replaced, kept in a comment before it."""
    for comment in ruling.leading:
        if comment.text.startswith(RECORDED_NOTE):
            text = "% AFN 1\ndeal 1 dealer N\n scored " + \
                comment.text.removeprefix(RECORDED_NOTE) + "\nend\n"
            games = parse(text).games
            if games and games[0].deals and games[0].deals[0].results is not None:
                return games[0].deals[0].results
    return None
