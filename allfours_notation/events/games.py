"""The games of an event: each AFN file of a folder read and checked once, and from each
game the facts the event needs, as the referee found them.

Nothing here scores: who won the game, the final scores, each Hang Jack, each turn-up,
the count for Game, the disputes and the director's rulings are all read from
``checking.check``'s :class:`~..checking.CheckedGame` (its replay's points and the table
after each deal).  Files are read in worker processes with the archive's
:class:`~..archive.parallel.WorkerPool` when asked, each file whole in one worker, and the
facts come back in the files' sorted order, so ``-j 4`` gives what ``-j 1`` gives.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..archive.identity import game_digest
from ..archive.parallel import WorkerPool
from ..cards import Card, Rank, Seat
from ..checking import CheckedGame, check
from ..checking.parsing import parse
from ..collector import cyclic_gc_paused
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..reading.files import InputError, read_input
from ..reading.records import ClaimItem, Game, PenaltyKind
from ..reading.source import decode
from ..reading.table import side_of
from ..referee.profiles import Profile
from ..referee.state import DealResult, GameReplay
from .replays import MadePage

if TYPE_CHECKING:
    from .cache import FactsCache

PLACE_TAGS = ("Round", "Match", "Table", "HomeTeam", "AwayTeam")
SIDES = ("NS", "EW")


@frozen
class HangJack:
    """A Hang Jack: the side and seat that captured the Jack of trumps, the suit, and the
    card the capturing player played to that trick, as the deal's tricks record it."""

    side: str
    seat: str  # the seat letter of the player who captured the Jack
    suit: str  # the trump suit's letter (the Jack hanged is the Jack of trumps)
    card: str = "?"  # the card that hanged it ("?": the deal's tricks do not show it)


@frozen
class DealFacts:
    """What one deal gave the event: its Hang Jacks, its turn-ups (with the dealer's
    side, whose kick it is), the count for Game (the side that took Game and its pips;
    None when no one took Game, or the deal was recorded by its results without a count),
    a director's ruling, the revokes declared at the table (the offenders' sides), and
    the clock time the deal began where its record gives one."""

    number: int
    line: int
    hang_jacks: tuple[HangJack, ...]
    turnups: tuple[str, ...]
    dealer_side: str | None
    game_count: tuple[str, int] | None
    ruling: bool
    reneges: tuple[str, ...]
    by_results: bool = False  # recorded by its results alone
    counted: bool = True  # the pips toward Game are known (cards, or a results deal's count)
    time: str | None = None  # "20:41": when the deal began, as recorded


@frozen
class PlayedGame:
    """One game of the folder, with its place in the event (its tags) and its result
    as the referee computed it (``winner`` None: not finished, or not refereed)."""

    file: str
    index: int
    line: int
    place: tuple[tuple[str, str], ...]  # the place tags written, by name
    rules_tag: str | None
    seats: tuple[tuple[str, str], ...]  # (seat letter, name), as the seat tags write them
    winner: str | None
    scores: tuple[tuple[str, int], ...]
    deals: tuple[DealFacts, ...]
    errors: tuple[Diagnostic, ...]  # the referee's and the reader's errors
    disputes: int  # claims, totals and results the computed score disagrees with (AFN4xx)
    refereed: bool
    digest: str = ""  # the game's identity, as the archive's export keeps it (games.digest)

    def tag(self, name: str) -> str | None:
        return next((value for key, value in self.place if key == name), None)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.index}"

    def pair(self, side: str) -> tuple[str, ...]:
        """The names seated on ``side`` ("NS" or "EW"), in seat order."""
        return tuple(name for letter, name in self.seats if _SIDE_OF_LETTER[letter] == side)

    def hang_jacks(self, side: str) -> int:
        return sum(1 for deal in self.deals for hang in deal.hang_jacks if hang.side == side)

    @property
    def reneges(self) -> tuple[tuple[int, str], ...]:
        """Every revoke declared at the table: (deal, the offending side)."""
        return tuple((deal.number, side) for deal in self.deals for side in deal.reneges)

    @property
    def rulings(self) -> tuple[int, ...]:
        return tuple(deal.number for deal in self.deals if deal.ruling)


_FOUR = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
# a seat letter's side, looked up: the standings, prizes, ratings and pages ask for a
# game's pairs some fifty thousand times in an event of 5,000 games
_SIDE_OF_LETTER = {seat.letter: side_of(seat, _FOUR) for seat in _FOUR}


@frozen
class FolderRead:
    """Every game of a folder, and what could not be read (a file's problem, positioned
    at its first line)."""

    games: tuple[PlayedGame, ...]
    unreadable: tuple[Diagnostic, ...]
    pages: tuple[MadePage, ...] = ()  # replay pages made on the way (read_folder's pages)


Rules = tuple[str | None, dict[str, str]] | tuple[str | None, dict[str, str], Profile | None]


