"""The one door: check a game, or a whole file of games, the way ``allfours check`` does.

Checking a game is always the same pipeline, and this module is the only place that
puts it together::

    options (the rules the game names, or --rules/--set/--rules-file)
      → structure (``referee.structure``: the records' shape, AFN2xx, as each run of
        games is read; the public ``parse`` is reading and this stage, ``.parsing``)
      → referee (``rules.replay.replay``: the table, then the dispute report)
      → slips and root causes (``causes.explain``: a probable slip named, every
        finding linked to the root it follows from)

:func:`check` does it for one game and returns a :class:`CheckedGame` (the
diagnostics, sorted, numbered and linked, the replay and the options);
:func:`check_games` for a run of games, stage by stage (every game's rules, then
every replay, then every explanation: each stage's code stays hot, issue 16);
:func:`check_text` for a whole text; :func:`check_file` and :func:`tally_file`
are the streaming forms ``allfours check`` prints from, in worker processes for a
large file.  Every tool (``check``, ``score``, the viewer, the recorder, the
language server, ``list --check``, ``stats``, ``find --has``, ``fmt``'s safety
proof, ``export``) calls these, so they all report the same codes, positions,
roots and hints.  An internal fault in any stage is one AFN901 at its game,
never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from ..collector import cyclic_gc_paused
from ..diagnostics import Diagnostic, Severity, sort_key
from ..frozen import frozen
from ..guard import internal_error
from ..reading.parser import FileReader, read_game_body, read_games
from ..reading.records import Game
from ..reading.slicer import Slices
from ..referee.profiles import Options, resolve_options
from ..referee.replay import StepChange, replay, replay_changes
from ..referee.state import GameReplay
from ..referee.structure import check_read_game
from .causes import explain, link_causes
from .progress import in_progress, noted

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..archive.parallel import WorkerPool
    from ..referee.profiles import Profile

__all__ = [
    "OWN_RULES",
    "CheckedGame",
    "CheckedText",
    "GivenRules",
    "Rules",
    "StepChange",
    "changes_of",
    "check",
    "check_file",
    "check_games",
    "check_text",
    "check_with_changes",
    "file_findings",
    "replay_of",
    "rules_diagnostics",
    "tally",
    "tally_file",
]

# (profile, overrides) or (profile, overrides, house rules): what --rules, --set and
# --rules-file ask for; None: no rules replay (the parser's findings only, linked)
GivenRules = tuple[str | None, dict[str, str]] | tuple[str | None, dict[str, str],
                                                        "Profile | None"]
# ...or the options themselves (a recorder's, resolved once); None: no rules replay
Rules = GivenRules | Options | None
OWN_RULES: GivenRules = (None, {})  # each game under the rules it names
# What a game's check reports, as ``check`` streams it: its diagnostics and whether
# any is an error (None: the findings about the whole file, not a game).
Checked = tuple[list[Diagnostic], bool | None]
# What the summary line needs of one or more games: how many diagnostics, errors,
# warnings and root causes, how many games and how many of them with errors, then how
# many disputes (``Severity.DISPUTE``: no errors of the record) and games with disputes.
Tally = tuple[int, int, int, int, int, int, int, int]
SMALL_FILE_GAMES = 32  # fewer games than this are checked in-process: starting workers costs more


@frozen
class CheckedGame:
    """One game checked: every diagnostic ``allfours check`` reports for it (sorted,
    numbered and linked to its root cause), whether any is an error, the replay (None
    when the game was not refereed: a syntax error, no rules asked for, nothing to
    referee, or an internal fault) and the options it was refereed under."""

    game: Game
    diagnostics: tuple[Diagnostic, ...]
    has_errors: bool
    replay: GameReplay | None
    options: Options | None

    @property
    def roots(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.cause is None)

    @property
    def unfinished(self) -> tuple[Diagnostic, ...]:
        """The referee's findings that only say the game is not finished yet, as it
        found them (before they were numbered: compare ``d.linked(None, None)``)."""
        return self.replay.unfinished if self.replay is not None else ()


@frozen
class CheckedText:
    """A whole text checked: what concerns the file itself (its bytes, its version
    line, no games), then each game, numbered on across the file as ``check`` does."""

    text: str
    diagnostics: tuple[Diagnostic, ...]
    games: tuple[CheckedGame, ...]

    def all_diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic in the order ``check`` reports them."""
        return [*self.diagnostics, *(d for game in self.games for d in game.diagnostics)]


