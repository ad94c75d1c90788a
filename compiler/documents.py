"""Reading a user's YAML file (scenario or strategy) so that no input can end in a traceback.

`compiler.loader.load_yaml` parses safely, within limits, and keeps positions; here a path
that is no file at all (missing, a folder, a named pipe, a device) becomes one diagnostic with
the given code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.files import not_regular
from kingdom.compiler.loader import Located, load_yaml


def read_yaml(file: str | Path, unreadable: str) -> tuple[Located | None, list[Diagnostic]]:
    """The document of `file`, or diagnostics; `unreadable` is the code for a file not read."""
    name = str(file)
    path = Path(file)
    if path.is_dir():
        return None, [Diagnostic(unreadable, "this is a folder, not a YAML file", name)]
    if not path.exists():
        return None, [Diagnostic(unreadable, "no such file", name)]
    why = not_regular(path)
    if why:
        return None, [Diagnostic(unreadable, f"this is {why}", name, hint="only regular files "
                                 "are read")]
    return load_yaml(name)  # (encodings, size, depth and long numbers: diagnostics there)


def kind_of(value: Any) -> str:
    """A YAML value's kind in words, for messages: "a mapping", "text", "nothing"."""
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", int: "a number",
            float: "a number", type(None): "nothing"}.get(type(value), type(value).__name__)
