"""The card language where a designer types: a language service (service.py) that both the
LSP server (lsp.py, `kingdom lsp`) and Kingdom Studio (kingdom/studio/) use."""
