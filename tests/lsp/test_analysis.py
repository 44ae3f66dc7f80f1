"""The language server's analysis and answers, in process (no protocol)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from allfours_notation.checking import check_file as file_diagnostics
from allfours_notation.diagnostics import Diagnostic
from allfours_notation.lsp import features
from allfours_notation.lsp.completion import completion
from allfours_notation.lsp.document import Analyzer, LineIndex
from allfours_notation.reading.parser import read_games
from tests.conftest import examples

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SAMPLE_NAMES = sorted(p.name for p in SAMPLES.glob("*.afn"))


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def as_tuples(found: list[Diagnostic]) -> list[tuple[object, ...]]:
    """Comparable tuples; the root a finding follows from is named by its place and
    code (ids are numbered per file by ``check``, per game by the server)."""
    by_id = {(d.game, d.id): d for d in found}
    out: list[tuple[object, ...]] = []
    for d in found:
        root = by_id.get((d.game, d.cause)) if d.cause is not None else None
        out.append((d.code, d.line, d.column, d.end_column, d.message, d.game, d.deal,
                    None if root is None else (root.line, root.column, root.code)))
    return out


def checked(text: str) -> list[tuple[object, ...]]:
    """What ``allfours check`` reports for ``text``, as comparable tuples."""
    reader = read_games(text)
    return as_tuples([d for diags, _ in file_diagnostics(reader, (None, {})) for d in diags])


def analysed(text: str, analyzer: Analyzer | None = None) -> list[tuple[object, ...]]:
    return as_tuples((analyzer or Analyzer()).analyse(text).diagnostics())


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_the_same_diagnostics_as_check(name: str) -> None:
    assert analysed(sample(name)) == checked(sample(name))


def test_an_edit_in_the_last_game_parses_that_game_only() -> None:
    text = sample("club-night.afn")
    analyzer = Analyzer()
    assert analyzer.analyse(text).parsed == 3
    edited = text[: text.rfind("total")] + "total N 0 S 0\nend\n"
    assert analyzer.analyse(edited).parsed == 1


def test_games_that_move_down_keep_their_analysis_and_their_positions_follow() -> None:
    text = sample("disputed-claim.afn") + "\n" + sample("revoke.afn").replace("% AFN 1\n", "")
    analyzer = Analyzer()
    analyzer.analyse(text)
    moved = text.replace("[Event", "{ two lines\nof comment }\n[Event", 1)
    analysis = analyzer.analyse(moved)
    assert analysis.parsed == 1  # the first game changed; the second only moved
    assert analysed(moved, analyzer) == checked(moved)


@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_incremental_analysis_equals_a_fresh_one(data: st.DataObject) -> None:
    """Whatever is typed wherever, the cached analysis says what a fresh one says."""
    text = sample("club-night.afn")
    analyzer = Analyzer()
    analyzer.analyse(text)
    for _ in range(3):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 4))
        typed = data.draw(st.sampled_from(
            ["", "\n", "x", "end", "end\n", "deal 9 dealer S", "N:2H", "{", "}", ";",
             '[Event "x"]', "% AFN 1\n", "é♠"]
        ))
        text = text[:at] + typed + text[at + cut :]
        incremental, fresh = analyzer.analyse(text), Analyzer().analyse(text)
        assert as_tuples(incremental.diagnostics()) == checked(text)
        assert incremental.lines.starts == fresh.lines.starts
        assert [p.piece for p in incremental.games] == [p.piece for p in fresh.games]
        assert incremental.file_diagnostics == fresh.file_diagnostics


# Four games, the second unfinished and the third with a wrong total: edits may
# merge them (a '{' left open, an 'end' deleted) or split them (an 'end', a tag).
MANY = "\n".join([sample("club-night.afn"), sample("unfinished.afn").replace("% AFN 1\n", ""),
                  sample("disputed-claim.afn").replace("% AFN 1\n", "")])
TYPED = ["", "\n", "x", " ", "end", "end\n", "deal 9 dealer S", "N:2H", "{", "}", ";", "\"",
         '[Event "x"]\n', '[Rules "english10"]\n', "% AFN 1\n", "%x\n", "é♠", "total N 9 S 9"]


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_edit_sequences_equal_a_fresh_analysis_and_check(data: st.DataObject) -> None:
    """Random edits anywhere in a file of several games, one after another: after each,
    the reused cut, the moved games and their renumbered diagnostics are what a fresh
    analysis and ``check`` give for the same text."""
    text = MANY
    analyzer = Analyzer()
    analyzer.analyse(text)
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()):  # near a game's boundary, where cuts change
            ends = [i for i in range(len(text)) if text.startswith("end", i)]
            at = data.draw(st.sampled_from(ends)) + data.draw(st.integers(0, 4))
        cut = data.draw(st.integers(0, 6))
        text = text[:at] + data.draw(st.sampled_from(TYPED)) + text[at + cut :]
        fresh_cut = Analyzer()  # a fresh analysis, and the cut it made, to compare with
        incremental, fresh = analyzer.analyse(text), fresh_cut.analyse(text)
        assert as_tuples(incremental.diagnostics()) == checked(text)
        assert [p.piece for p in incremental.games] == [p.piece for p in fresh.games]
        assert [p.index for p in incremental.games] == list(range(1, len(fresh.games) + 1))
        assert analyzer._sliced is not None
        assert fresh_cut._sliced is not None
        assert analyzer._sliced.directives == fresh_cut._sliced.directives
        assert analyzer._sliced.trailing_start == fresh_cut._sliced.trailing_start
        assert analyzer._sliced.unterminated_comment == fresh_cut._sliced.unterminated_comment
        assert incremental.file_diagnostics == fresh.file_diagnostics
        assert incremental.lines.starts == fresh.lines.starts


def test_an_edit_that_splits_a_game_reuses_the_games_after_it() -> None:
    """Typing an 'end' inside the first game makes two of it: every game after is
    renumbered, and moved, but not parsed again."""
    text = MANY
    analyzer = Analyzer()
    games = len(analyzer.analyse(text).games)
    at = text.index("deal 2")
    split = text[:at] + "end\n" + text[at:]
    analysis = analyzer.analyse(split)
    assert len(analysis.games) == games + 1
    assert analysis.parsed == 2  # the two halves
    assert as_tuples(analysis.diagnostics()) == checked(split)


def test_a_comment_left_open_and_closed_again_parses_little() -> None:
    """A '{' typed at the top swallows the games after it, up to the next '}'; its
    own '}' gives them back from the cache, not parsed again."""
    text = MANY
    analyzer = Analyzer()
    games = len(analyzer.analyse(text).games)
    at = text.index("[Event")
    opened = text[:at] + "{" + text[at:]
    assert len(analyzer.analyse(opened).games) < games
    closed = text[:at] + "{}" + text[at:]
    analysis = analyzer.analyse(closed)
    assert analysis.parsed == 1  # the first game, whose text changed
    assert as_tuples(analysis.diagnostics()) == checked(closed)


def test_client_columns_count_utf16_units() -> None:
    lines = LineIndex.of("turn J♠ 🂡 QS\nnext")
    assert lines.to_client(0, 10) == (0, 11)  # the astral card is two UTF-16 units
    assert lines.from_client(0, 11) == (0, 10)
    assert LineIndex.of("🂡 QS", encoding="utf-8").to_client(0, 2) == (0, 5)


_LINES_TEXT = st.text(alphabet="ab\n\r🂡", max_size=40)


@settings(max_examples=examples(200), deadline=None)
@given(_LINES_TEXT, _LINES_TEXT, _LINES_TEXT, _LINES_TEXT)
def test_a_full_sync_keeps_the_lines_it_shares(head: str, old: str, new: str,
                                               tail: str) -> None:
    """A whole new text (a client's full sync) indexed from the old one's index has
    the same line starts as the new text indexed afresh, whatever changed where."""
    before = LineIndex.of(head + old + tail)
    after = before.replaced(head + new + tail, encoding="utf-16")
    assert after == LineIndex.of(head + new + tail)
    assert before.replaced(new, encoding="utf-8") == LineIndex.of(new, encoding="utf-8")


def test_quick_fixes_write_what_the_referee_computed() -> None:
    text = sample("disputed-claim.afn")
    analysis = Analyzer().analyse(text)
    actions = features.code_actions(analysis, "file:///d.afn", 0, analysis.lines.line_count)
    titles = [action.title for action in actions]
    assert "Write the computed claim: claim N high game S low" in titles
    edits = [action.edit.changes["file:///d.afn"][0] for action in actions if action.edit
             and action.edit.changes]
    fixed = Analyzer().analyse(apply(text, edits))
    assert [d.code for d in fixed.diagnostics()] == []


@pytest.mark.parametrize(("code", "written", "slipped", "title"), [
    ("AFN222", "  2. N:7C S:4C\n", "  2. N:7C S:4C N:5H\n", "Delete this card"),
    ("AFN223", "  6. S:JD N:JC\n", "  6. S:JD N:JC N:JC\n", "Delete this card"),
    ("AFN224", "  5. N:QH S:QS\n", "  5. S:QS N:QH\n", "Swap S:QS and N:QH"),
    ("AFN225", "  3. N:9H S:4S\n", "  3. N:9H N:4S\n", "Write S:4S"),
])
def test_quick_fixes_undo_a_recording_slip(code: str, written: str, slipped: str,
                                           title: str) -> None:
    text = sample("two-player-to-seven.afn").replace(written, slipped, 1)
    analysis = Analyzer().analyse(text)
    assert code in [d.code for d in analysis.diagnostics() if d.is_root]
    actions = [a for a in features.code_actions(analysis, "u", 0, analysis.lines.line_count)
               if a.title == title]
    assert len(actions) == 1 and actions[0].edit and actions[0].edit.changes
    fixed = Analyzer().analyse(apply(text, list(actions[0].edit.changes["u"])))
    assert fixed.diagnostics() == []


def test_quick_fixes_for_the_version_line_and_a_missing_end() -> None:
    text = sample("club-night.afn").replace("% AFN 1\n", "")
    text = text[: text.rfind("end")]
    analysis = Analyzer().analyse(text)
    actions = features.code_actions(analysis, "u", 0, analysis.lines.line_count)
    assert sorted(a.title for a in actions) == [
        "Add the version line '% AFN 1'", "Close the game with 'end'"
    ]
    edits = [a.edit.changes["u"][0] for a in actions if a.edit and a.edit.changes]
    assert Analyzer().analyse(apply(text, edits)).diagnostics() == []


def test_range_formatting_touches_only_the_game_under_the_range() -> None:
    text = sample("club-night.afn").replace("  1. S:2S N:3S", "  1. s:2s n:3s")
    assert text.count("1. s:2s n:3s") == 2  # in the first game and the second
    analysis = Analyzer().analyse(text)
    first = features.format_games(analysis, 18, 18)
    assert not first.refusals and len(first.edits) == 1
    result = apply(text, list(first.edits))
    assert result.count("1. S:2S N:3S") == 1 and result.count("1. s:2s n:3s") == 1
    assert result.index("1. S:2S N:3S") < result.index("1. s:2s n:3s")


def test_formatting_refuses_what_does_not_read_back() -> None:
    text = sample("one-broken-game.afn")
    analysis = Analyzer().analyse(text)
    assert features.format_document(analysis).edits == ()
    assert features.format_document(analysis).refusals


def test_symbols_and_folds() -> None:
    analysis = Analyzer().analyse(sample("club-night.afn"))
    outline = features.symbols(analysis)
    assert [len(game.children or []) for game in outline] == [3, 4, 5]
    first_deal = (outline[0].children or [])[0]
    assert first_deal.name == "deal 1" and first_deal.detail == "dealer N"
    assert [t.name for t in first_deal.children or []][:2] == ["trick 1", "trick 2"]
    folds = features.folding(analysis)
    assert (folds[1].start_line, folds[1].end_line) == (12, 25)


def test_completion_by_context() -> None:
    text = sample("club-night.afn")
    line = next(n for n, t in enumerate(text.splitlines()) if t.startswith("  claim S gift"))
    analysis = Analyzer().analyse(text)
    labels = [i.label for i in completion(analysis, line, len("  claim "))]
    # the whole claim the referee counts, then who may claim: those who score first
    assert labels[:3] == ["S gift low N high game", "N", "S"]
    beg = next(n for n, t in enumerate(text.splitlines()) if t == "  S begs")
    labels = [i.label for i in completion(analysis, beg, len("  S "))]
    assert labels == ["stands", "begs", "gives", "runs", "concedes", "discards"]


def test_hover_on_a_claim_item_and_a_trick() -> None:
    text = sample("disputed-claim.afn")
    analysis = Analyzer().analyse(text)
    line = next(n for n, t in enumerate(text.splitlines()) if t.startswith("  claim N high low"))
    answer = features.hover(analysis, line, text.splitlines()[line].index("low") + 1)
    assert answer is not None and isinstance(answer.contents, types.MarkupContent)
    assert answer.contents.value.startswith("**Low** claimed by N  \ncomputed: S 1")
    assert answer.contents.value.endswith("**the claim disagrees**")


def apply(text: str, edits: list[types.TextEdit]) -> str:
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        lines = LineIndex.of(text)
        start = lines.offset(*lines.from_client(edit.range.start.line, edit.range.start.character))
        end = lines.offset(*lines.from_client(edit.range.end.line, edit.range.end.character))
        text = text[:start] + edit.new_text + text[end:]
    return text


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(SAMPLE_NAMES), st.integers(0, 10_000), st.sampled_from(["", "x", "{"]))
def test_every_answer_anywhere_never_raises(name: str, place: int, typed: str) -> None:
    """Hover, completion, quick fixes, symbols and folds at any place of any sample,
    also with a stray character typed there."""
    text = sample(name)
    at = place % (len(text) + 1)
    text = text[:at] + typed + text[at:]
    analysis = Analyzer().analyse(text)
    line, column = analysis.lines.position(min(at + len(typed), len(text)))
    features.hover(analysis, line, column)
    for item in completion(analysis, line, column):
        assert item.label
    features.code_actions(analysis, "u", max(0, line - 3), line + 3)
    for symbol in features.symbols(analysis):
        assert inside(symbol.selection_range, symbol.range)
        for deal in symbol.children or []:
            assert inside(deal.range, symbol.range)
            for trick in deal.children or []:
                assert inside(trick.range, deal.range)
    assert all(f.start_line < f.end_line for f in features.folding(analysis))


def inside(inner: types.Range, outer: types.Range) -> bool:
    """``inner`` within ``outer`` (what the protocol asks of an outline's ranges)."""
    def at(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return at(outer.start) <= at(inner.start) <= at(inner.end) <= at(outer.end)


def completion_at(lines: list[str], line: int, column: int) -> list[types.CompletionItem]:
    return completion(Analyzer().analyse("\n".join(lines)), line, column)


def test_completion_offers_what_the_referee_expects_next() -> None:
    lines = sample("club-night.afn").split("\n")
    called = list(lines)
    called[16] = "  "  # "S begs": the elder hand's call is due
    assert [i.label for i in completion_at(called, 16, 2)][:2] == ["S stands", "S begs"]
    led = [*lines[:20], "  ", *lines[25:]]  # after trick 2: South leads trick 3
    items = completion_at(led, 20, 2)
    assert [(i.label, i.text_edit.new_text if i.text_edit else "") for i in items[:4]] == [
        ("S:7C", "3. S:7C"), ("S:QS", "3. S:QS"), ("S:TS", "3. S:TS"), ("S:4S", "3. S:4S"),
    ]
    assert items[0].detail == "legal for S"


def test_completion_without_hands_offers_every_card_not_yet_seen() -> None:
    lines = sample("no-hands.afn").split("\n")
    at = lines.index("  4. S:TS N:JS  5. N:KS S:9C  6. S:TH N:KD")  # deal 1's tricks 4-6
    lines[at], lines[at + 1] = "  4. S:TS ", ""
    items = completion_at(lines, at, len(lines[at]))
    played = {"3S", "9S", "AH", "KH", "7H", "6D", "TS"}
    assert len(items) == 52 - len(played) - 1  # and the turned 7C
    assert all(i.label.startswith("N:") and i.label[2:] not in played | {"7C"} for i in items)
    assert items[0].detail == "not yet seen played"


def test_a_byte_order_mark_and_crlf_line_ends_are_read_as_check_reads_them() -> None:
    text = sample("disputed-claim.afn")
    expected = [(d.code, d.line) for d in Analyzer().analyse(text).diagnostics()]
    for variant in ("\ufeff" + text, text.replace("\n", "\r\n")):
        assert [(d.code, d.line) for d in Analyzer().analyse(variant).diagnostics()] == expected


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_the_hovers_replay_is_checks_replay(name: str) -> None:
    """Hovers read the table from ``replay_of``, which skips only the explaining: its
    replay is the one ``check`` makes, step for step."""
    from allfours_notation.checking import OWN_RULES, check, replay_of
    from allfours_notation.checking.parsing import parse

    for game in parse(sample(name)).games:
        mine = replay_of(game, OWN_RULES, steps=True, empty=True)
        theirs = check(game, OWN_RULES, steps=True, empty=True).replay
        assert (mine is None) == (theirs is None)
        if mine is not None and theirs is not None:
            assert mine.scores == theirs.scores
            assert mine.diagnostics == theirs.diagnostics
            assert mine.deals == theirs.deals
            assert len(mine.steps) == len(theirs.steps)
            assert mine.steps == theirs.steps
