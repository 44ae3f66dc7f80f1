"""Opening a file to record into: resume its unfinished game, or start one after its games.

A file that is not valid AFN (anything ``allfours check`` reports as worse than an
unfinished last game) is refused with its diagnostics and never touched.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path

from ..checking import check
from ..checking.parsing import games_of
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..reading.files import not_afn_reason
from ..reading.parser import read_games
from ..reading.records import Abandoned, Game, Tag
from ..reading.source import decode
from ..reading.table import SEATS_FOR_PLAYERS
from ..referee.profiles import PROFILES, Profile, camel_case, resolve_options
from ..referee.start import SCORE_TAG
from .entries import Agreed
from .expecting import settled
from .referee import worse_than_unfinished
from .session import Session, entries_of_game
from .storage import RecordFile

__all__ = ["NewGame", "Refused", "Resume", "following", "inspect", "new_tags", "today"]

# A refused file's errors that are kept to be shown (all are counted): a file with an
# error in each of a million games must not hold a million diagnostics.
MAX_PROBLEMS_SHOWN = 100


@frozen
class Refused:
    """The file cannot be recorded into; ``diagnostics`` say why."""

    message: str
    diagnostics: tuple[Diagnostic, ...]
    text: str
    not_text: bool = False  # not text AFN at all (binary, not UTF-8): exit 2, as every command


@frozen
class Resume:
    """The file's last game is unfinished: record on from where it stopped (or, asked
    with ``resume_finished``, finished: shown as it ended)."""

    session: Session


@frozen
class NewGame:
    """Start a new game after ``prefix`` (the file's games, if any)."""

    prefix: str
    index: int
    proposed: tuple[Tag, ...]  # tags for the form: the last game's, or empty ones


def today() -> str:
    return datetime.date.today().strftime("%Y.%m.%d")


def new_tags(*, event: str = "", site: str = "", date: str | None = None,
             rules: str = "hoffmann1909", players: dict[str, str] | None = None,
             overrides: dict[str, str] | None = None, score: str = "") -> tuple[Tag, ...]:
    """The header of a new game: the roster, ``[Result "*"]``, the starting score if the
    game starts part-way (``N 12 S 13``), then one tag per override."""
    tags = [Tag(name="Event", value=event), Tag(name="Site", value=site),
            Tag(name="Date", value=date or today()), Tag(name="Rules", value=rules)]
    tags.extend(Tag(name=seat, value=name) for seat, name in (players or {}).items())
    tags.append(Tag(name="Result", value="*"))
    if score.strip():
        tags.append(Tag(name=SCORE_TAG, value=" ".join(score.split())))
    for option, value in (overrides or {}).items():
        if option != "players":
            tags.append(Tag(name=camel_case(option), value=value))
    return tuple(tags)


def seat_tags(players: int) -> tuple[str, ...]:
    return tuple(seat.tag_name for seat in SEATS_FOR_PLAYERS[players])


def inspect(path: Path, record: RecordFile | None = None, *,
            house: Profile | None = None,
            resume_finished: bool = False) -> Refused | Resume | NewGame:
    """What recording into ``path`` means: refuse it, resume its last game, or add one.

    ``house`` is a club's profile (``--rules-file``): the games that name it as
    ``[Rules "club:NAME"]``, or name no profile, are judged under it, as ``check``
    judges them with the same file.  ``resume_finished``: a last game that is
    finished is resumed too, as it ended, where the recorder proposes a new game after
    it: a server restarted (``allfours serve``) shows the table the game it finished,
    and begins the next only when the table asks.  Only a game its entries end (its
    session over: a game written by hand may have a result and its last deal not
    agreed yet) is; another gets a new game proposed, as without it."""
    data = record.read() if record is not None else (path.read_bytes() if path.exists()
                                                       else None)
    if not data:
        return NewGame(prefix="", index=1, proposed=())
    not_text = not_afn_reason(str(path), data, empty_ok=True)
    if not_text is not None:  # a binary file is never appended to
        return Refused(f"{not_text}; it is left untouched", (), "", not_text=True)
    text, _ = decode(data)
    reader = read_games(text, filename=str(path))
    # One game's records at a time (and the last one's): a 100 MB file of thousands of
    # games is checked in the memory of its text, not of all its records (issue 16).
    problems: list[Diagnostic] = [d for d in (*reader.diagnostics,
                                              *reader.closing_diagnostics()) if d.is_error]
    count = len(problems)
    last: Game | None = None
    for game in games_of(reader):
        is_last = game.index == len(reader.slices)
        checked = check(game, (None, {}, house))
        found = checked.diagnostics
        errors = worse_than_unfinished(found, checked.unfinished) if is_last else \
            [d for d in found if d.is_error and not d.code.startswith("AFN4")]
        count += len(errors)
        problems.extend(errors[: max(0, MAX_PROBLEMS_SHOWN - len(problems))])
        last = game
    if last is None and text.strip() and not text.strip().startswith("%"):
        count += 1
        problems.append(Diagnostic("AFN100", Severity.ERROR, "no game found in the file",
                                   file=str(path)))
    if count:
        return Refused(f"{path}: not a valid AFN record ({count:,} error"
                       f"{'s' if count != 1 else ''}); it is left untouched",
                       tuple(problems), text)
    if last is None:
        return NewGame(prefix=text, index=1, proposed=())
    if _unfinished(last):
        session = _session_of(last, text, record, house)
        session.begin_next_deal()  # results mode: waits for what it waited for when left
        return Resume(session)
    if resume_finished:  # as it ended: nothing begun, nothing written
        ended = _session_of(last, text, record, house, finished=True)
        if ended.over:
            return Resume(ended)
    return NewGame(prefix=text, index=last.index + 1, proposed=_next_tags(last.tags))


def following(session: Session, record: RecordFile) -> NewGame | None:
    """The game after ``session``'s finished one, as :func:`inspect` would propose it,
    from what the session holds rather than the file parsed and checked again: a
    venue's tables end their games at about the same time, and each parsing its whole
    file (every game of the night) at once was the server's memory stepping up.

    Only when the file is exactly the session's text (what it wrote, or what it would
    write: its last game proved to read back, the games before it checked as the
    file was opened) and the game is finished as written; None otherwise (a file
    changed on disk, or resumed as someone wrote it by hand): ask :func:`inspect`."""
    known = record.identity
    data = record.read()  # the bytes only (a read, no parse): is it what we know?
    if data is None or known is None or record.identity != known:
        return None
    last = session.written()
    text = session.text(last)
    if data != text.encode("utf-8") or _unfinished(last):
        return None
    return NewGame(prefix=text, index=session.index + 1, proposed=_next_tags(last.tags))


def _next_tags(tags: tuple[Tag, ...]) -> tuple[Tag, ...]:
    """A new game's tags after a game's: today's date, no result, a score from 0."""
    return tuple(replace(tag, value=today()) if tag.name == "Date" else
                 replace(tag, value="*") if tag.name == "Result" else tag
                 for tag in tags if tag.name != SCORE_TAG)


def _session_of(last: Game, text: str, record: RecordFile | None,
                house: Profile | None, *, finished: bool = False) -> Session:
    """The session of the file's last game, its entries as the file has them; a
    ``finished`` game's last deal agreed to, as the result written says (the recorder
    writes it once the other side agreed: the deal's ``{ agreed }`` is left out then)."""
    options, _ = resolve_options(last, house=house)
    start = last.span.start if last.span is not None else 0
    after = text[last.span.end:] if last.span is not None else ""
    entries = entries_of_game(last, options)
    if finished and last.deals and last.deals[-1].total is not None and \
            not settled(entries):
        entries = (*entries, Agreed())
    return Session(last.tags, entries=entries,
                   prefix=text[:start], index=last.index, record=record, house=house,
                   suffix=after)


def _unfinished(game: Game) -> bool:
    """No winner, and not given up: the game stopped in the middle."""
    if game.tag("Result", "*") != "*":
        return False
    return not (game.deals and isinstance(game.deals[-1].ending, Abandoned))


def profile_names() -> tuple[str, ...]:
    return tuple(PROFILES)
