"""A stand-in corpus: hand-written deals, repeated and varied.

Used only when the legal-game generator (``allfours_notation.generate``) is not
available.  Each template is one deal written with seat placeholders; a deal is
varied by permuting the suits (which keeps it legal: follow-suit and trumping
do not care which suit is which), by moving the seats round the table, by
leaving out the hands or the seat labels, and by adding comments.  Running
totals and the game's end are computed from each template's points, so the
games read like real score sheets.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

# Two players, dealer {D}, elder {E}.  Example A of RULES.md: one card counts all four.
_STAND = """\
deal {n} dealer {D}
  {E} JS 9H 8H 7C 6D 5D
  {D} 9C 8C 7D 3H 2H 2D
  turn 4S
  {E} stands
  1. {E}:JS {D}:2D
  2. {E}:9H {D}:3H
  3. {E}:8H {D}:2H
  4. {E}:7C {D}:8C
  5. {D}:9C {E}:5D
  6. {D}:7D {E}:6D
  claim {E} high low jack game
"""

# Two players: the elder begs and the dealer gives one; hearts stay trumps.
_GIFT = """\
deal {n} dealer {D}
  {E} AS KS 3D 4C 9H 2C
  {D} QH 7S 8D TC JD 6C
  turn 5H
  {E} begs
  {D} gives
  1. {E}:AS {D}:7S
  2. {E}:KS {D}:6C
  3. {E}:3D {D}:8D
  4. {D}:QH {E}:9H
  5. {D}:TC {E}:4C
  6. {D}:JD {E}:2C
  claim {E} gift low {D} high game
"""

# Four players, Trinidad: anticlockwise, the dealer's side kicks 2 for a six turned,
# East-West capture the Jack of trumps from North: hang jack.
_TRINIDAD = """\
deal {n} dealer {N}
  {W} AS KH 3C 5C 2D 4D
  {S} 2S 2H TC 8C QD 5D
  {E} 5S 7H 4C 9C KD AD
  {N} 9S QH KC AC JD 3D
  turn 6D
  {W} stands
  1. {W}:AS {S}:2S {E}:5S {N}:9S
  2. {W}:KH {S}:2H {E}:7H {N}:QH
  3. {W}:3C {S}:TC {E}:4C {N}:KC
  4. {N}:AC {W}:5C {S}:8C {E}:9C
  5. {N}:JD {W}:2D {S}:QD {E}:KD
  6. {E}:AD {N}:3D {W}:4D {S}:5D
  claim {N} kick 2 {E} high {W} low {E} hangjack 3 {W} game
"""


@dataclass(frozen=True)
class _Template:
    text: str
    points: dict[str, int]  # placeholder → points scored (by that seat or its side)


_TWO = (
    _Template(_STAND, {"E": 4}),
    _Template(_GIFT, {"E": 2, "D": 2}),
)
_FOUR = (_Template(_TRINIDAD, {"N": 2, "E": 6}),)

_ANTICLOCKWISE = ("N", "W", "S", "E")
_SUITS = "SHDC"
_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[AKQJT2-9])([SHDC])(?![A-Za-z0-9])")
_SEAT_LABEL = re.compile(r"(?<![A-Za-z0-9])[NESW]:")
_HAND_LINE = re.compile(r"^  [NESW] (?:\S\S ){5}\S\S\n", re.MULTILINE)
_TRICK_NUMBER = re.compile(r"(?<=\n  )[0-9]+\. ")

_COMMENTS = (
    "  {{a quiet deal}}\n",
    "  ; scored at the table\n",
    "  {{the elder thought for a long time}}\n",
)
_NAMES = ("Ann Baptiste", "Ben Charles", "Cora Daniel", "Dev Edwards", "Eve Francis",
          "Fitz George", "Gail Henry", "Hugh Ince")


def _vary_suits(body: str, rng: random.Random) -> str:
    order = list(_SUITS)
    rng.shuffle(order)
    mapping = dict(zip(_SUITS, order, strict=True))
    return _CARD.sub(lambda m: m.group(1) + mapping[m.group(2)], body)


def _vary_layout(body: str, rng: random.Random) -> str:
    """Leave out what AFN lets a writer leave out, in realistic shares."""
    if rng.random() < 0.3:
        body = _HAND_LINE.sub("", body)
    if rng.random() < 0.2:
        body = _SEAT_LABEL.sub("", body)
    elif rng.random() < 0.2:
        body = _TRICK_NUMBER.sub("", body)
    if rng.random() < 0.25:
        lines = body.split("\n")
        at = rng.randrange(1, len(lines) - 1)
        lines.insert(at, rng.choice(_COMMENTS).format().rstrip("\n"))
        body = "\n".join(lines)
    return body


def _game(rng: random.Random, profile: str, four: bool, target: int) -> tuple[str, int]:
    """One game under ``profile``; returns its text and its number of deals."""
    names = rng.sample(_NAMES, 4)
    seats = _ANTICLOCKWISE if four else ("N", "S")
    tags = [f'[Event "Bench club {rng.randrange(1, 40)}"]', '[Site "Arima"]',
            f'[Date "2026.{rng.randrange(1, 13):02d}.{rng.randrange(1, 29):02d}"]',
            f'[Rules "{profile}"]']
    tags += [f'[{ {"N": "North", "E": "East", "S": "South", "W": "West"}[s]} "{names[i]}"]'
             for i, s in enumerate(sorted(seats, key="NESW".index))]
    totals = {"NS": 0, "EW": 0} if four else {"N": 0, "S": 0}
    deals: list[str] = []
    number = 0
    while max(totals.values()) < target:
        number += 1
        dealer_index = (number - 1) % len(seats)
        if four:
            template = rng.choice(_FOUR)
            mapping = {p: seats[(i + dealer_index) % 4] for i, p in enumerate(_ANTICLOCKWISE)}
        else:
            template = rng.choice(_TWO)
            dealer = seats[dealer_index]
            mapping = {"D": dealer, "E": "S" if dealer == "N" else "N"}
        body = template.text.format(n=number, **mapping)
        for placeholder, points in template.points.items():
            seat = mapping[placeholder]
            key = ("NS" if seat in "NS" else "EW") if four else seat
            totals[key] += points
        if four:
            body += f"  total N {totals['NS']} E {totals['EW']}\n"
        else:
            body += f"  total N {totals['N']} S {totals['S']}\n"
        deals.append(_vary_layout(_vary_suits(body, rng), rng))
    winner = max(totals, key=lambda k: totals[k])
    tags.append(f'[Result "{winner[0]}"]')
    return "\n".join(tags) + "\n\n" + "\n".join(deals) + "end\n", number


def template_corpus(deals: int, seed: int) -> tuple[str, int, int]:
    """About ``deals`` deals of stand-in games; returns (text, games, deals)."""
    rng = random.Random(seed)
    parts = ["% AFN 1\n"]
    games = written = 0
    profiles = (("hoffmann1909", False, 7), ("english10", False, 10), ("foster", False, 7),
                ("trinidad14", True, 14))
    while written < deals:
        profile, four, target = rng.choice(profiles)
        text, count = _game(rng, profile, four, target)
        parts.append("\n" + text)
        games += 1
        written += count
    return "".join(parts), games, written