def check(game: Game, rules: Rules = OWN_RULES, *, first_id: int = 1,
          steps: bool = False, empty: bool = False) -> CheckedGame:
    """Check one parsed game: the rules it names (or ``rules``: (profile, overrides[,
    house rules]), or resolved options; None: the parser's findings only), the
    referee, the dispute report, the probable slips and the root causes.  ``steps``
    keeps a table state per event in the replay (the viewer's, the language server's
    hovers; several times dearer);
    ``empty`` replays a game with neither tags nor deals too (a score sheet of it),
    which has nothing to referee and is otherwise left without a replay."""
    return check_games([game], rules, first_id=first_id, steps=steps, empty=empty)[0]


def replay_of(game: Game, rules: Rules = OWN_RULES, *, steps: bool = True,
              empty: bool = True) -> GameReplay | None:
    """The referee's replay of ``game``, as :func:`check` makes it (the same rules,
    the same stages), without explaining the findings: for a caller that has the
    game's diagnostics already and wants the table at each step (the language
    server's hovers and completions), where naming the probable slips of a broken
    deal would cost more than the replay.  None where :func:`check` has no replay."""
    if rules is None or not (_refereed(game) or (empty and not game.broken)):
        return None
    found = _replayed(game, _options(game, rules), steps)
    return found if isinstance(found, GameReplay) else None


def changes_of(game: Game, rules: Rules = OWN_RULES
               ) -> tuple[GameReplay, tuple[StepChange, ...]] | None:
    """:func:`replay_of`, each step as what it changed at the table rather than the
    whole table (:func:`~.referee.replay.replay_changes`): what a replay page is made
    from (issue 38).  None where :func:`replay_of` has none; a fault in the referee
    becomes None too (the page is not made, as for a game :func:`check` cannot
    replay)."""
    if rules is None or not (_refereed(game) or not game.broken):
        return None
    options = _options(game, rules)
    if options is None or isinstance(options, Exception):
        return None
    try:
        return replay_changes(game, options[0])
    except Exception:  # check() reports it (AFN901); a page is not made
        return None


def check_with_changes(game: Game, rules: Rules = OWN_RULES
                       ) -> tuple[CheckedGame, tuple[StepChange, ...] | None]:
    """:func:`check` and :func:`changes_of` from one run of the referee: the event
    site's cold build, which wants each game's facts and its replay page, refereed each
    game twice before (issue 38).  The replay :func:`changes_of` makes has the same
    findings, scores and deals as :func:`check`'s (a test holds them to that), so the
    findings are explained from it.  Where that replay is not made (a game with nothing
    to referee, rules that do not resolve, a fault in the referee), :func:`check` as
    ever, and no changes (no page is made, as :func:`changes_of` makes none)."""
    options = _options(game, rules) if rules is not None and _refereed(game) else None
    if options is None or isinstance(options, Exception):
        return check(game, rules), None
    try:
        replayed, changes = replay_changes(game, options[0])
    except Exception:  # check() reports it (AFN901)
        return check(game, rules), None
    mine = _explained(game, options, replayed, 1)
    return CheckedGame(game, mine, _any_error(mine), replayed, options[0]), changes


