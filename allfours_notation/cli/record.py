"""``allfours record``: record a game at the table, every entry checked and on disk at once.

The file is locked and inspected before any screen is drawn, so that a second
recorder, a directory or a file that is not valid AFN gets a clear answer (and
the file is never touched); Textual is imported only inside :func:`run`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..reading.records import Game, Tag
from ..referee.profiles import PROFILES, Profile
from .check import print_diagnostic
from .inputs import console, fail
from .rules import add_rules_arguments, rules_overrides

NAME = "record"
HELP = "record a game as it is played, checking every entry"
DESCRIPTION = """\
Record a game of All Fours into FILE while it is played: the dealer, the hands
(if known), the turn-up, stand / beg / give / run, every card, penalties and how
each deal ended.  Every entry is checked at once by the same referee as 'allfours
check': a card not held, already played or out of turn, or a wrong call is
refused with the reason; a revoke or an undertrump is recorded once confirmed
(the record says what happened) and its penalty shown.  The points of each deal
and the running score are worked out as you go, and each finished deal gets its
'claim' and 'total'.

FILE is rewritten atomically after every accepted entry, in canonical AFN, so
it is a valid record at every moment; kill the recorder at any time and run the
same command again to resume where it stopped.  A new FILE starts with a short
form for the tags; a FILE whose games are all finished gets a new game after
them; a FILE that is not valid AFN is refused with its diagnostics.  The form
also takes a starting score ([Score "N 12 S 13"]) for a game taken up part-way.
--rules-file CLUB.toml records under a club's house rules ([Rules "club:NAME"]),
as check and score read them with the same file.  A second recorder on the same
FILE is refused (lock file .FILE.lock beside it).

Two ways to enter a deal, chosen in the form (cards or results) and switched
with Ctrl+T at any deal:
  by its cards: js 10h th j♠ (a card; a digit picks among the legal cards
  offered), s b g r (stand, beg, give, run), 'S js 9h …' (a hand), 4s (the
  turn-up);
  by its results ([Entry "results"]): one key per item, then its side: h High,
  l Low, j Jack, x Hang Jack, g Game, p a penalty point, then a seat (n e s w);
  k a kick (its points where the rules have several), t the gift; Enter when
  the deal's items are all in.  Written as the deal's 'scored' line.
When a deal is over the other side is asked: y agrees; c claims otherwise.  A
claim is the whole deal: it starts from the scorer's items, an item key and a
side changes one (l s), an item key and - takes it out; Enter records it beside
the computed result (a dispute, which 'allfours check' reports).  A deal is
written with its first entry: Enter after y chooses the next dealer, and the
file ends in a whole deal until the turn-up (or the first item) is typed.
F1 or ? shows the keys of the mode in use.

keys: Ctrl+Z undo, Ctrl+Y redo, Ctrl+E correct an earlier entry, Ctrl+T cards
or results, Ctrl+R review the game so far in the replay viewer (the same app in
view mode; Ctrl+R there returns), F1 help, Ctrl+Q quit.

exit status: 0 after quitting, 1 FILE is not valid AFN, 2 usage error, FILE
locked by another recorder, unreadable, or not text AFN (binary: never appended to).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the AFN file to record into "
                        "(created if missing)")
    add_rules_arguments(parser)
    parser.add_argument("--players", type=int, choices=(2, 3, 4),
                        help="players at the table for a new game (default: the profile's)")
    parser.add_argument("--ascii", action="store_true",
                        help="write suits as letters (S H D C) instead of ♠ ♥ ♦ ♣")


def run(args: argparse.Namespace) -> int:
    chosen = rules_overrides(args)
    if isinstance(chosen, int):
        return chosen
    profile, overrides, house = chosen
    path = Path(args.file)
    if path.is_dir():
        return fail(f"{path}: is a directory, not an AFN file")
    if not path.parent.is_dir():
        return fail(f"{path}: no such folder {str(path.parent)!r}")
    from ..recording.opening import NewGame, Refused, inspect
    from ..recording.session import Session
    from ..recording.storage import FileLocked, RecordFile

    record = RecordFile(path)
    try:
        record.acquire()
    except FileLocked as error:
        return fail(str(error))
    except OSError as error:
        return fail(f"{path}: cannot lock: {error.strerror or error}")
    try:
        try:
            opened = inspect(path, record, house=house)
        except OSError as error:
            return fail(f"{path}: cannot read: {error.strerror or error}")
        if isinstance(opened, Refused):
            out = console()
            for diagnostic in opened.diagnostics:
                print_diagnostic(out, diagnostic, opened.text)
            out.print(f"[bold red]{opened.message}[/]")
            return 2 if opened.not_text else 1
        # Textual is imported only here
        from ..viewer.app import ViewerApp, terminal_has_unicode
        from ..viewer.recorder import RecorderScreen, StartForm

        unicode = False if args.ascii else terminal_has_unicode()
        title = f"AFN recorder — {path.name}"
        if isinstance(opened, NewGame):
            club = f"club:{house.name}" if house is not None else None
            players = args.players or _players(opened.proposed, profile, house)
            rules = profile or club or _tag(opened.proposed, "Rules") or "hoffmann1909"
            form = StartForm(players=players, rules=rules, overrides=overrides,
                             proposed=opened.proposed, house=house,
                             players_given=args.players is not None)

            def new_session(tags: tuple[Tag, ...]) -> Session:
                return Session(tags, prefix=opened.prefix, index=opened.index, record=record,
                               house=house, clock=wall_clock)

            screen = RecorderScreen(form=form, new_session=new_session, unicode=unicode,
                                    title=title)
        else:
            opened.session.clock = wall_clock  # the deals begun from now on say when
            screen = RecorderScreen(session=opened.session, unicode=unicode, title=title)
        app = ViewerApp(str(path), unicode=unicode, recorder=screen)  # in record mode
        app.run()
        return app.return_code or 0
    finally:
        record.release()


def wall_clock() -> str:
    """The time of day now, ``20:41``: written on each deal the recorder begins."""
    from datetime import datetime

    return datetime.now().strftime("%H:%M")


def _tag(tags: tuple[Tag, ...], name: str) -> str | None:
    return next((tag.value for tag in tags if tag.name == name), None)


def _players(proposed: tuple[Tag, ...], profile: str | None, house: Profile | None) -> int:
    """The table of the last game, else the profile's (or the club's) number of players."""
    seats = Game(tags=proposed).seats
    if proposed and len(seats) in (2, 3, 4):
        return len(seats)
    if profile is None and house is not None:
        return house.options.players
    return PROFILES[profile or "hoffmann1909"].options.players
