"""Kibitzing hides what the watched seat cannot know (issue 24).

For every sample and some generated games, for every seat and every step: no line the
viewer shows while watching that seat (the notes, the steps listed so far, the score
panel's reasons, the diagnostics) names a card the seat cannot see yet: its own hand,
the turn-ups and the cards played so far are all it sees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from allfours_notation import Seat, scan_headers
from allfours_notation.cards import parse_card
from allfours_notation.generate import Knobs, generate_games, write_afn
from allfours_notation.viewer import model
from allfours_notation.viewer.widgets.panels import HIDDEN_COMMENT, note_lines, score_renderable

SAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("samples").glob("*.afn"))


def entries(text: str, name: str) -> Iterator[model.GameEntry]:
    library = model.Library(name, text)
    library.add(scan_headers(text))
    for position in range(len(library)):
        entry = library.entry(position)
        if entry.steps and not entry.game.broken:
            yield entry


def shown_lines(entry: model.GameEntry, seat: Seat, index: int,
                shown: Callable[[str], str] | None) -> Iterator[str]:
    """Every line the viewer shows a kibitzer at step ``index`` (``shown``: its masking;
    None shows the lines as they are without kibitzing).  Of the step list, the rows of
    the deal so far (the earlier deals' rows read the same at every later step)."""
    step = entry.steps[index]
    for text, _ in note_lines(step, entry.notes_at(step), shown):
        yield text
    deal = entry.replay.deals[model.deal_of(entry.replay, index)]
    for row in range(min(deal.first_step, index), index + 1):
        yield entry.kibitz_row(seat, index, row) if shown is not None else \
            entry.steps[row].text
    rendered = score_renderable(entry.replay, step, shown=shown)
    for part in getattr(rendered, "renderables", ()):
        yield str(getattr(part, "plain", part))


def diagnostic_lines(entry: model.GameEntry, seat: Seat, index: int,
                     masked: bool) -> Iterator[tuple[str, int | None]]:
    """The diagnostics listed for a kibitzer at step ``index``, each with its deal."""
    diagnostics = entry.kibitz_diagnostics(seat, index) if masked else \
        entry.diagnostics_until(index)
    for diagnostic in diagnostics:
        yield diagnostic.message, diagnostic.deal
        if diagnostic.hint:
            yield diagnostic.hint, diagnostic.deal


def leaks(entry: model.GameEntry, *, masked: bool = True) -> list[str]:
    """Each card a kibitzer is shown that the watched seat cannot see: by what the seat
    saw of each step's deal (an earlier deal's rows, shown at a later step, by all it saw
    of that deal)."""
    found = []
    for seat in entry.game.seats:
        for index in range(len(entry.steps)):
            seen = entry.seen_by(seat, index)
            shown = entry.kibitz_view(seat, index) if masked else None
            lines = [(line, seen) for line in shown_lines(entry, seat, index, shown)]
            for line, number in diagnostic_lines(entry, seat, index, masked):
                end = next((d.last_step for d in entry.replay.deals
                            if d.number == number and d.last_step < index), None)
                lines.append((line, seen if end is None else entry.seen_by(seat, end)))
            for line, known in lines:
                for match in model.CARD_RUN.finditer(line):
                    for word in match.group().split(" "):
                        card = parse_card(word)
                        if card is not None and card not in known:
                            found.append(f"{seat.letter} at step {index}: {word} in {line!r}")
    return found


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_no_sample_shows_a_kibitzer_a_card_the_seat_cannot_see(path: Path) -> None:
    for entry in entries(path.read_text(encoding="utf-8"), path.name):
        assert leaks(entry) == []


def test_generated_games_show_a_kibitzer_no_hidden_card() -> None:
    text = "".join(write_afn(game) + "\n" for players in (2, 4) for game in generate_games(
        24, 1, players=players, knobs=Knobs(hands=1.0, offences=0.3)))
    checked = 0
    for entry in entries(text, "generated.afn"):
        assert leaks(entry) == []
        checked += 1
    assert checked == 2


def test_the_revoke_note_names_no_card_of_the_hidden_hand() -> None:
    # samples/revoke.afn, deal 2: S revokes holding 8C; watching N, the note at S's card
    # says only that S held a card not yet shown, until 8C is played in trick 4
    entry = next(entries(SAMPLES[[p.name for p in SAMPLES].index("revoke.afn")].read_text(
        encoding="utf-8"), "revoke.afn"))
    assert leaks(entry, masked=False)  # without the masking the card would be named
    revoke = next(i for i, step in enumerate(entry.steps)
                  if any(d.code == "AFN306" for d in step.diagnostics))
    watching_n = entry.kibitz_view(Seat.NORTH, revoke)
    note = next(text for text, _ in note_lines(entry.steps[revoke], [], watching_n)
                if text.startswith("AFN306"))
    assert "8C" not in note and "a card not yet shown (hand as dealt)" in note
    watching_s = entry.kibitz_view(Seat.SOUTH, revoke)  # S knows its own hand
    assert "8C" in next(text for text, _ in note_lines(entry.steps[revoke], [], watching_s)
                        if text.startswith("AFN306"))
    shown_later = next(i for i, step in enumerate(entry.steps)
                       if i > revoke and "S plays 8C" in step.text)
    assert "8C" in entry.kibitz_view(Seat.NORTH, shown_later)(
        f"held {entry.steps[revoke].diagnostics[0].message.split('held ')[1]}")


def test_a_comment_that_tells_of_cards_to_come_is_not_shown_to_a_kibitzer() -> None:
    # before deal 2 of the sample: "South's JC falls to West's AC: Hang Jack, three to
    # East-West."  Masked, it read "South's a card S held falls to West's a card W held:
    # Hang Jack..." before any card was played; a kibitzer is told only that it is hidden
    text = (SAMPLES[0].parent / "four-handed-trinidad.afn").read_text(encoding="utf-8")
    entry = next(entries(text, "four-handed-trinidad.afn"))
    index = entry.replay.deals[1].first_step
    step = entry.steps[index]
    notes = entry.notes_at(step)
    plain = [text for text, _ in note_lines(step, notes, None)]
    assert any("South's JC falls to West's AC" in line for line in plain)
    for seat in (Seat.NORTH, Seat.SOUTH):
        watched = [text for text, _ in note_lines(step, notes, entry.kibitz_view(seat, index))]
        assert not any("falls to" in line for line in watched)
        assert HIDDEN_COMMENT in watched
    # a comment that names no card, or only cards the seat has seen, is shown as written
    kick = entry.replay.deals[2].first_step
    assert any("Kick 6D" in line for line, _ in
               note_lines(entry.steps[kick], entry.notes_at(entry.steps[kick]),
                          entry.kibitz_view(Seat.NORTH, kick + 3)))