def check_games(games: Sequence[Game], rules: Rules = OWN_RULES, *,
                first_id: int | None = 1, steps: bool = False,
                empty: bool = False) -> list[CheckedGame]:
    """:func:`check` of each game of a run, numbered on from ``first_id`` across the
    run (None: each game's from 1, as in a worker).

    Stage by stage over the run, rather than game by game: every game's rules are
    resolved, then every game replayed, then every game's findings explained, so
    that each stage's code stays hot in the processor's caches (a file of thousands
    of small games is mostly that, issue 16).  A game with neither tags nor deals (a
    stray ``end``) has nothing to referee under any rules (a test holds the referee
    to that), so it is not replayed: a file of ``end end end …`` is a quarter of a
    million such games per MB."""
    return [CheckedGame(game, mine, has_errors,
                        replayed if isinstance(replayed, GameReplay) else None,
                        options[0] if isinstance(options, tuple) else None)
            for game, options, replayed, mine, has_errors in _stages(games, rules, first_id,
                                                                      steps, empty)]


# A game through the stages: the game, its options, its replay, its diagnostics explained
# and numbered, and whether any is an error.
_Staged = tuple[Game, "_Options", "_Replayed", tuple[Diagnostic, ...], bool]


def _stages(games: Sequence[Game], rules: Rules, first_id: int | None, steps: bool,
            empty: bool) -> list[_Staged]:
    """:func:`check_games` before each game's answer is made a :class:`CheckedGame`:
    what ``check`` streams reads only the diagnostics and the error flag (a file of
    tiny games would build one answer a game for nothing)."""
    chosen = [_options(game, rules)
              if rules is not None and (_refereed(game) or (empty and not game.broken))
              else None for game in games]
    replays = [_replayed(game, options, steps) for game, options in zip(games, chosen,
                                                                        strict=True)]
    staged: list[_Staged] = []
    number = first_id or 1
    for game, options, replayed in zip(games, chosen, replays, strict=True):
        mine = _explained(game, options, replayed, number)
        if first_id is not None:
            number += len(mine)
        staged.append((game, options, replayed, mine,
                       game.has_errors if rules is None else _any_error(mine)))
    return staged


def check_text(source: str | bytes, *, filename: str | None = None,
               rules: Rules = OWN_RULES, steps: bool = False) -> CheckedText:
    """Read and check every game of ``source`` in this process, run by run as
    ``check`` does: the file's own findings, then each game's, numbered on."""
    reader = read_games(source, filename=filename)
    head = file_findings(reader)
    first_id = len(head) + 1
    games: list[CheckedGame] = []
    for work in _chunks(reader, rules):
        for checked, _ in _run_games(work, first_id, steps=steps):
            first_id += len(checked.diagnostics)
            games.append(checked)
    return CheckedText(reader.text, tuple(head), tuple(games))


def file_findings(reader: FileReader, first_id: int = 1,
                  before: Sequence[Diagnostic] = ()) -> tuple[Diagnostic, ...]:
    """What concerns the whole file (its bytes, its version line, no games), linked;
    ``before``: findings about the text the reader never saw (an editor's)."""
    return link_causes([*before, *reader.diagnostics, *reader.closing_diagnostics()],
                       first_id=first_id)


def rules_diagnostics(game: Game, rules: GivenRules, parsed: list[Diagnostic], *,
                      first_id: int = 1) -> list[Diagnostic]:
    """The parser's diagnostics of one game (``parsed``) with the rules, options and
    dispute diagnostics added and explained; an internal fault becomes one AFN901 at
    the game instead of a traceback, beside the parser's."""
    options = _options(game, rules)
    return list(_explained(game, options, _replayed(game, options, False), first_id, parsed))


# --- the streaming form ``allfours check`` prints from ----------------------------------------


