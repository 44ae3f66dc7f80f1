"""End to end: a real ``allfours lsp`` process driven by a pytest-lsp client.

One server serves the whole module (starting Python and pygls is most of a
test's time); each test opens its own document URI.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from allfours_notation.cli import main
from allfours_notation.limits import MAX_EDITOR_CHARS
from allfours_notation.lsp.document import LineIndex

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
SERVER = [sys.executable, "-m", "allfours_notation", "lsp", "--debounce", "50"]

# one event loop and one server for the module, on one xdist worker
pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.xdist_group("lsp-server")]
PUBLISHED: dict[str, list[tuple[int | None, list[types.Diagnostic]]]] = {}


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    def remember(params: types.PublishDiagnosticsParams) -> None:
        PUBLISHED.setdefault(params.uri, []).append((params.version, list(params.diagnostics)))

    # every publication with its version (pytest-lsp keeps only the latest list)
    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = remember
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    yield
    await lsp_client.shutdown_session()


def uri_of(name: str) -> str:
    return f"file:///afn-tests/{name}"


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


async def diagnostics_for(client: LanguageClient, uri: str,
                          version: int) -> list[types.Diagnostic]:
    """Wait for the diagnostics of ``uri`` at ``version`` (earlier ones are skipped)."""
    async with asyncio.timeout(60):
        while PUBLISHED.get(uri, [(None, [])])[-1][0] != version:
            await asyncio.sleep(0.01)
    return PUBLISHED[uri][-1][1]


def open_text(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="afn", version=version, text=text)
        )
    )


def change_text(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines()) if needle in line)


def apply(text: str, edits: Sequence[types.TextEdit]) -> str:
    lines = LineIndex.of(text)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        start = lines.offset(*lines.from_client(edit.range.start.line, edit.range.start.character))
        end = lines.offset(*lines.from_client(edit.range.end.line, edit.range.end.character))
        text = text[:start] + edit.new_text + text[end:]
        lines = LineIndex.of(text)
    return text


async def test_a_clean_sample_has_no_diagnostics(client: LanguageClient) -> None:
    uri = uri_of("club-night.afn")
    open_text(client, uri, sample("club-night.afn"))
    assert await diagnostics_for(client, uri, 1) == []


def command_output(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``allfours ARGS``, run in this process (its output is what a terminal would get;
    the server is the process under test here, not the command)."""
    capsys.readouterr()
    code = main(args)
    return code, capsys.readouterr().out


async def test_diagnostics_are_checks_grouped_as_check_groups_them(
    client: LanguageClient, capsys: pytest.CaptureFixture[str],
) -> None:
    uri = uri_of("disputed-claim.afn")
    open_text(client, uri, sample("disputed-claim.afn"))
    found = await diagnostics_for(client, uri, 1)
    _, check = command_output(["check", "--json", str(SAMPLES / "disputed-claim.afn")],
                              capsys)
    expected = json.loads(check)["diagnostics"]
    assert [(d.code, d.range.start.line + 1, d.range.start.character + 1) for d in found] == [
        (e["code"], e["line"], e["column"]) for e in expected
    ]
    by_id = {e["id"]: e for e in expected}
    for shown, wanted in zip(found, expected, strict=True):
        assert shown.message.startswith(wanted["message"])
        if wanted["cause"] is None:  # a dispute is no error of the record: a warning
            assert shown.severity == (types.DiagnosticSeverity.Error
                                      if wanted["severity"] == "error"
                                      else types.DiagnosticSeverity.Warning), wanted
            continue
        # a consequence: a hint pointing at its root, which says it has followers
        root = by_id[wanted["cause"]]
        assert shown.severity == types.DiagnosticSeverity.Hint
        assert shown.related_information is not None
        assert shown.related_information[0].location.range.start.line == root["line"] - 1
        root_shown = found[expected.index(root)]
        assert "follows from it" in root_shown.message
    assert any(e["cause"] is not None for e in expected)  # the sample has a consequence
    assert {e["severity"] for e in expected} == {"error", "dispute"}  # and both kinds


async def test_a_slip_gets_its_diagnostic_where_it_was_typed(client: LanguageClient) -> None:
    uri = uri_of("slip.afn")
    text = sample("club-night.afn")
    open_text(client, uri, text)
    assert await diagnostics_for(client, uri, 1) == []
    # South holds 2S, 4S, QS and TS: trick 3 is led with a card South does not hold
    slipped = text.replace("3. S:4S N:3D", "3. S:5S N:3D", 1)
    line = line_of(slipped, "3. S:5S N:3D")
    column = slipped.splitlines()[line].index("S:5S")
    typed = types.Range(types.Position(line, column + 2), types.Position(line, column + 3))
    client.text_document_did_change(  # the edit as an editor sends it: one character
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=typed, text="5")],
        )
    )
    found = await diagnostics_for(client, uri, 2)
    first = found[0]
    assert first.severity == types.DiagnosticSeverity.Error
    assert (first.range.start.line, first.range.start.character) == (line, column)
    assert first.range.end.character == column + len("S:5S")
    assert "5S" in first.message


