"""A club night through the real recorder screen (issue 37): a four-handed Trinidad game
to 14 chalked in results mode, typed one key at a time (Pilot), with a kick, a beg
answered by a gift, a beg answered by a run (and the run's turn-up), a Hang Jack, a tied
Game, a penalty, a mid-game dispute (the other side's claim, one item changed) and a
disputed deciding deal; every other deal agreed with ``y``.  After every key that writes
the file, the file checks with no error (disputes and notes are not errors), and at the
end its score is the chalk: the items' points added up here, by hand, at Trinidad's
values.  The forbidden entries are typed the same way: refused, the reason on screen
until the next entry, the file's bytes unchanged.

The whole game (five deals, about 10 s) is typed in the slow set,
:mod:`tests.recording.test_results_scenario_slow`, which prints the keys per deal (from
the deal's first key to the other side's ``y`` or claim; ``pytest -s``); two of its deals
are typed here."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from allfours_notation.checking import check_text
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Tag
from allfours_notation.recording.opening import new_tags
from allfours_notation.referee import replay
from allfours_notation.viewer.recorder import RecorderScreen
from tests.recording.app_helpers import keys, recorder, status
from tests.recording.helpers import start_file

FOUR = {"North": "Ann", "East": "Cal", "South": "Ben", "West": "Dee"}
TWO = {"North": "Ann", "South": "Ben"}

# Trinidad's chalk, as a scorer adds it up: a turn-up's kick by its rank (Ace 1, Six 2,
# Jack 3), to the dealer's side; the gift to the beggar's; a Hang Jack 3; the other
# items 1; a Game tied nobody's.
KICKS = {"a": 1, "6": 2, "j": 3}
WORTH = {"h": 1, "l": 1, "j": 1, "g": 1, "p": 1, "x": 3}
# trinidad14 deals anticlockwise: after N deals W, then S, then E; the elder (who stands
# or begs) is the next dealer.
ROTATION = "nwse"


def side(seat: str) -> str:
    return "NS" if seat in "ns" else "EW"


@dataclass(frozen=True)
class Deal:
    """One deal as the scorer types it: the dealer, the turn-up, the elder's call (``s``
    stands, ``bt`` begs and is given one, ``br`` begs and the dealer runs, the run's
    turn-up then in ``run``), the items (``h n``, ``g =``) and the other side's answer:
    ``y``, or the one item their claim changes (``l n``)."""

    dealer: str
    turn: str
    call: str
    items: tuple[str, ...]
    claim: str | None = None
    run: str | None = None

    def chalk(self) -> dict[str, int]:
        """The deal's points by side, added up by hand."""
        elder = ROTATION[(ROTATION.index(self.dealer) + 1) % len(ROTATION)]
        chalk = {"NS": 0, "EW": 0}
        for turned in (self.turn, self.run):
            if turned is not None:
                chalk[side(self.dealer)] += KICKS.get(turned[0], 0)
        if self.call == "bt":
            chalk[side(elder)] += 1
        for item in self.items:
            key, seat = item.split()
            if seat != "=":
                chalk[side(seat)] += WORTH[key]
        return chalk

    def keys(self, first: bool) -> list[str]:
        """The keys typed for the deal: the dealer (the first deal only: results mode
        begins the next deal itself), ``u`` and the turn-up on the entry line, the call,
        each item's key and side, Enter, then ``y`` or ``c``, the item changed, Enter."""
        typed = [self.dealer, "enter"] if first else []
        typed += [*keys(f"u{self.turn}"), "enter", *self.call]
        if self.run is not None:
            typed += [*keys(f"u{self.run}"), "enter"]
        typed += [char for item in self.items for char in item.split()]
        typed += ["enter"]
        typed += ["y"] if self.claim is None else ["c", *self.claim.split(), "enter"]
        return typed