def check_file(reader: FileReader, rules: Rules = OWN_RULES, *, first_id: int = 1,
               pool: WorkerPool | None = None,
               advance: Callable[[int], None] | None = None) -> Iterator[Checked]:
    """The diagnostics of a file in the order they are reported, a game at a time.

    First what concerns the whole file (with ``None``), then each game's (with
    whether it has errors), as :func:`check_games` gives them, numbered from
    ``first_id`` on.  Only one run of games' records is alive at a time (at most
    :data:`CHUNK_CHARS` of text, or one longer game), so memory does not grow with
    the number of games.  With a ``pool`` the games are checked in its worker
    processes, each numbered from 1, and come back in order to be numbered on from
    ``first_id`` here.
    """
    head = list(file_findings(reader, first_id))
    first_id += len(head)
    yield head, None
    if pool is None or len(reader.slices) < SMALL_FILE_GAMES or not pool.parallel:
        for work in _chunks(reader, rules):
            for diagnostics, has_errors, size in _run_checked(work, first_id):
                if advance is not None:
                    advance(size)
                first_id += len(diagnostics)
                yield list(diagnostics), has_errors
        return
    packed = (result for results in pool.map(_check_chunk, _chunks(reader, rules), batch=1)
              for result in results)
    for values, with_errors, size in packed:
        if advance is not None:
            advance(size)
        yield _unpacked(values, first_id - 1), with_errors
        first_id += len(values)


def tally(diagnostics: Sequence[Diagnostic], with_errors: bool | None) -> Tally:
    """The counts of one game's diagnostics (``with_errors`` None: the findings about
    the whole file, not a game)."""
    errors = warnings = disputes = roots = 0
    for diagnostic in diagnostics:
        if diagnostic.severity is Severity.ERROR:
            errors += 1
        elif diagnostic.severity is Severity.WARNING:
            warnings += 1
        elif diagnostic.severity is Severity.DISPUTE:
            disputes += 1
        roots += diagnostic.cause is None
    return (len(diagnostics), errors, warnings, roots, int(with_errors is not None),
            int(bool(with_errors)), disputes, int(with_errors is not None and disputes > 0))


def tally_file(reader: FileReader, rules: Rules = OWN_RULES, *,
               pool: WorkerPool | None = None,
               advance: Callable[[int], None] | None = None) -> Iterator[Tally]:
    """:func:`check_file`, counted: what ``check --quiet`` prints.  Games are counted a
    run at a time (:func:`_tally_chunk`), in worker processes or here, and a worker
    sends back one tally for each run, not its diagnostics."""
    yield tally(file_findings(reader, 1), None)
    runs = _chunks(reader, rules)
    tallied: Iterator[tuple[Tally, int]]
    if pool is None or len(reader.slices) < SMALL_FILE_GAMES or not pool.parallel:
        tallied = map(_tally_chunk, runs)
    else:
        tallied = pool.map(_tally_chunk, runs, batch=1)
    for counts, size in tallied:
        if advance is not None:
            advance(size)
        yield counts


# --- the stages ------------------------------------------------------------------------------

# A stage's result for one game: the options and their problems, or a replay; None for
# a game that is not refereed; the exception where refereeing the game failed.
_Options = tuple[Options, list[Diagnostic]] | Exception | None
_Replayed = GameReplay | Exception | None


def _refereed(game: Game) -> bool:
    return not game.broken and bool(game.deals or game.tags)


def _options(game: Game, rules: GivenRules | Options) -> _Options:
    """The rules ``game`` is replayed under (the first stage of refereeing a run).

    Each stage catches a fault in refereeing a game itself, written out rather than
    through :func:`.guarded`: two closures per game cost more than a tiny game's
    linking does."""
    if isinstance(rules, Options):
        return rules, []
    try:
        return resolve_options(game, profile=rules[0], overrides=rules[1],
                               house=rules[2] if len(rules) > 2 else None)
    except Exception as error:  # becomes an AFN901 at the game (see _explained)
        return error


def _replayed(game: Game, options: _Options, steps: bool) -> _Replayed:
    if options is None or isinstance(options, Exception):
        return options
    try:
        return replay(game, options[0], record_states=steps)
    except Exception as error:  # becomes an AFN901 at the game (see _explained)
        return error


