"""The slip corpus: generated legal games, each with one recording slip, and what ``check`` says.

A slip is the kind of mistake a person makes writing a game down: a card left out
of a trick, an extra card, a card written twice, two plays swapped, a wrong seat
label, a card's rank miswritten (9H for 8H), a digit typo in a running total, a
number left out of a total.  Each slip
is made in the *text* of a generated game (which checks clean), at one statement,
so the corpus knows the line a good diagnostic should point at.

``measure`` runs exactly what ``allfours check`` prints (roots first, their
consequences folded) and reports, per slip kind: how often the first printed
diagnostic lies on the mutated line (of all records, and of those where check finds
anything: a rank miswritten in a deal without hands can leave a possible record,
which no check can point at), and the median and 95th percentile of the number of
printed roots.  ``python -m bench.slips`` runs the full corpus.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from enum import Enum

from allfours_notation.cards import FULL_PACK
from allfours_notation.checking.parsing import parse
from allfours_notation.diagnostics import Diagnostic
from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn
from allfours_notation.reading.parser import read_games
from allfours_notation.reading.records import Deal, Game, Play

PROFILE_MIX: tuple[tuple[str, int | None], ...] = (
    ("hoffmann1909", 2), ("english10", 2), ("foster", 2), ("trinidad14", 4),
    ("hoffmann1909", 4), ("foster", 3),
)
# How the generated games are written: most with every label and number, some lax.
STYLES: tuple[Knobs, ...] = (
    Knobs(),
    Knobs(hands=0.0),
    Knobs(trick_numbers=0.0, seat_labels=0.7),
    Knobs(hands=1.0, trick_numbers=0.5),
)


class SlipKind(Enum):
    MISSING_CARD = "missing card"
    EXTRA_CARD = "extra card"
    CARD_TWICE = "card written twice"
    SWAPPED_PAIR = "swapped pair"
    WRONG_SEAT = "wrong seat label"
    RANK_CHANGED = "rank changed"
    TOTAL_DIGIT = "digit typo in a total"
    MISSING_NUMBER = "missing number in a total"


@dataclass(frozen=True, slots=True)
class SlippedGame:
    """One game's text with one slip, and the lines of the statement it changed."""

    kind: SlipKind
    text: str
    lines: frozenset[int]
    description: str


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: SlipKind
    on_target: bool  # the first printed diagnostic lies on the mutated statement
    roots: int  # printed roots (diagnostics that follow from none)
    printed: int  # every diagnostic the run found


def slipped_games(seed: int, n_games: int) -> Iterator[SlippedGame]:
    """``n_games`` generated games, each with one random slip; the same seed, the same games."""
    rng = random.Random(seed)
    made = 0
    index = 0
    while made < n_games:
        index += 1
        profile, players = PROFILE_MIX[index % len(PROFILE_MIX)]
        knobs = STYLES[index % len(STYLES)]
        game = generate_game(rng, profile_options(profile, players), knobs, profile=profile)
        text = write_afn(game)
        slipped = make_slip(rng, text)
        if slipped is not None:
            made += 1
            yield slipped


def make_slip(rng: random.Random, text: str) -> SlippedGame | None:
    """One random slip in the single game of ``text`` (None if the game offers no place)."""
    parsed = parse(text)
    if not parsed.games or parsed.games[0].broken:
        return None
    game = parsed.games[0]
    kinds = list(SlipKind)
    rng.shuffle(kinds)
    for kind in kinds:
        slipped = _SLIPS[kind](rng, text, game)
        if slipped is not None:
            return slipped
    return None


def _plays(game: Game) -> list[tuple[Deal, int, Play]]:
    """Every play with a position, with its deal and trick index."""
    return [(deal, t, play) for deal in game.deals for t, trick in enumerate(deal.tricks)
            for play in trick.plays if play.span is not None]