# NS reach 14 in the last deal, with its Game; every item is one the cards can give.
GAME = (
    Deal("n", "as", "s", ("h n", "l e", "j n", "g =")),  # N kicks an Ace; Game tied
    Deal("w", "6h", "bt", ("h e", "x n", "g e")),  # S begs, W gives; N hangs the Jack
    Deal("s", "4h", "br", ("h e", "l e", "g e", "p e"), claim="l n", run="jc"),  # run: JC
    Deal("e", "2d", "s", ("h n", "l e", "j w", "g w")),
    Deal("n", "9c", "s", ("h n", "l e", "j n", "g n"), claim="g e"),  # the decider
)
# The cheap variant: a kick, a tie, a beg and a run, a penalty and a dispute.
SHORT = (GAME[0], Deal("w", "4h", "br", ("h e", "l e", "g e", "p e"), claim="l n",
                       run="jc"))


def errors_in(text: str) -> list[str]:
    """What 'allfours check' says of the file that is an error (a dispute, a game in
    progress are not)."""
    return [f"{d.code} {d.message}" for d in check_text(text).all_diagnostics()
            if d.is_error]


async def press_checked(pilot: Pilot[int], path: Path, key: str, last: list[bytes]) -> None:
    """One key, as a scorer types it, and not refused; when it wrote the file, the file
    checks clean."""
    await pilot.press(key)
    screen = pilot.app.screen
    assert isinstance(screen, RecorderScreen)
    assert not status(screen).startswith("refused"), f"{key!r}: {status(screen)}"
    now = path.read_bytes()
    if now != last[0]:
        last[0] = now
        assert errors_in(now.decode("utf-8")) == [], f"after {key!r}"


def trinidad_file(path: Path) -> None:
    start_file(path, (*new_tags(rules="trinidad14", players=FOUR, date="2026.12.07"),
                      Tag(name="Entry", value="results")))


def play(path: Path, deals: tuple[Deal, ...]) -> tuple[list[int], int]:
    """Type ``deals`` through the screen key by key, checking the file after each key
    that writes it; the keys per deal and how many times the file was written."""
    per_deal: list[int] = []
    written = [0]

    async def scenario() -> None:
        async with recorder(path, players=4, rules="trinidad14") as (screen, pilot):
            last = [path.read_bytes()]
            for number, deal in enumerate(deals):
                typed = deal.keys(first=number == 0)
                for key in typed:
                    before = last[0]
                    await press_checked(pilot, path, key, last)
                    written[0] += last[0] != before
                per_deal.append(len(typed))
                if deal.claim is None:  # the other side's y is in the file
                    assert path.read_text(encoding="utf-8").rstrip().endswith(
                        "{ agreed }\nend"), f"deal {number + 1}"
            assert screen.session is not None

    asyncio.run(scenario())
    return per_deal, written[0]


def chalked(deals: tuple[Deal, ...]) -> dict[str, int]:
    total = {"NS": 0, "EW": 0}
    for deal in deals:
        for team, points in deal.chalk().items():
            total[team] += points
    return total


def test_a_short_trinidad_night_through_the_screen(tmp_path: Path) -> None:
    """The cheap variant of the game above for the default suite (two deals; the whole
    game is in the slow set)."""
    path = tmp_path / "short.afn"
    trinidad_file(path)
    _, written = play(path, SHORT)
    game = parse(path.read_text(encoding="utf-8")).games[0]
    assert dict(replay(game).scores) == chalked(SHORT) == {"NS": 3, "EW": 8}
    assert game.deals[1].claim is not None
    assert written >= 8


# -- the forbidden entries, typed ------------------------------------------------------------
#
# One recorder per rules and table size, the forbidden entries typed one after the other
# in the same deal (each was a test of its own, each starting the app): every one is
# refused with its reason, the file's bytes and the entries unchanged, the reason on
# screen until the next entry, which the table allows.  The order is chosen so that
# what came before leaves each forbidden entry forbidden for its own reason only.