def game_files(folder: Path) -> list[Path]:
    """The .afn files under ``folder``, recursively, in sorted order."""
    return sorted(path for path in folder.rglob("*.afn") if path.is_file())


def read_folder(folder: Path, rules: Rules, *, jobs: int = 1,
                shown_from: Path | None = None, cache: FactsCache | None = None,
                pages: bool = False, advice_samples: int | None = None,
                kept: frozenset[str] = frozenset()) -> FolderRead:
    """Every game of every .afn file under ``folder``, refereed under ``rules``.  File
    names are shown relative to ``shown_from`` (default: as found).  With a ``cache``,
    a file whose bytes it has seen under these rules is not read again.

    With ``pages``, each game read (not found in the cache) gets its replay page too
    (advised with ``advice_samples``, as the site's), made from the same parse and the
    same run of the referee as its facts: the site's cold build refereed every game
    twice (issue 38); not the pages named in ``kept`` (the site's folder holds them, and
    the site keeps them).  The site uses a page made here where its name is the one it
    would give the game (:func:`.site.replay_pages`), and makes the others itself."""
    files = game_files(folder)
    found: list[list[PlayedGame] | Diagnostic | None] = [None] * len(files)
    made: list[MadePage] = []
    keys: dict[int, str] = {}
    work = []
    for position, path in enumerate(files):
        name = _shown(path, shown_from)
        if cache is not None:
            try:
                keys[position] = file_key(read_input(str(path)).data, rules)
            except InputError:
                pass  # read_one reports it
            else:
                found[position] = cache.get(keys[position], name)
        if found[position] is None:
            work.append((position, (str(path), name, rules)))
    reader = (partial(read_one_paged, advice_samples=advice_samples, kept=kept) if pages
              else read_one)
    try:
        with WorkerPool(jobs) as pool:
            for (position, _), read in zip(work, pool.map(reader, [w for _, w in work],
                                                          batch=1), strict=True):
                games = read[0] if isinstance(read, tuple) else read
                if isinstance(read, tuple):
                    made.extend(read[1])
                found[position] = games
                if cache is not None and isinstance(games, list) and position in keys:
                    cache.put(keys[position], games)
    finally:
        if cache is not None:
            cache.flush()  # the facts put, written in one transaction (FactsCache)
    return FolderRead(tuple(g for games in found if isinstance(games, list) for g in games),
                      tuple(d for d in found if isinstance(d, Diagnostic)), tuple(made))


FACTS_VERSION = 4  # raised whenever the facts of a game change shape or meaning


def file_key(data: bytes, rules: Rules) -> str:
    """The key of a file's facts: its bytes under these rules, in this release."""
    import hashlib

    from .. import __version__

    profile = rules[2] if len(rules) > 2 else None
    named = repr((rules[0], sorted(rules[1].items()), repr(profile), __version__,
                  FACTS_VERSION))
    return hashlib.sha256(named.encode("utf-8") + b"\0" + data).hexdigest()