def _edit(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _slip_missing(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    plays = _plays(game)
    if not plays:
        return None
    deal, _, play = rng.choice(plays)
    assert play.span is not None
    start, end = play.span.start, play.span.end
    while end < len(text) and text[end] == " ":  # take the separating blanks too
        end += 1
    return SlippedGame(SlipKind.MISSING_CARD, _edit(text, start, end, ""),
                       frozenset({play.span.line}), f"deal {deal.number}: {play.card} left out")


def _slip_extra(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    plays = _plays(game)
    if not plays:
        return None
    deal, _, play = rng.choice(plays)
    assert play.span is not None
    seen = {p.card for trick in deal.tricks for p in trick.plays} | {t.card for t in deal.turnups}
    unseen = [card for card in FULL_PACK if card not in seen]
    card = rng.choice(unseen)
    token = text[play.span.start:play.span.end]
    label = token.split(":")[0] + ":" if ":" in token else ""
    extra = f"{label}{card} "
    return SlippedGame(SlipKind.EXTRA_CARD, _edit(text, play.span.start, play.span.start, extra),
                       frozenset({play.span.line}), f"deal {deal.number}: {card} added")


def _slip_twice(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    plays = _plays(game)
    if not plays:
        return None
    deal, _, play = rng.choice(plays)
    assert play.span is not None
    token = text[play.span.start:play.span.end]
    return SlippedGame(SlipKind.CARD_TWICE, _edit(text, play.span.end, play.span.end,
                                                  " " + token),
                       frozenset({play.span.line}), f"deal {deal.number}: {token} written twice")


def _slip_swap(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    pairs = []
    for deal in game.deals:
        for trick in deal.tricks:
            for first, second in zip(trick.plays, trick.plays[1:], strict=False):
                if first.span and second.span and first.span.line == second.span.line:
                    pairs.append((deal, first, second))
    if not pairs:
        return None
    deal, first, second = rng.choice(pairs)
    assert first.span is not None and second.span is not None
    a = text[first.span.start:first.span.end]
    b = text[second.span.start:second.span.end]
    middle = text[first.span.end:second.span.start]
    new = _edit(text, first.span.start, second.span.end, b + middle + a)
    return SlippedGame(SlipKind.SWAPPED_PAIR, new, frozenset({first.span.line}),
                       f"deal {deal.number}: {a} and {b} swapped")


def _slip_seat(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    labelled = [(deal, play) for deal, _, play in _plays(game) if play.seat is not None]
    if not labelled:
        return None
    deal, play = rng.choice(labelled)
    assert play.span is not None and play.seat is not None
    others = [seat for seat in game.seats if seat is not play.seat]
    if not others:
        return None
    seat = rng.choice(others)
    new = _edit(text, play.span.start, play.span.start + 1, seat.letter)
    return SlippedGame(SlipKind.WRONG_SEAT, new, frozenset({play.span.line}),
                       f"deal {deal.number}: {play.seat.letter}:{play.card} labelled {seat.letter}")


def _slip_rank(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    """A played card's rank written wrong (the suit kept): ``9H`` for ``8H``."""
    plays = _plays(game)
    if not plays:
        return None
    deal, _, play = rng.choice(plays)
    assert play.span is not None
    others = [card for card in FULL_PACK
              if card.suit is play.card.suit and card is not play.card]
    card = rng.choice(others)
    token = text[play.span.start:play.span.end]
    label = token.split(":")[0] + ":" if ":" in token else ""
    return SlippedGame(SlipKind.RANK_CHANGED,
                       _edit(text, play.span.start, play.span.end, f"{label}{card}"),
                       frozenset({play.span.line}),
                       f"deal {deal.number}: {play.card} written {card}")


def _total_numbers(text: str, deal: Deal) -> list[tuple[int, int]]:
    """Offsets (start, end) of the numbers of a deal's total."""
    assert deal.total is not None and deal.total.span is not None
    span = deal.total.span
    found = []
    position = span.start
    body = text[span.start:span.end]
    for word in body.split():
        at = text.index(word, position)
        position = at + len(word)
        if word.isdigit():
            found.append((at, position))
    return found


def _slip_total_digit(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    with_totals = [deal for deal in game.deals if deal.total and deal.total.span]
    if not with_totals:
        return None
    deal = rng.choice(with_totals)
    assert deal.total is not None and deal.total.span is not None
    numbers = _total_numbers(text, deal)
    if not numbers:
        return None
    start, end = rng.choice(numbers)
    at = rng.randrange(start, end)
    digit = rng.choice([d for d in "0123456789" if d != text[at]])
    if at == start and digit == "0" and end - start > 1:
        digit = "9"
    return SlippedGame(SlipKind.TOTAL_DIGIT, _edit(text, at, at + 1, digit),
                       frozenset({deal.total.span.line}),
                       f"deal {deal.number}: total digit {text[at]} typed {digit}")


def _slip_missing_number(rng: random.Random, text: str, game: Game) -> SlippedGame | None:
    with_totals = [deal for deal in game.deals if deal.total and deal.total.span]
    if not with_totals:
        return None
    deal = rng.choice(with_totals)
    assert deal.total is not None and deal.total.span is not None
    numbers = _total_numbers(text, deal)
    if not numbers:
        return None
    start, end = rng.choice(numbers)
    if start > 0 and text[start - 1] == " ":
        start -= 1
    return SlippedGame(SlipKind.MISSING_NUMBER, _edit(text, start, end, ""),
                       frozenset({deal.total.span.line}),
                       f"deal {deal.number}: a number of the total left out")


_SLIPS = {
    SlipKind.MISSING_CARD: _slip_missing,
    SlipKind.EXTRA_CARD: _slip_extra,
    SlipKind.CARD_TWICE: _slip_twice,
    SlipKind.SWAPPED_PAIR: _slip_swap,
    SlipKind.WRONG_SEAT: _slip_seat,
    SlipKind.RANK_CHANGED: _slip_rank,
    SlipKind.TOTAL_DIGIT: _slip_total_digit,
    SlipKind.MISSING_NUMBER: _slip_missing_number,
}


# --- measuring what check prints ----------------------------------------------------------------


def printed_roots(text: str) -> tuple[list[Diagnostic], int]:
    """The roots ``allfours check`` prints for ``text``, in order, and how many it found."""
    from allfours_notation.checking import check_file as file_diagnostics

    reader = read_games(text)
    roots: list[Diagnostic] = []
    found = 0
    for diagnostics, _ in file_diagnostics(reader, (None, {})):
        found += len(diagnostics)
        roots.extend(_roots(diagnostics))
    return roots, found


def _roots(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Roots in printed order (every diagnostic, before diagnostics knew their causes)."""
    try:
        from allfours_notation.checking.causes import roots_first
    except ImportError:
        return list(diagnostics)
    return [group.root for group in roots_first(diagnostics)]


def outcome(slipped: SlippedGame) -> Outcome:
    roots, found = printed_roots(slipped.text)
    first = roots[0] if roots else None
    on_target = first is not None and first.line in slipped.lines
    return Outcome(slipped.kind, on_target, len(roots), found)


@dataclass(frozen=True, slots=True)
class KindFigures:
    kind: str
    records: int
    on_target: float  # share, 0 to 1
    median_roots: float
    p95_roots: float
    max_roots: int
    silent: int = 0  # records where check found nothing (the slip left a possible record)
    on_target_found: float = 0.0  # share of the records with a finding


def percentile(values: Sequence[int], share: float) -> float:
    """Nearest-rank percentile (``share`` 0.95 for p95)."""
    ordered = sorted(values)
    rank = max(1, -(-int(share * 100) * len(ordered) // 100))
    return float(ordered[rank - 1])


def figures(outcomes: Sequence[Outcome]) -> list[KindFigures]:
    """Per slip kind, then all together (kind ``"all"``)."""
    groups: dict[str, list[Outcome]] = {}
    for item in outcomes:
        groups.setdefault(item.kind.value, []).append(item)
    groups["all"] = list(outcomes)
    rows = []
    for kind, items in groups.items():
        roots = [item.roots for item in items]
        found = [item for item in items if item.printed]
        rows.append(KindFigures(kind, len(items), sum(i.on_target for i in items) / len(items),
                                statistics.median(roots), percentile(roots, 0.95), max(roots),
                                len(items) - len(found),
                                sum(i.on_target for i in found) / len(found) if found else 1.0))
    return rows


def table(rows: Sequence[KindFigures]) -> str:
    lines = ["| slip | records | first diagnostic on the slip | no finding | on the slip, of "
             "those found | median roots | p95 roots | max roots |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row.kind} | {row.records} | {row.on_target:.1%} | {row.silent} | "
                     f"{row.on_target_found:.1%} | {row.median_roots:g} | {row.p95_roots:g} | "
                     f"{row.max_roots} |")
    return "\n".join(lines)


def measure(seed: int, n_games: int) -> list[KindFigures]:
    return figures([outcome(slipped) for slipped in slipped_games(seed, n_games)])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.slips", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games in the corpus (2000)")
    parser.add_argument("--seed", type=int, default=9, help="corpus seed (9)")
    parser.add_argument("--out", metavar="PATH", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    load_before = os.getloadavg()
    rows = measure(args.seed, args.games)
    seconds = time.perf_counter() - began
    print(table(rows))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\n{args.games} games, seed {args.seed}, {seconds:.1f} s; load average before "
          f"{' '.join(f'{x:.2f}' for x in load_before)}, after {load}")
    if args.out:
        figures_json = {"games": args.games, "seed": args.seed, "seconds": round(seconds, 1),
                        "load_before": load_before, "load_after": os.getloadavg(),
                        "kinds": [asdict(row) for row in rows]}
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(figures_json, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
