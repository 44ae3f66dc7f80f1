"""Completion while typing, and semantic tokens, end to end: a real ``allfours lsp``
process driven by a pytest-lsp client, each context's line typed character by
character (a change, then a completion request, after every character), as an editor
sends them.

What the editor shows is what it keeps of the items: those whose filter text (the
label when there is none) starts with the word being typed.  The expected cards,
calls and points are the referee's for ``samples/club-night.afn``, worked out by hand
in each test's comment.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[2]
SERVER = [sys.executable, "-m", "allfours_notation", "lsp", "--debounce", "50"]
LINES = (ROOT / "samples" / "club-night.afn").read_text(encoding="utf-8").split("\n")
# 0-based lines of the sample's first game
EVENT, DEAL_1, HAND_S, TURN, CALL, TRICK_1, TRICK_3, CLAIM, TOTAL, DEAL_2 = (
    2, 12, 13, 15, 16, 18, 20, 24, 25, 27)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.xdist_group("lsp-typing")]
_TYPED = re.compile(r"[^\s{};]*$")
INITIALIZED: list[types.InitializeResult] = []  # the server's answer to initialize


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities()))
    INITIALIZED.append(result)
    yield
    await lsp_client.shutdown_session()


class Typist:
    """One document, its line ``line`` typed a character at a time."""

    def __init__(self, client: LanguageClient, name: str, before: Sequence[str],
                 after: Sequence[str] = ()) -> None:
        self.client, self.uri = client, f"file:///afn-typing/{name}.afn"
        self.before, self.after = list(before), list(after)
        self.version = 1
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            uri=self.uri, language_id="afn", version=1, text=self.text(""))))

    def text(self, line: str) -> str:
        return "\n".join([*self.before, line, *self.after])

    async def shown_at_each(self, line: str) -> list[list[str]]:
        """For each prefix of ``line`` (every character typed): the labels the editor
        shows there, in the server's order."""
        shown = []
        for end in range(1, len(line) + 1):
            typed = line[:end]
            self.version += 1
            self.client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri,
                                                                    version=self.version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(
                    text=self.text(typed))]))
            answer = await self.client.text_document_completion_async(types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri),
                position=types.Position(line=len(self.before), character=len(typed))))
            items = answer.items if isinstance(answer, types.CompletionList) else answer or []
            word = _TYPED.search(typed)
            shown.append(editor_keeps(items, word.group() if word else ""))
        return shown


def editor_keeps(items: Sequence[types.CompletionItem], word: str) -> list[str]:
    ordered = sorted(items, key=lambda i: i.sort_text or i.label)
    return [i.label for i in ordered
            if (i.filter_text or i.label).lower().startswith(word.lower())]


async def test_the_legal_cards_after_a_tricks_number_and_a_seat(client: LanguageClient) -> None:
    """After tricks 1 and 2, South leads trick 3 from QS TS 4S 7C (2S and 2D are
    gone); diamonds are trumps and South has none, so every card is legal."""
    legal = {"S:7C", "S:QS", "S:TS", "S:4S"}
    typist = Typist(client, "trick", LINES[:TRICK_3], LINES[TRICK_3 + 1:])
    shown = await typist.shown_at_each("  3. S:")
    assert [set(labels) for labels in shown[2:]] == [legal] * 5  # "  3" … "  3. S:"
    assert shown[1][:4] == ["S:7C", "S:QS", "S:TS", "S:4S"]  # "  ": first, among others


async def test_the_next_play_of_a_trick_begun_on_the_line(client: LanguageClient) -> None:
    """Trick 3 led with the 4S: North (3D 8D KC JH left, no spade) may play any."""
    typist = Typist(client, "follow", LINES[:TRICK_3], LINES[TRICK_3 + 1:])
    shown = await typist.shown_at_each("  3. S:4S N:")
    assert set(shown[-1]) == {"N:3D", "N:8D", "N:KC", "N:JH"}
    assert set(shown[9]) == {"N:3D", "N:8D", "N:KC", "N:JH"}  # "  3. S:4S " typed


async def test_a_new_line_offers_what_the_referee_expects_next(client: LanguageClient) -> None:
    """After the turn-up (7D) the elder hand, South, stands or begs."""
    typist = Typist(client, "call", LINES[:CALL], LINES[CALL + 1:])
    shown = await typist.shown_at_each("  S")
    assert shown[1][:2] == ["S stands", "S begs"]  # "  "
    assert shown[2][:2] == ["S stands", "S begs"]  # "  S": and the seat itself


