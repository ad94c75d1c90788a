"""`kingdom lsp` driven by a real LSP client over stdio (pytest-lsp starts the server as an
editor would): a card file with an error, completion, hover and a quick fix."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

CARD = """dsl: 1
name: Smelter
cost: 4
types: [Acton]
play: trash a card from your hand; gain a card costing up to $2 more than it
"""
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8"}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "kingdom", "lsp"],
                                              server_env=ENV))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.resolve().as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    return uri


@pytest.mark.asyncio
async def test_the_error_is_at_its_word_and_its_quick_fix_corrects_it(client, tmp_path) -> None:
    uri = _open(client, tmp_path / "smelter.yaml", CARD)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    [diagnostic] = client.diagnostics[uri]
    assert diagnostic.code == "K300" and "Acton" in diagnostic.message
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (3, 8)
    assert (diagnostic.range.end.line, diagnostic.range.end.character) == (3, 13)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), diagnostic.range,
        types.CodeActionContext(diagnostics=[diagnostic])))
    [fix] = actions
    assert fix.kind == types.CodeActionKind.QuickFix
    [edit] = fix.edit.changes[uri]
    assert edit.new_text == "Action" and edit.range == diagnostic.range
    line = CARD.splitlines()[3]
    fixed = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
    assert fixed == "types: [Action]"


@pytest.mark.asyncio
async def test_completion_after_costing_offers_up_to_with_its_phrase(client, tmp_path) -> None:
    text = CARD.replace("[Acton]", "[Action]").replace("up to $2 more than it", "")
    uri = _open(client, tmp_path / "smelter.yaml", text)
    line = text.splitlines()[4]
    result = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(4, len(line))))
    labels = {item.label: item for item in result.items}
    assert {"up to", "exactly", "at most", "$2"} <= set(labels)
    assert "costing up to" in labels["up to"].documentation.value
    assert "e.g." in labels["up to"].documentation.value  # the phrase's example
    assert "draw" not in labels  # only what may come here


@pytest.mark.asyncio
async def test_hover_on_a_card_name_shows_its_text(client, tmp_path) -> None:
    text = CARD.replace("[Acton]", "[Action]").replace("play: trash", "play: gain a Remodel; trash")
    uri = _open(client, tmp_path / "smelter.yaml", text)
    column = text.splitlines()[4].index("Remodel") + 3
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(4, column)))
    assert "**Remodel**" in hover.contents.value
    assert "Trash a card from your hand. Gain a card costing up to $2 more than it." in hover.contents.value
    definition = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), types.Position(4, column)))
    assert definition.uri.endswith("cards/base/remodel.yaml")
