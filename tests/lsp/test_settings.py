"""The server's rule settings (``allfours.rules``, ``allfours.rulesFile``), read from
``initializationOptions`` and ``workspace/didChangeConfiguration`` as ``check``'s
``--rules`` and ``--rules-file`` read theirs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from allfours_notation.lsp.document import Analyzer
from allfours_notation.lsp.settings import NO_CHOICE, rule_choice
from tests.waiting import holds

ROOT = Path(__file__).resolve().parents[2]
DISPUTED = (ROOT / "samples" / "disputed-claim.afn").read_text(encoding="utf-8")
SERVER = [sys.executable, "-m", "allfours_notation", "lsp", "--debounce", "20"]
HOUSE = """name = "arima"
description = "Arima club: as Hoffmann, to ten"
base = "hoffmann1909"
[options]
target = 10
[sources]
target = "club committee, 2025"
"""

pytestmark = [pytest.mark.xdist_group("lsp-typing")]


def codes(text: str, settings: object, workspace: Path | None = None) -> list[str]:
    analysis = Analyzer(rule_choice(settings, workspace)).analyse(text)
    return [d.code for d in analysis.diagnostics()]


def test_a_profile_replays_every_game_under_it() -> None:
    """Under english10 (to ten) the record's result, N at seven, is disputed (AFN403)."""
    assert codes(DISPUTED, None) == ["AFN402", "AFN401", "AFN402", "AFN401"]
    for settings in ({"rules": "english10"}, {"allfours": {"rules": "english10"}}):
        assert codes(DISPUTED, settings)[0] == "AFN403"


def test_a_house_rules_file_relative_to_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "club.toml").write_text(HOUSE, encoding="utf-8")
    text = DISPUTED.replace('[Rules "hoffmann1909"]\n', "")  # a game naming no profile
    assert "AFN403" not in codes(text, None)
    assert "AFN403" in codes(text, {"allfours": {"rulesFile": "club.toml"}}, tmp_path)


def test_settings_that_cannot_be_used_are_dropped_saying_why(tmp_path: Path) -> None:
    unknown = rule_choice({"rules": "whist"})
    assert unknown.profile is None and "unknown rule profile 'whist'" in unknown.problems[0]
    missing = rule_choice({"rulesFile": "nope.toml"}, tmp_path)
    assert missing.house is None and "nope.toml: cannot be read" in missing.problems[0]
    (tmp_path / "bad.toml").write_text('name = "x"\n[options]\ntarget = "many"\n')
    bad = rule_choice({"rulesFile": "bad.toml"}, tmp_path)
    assert bad.house is None and "the house rules cannot be used" in bad.problems[0]
    assert rule_choice(["not", "a", "mapping"]) == NO_CHOICE == rule_choice({"rules": ""})


PUBLISHED: dict[str, list[list[str]]] = {}
MESSAGES: list[str] = []


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    def remember(params: types.PublishDiagnosticsParams) -> None:
        PUBLISHED.setdefault(params.uri, []).append([str(d.code) for d in params.diagnostics])

    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = remember
    lsp_client.protocol.fm.features[types.WINDOW_SHOW_MESSAGE] = \
        lambda params: MESSAGES.append(params.message)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        initialization_options={"allfours": {"rules": "english10"}}))
    yield
    await lsp_client.shutdown_session()


async def published(uri: str, count: int) -> list[str]:
    """The ``count``-th diagnostics published for ``uri`` (waiting for it)."""
    await holds(lambda: len(PUBLISHED.get(uri, [])) >= count, f"diagnostics #{count} of {uri}")
    return PUBLISHED[uri][count - 1]


@pytest.mark.asyncio(loop_scope="module")
async def test_the_settings_at_start_and_when_they_change(client: LanguageClient) -> None:
    uri = "file:///afn-settings/disputed.afn"
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="afn", version=1, text=DISPUTED)))
    assert "AFN403" in await published(uri, 1)  # english10, from initializationOptions
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"allfours": {"rules": None}}))
    assert sorted(await published(uri, 2)) == ["AFN401", "AFN401", "AFN402", "AFN402"]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"allfours": {"rules": "whist"}}))
    await holds(lambda: MESSAGES, "a message shown to the user")
    assert "unknown rule profile 'whist'" in MESSAGES[0]
