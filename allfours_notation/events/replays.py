"""Each game's replay page for the event's site: its name (the digest of what makes it)
and the page, as ``allfours html`` writes it.

Made in two places, the same way: by the site (:func:`.site.replay_pages`), reading the
game again, and, when the site is built from games not in the facts cache, by the
reading of the folder itself (:func:`.games.read_folder`), from the one parse and the one
run of the referee that gives the game's facts (issue 38: each game was parsed and
refereed twice).  Both go through :func:`page_name` and :func:`render`, so a page is the
same byte for byte whichever made it (tests/events hold them to that).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..checking import StepChange  # what the referee's stepping replay gives a page
from ..frozen import frozen
from ..reading.headers import GameHeader
from ..reading.records import Game, Span
from ..referee.state import GameReplay


@frozen
class MadePage:
    """A replay page made while the folder was read: the game's file and number, the
    page's name and its HTML, and ``source``, the :func:`source_key` of the file's text
    it was made from."""

    file: str
    index: int
    name: str
    html: str
    source: str = ""


def record_of(text: str, where: GameHeader | Span) -> str:
    """The game's own text, as its page shows it: from its header's offsets
    (:func:`~allfours_notation.reading.headers.scan_headers`) or its parsed span's (the
    same slice of ``text``)."""
    return text[where.start:where.end].strip() + "\n"


def source_key(text: str, rules: object, advice_samples: int | None) -> str:
    """The digest of a file's text with the rules and the advice its pages are made
    with: a page made while the folder was read is the site's own where the key is the
    same (its name and its HTML come from nothing else), so the site takes it without
    scanning the file for its games or naming each page again (issue 38)."""
    digest = hashlib.sha256(repr((rules, advice_samples)).encode("utf-8"))
    digest.update(text.encode("utf-8", errors="surrogatepass"))
    return digest.hexdigest()


def page_name(rules: object, file: str, record: str, advice_samples: int | None) -> str:
    """The page's file name: the digest of the game's text, the event's rules, the release
    and the advice asked for, so that a site built again renders only the games that
    changed."""
    from .. import __version__

    key: tuple[object, ...] = (rules, __version__, Path(file).name, record)
    if advice_samples is not None:
        key = (*key, "advice", advice_samples)
    return f"game-{hashlib.sha256(repr(key).encode('utf-8')).hexdigest()[:20]}.html"


def render(parsed: Game, replayed: GameReplay, changes: tuple[StepChange, ...], record: str,
           file: str, advice_samples: int | None) -> str:
    """The page of a game replayed step by step (``changes``)."""
    from ..diagnostics import sort_key
    from ..writing.html_replay import render_page, replay_data

    found = tuple(sorted({*parsed.diagnostics, *replayed.diagnostics}, key=sort_key))
    advice = None
    if advice_samples is not None:
        from ..checking.analysis.advisor_calls import advice_at_calls

        advice = advice_at_calls(replayed, changes, samples=advice_samples)
    return render_page(replay_data(replayed, found, changes=changes, advice=advice),
                       record, filename=Path(file).name, shared=True)