def _shown(path: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def read_one(work: tuple[str, str, Rules]) -> list[PlayedGame] | Diagnostic:
    """One file's games (a module-level function: workers get it by name)."""
    path, name, rules = work
    try:
        source = read_input(path)
    except InputError as error:
        return Diagnostic("AFN662", Severity.ERROR, f"cannot read the game file: {error}",
                          name, 1, 1, hint="check the file's permissions and size")
    text, _ = decode(source.data, name)
    # the file's records and replays go before the collector is back: it walked them
    # and the facts of every file read before, and found nothing to free (issue 38)
    with cyclic_gc_paused():
        return list(games_of_text(text, name, rules))


def read_one_paged(work: tuple[str, str, Rules], advice_samples: int | None = None,
                   kept: frozenset[str] = frozenset()
                   ) -> tuple[list[PlayedGame], list[MadePage]] | Diagnostic:
    """:func:`read_one`, with each game's replay page made from the same replay, but for
    the pages named in ``kept`` (the site's folder holds them already)."""
    path, name, rules = work
    try:
        source = read_input(path)
    except InputError:
        found = read_one(work)  # says why
        return found if isinstance(found, Diagnostic) else (found, [])
    text, _ = decode(source.data, name)
    # the site reads a file again as Path.read_text does (UTF-8, newlines made "\n"); a
    # page made from another text (a byte-order mark, another encoding) could differ
    if text != source.data.decode("utf-8", errors="replace").replace(
            "\r\n", "\n").replace("\r", "\n"):
        return list(games_of_text(text, name, rules)), []
    # the collector paused for the whole file, as read_one does, and running again only
    # once the file's records and replays are gone (_paged has returned): paused game by
    # game, it walked each game's replay, still alive as the pause ended, and found
    # nothing to free (the records hold no cycles; issue 38)
    with cyclic_gc_paused():
        return _paged(text, name, rules, advice_samples, kept)


def _paged(text: str, name: str, rules: Rules, advice_samples: int | None,
           kept: frozenset[str]) -> tuple[list[PlayedGame], list[MadePage]]:
    """:func:`read_one_paged`'s games and pages of one file's ``text``."""
    from ..checking import check_with_changes
    from .replays import page_name, record_of, render, source_key

    made_from = source_key(text, rules, advice_samples)
    games: list[PlayedGame] = []
    made: list[MadePage] = []
    for game in parse(text, filename=name).games:
        # the game's text from its parsed span: the slice the site's scan of the file's
        # headers gives (the file is not scanned again for it, issue 38)
        where = game.span
        record = record_of(text, where) if where is not None else ""
        page = page_name(rules, name, record, advice_samples) if where is not None else ""
        if where is None or game.broken or page in kept:  # no page to make: facts alone
            games.append(facts_of(check(game, rules), name))
            continue
        checked, changes = check_with_changes(game, rules)
        games.append(facts_of(checked, name))
        if changes is None or checked.replay is None:
            continue
        made.append(MadePage(name, game.index, page,
                             render(game, checked.replay, changes, record, name,
                                    advice_samples), made_from))
    return games, made


def games_of_text(text: str, name: str, rules: Rules) -> Iterator[PlayedGame]:
    """The facts of every game of one file's text."""
    result = parse(text, filename=name)
    for game in result.games:
        yield facts_of(check(game, rules), name)


def facts_of(checked: CheckedGame, file: str) -> PlayedGame:
    """The event's facts of one checked game, read from the referee's replay."""
    game = checked.game
    errors = tuple(d for d in checked.diagnostics if d.severity is Severity.ERROR
                   and d.cause is None)
    replay = checked.replay
    return PlayedGame(
        file=file, index=game.index, line=game.span.line if game.span else 1,
        place=tuple((tag.name, tag.value.strip()) for tag in game.tags
                    if tag.name in PLACE_TAGS),
        rules_tag=game.tag("Rules"), seats=_seats(game),
        winner=replay.winner if replay is not None else None,
        scores=replay.scores if replay is not None else (),
        deals=_deals(game, replay) if replay is not None else (),
        errors=errors,
        disputes=sum(1 for d in checked.diagnostics if d.code.startswith("AFN4")),
        refereed=replay is not None, digest=game_digest(game, game.source or ""))


def _seats(game: Game) -> tuple[tuple[str, str], ...]:
    found = []
    for seat in _FOUR:
        name = game.tag(seat.tag_name)
        if name is not None and name.strip():
            found.append((seat.letter, name.strip()))
    return tuple(found)


def _deals(game: Game, replay: GameReplay) -> tuple[DealFacts, ...]:
    recorded = {deal.number: deal for deal in game.deals}
    facts = []
    for result in replay.deals:
        deal = recorded.get(result.number)
        hangs = tuple(HangJack(point.side, point.seat.letter if point.seat else "?",
                               result.trump.value if result.trump else "?",
                               _hanged_with(result, point.seat))
                      for point in result.points if point.item is ClaimItem.HANG_JACK)
        facts.append(DealFacts(
            number=result.number,
            line=deal.span.line if deal is not None and deal.span else 1,
            hang_jacks=hangs,
            turnups=tuple(str(card) for card in result.turnups),
            dealer_side=side_of(result.dealer, replay.game.seats) if result.dealer else None,
            game_count=_game_count(result),
            ruling=bool(deal is not None and deal.results is not None
                        and deal.results.director),
            reneges=tuple(side_of(p.offender, replay.game.seats)
                          for p in (deal.penalties if deal is not None else ())
                          if p.kind is PenaltyKind.REVOKE and p.offender is not None),
            by_results=result.by_results, counted=bool(result.pips), time=result.time))
    return tuple(facts)


def _hanged_with(result: DealResult, seat: Seat | None) -> str:
    """The card ``seat`` played to the trick that holds the Jack of trumps, read from the
    deal's recorded tricks ("?" when they do not show it)."""
    if result.trump is None or seat is None:
        return "?"
    jack = Card(result.trump, Rank.JACK)
    for _, _, plays in result.tricks:
        if any(card == jack for _, card in plays):
            return next((str(card) for who, card in plays if who is seat), "?")
    return "?"


def _game_count(result: DealResult) -> tuple[str, int] | None:
    """The side that took Game in the deal and its pips, as the referee counted them (a
    deal scored by its results: as its count for Game gives them); None when nobody took
    Game or no pips are known (results without a count)."""
    if not result.pips:
        return None
    taker = next((p.side for p in result.points if p.item is ClaimItem.GAME), None)
    pips = dict(result.pips)
    return (taker, pips[taker]) if taker is not None and taker in pips else None