def _explained(game: Game, options: _Options, replayed: _Replayed, first_id: int,
               parsed: list[Diagnostic] | None = None) -> tuple[Diagnostic, ...]:
    """The game's findings with the referee's, explained and numbered from ``first_id``;
    where a stage failed, the parser's and one AFN901 at the game."""
    found = list(game.diagnostics) if parsed is None else parsed
    if replayed is None:
        return link_causes(found, first_id=first_id)
    if not isinstance(replayed, Exception):
        assert options is not None and not isinstance(options, Exception)
        try:
            findings = [*found, *options[1], *replayed.diagnostics]
            waiting = in_progress(game, findings, replayed.unfinished)
            if not waiting:  # nearly every game
                return explain(replayed, findings, first_id=first_id)
            return _with_notes(explain(replayed, [d for d in findings if d not in waiting]),
                               [noted(d) for d in waiting], first_id)
        except Exception as error:
            replayed = error
    problem = internal_error(replayed, doing="checking this game's rules", file=game.source,
                             game=game.index, at=game.span)
    return link_causes([*found, problem], first_id=first_id)


def _with_notes(explained: Sequence[Diagnostic], notes: Sequence[Diagnostic],
                first_id: int) -> tuple[Diagnostic, ...]:
    """A game's explained findings (numbered from 1) with the notes of a game in
    progress (roots, explained apart: a trick still filling is no missing card to search
    for), in file order and numbered from ``first_id``, the causes renumbered alike."""
    merged = sorted([(d, d.id) for d in explained] + [(d, None) for d in notes],
                    key=lambda pair: sort_key(pair[0]))
    new_id = {old: first_id + at for at, (_, old) in enumerate(merged) if old is not None}
    return tuple(d.linked(first_id + at, new_id.get(d.cause) if d.cause is not None else None)
                 for at, (d, _) in enumerate(merged))


def _any_error(diagnostics: Sequence[Diagnostic]) -> bool:
    """``any(d.is_error …)``, without a generator and a property per finding."""
    return Severity.ERROR in [diagnostic.severity for diagnostic in diagnostics]


# --- runs of games, in this process or a worker's ---------------------------------------------

# A worker's unit of work: consecutive games whose text adds up to about this many
# characters (at most CHUNK_GAMES of them).  One game per unit made a file of
# thousands of tiny games cost more in pickling than in checking, and each unit
# costs the parent about a millisecond of handing over (issue 16): 64 KB units
# took a third of the parent's time on a file of tiny games, and a run of well-formed
# games is still only a few hundred games' records alive at once.
CHUNK_CHARS = 65_536
CHUNK_GAMES = 4_096

# (the text from the first game's start to the last one's end, where that text starts
# in the file, the index of the first game, its slices, the file name, the rules)
Chunk = tuple[str, int, int, Slices, str | None, Rules]


def _chunks(reader: FileReader, rules: Rules) -> Iterator[Chunk]:
    """The file's games in runs of about :data:`CHUNK_CHARS` characters, in order,
    each run's slices as columns (see :meth:`.Slices.windows`)."""
    text, file = reader.text, reader.file
    slices = reader.slices if isinstance(reader.slices, Slices) else Slices(reader.slices)
    for first, pieces in slices.windows(CHUNK_CHARS, CHUNK_GAMES):
        start, end = pieces.text_span
        yield text[start:end], start, first + 1, pieces, file, rules


# A diagnostic as it travels back from a worker: its fields in order, the severity as
# its text.  Tuples of plain values pickle in C; dataclasses and enums pickle through
# Python calls, which cost more than checking a tiny game.
Packed = tuple[list[tuple[object, ...]], bool | None, int]  # and the game's length
_FIELDS = tuple(f.name for f in fields(Diagnostic))
_VALUES = attrgetter(*_FIELDS)
_SEVERITY_AT, _ID_AT, _CAUSE_AT = (_FIELDS.index(name) for name in ("severity", "id", "cause"))
_SEVERITIES = {severity.value: severity for severity in Severity}


