"""Pilot tests: drive every key of the viewer and check what the screen shows."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.screen import Screen
from textual.widgets import Static

from allfours_notation import Card, Seat, cards
from allfours_notation.referee.replay import StepKind, TableState
from allfours_notation.viewer import model
from allfours_notation.viewer.app import Start, ViewerApp
from allfours_notation.viewer.screens.dialogs import GoToScreen, OpenScreen
from allfours_notation.viewer.screens.help import HelpScreen, key_rows
from allfours_notation.viewer.widgets.lists import DiagnosticList, GameList, StepList
from allfours_notation.writing.sheet import pretty_cards
from tests.viewer.viewer_helpers import BROKEN, FOUR, TWO, loaded, rows, shown, wait_loaded
from tests.waiting import until

Scenario = Callable[[], Coroutine[Any, Any, None]]


def run(scenario: Scenario) -> None:
    asyncio.run(scenario())


def pretty(seat_cards: tuple[Card, ...]) -> str:
    return " ".join(c.pretty() for c in seat_cards)


def on_screen(app: ViewerApp) -> Screen[Any]:
    """The screen on top, typed as any screen: an ``isinstance`` check of it narrows
    nothing for the checks that follow (``app.screen`` would stay narrowed)."""
    return app.screen


def current_state(app: ViewerApp) -> TableState:
    assert app.entry is not None
    return app.entry.steps[app.step].state


def test_opens_on_the_first_step_steps_card_by_card_then_a_click_shows_a_step() -> None:
    """One scenario (it was four tests, each starting the app for its part): the first
    step with every hand, then right and left card by card; at step 3, where North must
    follow South's lead, the player to move and their legal cards; then a click on a
    row of the steps list shows that step."""
    async def scenario() -> None:
        async with loaded(TWO) as (app, pilot):
            assert app.step == 0
            assert app.query_one(StepList).current == 0
            table = shown(app, "#table")
            assert "North · Ann Baptiste" in table
            assert "South · Ben Charles" in table
            state = current_state(app)
            assert set(state.hand(Seat.NORTH)) == set(cards("9C 8C 7D 3H 2H 2D"))
            assert pretty(state.hand(Seat.NORTH)) in table
            assert pretty(state.hand(Seat.SOUTH)) in table
            assert "Arima club night" in shown(app, "#tags")
            assert isinstance(app.focused, StepList)
            for _ in range(4):
                await pilot.press("right")
            assert app.step == 4
            step = app.entry.steps[4] if app.entry else None
            assert step is not None and step.text == "N plays 2D"
            table = shown(app, "#table")
            assert "S:J♠" in table and "N:2♦" in table
            assert "J♠" not in pretty(current_state(app).hand(Seat.SOUTH))
            assert len(current_state(app).hand(Seat.SOUTH)) == 5
            assert app.query_one(StepList).current == 4
            assert "N plays 2D" in shown(app, "#notes")
            await pilot.press("left")
            assert app.step == 3
            state = current_state(app)
            assert state.to_move == Seat.NORTH
            assert "2♦" in pretty(state.hand(Seat.NORTH))
            assert state.legal  # S led JS: N must follow with a trump or play anything
            table = shown(app, "#table")
            assert "▶ North · Ann Baptiste" in table
            legal = [c for c in state.hand(Seat.NORTH) if c in state.legal]
            assert "legal " + " ".join(c.pretty() for c in legal) in table
            # a click on a row of the steps list shows that step
            steps = app.query_one(StepList)
            await pilot.click(StepList, offset=(10, 5))  # the border takes the first row
            assert app.step == steps.scroll_offset.y + 4 != 3
            assert steps.current == app.step

    run(scenario)


def test_the_stepping_keys_the_score_the_notes_and_kibitz_on_one_file() -> None:
    """One scenario on two.afn (it was six tests, each starting the app for its part;
    every part begins where a fresh app would, at the first step): down and up step
    trick by trick; the page keys move between deals and the game list follows; home
    and end go to the edges of the deal; the score shows the target, the winner and the
    points with their reasons; the notes show the comments and glyphs of the step; and
    kibitzing hides the result and the number of deals until it is cycled off."""
    async def scenario() -> None:
        async with loaded(TWO) as (app, pilot):
            # down and up, trick by trick
            await pilot.press("down")
            assert app.entry is not None
            step = app.entry.steps[app.step]
            assert step.kind is StepKind.TRICK_END and step.trick == 1
            won = dict(current_state(app).won)
            assert won["S"] == 1
            table = shown(app, "#table")
            assert "Tricks won N 0  S 1" in table
            assert "Trick 1 · S led" in table and "won by S" in table
            await pilot.press("down")
            assert app.entry.steps[app.step].trick == 2
            await pilot.press("up", "up")
            assert app.step == 0
            # the page keys move between deals and the game list follows
            await pilot.press("right", "right", "pagedown")
            step = app.entry.steps[app.step]
            assert step.kind is StepKind.DEAL_START and step.deal == 2
            assert "deal 2" in app.sub_title
            games = app.query_one(GameList)
            assert games.current is not None
            assert rows(app, "#games")[games.current].strip().startswith("deal 2")
            await pilot.press("pageup")
            assert app.step == 0
            assert rows(app, "#games")[games.current].strip().startswith("deal 1")
            # home and end go to the edges of the deal
            for _ in range(7):
                await pilot.press("right")
            await pilot.press("end")
            assert app.step == app.entry.replay.deals[0].last_step
            assert app.entry.steps[app.step].kind is StepKind.DEAL_END
            assert "Score N 0  S 4" in shown(app, "#score")
            await pilot.press("home")
            assert app.step == app.entry.replay.deals[0].first_step
            # the score: target, winner and points with their reasons
            await pilot.press("pagedown", "end")
            score = shown(app, "#score")
            assert "Score N 2  S 7" in score
            flat = " ".join(score.split())
            assert "target 7" in score
            assert "Game won by S" in score
            state = current_state(app)
            items = {p.item.value for p in state.deal_points}
            assert {"kick", "gift", "high", "low", "game"} <= items
            for point in state.deal_points:  # the cards named as the table writes them
                reason = pretty_cards(point.reason)
                assert f"{point.side} {point.item.value} {point.points} {reason}" in flat
            # comments and glyphs at the current step
            played = next(s.index for s in app.entry.steps if s.text == "S plays TC")
            app.go(played)
            await pilot.pause()
            notes = shown(app, "#notes")
            assert "!!  brilliant play" in notes
            await pilot.press("right")
            assert "ten of trumps makes Game" in shown(app, "#notes")
            # kibitzing hides the result and the number of deals
            assert app.entry.header.tag("Result")
            deals = f"{app.entry.header.deals} deal"
            assert "hidden while kibitzing" not in shown(app, "#tags")
            assert deals in " ".join(rows(app, "#games"))
            await pilot.press("k")
            assert app.kibitz is not None
            assert "hidden while kibitzing" in shown(app, "#tags")
            assert deals not in " ".join(rows(app, "#games"))
            for _ in app.entry.game.seats:
                await pilot.press("k")
            assert app.kibitz is None
            assert "hidden while kibitzing" not in shown(app, "#tags")

    run(scenario)


def test_every_game_is_marked_then_n_and_p_a_game_picked_and_a_diagnostic_chosen() -> None:
    """One scenario on broken.afn (it was three tests, each starting the app for its
    part): the marks come first (a game visited is loaded), then n and p visit the
    games, the broken one listed and shown with its error; back at the first game, the
    third is picked in the game list; there, choosing a diagnostic jumps to its step and
    focuses the steps."""
    async def scenario() -> None:
        async with loaded(BROKEN) as (app, pilot):
            library = app.library
            assert library is not None
            await until(pilot, lambda: len(library.marks) == len(library), "every mark")
            assert library.is_loaded(0) and not library.is_loaded(2)
            marks = [row[0] for row in rows(app, "#games") if not row.startswith("    deal")]
            assert marks == ["!", "✗", "!"]  # a warning, unreadable, rules errors
            assert "1 cannot be read, 2 with problems" in str(
                app.query_one("#status", Static).render())
            assert len(rows(app, "#games")) >= 3
            await pilot.press("n")
            assert app.game_position == 1
            table = shown(app, "#table")
            assert "cannot be replayed" in table
            assert "AFN101" in table and "^" in table  # the error beside its source line
            codes = [d.code for d in app.query_one(DiagnosticList).diagnostics]
            assert "AFN101" in codes
            assert rows(app, "#games")[1].startswith("✗")
            await pilot.press("n")
            assert app.game_position == 2 and app.entry is not None and app.entry.steps
            await pilot.press("n")  # no game 4: stays
            assert app.game_position == 2
            await pilot.press("p", "p", "p")
            assert app.game_position == 0
            assert "Arima club night" in shown(app, "#tags")
            # a game picked in the list
            games = app.query_one(GameList)
            games.focus()
            await pilot.pause()
            last_row = games.line_count - 1
            await pilot.press(*["down"] * last_row, "enter")
            assert app.game_position == 2
            assert isinstance(app.focused, StepList)
            assert "Broken rules" in shown(app, "#tags")
            # a diagnostic of that game chosen
            diagnostics = app.query_one(DiagnosticList)
            target = next(i for i, d in enumerate(diagnostics.diagnostics) if d.code == "AFN306")
            diagnostics.focus()
            await pilot.pause()
            for _ in range(target):
                await pilot.press("down")
            await pilot.press("enter")
            assert app.entry is not None
            wanted = diagnostics.diagnostics[target]
            assert wanted.linked(None, None) in app.entry.steps[app.step].diagnostics
            assert isinstance(app.focused, StepList)
            assert app.query_one(StepList).current == app.step
            detail = shown(app, "#detail-message")
            assert wanted.code in detail
            assert wanted.message in " ".join(detail.split())
            snippet = shown(app, "#detail-snippet").splitlines()
            assert snippet[0].lstrip().startswith(f"{wanted.line} |")
            assert wanted.column is not None
            caret = snippet[1].index("^") - snippet[0].index("|") - 2
            assert caret == wanted.column - 1  # the caret stands under the column

    run(scenario)


def test_the_dialogs_go_to_the_palette_help_and_open_then_q_quits(tmp_path: Path) -> None:
    """One scenario on two.afn (it was four tests, each starting the app for its part):
    g goes to a deal and trick; the command palette offers go to and open; ? shows every
    key and Esc closes it; o with a missing file keeps the current one, then opens
    another; and q quits."""
    async def scenario() -> None:
        async with loaded(TWO) as (app, pilot):
            # (on_screen: mypy would otherwise keep app.screen narrowed to the dialog
            # that was open and take the parts after it for unreachable)
            # g goes to a deal and trick
            await pilot.press("g")
            assert isinstance(on_screen(app), GoToScreen)
            await pilot.press("x", "y", "enter")  # not a deal: the dialog stays and says so
            assert isinstance(on_screen(app), GoToScreen)
            await pilot.press("backspace", "backspace", "2", ".", "4", "enter")
            await pilot.pause()
            assert not isinstance(on_screen(app), GoToScreen)
            assert app.entry is not None
            step = app.entry.steps[app.step]
            assert step.deal == 2 and step.trick == 4
            assert app.entry.steps[app.step + 1].trick != 4
            assert isinstance(app.focused, StepList)
            await pilot.press("g", "escape")
            assert not isinstance(on_screen(app), GoToScreen)
            # the command palette offers go to and open
            titles = [command.title for command in app.get_system_commands(app.screen)]
            assert "Go to a deal or trick" in titles and "Open another file" in titles
            await pilot.press("ctrl+p")
            await until(pilot, lambda: isinstance(on_screen(app), CommandPalette), "the palette")
            palette = app.screen
            await pilot.press(*"go to a deal")

            def offered() -> str | None:
                options = palette.query_one(CommandList)
                highlighted = options.highlighted_option
                return None if highlighted is None else str(highlighted.prompt)

            await until(pilot, lambda: "Go to a deal or trick" in (offered() or ""),
                        "the palette to offer the command")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(on_screen(app), GoToScreen), "the go-to dialog")
            await pilot.press("2", "enter")
            await pilot.pause()
            assert app.entry is not None
            assert app.step == app.entry.replay.deals[1].first_step
            # ? shows every key, Esc closes it
            await pilot.press("question_mark")
            assert isinstance(on_screen(app), HelpScreen)
            help_text = " ".join(shown(app, "#help-keys").split())
            for binding in ViewerApp.BINDINGS:
                assert isinstance(binding, Binding)
                label = binding.key_display or binding.key
                assert label in help_text, label
            listed = " ".join(f"{keys} {does}" for keys, does in key_rows(
                [b for b in ViewerApp.BINDINGS if isinstance(b, Binding)]))
            for binding in ViewerApp.BINDINGS:
                assert isinstance(binding, Binding)
                first_of_group = binding.group is None or binding.tooltip.startswith("Next")
                if first_of_group or binding.key == "home":
                    assert binding.tooltip in listed, binding.tooltip
                else:
                    assert binding.description.lower() in listed.lower()
            for word in listed.split():  # the two columns interleave their lines on screen
                assert word in help_text
            for panel in ("games", "tags", "steps", "points", "notes", "diagnostics"):
                assert panel in help_text
            for key in ("Tab", "Enter", "Esc", "Ctrl+P"):
                assert key in help_text
            await pilot.press("escape")
            assert not isinstance(on_screen(app), HelpScreen)
            # o with a missing file keeps the current one, then opens another
            await pilot.press("o")
            assert isinstance(on_screen(app), OpenScreen)
            app.screen.query_one("#open").value = str(tmp_path / "nope.afn")  # type: ignore[attr-defined]
            await pilot.press("enter")
            await pilot.pause()
            assert len(app.screen_stack) == 1  # the dialog closed
            assert "two.afn" in app.title
            assert app.entry is not None
            await pilot.press("o")
            assert isinstance(on_screen(app), OpenScreen)
            app.screen.query_one("#open").value = str(FOUR)  # type: ignore[attr-defined]
            await pilot.press("enter")
            await until(pilot, lambda: app.entry is not None and "four.afn" in app.title,
                        "the other file to open")
            assert app.entry is not None and len(app.entry.game.seats) == 4
            assert "Partners" in shown(app, "#tags")
            # q quits
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running

    run(scenario)


def test_k_cycles_kibitz_through_every_seat_then_all_hands() -> None:
    async def scenario() -> None:
        async with loaded(FOUR) as (app, pilot):
            await pilot.press("k")
            assert app.kibitz is Seat.NORTH
            table = shown(app, "#table")
            state = current_state(app)
            assert pretty(state.hand(Seat.NORTH)) in table
            assert pretty(state.hand(Seat.SOUTH)) not in table
            assert table.count("▒▒") == 18
            assert "kibitz North" in app.sub_title
            assert app.query_one("#table").border_title == "Table · kibitzing North"
            await pilot.press("right", "right", "right")  # E leads; S to move, cards hidden
            state = current_state(app)
            assert state.to_move is Seat.SOUTH and state.legal
            table = shown(app, "#table")
            assert "To move S" in table and "legal" not in table
            assert not any(card.pretty() in table for card in state.hand(Seat.SOUTH))
            for seat in (Seat.EAST, Seat.SOUTH, Seat.WEST):
                await pilot.press("k")
                assert app.kibitz is seat
            await pilot.press("k")
            assert app.kibitz is None
            assert "▒▒" not in shown(app, "#table")

    run(scenario)


def test_a_toggles_autoplay() -> None:
    async def scenario() -> None:
        async with loaded(TWO, autoplay_seconds=0.05) as (app, pilot):
            await pilot.press("a")
            assert app.autoplay is not None
            await until(pilot, lambda: app.step >= 3, "autoplay to step three times")
            await pilot.press("a")
            assert app.autoplay is None
            stopped_at = app.step
            # a clock of the same period as autoplay's: once it has ticked four times,
            # autoplay would have moved on had it not stopped
            ticks: list[int] = []
            clock = app.set_interval(0.05, lambda: ticks.append(app.step))
            await until(pilot, lambda: len(ticks) >= 4, "four periods of autoplay")
            clock.stop()
            assert ticks == [stopped_at] * len(ticks) and app.step == stopped_at

    run(scenario)


def test_ascii_fallback_writes_suit_letters() -> None:
    async def scenario() -> None:
        async with loaded(TWO, unicode=False) as (app, _):
            table = shown(app, "#table")
            assert "JS 9H 8H" in table
            assert "♠" not in table and "♥" not in table

    run(scenario)


def test_start_at_a_deal_trick_and_seat() -> None:
    async def scenario() -> None:
        async with loaded(TWO, Start(game=1, deal=2, trick=3, seat="S")) as (app, _):
            assert app.entry is not None
            assert app.step == model.find_deal(app.entry.replay, 2, 3)
            assert app.entry.steps[app.step].trick == 3
            assert app.kibitz is Seat.SOUTH

    run(scenario)


def test_a_large_file_is_indexed_in_batches(tmp_path: Path) -> None:
    body = TWO.read_text().replace("% AFN 1\n", "")
    games = 400
    text = "% AFN 1\n" + "".join(body.replace("Arima club night", f"Night {i}")
                                 for i in range(1, games + 1))
    path = tmp_path / "many.afn"
    path.write_text(text)

    async def scenario() -> None:
        async with loaded(path) as (app, pilot):
            assert app.library is not None and len(app.library) == games
            assert app.first_shown is not None
            assert len(rows(app, "#games")) == games + 2  # the current game's two deals
            assert app.library.is_loaded(0) and not app.library.is_loaded(games - 1)
            app.show_game(games - 1)
            await pilot.pause()
            assert f"Night {games}" in shown(app, "#tags")

    run(scenario)


def test_a_narrow_terminal_drops_the_game_list_but_keeps_the_table_and_the_help_fits() -> None:
    async def scenario() -> None:
        app = ViewerApp(str(TWO), unicode=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_loaded(pilot)
            assert not app.query_one("#left").display
            assert app.query_one("#table").region.width > 40
            assert "South · Ben Charles" in shown(app, "#table")
            await pilot.press("n")  # n/p still work without the list
            assert app.game_position == 0
            await pilot.press("question_mark")
            await pilot.pause()
            box = app.screen.query_one("#help-box")
            assert box.region.y >= 0 and box.region.bottom <= 24
            assert box.region.right <= 80
            assert box.max_scroll_y == 0  # nothing hidden below the fold
            assert "closes this help" in shown(app, "#help-foot")

    run(scenario)


def test_a_seat_nobody_sits_in_shows_all_hands() -> None:
    async def scenario() -> None:
        async with loaded(TWO, Start(seat="E")) as (app, _):
            assert app.kibitz is None
            assert "▒▒" not in shown(app, "#table")

    run(scenario)


def test_a_game_or_deal_that_is_not_there_is_said_and_the_file_still_opens(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # On a loaded machine loading can outlast a notice's few seconds on screen.
    monkeypatch.setattr(ViewerApp, "NOTIFICATION_TIMEOUT", 600.0)

    async def scenario() -> None:
        async with loaded(BROKEN, Start(game=9)) as (app, _):
            assert app.game_position == 0
            assert any("no game 9" in n.message for n in app._notifications)
        async with loaded(TWO, Start(deal=5)) as (app, _):
            assert app.step == 0
            assert any("no deal 5" in n.message for n in app._notifications)

    run(scenario)


async def footer_text(app: ViewerApp) -> str:
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    footer = app.screen.query_one(Footer)
    keys = [key for key in footer.query(FooterKey) if key.region.right <= 80]
    return " ".join(f"{key.key_display} {key.description}" for key in keys)


def test_at_80_by_24_each_panel_is_one_key_away_and_a_caret_snippet_never_wraps() -> None:
    """At 80×24 the table, step and score show and each panel is a key away; then, in
    the diagnostics panel, the last diagnostic's caret snippet scrolls sideways."""
    async def scenario() -> None:
        app = ViewerApp(str(BROKEN), Start(game=3), unicode=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_loaded(pilot)
            await pilot.press("right", "right", "right")
            now = shown(app, "#now")
            assert app.entry is not None
            assert app.entry.steps[app.step].text in " ".join(now.split())
            assert "Score N 0  S 0" in now
            table = app.query_one("#table")
            assert table.region.width >= 40 and table.region.height >= 14
            footer = await footer_text(app)
            assert "? Help" in footer and "q Quit" in footer
            assert "k Kibitz" in footer and "o Open" in footer
            for key, widget_id in (("1", "#games"), ("2", "#tags"), ("3", "#steps"),
                                   ("4", "#score"), ("5", "#notes"), ("6", "#diagnostics")):
                await pilot.press(key)
                await pilot.pause()
                panel = app.query_one(widget_id)
                assert panel.region.width >= 30, widget_id  # shown beside the table
                assert panel.region.x >= table.region.right
                assert table.region.width >= 40
            detail = app.query_one("#diagnostic-detail")
            assert detail.region.height > 3  # the chosen diagnostic in full, under the list
            await pilot.press("6")
            listed = app.query_one(DiagnosticList)
            for _ in range(len(listed.diagnostics) - 1):
                await pilot.press("down")
            await pilot.pause()
            last = listed.diagnostics[-1]
            assert last.message in " ".join(shown(app, "#detail-message").split())
            await pilot.press("enter")
            await pilot.pause()
            snippet = app.query_one("#detail-snippet")
            lines = shown(app, "#detail-snippet").rstrip("\n").splitlines()
            assert len(lines) == 2 and "|" in lines[0] and "^" in lines[1]
            assert snippet.region.height == 2  # two lines, however narrow the panel
            source = app.query_one("#detail-source")
            assert snippet.size.width >= len(lines[0].rstrip())
            assert source.max_scroll_x >= 0

    run(scenario)


def test_kibitz_hides_the_plays_to_come() -> None:
    async def scenario() -> None:
        async with loaded(BROKEN, Start(game=3)) as (app, pilot):
            assert app.entry is not None
            everything = rows(app, "#steps")
            assert len(everything) == len(app.entry.steps)
            await pilot.press("right", "right", "right", "right")
            await pilot.press("k")  # North's view
            seen = rows(app, "#steps")
            assert len(seen) == app.step + 1
            assert seen == everything[:app.step + 1]
            later = app.entry.diagnostics_until(app.step)
            assert app.query_one(DiagnosticList).diagnostics == later
            assert len(later) < len(app.entry.diagnostics)  # the revokes come later
            assert "(in play)" in " ".join(rows(app, "#games"))
            await pilot.press("down")  # a trick later, the list has grown
            assert len(rows(app, "#steps")) == app.step + 1
            for _ in app.entry.game.seats:
                await pilot.press("k")
            assert app.kibitz is None
            assert len(rows(app, "#steps")) == len(app.entry.steps)

    run(scenario)