@dataclass(frozen=True)
class Forbidden:
    name: str
    before: tuple[str, ...]  # keys accepted first
    typed: tuple[str, ...]  # the forbidden entry's keys (the last one refused)
    reason: str  # what the status says
    after: tuple[str, str]  # an entry the table allows next: an item's key and its side
    pasted: str | None = None  # a line pasted and Enter: what the keys cannot say


FORBIDDEN = {
    "hoffmann1909": (TWO, (
        Forbidden("kick-to-the-wrong-side", ("n", "enter"), ("enter",),
                  "the turn-up scores for the dealer's side (N) only", ("l", "n"),
                  pasted="k s"),
        Forbidden("gift-to-the-dealer", (), ("enter",),
                  "the gift goes to the elder hand who begged (S)", ("j", "n"),
                  pasted="t n"),
        Forbidden("hang-jack-hoffmann", (), ("x", "n"),
                  "Hang Jack is not played under these rules", ("g", "s")),
        Forbidden("high-twice", ("h", "n"), ("h", "s"), "High is written 2 times", ("p", "s")),
        Forbidden("fifth-kick-hoffmann", ("k", "k", "k", "k"), ("k",),
                  "5 kicks of 1 in one deal: the pack holds 4 jacks", ("p", "n")),
    )),
    "trinidad14": (FOUR, (
        Forbidden("kick-of-4", ("n", "enter"), ("k", "4"),
                  "a turn-up scores 1 or 2 or 3 under these rules", ("l", "n")),
        Forbidden("fourth-kick-four-players", ("k", "1", "k", "2", "k", "3"), ("k", "1"),
                  "4 kicks in one deal: with 4 players a deal has at most 3 turn-ups",
                  ("h", "e")),
    )),
}


@pytest.mark.parametrize("rules", sorted(FORBIDDEN))
def test_the_forbidden_entries_typed_are_refused_said_and_not_written(
        tmp_path: Path, rules: str) -> None:
    players, forbidden_entries = FORBIDDEN[rules]
    path = tmp_path / "forbidden.afn"
    start_file(path, (*new_tags(rules=rules, players=players, date="2026.12.07"),
                      Tag(name="Entry", value="results")))
    shown: list[str] = []

    async def scenario() -> None:
        async with recorder(path, players=len(players), rules=rules) as (screen, pilot):
            last = [path.read_bytes()]
            for forbidden in forbidden_entries:
                for key in forbidden.before:
                    await press_checked(pilot, path, key, last)
                assert screen.session is not None
                entries = screen.session.entries
                written = path.read_bytes()
                if forbidden.pasted is not None:
                    screen.entry_line.post_message(events.Paste(forbidden.pasted))
                    await pilot.pause()
                for key in forbidden.typed:
                    await pilot.press(key)
                said = status(screen)
                shown.append(f"{forbidden.pasted or ' '.join(forbidden.typed)}: {said}")
                assert said.startswith("refused:") and forbidden.reason in said, (
                    forbidden.name, said)
                assert path.read_bytes() == written and screen.session.entries == entries, (
                    forbidden.name)
                await pilot.pause()
                assert status(screen) == said, forbidden.name  # until the next entry
                screen.entry_line.value = ""  # the refused text kept for editing: cleared
                await next_entry(pilot, screen, forbidden.after)
                assert not status(screen).startswith("refused:"), forbidden.name
                last[0] = path.read_bytes()

    asyncio.run(scenario())
    assert errors_in(path.read_text(encoding="utf-8")) == []
    assert len(shown) == len(forbidden_entries)
    print("", *shown, sep="\n")


async def next_entry(pilot: Pilot[int], screen: RecorderScreen, entry: tuple[str, str]) -> None:
    """An entry the table allows after the refused one (an item to a side)."""
    def taken() -> int:
        return len(screen.session.entries) if screen.session else 0

    before = taken()
    await pilot.press(*entry)
    assert taken() == before + 1, (entry, status(screen))