# A game's check as ``check`` streams it: its diagnostics, whether any is an error,
# and the game's length.
Streamed = tuple[tuple[Diagnostic, ...], bool, int]


def _run_games(work: Chunk, first_id: int | None = None, *,
               steps: bool = False) -> list[tuple[CheckedGame, int]]:
    """A run of games cut out of their file, read and checked: each game checked
    (its diagnostics numbered on from ``first_id``, or each game's from 1 when it is
    None, as in a worker) and its length; what :func:`check_text` keeps."""
    with cyclic_gc_paused():
        games, sizes = _read_run(work)
        return list(zip(check_games(games, work[5], first_id=first_id, steps=steps), sizes,
                        strict=True))


def _run_checked(work: Chunk, first_id: int | None = None) -> list[Streamed]:
    """:func:`_run_games`, keeping only each game's diagnostics and whether it has
    errors: the records and replays go while the cycle collector is still paused
    (kept until the run's end, the collector walked every record of the run: a
    quarter of ``check``'s time on a generated corpus)."""
    with cyclic_gc_paused():
        games, sizes = _read_run(work)
        staged = _stages(games, work[5], first_id, False, False)
        del games
        streamed = [(mine, has_errors, size)
                    for (_, _, _, mine, has_errors), size in zip(staged, sizes, strict=True)]
        del staged  # before the collector is back: it would walk them all once
    return streamed


def _read_run(work: Chunk) -> tuple[list[Game], list[int]]:
    """The games of a run read, then their structure checked, and their lengths.

    The whole run is read first, then its structure checked, then refereed, rather
    than game by game: the code of each stage stays hot in the processor's caches for
    a run, which makes a file of thousands of tiny games about a quarter cheaper
    (issue 16).  A run is at most :data:`CHUNK_CHARS` of text (or one game), so its
    records stay small."""
    body, base, first_index, run, file, _ = work
    pieces = list(run)
    read = [read_game_body(body[piece.start - base : piece.end - base], piece,
                           index=index, filename=file)
            for index, piece in enumerate(pieces, start=first_index)]
    return list(map(check_read_game, read)), [piece.end - piece.start for piece in pieces]


def _check_chunk(work: Chunk) -> list[Packed]:
    """In a worker process: a run of games checked, their diagnostics packed."""
    return [(list(map(_packed, diagnostics)), has_errors, size)
            for diagnostics, has_errors, size in _run_checked(work)]


def _tally_chunk(work: Chunk) -> tuple[Tally, int]:
    """In a worker process: a run of games checked and only counted (``--quiet``): one
    tally for the run and its length, whatever the number of games in it."""
    checked = _run_checked(work)
    count, errors, warnings, roots, _, _, disputes, _ = tally(
        [diagnostic for diagnostics, _, _ in checked for diagnostic in diagnostics], None)
    failed = sum(1 for _, has_errors, _ in checked if has_errors)
    disputed = sum(1 for diagnostics, _, _ in checked
                   if Severity.DISPUTE in [d.severity for d in diagnostics])
    length = sum(size for _, _, size in checked)
    return (count, errors, warnings, roots, len(checked), failed, disputes, disputed), length


def _packed(diagnostic: Diagnostic) -> tuple[object, ...]:
    values = list(_VALUES(diagnostic))
    values[_SEVERITY_AT] = diagnostic.severity.value
    return tuple(values)


def _unpacked(packed: list[tuple[object, ...]], offset: int) -> list[Diagnostic]:
    """A worker's diagnostics of one game, numbered from ``offset + 1`` instead of 1
    (ids and causes alike: a cause always lies in the same game)."""
    found = []
    for values in packed:
        fields_: list[Any] = list(values)
        fields_[_SEVERITY_AT] = _SEVERITIES[cast(str, fields_[_SEVERITY_AT])]
        if offset:
            for at in (_ID_AT, _CAUSE_AT):
                if fields_[at] is not None:
                    fields_[at] = cast(int, fields_[at]) + offset
        found.append(Diagnostic(*fields_))
    return found
