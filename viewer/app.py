"""The one app of ``allfours view`` and ``allfours record``, in two modes.

View (replay) mode is the default screen: it loads a file in a worker and shows one
step of one game at a time; every key the person presses picks a step index (see
:mod:`viewer.model`) and :meth:`ViewerApp.go` redraws the widgets from that step's
precomputed state.  Record mode is :class:`viewer.recorder.RecorderScreen`, installed
when the app records: Ctrl+R there replays the game recorded so far in view mode,
and Ctrl+R in view mode returns to recording.  While recording, the view's keys are
off (:meth:`ViewerApp.check_action`), so that they never act behind the recorder.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.compose import compose
from textual.containers import Horizontal, Vertical
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from allfours_notation import Diagnostic, GameHeader, Seat
from allfours_notation.referee.replay import GameReplay, StepKind
from allfours_notation.visible import visible

from . import model
from .advice import advice_ready, show_advice
from .loader import NotAfnError, check_path, index_in_batches, read_text
from .messages import (
    AdviceReady,
    AnalysisReady,
    DiagnosticChosen,
    DiagnosticHighlighted,
    FileOpened,
    GameChosen,
    GamesChecked,
    HeadersFound,
    IndexFinished,
    LoadFailed,
    StepChosen,
)
from .model import GameEntry, Library, Mark, check_mark
from .recorder import RecorderScreen, ReviewRequested
from .screens.dialogs import GoToScreen, OpenScreen
from .screens.help import HelpScreen
from .widgets.advice import AdvicePanel
from .widgets.analysis import AnalysisPanel
from .widgets.footer import KeyFooter
from .widgets.lists import MARK_LEGEND, DiagnosticList, GameList, StepList
from .widgets.panels import DiagnosticDetail, NotesPanel, NowBar, ScorePanel, TagsPanel
from .widgets.steady import SteadyHeader
from .widgets.table import TableView

if TYPE_CHECKING:
    from allfours_notation.checking.analysis.advisor_calls import CallPoint

RECORD = "record"  # the name the recorder screen is installed under
LIST_EVERY = 0.5  # seconds between updates of the game list while a file is indexed
MARKS_EVERY = 0.3  # seconds between batches of marks from the background check
# The check holds the GIL while it referees a game: it waits this long after the last
# move the person made before it goes on, so that stepping through a game stays quick.
QUIET_BEFORE_CHECKING = 0.4
FIRST_PAINT_WAIT = 2.0  # at most this long the indexer waits for the first game to be drawn


# Every panel but the table, the current step and the score: its key, name and title.
# In a small terminal one of them at a time shows beside the table; in a wide one the
# key brings it forward (tags under a short screen) and focuses it when it has a cursor.
PANEL_KEYS = (
    ("1", "games", "Games"),
    ("2", "tags", "Tags"),
    ("3", "steps", "Steps"),
    ("4", "points", "Points"),
    ("5", "notes", "Notes"),
    ("6", "diagnostics", "Diagnostics"),
    ("7", "analysis", "Analysis"),
    ("8", "advice", "Advice"),
)
PANEL_WIDGETS = {"games": "#games", "tags": "#tags", "steps": "#steps", "points": "#score",
                 "notes": "#notes", "diagnostics": "#diagnostics", "analysis": "#analysis",
                 "advice": "#advice"}
ANALYSIS_SECONDS = 5.0  # the time limit per deal of the analysis panel
PANELS = Binding.Group("Panels", compact=True)
STEP = Binding.Group("Card")
TRICK = Binding.Group("Trick")
DEAL = Binding.Group("Deal")
GAME = Binding.Group("Game")
EDGE = Binding.Group("Start/End")


@dataclass(frozen=True, slots=True)
class Start:
    """Where to open: game number (1-based), deal number and trick as written, a seat."""

    game: int = 1
    deal: int | None = None
    trick: int | None = None
    seat: str | None = None
    last: bool = False  # open at the last step of the game (a review of a recording)


def terminal_has_unicode() -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or ""
    return "utf" in encoding.lower()


class ViewerApp(App[int]):
    """Step through the games of one AFN file."""

    CSS_PATH = ["viewer.tcss", "recorder/recorder.tcss"]  # noqa: RUF012
    TITLE = "AFN viewer"
    # Narrow terminals drop the game list and tags (n/p still change games).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-medium"), (150, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]  # noqa: RUF012

    # The footer lists these in order and a small terminal cuts it on the right, so help
    # and quit come first, then the keys whose effect cannot be guessed (the arrows can).
    # Short descriptions fit the footer; the tooltip is what the help screen says.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?", tooltip="This help"),
        Binding("q", "leave", "Quit", tooltip="Quit"),
        Binding("ctrl+r", "record", "Record", key_display="Ctrl+R",
                tooltip="Back to recording (when this file is being recorded)"),
        *(Binding(key, f"panel('{name}')", title, group=PANELS,
                  tooltip=f"Show the {title.lower()} panel")
          for key, name, title in PANEL_KEYS),
        Binding("k", "kibitz", "Kibitz",
                tooltip="Kibitz one seat (other hands face down), then all"),
        Binding("o", "open", "Open", tooltip="Open another file"),
        Binding("g", "goto", "Go to", tooltip="Go to a deal or a trick"),
        Binding("a", "autoplay", "Auto", tooltip="Autoplay on/off (one step a second)"),
        Binding("right", "step(1)", "Card", key_display="→", group=STEP,
                tooltip="Next card (next step)"),
        Binding("left", "step(-1)", "Back", key_display="←", group=STEP,
                tooltip="Previous card (previous step)"),
        Binding("down", "trick(1)", "Trick", key_display="↓", group=TRICK, tooltip="Next trick"),
        Binding("up", "trick(-1)", "Back", key_display="↑", group=TRICK,
                tooltip="Previous trick"),
        Binding("pagedown", "deal(1)", "Deal", key_display="PgDn", group=DEAL,
                tooltip="Next deal"),
        Binding("pageup", "deal(-1)", "Back", key_display="PgUp", group=DEAL,
                tooltip="Previous deal"),
        Binding("n", "game(1)", "Game", group=GAME, tooltip="Next game"),
        Binding("p", "game(-1)", "Back", group=GAME, tooltip="Previous game"),
        Binding("home", "deal_edge(0)", "Start", key_display="Home", group=EDGE,
                tooltip="Start of the deal"),
        Binding("end", "deal_edge(1)", "End", key_display="End", group=EDGE,
                tooltip="End of the deal"),
    ]

    # The subtitle (game, deal, trick, step) changes at every key.  The header shows it
    # and redraws its title when it changes (it watches it; SteadyHeader without laying
    # the screen out); App's own reactive would also repaint the whole screen each time
    # (a quarter of the drawing a step costs).
    sub_title: Reactive[str] = Reactive("", compute=False, repaint=False)

    def __init__(self, path: str | None = None, start: Start | None = None, *,
                 unicode: bool | None = None, autoplay_seconds: float = 1.0,
                 recorder: RecorderScreen | None = None) -> None:
        """View ``path``; or, given a ``recorder``, open in record mode (``path`` is then
        read only when the scorer asks to review the recording)."""
        super().__init__()
        self.path = path or ""
        self.recorder = recorder
        self.start = start or Start()
        self.unicode = terminal_has_unicode() if unicode is None else unicode
        self.autoplay_seconds = autoplay_seconds
        self.library: Library | None = None
        self.game_position: int | None = None
        self.entry: GameEntry | None = None
        self.step = 0
        self.kibitz: Seat | None = None
        self.autoplay: Timer | None = None
        self.generation = 0
        self.all_marked = False  # the background check has marked every game of the file
        self.load_started = 0.0
        self.first_shown: float | None = None  # seconds from load start to the first deal
        self.index_seconds: float | None = None
        self.pending_start: Start | None = self.start
        self.painted = threading.Event()  # set once the screen shows the first batch
        self.unlisted: list[GameHeader] = []  # indexed, not yet in the game list
        self.listed_at = 0.0
        self.indexed_fraction = 0.0
        self.panel = "steps"  # the panel shown beside the table in a small terminal
        self.last_move = 0.0  # perf_counter() of the last step shown (read by the checker)
        self.diagnostic: Diagnostic | None = None  # chosen in the diagnostics panel
        # The analysis panel: solved deals by (game position, deal position); a deal is
        # solved only when the panel shows it, in a worker, and kept (and cached on disk).
        self.analyses: dict[tuple[int, int], object] = {}
        self.analysing: tuple[int, int] | None = None
        self.cache_said = False  # why the cache on disk is not used, told once
        # The advice panel (viewer/advice.py): calls by game, advice by (game, step)
        self.advice_calls: dict[int, dict[int, CallPoint]] = {}
        self.advice_found: dict[tuple[int, int], list[str]] = {}
        self.advising: tuple[int, int] | None = None
        self.view_made = False  # the view's widgets are mounted (at once unless recording)

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        if self.recorder is None:
            self.view_made = True
            yield from self.view_widgets()
        # In record mode the view's widgets are made when the recording is first
        # replayed (Ctrl+R): until then the recorder covers them, and making and styling
        # them cost a quarter of the recorder's start.

    def view_widgets(self) -> ComposeResult:
        """The widgets of the view (replay) mode, on the app's default screen."""
        yield SteadyHeader()
        with Horizontal(id="main", classes="-side-steps"):
            with Vertical(id="left"):
                yield GameList(id="games", unicode=self.unicode)
                yield TagsPanel(id="tags")
            with Vertical(id="centre"):
                yield TableView(id="table")
                yield NowBar(id="now")
                yield StepList(id="steps")
            with Vertical(id="right"):
                yield ScorePanel(id="score")
                yield NotesPanel(id="notes")
                yield DiagnosticList(id="diagnostics")
                yield DiagnosticDetail(id="diagnostic-detail")
                yield AnalysisPanel(id="analysis")
                yield AdvicePanel(id="advice")
        with Horizontal(id="status-bar"):
            yield Static("", id="status")
            yield ProgressBar(id="progress", show_eta=False)
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        if self.recorder is not None:
            self.install_screen(self.recorder, RECORD)
            self.push_screen(RECORD)
        else:
            self.prepare_view()
            self.open_file(self.path, self.start)

    def prepare_view(self) -> None:
        """Title the view's panels and focus the steps, once its widgets are mounted."""
        titles = {"games": "1 Games and deals", "tags": "2 Tags", "table": "Table",
                  "steps": "3 Steps", "score": "4 Score and points", "notes": "5 At this step",
                  "diagnostics": "6 Diagnostics", "diagnostic-detail": "Diagnostic",
                  "analysis": "7 Analysis (all hands seen)",
                  "advice": "8 Advice at this call"}
        for widget_id, title in titles.items():
            self.query_one(f"#{widget_id}").border_title = title
        self.query_one("#games").border_subtitle = (
            MARK_LEGEND if self.unicode else MARK_LEGEND.replace("✗", "x"))
        self.query_one(StepList).focus()

    # --- the two modes --------------------------------------------------------------------

    @property
    def recording(self) -> bool:
        """Whether the app is in record mode (the recorder, or a dialog over it, shows)."""
        return self.recorder is not None and self.recorder in self.screen_stack

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The view's keys act only in view mode; Ctrl+R only when there is a recording."""
        if action in VIEW_ACTIONS and self.recording:
            return False
        if action == "record":  # back to recording: from the view mode only
            return self.recorder is not None and not self.recording
        return True

    async def on_review_requested(self, message: ReviewRequested) -> None:
        """From the recorder: replay the file as recorded so far, at its last step (the
        view's widgets made the first time)."""
        self.pop_screen()  # the recorder is installed: it keeps its state
        if not self.view_made:
            self.view_made = True
            await self.screen_stack[0].mount_all(compose(self, self.view_widgets()))
            self.prepare_view()
        self.open_file(str(message.path), Start(game=message.game, last=True))
        self.notify("Replay of the recording so far. Ctrl+R returns to recording.",
                    timeout=3)

    def action_leave(self) -> None:
        """``q``: quit (Ctrl+Q, Textual's own, quits in either mode)."""
        self.exit()

    def action_record(self) -> None:
        if self.recorder is not None and not self.recording:
            self.stop_autoplay()
            self.push_screen(RECORD)

    # --- loading ------------------------------------------------------------------------

    def open_file(self, path: str, start: Start | None = None) -> None:
        """Start indexing ``path`` in a thread; the first game shows as soon as it is found."""
        self.stop_autoplay()
        self.generation += 1
        self.analyses.clear()
        self.analysing = None
        self.all_marked = False
        self.path = path
        self.pending_start = start or Start()
        self.load_started = time.perf_counter()
        self.first_shown = None
        self.index_seconds = None
        self.query_one("#status", Static).update(f"Reading {Path(path).name} …")
        self.query_one(ProgressBar).update(total=100, progress=0)
        self.query_one(ProgressBar).remove_class("-done")
        self.painted = threading.Event()
        self.load(path, self.generation)

    @work(thread=True, exclusive=True, group="load")
    def load(self, path: str, generation: int) -> None:
        started = time.perf_counter()
        try:
            text = read_text(path)
        except OSError as error:
            self.post_message(LoadFailed(generation, f"{path}: cannot read: {error.strerror}"))
            return
        self.post_message(FileOpened(generation, path, text))
        games = 0
        worker = get_current_worker()
        painted = self.painted
        for batch in index_in_batches(text):
            if worker.is_cancelled:  # another file was opened
                return
            games += len(batch.headers)
            self.post_message(HeadersFound(generation, batch.headers, batch.fraction))
            # Let the first game be drawn before scanning on: the two would share the GIL.
            painted.wait(timeout=FIRST_PAINT_WAIT)
        self.post_message(IndexFinished(generation, games, time.perf_counter() - started))

    def on_file_opened(self, message: FileOpened) -> None:
        if message.generation != self.generation:
            return
        self.library = Library(message.filename, message.text)
        self.unlisted.clear()
        self.game_position = self.entry = None
        self.title = visible(f"AFN viewer — {Path(message.filename).name}")
        self.query_one(GameList).clear()

    def on_headers_found(self, message: HeadersFound) -> None:
        if message.generation != self.generation or self.library is None:
            return
        self.library.add(message.headers)
        self.unlisted.extend(message.headers)
        self.indexed_fraction = message.fraction
        # Growing the list relayouts the screen: do it a few times a second at most.
        if time.perf_counter() - self.listed_at > LIST_EVERY or len(self.library) == len(
                self.unlisted):
            self.list_headers()
        start = self.pending_start
        if start is not None and start.game <= len(self.library):
            self.pending_start = None
            self.show_start(start)
        self.call_after_refresh(self.painted.set)

    def list_headers(self) -> None:
        """Show the headers indexed since the last call in the game list and status line."""
        self.listed_at = time.perf_counter()
        if self.unlisted:
            self.query_one(GameList).add(tuple(self.unlisted))
            self.unlisted.clear()
        self.query_one(ProgressBar).update(progress=round(self.indexed_fraction * 100))
        if self.library is not None and not self.library.complete:
            self.query_one("#status", Static).update(
                f"Indexing … {len(self.library):,} games found", layout=False)

    def on_index_finished(self, message: IndexFinished) -> None:
        if message.generation != self.generation or self.library is None:
            return
        self.library.complete = True
        self.index_seconds = message.seconds
        self.list_headers()
        self.update_subtitle()
        self.query_one(ProgressBar).update(progress=100)
        self.query_one(ProgressBar).add_class("-done")
        count = len(self.library)
        self.check_all(self.library, self.generation)
        self.query_one("#status", Static).update(
            f"{Path(self.path).name}: {count:,} game{'s' if count != 1 else ''}")
        if self.pending_start is not None:
            wanted = self.pending_start.game
            self.pending_start = None
            if count:
                self.notify(f"There is no game {wanted}; showing game 1.", severity="warning")
                self.show_game(0)
            else:
                self.query_one(TableView).show_message("No games in this file.")

    @work(thread=True, exclusive=True, group="check")
    def check_all(self, library: Library, generation: int) -> None:
        """Parse and referee every game of the file, in the order listed, so that every
        game's mark is known without visiting it; the marks go out a batch at a time."""
        worker = get_current_worker()
        found: dict[int, Mark] = {}
        sent = time.perf_counter()
        for position, header in enumerate(tuple(library.headers)):
            while time.perf_counter() - self.last_move < QUIET_BEFORE_CHECKING:
                if worker.is_cancelled:
                    return
                time.sleep(QUIET_BEFORE_CHECKING / 4)  # the person is stepping: wait
            if worker.is_cancelled or generation != self.generation:
                return
            if library.is_loaded(position):
                found[position] = library.entry(position).mark
            else:
                try:
                    found[position] = check_mark(library.text, header, library.filename)
                except Exception:  # a bug in the referee must not stop the viewer
                    found[position] = Mark.UNREADABLE
            if time.perf_counter() - sent > MARKS_EVERY:
                self.post_message(GamesChecked(generation, found))
                found, sent = {}, time.perf_counter()
        self.post_message(GamesChecked(generation, found, finished=True))

    def on_games_checked(self, message: GamesChecked) -> None:
        if message.generation != self.generation or self.library is None:
            return
        self.library.marks.update(message.marks)
        lists = self.query(GameList)
        if not lists:  # a batch that arrives while the app is closing
            return
        lists.first().set_marks(message.marks)
        if message.finished:
            marks = self.library.marks.values()
            unreadable = sum(1 for m in marks if m is Mark.UNREADABLE)
            problems = sum(1 for m in marks if m is Mark.PROBLEMS)
            count = len(self.library)
            for status in self.query("#status").results(Static):
                status.update(f"{Path(self.path).name}: {count:,} game{'s' * (count != 1)}, "
                              f"{unreadable:,} cannot be read, {problems:,} with problems")
            self.all_marked = True

    def on_load_failed(self, message: LoadFailed) -> None:
        if message.generation == self.generation:
            self.query_one("#status", Static).update(message.reason)
            self.notify(message.reason, severity="error")

    def show_start(self, start: Start) -> None:
        self.show_game(start.game - 1)
        if start.seat is not None and self.entry is not None:
            seat = Seat.from_letter(start.seat)
            self.kibitz = seat if seat in self.entry.game.seats else None
            if self.kibitz is None:
                self.notify(f"Nobody sits {seat.name.capitalize()} in game {start.game}; "
                            "showing all hands.", severity="warning")
        if start.last and self.entry is not None:
            self.go(len(self.entry.steps) - 1)
        elif start.deal is not None and self.entry is not None:
            found = model.find_deal(self.entry.replay, start.deal, start.trick)
            if found is None:
                where = f"deal {start.deal}" + (f" trick {start.trick}" if start.trick else "")
                self.notify(f"Game {start.game} has no {where}.", severity="warning")
            else:
                self.go(found)
        elif start.seat is not None:  # show_game drew the first step for all hands
            self.go(self.step)

    # --- showing ------------------------------------------------------------------------

    def show_game(self, position: int, deal: int | None = None) -> None:
        """Parse and replay game ``position`` (0-based) if need be and show its first step."""
        assert self.library is not None
        entry = self.library.entry(position)
        self.game_position, self.entry = position, entry
        self.query_one(TagsPanel).show_tags(entry.header, kibitz=self.kibitz is not None)
        self.query_one(StepList).set_entry(entry)
        self.diagnostic = None
        first = 0
        if deal is not None and deal < len(entry.replay.deals):
            first = entry.replay.deals[deal].first_step
        if self.kibitz is not None and self.kibitz not in entry.game.seats:
            self.kibitz = None
        if entry.steps:
            self.go(first)
        else:
            self.step = 0
            self.query_one(GameList).set_current(position, entry, None)
            self.query_one(TableView).show_unplayable(entry, self.library.text)
            self.query_one(ScorePanel).clear()
            self.query_one(NowBar).clear()
            self.query_one(NotesPanel).show_text("")
            self.show_diagnostics(entry.diagnostics)
            self.update_subtitle()
        if self.first_shown is None:
            self.call_after_refresh(self.mark_first_shown, self.generation)

    def mark_first_shown(self, generation: int) -> None:
        """Note when the first game of a file reached the screen (for the benchmarks)."""
        if generation == self.generation and self.first_shown is None:
            self.first_shown = time.perf_counter() - self.load_started

    def go(self, index: int) -> None:
        """Show step ``index`` of the current game."""
        entry = self.entry
        if entry is None or not entry.steps or self.game_position is None:
            return
        self.step = model.clamp(entry.steps, index)
        self.last_move = time.perf_counter()
        step = entry.steps[self.step]
        kibitz = self.kibitz is not None
        table = self.query_one(TableView)
        table.show_state(step.state, entry.game, kibitz=self.kibitz, unicode=self.unicode,
                         trick_over=step.kind is StepKind.TRICK_END)
        table.border_title = "Table" if self.kibitz is None else \
            f"Table · kibitzing {self.kibitz.name.capitalize()}"
        self.query_one(TagsPanel).show_tags(entry.header, kibitz=kibitz)
        # a kibitzer reads no card the watched seat cannot see yet
        shown = entry.kibitz_view(self.kibitz, self.step) if self.kibitz is not None else None
        steps = self.query_one(StepList)
        watched, now = self.kibitz, self.step
        steps.set_kibitz(kibitz, None if watched is None else
                         lambda row: entry.kibitz_row(watched, now, row))
        steps.show_current(self.step)
        self.query_one(ScorePanel).show_step(entry.replay, step, shown=shown)
        self.query_one(NowBar).show_step(entry.replay, step,
                                         of=None if kibitz else len(entry.steps))
        self.query_one(NotesPanel).show_step(step, entry.notes_at(step), shown=shown)
        deal = model.deal_of(entry.replay, self.step) if entry.replay.deals else None
        self.query_one(GameList).set_current(self.game_position, entry, deal, kibitz=kibitz)
        self.show_diagnostics(entry.kibitz_diagnostics(self.kibitz, self.step)
                              if self.kibitz is not None else entry.diagnostics)
        if self.panel == "analysis":
            self.show_analysis()
        elif self.panel == "advice":
            show_advice(self)
        self.update_subtitle()

    # --- the analysis panel ----------------------------------------------------------------

    def show_analysis(self) -> None:
        """The analysis of the current deal at the current card: solved first if need be
        (in a worker; the panel says so meanwhile).  A kibitzer is shown nothing: the
        analysis sees every hand."""
        panel = self.query_one(AnalysisPanel)
        entry = self.entry
        if entry is None or not entry.steps or self.game_position is None or \
                not entry.replay.deals:
            panel.show_nothing("No deal to analyse.")
            return
        if self.kibitz is not None:
            panel.show_nothing("Hidden while kibitzing: the analysis sees every hand.")
            return
        position = model.deal_of(entry.replay, self.step)
        key = (self.game_position, position)
        deal = entry.replay.deals[position]
        analysis = self.analyses.get(key)
        if analysis is None:
            panel.show_waiting(deal.number)
            if self.analysing != key:
                self.analysing = key
                self.analyse_deal(entry.replay, key, self.generation)
            return
        played = model.cards_played_before(entry.steps, deal.first_step, self.step)
        panel.show(analysis, played, entry.game.seats)  # type: ignore[arg-type]

    @work(thread=True, exclusive=True, group="analysis")
    def analyse_deal(self, replayed: GameReplay, key: tuple[int, int], generation: int) -> None:
        from allfours_notation.checking.analysis import (
            AnalysisCache,
            analyse_deal,
            deal_digest,
            played_deals,
        )

        played = played_deals(replayed)[key[1]]
        cache = AnalysisCache(notice=self.cache_not_used)
        digest = deal_digest(played)
        analysis = cache.get(digest)
        if analysis is None:
            analysis = analyse_deal(played, time_limit=ANALYSIS_SECONDS)
            cache.put(digest, analysis, ANALYSIS_SECONDS)
        cache.close()
        self.post_message(AnalysisReady(generation, key, analysis))

    def cache_not_used(self, message: str) -> None:
        """Why the analysis cache is not used (from the worker's thread): a notification,
        once, not a line on the terminal the viewer draws on."""
        if not self.cache_said:
            self.cache_said = True
            self.call_from_thread(self.notify, message, severity="warning")

    def on_analysis_ready(self, message: AnalysisReady) -> None:
        if message.generation != self.generation:
            return
        self.analyses[message.key] = message.analysis
        if self.analysing == message.key:
            self.analysing = None
        if self.panel == "analysis":
            self.show_analysis()

    def on_advice_ready(self, message: AdviceReady) -> None:
        advice_ready(self, message)

    def show_diagnostics(self, diagnostics: tuple[Diagnostic, ...]) -> None:
        """List ``diagnostics`` (all of the game's, or a kibitzer's share) and show the
        chosen one, or else the first, in full."""
        listed = self.query_one(DiagnosticList)
        if listed.diagnostics != diagnostics:
            listed.set_diagnostics(diagnostics)
            if self.diagnostic not in diagnostics:
                self.diagnostic = None
        hidden = len(self.entry.diagnostics) - len(diagnostics) if self.entry else 0
        title = f"6 Diagnostics ({len(diagnostics)}" + (f", {hidden} later)" if hidden else ")")
        if listed.titled != title:  # setting the title redraws the list, even the same
            listed.titled = listed.border_title = title
        shown = self.diagnostic if self.diagnostic is not None else (
            diagnostics[0] if diagnostics else None)
        text = self.library.text if self.library is not None else None
        self.query_one(DiagnosticDetail).show(shown, text)

    def update_subtitle(self) -> None:
        if self.entry is None or self.library is None or self.game_position is None:
            return
        total = f"{len(self.library):,}" + ("" if self.library.complete else "+")
        # the seat watched first: a narrow header cuts the end of the line
        parts = [] if self.kibitz is None else [f"kibitz {self.kibitz.name.capitalize()}"]
        parts.append(f"game {self.game_position + 1} of {total}")
        if self.entry.steps:
            step = self.entry.steps[self.step]
            parts.append(f"deal {step.deal}")
            if step.trick is not None:
                parts.append(f"trick {step.trick}")
            of = "" if self.kibitz is not None else f"/{len(self.entry.steps)}"
            parts.append(f"step {self.step + 1}{of}")
        if self.autoplay is not None:
            parts.append("autoplay")
        self.sub_title = visible(" · ".join(parts))

    # --- actions ------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.go(self.step + delta)

    def action_trick(self, delta: int) -> None:
        if self.entry is not None:
            move = model.next_trick if delta > 0 else model.previous_trick
            self.go(move(self.entry.steps, self.step))

    def action_deal(self, delta: int) -> None:
        if self.entry is not None:
            move = model.next_deal if delta > 0 else model.previous_deal
            self.go(move(self.entry.replay, self.step))

    def action_deal_edge(self, end: int) -> None:
        if self.entry is not None:
            edge = model.deal_end if end else model.deal_start
            self.go(edge(self.entry.replay, self.step))

    def action_game(self, delta: int) -> None:
        if self.library is None or self.game_position is None:
            return
        target = self.game_position + delta
        if 0 <= target < len(self.library):
            self.show_game(target)
        else:
            self.bell()

    def action_goto(self) -> None:
        if self.entry is None:
            return

        def answered(answer: str | None) -> None:
            self.query_one(StepList).focus()
            wanted = model.parse_goto(answer) if answer else None
            if wanted is None or self.entry is None:
                return
            found = model.find_deal(self.entry.replay, *wanted)
            if found is None:
                self.notify(f"No such deal or trick in this game: {answer}", severity="warning")
            else:
                self.go(found)

        self.push_screen(GoToScreen(), answered)

    def action_kibitz(self) -> None:
        if self.entry is None:
            return
        self.kibitz = model.kibitz_cycle(self.entry.game.seats, self.kibitz)
        self.go(self.step)

    def action_autoplay(self) -> None:
        if self.autoplay is not None:
            self.stop_autoplay()
        else:
            self.autoplay = self.set_interval(self.autoplay_seconds, self.autoplay_tick)
        self.update_subtitle()

    def autoplay_tick(self) -> None:
        if self.entry is None or self.step >= len(self.entry.steps) - 1:
            self.stop_autoplay()
            return
        self.go(self.step + 1)

    def stop_autoplay(self) -> None:
        if self.autoplay is not None:
            self.autoplay.stop()
            self.autoplay = None
            self.update_subtitle()

    def action_open(self) -> None:
        def answered(answer: str | None) -> None:
            self.query_one(StepList).focus()
            if not answer:
                return
            try:
                check_path(answer)
            except NotAfnError as error:
                self.notify(str(error), severity="error")
                return
            self.open_file(answer)

        self.push_screen(OpenScreen(self.path), answered)

    def action_help(self) -> None:
        bindings = [b for b in self.BINDINGS if isinstance(b, Binding)]
        self.push_screen(HelpScreen(bindings))

    def action_panel(self, name: str) -> None:
        """Bring panel ``name`` forward: beside the table in a small terminal, in place of
        the game list for the tags on a short screen; focus it when it has a cursor.
        The analysis and advice panels' keys toggle them (back to the steps)."""
        if name in ("analysis", "advice") and self.panel == name:
            name = "steps"
        self.panel = name
        main = self.query_one("#main")
        for _, other, _ in PANEL_KEYS:
            main.set_class(other == name, f"-side-{other}")
        widget = self.query_one(PANEL_WIDGETS[name])
        if widget.can_focus:
            # Focused before the next key is read (Textual sets it from the message queue,
            # where this key's handling puts it ahead of the next key), not after the next
            # refresh, which a fast typist's next key could come before.
            widget.focus()
        elif isinstance(self.focused, DiagnosticList | GameList):
            self.query_one(StepList).focus()
        if name == "analysis":
            self.show_analysis()
        elif name == "advice":
            show_advice(self)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if self.recording:
            return
        yield SystemCommand("Go to a deal or trick", "Jump to deal N or deal.trick",
                            self.action_goto)
        yield SystemCommand("Open another file", "Read another AFN file", self.action_open)
        yield SystemCommand("Kibitz", "Cycle one seat's view and all hands", self.action_kibitz)

    # --- picks from the lists -------------------------------------------------------------

    def on_game_chosen(self, message: GameChosen) -> None:
        if message.game != self.game_position:
            self.show_game(message.game, message.deal)
        elif message.deal is not None and self.entry is not None:
            self.go(self.entry.replay.deals[message.deal].first_step)
        self.query_one(StepList).focus()

    def on_step_chosen(self, message: StepChosen) -> None:
        self.go(message.step)

    def on_diagnostic_highlighted(self, message: DiagnosticHighlighted) -> None:
        text = self.library.text if self.library is not None else None
        self.query_one(DiagnosticDetail).show(message.diagnostic, text)

    def on_diagnostic_chosen(self, message: DiagnosticChosen) -> None:
        if self.entry is None:
            return
        self.diagnostic = message.diagnostic
        found = model.step_of_diagnostic(self.entry.replay, message.diagnostic)
        if found is not None:
            self.go(found)
            steps = self.query_one(StepList)
            if not self.screen.has_class("-narrow"):  # the steps show beside the list
                steps.focus()
        else:
            self.show_diagnostics(self.query_one(DiagnosticList).diagnostics)


# The view mode's own actions (the keys above but Ctrl+R): off while recording.
VIEW_ACTIONS = frozenset(binding.action.split("(")[0] for binding in ViewerApp.BINDINGS
                         if isinstance(binding, Binding)) - {"record"}