async def test_format_whole_document_and_range(
        client: LanguageClient, capsys: pytest.CaptureFixture[str]) -> None:
    uri = uri_of("lax-input.afn")
    text = sample("lax-input.afn")
    open_text(client, uri, text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert edits
    code, fmt = command_output(["fmt", str(SAMPLES / "lax-input.afn")], capsys)
    assert code == 0
    assert apply(text, edits) == fmt
    deal = line_of(text, "deal 2")
    ranged = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(deal, 0), types.Position(deal, 3)),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert ranged is not None and len(ranged) == 1
    assert apply(text, ranged).splitlines()[0] == text.splitlines()[0]  # outside the game


async def test_hover_on_a_card_and_a_deal(client: LanguageClient) -> None:
    uri = uri_of("hover.afn")
    text = sample("club-night.afn")
    open_text(client, uri, text)
    line = line_of(text, "1. S:2S N:3S")
    card = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri),
                          types.Position(line, text.splitlines()[line].index("N:3S") + 2))
    )
    assert card is not None and isinstance(card.contents, types.MarkupContent)
    assert card.contents.value == (
        "**3S**  \nheld by N  \nplayed by N in trick 1  \ntrick 1 won by N"
    )
    deal = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri),
                          types.Position(line_of(text, "deal 1 dealer N"), 1))
    )
    assert deal is not None and isinstance(deal.contents, types.MarkupContent)
    assert "N High 1: N was dealt 8D, the highest trump in play" in deal.contents.value
    assert "score after the deal: N 2, S 2" in deal.contents.value


async def test_completion_offers_the_legal_cards(client: LanguageClient) -> None:
    uri = uri_of("complete.afn")
    text = sample("club-night.afn").replace("3. S:4S N:3D", "3. S:4S ", 1)
    open_text(client, uri, text)
    line = line_of(text, "3. S:4S ")
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri=uri),
                               types.Position(line, len("  3. S:4S ")))
    )
    assert isinstance(result, types.CompletionList)
    # North holds no spade after tricks 1 and 2, so any of the four cards left is legal
    assert sorted(item.label for item in result.items) == ["N:3D", "N:8D", "N:JH", "N:KC"]


async def test_invalid_text_from_the_editor(client: LanguageClient) -> None:
    uri = uri_of("surrogates.afn")
    text = sample("club-night.afn").replace("Arima club night", "Arima \udcff\udcfe night", 1)
    open_text(client, uri, text)
    found = await diagnostics_for(client, uri, 1)
    assert [d.code for d in found] == ["AFN102"]
    assert found[0].range.start.line == line_of(text, "\udcff")


async def test_rapid_changes_publish_the_last_version(client: LanguageClient) -> None:
    uri = uri_of("rapid.afn")
    text = sample("club-night.afn")
    open_text(client, uri, text)
    await diagnostics_for(client, uri, 1)
    for version in range(2, 42):
        change_text(client, uri, text.replace("total N 2 S 2", f"total N 2 S {version}"),
                    version)
    found = await diagnostics_for(client, uri, 41)
    assert [d.code for d in found] == ["AFN402"] and "S 41" in found[0].message
    published = [version for version, _ in PUBLISHED[uri]]
    assert published[-1] == 41 and len(published) < 10  # the stale versions were dropped


async def test_a_document_twice_the_editor_limit_then_a_small_one(
        client: LanguageClient) -> None:
    """A document far past the size the editor checks (AFN120), about 8 MB over stdio,
    leaves the server answering the small one it is changed to.  (It was 50 MB before the
    limit existed: 3 s of CPU and 7 s of wall, for the same path as this size.)"""
    uri = uri_of("huge.afn")
    games = sample("club-night.afn").split("\n", 1)[1]
    huge = "% AFN 1\n" + games * (2 * MAX_EDITOR_CHARS // len(games) + 1)
    assert len(huge) > 2 * MAX_EDITOR_CHARS
    open_text(client, uri, huge)
    change_text(client, uri, sample("revoke.afn"), 2)
    found = await diagnostics_for(client, uri, 2)
    assert [d.code for d in found] == ["AFN306"]
