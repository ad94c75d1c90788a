"""`kingdom lsp`: the language service (service.py) as a Language Server Protocol server over
stdio, on pygls: diagnostics as a card or scenario file is opened and changed, completion,
hover, go to definition and quick fixes for any editor with an LSP client."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from kingdom.editor.service import Completion, Problem, Range, Workspace

KINDS = {"phrase": lsp.CompletionItemKind.Keyword, "card": lsp.CompletionItemKind.Class,
         "type": lsp.CompletionItemKind.Enum, "key": lsp.CompletionItemKind.Property,
         "value": lsp.CompletionItemKind.Value}


def _range(where: Range) -> lsp.Range:
    return lsp.Range(lsp.Position(where.line, where.column),
                     lsp.Position(where.end_line, where.end_column))


def _diagnostic(problem: Problem) -> lsp.Diagnostic:
    message = problem.message + (f"\n{problem.hint}" if problem.hint else "")
    return lsp.Diagnostic(_range(problem.range), message, lsp.DiagnosticSeverity.Error,
                          code=problem.code, source="kingdom")


def _item(completion: Completion) -> lsp.CompletionItem:
    documentation = (lsp.MarkupContent(lsp.MarkupKind.Markdown, completion.documentation)
                     if completion.documentation else None)
    return lsp.CompletionItem(
        completion.label, kind=KINDS.get(completion.kind), detail=completion.detail or None,
        documentation=documentation, filter_text=completion.label,
        text_edit=lsp.TextEdit(_range(completion.range), completion.text))


def expansion_root(file: Path) -> Path | None:
    """The expansion a card file belongs to: the nearest folder above it with a manifest."""
    for folder in Path(file).resolve().parents:
        if (folder / "expansion.yaml").is_file():
            return folder
    return None


def make_server(folders: Sequence[Path] = ()) -> LanguageServer:
    """A server answering for `folders` and the expansion of each file opened."""
    server = LanguageServer("kingdom", "0.1.0")
    workspace = Workspace([Path(f) for f in folders])

    def document(uri: str) -> tuple[Path, str]:
        path = Path(to_fs_path(uri) or uri)
        root = expansion_root(path)
        if root is not None and root not in workspace.folders:
            workspace.folders.append(root)
            workspace.refresh()
        return path, server.workspace.get_text_document(uri).source

    def publish(uri: str) -> None:
        path, text = document(uri)
        diagnostics = [_diagnostic(p) for p in workspace.problems(path, text)]
        server.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        workspace.refresh()
        publish(params.text_document.uri)

    def at_cursor(ask, params):
        """The workspace's answer `ask` for the document and cursor position of `params`."""
        path, text = document(params.text_document.uri)
        return ask(path, text, params.position.line, params.position.character)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=[" ", "$", "["]))
    def completion(params: lsp.CompletionParams) -> lsp.CompletionList:
        found = at_cursor(workspace.complete, params)
        return lsp.CompletionList(is_incomplete=False, items=[_item(c) for c in found])

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        found = at_cursor(workspace.hover, params)
        if found is None:
            return None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, found.markdown),
                         _range(found.range))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(params: lsp.DefinitionParams) -> lsp.Location | None:
        found = at_cursor(workspace.definition, params)
        if found is None:
            return None
        return lsp.Location(found.file.resolve().as_uri(), _range(found.range))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        path, text = document(uri)
        asked = params.range
        actions = []
        for problem in workspace.problems(path, text):
            where = problem.range
            if where.end_line < asked.start.line or where.line > asked.end.line:
                continue
            for fix in problem.fixes:
                edit = lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(_range(fix.range), fix.text)]})
                actions.append(lsp.CodeAction(fix.title, kind=lsp.CodeActionKind.QuickFix,
                                              diagnostics=[_diagnostic(problem)], edit=edit,
                                              is_preferred=True))
        return actions

    return server


def serve(folders: Sequence[Path] = ()) -> None:
    """Answer an editor on stdin/stdout until it shuts the server down."""
    make_server(folders).start_io()
