"""One door (issue 22): every tool reports the same diagnostics for the same game.

For every sample and for generated games each carrying one random slip
(:mod:`bench.slips`), ``check --json``, ``score --json``, the viewer's model, the
language server's published diagnostics, ``list --check``'s counts and the
recorder's judgement of the file name the same codes at the same positions, each
linked to the same root cause (compared by what the cause is, not by its number:
``score`` numbers only the games it scores).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pytest

from allfours_notation import scan_headers
from allfours_notation.checking.parsing import parse
from allfours_notation.cli import main
from allfours_notation.diagnostics import Diagnostic
from allfours_notation.lsp.document import Analyzer
from allfours_notation.recording.opening import Refused, inspect
from allfours_notation.viewer.model import build_entry
from bench.slips import slipped_games

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.afn"))


@functools.cache
def slipped() -> tuple[str, ...]:
    """The generated games with a slip each, made when a test first asks (not at import,
    where every xdist worker paid ~0.3 s of CPU for them, whichever tests it ran)."""
    return tuple(game.text for game in slipped_games(seed=22, n_games=8))


# (code, line, column, game, deal, trick, hint) and the same of its root (None: a root)
Key = tuple[object, ...]
Found = tuple[Key, Key | None]


def _get(d: Mapping[str, object] | Diagnostic, name: str) -> object:
    return d.get(name) if isinstance(d, Mapping) else getattr(d, name)


def _key(d: Mapping[str, object] | Diagnostic) -> Key:
    return tuple(_get(d, name) for name in ("code", "line", "column", "game", "deal", "trick",
                                            "hint"))


def linked(found: Iterable[Mapping[str, object] | Diagnostic]) -> Counter[Found]:
    """Each diagnostic with its root's key in place of the root's number."""
    items = list(found)
    by_id = {_get(d, "id"): _key(d) for d in items}
    return Counter((_key(d), by_id[_get(d, "cause")] if _get(d, "cause") is not None
                    else None) for d in items)


def _inputs(tmp_path: Path) -> list[Path]:
    paths = list(SAMPLES)
    for number, text in enumerate(slipped(), start=1):
        path = tmp_path / f"slipped-{number}.afn"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    main(list(argv))
    return json.loads(capsys.readouterr().out)


def test_the_slip_corpus_is_not_trivial() -> None:
    assert len(slipped()) == 8
    assert len(set(slipped())) == 8


def test_every_tool_reports_what_check_reports(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for path in _inputs(tmp_path):
        name = str(path)
        checked = _json(capsys, "check", "--json", name)
        assert isinstance(checked, dict)
        reference: Sequence[Mapping[str, object]] = checked["diagnostics"]
        wanted = linked(reference)
        by_game: dict[object, list[Mapping[str, object]]] = {}
        for d in reference:
            by_game.setdefault(d["game"], []).append(d)
        text = path.read_text(encoding="utf-8")
        headers = scan_headers(text)
        broken = {game.index for game in parse(text, filename=name).games if game.broken}

        # the language server: the whole document, as published
        published = Analyzer().analyse(text).diagnostics()
        assert linked(d.located(file=name) for d in published) == wanted, name

        # the viewer's model of each game
        for header in headers:
            entry = build_entry(text, header, name)
            assert linked(entry.diagnostics) == linked(by_game.get(header.index, [])), \
                (name, header.index)

        # score --json: every game it scores (a game with syntax errors is not scored)
        scored = _json(capsys, "score", "--json", name)
        assert isinstance(scored, dict)
        for sheet in scored["games"]:
            assert linked(sheet["diagnostics"]) == linked(by_game.get(sheet["game"], [])), name
        assert {sheet["game"] for sheet in scored["games"]} == \
            {h.index for h in headers} - broken

        # list --check: the counts of the same diagnostics
        listed = _json(capsys, "list", "--check", "--json", name)
        assert isinstance(listed, list) and len(listed) == len(headers)
        for entry_json in listed:
            mine = by_game.get(entry_json["game"], [])
            assert (entry_json["errors"], entry_json["warnings"], entry_json["disputes"]) == (
                sum(d["severity"] == "error" for d in mine),
                sum(d["severity"] == "warning" for d in mine),
                sum(d["severity"] == "dispute" for d in mine)), (name, entry_json)

        # the recorder opening the file: refused on exactly check's errors (the last
        # game's "not finished yet" and the players' disputes aside)
        opened = inspect(path)
        if isinstance(opened, Refused):
            assert opened.diagnostics, name
            assert {_key(d) for d in opened.diagnostics} <= {_key(d) for d in reference}, name


def missing_card_game() -> str:
    """Issue 22's game: two players, North's card left out of trick 3 (of the first
    game of a sample)."""
    text = (ROOT / "samples" / "club-night.afn").read_text(encoding="utf-8")
    game = parse(text).games[0]
    assert len(game.seats) == 2
    (play,) = [p for p in game.deals[0].tricks[2].plays if p.seat is not None
               and p.seat.letter == "N"]
    assert play.span is not None
    return text[: play.span.start] + text[play.span.end:]


def test_the_viewer_shows_the_root_hint_and_count_check_shows_for_a_missing_card(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = missing_card_game()
    path = tmp_path / "missing.afn"
    path.write_text(text, encoding="utf-8")
    checked = _json(capsys, "check", "--json", str(path))
    assert isinstance(checked, dict)
    mine = [d for d in checked["diagnostics"] if d["game"] == 1]
    (root,) = [d for d in mine if d["cause"] is None and d["severity"] == "error"]
    assert root["code"] == "AFN221" and "write N:" in str(root["hint"])
    folded = sum(d["cause"] == root["id"] for d in mine)
    assert folded >= 2
    entry = build_entry(text, scan_headers(text)[0], str(path))
    (shown,) = [d for d in entry.diagnostics if d.cause is None and d.is_error]
    assert (shown.code, shown.hint, shown.line) == (root["code"], root["hint"], root["line"])
    assert sum(d.cause == shown.id for d in entry.diagnostics) == folded