async def test_the_calls_after_a_seat_the_expected_one_first(client: LanguageClient) -> None:
    """South begged: North, the dealer, gives or runs."""
    typist = Typist(client, "answer", LINES[:CALL + 1], LINES[CALL + 2:])
    shown = await typist.shown_at_each("  N g")
    assert shown[3][:2] == ["gives", "runs"]  # "  N "
    assert shown[4] == ["gives"]  # "  N g"


async def test_the_claim_items_the_referee_counts(client: LanguageClient) -> None:
    """Deal 1: South scores gift and low, North high and game."""
    typist = Typist(client, "claim", LINES[:CLAIM], LINES[CLAIM + 1:])
    shown = await typist.shown_at_each("  claim S ")
    assert shown[2][:1] == ["claim S gift low N high game"]  # "  c": the whole claim
    assert shown[7][0] == "S gift low N high game"  # "  claim "
    assert shown[9][:3] == ["gift", "low", "N"]  # "  claim S ": South's, then North


async def test_the_running_total_by_seat(client: LanguageClient) -> None:
    typist = Typist(client, "total", LINES[:TOTAL], LINES[TOTAL + 1:])
    shown = await typist.shown_at_each("  total N 2 S ")
    assert shown[7] == ["N", "S"]  # "  total "
    assert shown[9] == ["2"]  # "  total N "
    assert shown[11] == ["S"]  # "  total N 2 "
    assert shown[13] == ["2"]  # "  total N 2 S "


async def test_the_cards_that_may_be_turned_up(client: LanguageClient) -> None:
    """Both hands are written: 40 cards are in neither."""
    typist = Typist(client, "turn", LINES[:TURN], LINES[TURN + 1:])
    shown = await typist.shown_at_each("  turn 7")
    held = set(LINES[HAND_S].split()[1:]) | set(LINES[HAND_S + 1].split()[1:])
    assert len(shown[6]) == 40 and not held & set(shown[6])  # "  turn "
    assert "7D" in shown[7] and all(card.startswith("7") for card in shown[7])


async def test_the_next_deal_and_its_dealer(client: LanguageClient) -> None:
    """After deal 1 (dealt by North) South deals deal 2."""
    typist = Typist(client, "deal", LINES[:DEAL_2], LINES[DEAL_2 + 1:])
    shown = await typist.shown_at_each("deal 2 dealer ")
    assert shown[0][0] == "deal 2 dealer S"  # "d"
    assert shown[4] == ["2"]  # "deal "
    assert shown[6] == ["dealer"]  # "deal 2 "
    assert shown[13][0] == "S"  # "deal 2 dealer "


async def test_tags_only_in_a_header(client: LanguageClient) -> None:
    """In the header: the tags not yet written ([Event] is); in a deal, none."""
    header = Typist(client, "header", LINES[:EVENT + 1], LINES[EVENT + 1:])
    shown = await header.shown_at_each("[Si")
    assert shown[0][0] == '[Site ""]' and '[Event ""]' not in shown[0]
    assert shown[2] == ['[Site ""]']
    in_deal = Typist(client, "in-deal", LINES[:HAND_S], LINES[HAND_S + 1:])
    for labels in await in_deal.shown_at_each("  S"):
        assert not any(label.startswith("[") for label in labels)


async def test_semantic_tokens_are_served_full_and_by_range(client: LanguageClient) -> None:
    """The server says it has them (full and range, with the legend) and serves what
    :mod:`allfours_notation.lsp.tokens` computes (tested in test_tokens.py)."""
    from allfours_notation.lsp import tokens
    from allfours_notation.lsp.document import Analyzer

    provider = INITIALIZED[0].capabilities.semantic_tokens_provider
    assert isinstance(provider, types.SemanticTokensOptions)
    assert list(provider.legend.token_types) == list(tokens.TOKEN_TYPES)
    assert provider.full and provider.range
    text = "\n".join(LINES)
    uri = "file:///afn-typing/tokens.afn"
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="afn", version=1, text=text)))
    document = types.TextDocumentIdentifier(uri=uri)
    full = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=document))
    analysis = Analyzer().analyse(text)
    assert full is not None and list(full.data) == tokens.semantic_tokens(analysis).data
    wanted = types.Range(types.Position(TRICK_1, 0), types.Position(CLAIM, 0))
    part = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(text_document=document, range=wanted))
    assert part is not None
    assert list(part.data) == tokens.semantic_tokens(analysis, wanted).data
    assert list(part.data[:5]) == [TRICK_1, 2, 2, tokens.TOKEN_TYPES.index("number"), 0]  # "1."
