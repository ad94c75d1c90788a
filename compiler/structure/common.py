"""What every construct uses to write itself: a `head: block` statement as one DSL line
(`unparse_compound`) and a statement's English with the reminder written after it
(`with_reminder`). They are here, below block.py, because If and Repeat use them and Block
looks at If and Repeat."""

from __future__ import annotations

from kingdom.compiler.nodes import Node


def unparse_compound(node: Node, body: Node | None = None) -> str:
    """A `head: block` statement on one line: "if you did: +1 card; +$1"."""
    return f"{node.unparse_head()}: {(body or node.body).unparse()}"


def with_reminder(node: Node, text: str) -> str:
    """A statement's text and the reminder written after it: "... (after drawing)", or a
    sentence of its own when it is one: "... their choice. (They may pick ...)"."""
    reminder = getattr(node, "reminder", "")
    if not reminder:
        return text
    return f"{text}. {reminder}" if reminder[1:2].isupper() else f"{text} {reminder}"


def unparse_option(option: Node) -> str:
    """An option of an inline choice or a case of a table, as one line: its steps joined by
    "and" or ", then"."""
    parts = []
    for node in option.statements:
        sep = ", then " if getattr(node, "then_before", False) else " and "
        parts.append((sep if parts else "") + node.unparse())
    return "".join(parts)
