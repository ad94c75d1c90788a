"""Reading a user's YAML file (scenario or strategy) so that no input can end in a traceback.

`compiler.loader.load_yaml` parses safely and keeps positions; here a file that cannot be read
at all (missing, a folder, not UTF-8 text, a number too long for Python) becomes one
diagnostic with the given code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compiler.errors import Diagnostic
from compiler.loader import Located, load_yaml


def read_yaml(file: str | Path, unreadable: str) -> tuple[Located | None, list[Diagnostic]]:
    """The document of `file`, or diagnostics; `unreadable` is the code for a file not read."""
    name = str(file)
    path = Path(file)
    if path.is_dir():
        return None, [Diagnostic(unreadable, "this is a folder, not a YAML file", name)]
    if not path.is_file():
        return None, [Diagnostic(unreadable, "no such file", name)]
    try:
        return load_yaml(name)
    except UnicodeDecodeError as exc:
        return None, [Diagnostic(unreadable, f"not UTF-8 text (byte {exc.start} cannot be decoded)",
                                 name)]
    except OSError as exc:
        return None, [Diagnostic(unreadable, f"cannot be read: {exc.strerror or exc}", name)]
    except RecursionError:
        return None, [Diagnostic(unreadable, "nested too deeply to read", name)]
    except ValueError as exc:  # an integer of thousands of digits, beyond Python's int() limit
        too_long = "digits" in str(exc)
        return None, [Diagnostic(unreadable, "a number in it has too many digits" if too_long
                                 else f"cannot be read: {exc}", name)]



def kind_of(value: Any) -> str:
    """A YAML value's kind in words, for messages: "a mapping", "text", "nothing"."""
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", int: "a number",
            float: "a number", type(None): "nothing"}.get(type(value), type(value).__name__)
